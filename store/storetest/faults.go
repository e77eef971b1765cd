package storetest

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	toxiproxy "github.com/Shopify/toxiproxy/v2"
	"github.com/rs/zerolog"
)

// FaultProxy is a toxiproxy, run in the test's process, between the code under test and one of
// its dependencies: the database, or the chain's RPC.
type FaultProxy struct {
	t *testing.T
	p *toxiproxy.Proxy
}

// NewFaultProxy forwards a fresh local address to upstream (host:port) until the test ends.
func NewFaultProxy(t *testing.T, upstream string) *FaultProxy {
	t.Helper()
	srv := toxiproxy.NewServer(toxiproxy.NewMetricsContainer(nil), zerolog.Nop())
	p := toxiproxy.NewProxy(srv, "dependency", "127.0.0.1:0", upstream)
	if err := p.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Stop)
	return &FaultProxy{t: t, p: p}
}

// ProxyURL puts a FaultProxy before the server of rawURL (a database's or an RPC's URL) and
// returns it with the URL that reaches the server through it.
func ProxyURL(t *testing.T, rawURL string) (*FaultProxy, string) {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := NewFaultProxy(t, u.Host)
	u.Host = proxy.Addr()
	return proxy, u.String()
}

// Addr is the host:port to connect to instead of upstream.
func (f *FaultProxy) Addr() string { return f.p.Listen }

// Fault is one way for a dependency to misbehave.
type Fault struct {
	Name  string
	toxic string // a toxiproxy toxic as JSON; empty takes the dependency down altogether
}

// Faults are the ones every fault test injects.
var Faults = []Fault{
	{"slow", `{"type": "latency", "attributes": {"latency": 3000}}`},
	{"dead peer", `{"type": "timeout", "attributes": {"timeout": 0}}`}, // connections stay open, nothing comes back
	{"reset", `{"type": "reset_peer", "attributes": {"timeout": 0}}`},
	{"down", ""},
}

// Inject starts the fault, on connections already open and new ones alike.
func (f *FaultProxy) Inject(x Fault) {
	f.t.Helper()
	if x.toxic == "" {
		f.p.Stop()
		return
	}
	var toxic map[string]any
	if err := json.Unmarshal([]byte(x.toxic), &toxic); err != nil {
		f.t.Fatal(err)
	}
	toxic["name"] = "fault"
	body, _ := json.Marshal(toxic)
	if _, err := f.p.Toxics.AddToxicJson(strings.NewReader(string(body))); err != nil {
		f.t.Fatal(err)
	}
}

// Heal ends the fault.
func (f *FaultProxy) Heal(x Fault) {
	f.t.Helper()
	if x.toxic == "" {
		if err := f.p.Start(); err != nil {
			f.t.Fatal(err)
		}
		return
	}
	if err := f.p.Toxics.RemoveToxic(f.t.Context(), "fault"); err != nil {
		f.t.Fatal(err)
	}
}
