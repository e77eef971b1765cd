package store_test

import (
	"errors"
	"testing"

	"nodeledger/store"
	"nodeledger/store/storetest"
)

// TestDigestsChain: digests are appended only onto the last one stored (a second writer holding
// an older one is refused), and a stored digest that does not chain from the one before it (a
// row of ledger_digests replaced by hand) is found at its block like a changed ledger row.
func TestDigestsChain(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	ctx := t.Context()
	const h = "0x00000000000000000000000000000000000000000000000000000000000000aa"
	genesis := make([]byte, 32)
	first := store.Digests(genesis, []store.LedgerEvent{{Block: 3, Line: "x"}}, map[int64]string{3: h})
	if err := db.AppendDigests(ctx, first, 4, h); err != nil {
		t.Fatal(err)
	}
	stale := store.Digests(genesis, []store.LedgerEvent{{Block: 7, Line: "y"}}, map[int64]string{7: h})
	if err := db.AppendDigests(ctx, stale, 8, h); !errors.Is(err, store.ErrDigestsMoved) {
		t.Fatalf("an append from the genesis onto a digest: %v", err)
	}
	next := store.Digests(first[0].Digest, []store.LedgerEvent{{Block: 7, Line: "y"}}, map[int64]string{7: h})
	if err := db.AppendDigests(ctx, next, 8, h); err != nil {
		t.Fatal(err)
	}

	// The ledger holds no rows for these lines: every stored block differs from what the rows
	// say now, the first one first.
	if n, m, err := db.CheckDigests(ctx, 0, 100); err != nil || m == nil || m.Block != 3 || n != 0 {
		t.Fatalf("checked %d, mismatch %+v, %v", n, m, err)
	}
	if n, m, err := db.CheckDigests(ctx, 5, 100); err != nil || m == nil || m.Block != 7 || n != 0 {
		t.Fatalf("from 5: checked %d, mismatch %+v, %v", n, m, err)
	}
	// Nothing digested past the cursor is checked.
	if n, m, err := db.CheckDigests(ctx, 9, 100); err != nil || m != nil || n != 0 {
		t.Fatalf("past the cursor: checked %d, mismatch %+v, %v", n, m, err)
	}
}
