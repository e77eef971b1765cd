package store_test

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"testing"

	"nodeledger/store"
	"nodeledger/store/storetest"
)

// TestBatchMoves holds the trigger refund_batches_move to store's table of moves, pair by pair,
// as TestPaymentMoves does for payments.
func TestBatchMoves(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	for i, from := range store.BatchStatuses {
		for j, to := range store.BatchStatuses {
			t.Run(fmt.Sprint(from, " to ", to), func(t *testing.T) {
				tx, err := db.DB().Beginx()
				if err != nil {
					t.Fatal(err)
				}
				defer tx.Rollback()
				// The columns each status asks for: a transaction when executed or failed, a block
				// when decided.
				executed := func(s store.BatchStatus) any {
					if s == store.BatchExecuted || s == store.BatchFailed {
						return storetest.TxHash(fmt.Sprint("exec", i, j))
					}
					return nil
				}
				block := func(s store.BatchStatus) any {
					if s.Open() {
						return nil
					}
					return 7
				}
				var id int64
				if err := tx.Get(&id, `
					INSERT INTO treasury_batches (kind, safe, to_address, value_wei, data, operation, safe_tx_gas, base_gas, gas_price,
						gas_token, refund_receiver, nonce, safe_tx_hash, threshold, proposed_by, status, executed_tx, block_number)
					VALUES ('refunds', '0x00000000000000000000000000000000000b0b01', '0x00000000000000000000000000000000000b0b02', 0, '', 1,
						0, 0, 0, '0x0000000000000000000000000000000000000000', '0x0000000000000000000000000000000000000000',
						0, $1, 2, 'test', $2, $3, $4) RETURNING id`,
					storetest.TxHash(fmt.Sprint("batch", i, j)), from, executed(from), block(from)); err != nil {
					t.Fatal(err)
				}
				_, err = tx.Exec(`UPDATE treasury_batches SET status = $2, executed_tx = $3, block_number = $4 WHERE id = $1`,
					id, to, executed(to), block(to))
				if want := from.CanBecome(to); (err == nil) != want {
					t.Fatalf("the database says %v; store's table says allowed: %v", err, want)
				}
			})
		}
	}
}

// TestRefundBatchOnce: a payment is in one batch at most that is not void or failed, whichever
// way a second batch comes: through the store's check (an *InBatchError naming it), or past it
// (the unique index); once its batch is void, it is owed again and a new batch takes it.
func TestRefundBatchOnce(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	ctx := context.Background()
	payment := storetest.TxHash("owed")
	if _, err := db.DB().Exec(`
		INSERT INTO payments (tx_hash, payment_ref, from_address, value_wei, block_number, block_hash, status, reason_code, reason_args)
		VALUES ($1, $1, '0x00000000000000000000000000000000000b0b01', 5, 1, $1, 'rejected', 'wrong_amount', '{}')`, payment); err != nil {
		t.Fatal(err)
	}
	propose := func(seed string) (store.TreasuryBatch, error) {
		owed, err := db.OwedRefunds(ctx, []string{payment})
		if err != nil {
			return store.TreasuryBatch{}, err
		}
		var b store.TreasuryBatch
		err = db.Audited(ctx, store.AuditEntry{Actor: store.Actor{Who: "test"}, Action: store.ActionBatchPropose,
			Outcome: store.AuditOutcome{Code: store.OutcomeBatchProposed}}, func(t store.Tx, _ *store.AuditEntry) (err error) {
			b, err = t.AddTreasuryBatch(ctx, newBatch(seed, owed[0].ID))
			return err
		})
		return b, err
	}
	first, err := propose("first")
	if err != nil {
		t.Fatal(err)
	}
	var in *store.InBatchError
	if _, err := propose("second"); !errors.As(err, &in) || in.TxHash != payment || in.Batch != first.ID {
		t.Fatalf("a second batch of the payment: %v", err)
	}
	if _, err := db.DB().Exec(`INSERT INTO treasury_batch_payments (batch_id, payment_id, position, to_address, value_wei)
		SELECT $1, payment_id, 2, to_address, value_wei FROM treasury_batch_payments WHERE batch_id = $1`, first.ID); err == nil {
		t.Fatal("the payment went into its batch twice")
	}
	if _, err := db.VoidTreasuryBatches(ctx, first.Safe, store.Uint256{Int: big.NewInt(1)}, 9); err != nil {
		t.Fatal(err)
	}
	if b, err := propose("third"); err != nil || b.Refunds[0].TxHash != payment || b.Status != store.BatchProposed {
		t.Fatalf("after the first batch went void: %+v, %v", b, err)
	}
	if _, err := db.DB().Exec(`UPDATE treasury_batches SET status = 'proposed', block_number = NULL WHERE id = $1`, first.ID); err == nil {
		t.Fatal("the void batch was opened again beside the new one")
	}
}

// newBatch is a batch of payments for the store alone: its SafeTx need not be one.
func newBatch(seed string, payments ...int64) store.NewTreasuryBatch {
	zero := store.Uint256{Int: new(big.Int)}
	none := "0x0000000000000000000000000000000000000000"
	return store.NewTreasuryBatch{TreasuryBatch: store.TreasuryBatch{Kind: store.BatchRefunds, Safe: "0x00000000000000000000000000000000000b0b0f",
		To: "0x00000000000000000000000000000000000b0b0e", Value: zero, Data: []byte{}, SafeTxGas: zero, BaseGas: zero,
		GasPrice: zero, GasToken: none, RefundReceiver: none, Nonce: zero, SafeTxHash: storetest.TxHash(seed),
		Threshold: 2, ProposedBy: "test"}, Payments: payments}
}

// TestBatchKindIsGiven: a batch's kind is what its proposer says, never inferred from what it
// lists; a batch of no kind, or one that settles what another kind pays, is refused and leaves
// nothing behind.
func TestBatchKindIsGiven(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	ctx := context.Background()
	none := newBatch("none", 1)
	none.Kind = ""
	mixed := newBatch("mixed", 1)
	mixed.Commissions = []int64{1}
	commissionsOfPayments := newBatch("commissions", 1)
	commissionsOfPayments.Kind = store.BatchCommissions
	for name, b := range map[string]store.NewTreasuryBatch{"no kind": none, "refunds with commissions": mixed, "commissions with payments": commissionsOfPayments} {
		err := db.Audited(ctx, store.AuditEntry{Actor: store.Actor{Who: "test"}, Action: store.ActionBatchPropose,
			Outcome: store.AuditOutcome{Code: store.OutcomeBatchProposed}}, func(tx store.Tx, _ *store.AuditEntry) error {
			_, err := tx.AddTreasuryBatch(ctx, b)
			return err
		})
		if !errors.Is(err, store.ErrBatchKind) {
			t.Errorf("%s: %v, want ErrBatchKind", name, err)
		}
	}
	var n int
	if err := db.DB().Get(&n, `SELECT count(*) FROM treasury_batches`); err != nil || n != 0 {
		t.Fatalf("%d batches recorded (%v)", n, err)
	}
}
