package web

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"nodeledger/handlers"
	"nodeledger/store/storetest"
)

// fuzzClient gives each fuzz request an address of its own, so the rate limiter stays out of the way.
var fuzzClient atomic.Uint32

func nextClient() string {
	n := fuzzClient.Add(1)
	return fmt.Sprintf("10.%d.%d.%d:1", byte(n>>16), byte(n>>8), byte(n))
}

// fuzzAnswer checks what every fuzzed request must get: never a 5xx, only the statuses the route
// documents, the envelope on every failure (do checks it against the OpenAPI document too).
func fuzzAnswer(t *testing.T, s *testServer, target string, allowed ...int) {
	rec := s.do(t, http.MethodGet, target, nextClient())
	for _, status := range allowed {
		if rec.Code == status {
			return
		}
	}
	t.Fatalf("GET %s: status %d, want one of %v; body %s", target, rec.Code, allowed, rec.Body)
}

func FuzzNodeRoute(f *testing.F) {
	storetest.Reset(f, db)
	storetest.Node(f, db, "1", alice, time.Now())
	for _, seed := range [][2]string{
		{"1", ""}, {"1", "200"}, {"0", "50"}, {maxU256, "1"}, {"-1", "0"}, {"abc", "x"},
		{"1/2", ""}, {"..", ""}, {"%00", "1"}, {" 1", "+5"}, {strings.Repeat("9", 100), "-1"},
		{"0000000000000000000000000000000000000000000000000000000000000000000000000000000001", "201"},
	} {
		f.Add(seed[0], seed[1])
	}
	s := newServer(f, handlers.Config{})
	f.Fuzz(func(t *testing.T, id, limit string) {
		target := "/api/node/" + url.PathEscape(id) + "?limit=" + url.QueryEscape(limit)
		fuzzAnswer(t, s, target, http.StatusOK, http.StatusBadRequest, http.StatusNotFound)
	})
}

func FuzzNodesRoute(f *testing.F) {
	for _, seed := range []string{alice, strings.ToUpper(alice), "0x", "0x123", "", "..", "%2F",
		alice + "0", "0x" + strings.Repeat("g", 40), "\x00"} {
		f.Add(seed)
	}
	s := newServer(f, handlers.Config{})
	f.Fuzz(func(t *testing.T, address string) {
		fuzzAnswer(t, s, "/api/nodes/"+url.PathEscape(address), http.StatusOK, http.StatusBadRequest, http.StatusNotFound)
	})
}
