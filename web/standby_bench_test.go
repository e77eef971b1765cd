package web

import (
	"cmp"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"nodeledger/handlers"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// BenchmarkNodesOnAStandby measures GET /api/nodes/{owner} over one seeded ledger on a primary
// with a synchronous standby (storetest.Pair), served twice: from the primary alone, and with the
// standby serving the public reads (DATABASE_READ_URL), with 64 clients over HTTP, interleaved,
// as make bench measures the route. The load, the server and both PostgreSQL servers share the
// machine's cores: on two, what the standby can add is bounded by them. make bench reports it.
func BenchmarkNodesOnAStandby(b *testing.B) {
	ctx := b.Context()
	primary, pair := storetest.PairLedger(b)
	if err := primary.Seed(ctx, store.SeedSize{Nodes: 200_000, Owners: 40_000, Rounds: 10, Withdrawals: 20_000, HotNodes: 200},
		func(string, time.Duration) {}); err != nil {
		b.Fatal(err)
	}
	standby, err := store.OpenStandby(pair.Standby.URL)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { standby.Close() })
	reads := store.NewReads(primary, standby, 5*time.Second)
	go reads.Follow(ctx, time.Second)
	for deadline := time.Now().Add(time.Minute); reads.Store() != standby; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			b.Fatal("the reads never go to the standby")
		}
	}
	var owners []string
	if err := primary.DB().SelectContext(ctx, &owners,
		`SELECT owner FROM (SELECT DISTINCT owner FROM nodes) o ORDER BY md5(owner) LIMIT 128`); err != nil {
		b.Fatal(err)
	}
	serve := func(cfg handlers.Config) string {
		srv := httptest.NewServer(newServerWith(b, primary, unreachableChain(b), nil, cfg, Options{Bench: true}).e)
		b.Cleanup(srv.Close)
		return srv.URL
	}
	alone, beside := serve(handlers.Config{}), serve(handlers.Config{Reads: reads})

	const clients, each = 64, 4 * time.Second
	var onPrimary, onStandby []load
	for b.Loop() {
		onPrimary = append(onPrimary, drive(b, alone, owners, clients, each))
		onStandby = append(onStandby, drive(b, beside, owners, clients, each))
	}
	p, s := medianLoad(onPrimary), medianLoad(onStandby)
	b.ReportMetric(p.rps, "primary-req/s")
	b.ReportMetric(p.p99.Seconds()*1000, "primary-p99-ms")
	b.ReportMetric(s.rps, "standby-req/s")
	b.ReportMetric(s.p99.Seconds()*1000, "standby-p99-ms")
	b.ReportMetric(s.rps/p.rps, "standby/primary")
}

// load is what a run of drive measured.
type load struct {
	rps float64
	p99 time.Duration
}

// drive sends GET /api/nodes/{owner} to base from clients clients, each request waiting for the
// last, for d; a non-200 answer fails b.
func drive(b *testing.B, base string, owners []string, clients int, d time.Duration) load {
	var mu sync.Mutex
	var took []time.Duration
	var wg sync.WaitGroup
	end := time.Now().Add(d)
	for c := range clients {
		wg.Go(func() {
			hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
			var mine []time.Duration
			for i := c; time.Now().Before(end); i += clients {
				start := time.Now()
				resp, err := hc.Get(base + "/api/nodes/" + owners[i%len(owners)])
				if err != nil {
					b.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b.Errorf("status %d", resp.StatusCode)
					return
				}
				mine = append(mine, time.Since(start))
			}
			mu.Lock()
			took = append(took, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	if len(took) == 0 {
		b.Fatal("no answer")
	}
	slices.Sort(took)
	return load{rps: float64(len(took)) / d.Seconds(), p99: took[len(took)*99/100]}
}

// medianLoad is the run of the median rate.
func medianLoad(runs []load) load {
	slices.SortFunc(runs, func(a, b load) int { return cmp.Compare(a.rps, b.rps) })
	return runs[len(runs)/2]
}
