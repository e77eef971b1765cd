// Command rate sends GET requests at a constant rate and prints their latency, for make bench's
// p99 targets. wrk keeps a fixed number of connections busy: it measures the most a server can
// answer, and its latency there is the queue its own connections make (by Little's law, 64
// connections at 6,000 answers a second wait 10.7 ms on average, however fast the server). A
// latency target is a promise at a load the server carries, so this sends at a set rate, open
// loop: each request is due at its time whether or not the earlier ones have been answered, and
// its latency counts from then, so a server that stalls is charged for every request it delayed
// (the "coordinated omission" that a closed loop hides).
//
// It speaks HTTP/1.1 on its own connections rather than through net/http's client: on the
// 2-core machine the benchmark shares with the server and PostgreSQL, the client's CPU is taken
// from theirs, and net/http's (a read and a write goroutine a connection, handing each answer
// over) cost several times what the server spends on a request, as wrk's C does not.
//
// Usage: rate -url http://127.0.0.1:18080 -paths FILE -rate 3000 -duration 8s
// It prints one JSON line with the fields bench/wrk/paths.lua prints.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"net/url"
	"os"
	"slices"
	"strconv"
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
	u, uerr := url.Parse(*base)
	if err != nil || len(paths) == 0 || uerr != nil || u.Scheme != "http" || u.Host == "" || *rate <= 0 {
		fmt.Fprintln(os.Stderr, "rate: give -url (http://host:port), -paths (a file of paths) and -rate > 0")
		os.Exit(2)
	}
	requests := make([][]byte, len(paths))
	for i, p := range paths {
		requests[i] = []byte("GET " + p + " HTTP/1.1\r\nHost: " + u.Host + "\r\n\r\n")
	}
	r := run(u.Host, requests, *rate, *duration, *conns)
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

// run sends rate requests a second for d to addr through at most conns connections, each
// request one of requests at random.
func run(addr string, requests [][]byte, rate float64, d time.Duration, conns int) result {
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
			var c client
			defer c.close()
			mine := make([]time.Duration, 0, n/conns+1)
			var non2xx, errs int
			for at := range due {
				status, err := c.get(addr, requests[rand.IntN(len(requests))]) // #nosec G404 -- which path to ask for, not a secret
				mine = append(mine, time.Since(at))
				switch {
				case err != nil:
					errs++
				case status < 200 || status > 299:
					non2xx++
				}
			}
			mu.Lock()
			latencies = append(latencies, mine...)
			r.Non2xx += non2xx
			r.Errors += errs
			mu.Unlock()
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

// client is one keep-alive connection, opened when first needed and again after a failure or
// an answer that closes it.
type client struct {
	conn net.Conn
	r    *bufio.Reader
}

// timeout bounds each request, as wrk's --timeout does.
const timeout = 5 * time.Second

// get sends req and reads the whole answer, as a client would, and returns its status.
func (c *client) get(addr string, req []byte) (int, error) {
	if c.conn == nil {
		conn, err := net.DialTimeout("tcp", addr, timeout)
		if err != nil {
			return 0, err
		}
		c.conn, c.r = conn, bufio.NewReaderSize(conn, 16<<10)
	}
	_ = c.conn.SetDeadline(time.Now().Add(timeout))
	status, keep, err := c.exchange(req)
	if err != nil || !keep {
		c.close()
	}
	return status, err
}

func (c *client) close() {
	if c.conn != nil {
		_ = c.conn.Close()
		c.conn, c.r = nil, nil
	}
}

var errMalformed = errors.New("malformed answer")

// exchange writes req and reads its answer: the status line, the headers, and the body by its
// content-length or its chunks. keep is false when the server closes the connection after it.
func (c *client) exchange(req []byte) (status int, keep bool, err error) {
	if _, err := c.conn.Write(req); err != nil {
		return 0, false, err
	}
	line, err := c.line()
	if err != nil {
		return 0, false, err
	}
	// "HTTP/1.1 200 OK"
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) {
		return 0, false, errMalformed
	}
	if status, err = strconv.Atoi(string(line[9:12])); err != nil {
		return 0, false, errMalformed
	}
	length, chunked, keep := -1, false, true
	for {
		h, err := c.line()
		if err != nil {
			return status, false, err
		}
		if len(h) == 0 {
			break
		}
		name, value, ok := bytes.Cut(h, []byte(":"))
		if !ok {
			return status, false, errMalformed
		}
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			if length, err = strconv.Atoi(string(value)); err != nil || length < 0 {
				return status, false, errMalformed
			}
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			chunked = bytes.EqualFold(value, []byte("chunked"))
		case bytes.EqualFold(name, []byte("Connection")):
			keep = !bytes.EqualFold(value, []byte("close"))
		}
	}
	switch {
	case status == 204 || status == 304 || status < 200: // no body, whatever the headers say
	case chunked:
		err = c.chunks()
	case length >= 0:
		_, err = c.r.Discard(length)
	default: // the body runs to the connection's end
		_, err = io.Copy(io.Discard, c.r)
		keep = false
	}
	return status, keep && err == nil, err
}

// chunks reads a chunked body to its end.
func (c *client) chunks() error {
	for {
		line, err := c.line()
		if err != nil {
			return err
		}
		size, _, _ := bytes.Cut(line, []byte(";"))
		n, err := strconv.ParseInt(string(bytes.TrimSpace(size)), 16, 64)
		if err != nil || n < 0 {
			return errMalformed
		}
		if n == 0 { // the last chunk, then trailers up to an empty line
			for {
				t, err := c.line()
				if err != nil || len(t) == 0 {
					return err
				}
			}
		}
		if _, err := c.r.Discard(int(n)); err != nil {
			return err
		}
		if _, err := c.line(); err != nil { // the CRLF after the chunk
			return err
		}
	}
}

// line is the next line of the answer without its CRLF, valid until the next read.
func (c *client) line() ([]byte, error) {
	line, err := c.r.ReadSlice('\n')
	if err != nil {
		if errors.Is(err, bufio.ErrBufferFull) {
			return nil, errMalformed
		}
		return nil, err
	}
	return bytes.TrimRight(line, "\r\n"), nil
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
