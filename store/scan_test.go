package store_test

import (
	"context"
	"errors"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"nodeledger/migrations"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// scanned is blocks from..to as a scanner of the given fork reads them.
func scanned(fork string, from, to int64) []store.ScannedBlock {
	var bs []store.ScannedBlock
	for n := from; n <= to; n++ {
		bs = append(bs, store.ScannedBlock{Number: n, Hash: forkHash(fork, n)})
	}
	return bs
}

func forkHash(fork string, n int64) string { return storetest.TxHash(fork + string(rune('a'+n))) }

// hashesKept lists the numbers of the blocks whose hash scanner name keeps.
func hashesKept(t *testing.T, name string, from, to int64) []int64 {
	t.Helper()
	var kept []int64
	for n := from; n <= to; n++ {
		_, err := db.ScannedHash(t.Context(), name, n)
		switch {
		case err == nil:
			kept = append(kept, n)
		case !errors.Is(err, store.ErrNotFound):
			t.Fatal(err)
		}
	}
	return kept
}

// TestScannersKeepTheirOwnHashes: the payments scan and the reconciler read the same blocks, and
// one's rewind or pruning leaves the other's hashes and cursor alone.
func TestScannersKeepTheirOwnHashes(t *testing.T) {
	storetest.Reset(t, db)
	ctx := t.Context()
	for _, name := range []string{"payments", "reconcile"} {
		if err := db.RecordScan(ctx, name, store.Scan{Blocks: scanned("a", 1, 6)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.RewindScan(ctx, "payments", 2, forkHash("a", 2)); err != nil {
		t.Fatal(err)
	}
	if got := hashesKept(t, "payments", 1, 6); !slices.Equal(got, []int64{1, 2}) {
		t.Fatalf("payments keeps %v after its rewind to 2", got)
	}
	if got := hashesKept(t, "reconcile", 1, 6); !slices.Equal(got, []int64{1, 2, 3, 4, 5, 6}) {
		t.Fatalf("the payments scan's rewind took the reconciler's hashes: it keeps %v", got)
	}
	for name, want := range map[string]int64{"payments": 2, "reconcile": 6} {
		if cur, err := db.Cursor(ctx, name); err != nil || cur.Number != want {
			t.Fatalf("%s cursor %+v, %v; want block %d", name, cur, err, want)
		}
	}

	t.Run("pruned behind the cursor, each scanner its own", func(t *testing.T) {
		far := int64(5003)
		if err := db.RecordScan(ctx, "reconcile", store.Scan{Blocks: scanned("a", far, far)}); err != nil {
			t.Fatal(err)
		}
		if got := hashesKept(t, "reconcile", 1, 6); !slices.Equal(got, []int64{3, 4, 5, 6}) {
			t.Fatalf("reconcile keeps %v of blocks 1-6 with its cursor at %d: want only those 5000 behind", got, far)
		}
		if got := hashesKept(t, "payments", 1, 6); len(got) != 2 {
			t.Fatalf("the reconciler's pruning took the payments scan's hashes: it keeps %v", got)
		}
	})
}

// TestMigrationKeepsTheScannersApart: the hashes recorded before migration 0008 are the payments
// scan's, and the reconciler starts with the hash of its cursor's block.
func TestMigrationKeepsTheScannersApart(t *testing.T) {
	ctx := context.Background()
	s, err := store.Open(ctx, storetest.EmptyDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	before := fstest.MapFS{}
	names, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		if name < "0008" {
			body, err := fs.ReadFile(migrations.FS, name)
			if err != nil {
				t.Fatal(err)
			}
			before[name] = &fstest.MapFile{Data: body}
		}
	}
	if _, err := s.Migrate(ctx, before); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DB().Exec(`INSERT INTO scanned_blocks (number, hash) VALUES (1, $1), (2, $2)`,
		forkHash("a", 1), forkHash("a", 2)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DB().Exec(`INSERT INTO chain_cursors (name, block_number, block_hash)
		VALUES ('payments', 2, $1), ('reconcile', 2, $1)`, forkHash("a", 2)); err != nil {
		t.Fatal(err)
	}
	applied, err := s.Migrate(ctx, migrations.FS)
	if err != nil || len(applied) == 0 || !strings.HasPrefix(applied[0], "0008") {
		t.Fatalf("applied %v, %v", applied, err)
	}
	for _, c := range []struct {
		name   string
		number int64
		found  bool
	}{{"payments", 1, true}, {"payments", 2, true}, {"reconcile", 1, false}, {"reconcile", 2, true}} {
		h, err := s.ScannedHash(ctx, c.name, c.number)
		if c.found != (err == nil) || (err == nil && h != forkHash("a", c.number)) {
			t.Fatalf("%s's hash of block %d: %q, %v", c.name, c.number, h, err)
		}
	}
}
