// Package chain owns every RPC call nodeledger makes: reads of the factory contract, solvency at
// one block, blocks and receipts in batches, logs in ranges, and signing and sending transactions.
// Results are domain-shaped (NodeInfo, Cover), not raw ABI tuples. It imports nothing of ours but
// the generated contract bindings.
package chain

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	neturl "net/url"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"nodeledger/chain/bindings"
)

var (
	// ErrUnavailable marks failures to reach the chain (refused, reset, timed out, overloaded)
	// after the retries: callers answer 503 and never guess.
	ErrUnavailable = errors.New("chain unavailable")
	// ErrUnknownNode is the factory's answer for a node id that was never minted.
	ErrUnknownNode = errors.New("unknown node")
)

// RevertError is a call the contract reverted, with the name of its custom error when known.
type RevertError struct {
	Name string // e.g. "WalletFull"; empty when the data matches no error of the factory
	Data []byte
}

func (e *RevertError) Error() string {
	if e.Name == "" {
		return fmt.Sprintf("execution reverted (data %x)", e.Data)
	}
	return "execution reverted: " + e.Name + "()"
}

// Config says which contracts the client reads and how patient it is.
type Config struct {
	Factory   common.Address
	PriceFeed common.Address // zero when there is no ETH/USD feed
	// SanctionsOracle is a contract with Chainalysis's isSanctioned(address) (SANCTIONS_ORACLE);
	// zero when payers are not screened against one.
	SanctionsOracle common.Address
	// CallTimeout bounds each RPC attempt (default 3 s); Attempts is how many tries a transient
	// failure gets (default 3), with backoff between them.
	CallTimeout time.Duration
	Attempts    int
	// ChainID, when set, is the chain every endpoint must serve: with several endpoints, reads
	// go to one only once it said so (ChainIDs, or the head watch asks), and never to one that
	// serves another.
	ChainID *big.Int
	// With several endpoints, HeadPoll is how often each is asked for its head (default 5 s), and
	// MinStale the least time an endpoint's head may stand still behind another's before it is
	// stale (default 30 s; see stale). Tests shorten them.
	HeadPoll time.Duration
	MinStale time.Duration
}

// Client reads and writes the chain through one JSON-RPC endpoint or several: reads go to the
// first that serves and fail over to the next, transactions go to all.
type Client struct {
	endpoints []*endpoint
	factory   common.Address
	priceFeed common.Address
	oracle    common.Address
	timeout   time.Duration
	attempts  int
	minStale  time.Duration
	chainID   *big.Int // nil: the endpoints' chain is not checked

	nf   *bindings.NodeFactory
	feed *bindings.MockAggregator // its read functions are those of any Chainlink feed

	pace pace // how fast the best head rises: the chain's block time, as the client sees it
	// followed is the head a Heads follower saw last (FollowedHead); nil without one.
	followed atomic.Pointer[followedHead]

	stop    context.CancelFunc // ends the head watch; nil without one
	watched chan struct{}      // closed when the head watch has ended

	tokens sync.Map // common.Address -> Token: a token's symbol and decimals do not change

	weights weightsSeen // the tiers' weights last read, and the factory's weightsVersion then
}

// SplitURLs splits ETH_RPC_URL's list of endpoints at its commas.
func SplitURLs(list string) []string {
	urls := strings.Split(list, ",")
	for i := range urls {
		urls[i] = strings.TrimSpace(urls[i])
	}
	return urls
}

// Dial connects to the JSON-RPC endpoints listed in urls, comma-separated (http, https, ws or
// ipc; see SplitURLs). With more than one, a goroutine watches their heads until Close.
func Dial(ctx context.Context, urls string, cfg Config) (*Client, error) {
	var eps []*endpoint
	for _, url := range SplitURLs(urls) {
		hide := urlHider(url)
		rc, err := rpc.DialContext(ctx, url)
		if err != nil {
			for _, e := range eps {
				e.rpc.Close()
			}
			return nil, &hiddenURLError{hide.Replace("dial: " + err.Error()), err}
		}
		eps = append(eps, newEndpoint(endpointName(url, eps), rc, hide))
	}
	c := newClient(eps, cfg)
	if len(eps) > 1 {
		poll := cfg.HeadPoll
		if poll <= 0 {
			poll = 5 * time.Second
		}
		wctx, stop := context.WithCancel(context.Background())
		c.stop, c.watched = stop, make(chan struct{})
		go c.watchHeads(wctx, poll)
	}
	return c, nil
}

