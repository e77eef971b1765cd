package main

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"nodeledger/store"
	"nodeledger/store/storetest"
)

// TestDigestsCheck: `nodeledger digests check` says how many blocks agree with their digests, and
// fails naming the first block whose rows no longer give its digest (jobs' TestLedgerDigests
// changes each kind of row under digests the passes wrote).
func TestDigestsCheck(t *testing.T) {
	t.Parallel()
	url := storetest.NewURL(t)
	db, err := storetest.Open(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var out bytes.Buffer
	if err := run(t.Context(), []string{"digests", "check"}, env("DATABASE_URL", url), &out, io.Discard); err != nil ||
		!strings.Contains(out.String(), "0 blocks holding events") {
		t.Fatalf("%q, %v", out.String(), err)
	}
	// A digest of a payment the ledger does not hold: its rows say otherwise.
	const h = "0x00000000000000000000000000000000000000000000000000000000000000aa"
	d := store.Digests(make([]byte, 32), []store.LedgerEvent{{Block: 3, Line: `{"kind": "payment"}`}}, map[int64]string{3: h})
	if err := db.AppendDigests(t.Context(), d, 3, h); err != nil {
		t.Fatal(err)
	}
	err = run(t.Context(), []string{"digests", "check", "--from", "1"}, env("DATABASE_URL", url), io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "block 3 differs from its digest") || !strings.Contains(err.Error(), "held 1 events when digested and holds 0 now") {
		t.Fatalf("%v", err)
	}
	if err := run(t.Context(), []string{"digests", "verify"}, env("DATABASE_URL", url), io.Discard, io.Discard); err == nil {
		t.Fatal("an unknown verb was taken")
	}
}
