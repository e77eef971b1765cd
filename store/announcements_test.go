package store_test

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"nodeledger/store"
	"nodeledger/store/storetest"
)

// heardLog follows db's announcements of a topic for the test.
type heardLog struct {
	t     *testing.T
	heard chan store.Heard
}

func follow(t *testing.T, db *store.Store, topic store.Topic) *heardLog {
	ctx, cancel := context.WithCancel(context.Background())
	l := &heardLog{t: t, heard: make(chan store.Heard, 1000)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		db.Follow(ctx, topic, func(h store.Heard) { l.heard <- h })
	}()
	t.Cleanup(func() { cancel(); <-done })
	return l
}

// next is the next announcement, within wait.
func (l *heardLog) next(wait time.Duration, what string) store.Heard {
	l.t.Helper()
	select {
	case h := <-l.heard:
		return h
	case <-time.After(wait):
		l.t.Fatalf("%s: nothing heard in %v", what, wait)
		return store.Heard{}
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

// changed collects the keys announced until it has want's count, and checks they are want's.
func (l *heardLog) changed(what string, want ...string) {
	l.t.Helper()
	var got []string
	for len(got) < len(want) {
		h := l.next(5*time.Second, what)
		if h.All {
			l.t.Fatalf("%s: heard All (live %v, err %v), want %d keys", what, h.Live, h.Err, len(want))
		}
		if len(h.Changed) > 100 {
			l.t.Errorf("%s: %d keys in one announcement, more than a payload holds", what, len(h.Changed))
		}
		got = append(got, h.Changed...)
	}
	slices.Sort(got)
	want = slices.Sorted(slices.Values(want))
	if !slices.Equal(got, want) {
		l.t.Fatalf("%s: heard %d keys, want %d (first heard %q)", what, len(got), len(want), got[0])
	}
}

// TestPaymentsAnnounced changes, one statement at a time, every table a tracker's rows are read
// from, and checks that each change that moves what a tracker shows is announced with its
// payment's hash at commit, and that nothing else is: a node's credits, a rolled back change.
func TestPaymentsAnnounced(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	storetest.Tier(t, db, 1, "Standard", "1", true)
	l := follow(t, db, store.Payments)
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
	l := follow(t, viaProxy, store.Payments)
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

// TestWalletsAnnounced changes, one statement at a time, every column of a node that
// GET /api/nodes/{address} shows, and checks that each is announced with the node's wallet (both
// wallets when it changes hands), many a statement in announcements a payload holds, and that a
// change of what the answer does not show is not.
func TestWalletsAnnounced(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	storetest.Tier(t, db, 2, "Large", "2", true)
	l := follow(t, db, store.Wallets)
	l.live(10*time.Second, "start")
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.DB().Exec(q, args...); err != nil {
			t.Fatal(err)
		}
	}
	alice, bob := "0x"+strings.Repeat("a1", 20), "0x"+strings.Repeat("b2", 20)
	storetest.Node(t, db, "1", alice, time.Now())
	l.changed("a node minted", alice)

	// Each column the answer shows, changed alone; the test knows no other.
	changes := map[string]string{
		"id":             `id = id + 100`,
		"tier":           `tier = 2`,
		"balance_wei":    `balance_wei = balance_wei + 1`,
		"cumulative_wei": `cumulative_wei = cumulative_wei + 1`,
		"withdrawn_wei":  `withdrawn_wei = withdrawn_wei + 1`,
		"mint_tx":        `mint_tx = '` + storetest.TxHash("minted again") + `'`,
		"status":         `status = 'unconfirmed'`,
		"created_at":     `created_at = created_at + interval '1 second'`,
	}
	shown := regexp.MustCompile(`\bn\.(\w+)`).FindAllStringSubmatch(store.NodeDocumentSQL, -1)
	if len(shown) == 0 {
		t.Fatal("no column found in the node's document")
	}
	for _, col := range shown {
		set, ok := changes[col[1]]
		if !ok {
			t.Fatalf("the answer shows nodes.%s: change it here, and announce its changes (migration 0060)", col[1])
		}
		exec(`UPDATE nodes SET `+set+` WHERE owner = $1`, alice)
		l.changed("nodes."+col[1]+" changed", alice)
	}
	exec(`UPDATE nodes SET owner = $1`, bob)
	l.changed("the node changed hands", alice, bob)

	// Not shown: nothing is announced, so the next thing heard is the next change's.
	exec(`UPDATE nodes SET reconciled_block = 9, block_number = 9, next_credit_at = now(), price_wei = 5`)
	var many []string
	for i := range 250 {
		many = append(many, fmt.Sprintf("0x%040x", i+1))
	}
	exec(`INSERT INTO nodes (id, tier, owner, mint_tx) SELECT 1000 + i, 2, o, $2 FROM unnest($1::text[]) WITH ORDINALITY AS m (o, i)`,
		"{"+strings.Join(many, ",")+"}", storetest.TxHash("many"))
	l.changed("250 wallets' nodes minted in one statement (after a change the answer does not show)", many...)
	exec(`UPDATE nodes SET balance_wei = balance_wei + 1, cumulative_wei = cumulative_wei + 1`)
	l.changed("a round credits every node", append(many, bob)...)
	exec(`DELETE FROM nodes WHERE owner = $1`, bob)
	l.changed("a node removed", bob)
}
