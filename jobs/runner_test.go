package jobs

import (
	"context"
	"encoding/json"
	"log/slog"
	"math/big"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"

	"nodeledger/chain"
	"nodeledger/chain/devchain"
	"nodeledger/jobs/sale"
	"nodeledger/store"
)

// TestShutdownLetsThePassUnderWayFinish stops Run while the payments pass is between its scan
// and its mint: the pass still sends the mint, and no other pass starts. (The runner's passes do
// not wait for receipts: the next pass records the node.)
func TestShutdownLetsThePassUnderWayFinish(t *testing.T) {
	t.Parallel()
	// Mined by hand, so that the mint the pass sends is still in flight when the test looks.
	m := manualChain{newEnvOn(t, devchain.Options{ManualMining: true})}
	e := m.env
	m.transfer(0, e.dc.Payments, priceOne, 0, 1)
	m.commit(1)

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

	if p := payments(t, e.db, "minting"); len(p) != 1 {
		t.Fatalf("%d payments minting after the shutdown, want the one whose mint the pass sent", len(p))
	}
	var doc []byte
	if err := e.db.DB().QueryRow(`SELECT summary FROM scheduler_ticks ORDER BY id DESC LIMIT 1`).Scan(&doc); err != nil {
		t.Fatal(err)
	}
	var sum TickSummary
	if err := json.Unmarshal(doc, &sum); err != nil {
		t.Fatal(err)
	}
	if !sum.Payments.Ran || sum.PaymentsError != "" || sum.Payments.Minting != 1 || sum.Credit.Ran || sum.Reconcile.Ran {
		t.Fatalf("tick %s: want the payments pass finished and no other run", doc)
	}
	m.commit(1)
	e.settle()
	e.checkNodes(e.buyer(0), 1)
}

func TestTickMetrics(t *testing.T) {
	// Not parallel: it reads the package's metrics, which every pass moves.
	e := newEnv(t)
	e.pay(0, e.dc.Payments, priceOne)
	e.pay(1, e.dc.Payments, big.NewInt(12345)) // no tier's price
	runs := passRuns.WithLabelValues("payments", "ok")
	minted := paymentsCounted.WithLabelValues("minted", "")
	seen := paymentsCounted.WithLabelValues("seen", "")
	wrong := paymentsCounted.WithLabelValues("rejected", string(sale.WrongAmount))
	count := func() [4]float64 {
		return [4]float64{testutil.ToFloat64(runs), testutil.ToFloat64(minted), testutil.ToFloat64(seen), testutil.ToFloat64(wrong)}
	}
	stages := []string{stageConfirmed, stageJudged, stageMinted}
	timed := func() (n []uint64) {
		for _, stage := range stages {
			var m dto.Metric
			if err := paymentStage.WithLabelValues(stage).(prometheus.Metric).Write(&m); err != nil {
				t.Fatal(err)
			}
			n = append(n, m.GetHistogram().GetSampleCount())
		}
		return n
	}
	before, timedBefore := count(), timed()
	scanLag.Set(-1)

	if sum := e.j.Tick(t.Context()); sum.PaymentsError != "" || sum.Payments.Minted != 1 || sum.Payments.Rejected != 1 {
		t.Fatalf("tick %+v", sum)
	}
	after := count()
	if d := [4]float64{after[0] - before[0], after[1] - before[1], after[2] - before[2], after[3] - before[3]}; d != [4]float64{1, 1, 2, 1} {
		t.Fatalf("runs, minted, seen, rejected wrong_amount: +%v, want +[1 1 2 1]", d)
	}
	// Both payments were recorded and judged; one was minted.
	for i, want := range []uint64{2, 2, 1} {
		if got := timed()[i] - timedBefore[i]; got != want {
			t.Errorf("stage %s timed %d payments, want %d", stages[i], got, want)
		}
	}
	if lag := testutil.ToFloat64(scanLag); lag < 0 || lag > float64(e.cfg.Confirmations)+5 {
		t.Fatalf("scan lag %v blocks right after a scan", lag)
	}
}

// A pass's status is kept in the ledger wherever it runs: failures in a row with a code that
// says why (never the error's text), a success resets them and keeps when it was, and the
// metrics follow.
func TestPassStatusIsRecorded(t *testing.T) {
	// Not parallel: it reads the package's metrics, which every pass moves.
	e := newEnv(t)
	dead, err := chain.Dial(t.Context(), "http://127.0.0.1:1", chain.Config{Factory: e.dc.Factory, Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer dead.Close()
	offline := New(e.db, dead, nil, nil, e.cfg, slog.New(slog.DiscardHandler))
	failed := passFailures.WithLabelValues("payments")
	before := testutil.ToFloat64(failed)
	for range 3 {
		if _, err := offline.Payments(t.Context()); err == nil {
			t.Fatal("a payments pass without a chain did not fail")
		}
	}
	st := passStatus(t, e.db, store.PassPayments)
	if st.Failures != 3 || st.Error == nil || st.Error.Code != store.PassChainUnavailable || st.LastOKAt != nil {
		t.Fatalf("after 3 failures: %+v", st)
	}
	if n := testutil.ToFloat64(failed) - before; n != 3 {
		t.Fatalf("failure counter +%v, want +3", n)
	}
	if n := testutil.ToFloat64(passFailuresInARow.WithLabelValues("payments")); n != 3 {
		t.Fatalf("failures in a row gauge %v, want 3", n)
	}

	mustPass(t, e.j)
	st = passStatus(t, e.db, store.PassPayments)
	if st.Failures != 0 || st.Error != nil || st.LastOKAt == nil || time.Since(*st.LastOKAt) > time.Minute {
		t.Fatalf("after a success: %+v", st)
	}
	if n := testutil.ToFloat64(passFailuresInARow.WithLabelValues("payments")); n != 0 {
		t.Fatalf("failures in a row gauge %v after a success", n)
	}
	if other := passStatus(t, e.db, store.PassCredit); other.Failures != 0 || other.LastOKAt != nil {
		t.Fatalf("the credit pass never ran: %+v", other)
	}
	// The tick reads the signers' balances for their gauges.
	e.j.Tick(t.Context())
	if v := testutil.ToFloat64(signerBalance.WithLabelValues("minter")); v <= 0 {
		t.Fatalf("minter balance gauge %v", v)
	}
}

// passStatus is the ledger's status of pass.
func passStatus(t *testing.T, db *store.Store, pass store.PassName) store.PassStatus {
	t.Helper()
	all, err := db.PassStatuses(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range all {
		if st.Pass == pass {
			return st
		}
	}
	t.Fatalf("no status for %s in %+v", pass, all)
	return store.PassStatus{}
}
