package store_test

import (
	"context"
	"errors"
	"io/fs"
	"math/big"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

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

// scannedHash is the hash scanner name keeps of block number; ErrNotFound when it keeps none.
func scannedHash(ctx context.Context, s *store.Store, name string, number int64) (string, error) {
	b, err := s.ScannedBelow(ctx, name, number+1)
	if err == nil && b.Number != number {
		return "", store.ErrNotFound
	}
	return b.Hash, err
}

// hashesKept lists the numbers of the blocks whose hash scanner name keeps.
func hashesKept(t *testing.T, db *store.Store, name string, from, to int64) []int64 {
	t.Helper()
	var kept []int64
	for n := from; n <= to; n++ {
		_, err := scannedHash(t.Context(), db, name, n)
		switch {
		case err == nil:
			kept = append(kept, n)
		case !errors.Is(err, store.ErrNotFound):
			t.Fatal(err)
		}
	}
	return kept
}

// TestScannedBelow: the payments scan keeps, of a quiet range it skipped, the hashes of the block
// before it and of its last block only; ScannedBelow finds the last hash kept below a block, the
// scanner's own, across the range.
func TestScannedBelow(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	ctx := t.Context()
	if err := db.RecordScan(ctx, "payments", store.Scan{Blocks: scanned("a", 1, 3)}); err != nil {
		t.Fatal(err)
	}
	skipped := []store.ScannedBlock{{Number: 3, Hash: forkHash("a", 3)}, {Number: 40, Hash: forkHash("a", 40)}}
	if err := db.RecordScan(ctx, "payments", store.Scan{Blocks: skipped}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.RecordEvents(ctx, "reconcile", store.Events{Blocks: scanned("a", 1, 40)}); err != nil {
		t.Fatal(err)
	}
	if cur, err := db.Cursor(ctx, "payments"); err != nil || cur.Number != 40 || cur.Hash != forkHash("a", 40) {
		t.Fatalf("cursor %+v, %v: want the skipped range's last block", cur, err)
	}
	for _, c := range []struct {
		below, want int64 // want 0: none
	}{{41, 40}, {40, 3}, {39, 3}, {4, 3}, {3, 2}, {1, 0}} {
		b, err := db.ScannedBelow(ctx, "payments", c.below)
		switch {
		case c.want == 0 && errors.Is(err, store.ErrNotFound):
		case err != nil:
			t.Fatalf("below %d: %v", c.below, err)
		case b.Number != c.want || b.Hash != forkHash("a", c.want):
			t.Fatalf("below %d: %+v, want block %d", c.below, b, c.want)
		}
	}
}

// TestScannersKeepTheirOwnHashes: the payments scan and the reconciler read the same blocks, and
// one's rewind or pruning leaves the other's hashes and cursor alone.
func TestScannersKeepTheirOwnHashes(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	ctx := t.Context()
	if err := db.RecordScan(ctx, "payments", store.Scan{Blocks: scanned("a", 1, 6)}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.RecordEvents(ctx, "reconcile", store.Events{Blocks: scanned("a", 1, 6)}); err != nil {
		t.Fatal(err)
	}

	if _, err := db.RewindScan(ctx, "payments", 2, forkHash("a", 2)); err != nil {
		t.Fatal(err)
	}
	if got := hashesKept(t, db, "payments", 1, 6); !slices.Equal(got, []int64{1, 2}) {
		t.Fatalf("payments keeps %v after its rewind to 2", got)
	}
	if got := hashesKept(t, db, "reconcile", 1, 6); !slices.Equal(got, []int64{1, 2, 3, 4, 5, 6}) {
		t.Fatalf("the payments scan's rewind took the reconciler's hashes: it keeps %v", got)
	}

	if _, err := db.RewindEvents(ctx, "reconcile", 4, forkHash("a", 4)); err != nil {
		t.Fatal(err)
	}
	if got := hashesKept(t, db, "reconcile", 1, 6); !slices.Equal(got, []int64{1, 2, 3, 4}) {
		t.Fatalf("reconcile keeps %v after its rewind to 4", got)
	}
	// The payments scan reads the new fork again; the reconciler's rewind leaves that alone.
	if err := db.RecordScan(ctx, "payments", store.Scan{Blocks: scanned("b", 3, 6)}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.RewindEvents(ctx, "reconcile", 3, forkHash("a", 3)); err != nil {
		t.Fatal(err)
	}
	if got := hashesKept(t, db, "payments", 1, 6); !slices.Equal(got, []int64{1, 2, 3, 4, 5, 6}) {
		t.Fatalf("the reconciler's rewind took the payments scan's hashes: it keeps %v", got)
	}
	if h, err := scannedHash(ctx, db, "payments", 5); err != nil || h != forkHash("b", 5) {
		t.Fatalf("payments' hash of block 5: %s, %v", h, err)
	}
	for name, want := range map[string]int64{"payments": 6, "reconcile": 3} {
		if cur, err := db.Cursor(ctx, name); err != nil || cur.Number != want {
			t.Fatalf("%s cursor %+v, %v; want block %d", name, cur, err, want)
		}
	}

	t.Run("pruned behind the cursor, each scanner its own", func(t *testing.T) {
		far := int64(5003)
		if _, err := db.RecordEvents(ctx, "reconcile", store.Events{Blocks: scanned("a", far, far)}); err != nil {
			t.Fatal(err)
		}
		if got := hashesKept(t, db, "reconcile", 1, 6); !slices.Equal(got, []int64{3}) {
			t.Fatalf("reconcile keeps %v of blocks 1-6 with its cursor at %d: want only those 5000 behind", got, far)
		}
		if got := hashesKept(t, db, "payments", 1, 6); len(got) != 6 {
			t.Fatalf("the reconciler's pruning took the payments scan's hashes: it keeps %v", got)
		}
	})
}

// TestRewindEventsTakesBackWithdrawals: the withdrawals read from the blocks a rewind takes back
// are forgotten, the nodes synced for them are named until synced again, and a withdrawal read
// again from the new fork is recorded afresh, at its new block.
func TestRewindEventsTakesBackWithdrawals(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	ctx := t.Context()
	const owner = "0x00000000000000000000000000000000000b0b01"
	storetest.Node(t, db, "1", owner, time.Now())
	storetest.Node(t, db, "2", owner, time.Now())
	withdrawal := func(node, block int64, tx string) store.ChainWithdrawal {
		return store.ChainWithdrawal{ChainNodeID: big.NewInt(node), AmountWei: big.NewInt(5), To: owner,
			TxHash: storetest.TxHash(tx), BlockNumber: block, At: time.Now()}
	}
	ids := func(ns ...int64) []*big.Int {
		var out []*big.Int
		for _, n := range ns {
			out = append(out, big.NewInt(n))
		}
		return out
	}
	blocks := func(t *testing.T) map[string]int64 { // withdrawal tx → its recorded block
		t.Helper()
		var rows []struct {
			TxHash string `db:"tx_hash"`
			Block  int64  `db:"block_number"`
		}
		if err := db.DB().Select(&rows, `SELECT tx_hash, block_number FROM withdrawals`); err != nil {
			t.Fatal(err)
		}
		got := map[string]int64{}
		for _, r := range rows {
			got[r.TxHash] = r.Block
		}
		return got
	}

	n, err := db.RecordEvents(ctx, "reconcile", store.Events{Blocks: scanned("a", 1, 3),
		Withdrawals: []store.ChainWithdrawal{withdrawal(1, 2, "w1")}, Nodes: ids(1)})
	if err != nil || n != 1 {
		t.Fatalf("recorded %d, %v", n, err)
	}
	n, err = db.RecordEvents(ctx, "reconcile", store.Events{Blocks: scanned("a", 4, 6),
		Withdrawals: []store.ChainWithdrawal{withdrawal(2, 5, "w2"), withdrawal(2, 5, "w2")}, Nodes: ids(2)})
	if err != nil || n != 1 {
		t.Fatalf("the same log twice: recorded %d, %v", n, err)
	}
	if stale, err := db.NodesReconciledAfter(ctx, 6); err != nil || len(stale) != 0 {
		t.Fatalf("nodes reconciled after the cursor with no rewind: %v, %v", stale, err)
	}

	forgotten, err := db.RewindEvents(ctx, "reconcile", 4, forkHash("a", 4))
	if err != nil || forgotten != 1 {
		t.Fatalf("forgotten %d, %v", forgotten, err)
	}
	if got := blocks(t); len(got) != 1 || got[storetest.TxHash("w1")] != 2 {
		t.Fatalf("withdrawals after the rewind to 4: %v", got)
	}
	stale, err := db.NodesReconciledAfter(ctx, 4)
	if err != nil || len(stale) != 1 || stale[0].Int64() != 2 {
		t.Fatalf("nodes to sync again after the rewind: %v, %v", stale, err)
	}

	// The new fork holds w2 again, a block later.
	n, err = db.RecordEvents(ctx, "reconcile", store.Events{Blocks: scanned("b", 5, 7),
		Withdrawals: []store.ChainWithdrawal{withdrawal(2, 6, "w2")}, Nodes: ids(2)})
	if err != nil || n != 1 {
		t.Fatalf("w2 read again: recorded %d, %v", n, err)
	}
	if got := blocks(t); len(got) != 2 || got[storetest.TxHash("w2")] != 6 {
		t.Fatalf("withdrawals after the new fork: %v", got)
	}
	if stale, err := db.NodesReconciledAfter(ctx, 7); err != nil || len(stale) != 0 {
		t.Fatalf("nodes still to sync once synced: %v, %v", stale, err)
	}
}

// TestMigrationKeepsTheScannersApart: the hashes recorded before migration 0008 are the payments
// scan's, and the reconciler starts with the hash of its cursor's block.
func TestMigrationKeepsTheScannersApart(t *testing.T) {
	t.Parallel()
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
		h, err := scannedHash(ctx, s, c.name, c.number)
		if c.found != (err == nil) || (err == nil && h != forkHash("a", c.number)) {
			t.Fatalf("%s's hash of block %d: %q, %v", c.name, c.number, h, err)
		}
	}
}

// TestRewindsTakeBackTheirOwnWithdrawals: a reverted withdraw call is the payments scan's (it has
// no log), a Withdrawn event the reconciler's; each one's rewind takes back only its own.
func TestRewindsTakeBackTheirOwnWithdrawals(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	ctx := t.Context()
	const owner = "0x00000000000000000000000000000000000b0b01"
	storetest.Node(t, db, "1", owner, time.Now())
	failed := func(block int64) store.FailedWithdrawal {
		return store.FailedWithdrawal{ChainNodeID: big.NewInt(1), AmountWei: big.NewInt(5), To: owner,
			TxHash: storetest.TxHash("reverted"), BlockNumber: block, At: time.Now()}
	}
	count := func(t *testing.T, kind string) (n int) {
		t.Helper()
		if err := db.DB().Get(&n, `SELECT count(*) FROM withdrawals WHERE (log_index IS NULL) = ($1 = 'failed')`, kind); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if err := db.RecordScan(ctx, "payments", store.Scan{Blocks: scanned("a", 1, 6), Failed: []store.FailedWithdrawal{failed(5)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.RecordEvents(ctx, "reconcile", store.Events{Blocks: scanned("a", 1, 6),
		Withdrawals: []store.ChainWithdrawal{{ChainNodeID: big.NewInt(1), AmountWei: big.NewInt(5), To: owner,
			TxHash: storetest.TxHash("withdrawn"), BlockNumber: 5, At: time.Now()}}}); err != nil {
		t.Fatal(err)
	}

	if _, err := db.RewindEvents(ctx, "reconcile", 4, forkHash("a", 4)); err != nil {
		t.Fatal(err)
	}
	if count(t, "failed") != 1 || count(t, "logged") != 0 {
		t.Fatalf("after the reconciler's rewind: %d reverted calls (want 1), %d logged (want 0)", count(t, "failed"), count(t, "logged"))
	}
	if _, err := db.RewindScan(ctx, "payments", 4, forkHash("a", 4)); err != nil {
		t.Fatal(err)
	}
	if count(t, "failed") != 0 {
		t.Fatal("the payments scan's rewind left the reverted call of a block it took back")
	}
	// The new fork has the call again, a block later.
	if err := db.RecordScan(ctx, "payments", store.Scan{Blocks: scanned("b", 5, 7), Failed: []store.FailedWithdrawal{failed(6)}}); err != nil {
		t.Fatal(err)
	}
	var block int64
	if err := db.DB().Get(&block, `SELECT block_number FROM withdrawals WHERE log_index IS NULL`); err != nil || block != 6 {
		t.Fatalf("the reverted call read again: block %d, %v", block, err)
	}
}
