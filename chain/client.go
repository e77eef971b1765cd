// Package chain owns every RPC call nodeledger makes: reads of the factory contract, solvency at
// one block, blocks and receipts in batches, logs in ranges, and signing and sending transactions.
// Results are domain-shaped (NodeInfo, Cover), not raw ABI tuples. It imports nothing of ours but
// the generated contract bindings.
package chain

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	neturl "net/url"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/ethclient"
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
	// CallTimeout bounds each RPC attempt (default 3 s); Attempts is how many tries a transient
	// failure gets (default 3), with backoff between them.
	CallTimeout time.Duration
	Attempts    int
}

// Client reads and writes the chain through one JSON-RPC connection.
type Client struct {
	rpc       *rpc.Client
	eth       *ethclient.Client
	factory   common.Address
	priceFeed common.Address
	timeout   time.Duration
	attempts  int

	nf   *bindings.NodeFactory
	feed *bindings.MockAggregator // its read functions are those of any Chainlink feed

	hideURL *strings.Replacer // nil: the connection has no URL to hide (the dev chain's)

	tokens sync.Map // common.Address -> Token: a token's symbol and decimals do not change
}

// Dial connects to the JSON-RPC endpoint at url (http, https, ws or ipc).
func Dial(ctx context.Context, url string, cfg Config) (*Client, error) {
	hide := urlHider(url)
	rc, err := rpc.DialContext(ctx, url)
	if err != nil {
		return nil, &hiddenURLError{hide.Replace("dial: " + err.Error()), err}
	}
	c := New(rc, cfg)
	c.hideURL = hide
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

// hide hides the RPC URL in err's text. Every error the client returns passes through it (call).
func (c *Client) hide(err error) error {
	if err == nil || c.hideURL == nil {
		return err
	}
	return &hiddenURLError{c.hideURL.Replace(err.Error()), err}
}

// New wraps an RPC connection, such as the dev chain's in-process one.
func New(rc *rpc.Client, cfg Config) *Client {
	c := &Client{
		rpc:       rc,
		eth:       ethclient.NewClient(rc),
		factory:   cfg.Factory,
		priceFeed: cfg.PriceFeed,
		timeout:   cfg.CallTimeout,
		attempts:  cfg.Attempts,
		nf:        bindings.NewNodeFactory(),
		feed:      bindings.NewMockAggregator(),
	}
	if c.timeout <= 0 {
		c.timeout = 3 * time.Second
	}
	if c.attempts <= 0 {
		c.attempts = 3
	}
	return c
}

// Close closes the connection.
func (c *Client) Close() { c.rpc.Close() }

// Factory is the address of the factory contract.
func (c *Client) Factory() common.Address { return c.factory }

// call runs one RPC round trip (a single call or a batch) with a timeout per attempt, retrying
// transient failures with exponential backoff. Every RPC of the package goes through it.
func (c *Client) call(ctx context.Context, what string, f func(ctx context.Context) error) error {
	backoff := 100 * time.Millisecond
	for attempt := 1; ; attempt++ {
		actx, cancel := context.WithTimeout(ctx, c.timeout)
		err := f(actx)
		cancel()
		if err == nil {
			return nil
		}
		if !transient(err) {
			return c.hide(fmt.Errorf("%s: %w", what, c.decodeRevert(err)))
		}
		rpcFailures.Inc()
		if attempt >= c.attempts || ctx.Err() != nil {
			return c.hide(fmt.Errorf("%s: %w: %w", what, ErrUnavailable, err))
		}
		select {
		case <-time.After(backoff):
			backoff *= 2
		case <-ctx.Done():
			return fmt.Errorf("%s: %w: %w", what, ErrUnavailable, ctx.Err())
		}
	}
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
