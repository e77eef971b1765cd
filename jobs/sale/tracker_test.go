package sale

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"nodeledger/jobs/memo"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// TestTrackerKeepsWhatTheLedgerAnnounces follows a tracker's rows through the ledger's
// announcements. To tell a kept answer from a read one, the test changes the ledger silently
// (its announcing trigger disabled), as nothing in the service may: a silent change shows only
// where the rows were read again. Without Follow, every poll reads the ledger; following, a
// payment minting or seen at the head is kept until a change to it is announced, then read
// again; a rejected one (a refund batch may hold it) is read at every poll; and a lost
// connection drops everything kept.
func TestTrackerKeepsWhatTheLedgerAnnounces(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	head := memo.New(time.Hour, 0, func(context.Context) (uint64, error) { return 100, nil })
	tr := NewTracker(New(db, nil, 0, 0, 0, WalletCodes{}, nil, slog.New(slog.DiscardHandler)), db, nil,
		"0x"+strings.Repeat("ee", 20), 12, head, nil, time.Now)
	ctx := t.Context()

	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.DB().Exec(q, args...); err != nil {
			t.Fatal(err)
		}
	}
	// silently runs q, an update of table, with the trigger that announces its updates off.
	silently := func(table, q string, args ...any) {
		t.Helper()
		exec(`ALTER TABLE ` + table + ` DISABLE TRIGGER ` + table + `_changed`)
		exec(q, args...)
		exec(`ALTER TABLE ` + table + ` ENABLE TRIGGER ` + table + `_changed`)
	}
	block := func(hash string) int64 {
		t.Helper()
		doc, err := tr.Known(ctx, hash)
		if err != nil {
			t.Fatal(err)
		}
		return doc.BlockNumber
	}
	// until waits for shown to say the tracker shows what it waits for.
	until := func(what string, shown func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !shown(); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s: not shown in 10 s", what)
			}
		}
	}
	// shows waits for the tracker to show hash in block want.
	shows := func(what, hash string, want int64) {
		t.Helper()
		until(what, func() bool { return block(hash) == want })
	}
	owner := "0x" + strings.Repeat("ab", 20)
	paid, atHead := storetest.TxHash("minting"), storetest.TxHash("at the head")
	exec(`INSERT INTO payments (tx_hash, payment_ref, from_address, value_wei, block_number, block_hash)
		VALUES ($1, $1, $2, 1, 1, $1)`, paid, owner)
	exec(`INSERT INTO head_payments (tx_hash, call_index, from_address, value_wei, amount, block_number, block_hash)
		VALUES ($1, 0, $2, 1, 1, 95, $1)`, atHead, owner)

	if block(paid) != 1 {
		t.Fatal("the payment is not shown")
	}
	silently("payments", `UPDATE payments SET block_number = 2 WHERE tx_hash = $1`, paid)
	if got := block(paid); got != 2 {
		t.Fatalf("not following, a poll showed block %d, want 2: it did not read the ledger", got)
	}

	follow, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); tr.Follow(follow, slog.New(slog.DiscardHandler)) }()
	t.Cleanup(func() { stop(); <-done })
	// Once the announcements are heard, a poll keeps what it read: a silent change stays unseen.
	for n, deadline := int64(3), time.Now().Add(10*time.Second); ; n++ {
		silently("payments", `UPDATE payments SET block_number = $2 WHERE tx_hash = $1`, paid, n)
		if block(paid) != n {
			break // an earlier poll's read was kept
		}
		if time.Now().After(deadline) {
			t.Fatal("following for 10 s, the tracker still reads the ledger at every poll")
		}
		time.Sleep(20 * time.Millisecond)
	}
	kept := block(paid)
	for range 3 {
		if got := block(paid); got != kept {
			t.Fatalf("a kept payment showed block %d, then %d, with no change announced", kept, got)
		}
	}
	exec(`UPDATE payments SET block_number = 50 WHERE tx_hash = $1`, paid)
	shows("a change announced", paid, 50)

	if got := block(atHead); got != 95 {
		t.Fatalf("the payment at the head shows block %d, want 95", got)
	}
	silently("head_payments", `UPDATE head_payments SET block_number = 96 WHERE tx_hash = $1`, atHead)
	if got := block(atHead); got != 95 {
		t.Fatalf("a payment at the head was read again (block %d) with no change announced", got)
	}
	exec(`UPDATE head_payments SET block_number = 97 WHERE tx_hash = $1`, atHead)
	shows("a change at the head announced", atHead, 97)

	exec(`UPDATE payments SET status = 'rejected', reason_code = 'wrong_amount', reason_args = '{}' WHERE tx_hash = $1`, paid)
	until("the payment's rejection", func() bool {
		doc, err := tr.Known(ctx, paid)
		if err != nil {
			t.Fatal(err)
		}
		return doc.Status == store.BuyerRejected
	})
	silently("payments", `UPDATE payments SET block_number = 51 WHERE tx_hash = $1`, paid)
	if got := block(paid); got != 51 {
		t.Fatalf("a rejected payment showed block %d, want 51: it was kept, and its refund's progress is not announced", got)
	}

	// A lost connection: what was kept before is dropped, and kept again only once heard.
	silently("head_payments", `UPDATE head_payments SET block_number = 98 WHERE tx_hash = $1`, atHead)
	if got := block(atHead); got != 97 {
		t.Fatalf("block %d shown, want the kept 97", got)
	}
	storetest.EndAnnouncements(t, db)
	shows("after the announcements' connection was lost", atHead, 98)
}
