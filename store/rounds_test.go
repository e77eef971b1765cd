package store_test

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"nodeledger/store"
	"nodeledger/store/storetest"
)

func TestRounds(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db := storetest.New(t)
	// Nodes 1 to 5 in tier 1 (1×), then 6 and 7 in tier 3 (2.5×); tier 2 has none and weighs 0.
	for i := range 5 {
		storetest.Node(t, db, fmt.Sprint(i+1), "0x00000000000000000000000000000000000000aa", time.Now())
	}
	if _, err := db.DB().Exec(`
		INSERT INTO tiers (id, label, price_wei, max_per_wallet) VALUES
			(2, 'Free', 0, 5), (3, 'Pro', 1, 5)`); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		id := storetest.Node(t, db, fmt.Sprint(i+6), "0x00000000000000000000000000000000000000bb", time.Now())
		if _, err := db.DB().Exec(`UPDATE nodes SET tier = 3 WHERE id = $1`, id); err != nil {
			t.Fatal(err)
		}
	}
	// The chain's weights: tier 2 is not named, so it weighs 0.
	fixed := store.NewRound{Mode: "fixed", AmountWei: big.NewInt(1000), ChainNodes: 7, CarryWei: new(big.Int),
		TierNodes: map[int]int64{1: 5, 3: 2}, Weights: map[int]uint32{1: 10000, 3: 25000}, WeightsVersion: 4}

	t.Run("nothing due", func(t *testing.T) {
		_, err := db.StartRound(ctx, fixed)
		if !errors.Is(err, store.ErrNothingDue) || !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("err %v", err)
		}
	})

	storetest.Due(t, db, time.Now().Add(-time.Minute))

	t.Run("the chain has a node the ledger lacks", func(t *testing.T) {
		r := fixed
		r.ChainNodes = 8
		var behind *store.LedgerBehindError
		if _, err := db.StartRound(ctx, r); !errors.As(err, &behind) || *behind != (store.LedgerBehindError{ChainNodes: 8, Known: 7}) {
			t.Fatalf("err %v", err)
		}
		if _, err := db.PendingRound(ctx); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("a round was left pending: %v", err)
		}
	})

	t.Run("the chain has a node in another tier", func(t *testing.T) {
		r := fixed
		r.TierNodes = map[int]int64{1: 4, 2: 1, 3: 2}
		if _, err := db.StartRound(ctx, r); !errors.Is(err, store.ErrTiersDisagree) || !strings.Contains(err.Error(), "tier 1: the chain counts 4 nodes, the ledger 5") {
			t.Fatalf("err %v", err)
		}
		if _, err := db.PendingRound(ctx); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("a round was left pending: %v", err)
		}
	})

	// Four writers at once, as if the credit pass's advisory lock were lost: one round only.
	var round store.Round
	t.Run("one round at a time", func(t *testing.T) {
		var wg sync.WaitGroup
		var mu sync.Mutex
		started, pending := 0, 0
		for range 4 {
			wg.Go(func() {
				r, err := db.StartRound(ctx, fixed)
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

	t.Run("priced as the contract credits", func(t *testing.T) {
		// 5 × 1000 + 2 × 2500; the weights name every tier id up to the last, 0 for tier 0.
		if round.TotalWei.Int64() != 10000 || round.NodeCount != 7 || round.ChainNodes != 7 || round.Value().Int64() != 10000 ||
			fmt.Sprint(round.Weights) != "[0 10000 0 25000]" || round.WeightsVersion != 4 || round.Status != "pending" {
			t.Fatalf("round %+v", round)
		}
		got, err := db.PendingRound(ctx)
		if err != nil || got.ID != round.ID || got.TotalWei.Int64() != 10000 || got.AmountWei.Int64() != 1000 {
			t.Fatalf("pending round %+v, err %v", got, err)
		}
		if credits := roundCredits(t, db, round.ID); credits != "1:1000 2:1000 3:1000 4:1000 5:1000 6:2500 7:2500" {
			t.Errorf("credits %s", credits)
		}
	})

	t.Run("a pool round, priced again for a node minted since", func(t *testing.T) {
		// Node 8, tier 1: W = 6 × 10000 + 2 × 25000 = 110000; (2,000,000 + 9) / 110000 = 18 wei per
		// unit of weight, 20,009 wei carried.
		storetest.Node(t, db, "8", "0x00000000000000000000000000000000000000cc", time.Now())
		chain := store.NewRound{ChainNodes: 8, CarryWei: big.NewInt(9), TierNodes: map[int]int64{1: 6, 3: 2},
			Weights: fixed.Weights, WeightsVersion: 4}
		r, err := db.RepriceRound(ctx, round.ID, round.Repriced(chain))
		if err != nil {
			t.Fatal(err)
		}
		if r.ID != round.ID || r.ChainNodes != 8 || r.TotalWei.Int64() != 11000 || r.Value().Int64() != 11000 {
			t.Fatalf("fixed, again: %+v", r)
		}
		pool := chain
		pool.Mode, pool.AmountWei = "pool", big.NewInt(2_000_000)
		if r, err = db.RepriceRound(ctx, round.ID, pool); err != nil {
			t.Fatal(err)
		}
		if r.TotalWei.Int64() != 18*110000 || r.Value().Int64() != 2_000_000 || r.CarryWei.Int64() != 9 {
			t.Fatalf("pool: %+v", r)
		}
		if credits := roundCredits(t, db, round.ID); credits != "1:180000 2:180000 3:180000 4:180000 5:180000 6:450000 7:450000 8:180000" {
			t.Errorf("credits %s", credits)
		}
		round = r
	})

	t.Run("a round is applied once", func(t *testing.T) {
		v := storetest.SentTx("round 1", 3)
		if err := db.StoreRoundTx(ctx, round.ID, v); err != nil {
			t.Fatal(err)
		}
		if got, err := db.PendingRound(ctx); err != nil || got.TxHash == nil || *got.TxHash != v.Hash || string(got.Raw) != string(v.Raw) {
			t.Fatalf("pending round %+v, err %v", got, err)
		}
		for i, want := range []bool{true, false} {
			applied, err := db.ConfirmRound(ctx, round.ID, &v.Hash, 0, time.Hour)
			if err != nil || applied != want {
				t.Fatalf("confirmation %d: %v, err %v; want %v", i, applied, err, want)
			}
		}
		n, err := db.NodeByChainID(ctx, big.NewInt(6))
		if err != nil {
			t.Fatal(err)
		}
		if n.BalanceWei.Int64() != 7+450000 || n.CumulativeWei.Int64() != 10+450000 { // the fixture starts at 7 and 10
			t.Errorf("node 6: balance %s, cumulative %s", n.BalanceWei, n.CumulativeWei)
		}
		if err := db.StoreRoundTx(ctx, round.ID, storetest.SentTx("round 1 again", 4)); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("storing a transaction for a confirmed round: err %v", err)
		}
		if _, err := db.ConfirmRound(ctx, -1, &v.Hash, 0, time.Hour); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("confirming no round: err %v", err)
		}
		if _, err := db.RepriceRound(ctx, round.ID, round.Repriced(fixed)); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("pricing a confirmed round again: err %v", err)
		}
		ds, err := db.Distributions(ctx, 10)
		if err != nil || len(ds) != 1 || ds[0].Status != "confirmed" || ds[0].TxHash == nil || *ds[0].TxHash != v.Hash {
			t.Fatalf("rounds %+v, err %v", ds, err)
		}
	})

	t.Run("every node moves to the next round", func(t *testing.T) {
		// The round fell due a minute ago: a period of an hour puts the next in 59 minutes, for
		// every scheduled node, and a node recorded now joins it.
		storetest.Node(t, db, "9", "0x00000000000000000000000000000000000000cc", time.Now())
		if _, err := db.DB().Exec(`UPDATE nodes SET next_credit_at = now() - interval '1 day' WHERE id = 9`); err != nil {
			t.Fatal(err)
		}
		sc, err := db.Schedule(ctx)
		if err != nil || sc.NextAt == nil || sc.DueNodes != 0 || sc.ScheduledNodes != 8 {
			t.Fatalf("schedule %+v, err %v", sc, err)
		}
		if d := time.Until(*sc.NextAt); d < 58*time.Minute || d > 59*time.Minute+30*time.Second {
			t.Fatalf("next round in %s", d)
		}
		for _, id := range []int64{1, 9} {
			n, err := db.Node(ctx, big.NewInt(id), 1)
			if err != nil || n.NextCreditAt == nil || n.NextCreditAt.Sub(*sc.NextAt).Abs() > time.Millisecond { // the API gives milliseconds
				t.Errorf("node %d: next credit %v, err %v; want the next round's, %v", id, n.NextCreditAt, err, sc.NextAt)
			}
		}
		if _, err := db.StartRound(ctx, fixed); !errors.Is(err, store.ErrNothingDue) {
			t.Fatalf("a round right after the last: %v", err)
		}
	})
}

// roundCredits lists a round's credits as chain id:amount, by chain id.
func roundCredits(t *testing.T, db *store.Store, round int64) string {
	t.Helper()
	var lines []string
	if err := db.DB().Select(&lines, `
		SELECT n.id || ':' || c.amount_wei FROM credits c JOIN nodes n ON n.id = c.node_id
		WHERE c.distribution_id = $1 ORDER BY n.id`, round); err != nil {
		t.Fatal(err)
	}
	return strings.Join(lines, " ")
}
