package jobs

import "net/netip"

// publicAddress is the one rule for where a webhook may go, applied when an endpoint is added
// (CheckWebhookURL) and again to the address each delivery's connection is about to reach
// (refuseAtDial): only a global unicast address outside the IANA special-purpose blocks.
//
// An IPv4-mapped address (::ffff:0:0/96) is judged as the IPv4 address it carries: that is the
// address the kernel connects to, and the one the dialer is shown. The other IPv6 forms that
// carry an IPv4 address (NAT64, 6to4, Teredo, IPv4-compatible) are refused whole rather than
// judged by the address inside: what sits behind a translator or relay is beyond our sight (on an
// IPv6-only host behind NAT64, 64:ff9b::a9fe:a9fe is the metadata service), and a receiver with a
// public IPv4 address can always be given that address itself.
func publicAddress(ip netip.Addr) error {
	// netip.Prefix.Contains answers false for an address with a zone, whatever the address: kept,
	// the zone would keep every block below from matching.
	ip = ip.Unmap().WithZone("")
	if !ip.IsValid() {
		return &TargetError{Reason: "the address's host could not be checked"}
	}
	for _, b := range specialPurpose {
		if b.Contains(ip) {
			return refusedAddress(ip, "in "+b.Prefix.String()+" ("+b.name+")")
		}
	}
	// IANA allocates IPv6 global unicast from 2000::/3 only; the rest of the space is reserved,
	// so whatever the registry adds outside it later is refused already.
	if ip.Is6() && !globalUnicast6.Contains(ip) {
		return refusedAddress(ip, "outside 2000::/3, the IPv6 global unicast space")
	}
	return nil
}

func refusedAddress(ip netip.Addr, where string) error {
	return &TargetError{Reason: "the address's host is not a public address: " + ip.String() + " is " + where +
		"; set WEBHOOK_ALLOW_PRIVATE=true to allow it", Address: ip.String()}
}

var globalUnicast6 = netip.MustParsePrefix("2000::/3")

type block struct {
	netip.Prefix
	name string
}

// specialPurpose is the IANA IPv4 and IPv6 Special-Purpose Address Registries (RFC 6890 and its
// successors), with multicast and IPv4's reserved 240/4 besides, the narrower block first where
// two overlap so that the refusal names it. The registries' few globally reachable anycast
// blocks outside these (AS112, AMT: 192.31.196.0/24, 192.52.193.0/24, 192.175.48.0/24,
// 2620:4f:8000::/48) are ordinary public addresses and stay allowed.
var specialPurpose = []block{
	{netip.MustParsePrefix("0.0.0.0/8"), `"this network"`}, // 0.0.0.0 itself reaches this host
	{netip.MustParsePrefix("10.0.0.0/8"), "private use"},
	{netip.MustParsePrefix("100.64.0.0/10"), "shared address space (carrier-grade NAT)"},
	{netip.MustParsePrefix("127.0.0.0/8"), "loopback"},
	{netip.MustParsePrefix("169.254.0.0/16"), "link-local"},
	{netip.MustParsePrefix("172.16.0.0/12"), "private use"},
	{netip.MustParsePrefix("192.0.0.0/24"), "IETF protocol assignments"},
	{netip.MustParsePrefix("192.0.2.0/24"), "documentation (TEST-NET-1)"},
	{netip.MustParsePrefix("192.88.99.0/24"), "6to4 relay anycast"},
	{netip.MustParsePrefix("192.168.0.0/16"), "private use"},
	{netip.MustParsePrefix("198.18.0.0/15"), "benchmarking"},
	{netip.MustParsePrefix("198.51.100.0/24"), "documentation (TEST-NET-2)"},
	{netip.MustParsePrefix("203.0.113.0/24"), "documentation (TEST-NET-3)"},
	{netip.MustParsePrefix("224.0.0.0/4"), "multicast"},
	{netip.MustParsePrefix("255.255.255.255/32"), "limited broadcast"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved"},

	{netip.MustParsePrefix("::/128"), "unspecified"},
	{netip.MustParsePrefix("::1/128"), "loopback"},
	{netip.MustParsePrefix("::/96"), "IPv4-compatible (deprecated)"},
	{netip.MustParsePrefix("64:ff9b::/96"), "NAT64"},
	{netip.MustParsePrefix("64:ff9b:1::/48"), "local-use NAT64"},
	{netip.MustParsePrefix("100::/64"), "discard-only"},
	{netip.MustParsePrefix("2001::/32"), "Teredo"},
	{netip.MustParsePrefix("2001::/23"), "IETF protocol assignments"},
	{netip.MustParsePrefix("2001:db8::/32"), "documentation"},
	{netip.MustParsePrefix("2002::/16"), "6to4"},
	{netip.MustParsePrefix("3fff::/20"), "documentation"},
	{netip.MustParsePrefix("5f00::/16"), "segment routing (SRv6) SIDs"},
	{netip.MustParsePrefix("fc00::/7"), "unique local"},
	{netip.MustParsePrefix("fe80::/10"), "link-local"},
	{netip.MustParsePrefix("ff00::/8"), "multicast"},
}
