package web

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"nodeledger/handlers"
)

// clientOf is the bucket a request is counted in: the client's address, or for IPv6 its /64,
// the smallest block a subscriber is handed (RFC 6177), so one subscriber cannot walk through
// 2^64 fresh buckets. An unparsable address shares the zero bucket.
func clientOf(c echo.Context) netip.Addr {
	ip, _ := netip.ParseAddr(c.RealIP())
	ip = ip.Unmap().WithZone("")
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return p.Addr()
	}
	return ip
}

// limiter counts requests per route and client in fixed one-minute windows aligned to the
// clock, so every client's allowance refills at the same x-ratelimit-reset. Only the current
// window is kept: when a new one starts the old counts are dropped whole, and within a window at
// most maxKeys clients are tracked, so memory stays bounded whatever the number of addresses.
// Clients that arrive when the table is full share one overflow bucket per route: they are
// limited together, never let through uncounted.
type limiter struct {
	maxKeys int
	now     func() time.Time
	log     *slog.Logger
	lifted  bool // BENCH_MODE: counted and reported as ever, but nobody is turned away

	mu     sync.Mutex
	window int64 // unix minute the counts belong to
	counts map[limitKey]int
	full   bool // the table filled up in this window (logged once)
}

type limitKey struct {
	route    string
	ip       netip.Addr
	overflow bool // the bucket shared by the clients the full table could not take
}

// maxLimitKeys bounds the table at a few tens of MB.
const maxLimitKeys = 500_000

func newLimiter(log *slog.Logger) *limiter {
	return &limiter{maxKeys: maxLimitKeys, now: time.Now, log: log}
}

// hit counts one request and returns the count so far in this window of the client's bucket
// (its own, or the overflow bucket when the table is full) and when the window ends.
func (l *limiter) hit(route string, ip netip.Addr) (count int, reset int64) {
	now := l.now().Unix()
	window := now / 60
	reset = (window + 1) * 60

	l.mu.Lock()
	defer l.mu.Unlock()
	if window != l.window || l.counts == nil {
		l.window, l.counts, l.full = window, make(map[limitKey]int), false
	}
	k := limitKey{route: route, ip: ip}
	if _, ok := l.counts[k]; !ok && len(l.counts) >= l.maxKeys {
		if !l.full {
			l.full = true
			l.log.Warn("rate limiter table full: new clients share one bucket per route until the next minute", "keys", len(l.counts))
		}
		k = limitKey{route: route, overflow: true}
	}
	l.counts[k]++
	return l.counts[k], reset
}

// limit allows perMinute requests to route per client and minute. Every answer counts and
// carries the x-ratelimit-* headers, errors included.
func (l *limiter) limit(route string, perMinute int) echo.MiddlewareFunc {
	limit := strconv.Itoa(perMinute)
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			count, reset := l.hit(route, clientOf(c))
			remaining := max(perMinute-count, 0)
			h := c.Response().Header()
			h.Set("X-Ratelimit-Limit", limit)
			h.Set("X-Ratelimit-Remaining", strconv.Itoa(remaining))
			h.Set("X-Ratelimit-Reset", strconv.FormatInt(reset, 10))
			if count > perMinute && !l.lifted {
				h.Set(echo.HeaderRetryAfter, strconv.FormatInt(max(reset-l.now().Unix(), 1), 10))
				return echo.NewHTTPError(http.StatusTooManyRequests,
					fmt.Sprintf("Too many requests: this route allows %d a minute; slow down and retry after the number of seconds in the retry-after header.", perMinute))
			}
			return next(c)
		}
	}
}

// The failed-credential rules. A client (an address, or an IPv6 /64) may present freeAttempts
// keys or sign-ins in a row without one being right; each further attempt locks it out for a
// wait that doubles, from firstWait up to longestWait. Its record is forgotten forgetAfter after
// its last attempt, or at once when it presents a right one.
//
// Over all clients, attemptsPerMinute unproven attempts a minute are answered as usual, so that
// many addresses together cannot guess at full speed either. Past that cap a request is still
// let through to its gate, never turned away before it: refused there, the right key would be
// shut out with the wrong ones, and anyone with a dozen addresses (or one IPv6 /56) could keep
// the admin API, the cron routes and the operator's sign-in closed for as long as they liked. A
// right credential passes and clears its client as ever. A wrong one is answered 429 with
// retry-after, not 401, and costs its client more than below the cap: it is locked out until
// the minute ends and its free attempts are spent, so each wrong one after doubles the wait. A
// gate that checks a guess answers it, so past the cap the addresses cannot be held to a fixed
// count together; each is held instead to one guess a minute (or freeAttempts+1 at once, sent
// in parallel before the first is answered), and fewer as its waits double. A failure of the
// server (5xx) is no answer about the credential: it is passed on as it is, and costs nothing
// more. A client locked out for its own wrong attempts is refused before its gate, right key or
// not, as below the cap.
const (
	freeAttempts      = 5
	firstWait         = time.Second
	longestWait       = 15 * time.Minute
	forgetAfter       = time.Hour
	attemptsPerMinute = 60
	maxGuardKeys      = 100_000
)

// guard slows down the guessing of keys and operator sign-ins, on any route whose handler
// answers 401 for a bad credential, and logs every right and wrong one (never the credential).
// Attempts are counted as they arrive, not as they fail, so a burst of requests in parallel
// cannot slip past the count before the first answer; a right credential takes its attempt back.
type guard struct {
	now     func() time.Time
	log     *slog.Logger
	maxKeys int

	mu       sync.Mutex
	clients  map[netip.Addr]*attempts
	overflow attempts  // shared by new clients while clients is full: limited, never unlimited
	swept    time.Time // the last time forgotten clients were dropped from a full table
	window   int64     // unix minute of pending
	pending  int       // attempts over all clients in window that no right credential took back
}

