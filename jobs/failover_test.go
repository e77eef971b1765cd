package jobs

import (
	"sync/atomic"
	"testing"
	"time"

	"nodeledger/chain/devchain"
	"nodeledger/store/storetest"
)

// TestPaymentsPassThroughAFailover: the primary is killed (kill -9) and its synchronous standby
// promoted at each step of a payment's life, in the middle of a payments pass. The same passes,
// not restarted, go on against the new primary (the URL names both): the pass that met the kill
// fails, and the next ones mint every payment once; the lock the dead primary held is nobody's.
func TestPaymentsPassThroughAFailover(t *testing.T) {
	t.Parallel()
	for _, step := range paymentSteps {
		t.Run(step, func(t *testing.T) {
			t.Parallel()
			db, pair := storetest.PairLedger(t)
			e := newEnvIn(t, db, devchain.Options{})
			e.pay(0, e.dc.Payments, priceOne)
			e.pay(1, e.dc.Payments, priceOne)
			e.pay(3, e.dc.Payments, priceTwo) // rejected: buyer 3 holds no DHT

			var failedOver atomic.Bool
			e.j.crash = func(s string) error {
				if s == step && failedOver.CompareAndSwap(false, true) {
					if err := pair.Failover(t.Context()); err != nil {
						t.Error(err)
					}
				}
				return nil
			}
			start := time.Now()
			for range 10 {
				_, err := e.j.Payments(t.Context())
				if err == nil && len(payments(t, e.db, "pending"))+len(payments(t, e.db, "minting")) == 0 {
					break
				}
			}
			if !failedOver.Load() {
				t.Fatalf("the pass never reached %s", step)
			}
			if m, r := len(payments(t, e.db, "minted")), len(payments(t, e.db, "rejected")); m != 2 || r != 1 {
				t.Fatalf("after the failover at %s: %d minted and %d rejected, want 2 and 1", step, m, r)
			}
			e.checkNodes(e.buyer(0), 1)
			e.checkNodes(e.buyer(1), 1)
			e.checkNodes(e.buyer(3), 0)
			t.Logf("failover at %s: every payment settled %s after the first pass began", step, time.Since(start).Round(time.Millisecond))
		})
	}
}
