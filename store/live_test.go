package store_test

import (
	"fmt"
	"testing"
	"time"

	"nodeledger/store"
	"nodeledger/store/storetest"
)

// TestSaleLiveWindow checks the edges of the live view's hour: the first instant of its first
// minute counts, the one before it does not, and a block stamped after now counts in the minute
// under way; a payment recorded without a block time waits in the queue but is on no minute.
func TestSaleLiveWindow(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	ctx := t.Context()
	now := time.Date(2026, 11, 24, 12, 30, 20, 0, time.UTC)
	from := time.Date(2026, 11, 24, 11, 31, 0, 0, time.UTC)
	for i, at := range []time.Time{from, from.Add(-time.Nanosecond * 1000), from.Add(59 * time.Second), now, now.Add(10 * time.Minute)} {
		hash := storetest.TxHash(fmt.Sprintf("window-%d", i))
		if _, err := db.DB().Exec(`INSERT INTO payments (tx_hash, payment_ref, from_address, value_wei, block_number, block_hash, block_time)
			VALUES ($1, $1, $2, 1, $3, $1, $4)`, hash, "0x"+fmt.Sprintf("%040d", i), i+1, at); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.DB().Exec(`INSERT INTO payments (tx_hash, payment_ref, from_address, value_wei, block_number, block_hash, created_at)
		VALUES ($1, $1, $2, 1, 9, $1, $3)`, storetest.TxHash("no-block-time"), "0x"+fmt.Sprintf("%040d", 9), now.Add(-2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	l, err := db.SaleLive(ctx, now)
	if err != nil {
		t.Fatal(err)
	}
	if !l.From.Equal(from) || len(l.PerMinute) != store.LiveMinutes {
		t.Fatalf("from %v, %d minutes", l.From, len(l.PerMinute))
	}
	if l.PerMinute[0] != 2 || l.PerMinute[store.LiveMinutes-1] != 2 {
		t.Errorf("first minute %d (want 2: its first instant and its last second), minute under way %d (want 2: now and later)",
			l.PerMinute[0], l.PerMinute[store.LiveMinutes-1])
	}
	sum := 0
	for _, n := range l.PerMinute {
		sum += n
	}
	if sum != 4 || l.Pending != 6 || l.OldestWaitingAt == nil || !l.OldestWaitingAt.Equal(now.Add(-2*time.Hour)) {
		t.Errorf("%d payments in the hour (want 4), %d pending (want 6), oldest %v", sum, l.Pending, l.OldestWaitingAt)
	}
}
