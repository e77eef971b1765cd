package pgdev_test

import (
	"testing"
	"time"

	"nodeledger/store"
	"nodeledger/store/storetest"
)

// TestHA: a formation's primary, kill -9ed, is replaced by its standby within the monitor's
// timeouts, with every write it acknowledged; the old primary, started again, rejoins as the
// new primary's synchronous standby, and a second kill fails over back to it.
func TestHA(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	began := time.Now()
	h := storetest.HA(t)
	t.Logf("formation up in %v", time.Since(began).Round(time.Second))
	// As the service opens it: lib/pq alone misreads a URL that names several servers.
	ledger, err := store.Open(ctx, h.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer ledger.Close()
	db := ledger.DB()
	if _, err := db.ExecContext(ctx, `CREATE TABLE acked (n int)`); err != nil {
		t.Fatal(err)
	}
	// A connection the dead primary held fails once; its replacement finds the new one.
	twice := func(f func() error) error {
		if err := f(); err == nil {
			return nil
		}
		return f()
	}
	write := func(n int) {
		t.Helper()
		if err := twice(func() error { _, err := db.ExecContext(ctx, `INSERT INTO acked VALUES ($1)`, n); return err }); err != nil {
			t.Fatalf("write %d: %v", n, err)
		}
	}
	acked := func() int {
		t.Helper()
		var n int
		if err := twice(func() error { return db.QueryRowContext(ctx, `SELECT count(*) FROM acked`).Scan(&n) }); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for round := 1; round <= 2; round++ {
		write(round)
		var sync string
		if err := db.QueryRowContext(ctx, `SELECT current_setting('synchronous_standby_names')`).Scan(&sync); err != nil || sync == "" {
			t.Fatalf("round %d: the primary replicates to no synchronous standby (%q, %v)", round, sync, err)
		}
		killedAt := time.Now()
		old, err := h.KillPrimary(ctx)
		if err != nil {
			t.Fatal(err)
		}
		now, err := h.WaitFailover(ctx, old)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("round %d: %s killed, %s takes writes %v later", round, old, now, time.Since(killedAt).Round(time.Second))
		if n := acked(); n != 2*round-1 {
			t.Fatalf("round %d: %d acknowledged writes on the new primary, want %d", round, n, 2*round-1)
		}
		write(10 + round)
		if err := h.Start(ctx, old); err != nil {
			t.Fatal(err)
		}
		t.Logf("round %d: %s back as the standby %v after the kill", round, old, time.Since(killedAt).Round(time.Second))
	}
	if n := acked(); n != 4 {
		t.Fatalf("%d acknowledged writes at the end, want 4", n)
	}
}
