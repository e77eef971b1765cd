package store_test

import (
	"fmt"
	"maps"
	"testing"

	"nodeledger/store"
	"nodeledger/store/storetest"
)

// TestSanctionsKnown: what the ledger knows of a wallet's listing at a block, from the oracle's
// logs the payments scan followed and the answers read at followed blocks. A change decides from
// its block on; an answer holds before and after its block while no change of the wallet's lies
// between; nothing is known outside the blocks followed; a scan that does not continue the
// follow starts it again; a reorg takes back the changes and answers above its block.
func TestSanctionsKnown(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	ctx := t.Context()
	const oracle = "0x00000000000000000000000000000000000000aa"
	a, b, c := "0x00000000000000000000000000000000000000a1", "0x00000000000000000000000000000000000000b2", "0x00000000000000000000000000000000000000c3"
	hash := func(n int64) string { return fmt.Sprintf("0x%064x", n) }
	scan := func(from, to int64, changes ...store.SanctionsChange) {
		t.Helper()
		s := store.Scan{Sanctions: &store.SanctionsFollow{Oracle: oracle, From: from, To: to, Changes: changes}}
		for n := from; n <= to; n++ {
			s.Blocks = append(s.Blocks, store.ScannedBlock{Number: n, Hash: hash(n)})
		}
		if err := db.RecordScan(ctx, store.PaymentsScanner, s); err != nil {
			t.Fatal(err)
		}
	}
	known := func(block int64, want map[string]bool) {
		t.Helper()
		got, err := db.SanctionsKnown(ctx, oracle, block, []string{a, b, c})
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(got, want) {
			t.Fatalf("known at block %d: %v, want %v", block, got, want)
		}
	}
	answer := func(block int64, wallet string, listed bool) {
		t.Helper()
		if err := db.PutSanctionsAnswers(ctx, oracle, block, []string{wallet}, []bool{listed}); err != nil {
			t.Fatal(err)
		}
	}

	known(5, map[string]bool{}) // nothing followed yet
	answer(5, a, false)         // nor kept: its block is not followed
	scan(10, 20, store.SanctionsChange{Address: b, Block: 15, LogIndex: 0, Listed: true})
	known(12, map[string]bool{}) // b was not listed in 10..12: its state before 10 is unknown
	known(15, map[string]bool{b: true})
	answer(12, a, false)
	answer(18, c, true)
	known(9, map[string]bool{a: false, c: true}) // the block before the follow: its end state is what 10 started from
	known(20, map[string]bool{a: false, b: true, c: true})
	known(21, map[string]bool{}) // past the blocks followed
	answer(14, b, false)         // b's answer before its listing: holds up to 14 only
	known(14, map[string]bool{a: false, b: false, c: true})

	scan(21, 30, store.SanctionsChange{Address: a, Block: 25, LogIndex: 3, Listed: true},
		store.SanctionsChange{Address: c, Block: 25, LogIndex: 1, Listed: false},
		store.SanctionsChange{Address: c, Block: 25, LogIndex: 2, Listed: true}, // the last in the block decides
		store.SanctionsChange{Address: b, Block: 28, LogIndex: 0, Listed: false})
	known(24, map[string]bool{a: false, b: true, c: true})
	known(27, map[string]bool{a: true, b: true, c: true})
	known(30, map[string]bool{a: true, b: false, c: true})
	answer(29, a, true)
	known(12, map[string]bool{b: false, c: true}) // a's newer answer does not hold across its listing at 25

	// A reorg back to 26 forgets b's delisting at 28 and a's answer at 29.
	if _, err := db.RewindScan(ctx, store.PaymentsScanner, 26, hash(26)); err != nil {
		t.Fatal(err)
	}
	known(26, map[string]bool{a: true, b: true, c: true})
	known(27, map[string]bool{})
	scan(27, 30)
	known(30, map[string]bool{a: true, b: true, c: true})

	// A scan that jumps (the oracle unset for a while) starts the follow again: what came before
	// is unknown, but for the answers read in the new blocks.
	scan(40, 45)
	known(30, map[string]bool{})
	known(45, map[string]bool{})
	answer(41, b, false)
	known(45, map[string]bool{b: false})
}
