package web

import (
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"nodeledger/chain/devchain"
	"nodeledger/jobs"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// TestRefundBatchThroughAFailover: the primary is killed (kill -9) and its synchronous standby
// promoted at each step of a refund batch's life: proposed, approved, executed on chain, settled
// by the payments pass. The same server and passes, not restarted, go on against the new
// primary (the URL names both): what the admin API acknowledged (the batch, each approval) is
// there, a request that meets the switch answers 503 and no 500, the batch executes once, and
// each buyer is paid back exactly once.
func TestRefundBatchThroughAFailover(t *testing.T) {
	t.Parallel()
	for _, step := range []string{"proposed", "approved", "executed", "settled"} {
		t.Run(step, func(t *testing.T) {
			t.Parallel()
			ctx := t.Context()
			db, pair := storetest.PairLedger(t)
			e := newRefundEnv(t, db)
			dc := e.dc
			failover := func(at string) {
				if at == step {
					if err := pair.Failover(ctx); err != nil {
						t.Fatal(err)
					}
				}
			}
			// A client retries a 503 (retry-after), as the spec tells it to; anything else is the answer.
			do := func(method, target, body string) *httptest.ResponseRecorder {
				t.Helper()
				for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
					rec := e.s.adminDo(t, method, target, body, adminKey)
					if rec.Code != http.StatusServiceUnavailable || time.Now().After(deadline) {
						return rec
					}
					if rec.Header().Get("Retry-After") == "" {
						t.Fatalf("%s %s: 503 without retry-after", method, target)
					}
				}
			}
			// The passes after the switch: the one that meets it fails, the next ones go on.
			pass := func() jobs.PaymentsSummary {
				t.Helper()
				dc.Commit()
				var err error
				for range 20 {
					var sum jobs.PaymentsSummary
					if sum, err = e.j.Payments(ctx); err == nil {
						return sum
					}
					time.Sleep(100 * time.Millisecond)
				}
				t.Fatalf("the payments pass fails after the failover: %v", err)
				return jobs.PaymentsSummary{}
			}

			values := []int64{150_000_000_000_000_000, 250_000_000_000_000_000}
			var wrong []string
			for i, v := range values {
				wrong = append(wrong, e.pay(i, v))
			}
			if sum := pass(); sum.Rejected != 2 {
				t.Fatalf("pass %+v", sum)
			}
			rec := do(http.MethodPost, "/api/admin/refund-batches", `{"payments": "all"}`)
			wantStatus(t, rec, http.StatusCreated)
			b := decode[batchDoc](t, rec)
			failover("proposed")
			for _, owner := range []int{7, devchain.OwnerIndex} {
				wantStatus(t, do(http.MethodPost, fmt.Sprintf("/api/admin/refund-batches/%d/approvals", b.ID),
					`{"signature": "`+e.sign(owner, b.SafeTxHash)+`"}`), http.StatusOK)
			}
			failover("approved")
			rec = do(http.MethodGet, fmt.Sprintf("/api/admin/refund-batches/%d", b.ID), "")
			wantStatus(t, rec, http.StatusOK)
			ready := decode[batchDoc](t, rec)
			if len(ready.Refunds) != 2 || len(ready.Approvals) != 2 || !ready.Ready || ready.ExecData == nil {
				t.Fatalf("after the approvals: %+v", ready)
			}

			before := make([]*big.Int, len(values))
			for i := range before {
				var err error
				if before[i], err = e.c.Balance(ctx, dc.Buyers[i].Address); err != nil {
					t.Fatal(err)
				}
			}
			exec := e.send(dc.Buyers[4].Key, dc.Treasury, common.FromHex(*ready.ExecData), nil)
			if exec.Status != types.ReceiptStatusSuccessful {
				t.Fatal("the batch reverted")
			}
			failover("executed")
			pass()
			failover("settled")
			pass()

			rec = do(http.MethodGet, fmt.Sprintf("/api/admin/refund-batches/%d", b.ID), "")
			wantStatus(t, rec, http.StatusOK)
			done := decode[batchDoc](t, rec)
			if execTx := strings.ToLower(exec.TxHash.Hex()); done.Status != "executed" || done.ExecutedTx == nil || *done.ExecutedTx != execTx {
				t.Fatalf("after the failover at %s: %+v, want executed by %s", step, done, execTx)
			}
			for i, hash := range wrong {
				after, err := e.c.Balance(ctx, dc.Buyers[i].Address)
				if err != nil {
					t.Fatal(err)
				}
				if got := new(big.Int).Sub(after, before[i]); got.Cmp(big.NewInt(values[i])) != 0 {
					t.Fatalf("buyer %d got %s wei back, want %d", i, got, values[i])
				}
				if p := e.paymentDoc(hash); p.Status != store.BuyerRefunded {
					t.Fatalf("payment %s reads %s after the failover at %s, want refunded", hash, p.Status, step)
				}
			}
			// Nothing is owed again: a second batch has nothing to pay.
			rec = do(http.MethodPost, "/api/admin/refund-batches", `{"payments": "all"}`)
			wantStatus(t, rec, http.StatusBadRequest)
			if msg := errorMessage(t, rec); !strings.Contains(msg, "nothing to refund") {
				t.Fatalf("a second batch after the failover at %s: %q", step, msg)
			}
		})
	}
}
