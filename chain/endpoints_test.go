package chain

import (
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/params"

	"nodeledger/chain/devchain"
	"nodeledger/chain/faultrpc"
)

// Where providers put their keys: in the URL's path and in its query.
const keyInPath, keyInQuery = "kEyInPaTh0123456789", "kEyInQuErY0123456789"

// pool is a dev chain sealing a block every 10 ms, two endpoints in front of it that fail on
// demand, A then B, and a client of both through URLs that carry keys.
type pool struct {
	dc   *devchain.Chain
	a, b *faultrpc.Proxy
	c    *Client
}

func newPool(t *testing.T, cfg Config, setup ...func(a, b *faultrpc.Proxy)) *pool {
	t.Helper()
	dc, err := devchain.Start(t.Context(), devchain.Options{RPCAddr: "127.0.0.1:0", ManualMining: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dc.Close() })
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
				dc.Commit()
			}
		}
	}()
	t.Cleanup(func() { close(stop); <-done })
	p := &pool{dc: dc, a: faultrpc.New(t, dc.RPCURL()), b: faultrpc.New(t, dc.RPCURL())}
	for _, f := range setup {
		f(p.a, p.b)
	}
	cfg.Factory = dc.Factory
	p.c, err = Dial(t.Context(), p.a.URL+"/v2/"+keyInPath+" , "+p.b.URL+"/rpc?apikey="+keyInQuery, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.c.Close)
	return p
}

// polled waits for the head watch's first round, which runs as the client is dialled (an answer
// of it landing after a test's fault would have the endpoint answer again), and for both
// endpoints to be ok.
func (p *pool) polled(t *testing.T) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if eps := p.c.Endpoints(); eps[0].Head > 0 && eps[1].Head > 0 && eps[0].State == EndpointOK && eps[1].State == EndpointOK {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the heads were never read: %+v", p.c.Endpoints())
		}
		p.c.pollHeads(t.Context()) // the first round may have timed out on a busy machine
	}
}

// noKey fails the test if text shows a key of the endpoints' URLs.
func noKey(t *testing.T, text string) {
	t.Helper()
	for _, key := range []string{keyInPath, keyInQuery, "apikey"} {
		if strings.Contains(text, key) {
			t.Fatalf("%q shows a key of the RPC URL", text)
		}
	}
}

// heal ends A's fault and has the client see A answer again, as the head watch would.
func (p *pool) heal(t *testing.T) {
	p.a.Fail(faultrpc.None)
	p.b.Fail(faultrpc.None)
	p.c.pollHeads(t.Context())
	for _, ep := range p.c.Endpoints() {
		if ep.State != EndpointOK {
			t.Fatalf("after healing: %+v", p.c.Endpoints())
		}
	}
}

// Reads go to A; when A answers 429 or 500, resets or hangs, the same read is answered by B at
// once, and the next reads go to B without asking A. A read refused for the request's own sake
// is not asked again elsewhere.
func TestFailover(t *testing.T) {
	p := newPool(t, Config{CallTimeout: 2 * time.Second, HeadPoll: time.Hour})
	p.polled(t)
	ctx := t.Context()
	minter := p.dc.Minter.Address
	for _, fault := range []faultrpc.Fault{faultrpc.TooMany, faultrpc.ServerError, faultrpc.Reset, faultrpc.Hang} {
		t.Run("A answers "+string(fault), func(t *testing.T) {
			p.heal(t)
			p.a.Fail(fault)
			a, b := p.a.Requests(), p.b.Requests()
			if bal, err := p.c.Balance(ctx, minter); err != nil || bal.Sign() == 0 {
				t.Fatalf("balance through B: %v, %v", bal, err)
			}
			if p.a.Requests() != a+1 || p.b.Requests() != b+1 {
				t.Fatalf("A asked %d times, B %d: want A first, then B", p.a.Requests()-a, p.b.Requests()-b)
			}
			if eps := p.c.Endpoints(); eps[0].State != EndpointFailing || eps[1].State != EndpointOK {
				t.Fatalf("endpoints: %+v", eps)
			}
			a = p.a.Requests()
			if _, err := p.c.HeadNumber(ctx); err != nil || p.a.Requests() != a {
				t.Fatalf("the next read: %v, A asked %d times", err, p.a.Requests()-a)
			}
		})
	}
	t.Run("the request's own fault is not failed over", func(t *testing.T) {
		p.heal(t)
		a, b := p.a.Requests(), p.b.Requests()
		if _, err := p.c.NodeInfo(ctx, big.NewInt(999)); !errors.Is(err, ErrUnknownNode) {
			t.Fatalf("an unknown node: %v", err)
		}
		if p.a.Requests() != a+1 || p.b.Requests() != b {
			t.Fatalf("A asked %d times, B %d: want A once", p.a.Requests()-a, p.b.Requests()-b)
		}
	})
	t.Run("both down", func(t *testing.T) {
		p.heal(t)
		p.a.Fail(faultrpc.Reset)
		p.b.Fail(faultrpc.TooMany)
		_, err := p.c.Balance(ctx, minter)
		if !errors.Is(err, ErrUnavailable) {
			t.Fatalf("got %v, want ErrUnavailable", err)
		}
		noKey(t, err.Error())
		if !strings.Contains(err.Error(), "the RPC at "+p.a.URL) && !strings.Contains(err.Error(), "the RPC at "+p.b.URL) {
			t.Fatalf("%q names no endpoint by its host", err)
		}
		if eps := p.c.Endpoints(); eps[0].State != EndpointFailing || eps[1].State != EndpointFailing {
			t.Fatalf("endpoints: %+v", eps)
		}
	})
}

