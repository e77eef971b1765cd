package jobs

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// TestShutdownLetsThePassUnderWayFinish stops Run while the payments pass is between its scan
// and its mint: the pass still mints, and no other pass starts.
func TestShutdownLetsThePassUnderWayFinish(t *testing.T) {
	e := newEnv(t)
	e.pay(0, e.dc.Payments, priceOne)

	reached, release := make(chan struct{}), make(chan struct{})
	e.j.crash = func(step string) error {
		if step == "scan.recorded" {
			close(reached)
			<-release
		}
		return nil
	}
	stop, shutdown := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); e.j.Run(stop, t.Context(), time.Hour) }()
	<-reached
	shutdown()
	close(release)
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("Run did not return after the shutdown")
	}

	e.checkNodes(e.buyer(0), 1)
	var doc []byte
	if err := db.DB().QueryRow(`SELECT summary FROM scheduler_ticks ORDER BY id DESC LIMIT 1`).Scan(&doc); err != nil {
		t.Fatal(err)
	}
	var sum TickSummary
	if err := json.Unmarshal(doc, &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Payments.Minted != 1 || sum.Credit.Ran || sum.Reconcile.Ran {
		t.Fatalf("tick %s: want the payments pass finished and no other run", doc)
	}
}

func TestTickMetrics(t *testing.T) {
	e := newEnv(t)
	e.pay(0, e.dc.Payments, priceOne)
	runs := passRuns.WithLabelValues("payments", "ok")
	minted := paymentsCounted.WithLabelValues("minted")
	seen := paymentsCounted.WithLabelValues("seen")
	runsBefore, mintedBefore, seenBefore := testutil.ToFloat64(runs), testutil.ToFloat64(minted), testutil.ToFloat64(seen)
	scanLag.Set(-1)

	if sum := e.j.Tick(t.Context()); sum.PaymentsError != "" || sum.Payments.Minted != 1 {
		t.Fatalf("tick %+v", sum)
	}
	if testutil.ToFloat64(runs)-runsBefore != 1 || testutil.ToFloat64(minted)-mintedBefore != 1 || testutil.ToFloat64(seen)-seenBefore != 1 {
		t.Fatalf("runs +%v, minted +%v, seen +%v: want +1 each", testutil.ToFloat64(runs)-runsBefore,
			testutil.ToFloat64(minted)-mintedBefore, testutil.ToFloat64(seen)-seenBefore)
	}
	if lag := testutil.ToFloat64(scanLag); lag < 0 || lag > float64(e.cfg.Confirmations)+5 {
		t.Fatalf("scan lag %v blocks right after a scan", lag)
	}
}
