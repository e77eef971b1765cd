package store_test

import (
	"errors"
	"fmt"
	"math/big"
	"sync"
	"testing"
	"time"

	"nodeledger/store"
	"nodeledger/store/storetest"
)

// sevenEach credits every due node 7 wei.
func sevenEach(due []store.DueNode) ([]*big.Int, error) {
	out := make([]*big.Int, len(due))
	for i := range out {
		out[i] = big.NewInt(7)
	}
	return out, nil
}

func TestRounds(t *testing.T) {
	ctx := t.Context()
	storetest.Reset(t, db)
	var nodeIDs []int64
	for i := range 5 {
		nodeIDs = append(nodeIDs, storetest.Node(t, db, fmt.Sprint(i+1), "0x00000000000000000000000000000000000000aa", time.Now()))
	}
	newRound := store.NewRound{Mode: "fixed", FundingMode: "value", BatchSize: 2, Amounts: sevenEach}

	t.Run("nothing due", func(t *testing.T) {
		_, err := db.StartRound(ctx, newRound)
		if !errors.Is(err, store.ErrNothingDue) || !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("err %v", err)
		}
	})

	if _, err := db.DB().Exec(`UPDATE nodes SET next_credit_at = now() - interval '1 minute'`); err != nil {
		t.Fatal(err)
	}

	// Four writers at once, as if the credit pass's advisory lock were lost: one round only.
	var round store.Round
	t.Run("one round at a time", func(t *testing.T) {
		var wg sync.WaitGroup
		var mu sync.Mutex
		started, pending := 0, 0
		for range 4 {
			wg.Go(func() {
				r, err := db.StartRound(ctx, newRound)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					started++
					round = r
				case errors.Is(err, store.ErrRoundPending):
					pending++
				default:
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if started != 1 || pending != 3 {
			t.Fatalf("%d rounds started, %d told one is pending", started, pending)
		}
	})
	if round.ID == 0 {
		t.FailNow()
	}

	t.Run("batches in node order", func(t *testing.T) {
		if round.NodeCount != 5 || round.TotalWei.Int64() != 35 || len(round.Batches) != 3 {
			t.Fatalf("round %+v", round)
		}
		for i, want := range []int{2, 2, 1} {
			b := round.Batches[i]
			if b.BatchNo != i+1 || b.NodeCount != want || b.TotalWei.Int64() != int64(7*want) || b.Status != "pending" {
				t.Errorf("batch %d: %+v", i, b)
			}
			cs, err := db.BatchCredits(ctx, b.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(cs) != want || cs[0].NodeID != nodeIDs[2*i] {
				t.Errorf("batch %d credits %+v", i, cs)
			}
		}
		got, err := db.PendingRound(ctx)
		if err != nil || got.ID != round.ID || len(got.Batches) != 3 {
			t.Fatalf("pending round %+v, err %v", got, err)
		}
	})

	t.Run("a batch is applied once", func(t *testing.T) {
		b := round.Batches[0]
		v := storetest.SentTx("batch 1", 3)
		hash := v.Hash
		if err := db.StoreBatchTx(ctx, b.ID, v); err != nil {
			t.Fatal(err)
		}
		for i, want := range []store.BatchConfirmation{{Applied: true}, {}} {
			c, err := db.ConfirmBatch(ctx, b.ID, &hash, time.Hour)
			if err != nil || c != want {
				t.Fatalf("confirmation %d: %+v, err %v; want %+v", i, c, err, want)
			}
		}
		n, err := db.NodeByChainID(ctx, big.NewInt(1))
		if err != nil {
			t.Fatal(err)
		}
		if n.BalanceWei.Int64() != 7+7 || n.CumulativeWei.Int64() != 10+7 { // the fixture starts at 7 and 10
			t.Errorf("node 1: balance %s, cumulative %s", n.BalanceWei, n.CumulativeWei)
		}
		if err := db.StoreBatchTx(ctx, b.ID, storetest.SentTx("batch 1 again", 4)); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("storing a transaction for a confirmed batch: err %v", err)
		}
		if _, err := db.ConfirmBatch(ctx, -1, &hash, time.Hour); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("confirming no batch: err %v", err)
		}
	})

	t.Run("the last batch confirms the round", func(t *testing.T) {
		c, err := db.ConfirmBatch(ctx, round.Batches[1].ID, nil, time.Hour)
		if err != nil || c != (store.BatchConfirmation{Applied: true}) {
			t.Fatalf("%+v, %v", c, err)
		}
		hash := storetest.TxHash("batch 3")
		c, err = db.ConfirmBatch(ctx, round.Batches[2].ID, &hash, time.Hour)
		if err != nil || c != (store.BatchConfirmation{Applied: true, RoundConfirmed: true}) {
			t.Fatalf("%+v, %v", c, err)
		}
		ds, err := db.Distributions(ctx, 10)
		if err != nil || len(ds) != 1 || ds[0].Status != "confirmed" || ds[0].TxHash == nil || *ds[0].TxHash != hash {
			t.Fatalf("rounds %+v, err %v", ds, err)
		}
		if _, err := db.PendingRound(ctx); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("pending round: err %v", err)
		}
		var due int
		if err := db.DB().Get(&due, `SELECT count(*) FROM nodes WHERE next_credit_at <= now()`); err != nil || due != 0 {
			t.Errorf("%d nodes still due, err %v", due, err)
		}
	})
}
