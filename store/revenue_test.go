package store_test

import (
	"testing"

	"nodeledger/store/storetest"
)

// TestRevenue: a tier's revenue is the sum of its minted payments, exactly (amounts past 2^64),
// and nothing of a payment pending, still minting or rejected (a refund is owed only for
// a rejected one).
func TestRevenue(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	storetest.Tier(t, db, 1, "Standard", "100000000000000000", true)
	storetest.Tier(t, db, 2, "Pro", "20000000000000000000", true)
	storetest.Tier(t, db, 3, "Unsold", "1", true)
	const buyer = "0x00000000000000000000000000000000000b0b01"
	pay := func(seed, value, status string, tier, reason any) {
		t.Helper()
		var args any
		if reason != nil {
			args = "{}"
		}
		if _, err := db.DB().Exec(`
			INSERT INTO payments (tx_hash, payment_ref, from_address, value_wei, block_number, block_hash, status, tier,
				reason_code, reason_args)
			VALUES ($1, $1, $2, $3, 1, $1, $4, $5, $6, $7)`,
			storetest.TxHash(seed), buyer, value, status, tier, reason, args); err != nil {
			t.Fatal(err)
		}
	}
	pay("s1", "100000000000000000", "minted", 1, nil)
	pay("s2", "100000000000000000", "minted", 1, nil)
	pay("s3", "100000000000000000", "minting", 1, nil)
	pay("p1", "20000000000000000000", "minted", 2, nil)
	pay("p2", "20000000000000000000", "minted", 2, nil)
	pay("r1", "20000000000000000000", "rejected", 2, "wrong_amount")
	pay("w1", "7", "pending", nil, nil)

	got, err := db.Revenue(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]string{1: "200000000000000000", 2: "40000000000000000000"}
	if len(got) != len(want) {
		t.Fatalf("revenue %v, want %v", got, want)
	}
	for tier, wei := range want {
		if got[tier].ETH.String() != wei {
			t.Errorf("tier %d: %s wei, want %s", tier, got[tier].ETH.String(), wei)
		}
	}
}
