package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"nodeledger/store"
	"nodeledger/store/storetest"
)

func TestSeed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := storetest.Open(ctx, storetest.EmptyDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	schema := func() []string {
		var defs []string
		if err := db.DB().Select(&defs, `
			SELECT conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint
			WHERE connamespace = 'public'::regnamespace
			UNION ALL
			SELECT indexdef FROM pg_indexes WHERE schemaname = 'public'
			ORDER BY 1`); err != nil {
			t.Fatal(err)
		}
		return defs
	}
	before := schema()

	sz := store.SeedSize{Nodes: 3000, Owners: 500, Rounds: 12, Withdrawals: 900, HotNodes: 10}
	var steps []string
	if err := db.Seed(ctx, sz, func(step string, _ time.Duration) { steps = append(steps, step) }); err != nil {
		t.Fatal(err)
	}
	if len(steps) < 5 {
		t.Fatalf("steps reported: %v", steps)
	}

	t.Run("same schema as the server's", func(t *testing.T) {
		after := schema()
		if len(after) != len(before) {
			t.Fatalf("%d constraints and indexes before, %d after", len(before), len(after))
		}
		for i := range before {
			if before[i] != after[i] {
				t.Errorf("before: %s\n after: %s", before[i], after[i])
			}
		}
	})

	t.Run("the ledger adds up", func(t *testing.T) {
		var got struct {
			Nodes, Owners, Rounds, Withdrawals, Credits, Whale, Hot int64
			BadNodes, BadRounds, BadCredits                         int64
		}
		if err := db.DB().QueryRowx(`
			SELECT
				(SELECT count(*) FROM nodes) AS nodes,
				(SELECT count(DISTINCT owner) FROM nodes) AS owners,
				(SELECT count(*) FROM distributions WHERE status = 'confirmed') AS rounds,
				(SELECT count(*) FROM withdrawals) AS withdrawals,
				(SELECT count(*) FROM credits) AS credits,
				(SELECT max(c) FROM (SELECT count(*) AS c FROM nodes GROUP BY owner) o) AS whale,
				(SELECT count(*) FROM nodes n
				 WHERE (SELECT count(*) FROM credits c WHERE c.node_id = n.id) >= 12
				   AND (SELECT count(*) FROM withdrawals w WHERE w.node_id = n.id) >= 50) AS hot,
				(SELECT count(*) FROM nodes n
				 WHERE cumulative_wei <> (SELECT sum(amount_wei) FROM credits c WHERE c.node_id = n.id)
				    OR withdrawn_wei <> (SELECT coalesce(sum(amount_wei), 0) FROM withdrawals w WHERE w.node_id = n.id)
				    OR balance_wei <> cumulative_wei - withdrawn_wei
				    OR n.payment_id IS NULL) AS badnodes,
				(SELECT count(*) FROM distributions d
				 WHERE total_wei <> (SELECT sum(amount_wei) FROM credits c WHERE c.distribution_id = d.id)
				    OR node_count <> (SELECT count(*) FROM credits c WHERE c.distribution_id = d.id)) AS badrounds,
				(SELECT count(*) FROM credits c
				 JOIN distributions d ON d.id = c.distribution_id
				 JOIN nodes n ON n.id = c.node_id
				 WHERE c.amount_wei <> div(d.amount_wei * d.weights[n.tier + 1], 10000)
				    OR n.id > d.chain_nodes) AS badcredits`,
		).StructScan(&got); err != nil {
			t.Fatal(err)
		}
		if got.Nodes != sz.Nodes || got.Owners != sz.Owners || got.Rounds != sz.Rounds || got.Withdrawals != sz.Withdrawals {
			t.Errorf("seeded %+v for %+v", got, sz)
		}
		if got.Hot != sz.HotNodes {
			t.Errorf("%d nodes with a credit each round and 50+ withdrawals, want the %d hot ones", got.Hot, sz.HotNodes)
		}
		if got.Whale < 10*sz.Nodes/sz.Owners {
			t.Errorf("the biggest holder has %d nodes: no whale", got.Whale)
		}
		if got.Credits < sz.Nodes*sz.Rounds/5 {
			t.Errorf("%d credits for %d nodes over %d rounds", got.Credits, sz.Nodes, sz.Rounds)
		}
		if got.BadNodes+got.BadRounds+got.BadCredits != 0 {
			t.Errorf("totals that do not add up: %d nodes, %d rounds, %d credits not priced as their round", got.BadNodes, got.BadRounds, got.BadCredits)
		}
	})

	t.Run("the server's inserts go on after it", func(t *testing.T) {
		storetest.Node(t, db, "99999999", "0x00000000000000000000000000000000000000aa", time.Now())
	})

	t.Run("a ledger with nodes is refused", func(t *testing.T) {
		err := db.Seed(ctx, sz, func(string, time.Duration) {})
		if !errors.Is(err, store.ErrNotEmpty) {
			t.Fatalf("second seed: %v", err)
		}
	})
}
