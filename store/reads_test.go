package store_test

import (
	"testing"
	"time"

	"nodeledger/store"
	"nodeledger/store/storetest"
)

// TestReadsFollowTheStandby: the public reads go to the standby while it keeps within the lag
// allowed, also while the primary writes nothing; to the primary while the standby's replay is
// paused behind a write, and while the standby is down; and back once it has replayed.
func TestReadsFollowTheStandby(t *testing.T) {
	t.Parallel()
	pair := storetest.Pair(t)
	ctx := t.Context()
	primary, err := store.Open(ctx, pair.Primary.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer primary.Close()
	standby, err := store.OpenStandby(pair.Standby.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer standby.Close()
	const maxLag = time.Second
	reads := store.NewReads(primary, standby, maxLag)
	go reads.Follow(ctx, 50*time.Millisecond)
	readsFrom := func(want *store.Store, name, why string) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); reads.Store() != want; time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				lag, ok := reads.Lag()
				t.Fatalf("%s: the reads do not go to the %s (lag %v, measured %v)", why, name, lag, ok)
			}
		}
	}
	readsFrom(standby, "standby", "a standby in step")
	time.Sleep(3 * maxLag) // the primary writes nothing: the standby is no further behind
	if reads.Store() != standby {
		lag, _ := reads.Lag()
		t.Fatalf("an idle primary's standby is taken to lag %v", lag)
	}

	storetest.PauseReplay(t, standby)
	if _, err := primary.DB().ExecContext(ctx, `CREATE TABLE written (id int)`); err != nil {
		t.Fatal(err)
	}
	readsFrom(primary, "primary", "the standby's replay paused behind a write")
	var there bool
	if err := standby.DB().GetContext(ctx, &there, `SELECT to_regclass('written') IS NOT NULL`); err != nil || there {
		t.Fatalf("the standby has the write it has not replayed: %v, %v", there, err)
	}
	if _, err := standby.DB().ExecContext(ctx, `SELECT pg_wal_replay_resume()`); err != nil {
		t.Fatal(err)
	}
	readsFrom(standby, "standby", "the standby replaying again")

	if err := pair.Standby.Stop(); err != nil {
		t.Fatal(err)
	}
	readsFrom(primary, "primary", "the standby down")
	if _, ok := reads.Lag(); ok {
		t.Fatal("a standby that is down has a lag")
	}
}