// An endpoint whose head stands still while the other's moves is noticed by the head watch, and
// reads avoid it until it catches up.
func TestStaleEndpoint(t *testing.T) {
	p := newPool(t, Config{HeadPoll: 20 * time.Millisecond, MinStale: 200 * time.Millisecond})
	ctx := t.Context()
	until := func(what string, ok func([]Endpoint) bool) []Endpoint {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			eps := p.c.Endpoints()
			if ok(eps) {
				return eps
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: never so; endpoints %+v", what, eps)
			}
		}
	}
	until("both read", func(eps []Endpoint) bool { return eps[0].Head > 0 && eps[1].Head > 0 })
	frozen, err := p.c.HeadNumber(ctx)
	if err != nil {
		t.Fatal(err)
	}
	p.a.FreezeHead(frozen)
	eps := until("A stale", func(eps []Endpoint) bool { return eps[0].State == EndpointStale })
	// A's head is the frozen one, or one the watch read just before it froze.
	if eps[0].Head < frozen || eps[0].Behind == 0 || eps[0].Head+eps[0].Behind != eps[1].Head || eps[1].State != EndpointOK || eps[1].Behind != 0 {
		t.Fatalf("endpoints: %+v", eps)
	}
	if eps[0].Name != p.a.URL || eps[1].Name != p.b.URL {
		t.Fatalf("names %q and %q, want %q and %q", eps[0].Name, eps[1].Name, p.a.URL, p.b.URL)
	}
	for range 5 {
		if head, err := p.c.HeadNumber(ctx); err != nil || head == frozen {
			t.Fatalf("a read gave head %d (%v): A's frozen one, not B's", head, err)
		}
	}
	p.a.FreezeHead(0)
	until("A caught up", func(eps []Endpoint) bool { return eps[0].State == EndpointOK })
}

// A signed transaction goes to every endpoint: sent to both it is no error (one has it already);
// sent while A is down it lands through B; a nonce another transaction took is still
// ErrNonceTaken.
func TestSendToAll(t *testing.T) {
	p := newPool(t, Config{CallTimeout: 2 * time.Second, HeadPoll: time.Hour})
	p.polled(t)
	ctx := t.Context()
	s := p.c.NewSender(LocalSigner(p.dc.Buyers[0].Key), p.dc.ChainID())
	to := p.dc.Buyers[1].Address
	send := func(t *testing.T) *types.Transaction {
		t.Helper()
		tx, err := s.Sign(ctx, &to, nil, big.NewInt(params.GWei))
		if err != nil {
			t.Fatal(err)
		}
		a, b := p.a.Requests(), p.b.Requests()
		if err := p.c.Send(ctx, tx); err != nil {
			t.Fatalf("send: %v", err)
		}
		if p.a.Requests() == a || p.b.Requests() == b {
			t.Fatalf("sent to A %d times, to B %d: want both", p.a.Requests()-a, p.b.Requests()-b)
		}
		if r, err := p.c.WaitMined(ctx, tx.Hash(), 10*time.Millisecond); err != nil || r.Status != 1 {
			t.Fatalf("not mined: %v", err)
		}
		return tx
	}
	first := send(t)
	t.Run("A down", func(t *testing.T) {
		p.a.Fail(faultrpc.Reset)
		defer p.heal(t)
		send(t)
	})
	t.Run("a taken nonce is ErrNonceTaken", func(t *testing.T) {
		p.a.Fail(faultrpc.ServerError)
		defer p.heal(t)
		f, err := s.fees(ctx)
		if err != nil {
			t.Fatal(err)
		}
		other, err := s.sign(ctx, first.Nonce(), f.Tip, f.Cap, params.TxGas, &to, nil, big.NewInt(2))
		if err != nil {
			t.Fatal(err)
		}
		if err := p.c.Send(ctx, other); !errors.Is(err, ErrNonceTaken) {
			t.Fatalf("got %v, want ErrNonceTaken", err)
		}
	})
}

// Of several endpoints, one is read only once it said it serves the chain: one on another chain
// (down at start, say, so the start check could not ask it) is never read.
func TestEndpointOnAnotherChain(t *testing.T) {
	p := newPool(t, Config{ChainID: big.NewInt(1337), HeadPoll: 20 * time.Millisecond},
		func(a, _ *faultrpc.Proxy) { a.ServeChainID(8453) })
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if eps := p.c.Endpoints(); eps[0].State == EndpointWrongChain && eps[1].State == EndpointOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("A on chain 8453 never noticed, or B never checked: %+v", p.c.Endpoints())
		}
	}
	a := p.a.Requests()
	for range 5 {
		if _, err := p.c.HeadNumber(t.Context()); err != nil {
			t.Fatal(err)
		}
		time.Sleep(30 * time.Millisecond) // the head watch goes on meanwhile
	}
	if p.a.Requests() != a {
		t.Fatalf("A, on another chain, was asked %d times", p.a.Requests()-a)
	}
}

// The metric of requests is labelled by what they were for, without the numbers that would make
// a label of every block range.
func TestCallName(t *testing.T) {
	for what, want := range map[string]string{
		"nodesOf": "nodesOf", "12 receipts": "receipts", "blocks 40-90": "blocks", "logs 1-2000": "logs",
		"wallet states at [7 9]": "wallet states at", "trace 3 blocks from 41": "trace blocks from", "": "",
	} {
		if got := callName(what); got != want {
			t.Errorf("callName(%q) = %q, want %q", what, got, want)
		}
	}
}