// attempts are one client's attempts since its last right credential.
type attempts struct {
	n     int
	last  time.Time
	until time.Time // locked out until then
}

func newGuard(log *slog.Logger) *guard {
	return &guard{now: time.Now, log: log, maxKeys: maxGuardKeys, clients: map[netip.Addr]*attempts{}}
}

// credentialAccepted is set on the context by the middleware that follows a key gate: the gate
// let the request through, whatever the handler then answers.
const credentialAccepted = "credential_accepted" // #nosec G101 -- the name of a context key, not a credential

// accepted marks a request its key gate let through (routes.go lists it right after the gate).
func accepted(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Set(credentialAccepted, true)
		return next(c)
	}
}

// enter counts an attempt of client, or returns how long it must wait instead. lockout is the
// wait this attempt starts, when it is one too many. overCap says the attempt came past the
// overall cap: let through all the same, but a wrong credential then costs its client more
// (chargeOverCap).
func (g *guard) enter(client netip.Addr) (wait, lockout time.Duration, overCap bool) {
	now := g.now()
	g.mu.Lock()
	defer g.mu.Unlock()
	if w := now.Unix() / 60; w != g.window {
		g.window, g.pending = w, 0
	}
	a := g.record(client, now)
	if now.Before(a.until) {
		return a.until.Sub(now), 0, false
	}
	overCap = g.pending >= attemptsPerMinute
	if now.Sub(a.last) > forgetAfter {
		a.n = 0
	}
	a.n++
	a.last = now
	g.pending++
	if a.n > freeAttempts {
		lockout = min(firstWait<<min(a.n-freeAttempts-1, 20), longestWait)
		a.until = now.Add(lockout)
	}
	return 0, lockout, overCap
}

// chargeOverCap charges client for a wrong credential that came past the overall cap: its free
// attempts are spent and it is locked out until the minute ends at least. It returns the wait.
func (g *guard) chargeOverCap(client netip.Addr) time.Duration {
	now := g.now()
	g.mu.Lock()
	defer g.mu.Unlock()
	a := g.record(client, now)
	a.n = max(a.n, freeAttempts)
	if end := time.Unix((now.Unix()/60+1)*60, 0); a.until.Before(end) {
		a.until = end
	}
	return a.until.Sub(now)
}

// record is client's record, made if new; the shared overflow record when the table is full.
func (g *guard) record(client netip.Addr, now time.Time) *attempts {
	if a, ok := g.clients[client]; ok {
		return a
	}
	if len(g.clients) >= g.maxKeys && now.Sub(g.swept) > time.Minute {
		g.swept = now
		for k, a := range g.clients {
			if now.Sub(a.last) > forgetAfter && now.After(a.until) {
				delete(g.clients, k)
			}
		}
	}
	if len(g.clients) >= g.maxKeys {
		return &g.overflow
	}
	a := &attempts{}
	g.clients[client] = a
	return a
}

// succeeded forgets client's attempts, and takes its attempt back from the overall count.
func (g *guard) succeeded(client netip.Addr, window int64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.clients, client) // the overflow record is everyone's: a right key does not clear it
	if window == g.window && g.pending > 0 {
		g.pending--
	}
}

// errTooManyAttempts is the answer of a client locked out, and of a wrong credential past the
// overall cap: no more detail than that, whatever its gate said.
var errTooManyAttempts = echo.NewHTTPError(http.StatusTooManyRequests,
	"Too many attempts with a wrong key or sign-in: wait the number of seconds in the retry-after header, then try again.")

// setRetryAfter says, in whole seconds rounded up, when to try again.
func setRetryAfter(c echo.Context, wait time.Duration) {
	c.Response().Header().Set(echo.HeaderRetryAfter, strconv.FormatInt(int64((wait+time.Second-1)/time.Second), 10))
}

// middleware guards the route it wraps. The outcome is the wrapped handler's: a request its key
// gate accepted, or any answer below 400 (a sign-in's answer), is a right credential; any other
// answer is a refused one (a wrong key, a bad signature, a malformed sign-in, a wallet not on the
// operator list), logged with its status since each counted as an attempt.
func (g *guard) middleware(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		client := clientOf(c)
		log := g.log.With("client", c.RealIP(), "method", c.Request().Method, "route", c.Path())
		wait, lockout, overCap := g.enter(client)
		if wait > 0 {
			setRetryAfter(c, wait)
			return errTooManyAttempts
		}
		if lockout > 0 {
			log.Warn("client locked out after wrong credentials", "wait", lockout.String())
		}
		window := g.now().Unix() / 60
		err := next(c)
		status := c.Response().Status
		if err != nil && !c.Response().Committed {
			status, _, _ = handlers.Classify(err)
		}
		switch {
		case status < http.StatusBadRequest || c.Get(credentialAccepted) == true:
			g.succeeded(client, window)
			log.Info("credential accepted", "status", status)
		case overCap && status < http.StatusInternalServerError:
			wait := g.chargeOverCap(client)
			log.Warn("credential refused past the overall cap", "status", status, "wait", wait.String())
			// An answer already written cannot be taken back, but the gates and the sign-in all
			// refuse by returning an error, which is not written yet.
			if !c.Response().Committed {
				setRetryAfter(c, wait)
				return errTooManyAttempts
			}
		default:
			log.Warn("credential refused", "status", status)
		}
		return err
	}
}
