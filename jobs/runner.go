package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"nodeledger/chain"
	"nodeledger/jobs/sale"
	"nodeledger/store"
)

// Run ticks every interval until stop ends. Passes run with work, so a shutdown does not cut the
// one under way short: it finishes, the rest of its tick is skipped, and Run returns. Cancelling
// work cuts it off, which is as safe as a crash (every step of every pass is), for a pass that
// would keep the shutdown waiting too long. The tick's payments pass does not wait for its mints
// to be mined: FollowHead's next pass records them.
func (j *Jobs) Run(stop, work context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		j.tick(stop, work, 0)
		select {
		case <-stop.Done():
			return
		case <-t.C:
		}
	}
}

// FollowHead runs the payments pass at each new head of the chain until stop ends, so that a
// payment is seen, checked and its mint sent a moment after its block is confirmed, whatever the
// tick, and a mint is recorded a block after it is mined; then the sweep pass, so that a sweep is
// decided, and recorded once mined, at the chain's pace too. A head that comes while a pass runs
// is taken up once it ends, the newest of them only; while another pass holds a pass's lock (the
// tick's, another instance's) that pass is a no-op at this head. As in Run, no pass starts once
// stop has ended, and each runs with work. These passes record no tick: they would write one a
// block.
//
// The reconciler follows with the payments pass, which hands it the factory's events of the
// blocks it scanned (reconcileScanned), so the ledger holds blocks final at the chain's pace. The
// continuous verifier follows too, on a goroutine of its own so that its rebuild never holds the
// passes up: woken after each head's passes, it verifies what became final since it last did,
// once that is verifyEveryBlocks blocks or a block has waited verifyEvery. It checks the digests of the blocks it verifies; the
// tick's pass checks every block's.
func (j *Jobs) FollowHead(stop, work context.Context) {
	payments := headPass{name: "payments", run: func(ctx context.Context) (bool, error) {
		sum, err := j.payments(ctx, 0)
		return sum.Ran, err
	}}
	sweep := headPass{name: "sweep", run: func(ctx context.Context) (bool, error) {
		sum, err := j.Sweep(ctx)
		return sum.Ran, err
	}}
	verify := headPass{name: "verify", run: func(ctx context.Context) (bool, error) {
		sum, err := j.verify(ctx, false)
		return sum.Ran && sum.Reason == "", err
	}}
	final := make(chan struct{}, 1) // a head's passes are done: the verifier may have blocks to verify
	verified := make(chan struct{})
	go func() {
		defer close(verified)
		for range final {
			if stop.Err() != nil {
				return
			}
			verify.once(work, j)
		}
	}()
	defer func() { close(final); <-verified }()
	for head := range j.chain.Heads(stop) {
		at := chain.AtHead(work, head)
		for _, p := range []*headPass{&payments, &sweep} {
			if stop.Err() != nil {
				return
			}
			p.once(at, j)
		}
		select {
		case final <- struct{}{}:
		default: // the verifier has a wake-up waiting already
		}
	}
}

// headPass is a pass FollowHead runs at each head, and whether it failed at the last.
type headPass struct {
	name    string
	run     func(context.Context) (ran bool, err error)
	failing bool
}

// once runs p, logs its first failure in a row (not one a block) and its recovery, and counts it.
func (p *headPass) once(ctx context.Context, j *Jobs) {
	start := time.Now()
	ran, err := p.run(ctx)
	if err == nil && !ran {
		return // another pass has the lock and does this one's work, or the pass is off
	}
	result := "ok"
	switch {
	case err != nil:
		result = "error"
		if !p.failing {
			j.log.Error(p.name+" pass failed; retrying at each new head", "err", err)
		}
		p.failing = true
	case p.failing:
		j.log.Info(p.name + " pass ok again")
		p.failing = false
	}
	passSeconds.WithLabelValues(p.name).Observe(time.Since(start).Seconds())
	passRuns.WithLabelValues(p.name, result).Inc()
}

// passTimeout bounds one pass; each pass applies it to itself, so it holds wherever the pass
// runs (tick, cron route, operator page). A dependency that stops answering without closing the
// connection cannot hold the passes up for longer, and cutting a pass off is as safe as a crash.
// It is long enough for the slowest honest pass, a catch-up scan of BlocksPerPass blocks traced
// through a slow public RPC, which records its blocks only at its end: cut off, it would start
// again from the same cursor every time.
const passTimeout = 30 * time.Minute

// startPass starts the pass the advisory lock key guards: its deadline (passTimeout) and its
// lock, which end releases, the lock first, on its own connection, after recording how the pass
// went (*result, the pass's error, read when end runs) in the ledger's pass status. ok is false
// when another pass holds the lock; end is then the deadline's release only, and nothing is
// recorded: the pass did not run here. Every pass starts here, wherever it runs (tick, cron
// route, operator page), so every instance's health reads the same status.
func (j *Jobs) startPass(ctx context.Context, key int64, pass store.PassName, result *error) (_ context.Context, end func(), ok bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, passTimeout)
	// A rebuild (Observe) is the one writer of its ledger, which may be a scratch schema of the
	// live database: its passes take no lock, or they would wait on the live service's.
	unlock, ok := func() {}, true
	if !j.cfg.Observe {
		unlock, ok, err = j.store.TryLock(ctx, key)
	}
	if err != nil || !ok {
		return ctx, cancel, false, err
	}
	ctx, calls := chain.CountCalls(ctx)
	return ctx, func() {
		if !j.cfg.Observe { // a rebuild's passes are not the service's
			passRPCRequests.WithLabelValues(string(pass)).Observe(float64(calls.N()))
		}
		j.recordPass(ctx, pass, *result)
		unlock()
		cancel()
	}, true, nil
}

