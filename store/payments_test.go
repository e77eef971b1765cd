package store_test

import (
	"fmt"
	"math/big"
	"testing"

	"nodeledger/store"
	"nodeledger/store/storetest"
)

// TestRefunds: a transfer out of the payments wallet refunds the oldest rejected payment of its
// recipient of exactly its value made before it, one payment at most, and a reorg that takes the
// transfer away makes the payment rejected again.
func TestRefunds(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	ctx := t.Context()
	const buyer, other = "0x00000000000000000000000000000000000b0b01", "0x00000000000000000000000000000000000b0b02"
	wei := func(n int64) *big.Int { return big.NewInt(n) }
	block := func(n int64) store.ScannedBlock {
		return store.ScannedBlock{Number: n, Hash: storetest.TxHash(string(rune('a' + n)))}
	}
	pay := func(name, from string, value, number int64) store.NewPayment {
		h := storetest.TxHash(name)
		return store.NewPayment{TxHash: h, PaymentRef: h, From: from, ValueWei: wei(value), BlockNumber: number, BlockHash: block(number).Hash}
	}
	out := func(name, to string, value, number int64) store.OutgoingTransfer {
		return store.OutgoingTransfer{TxHash: storetest.TxHash(name), To: to, ValueWei: wei(value), BlockNumber: number}
	}
	// Blocks 1-2: three payments, all rejected below. Block 3: a refund sent before the payment
	// of block 4 it would match, which it must not refund.
	if err := db.RecordScan(ctx, "payments", store.Scan{
		Blocks:   []store.ScannedBlock{block(1), block(2), block(3), block(4)},
		Payments: []store.NewPayment{pay("p1", buyer, 7, 1), pay("p2", buyer, 7, 2), pay("p3", other, 7, 2), pay("p4", other, 9, 4)},
		Outgoing: []store.OutgoingTransfer{out("early", other, 9, 3)},
	}); err != nil {
		t.Fatal(err)
	}
	pending, err := db.PaymentsByStatus(ctx, "pending", 0)
	if err != nil || len(pending) != 4 {
		t.Fatalf("%d pending, %v", len(pending), err)
	}
	if n, err := db.MatchRefunds(ctx); err != nil || n != 0 {
		t.Fatalf("refunds of payments not rejected yet: %d, %v", n, err)
	}
	for _, p := range pending {
		if err := db.RejectPayment(ctx, p.ID, store.PaymentPending, "minting_paused", struct{}{}, nil); err != nil {
			t.Fatal(err)
		}
	}
	statuses := func() map[string]string {
		t.Helper()
		got := map[string]string{}
		for _, name := range []string{"p1", "p2", "p3", "p4"} {
			p, err := db.PaymentByTx(ctx, storetest.TxHash(name))
			if err != nil {
				t.Fatal(err)
			}
			got[name] = string(p.Status)
			if (p.Status == "refunded") != (p.RefundTxHash != nil) {
				t.Fatalf("%s: %+v", name, p)
			}
		}
		return got
	}
	if n, err := db.MatchRefunds(ctx); err != nil || n != 0 {
		t.Fatalf("a refund sent before its payment matched: %d, %v", n, err)
	}

	// Block 5: one transfer of 7 to the buyer (refunds p1, the oldest), one of 8 (matches nothing).
	if err := db.RecordScan(ctx, "payments", store.Scan{
		Blocks:   []store.ScannedBlock{block(5)},
		Outgoing: []store.OutgoingTransfer{out("r1", buyer, 7, 5), out("sweep", buyer, 8, 5)},
	}); err != nil {
		t.Fatal(err)
	}
	for range 2 { // the second run finds nothing more to do
		if _, err := db.MatchRefunds(ctx); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]string{"p1": "refunded", "p2": "rejected", "p3": "rejected", "p4": "rejected"}
	if got := statuses(); fmt.Sprint(got) != fmt.Sprint(want) { // maps print in key order
		t.Fatalf("statuses %v, want %v", got, want)
	}
	if p, _ := db.PaymentByTx(ctx, storetest.TxHash("p1")); *p.RefundTxHash != storetest.TxHash("r1") {
		t.Fatalf("p1 refunded by %s", *p.RefundTxHash)
	}

	t.Run("a reorg that takes the refund away", func(t *testing.T) {
		if _, err := db.RewindScan(ctx, "payments", 4, block(4).Hash); err != nil {
			t.Fatal(err)
		}
		if got := statuses(); got["p1"] != "rejected" {
			t.Fatalf("statuses %v", got)
		}
		var left int
		if err := db.DB().Get(&left, `SELECT count(*) FROM outgoing_transfers WHERE block_number > 4`); err != nil || left != 0 {
			t.Fatalf("%d transfers above the fork left, %v", left, err)
		}
	})
}

// TestUnattributedInflows: recorded with their scan, listed newest first and counted, kept once
// when their blocks are recorded again, and forgotten with their blocks by a rewind.
func TestUnattributedInflows(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	ctx := t.Context()
	block := func(n int64) store.ScannedBlock {
		return store.ScannedBlock{Number: n, Hash: storetest.TxHash(string(rune('a' + n)))}
	}
	inflow := func(n int64, wei int64) store.UnattributedInflow {
		return store.UnattributedInflow{BlockNumber: n, BlockHash: block(n).Hash, AmountWei: store.Uint256{Int: big.NewInt(wei)}}
	}
	scan := store.Scan{
		Blocks:       []store.ScannedBlock{block(3), block(4), block(5)},
		Unattributed: []store.UnattributedInflow{inflow(3, 7), inflow(5, 9)},
	}
	for range 2 { // a scan recorded again changes nothing
		if err := db.RecordScan(ctx, "payments", scan); err != nil {
			t.Fatal(err)
		}
	}
	in, err := db.UnattributedInflows(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(in) != fmt.Sprint([]store.UnattributedInflow{inflow(5, 9), inflow(3, 7)}) {
		t.Fatalf("inflows %v", in)
	}
	if n, err := db.UnattributedCount(ctx); err != nil || n != 2 {
		t.Fatalf("count %d, %v", n, err)
	}
	if _, err := db.RewindScan(ctx, "payments", 4, block(4).Hash); err != nil {
		t.Fatal(err)
	}
	if in, err := db.UnattributedInflows(ctx, 10); err != nil || len(in) != 1 || in[0].BlockNumber != 3 {
		t.Fatalf("after a rewind to block 4: %v, %v", in, err)
	}
}
