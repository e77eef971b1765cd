package chain

import (
	"context"
	"math/big"
	neturl "net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"
)

// endpoint is one of the client's JSON-RPC endpoints, and what the client has seen of it.
type endpoint struct {
	name string // scheme://host: all that errors, logs, metrics and /health say of it
	rpc  *rpc.Client
	eth  *ethclient.Client
	hide *strings.Replacer // nil: the connection has no URL to hide (the dev chain's)

	mu       sync.Mutex
	head     uint64    // the highest head it answered; 0: none yet
	rose     time.Time // when head last rose
	failures int       // transient failures in a row
	chain    chainCheck
}

// chainCheck is what an endpoint said of the chain it serves, against Config.ChainID.
type chainCheck int

const (
	chainUnchecked chainCheck = iota // not asked yet, or no answer
	chainRight
	chainWrong
)

// checkChain notes the chain id e answered, against want.
func (e *endpoint) checkChain(id, want *big.Int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.chain = chainRight
	if id.Cmp(want) != 0 {
		e.chain = chainWrong
	}
}

func newEndpoint(name string, rc *rpc.Client, hide *strings.Replacer) *endpoint {
	return &endpoint{name: name, rpc: rc, eth: ethclient.NewClient(rc), hide: hide}
}

// endpointName is url's scheme and host, never its path, query or userinfo, where providers put
// their keys; "ipc" for a socket. A name the endpoints before it have already is numbered.
func endpointName(url string, before []*endpoint) string {
	name := "ipc"
	if u, err := neturl.Parse(url); err == nil && u.Host != "" {
		name = u.Scheme + "://" + u.Host
	}
	for i := 2; slices.ContainsFunc(before, func(e *endpoint) bool { return e.name == name }); i++ {
		name = strings.TrimSuffix(name, "#"+strconv.Itoa(i-1)) + "#" + strconv.Itoa(i)
	}
	return name
}

// answered notes that e answered, whatever it said.
func (e *endpoint) answered() {
	e.mu.Lock()
	e.failures = 0
	e.mu.Unlock()
}

// failed notes that e failed for the transport or the node (a reset, a timeout, a 429, a 5xx).
func (e *endpoint) failed() {
	e.mu.Lock()
	e.failures++
	e.mu.Unlock()
	endpointFailures.WithLabelValues(e.name).Inc()
}

// sawHead notes a head e answered.
func (e *endpoint) sawHead(n uint64, now time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if n > e.head {
		e.head, e.rose = n, now
		endpointHead.WithLabelValues(e.name).Set(float64(n))
	}
}

// EndpointState is what the client makes of an endpoint.
type EndpointState string

const (
	// EndpointOK serves reads.
	EndpointOK EndpointState = "ok"
	// EndpointStale answers, but its head stands still or lags while another's moves (see
	// stale): reads go elsewhere until it catches up.
	EndpointStale EndpointState = "stale"
	// EndpointFailing failed its last request for the transport or the node, or has not said
	// yet which chain it serves: reads go elsewhere until it answers again (the head watch
	// keeps asking it).
	EndpointFailing EndpointState = "failing"
	// EndpointWrongChain serves another chain than CHAIN_ID: never read.
	EndpointWrongChain EndpointState = "wrong chain"
)

// Endpoint is one RPC endpoint as health shows it.
type Endpoint struct {
	Name   string // scheme://host, never the path, query or userinfo where providers put keys
	Head   uint64 // the highest head it answered; 0: none yet
	Behind uint64 // blocks behind the best head of the endpoints
	State  EndpointState
}

// Endpoints says how each endpoint does, in the order ETH_RPC_URL lists them.
func (c *Client) Endpoints() []Endpoint {
	return c.states(time.Now())
}

// states is Endpoints at now.
func (c *Client) states(now time.Time) []Endpoint {
	type seen struct {
		head     uint64
		rose     time.Time
		failures int
		chain    chainCheck
	}
	all := make([]seen, len(c.endpoints))
	var best uint64
	for i, e := range c.endpoints {
		e.mu.Lock()
		all[i] = seen{e.head, e.rose, e.failures, e.chain}
		e.mu.Unlock()
		best = max(best, all[i].head)
	}
	// One endpoint is read whatever it says, as it always was: there is no other to read.
	checked := c.chainID != nil && len(c.endpoints) > 1
	staleAfter, lag := c.pace.staleness(best, now, c.minStale)
	out := make([]Endpoint, len(c.endpoints))
	for i, s := range all {
		ep := Endpoint{Name: c.endpoints[i].name, Head: s.head, State: EndpointOK}
		if s.head > 0 {
			ep.Behind = best - s.head
		}
		switch {
		case checked && s.chain == chainWrong:
			ep.State = EndpointWrongChain
		case s.failures > 0, checked && s.chain == chainUnchecked:
			ep.State = EndpointFailing
		case stale(ep.Behind, now.Sub(s.rose), staleAfter, lag):
			ep.State = EndpointStale
		}
		out[i] = ep
	}
	return out
}