// recordPass records how a run of pass went, and sets its failure metrics. A pass cut off by a
// shutdown did not fail: nothing is recorded.
func (j *Jobs) recordPass(ctx context.Context, pass store.PassName, err error) {
	if errors.Is(err, context.Canceled) {
		return
	}
	perr := passError(err)
	if perr != nil && !j.cfg.Observe {
		passFailures.WithLabelValues(string(pass)).Inc()
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), finishTickTimeout)
	defer cancel()
	failures, rerr := j.store.RecordPass(ctx, pass, perr)
	if rerr != nil {
		j.log.Error("pass status not recorded", "pass", pass, "err", rerr)
		return
	}
	if !j.cfg.Observe {
		passFailuresInARow.WithLabelValues(string(pass)).Set(float64(failures))
	}
}

// passError is what the ledger keeps of a pass's error: a code, and the values its sentence is
// told with; never the error's text, which can carry an RPC URL or SQL (the log has it). nil
// for no error.
func passError(err error) *store.PassError {
	var cannotPay *CannotPayError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, sale.ErrSanctionsUnreadable): // before chain_unavailable, which it may wrap
		return &store.PassError{Code: store.PassSanctionsUnreadable}
	case errors.As(err, &cannotPay):
		return &store.PassError{Code: store.PassCannotPayGas, Args: store.PassErrorArgs{
			Signer: cannotPay.Signer, BalanceWei: store.Uint256{Int: cannotPay.Balance}, NeedWei: store.Uint256{Int: cannotPay.Need}}}
	case errors.Is(err, chain.ErrUnavailable):
		return &store.PassError{Code: store.PassChainUnavailable}
	case errors.Is(err, store.ErrUnavailable):
		return &store.PassError{Code: store.PassLedgerUnavailable}
	case errors.Is(err, context.DeadlineExceeded):
		return &store.PassError{Code: store.PassTimedOut}
	}
	return &store.PassError{Code: store.PassFailed}
}

// finishTickTimeout bounds recording a tick's end, which outlives a cut-off pass.
const finishTickTimeout = 5 * time.Second

// TickSummary is what one tick's passes did, as recorded with the tick.
type TickSummary struct {
	Payments       PaymentsSummary  `json:"payments"`
	PaymentsError  string           `json:"paymentsError,omitempty"`
	Credit         CreditSummary    `json:"credit"`
	CreditError    string           `json:"creditError,omitempty"`
	Reconcile      ReconcileSummary `json:"reconcile"`
	ReconcileError string           `json:"reconcileError,omitempty"`
	Sweep          SweepSummary     `json:"sweep"`
	SweepError     string           `json:"sweepError,omitempty"`
	Verify         VerifySummary    `json:"verify"`
	VerifyError    string           `json:"verifyError,omitempty"`
}

// Tick records a tick and runs the passes once. A failing pass is logged and recorded; the next
// tick tries again. Its payments pass waits for its mints, as Payments does.
func (j *Jobs) Tick(ctx context.Context) TickSummary { return j.tick(ctx, ctx, j.cfg.ReceiptTimeout) }

// tick is Tick with passes run with work, none started once stop has ended, and the payments
// pass waiting up to wait for its mints.
func (j *Jobs) tick(stop, work context.Context, wait time.Duration) TickSummary {
	var sum TickSummary
	id, err := j.store.StartTick(work)
	if err != nil {
		j.log.Error("tick not recorded", "err", err)
		return sum
	}
	passes := []struct {
		name string
		run  func(context.Context) error
		fail *string
	}{
		{"payments", func(ctx context.Context) (err error) { sum.Payments, err = j.payments(ctx, wait); return err }, &sum.PaymentsError},
		{"credit", func(ctx context.Context) (err error) { sum.Credit, err = j.Credit(ctx); return err }, &sum.CreditError},
		{"reconciler", func(ctx context.Context) (err error) { sum.Reconcile, err = j.Reconcile(ctx); return err }, &sum.ReconcileError},
		{"sweep", func(ctx context.Context) (err error) { sum.Sweep, err = j.Sweep(ctx); return err }, &sum.SweepError},
		// Last: it follows what the passes above made final.
		{"verify", func(ctx context.Context) (err error) { sum.Verify, err = j.Verify(ctx); return err }, &sum.VerifyError},
	}
	for _, p := range passes {
		if stop.Err() != nil {
			j.log.Info("shutting down: " + p.name + " pass not started")
			break
		}
		start, result := time.Now(), "ok"
		if err := p.run(work); err != nil {
			*p.fail, result = err.Error(), "error"
			j.log.Error(p.name+" pass failed", "err", err)
		}
		passSeconds.WithLabelValues(p.name).Observe(time.Since(start).Seconds())
		passRuns.WithLabelValues(p.name, result).Inc()
	}
	doc, _ := json.Marshal(sum)
	// Recorded even when work ended mid-tick: the tick happened.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(work), finishTickTimeout)
	defer cancel()
	if err := j.store.FinishTick(ctx, id, doc); err != nil {
		j.log.Error("tick end not recorded", "err", err)
	}
	if _, err := j.Outbox(ctx); err != nil { // for its metrics
		j.log.Warn("outbox figures not read", "err", err)
	}
	j.Funds(ctx) // for the signers' balance metrics
	return sum
}
