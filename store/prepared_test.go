package store_test

import (
	"context"
	"testing"
	"time"

	"nodeledger/store/storetest"
)

// A transaction's statements are prepared without a second connection: on a pool of one, a
// payment's claim (its statements prepared for the first time, inside its transaction) and a
// second one (prepared for the pool by then, or again in the transaction) both go through,
// rather than wait forever for a connection the transaction holds.
func TestPreparedInATransactionOnAPoolOfOne(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	storetest.Tier(t, db, 1, "One", "1", true)
	db.LimitConns(1)
	for _, seed := range []string{"first", "second"} {
		id := storetest.MintingPayment(t, db, "pool of one "+seed, "0x00000000000000000000000000000000000000a1")
		ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
		err := db.ClaimMint(ctx, id, 1, nil, nil)
		cancel()
		if err != nil {
			t.Fatalf("the %s claim on a pool of one connection: %v", seed, err)
		}
	}
}