// urlHider replaces the RPC URL, and each of its secret parts, with its scheme and host. Providers
// put their API key in the URL's path, query or userinfo, and Go's HTTP errors quote the whole
// URL (`Post "https://host/v2/KEY": dial tcp …`); an error that carried it would reach the logs,
// the answers and the tick summaries the passes store.
func urlHider(raw string) *strings.Replacer {
	u, err := neturl.Parse(raw)
	if err != nil {
		return strings.NewReplacer(raw, "the RPC URL")
	}
	host := "the RPC at " + u.Scheme + "://" + u.Host
	// The whole URL as it is given, as net/url writes it, and as net/http quotes it (password starred).
	pairs := []string{raw, host, u.String(), host, u.Redacted(), host}
	secrets := []string{u.RawQuery, u.EscapedPath(), u.Path}
	if u.User != nil {
		password, _ := u.User.Password()
		pairs = append(pairs, strings.Replace(u.String(), u.User.String()+"@", u.User.Username()+":***@", 1), host)
		secrets = append(secrets, u.User.String(), u.User.Username(), password)
	}
	for _, secret := range secrets {
		if len(secret) > 1 { // a lone "/" hides nothing and would garble every path in the text
			pairs = append(pairs, secret, "…")
		}
	}
	return strings.NewReplacer(pairs...)
}

// hiddenURLError is an error whose text has the RPC URL hidden; errors.Is and As still see the
// error it hides it in.
type hiddenURLError struct {
	msg string
	err error
}

func (e *hiddenURLError) Error() string { return e.msg }
func (e *hiddenURLError) Unwrap() error { return e.err }

// hide hides every endpoint's URL in err's text. Every error the client returns passes through it
// (roundTrip, broadcast).
func (c *Client) hide(err error) error {
	if err == nil {
		return err
	}
	msg := err.Error()
	for _, e := range c.endpoints {
		if e.hide != nil {
			msg = e.hide.Replace(msg)
		}
	}
	if msg == err.Error() {
		return err
	}
	return &hiddenURLError{msg, err}
}

// New wraps an RPC connection, such as the dev chain's in-process one.
func New(rc *rpc.Client, cfg Config) *Client {
	return newClient([]*endpoint{newEndpoint("in-process", rc, nil)}, cfg)
}

func newClient(eps []*endpoint, cfg Config) *Client {
	c := &Client{
		endpoints: eps,
		factory:   cfg.Factory,
		priceFeed: cfg.PriceFeed,
		oracle:    cfg.SanctionsOracle,
		timeout:   cfg.CallTimeout,
		attempts:  cfg.Attempts,
		minStale:  cfg.MinStale,
		chainID:   cfg.ChainID,
		nf:        bindings.NewNodeFactory(),
		feed:      bindings.NewMockAggregator(),
	}
	if c.timeout <= 0 {
		c.timeout = 3 * time.Second
	}
	if c.attempts <= 0 {
		c.attempts = 3
	}
	if c.minStale <= 0 {
		c.minStale = 30 * time.Second
	}
	return c
}

// Close stops the head watch and closes the connections.
func (c *Client) Close() {
	if c.stop != nil {
		c.stop()
		<-c.watched
	}
	for _, e := range c.endpoints {
		e.rpc.Close()
	}
}

// SanctionsOracle is the sanctions oracle payers are screened against (Config.SanctionsOracle);
// zero: none.
func (c *Client) SanctionsOracle() common.Address { return c.oracle }

// Factory is the address of the factory contract.
func (c *Client) Factory() common.Address { return c.factory }

// call runs one RPC request with a timeout per attempt, retrying transient failures with
// exponential backoff. Every RPC of the package goes through it, or through batch.
func (c *Client) call(ctx context.Context, what string, f func(ctx context.Context, e *endpoint) error) error {
	return c.roundTrip(ctx, what, 1, f)
}

// roundTrip is call for a round trip of n requests (a batch of n). Each attempt goes to the next
// endpoint in the order of serving (see serving); a transient failure moves on to the next at
// once, and backs off only before asking an endpoint this round trip already asked. Every
// endpoint is asked at least once.
func (c *Client) roundTrip(ctx context.Context, what string, n int, f func(ctx context.Context, e *endpoint) error) error {
	return c.roundTripIn(ctx, c.serving(), what, n, f)
}