// stale tells whether an endpoint behind the best head by `behind` blocks, whose head last rose
// `still` ago, is stale: behind and standing still for staleAfter, or behind by more blocks than
// the chain makes in staleAfter (lag), as a node that syncs but never catches up is. A chain
// that stops for all is no endpoint's fault: one not behind is never stale.
func stale(behind uint64, still, staleAfter time.Duration, lag uint64) bool {
	return behind > 0 && (still > staleAfter || behind > lag)
}

// serving is the endpoints in the order reads try them: those that serve, then the stale, then
// the failing, each in the order ETH_RPC_URL lists them.
func (c *Client) serving() []*endpoint {
	if len(c.endpoints) == 1 {
		return c.endpoints
	}
	rank := map[EndpointState]int{EndpointOK: 0, EndpointStale: 1, EndpointFailing: 2}
	states := c.Endpoints()
	var order []int
	for i, st := range states {
		if st.State != EndpointWrongChain {
			order = append(order, i)
		}
	}
	if len(order) == 0 {
		return c.endpoints // every one serves another chain: its errors say so better than none
	}
	slices.SortStableFunc(order, func(a, b int) int { return rank[states[a].State] - rank[states[b].State] })
	out := make([]*endpoint, len(order))
	for i, k := range order {
		out[i] = c.endpoints[k]
	}
	return out
}

// watchHeads asks every endpoint for its head every interval until ctx ends.
func (c *Client) watchHeads(ctx context.Context, interval time.Duration) {
	defer close(c.watched)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		c.pollHeads(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// pollHeads asks each endpoint for its head at once, one eth_blockNumber each.
func (c *Client) pollHeads(ctx context.Context) {
	var wg sync.WaitGroup
	for _, e := range c.endpoints {
		wg.Go(func() {
			e.mu.Lock()
			check := e.chain
			e.mu.Unlock()
			if check == chainUnchecked && c.chainID != nil {
				if id, err := c.chainIDOf(ctx, e); err == nil && id.Cmp(c.chainID) != 0 {
					check = chainWrong
				}
			}
			if check == chainWrong {
				return // never read again: a restart asks it anew
			}
			var n uint64
			err := c.attempt(ctx, e, "endpoint head", 1, func(ctx context.Context, e *endpoint) (err error) {
				n, err = e.eth.BlockNumber(ctx)
				return err
			})
			if err == nil {
				e.sawHead(n, time.Now())
			}
		})
	}
	wg.Wait()
	var best uint64
	for _, e := range c.endpoints {
		e.mu.Lock()
		best = max(best, e.head)
		e.mu.Unlock()
	}
	c.pace.saw(best, time.Now())
}

// pace measures the chain's block time from the best head the endpoints show.
type pace struct {
	mu    sync.Mutex
	first uint64 // the first best head seen, and when; 0: none yet
	at    time.Time
}

// saw notes the best head at now; the first one seen is where the measure starts.
func (p *pace) saw(best uint64, now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.first == 0 {
		p.first, p.at = best, now
	}
}

// staleness is how long an endpoint's head may stand still behind the best before it is stale:
// 3 blocks' time, at least minStale; and how many blocks the chain makes in that time, at least
// 3, which is as far as an endpoint may lag.
func (p *pace) staleness(best uint64, now time.Time, minStale time.Duration) (time.Duration, uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.first == 0 || best <= p.first {
		return minStale, 3
	}
	block := now.Sub(p.at) / time.Duration(best-p.first)
	after := max(3*block, minStale)
	return after, max(3, uint64(after/max(block, 1)))
}

// EndpointChainID is the chain an endpoint says it serves, or why it did not say.
type EndpointChainID struct {
	Endpoint string // its name, scheme://host
	ID       *big.Int
	Err      error
}

// ChainIDs asks every endpoint which chain it serves, all at once, each with call's attempts.
func (c *Client) ChainIDs(ctx context.Context) []EndpointChainID {
	out := make([]EndpointChainID, len(c.endpoints))
	var wg sync.WaitGroup
	for i, e := range c.endpoints {
		wg.Go(func() {
			out[i].Endpoint = e.name
			out[i].ID, out[i].Err = c.chainIDOf(ctx, e)
		})
	}
	wg.Wait()
	return out
}

// chainIDOf asks e which chain it serves, and notes it against Config.ChainID.
func (c *Client) chainIDOf(ctx context.Context, e *endpoint) (*big.Int, error) {
	var id *big.Int
	err := c.roundTripIn(ctx, []*endpoint{e}, "chain id", 1, func(ctx context.Context, e *endpoint) (err error) {
		id, err = e.eth.ChainID(ctx)
		return err
	})
	if err == nil && c.chainID != nil {
		e.checkChain(id, c.chainID)
	}
	return id, err
}
