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
)

// limiter counts requests per route and client IP in fixed one-minute windows aligned to the
// clock, so every client's allowance refills at the same x-ratelimit-reset. Only the current
// window is kept: when a new one starts the old counts are dropped whole, and within a window at
// most maxKeys clients are tracked, so memory stays bounded whatever the number of addresses.
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
	route string
	ip    netip.Addr
}

// maxLimitKeys bounds the table at a few tens of MB.
const maxLimitKeys = 500_000

func newLimiter(log *slog.Logger) *limiter {
	return &limiter{maxKeys: maxLimitKeys, now: time.Now, log: log}
}

// hit counts one request and returns the count so far in this window and when the window ends.
// tracked is false when the table is full and the client could not be counted: such a client is
// let through, since the allowances are a floor, not a ceiling.
func (l *limiter) hit(route string, ip netip.Addr) (count int, reset int64, tracked bool) {
	now := l.now().Unix()
	window := now / 60
	reset = (window + 1) * 60

	l.mu.Lock()
	defer l.mu.Unlock()
	if window != l.window || l.counts == nil {
		l.window, l.counts, l.full = window, make(map[limitKey]int), false
	}
	k := limitKey{route, ip}
	count, ok := l.counts[k]
	if !ok && len(l.counts) >= l.maxKeys {
		if !l.full {
			l.full = true
			l.log.Warn("rate limiter table full: new clients are not limited until the next minute", "keys", len(l.counts))
		}
		return 0, reset, false
	}
	count++
	l.counts[k] = count
	return count, reset, true
}

// limit allows perMinute requests to route per client IP and minute. Every answer counts and
// carries the x-ratelimit-* headers, errors included.
func (l *limiter) limit(route string, perMinute int) echo.MiddlewareFunc {
	limit := strconv.Itoa(perMinute)
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			ip, _ := netip.ParseAddr(c.RealIP()) // an unparsable address shares the zero bucket
			count, reset, tracked := l.hit(route, ip.Unmap())
			remaining := max(perMinute-count, 0)
			h := c.Response().Header()
			h.Set("X-Ratelimit-Limit", limit)
			h.Set("X-Ratelimit-Remaining", strconv.Itoa(remaining))
			h.Set("X-Ratelimit-Reset", strconv.FormatInt(reset, 10))
			if tracked && count > perMinute && !l.lifted {
				h.Set(echo.HeaderRetryAfter, strconv.FormatInt(max(reset-l.now().Unix(), 1), 10))
				return echo.NewHTTPError(http.StatusTooManyRequests,
					fmt.Sprintf("Too many requests: this route allows %d a minute; slow down and retry after the number of seconds in the retry-after header.", perMinute))
			}
			return next(c)
		}
	}
}
