//go:build long

package e2e

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"nodeledger/chain/gethdev"
)

// TestSoak is `make soak`: the real binary against geth --dev, with its passes ticking every
// 5 s and a payment every 2 s, under a steady mix of the public routes at half the capacity it
// measures first, for SOAK_DURATION (10m). Every 10 s it samples the server's RSS, goroutines
// and database connections. It fails on any 5xx or transport error, and when RSS, goroutines or
// connections grow over the run's second half; bench/SOAK.md gets the figures.
func TestSoak(t *testing.T) {
	duration := 10 * time.Minute
	if v, err := time.ParseDuration(os.Getenv("SOAK_DURATION")); err == nil && v > 0 {
		duration = v
	}
	rng := rand.New(rand.NewPCG(1, 2))
	metricsAddr := gethdev.FreeAddr(t)
	d := newDeployment(t, "TICK_SEC=5", "DIST_PERIOD_SEC=60", "BENCH_MODE=true", "METRICS_ADDR="+metricsAddr)
	s := startServer(t, d.bin, d.env)

	// Nodes to read: a first batch of payments, minted by the passes.
	for range 20 {
		d.pay(t, rng)
	}
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(time.Second) {
		var minted int
		if err := d.ledger.DB().Get(&minted, `SELECT count(*) FROM nodes`); err != nil {
			t.Fatal(err)
		}
		if minted >= 10 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d nodes minted after two minutes:\n%s", minted, s.out)
		}
	}
	var targets []vegeta.Target
	add := func(path string) {
		targets = append(targets, vegeta.Target{Method: http.MethodGet, URL: s.base + path})
	}
	for _, b := range d.buyers {
		add("/api/nodes/" + strings.ToLower(b.addr.Hex()))
	}
	for id := 1; id <= 10; id++ {
		add("/api/node/" + strconv.Itoa(id))
	}
	for _, path := range []string{"/api/stats", "/api/stats", "/api/distributions", "/api/tiers", "/api/cron/health", "/", "/distributions"} {
		add(path)
	}
	targeter := vegeta.NewStaticTargeter(targets...)
	attacker := func() *vegeta.Attacker { // one an attack: an attacker is spent once its attack ends
		return vegeta.NewAttacker(vegeta.MaxWorkers(64), vegeta.Connections(64), vegeta.KeepAlive(true), vegeta.Timeout(10*time.Second))
	}

	// Capacity: as fast as 64 workers go, for 20 s.
	var capacity vegeta.Metrics
	for r := range attacker().Attack(targeter, vegeta.Rate{Freq: 0}, 20*time.Second, "capacity") {
		capacity.Add(r)
	}
	capacity.Close()
	rate := int(capacity.Throughput / 2)
	t.Logf("capacity %.0f req/s (success %.4f): the soak runs at %d req/s for %v", capacity.Throughput, capacity.Success, rate, duration)

	// The soak, with payments going on, sampled every 10 s.
	type sample struct {
		at                         time.Duration
		requests, fivexx, errors   int
		p99                        time.Duration
		rssMB, goroutines, dbConns int
	}
	var samples []sample
	var total, window vegeta.Metrics
	start := time.Now()
	tick, payTick := time.NewTicker(10*time.Second), time.NewTicker(2*time.Second)
	defer tick.Stop()
	defer payTick.Stop()
	payments := 0
	results := attacker().Attack(targeter, vegeta.Rate{Freq: rate, Per: time.Second}, duration, "soak")
	fivexx, failures := 0, map[string]int{}
	record := func() {
		window.Close()
		smp := sample{at: time.Since(start).Round(time.Second), requests: int(window.Requests), p99: window.Latencies.P99}
		for code, n := range window.StatusCodes {
			if strings.HasPrefix(code, "5") {
				smp.fivexx += n
			}
		}
		smp.errors = len(window.Errors)
		smp.rssMB, smp.goroutines = processRSSMB(t, s.cmd.Process.Pid), goroutines(t, metricsAddr)
		if err := d.ledger.DB().Get(&smp.dbConns, `SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`); err != nil {
			t.Fatal(err)
		}
		samples = append(samples, smp)
		window = vegeta.Metrics{}
	}
