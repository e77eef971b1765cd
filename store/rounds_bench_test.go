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

// BenchmarkCreditRound100k measures the database part of a credit pass over 100,000 due nodes in
// 500-node batches (what the pass does but the chain: write the round, then per batch read its
// credits, store its signed transaction and confirm it) next to the raw SQL that writes the same
// credit rows (INSERT ... SELECT) and applies them to the nodes (UPDATE ... FROM). It reports
// both and their ratios; `make bench` tabulates them. Run with -benchtime 3x or so: each
// iteration is a whole round.
func BenchmarkCreditRound100k(b *testing.B) {
	const nodes, batch = 100_000, 500
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
	const due = `UPDATE nodes SET next_credit_at = now() - interval '1 minute'`
	exec(due)
	exec(`VACUUM ANALYZE nodes, credits`)
	base := big.NewInt(1_000_000_000_000_000)
	fixed := func(d []store.DueNode) ([]*big.Int, error) {
		out := make([]*big.Int, len(d))
		for i, n := range d {
			out[i] = new(big.Int).Div(new(big.Int).Mul(base, big.NewInt(n.PayoutBps)), big.NewInt(10_000))
		}
		return out, nil
	}
	// undo takes a round back out of the ledger, so every iteration starts from the same one.
	undo := func(round int64) {
		exec(`
			UPDATE nodes n SET balance_wei = n.balance_wei - c.amount_wei,
				cumulative_wei = n.cumulative_wei - c.amount_wei
			FROM credits c WHERE c.distribution_id = $1 AND n.id = c.node_id`, round)
		exec(`DELETE FROM credits WHERE distribution_id = $1`, round)
		exec(`DELETE FROM credit_batches WHERE distribution_id = $1`, round)
		exec(`DELETE FROM distributions WHERE id = $1`, round)
		exec(due)
		exec(`VACUUM nodes, credits, credit_batches`)
	}

	var write, confirm, rawInsert, rawUpdate time.Duration
	for b.Loop() {
		start := time.Now()
		round, err := db.StartRound(ctx, store.NewRound{Mode: "fixed", FundingMode: "value", BatchSize: batch, Amounts: fixed})
		if err != nil {
			b.Fatal(err)
		}
		write += time.Since(start)
		start = time.Now()
		for i, bt := range round.Batches {
			if _, err := db.BatchCredits(ctx, bt.ID); err != nil {
				b.Fatal(err)
			}
			v := storetest.SentTx(fmt.Sprint("bench", round.ID, i), int64(i))
			tx := v.Hash
			if err := db.StoreBatchTx(ctx, bt.ID, v); err != nil {
				b.Fatal(err)
			}
			if _, err := db.ConfirmBatch(ctx, bt.ID, &tx, 24*time.Hour); err != nil {
				b.Fatal(err)
			}
		}
		confirm += time.Since(start)
		if round.NodeCount != nodes {
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
			SELECT $1, n.id, $2::numeric * t.payout_bps / 10000
			FROM nodes n JOIN tiers t ON t.id = n.tier
			WHERE n.status = 'active' AND n.next_credit_at <= now()
			ORDER BY n.id`, raw, base.String())
		rawInsert += time.Since(start)
		start = time.Now()
		exec(`
			UPDATE nodes n SET balance_wei = n.balance_wei + c.amount_wei,
				cumulative_wei = n.cumulative_wei + c.amount_wei,
				next_credit_at = n.next_credit_at + interval '1 day'
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
