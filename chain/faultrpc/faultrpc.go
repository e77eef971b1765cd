// Package faultrpc puts an HTTP JSON-RPC endpoint in front of a real node, for tests, and makes it
// fail on demand as hosted providers do: rate limited, erroring, resetting, hanging, or stale (its
// head stands still while the node's moves). It serves any path, so a test can give it a URL with
// a provider's key in it and check the key is never shown.
package faultrpc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// Fault is how the endpoint misbehaves.
type Fault string

const (
	None        Fault = ""
	TooMany     Fault = "429"   // every request answered 429 Too Many Requests
	ServerError Fault = "500"   // every request answered 500
	Reset       Fault = "reset" // every connection closed without an answer
	Hang        Fault = "hang"  // no answer until the client gives up
)

// Proxy is the endpoint.
type Proxy struct {
	URL string // its base URL: append a path and a query at will

	upstream string
	requests atomic.Int64
	calls    sync.Map // method → *atomic.Int64

	mu      sync.Mutex
	fault   Fault
	head    string // non-empty: eth_blockNumber's answer, frozen
	chainID string // non-empty: eth_chainId's answer
	logCap  int    // >0: an eth_getLogs answer of more logs is refused
}

// New forwards to upstream, a node's HTTP JSON-RPC URL, until the test ends.
func New(t testing.TB, upstream string) *Proxy {
	p := &Proxy{upstream: upstream}
	srv := httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(srv.Close)
	p.URL = srv.URL
	return p
}

// Fail starts f (None ends it).
func (p *Proxy) Fail(f Fault) {
	p.mu.Lock()
	p.fault = f
	p.mu.Unlock()
}

// FreezeHead answers eth_blockNumber with n from now on, whatever the node's head; 0 thaws it.
func (p *Proxy) FreezeHead(n uint64) {
	p.mu.Lock()
	p.head = ""
	if n > 0 {
		p.head = fmt.Sprintf("0x%x", n)
	}
	p.mu.Unlock()
}

// ServeChainID answers eth_chainId with id: an endpoint on another chain.
func (p *Proxy) ServeChainID(id uint64) {
	p.mu.Lock()
	p.chainID = fmt.Sprintf("0x%x", id)
	p.mu.Unlock()
}

// CapLogs refuses, from now on, an eth_getLogs whose answer holds more than n logs, in Infura's
// words ("query returned more than n results"), as hosted providers cap them; 0 lifts the cap.
func (p *Proxy) CapLogs(n int) {
	p.mu.Lock()
	p.logCap = n
	p.mu.Unlock()
}

// Requests is how many HTTP requests reached the endpoint.
func (p *Proxy) Requests() int64 { return p.requests.Load() }

// Calls is how many calls of method reached the endpoint, one a batch's element. An eth_call is
// also counted by the contract it calls: Calls("eth_call 0xabc…"), the address in lower case.
func (p *Proxy) Calls(method string) int64 {
	if n, ok := p.calls.Load(method); ok {
		return n.(*atomic.Int64).Load()
	}
	return 0
}

// call is a JSON-RPC call, as far as the proxy counts it.
type call struct {
	Method string
	Params []json.RawMessage
}

// count counts the calls of body, a request or a batch of them.
func (p *Proxy) count(body []byte) {
	var calls []call
	if json.Unmarshal(body, &calls) != nil {
		calls = calls[:0]
		var one call
		if json.Unmarshal(body, &one) != nil {
			return
		}
		calls = append(calls, one)
	}
	for _, c := range calls {
		p.countOne(c.Method)
		var tx struct{ To string }
		if c.Method == "eth_call" && len(c.Params) > 0 && json.Unmarshal(c.Params[0], &tx) == nil {
			p.countOne("eth_call " + strings.ToLower(tx.To))
		}
	}
}

func (p *Proxy) countOne(key string) {
	n, _ := p.calls.LoadOrStore(key, new(atomic.Int64))
	n.(*atomic.Int64).Add(1)
}

func (p *Proxy) serve(w http.ResponseWriter, r *http.Request) {
	p.requests.Add(1)
	body, _ := io.ReadAll(r.Body)
	p.count(body)
	p.mu.Lock()
	fault, head, chainID, logCap := p.fault, p.head, p.chainID, p.logCap
	p.mu.Unlock()
	switch fault {
	case TooMany:
		http.Error(w, "Too Many Requests", http.StatusTooManyRequests)
		return
	case ServerError:
		http.Error(w, "upstream failed", http.StatusInternalServerError)
		return
	case Reset:
		if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
			conn.Close()
		}
		return
	case Hang:
		<-r.Context().Done()
		return
	}
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(body, &req) == nil { // a single request, not a batch
		answer := map[string]string{"eth_blockNumber": head, "eth_chainId": chainID}[req.Method]
		if answer != "" {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%q}`, req.ID, answer)
			return
		}
	}
	resp, err := http.Post(p.upstream, "application/json", bytes.NewReader(body))
	if err != nil {
		http.Error(w, "node unreachable", http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	w.Header().Set("Content-Type", "application/json")
	if logCap > 0 && req.Method == "eth_getLogs" {
		answer, _ := io.ReadAll(resp.Body)
		var logs struct {
			Result []json.RawMessage `json:"result"`
		}
		if json.Unmarshal(answer, &logs) == nil && len(logs.Result) > logCap {
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32005,"message":"query returned more than %d results"}}`, req.ID, logCap)
			return
		}
		w.WriteHeader(resp.StatusCode)
		w.Write(answer)
		return
	}
	w.WriteHeader(resp.StatusCode)
	io.Copy(w, resp.Body)
}
