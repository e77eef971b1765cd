package store_test

import (
	"slices"
	"testing"

	"nodeledger/store"
	"nodeledger/store/storetest"
)

// TestTxVersions: one read gives each row its own versions, oldest first and in the order the
// rows were asked for, and a row without any an empty list.
func TestTxVersions(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	storetest.Tier(t, db, 1, "Standard", "1", true)
	const buyer = "0x00000000000000000000000000000000000b0b01"
	a := storetest.MintingPayment(t, db, "a", buyer, storetest.SentTx("a0", 0), storetest.SentTx("a1", 0))
	b := storetest.MintingPayment(t, db, "b", buyer, storetest.SentTx("b0", 1))
	none := storetest.MintingPayment(t, db, "none", buyer)

	batch := func(payment int64) (id int64) {
		if err := db.DB().Get(&id, `SELECT coalesce(mint_batch, 0) FROM payments WHERE id = $1`, payment); err != nil {
			t.Fatal(err)
		}
		return id
	}
	got, err := db.TxVersions(t.Context(), store.TxFor{MintBatch: batch(b)}, store.TxFor{MintBatch: batch(a)}, store.TxFor{MintBatch: batch(none)})
	if err != nil {
		t.Fatal(err)
	}
	hashes := func(vs []store.SentTx) (out []string) {
		for _, v := range vs {
			out = append(out, v.Hash)
		}
		return out
	}
	want := [][]string{{storetest.TxHash("b0")}, {storetest.TxHash("a0"), storetest.TxHash("a1")}, nil}
	if len(got) != len(want) {
		t.Fatalf("%d answers for 3 rows", len(got))
	}
	for i := range want {
		if h := hashes(got[i]); !slices.Equal(h, want[i]) {
			t.Errorf("row %d: %v, want %v", i, h, want[i])
		}
	}
}
