package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestRunReadsEveryKindOfAnswer sends a run through the client's own HTTP/1.1 against net/http's
// server: answers with a length, chunked, closing their connection, and not 2xx. Every request
// must be answered and read whole (a body left unread would be taken for the next answer's
// status line, an error), and counted by its status.
func TestRunReadsEveryKindOfAnswer(t *testing.T) {
	var served [5]atomic.Int64 // by kind, in the order of requests below
	mux := http.NewServeMux()
	mux.HandleFunc("/length", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "10000") // past net/http's buffer, which would chunk it otherwise
		_, _ = w.Write([]byte(strings.Repeat("x", 10_000)))
		served[0].Add(1)
	})
	mux.HandleFunc("/chunked", func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(strings.Repeat("a", 3000)))
		w.(http.Flusher).Flush()
		_, _ = w.Write([]byte(strings.Repeat("b", 3000)))
		served[1].Add(1)
	})
	mux.HandleFunc("/close", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Connection", "close")
		_, _ = w.Write([]byte("bye"))
		served[2].Add(1)
	})
	mux.HandleFunc("/missing", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error": "no such thing"}`, http.StatusNotFound)
		served[3].Add(1)
	})
	mux.HandleFunc("/empty", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNoContent)
		served[4].Add(1)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	host := strings.TrimPrefix(srv.URL, "http://")
	var requests [][]byte
	for _, p := range []string{"/length", "/chunked", "/close", "/missing", "/empty"} {
		requests = append(requests, []byte("GET "+p+" HTTP/1.1\r\nHost: "+host+"\r\n\r\n"))
	}
	// One connection, so each answer is read on the connection the next request goes out on.
	r := run(host, requests, 2000, 250*time.Millisecond, 1)
	if r.Requests != 500 || r.Errors != 0 {
		t.Fatalf("%d requests, %d errors; want 500 and none", r.Requests, r.Errors)
	}
	total := 0
	for i := range served {
		n := int(served[i].Load())
		if n == 0 {
			t.Errorf("answer kind %d was never asked for", i)
		}
		total += n
	}
	if total != 500 || r.Non2xx != int(served[3].Load()) {
		t.Errorf("the server answered %d and %d were counted not 2xx; want 500 and the %d 404s", total, r.Non2xx, served[3].Load())
	}
	if r.P99 <= 0 || r.P50 > r.P99 {
		t.Errorf("latencies p50 %v ms, p99 %v ms", r.P50, r.P99)
	}
}
