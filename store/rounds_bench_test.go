package store_test

import (
	"context"
	"fmt"
	"math/big"
	"testing"
	"time"

	"nodeledger/store"
	"nodeledger/store/storetest"
)

// BenchmarkCreditRound measures the database part of a credit pass over every active node (what
// the pass does but the chain: price and write the round with its credit rows, store its signed
// transaction, confirm it), at 100k and 1M nodes, next to the raw SQL that writes the same credit
// rows (INSERT ... SELECT) and applies them to the nodes (UPDATE ... FROM). It reports both and
// their ratios; `make bench` tabulates them. Run with -benchtime 3x or so: each iteration is a
// whole round.
func BenchmarkCreditRound(b *testing.B) {
	for _, nodes := range []int64{100_000, 1_000_000} {
		b.Run(fmt.Sprintf("nodes=%d", nodes), func(b *testing.B) { benchCreditRound(b, nodes) })
	}
}

func benchCreditRound(b *testing.B, nodes int64) {
	ctx := context.Background()
	db, err := storetest.Open(ctx, storetest.EmptyDatabase(b))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if err := db.Seed(ctx, store.SeedSize{Nodes: nodes, Owners: nodes / 5, Rounds: 1}, func(string, time.Duration) {}); err != nil {
		b.Fatal(err)
	}
	exec := func(query string, args ...any) {
		if _, err := db.DB().ExecContext(ctx, query, args...); err != nil {
			b.Fatal(err)
		}
	}
	storetest.Due(b, db, time.Now().Add(-time.Minute))
	exec(`VACUUM ANALYZE nodes, credits`)
	base := big.NewInt(1_000_000_000_000_000)
	// undo takes a round back out of the ledger, so every iteration starts from the same one.
	undo := func(round int64) {
		exec(`
			UPDATE nodes n SET balance_wei = n.balance_wei - c.amount_wei,
				cumulative_wei = n.cumulative_wei - c.amount_wei
			FROM credits c WHERE c.distribution_id = $1 AND n.id = c.node_id`, round)
		exec(`DELETE FROM credits WHERE distribution_id = $1`, round)
		exec(`DELETE FROM outbox WHERE distribution_id = $1`, round)
		exec(`DELETE FROM distributions WHERE id = $1`, round)
		exec(`VACUUM nodes, credits`)
	}

	// The chain's tier counts, as the credit pass reads them: the seed's, node i in tier i % 3.
	tierNodes := map[int]int64{}
	for i := range int64(3) {
		tierNodes[int(i)] = (nodes + 3 - i) / 3
	}
	tierNodes[0]--

	var write, confirm, rawInsert, rawUpdate time.Duration
	for b.Loop() {
		start := time.Now()
		round, err := db.StartRound(ctx, store.NewRound{Mode: "fixed", AmountWei: base, ChainNodes: nodes, CarryWei: new(big.Int), TierNodes: tierNodes,
			Weights: map[int]uint32{0: 10000, 1: 20000, 2: 30000}})
		if err != nil {
			b.Fatal(err)
		}
		write += time.Since(start)
		start = time.Now()
		v := storetest.SentTx(fmt.Sprint("bench", round.ID), round.ID)
		if err := db.StoreRoundTx(ctx, round.ID, v); err != nil {
			b.Fatal(err)
		}
		if _, err := db.ConfirmRound(ctx, round.ID, &v.Hash, 0, 24*time.Hour); err != nil {
			b.Fatal(err)
		}
		confirm += time.Since(start)
		if round.NodeCount != int(nodes) {
			b.Fatalf("a round of %d nodes", round.NodeCount)
		}
		undo(round.ID)

		// The raw SQL: the same credit rows, then the same node updates, one statement each.
		var raw int64
		if err := db.DB().QueryRowContext(ctx, `
			INSERT INTO distributions (total_wei, node_count, mode, funding_mode, status)
			VALUES (0, 0, 'fixed', 'value', 'pending') RETURNING id`).Scan(&raw); err != nil {
			b.Fatal(err)
		}
		start = time.Now()
		exec(`
			INSERT INTO credits (distribution_id, node_id, amount_wei)
			SELECT $1, n.id, $2::numeric * (n.tier + 1) -- the seed's weights: 10000 × (tier + 1)
			FROM nodes n
			WHERE n.status = 'active' AND n.id <= $3`, raw, base.String(), nodes)
		rawInsert += time.Since(start)
		start = time.Now()
		exec(`
			UPDATE nodes n SET balance_wei = n.balance_wei + c.amount_wei,
				cumulative_wei = n.cumulative_wei + c.amount_wei
			FROM credits c WHERE c.distribution_id = $1 AND n.id = c.node_id`, raw)
		rawUpdate += time.Since(start)
		undo(raw)
	}
	n := float64(b.N)
	b.ReportMetric(write.Seconds()/n, "write-s/op")
	b.ReportMetric(rawInsert.Seconds()/n, "raw-insert-s/op")
	b.ReportMetric(write.Seconds()/rawInsert.Seconds(), "write/raw-insert")
	b.ReportMetric(confirm.Seconds()/n, "confirm-s/op")
	b.ReportMetric(rawUpdate.Seconds()/n, "raw-update-s/op")
	b.ReportMetric((write+confirm).Seconds()/(rawInsert+rawUpdate).Seconds(), "pass/raw")
}
