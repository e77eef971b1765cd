package jobs

import (
	"context"
	"encoding/json"
	"time"
)

// Run ticks every interval until stop ends. Passes run with work, so a shutdown does not cut the
// one under way short: it finishes, the rest of its tick is skipped, and Run returns. Cancelling
// work cuts it off, which is as safe as a crash (every step of every pass is), for a pass that
// would keep the shutdown waiting too long.
func (j *Jobs) Run(stop, work context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		j.tick(stop, work)
		select {
		case <-stop.Done():
			return
		case <-t.C:
		}
	}
}

// passTimeout bounds one pass; each pass applies it to itself, so it holds wherever the pass
// runs (tick, cron route, operator page). A dependency that stops answering without closing the
// connection cannot hold the passes up for longer, and cutting a pass off is as safe as a crash.
// It is long enough for the slowest honest pass, a catch-up scan of BlocksPerPass blocks traced
// through a slow public RPC, which records its blocks only at its end: cut off, it would start
// again from the same cursor every time.
const passTimeout = 30 * time.Minute

// startPass starts a pass of the kind the advisory lock key guards: its deadline (passTimeout)
// and its lock, which end releases, the lock first, on its own connection. ok is false when
// another pass holds the lock; end is then the deadline's release only. Every pass starts here.
func (j *Jobs) startPass(ctx context.Context, key int64) (_ context.Context, end func(), ok bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, passTimeout)
	unlock, ok, err := j.store.TryLock(ctx, key)
	if err != nil || !ok {
		return ctx, cancel, false, err
	}
	return ctx, func() { unlock(); cancel() }, true, nil
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
}

// Tick records a tick and runs the passes once. A failing pass is logged and recorded; the next
// tick tries again.
func (j *Jobs) Tick(ctx context.Context) TickSummary { return j.tick(ctx, ctx) }

// tick is Tick with passes run with work, and none started once stop has ended.
func (j *Jobs) tick(stop, work context.Context) TickSummary {
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
		{"payments", func(ctx context.Context) (err error) { sum.Payments, err = j.Payments(ctx); return err }, &sum.PaymentsError},
		{"credit", func(ctx context.Context) (err error) { sum.Credit, err = j.Credit(ctx); return err }, &sum.CreditError},
		{"reconciler", func(ctx context.Context) (err error) { sum.Reconcile, err = j.Reconcile(ctx); return err }, &sum.ReconcileError},
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
	return sum
}
