// Command rate sends GET requests at a constant rate and prints their latency, for make bench's
// p99 targets. wrk keeps a fixed number of connections busy: it measures the most a server can
// answer, and its latency there is the queue its own connections make (by Little's law, 64
// connections at 6,000 answers a second wait 10.7 ms on average, however fast the server). A
// latency target is a promise at a load the server carries, so this sends at a set rate, open
// loop: each request is due at its time whether or not the earlier ones have been answered, and
// its latency counts from then, so a server that stalls is charged for every request it delayed
// (the "coordinated omission" that a closed loop hides).
//
// Usage: rate -url http://127.0.0.1:18080 -paths FILE -rate 3000 -duration 8s
// It prints one JSON line with the fields bench/wrk/paths.lua prints.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"sync"
	"time"
)

func main() {
	base := flag.String("url", "", "the server, as http://host:port")
	pathsFile := flag.String("paths", "", "a file of request paths, one a line; each request takes one at random")
	rate := flag.Float64("rate", 1000, "requests a second")
	duration := flag.Duration("duration", 8*time.Second, "how long to send")
	conns := flag.Int("conns", 64, "connections at most; a request due while all are busy waits, and its wait counts")
	flag.Parse()
	paths, err := readLines(*pathsFile)
	if err != nil || len(paths) == 0 || *base == "" || *rate <= 0 {
		fmt.Fprintln(os.Stderr, "rate: give -url, -paths (a file of paths) and -rate > 0")
		os.Exit(2)
	}
	r := run(*base, paths, *rate, *duration, *conns)
	_ = json.NewEncoder(os.Stdout).Encode(r)
}

// result is what one run measured, in bench/wrk/paths.lua's fields.
type result struct {
	RPS      float64 `json:"rps"`
	P50      float64 `json:"p50_ms"`
	P99      float64 `json:"p99_ms"`
	Requests int     `json:"requests"`
	Non2xx   int     `json:"non2xx"`
	Errors   int     `json:"errors"`
}

// run sends rate requests a second for d through at most conns connections.
func run(base string, paths []string, rate float64, d time.Duration, conns int) result {
	client := &http.Client{
		Timeout:   5 * time.Second,
		Transport: &http.Transport{MaxConnsPerHost: conns, MaxIdleConnsPerHost: conns, DisableCompression: true},
	}
	n := int(rate * d.Seconds())
	interval := time.Duration(float64(time.Second) / rate)
	due := make(chan time.Time, n) // never blocks the schedule: a late request waits here, counted
	var (
		mu        sync.Mutex
		latencies = make([]time.Duration, 0, n)
		r         result
	)
	var workers sync.WaitGroup
	for range conns {
		workers.Go(func() {
			for at := range due {
				status, err := get(client, base+paths[rand.IntN(len(paths))]) // #nosec G404 -- which path to ask for, not a secret
				took := time.Since(at)
				mu.Lock()
				switch {
				case err != nil:
					r.Errors++
				case status < 200 || status > 299:
					r.Non2xx++
				}
				latencies = append(latencies, took)
				mu.Unlock()
			}
		})
	}
	start := time.Now()
	for i := range n {
		at := start.Add(time.Duration(i) * interval)
		time.Sleep(time.Until(at))
		due <- at
	}
	close(due)
	workers.Wait()
	elapsed := time.Since(start)

	slices.Sort(latencies)
	r.Requests = len(latencies)
	r.RPS = math.Round(float64(r.Requests)/elapsed.Seconds()*10) / 10
	r.P50, r.P99 = percentileMs(latencies, 0.50), percentileMs(latencies, 0.99)
	return r
}

// get asks for url and reads the whole answer, as a client would.
func get(client *http.Client, url string) (int, error) {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, err
}

// percentileMs is the q-quantile of sorted, in milliseconds (the nearest rank).
func percentileMs(sorted []time.Duration, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := min(int(q*float64(len(sorted))), len(sorted)-1)
	return float64(sorted[i].Microseconds()) / 1000
}

func readLines(name string) ([]string, error) {
	f, err := os.Open(name) // #nosec G304 -- the benchmark names the file on its own command line
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var lines []string
	s := bufio.NewScanner(f)
	for s.Scan() {
		if s.Text() != "" {
			lines = append(lines, s.Text())
		}
	}
	return lines, s.Err()
}