loop:
	for {
		select {
		case r, ok := <-results:
			if !ok {
				break loop
			}
			total.Add(r)
			window.Add(r)
			if r.Code >= 500 {
				fivexx++
			}
			if r.Error != "" {
				failures[r.Error]++
			}
		case <-tick.C:
			record()
		case <-payTick.C:
			d.pay(t, rng)
			payments++
		}
	}
	if window.Requests > 0 {
		record()
	}
	total.Close()
	var nodes int
	if err := d.ledger.DB().Get(&nodes, `SELECT count(*) FROM nodes`); err != nil {
		t.Fatal(err)
	}

	var b strings.Builder
	fmt.Fprintf(&b, "# Soak\n\n`make soak` on %s, commit %s: %v at %d req/s (half of the %.0f req/s measured first), "+
		"a mix of %d GETs over the public routes and pages, with passes ticking every 5 s and %d payments made during it (%d nodes at the end).\n\n",
		time.Now().UTC().Format("2006-01-02"), gitCommit(), duration, rate, capacity.Throughput, len(targets), payments, nodes)
	fmt.Fprintf(&b, "Requests: %d, success %.4f, 5xx: %d, transport errors: %d; latency p50 %v, p99 %v, max %v.\n\n",
		total.Requests, total.Success, fivexx, len(failures), total.Latencies.P50, total.Latencies.P99, total.Latencies.Max)
	b.WriteString("| at | requests | 5xx | p99 | RSS MB | goroutines | DB connections |\n|---|---|---|---|---|---|---|\n")
	for _, smp := range samples {
		fmt.Fprintf(&b, "| %v | %d | %d | %v | %d | %d | %d |\n", smp.at, smp.requests, smp.fivexx, smp.p99.Round(100*time.Microsecond), smp.rssMB, smp.goroutines, smp.dbConns)
	}
	t.Log("\n" + b.String())
	if err := os.WriteFile(filepath.Join(root, "bench", "SOAK.md"), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}

	if fivexx != 0 || len(failures) != 0 {
		t.Errorf("%d 5xx, transport errors %v", fivexx, failures)
	}
	// Flat: the last quarter of the run grows no more than noise over the second quarter.
	q := len(samples) / 4
	if q == 0 {
		t.Fatalf("%d samples: too short a soak to judge", len(samples))
	}
	second, last := samples[q:2*q], samples[len(samples)-q:]
	peak := func(ss []sample, f func(sample) int) int { return slices.Max(mapSamples(ss, f)) }
	for _, m := range []struct {
		name  string
		f     func(sample) int
		slack func(int) int
	}{
		{"RSS MB", func(s sample) int { return s.rssMB }, func(v int) int { return v/5 + 10 }},
		{"goroutines", func(s sample) int { return s.goroutines }, func(v int) int { return v/10 + 20 }},
		{"DB connections", func(s sample) int { return s.dbConns }, func(int) int { return 4 }},
	} {
		before, after := peak(second, m.f), peak(last, m.f)
		if after > before+m.slack(before) {
			t.Errorf("%s grew: peak %d in the second quarter, %d in the last", m.name, before, after)
		}
	}
}

func mapSamples[S, T any](ss []S, f func(S) T) []T {
	out := make([]T, len(ss))
	for i, s := range ss {
		out[i] = f(s)
	}
	return out
}

// processRSSMB reads a process's resident memory from /proc.
func processRSSMB(t *testing.T, pid int) int {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return kb / 1024
		}
	}
	t.Fatalf("no VmRSS for pid %d", pid)
	return 0
}

// goroutines reads go_goroutines from the server's /metrics.
func goroutines(t *testing.T, metricsAddr string) int {
	resp, err := http.Get("http://" + metricsAddr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "go_goroutines "); ok {
			n, _ := strconv.ParseFloat(v, 64)
			return int(n)
		}
	}
	t.Fatal("no go_goroutines in /metrics")
	return 0
}

func gitCommit() string {
	out, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(out))
}
