package jobs

import (
	"context"
	"encoding/json"
	"time"
)

// Run ticks every interval until ctx ends. Each tick is recorded (for /api/cron/health) and runs
// the passes in turn; each pass takes its own advisory lock, so any number of instances can tick
// and a pass still never runs twice at once.
func (j *Jobs) Run(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		j.Tick(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

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
func (j *Jobs) Tick(ctx context.Context) TickSummary {
	var sum TickSummary
	id, err := j.store.StartTick(ctx)
	if err != nil {
		j.log.Error("tick not recorded", "err", err)
		return sum
	}
	if sum.Payments, err = j.Payments(ctx); err != nil {
		sum.PaymentsError = err.Error()
		j.log.Error("payments pass failed", "err", err)
	}
	if sum.Credit, err = j.Credit(ctx); err != nil {
		sum.CreditError = err.Error()
		j.log.Error("credit pass failed", "err", err)
	}
	if sum.Reconcile, err = j.Reconcile(ctx); err != nil {
		sum.ReconcileError = err.Error()
		j.log.Error("reconciler pass failed", "err", err)
	}
	doc, _ := json.Marshal(sum)
	// Recorded even when ctx ended mid-tick: the tick happened.
	if err := j.store.FinishTick(context.WithoutCancel(ctx), id, doc); err != nil {
		j.log.Error("tick end not recorded", "err", err)
	}
	return sum
}