// roundTripIn is roundTrip over the endpoints of order, in that order.
func (c *Client) roundTripIn(ctx context.Context, order []*endpoint, what string, n int, f func(ctx context.Context, e *endpoint) error) error {
	if err := spend(ctx, what, n); err != nil {
		return err
	}
	tries := max(c.attempts, len(order))
	backoff := 100 * time.Millisecond
	for try := 0; ; try++ {
		if try > 0 && try%len(order) == 0 {
			select {
			case <-time.After(backoff):
				backoff *= 2
			case <-ctx.Done():
				return fmt.Errorf("%s: %w: %w", what, ErrUnavailable, ctx.Err())
			}
		}
		e := order[try%len(order)]
		err := c.attempt(ctx, e, what, n, f)
		if err == nil {
			return nil
		}
		if !transient(err) {
			return c.hide(fmt.Errorf("%s: %w", what, c.decodeRevert(err)))
		}
		if try+1 >= tries || ctx.Err() != nil {
			return c.hide(fmt.Errorf("%s: %w: %w", what, ErrUnavailable, err))
		}
	}
}

// broadcast runs f on every endpoint at once, with roundTrip's attempts and backoff: for a signed
// transaction, which any endpoint may carry to the network. It succeeds when f succeeds on any
// endpoint. Otherwise the error of an endpoint that answered (the request's fault, such as a
// nonce taken) wins over those of endpoints that failed; only when every endpoint failed is the
// attempt retried.
func (c *Client) broadcast(ctx context.Context, what string, f func(ctx context.Context, e *endpoint) error) error {
	backoff := 100 * time.Millisecond
	for attempt := 1; ; attempt++ {
		errs := make([]error, len(c.endpoints))
		var wg sync.WaitGroup
		for i, e := range c.endpoints {
			wg.Go(func() { errs[i] = c.attempt(ctx, e, what, 1, f) })
		}
		wg.Wait()
		var refused, failed error
		for _, err := range errs {
			switch {
			case err == nil:
				return nil
			case !transient(err):
				refused = cmp.Or(refused, err)
			default:
				failed = cmp.Or(failed, err)
			}
		}
		if refused != nil {
			return c.hide(fmt.Errorf("%s: %w", what, c.decodeRevert(refused)))
		}
		if attempt >= c.attempts || ctx.Err() != nil {
			return c.hide(fmt.Errorf("%s: %w: %w", what, ErrUnavailable, failed))
		}
		select {
		case <-time.After(backoff):
			backoff *= 2
		case <-ctx.Done():
			return fmt.Errorf("%s: %w: %w", what, ErrUnavailable, ctx.Err())
		}
	}
}

// attempt runs f once on e, a round trip of n requests for what, within the call timeout, and
// notes how e did.
func (c *Client) attempt(ctx context.Context, e *endpoint, what string, n int, f func(ctx context.Context, e *endpoint) error) error {
	counted(ctx, what, n)
	actx, cancel := context.WithTimeout(ctx, c.timeout)
	err := f(actx, e)
	cancel()
	switch {
	case err == nil || !transient(err):
		e.answered()
	case ctx.Err() == nil: // the caller giving up is not the endpoint failing
		rpcFailures.WithLabelValues(callName(what)).Inc()
		e.failed()
	}
	return err
}

// transient reports whether err is the transport or the node failing, not the request.
func transient(err error) bool {
	var netErr net.Error
	var httpErr rpc.HTTPError
	switch {
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE),
		errors.Is(err, rpc.ErrClientQuit), errors.As(err, &netErr):
		return true
	case errors.As(err, &httpErr):
		return httpErr.StatusCode == 429 || httpErr.StatusCode >= 500
	}
	// Nodes say they are busy or behind in words only.
	msg := strings.ToLower(err.Error())
	return strings.Contains(msg, "connection refused") || strings.Contains(msg, "header not found") ||
		strings.Contains(msg, "too many requests")
}

// decodeRevert turns the revert data of a failed call into a RevertError naming the factory's
// custom error, and UnknownNode into ErrUnknownNode.
func (c *Client) decodeRevert(err error) error {
	var de rpc.DataError
	if !errors.As(err, &de) {
		return err
	}
	s, ok := de.ErrorData().(string)
	if !ok {
		return err
	}
	data, derr := hexutil.Decode(s)
	if derr != nil || len(data) < 4 {
		return err
	}
	re := &RevertError{Data: data}
	for name, e := range c.nf.GetABI().Errors {
		if string(e.ID[:4]) == string(data[:4]) {
			re.Name = name
		}
	}
	if re.Name == "UnknownNode" {
		return fmt.Errorf("%w: %w", ErrUnknownNode, re)
	}
	return re
}
