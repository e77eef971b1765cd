package store_test

import (
	"context"
	"testing"
	"time"

	"nodeledger/store"
	"nodeledger/store/pgdev"
	"nodeledger/store/storetest"
)

// TestCommitOutlivesItsContext: a COMMIT waiting for the synchronous standby is not cut short
// when its context ends. Cut short, PostgreSQL would keep it committed on the primary alone and
// tell the client it committed: a failover then loses a write the service acted on. It returns
// once the standby has it, and the write is there.
func TestCommitOutlivesItsContext(t *testing.T) {
	t.Parallel()
	_, db := stalledPair(t, "acknowledged")
	ctx := t.Context()

	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	tx, err := db.DB().BeginTxx(short, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(short, `INSERT INTO acknowledged VALUES (1)`); err != nil {
		t.Fatal(err)
	}
	waitsForTheStandby(t, db, "the COMMIT (its context over)", tx.Commit)
	var n int
	if err := db.DB().GetContext(ctx, &n, `SELECT count(*) FROM acknowledged`); err != nil || n != 1 {
		t.Fatalf("%d rows, %v", n, err)
	}
}

// TestRebuildCommitsWaitUntilDurable: a ledger opened for a rebuild commits without waiting for
// the synchronous standby, and Durable waits for all it committed: after it, a failover to the
// standby loses none of it.
func TestRebuildCommitsWaitUntilDurable(t *testing.T) {
	t.Parallel()
	pair, db := stalledPair(t, "rebuilt")
	ctx := t.Context()
	rebuild, err := store.OpenRebuild(ctx, pair.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer rebuild.Close()

	const rows = 100
	written := make(chan error, 1)
	go func() {
		for i := range rows {
			if _, err := rebuild.DB().ExecContext(ctx, `INSERT INTO rebuilt VALUES ($1)`, i); err != nil {
				written <- err
				return
			}
		}
		written <- nil
	}()
	select {
	case err := <-written:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the rebuild's commits wait for a standby")
	}
	waitsForTheStandby(t, db, "Durable", func() error { return rebuild.Durable(ctx) })

	if err := pair.Failover(ctx); err != nil {
		t.Fatal(err)
	}
	promoted, err := store.Open(ctx, pair.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer promoted.Close()
	var n int
	if err := promoted.DB().GetContext(ctx, &n, `SELECT count(*) FROM rebuilt`); err != nil || n != rows {
		t.Fatalf("the promoted standby holds %d of the rebuild's %d rows (%v)", n, rows, err)
	}
}

// stalledPair is a pair whose primary holds table and waits for a synchronous standby that does
// not exist: a COMMIT that waits for one waits until syncStandby names the real one again.
func stalledPair(t *testing.T, table string) (*pgdev.Pair, *store.Store) {
	t.Helper()
	pair := storetest.Pair(t)
	db, err := store.Open(t.Context(), pair.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.DB().ExecContext(t.Context(), `CREATE TABLE `+table+` (id int)`); err != nil {
		t.Fatal(err)
	}
	syncStandby(t, db, "nobody")
	return pair, db
}

// waitsForTheStandby runs wait, on the primary of a stalledPair (db), and fails t unless it is
// still waiting 1.5 s later, then returns, without an error, once the real standby is named again.
func waitsForTheStandby(t *testing.T, db *store.Store, what string, wait func() error) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- wait() }()
	select {
	case err := <-done:
		t.Fatalf("%s returned while no standby had the writes: %v", what, err)
	case <-time.After(1500 * time.Millisecond):
	}
	syncStandby(t, db, "standby")
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	case <-time.After(30 * time.Second): // the standby says what it flushed every 10 s when idle
		t.Fatalf("%s did not return once the standby was back", what)
	}
}

// syncStandby names the standby the primary waits for ("nobody": none that exists, so a COMMIT
// that waits for one waits until it is named again) and returns once the pair's standby streams
// as that makes it: synchronously when it is named, else asynchronously.
func syncStandby(t *testing.T, db *store.Store, name string) {
	t.Helper()
	ctx := t.Context()
	for _, stmt := range []string{`ALTER SYSTEM SET synchronous_standby_names = '` + name + `'`, `SELECT pg_reload_conf()`} {
		if _, err := db.DB().ExecContext(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	want := "async"
	if name == "standby" {
		want = "sync"
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var state string
		if err := db.DB().GetContext(ctx, &state, `SELECT sync_state FROM pg_stat_replication`); err != nil {
			t.Fatal(err)
		}
		if state == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the standby streams %s, not %s", state, want)
		}
	}
}
