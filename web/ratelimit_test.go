package web

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"nodeledger/handlers"
	"nodeledger/store/storetest"
)

func TestRateLimit(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	s := newServer(t, db, handlers.Config{})
	const a, b = "198.51.100.1:5000", "198.51.100.2:5000"
	badAddress := "/api/nodes/0xnot-an-address"

	before := time.Now().Unix()
	for i := 1; i <= 60; i++ {
		rec := s.do(t, http.MethodGet, badAddress, a)
		wantStatus(t, rec, http.StatusBadRequest) // errors count, and carry the headers
		h := rec.Header()
		if h.Get("X-Ratelimit-Limit") != "60" || h.Get("X-Ratelimit-Remaining") != strconv.Itoa(60-i) {
			t.Fatalf("request %d: limit %q remaining %q", i, h.Get("X-Ratelimit-Limit"), h.Get("X-Ratelimit-Remaining"))
		}
		if h.Get("Retry-After") != "" {
			t.Fatalf("request %d: retry-after on an answer that is not a 429", i)
		}
	}
	rec := s.do(t, http.MethodGet, badAddress, a)
	wantStatus(t, rec, http.StatusTooManyRequests)
	if msg := errorMessage(t, rec); !strings.Contains(msg, "slow down") {
		t.Fatalf("429 message %q", msg)
	}
	h := rec.Header()
	reset, err := strconv.ParseInt(h.Get("X-Ratelimit-Reset"), 10, 64)
	if err != nil || reset%60 != 0 || reset <= before || reset > time.Now().Unix()+60 {
		t.Fatalf("x-ratelimit-reset %q: want the unix second the current minute ends", h.Get("X-Ratelimit-Reset"))
	}
	retry, err := strconv.Atoi(h.Get("Retry-After"))
	if err != nil || retry < 1 || retry > 60 {
		t.Fatalf("retry-after %q: want seconds until the reset", h.Get("Retry-After"))
	}
	if h.Get("X-Ratelimit-Remaining") != "0" || h.Get("X-Ratelimit-Limit") != "60" {
		t.Fatalf("429 headers %v", h)
	}

	t.Run("other clients have their own allowance", func(t *testing.T) {
		rec := s.do(t, http.MethodGet, badAddress, b)
		wantStatus(t, rec, http.StatusBadRequest)
		if got := rec.Header().Get("X-Ratelimit-Remaining"); got != "59" {
			t.Fatalf("remaining %q, want 59", got)
		}
	})
	t.Run("other routes have their own allowance", func(t *testing.T) {
		rec := s.do(t, http.MethodGet, "/api/stats", a)
		wantStatus(t, rec, http.StatusOK)
		if rec.Header().Get("X-Ratelimit-Limit") != "120" || rec.Header().Get("X-Ratelimit-Remaining") != "119" {
			t.Fatalf("stats headers %v", rec.Header())
		}
	})
	t.Run("allowances of the spec", func(t *testing.T) {
		for path, want := range map[string]string{
			"/api/stats": "120", "/api/nodes/" + alice: "60", "/api/node/1": "60",
			"/api/distributions": "60", "/api/deploy-quote": "60",
		} {
			if got := s.do(t, http.MethodGet, path, "192.0.2.50:1").Header().Get("X-Ratelimit-Limit"); got != want {
				t.Errorf("%s: limit %q, want %s", path, got, want)
			}
		}
	})
	t.Run("price is not limited", func(t *testing.T) {
		for range 200 {
			rec := s.do(t, http.MethodGet, "/api/price", a)
			wantStatus(t, rec, http.StatusOK)
			if rec.Header().Get("X-Ratelimit-Limit") != "" {
				t.Fatal("rate-limit headers on /api/price")
			}
		}
	})
}

