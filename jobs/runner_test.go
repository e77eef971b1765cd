package jobs

import (
	"context"
	"encoding/json"
	"testing"
	"time"
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
