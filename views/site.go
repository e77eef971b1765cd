package views

import (
	"context"
	"strconv"
)

// Site is what the frame of every page shows and tells the wallet snippet: the network a wallet
// must be on, where to look a transaction up, and who is signed in.
type Site struct {
	ChainID   int64
	Network   string // the chain's name, for people
	WalletRPC string // an RPC URL a wallet may add the network with; empty when none is public
	Explorer  string // a block explorer's base URL, without a trailing slash; empty: no links
	SignedIn  string // the signed-in wallet, lower case; empty when none

	RefundPolicy string // when a payment that buys no node is refunded ("within 2 working days"); empty: no time promised
	SupportURL   string // where a buyer asks (http(s) or mailto); empty: none
}

type siteKey struct{}

// WithSite returns ctx carrying s, for the pages rendered with it.
func WithSite(ctx context.Context, s Site) context.Context {
	return context.WithValue(ctx, siteKey{}, s)
}

// SiteOf is the Site ctx carries; the zero Site (no network known, nobody signed in) without one.
func SiteOf(ctx context.Context) Site {
	s, _ := ctx.Value(siteKey{}).(Site)
	return s
}

// NetworkName is the name people know chain id by; "Chain <id>" for one we do not know.
func NetworkName(id int64) string {
	switch id {
	case 1:
		return "Ethereum"
	case 10:
		return "Optimism"
	case 137:
		return "Polygon"
	case 8453:
		return "Base"
	case 42161:
		return "Arbitrum One"
	case 17000:
		return "Holesky"
	case 11155111:
		return "Sepolia"
	case 560048:
		return "Hoodi"
	case 1337:
		return "Dev chain"
	}
	return "Chain " + strconv.FormatInt(id, 10)
}
