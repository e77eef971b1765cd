package main

import (
	"log/slog"
	"strings"
	"testing"

	"nodeledger/chain/devchain"
	"nodeledger/chain/faultrpc"
)

// ETH_RPC_URL's list: each endpoint an http(s) or ws(s) URL or an IPC path; a bad one is named by
// its place and host, never with the key in its path or query.
func TestRPCURLs(t *testing.T) {
	for name, list := range map[string]string{
		"one":                 "https://rpc.example.com/v2/KEY",
		"several, with space": "https://a.example.com/v2/KEY, wss://b.example.com/ws?key=KEY,/var/run/geth.ipc",
	} {
		t.Run(name, func(t *testing.T) {
			cfg, err := loadConfig(env(withChain("ETH_RPC_URL", list)...))
			if err != nil || cfg.EthRPCURL != list {
				t.Fatalf("got %q, %v", cfg.EthRPCURL, err)
			}
		})
	}
	for name, list := range map[string]string{
		"an empty endpoint":     "https://a.example.com/v2/SECRETKEY,,https://b.example.com",
		"a trailing comma":      "https://a.example.com/v2/SECRETKEY,",
		"another scheme":        "https://a.example.com/v2/SECRETKEY,ftp://b.example.com/SECRETKEY?k=SECRETKEY",
		"a scheme with no host": "https://a.example.com,http:///SECRETKEY",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := loadConfig(env(withChain("ETH_RPC_URL", list)...))
			if err == nil || !strings.HasPrefix(err.Error(), "ETH_RPC_URL: endpoint ") || strings.Contains(err.Error(), "SECRETKEY") {
				t.Fatalf("got %v: want ETH_RPC_URL refused, naming the endpoint without its key", err)
			}
		})
	}
}

// At start every endpoint must serve CHAIN_ID: one on another chain is refused, named by its
// scheme and host only; one that does not answer is let be.
func TestDialChainChecksEveryEndpoint(t *testing.T) {
	dc, err := devchain.Start(t.Context(), devchain.Options{RPCAddr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dc.Close() })
	good, other, down := faultrpc.New(t, dc.RPCURL()), faultrpc.New(t, dc.RPCURL()), faultrpc.New(t, dc.RPCURL())
	other.ServeChainID(8453)
	down.Fail(faultrpc.ServerError)
	cfg, err := loadConfig(env(withChain("CHAIN_ID", dc.ChainID().String())...))
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	cfg.Chain.Attempts = 1

	cfg.EthRPCURL = good.URL + "/v2/SECRETKEY," + down.URL + "/?key=SECRETKEY"
	ch, err := dialChain(t.Context(), cfg, log)
	if err != nil {
		t.Fatalf("a good endpoint and one down: %v", err)
	}
	ch.Close()

	cfg.EthRPCURL = good.URL + "/v2/SECRETKEY," + other.URL + "/v3/SECRETKEY?key=SECRETKEY"
	_, err = dialChain(t.Context(), cfg, log)
	want := "CHAIN_ID: is 1337 but the ETH_RPC_URL endpoint " + other.URL + " serves chain 8453"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %q", err, want)
	}
}
