package store_test

import (
	"fmt"
	"testing"

	"nodeledger/store"
	"nodeledger/store/storetest"
)

// TestPaymentMoves holds the trigger payments_move to store's table of moves, pair by pair: each
// allowed move goes through, every other is refused by the database in the transaction that tries
// it.
func TestPaymentMoves(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	statuses := []store.PaymentStatus{store.PaymentPending, store.PaymentMinting, store.PaymentMinted,
		store.PaymentHeld, store.PaymentRejected, store.PaymentRefunded}
	for i, from := range statuses {
		for j, to := range statuses {
			t.Run(fmt.Sprint(from, " to ", to), func(t *testing.T) {
				tx, err := db.DB().Beginx()
				if err != nil {
					t.Fatal(err)
				}
				defer tx.Rollback()
				h := storetest.TxHash(fmt.Sprint("move", i, j))
				// The columns each status asks for (payments' CHECKs): a reason when held,
				// rejected or refunded, a refund transaction when refunded.
				withReason := func(s store.PaymentStatus) bool {
					return s == store.PaymentHeld || s == store.PaymentRejected || s == store.PaymentRefunded
				}
				reason := func(s store.PaymentStatus) any {
					if withReason(s) {
						return "wrong_amount"
					}
					return nil
				}
				args := func(s store.PaymentStatus) any {
					if withReason(s) {
						return "{}"
					}
					return nil
				}
				refund := func(s store.PaymentStatus) any {
					if s == store.PaymentRefunded {
						return h
					}
					return nil
				}
				if _, err := tx.Exec(`INSERT INTO outgoing_transfers (tx_hash, to_address, value_wei, block_number)
					VALUES ($1, '0x00000000000000000000000000000000000b0b01', 1, 2)`, h); err != nil {
					t.Fatal(err)
				}
				var id int64
				if err := tx.Get(&id, `
					INSERT INTO payments (tx_hash, payment_ref, from_address, value_wei, block_number, block_hash, status,
						reason_code, reason_args, refund_tx_hash)
					VALUES ($1, $1, '0x00000000000000000000000000000000000b0b01', 1, 1, $1, $2, $3, $4, $5) RETURNING id`,
					h, from, reason(from), args(from), refund(from)); err != nil {
					t.Fatal(err)
				}
				_, err = tx.Exec(`UPDATE payments SET status = $2, reason_code = $3, reason_args = $4, refund_tx_hash = $5 WHERE id = $1`,
					id, to, reason(to), args(to), refund(to))
				if want := from.CanBecome(to); (err == nil) != want {
					t.Fatalf("the database says %v; store's table says allowed: %v", err, want)
				}
			})
		}
	}
}
