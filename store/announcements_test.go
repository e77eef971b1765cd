package store_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"nodeledger/store"
	"nodeledger/store/storetest"
)

// heardLog follows db's payment announcements for the test.
type heardLog struct {
	t     *testing.T
	heard chan store.PaymentsHeard
}

func followPayments(t *testing.T, db *store.Store) *heardLog {
	ctx, cancel := context.WithCancel(context.Background())
	l := &heardLog{t: t, heard: make(chan store.PaymentsHeard, 1000)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		db.FollowPayments(ctx, func(h store.PaymentsHeard) { l.heard <- h })
	}()
	t.Cleanup(func() { cancel(); <-done })
	return l
}

// next is the next announcement, within wait.
func (l *heardLog) next(wait time.Duration, what string) store.PaymentsHeard {
	l.t.Helper()
	select {
	case h := <-l.heard:
		return h
	case <-time.After(wait):
		l.t.Fatalf("%s: nothing heard in %v", what, wait)
		return store.PaymentsHeard{}
	}
}

// live waits for the announcements to be heard (All and Live), skipping the losses before.
func (l *heardLog) live(wait time.Duration, what string) {
	l.t.Helper()
	deadline := time.Now().Add(wait)
	for {
		if h := l.next(time.Until(deadline), what); h.All && h.Live {
			return
		} else if !h.All {
			l.t.Fatalf("%s: heard %v before hearing again", what, h.Changed)
		}
	}
}

// changed collects the hashes announced until it has want's count, and checks they are want's.
func (l *heardLog) changed(what string, want ...string) {
	l.t.Helper()
	var got []string
	for len(got) < len(want) {
		h := l.next(5*time.Second, what)
		if h.All {
			l.t.Fatalf("%s: heard All (live %v, err %v), want %d hashes", what, h.Live, h.Err, len(want))
		}
		if len(h.Changed) > 100 {
			l.t.Errorf("%s: %d hashes in one announcement, more than a payload holds", what, len(h.Changed))
		}
		got = append(got, h.Changed...)
	}
	slices.Sort(got)
	want = slices.Sorted(slices.Values(want))
	if !slices.Equal(got, want) {
		l.t.Fatalf("%s: heard %d hashes, want %d (first heard %q)", what, len(got), len(want), got[0])
	}
}

// TestPaymentsAnnounced changes, one statement at a time, every table a tracker's rows are read
// from, and checks that each change that moves what a tracker shows is announced with its
// payment's hash at commit, and that nothing else is: a node's credits, a rolled back change.
func TestPaymentsAnnounced(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	storetest.Tier(t, db, 1, "Standard", "1", true)
	l := followPayments(t, db)
	if h := l.next(5*time.Second, "start"); !h.All || h.Live {
		t.Fatalf("first heard %+v, want All and not Live: nothing is heard before the connection listens", h)
	}
	l.live(10*time.Second, "start")

	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.DB().Exec(q, args...); err != nil {
			t.Fatal(err)
		}
	}
	paid, atHead := storetest.TxHash("announced"), storetest.TxHash("at the head")
	owner := "0x" + strings.Repeat("ab", 20)
	exec(`INSERT INTO payments (tx_hash, payment_ref, from_address, value_wei, block_number, block_hash)
		VALUES ($1, $1, $2, 1, 1, $1)`, paid, owner)
	l.changed("payment recorded", paid)
	exec(`UPDATE payments SET updated_at = now() WHERE tx_hash = $1`, paid)
	l.changed("payment changed", paid)
	exec(`INSERT INTO nodes (id, tier, owner, mint_tx, payment_id) SELECT 7, 1, $2, $3, id FROM payments WHERE tx_hash = $1`, paid, owner, paid)
	l.changed("its node minted", paid)
	exec(`UPDATE nodes SET balance_wei = balance_wei + 1, cumulative_wei = cumulative_wei + 1`)
	exec(`UPDATE nodes SET mint_tx = $1`, storetest.TxHash("another mint"))
	l.changed("its node's mint transaction (its credits before it: not announced)", paid)
	exec(`INSERT INTO payment_referrals (payment_id, code, discount, owner, commission_bps)
		SELECT id, 'SALE', 1, $2, 100 FROM payments WHERE tx_hash = $1`, paid, owner)
	l.changed("its referral code", paid)

	tx, err := db.DB().Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`UPDATE payments SET updated_at = now()`); err != nil {
		t.Fatal(err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	exec(`INSERT INTO head_payments (tx_hash, call_index, from_address, value_wei, amount, block_number, block_hash)
		VALUES ($1, 0, $2, 1, 1, 5, $1)`, atHead, owner)
	l.changed("seen at the head (a change rolled back before it: not announced)", atHead)
	exec(`DELETE FROM head_payments WHERE tx_hash = $1`, atHead)
	l.changed("forgotten at the head", atHead)

	var many []string
	for i := range 250 {
		many = append(many, storetest.TxHash(fmt.Sprintf("many-%d", i)))
	}
	exec(`INSERT INTO head_payments (tx_hash, call_index, from_address, value_wei, amount, block_number, block_hash)
		SELECT h, 0, $2, 1, 1, 6, h FROM unnest($1::text[]) h`, "{"+strings.Join(many, ",")+"}", owner)
	l.changed("250 seen at the head in one statement", many...)

	exec(`INSERT INTO tokens (address, symbol, decimals) VALUES ($1, 'USDC', 6)`, "0x"+strings.Repeat("cd", 20))
	if h := l.next(5*time.Second, "a token listed"); !h.All || !h.Live {
		t.Fatalf("a token listed: heard %+v, want All while Live", h)
	}
	exec(`DELETE FROM payment_referrals`)
	l.changed("its referral code removed", paid)
}

// TestPaymentsAnnouncedAfterACut cuts the announcements' connection twice, once as the server
// ends it and once as a dead path does (open, silent), and checks that each time the loss is
// told before anything else (so that what was kept is dropped), that the listener connects again
// by itself, and that a change after that is heard.
func TestPaymentsAnnouncedAfterACut(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	proxy, through := storetest.ProxyURL(t, storetest.URL(t, db))
	viaProxy, err := storetest.Open(t.Context(), through)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { viaProxy.Close() })
	l := followPayments(t, viaProxy)
	l.live(10*time.Second, "start")

	paid := storetest.TxHash("after the cut")
	record := func(n int) {
		t.Helper()
		if _, err := db.DB().Exec(`INSERT INTO head_payments (tx_hash, call_index, from_address, value_wei, amount, block_number, block_hash)
			VALUES ($1, $2, $3, 1, 1, 5, $1)`, paid, n, "0x"+strings.Repeat("ab", 20)); err != nil {
			t.Fatal(err)
		}
	}

	// The server ends the connection (an administrator, a restart).
	storetest.EndAnnouncements(t, db)
	if h := l.next(10*time.Second, "connection ended"); !h.All || h.Live || h.Err == nil {
		t.Fatalf("connection ended: heard %+v, want All, not Live, with why", h)
	}
	l.live(10*time.Second, "connected again")
	record(0)
	l.changed("a change once connected again", paid)

	// The path dies without closing: only the ping finds it.
	dead := storetest.Faults[1]
	proxy.Inject(dead)
	lost := time.Now()
	if h := l.next(20*time.Second, "dead path"); !h.All || h.Live {
		t.Fatalf("dead path: heard %+v, want All and not Live", h)
	}
	t.Logf("a dead path told in %v", time.Since(lost).Round(100*time.Millisecond))
	proxy.Heal(dead)
	l.live(30*time.Second, "path back")
	record(1)
	l.changed("a change once the path is back", paid)
}
