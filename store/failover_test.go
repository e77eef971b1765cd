package store_test

import (
	"context"
	"testing"
	"time"

	"nodeledger/store"
	"nodeledger/store/storetest"
)

// TestCommitOutlivesItsContext: a COMMIT waiting for the synchronous standby is not cut short
// when its context ends. Cut short, PostgreSQL would keep it committed on the primary alone and
// tell the client it committed: a failover then loses a write the service acted on. It returns
// once the standby has it, and the write is there.
func TestCommitOutlivesItsContext(t *testing.T) {
	t.Parallel()
	pair := storetest.Pair(t)
	ctx := t.Context()
	db, err := store.Open(ctx, pair.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	standby := func(name string) {
		t.Helper()
		if _, err := db.DB().ExecContext(ctx, `ALTER SYSTEM SET synchronous_standby_names = '`+name+`'`); err != nil {
			t.Fatal(err)
		}
		if _, err := db.DB().ExecContext(ctx, `SELECT pg_reload_conf()`); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.DB().ExecContext(ctx, `CREATE TABLE acknowledged (id int)`); err != nil {
		t.Fatal(err)
	}
	standby("nobody") // no standby answers for it: a COMMIT waits
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var state string
		if err := db.DB().GetContext(ctx, &state, `SELECT sync_state FROM pg_stat_replication`); err != nil {
			t.Fatal(err)
		}
		if state == "async" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the standby is still %s", state)
		}
	}

	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	tx, err := db.DB().BeginTxx(short, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(short, `INSERT INTO acknowledged VALUES (1)`); err != nil {
		t.Fatal(err)
	}
	committed := make(chan error, 1)
	go func() { committed <- tx.Commit() }()
	select {
	case err := <-committed:
		t.Fatalf("the COMMIT returned while no standby had it, its context over: %v", err)
	case <-time.After(1500 * time.Millisecond):
	}
	standby("standby")
	select {
	case err := <-committed:
		if err != nil {
			t.Fatalf("commit: %v", err)
		}
	case <-time.After(30 * time.Second): // the standby says what it flushed every 10 s when idle
		t.Fatal("the COMMIT did not return once the standby had it")
	}
	var n int
	if err := db.DB().GetContext(ctx, &n, `SELECT count(*) FROM acknowledged`); err != nil || n != 1 {
		t.Fatalf("%d rows, %v", n, err)
	}
}