func TestClientAddress(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	proxy := "10.0.0.1:4000"
	s := newServerWith(t, db, unreachableChain(t), nil, handlers.Config{}, Options{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.1/32")}})
	remaining := func(remote, xff string) string {
		return s.do(t, http.MethodGet, "/api/stats", remote, "X-Forwarded-For", xff).Header().Get("X-Ratelimit-Remaining")
	}
	// Through the trusted proxy, X-Forwarded-For names the client.
	if got := remaining(proxy, "203.0.113.7"); got != "119" {
		t.Fatalf("first request of 203.0.113.7: remaining %s", got)
	}
	if got := remaining(proxy, "203.0.113.7"); got != "118" {
		t.Fatalf("second request of 203.0.113.7: remaining %s", got)
	}
	if got := remaining(proxy, "203.0.113.8"); got != "119" {
		t.Fatalf("another client behind the proxy shares a bucket: remaining %s", got)
	}
	// Anyone else's X-Forwarded-For is ignored: spoofing it does not buy a fresh bucket, nor
	// spend somebody else's.
	for i := 1; i <= 3; i++ {
		if got := remaining("198.51.100.9:1", fmt.Sprintf("203.0.113.%d", 100+i)); got != strconv.Itoa(120-i) {
			t.Fatalf("spoofed X-Forwarded-For %d: remaining %s, want %d", i, got, 120-i)
		}
	}
	if got := remaining(proxy, "203.0.113.7"); got != "117" {
		t.Fatalf("203.0.113.7 after the spoofer: remaining %s, want 117", got)
	}
	t.Run("without trusted proxies the header is ignored", func(t *testing.T) {
		s := newServer(t, db, handlers.Config{})
		for i, xff := range []string{"203.0.113.1", "203.0.113.2"} {
			rec := s.do(t, http.MethodGet, "/api/stats", proxy, "X-Forwarded-For", xff)
			if got := rec.Header().Get("X-Ratelimit-Remaining"); got != strconv.Itoa(119-i) {
				t.Fatalf("remaining %s, want %d", got, 119-i)
			}
		}
	})
}

func TestLimiterWindows(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 5, 1, 10, 0, 59, 0, time.UTC)
	l := newLimiter(slog.New(slog.DiscardHandler))
	l.now = func() time.Time { return now }
	ip := netip.MustParseAddr("192.0.2.1")

	if n, reset := l.hit("r", ip); n != 1 || reset != time.Date(2026, 5, 1, 10, 1, 0, 0, time.UTC).Unix() {
		t.Fatalf("first hit: count %d reset %d", n, reset)
	}
	l.hit("r", ip)
	now = now.Add(time.Second) // 10:01:00, a new fixed window: not a sliding one
	if n, _ := l.hit("r", ip); n != 1 {
		t.Fatalf("first hit of a new window counted %d", n)
	}

	t.Run("memory stays bounded for any number of clients", func(t *testing.T) {
		l.maxKeys = 1000
		for i := range 100_000 {
			ip := netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)})
			if n, _ := l.hit("r", ip); n != 1 && i < 999 {
				t.Fatalf("client %d counted %d below the bound", i, n)
			}
		}
		if len(l.counts) > 1001 { // the bound, and the overflow bucket
			t.Fatalf("%d keys kept, bound is 1000", len(l.counts))
		}
		// Clients already counted go on being counted when the table is full.
		if n, _ := l.hit("r", ip); n != 2 {
			t.Fatalf("known client: count %d", n)
		}
		now = now.Add(time.Minute)
		l.hit("r", ip)
		if len(l.counts) != 1 {
			t.Fatalf("%d keys after the window ended, want the old window dropped", len(l.counts))
		}
	})
}

func TestBenchMode(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	const client = "198.51.100.9:5000"
	off := newServer(t, db, handlers.Config{})
	if rec := off.do(t, http.MethodGet, "/bench/hello", client); rec.Code != http.StatusNotFound {
		t.Fatalf("/bench/hello without BENCH_MODE: %d", rec.Code)
	}

	on := newServerWith(t, db, unreachableChain(t), nil, handlers.Config{}, Options{Bench: true})
	for i := range 200 { // well past the route's 60 a minute
		rec := on.do(t, http.MethodGet, "/api/nodes/0x00000000000000000000000000000000000000aa", client)
		wantStatus(t, rec, http.StatusOK)
		if rec.Header().Get("X-Ratelimit-Limit") != "60" || rec.Header().Get("Retry-After") != "" {
			t.Fatalf("request %d: headers %v", i, rec.Header())
		}
	}
	rec := on.do(t, http.MethodGet, "/bench/hello", client)
	if rec.Code != http.StatusOK || rec.Body.String() != "Hello, World!" {
		t.Fatalf("/bench/hello: %d %q", rec.Code, rec.Body)
	}
}
