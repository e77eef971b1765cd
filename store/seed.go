package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// SeedSize is the shape of a seeded ledger.
type SeedSize struct {
	Nodes       int64
	Owners      int64 // every owner holds a node; the nodes beyond the first Owners go mostly to whales
	Rounds      int64 // one a day, the last an hour ago; each credits every node minted before it
	Withdrawals int64
	HotNodes    int64 // minted before the first round, each credited every round and withdrawn from often
}

// hotWithdrawals is how many withdrawals each hot node gets (fewer when Withdrawals is short).
const hotWithdrawals = 60

// ErrNotEmpty is returned by Seed for a ledger that holds nodes already, and by ReplaySettings
// for one that holds anything.
var ErrNotEmpty = errors.New("the ledger is not empty")

// Validate says whether the size makes a ledger.
func (sz SeedSize) Validate() error {
	switch {
	case sz.Nodes < 1 || sz.Owners < 1 || sz.Rounds < 1 || sz.Withdrawals < 0 || sz.HotNodes < 0:
		return errors.New("nodes, owners and rounds must be positive, withdrawals and hot nodes not negative")
	case sz.Owners > sz.Nodes:
		return errors.New("owners cannot outnumber nodes: every owner holds one")
	case sz.HotNodes > sz.Nodes:
		return errors.New("hot nodes cannot outnumber nodes")
	}
	return nil
}

// seedSteps build the ledger in order. Every statement is set based and writes one table front to
// back. The data is a function of the size alone (hashes, not random()), so two seeds of one size
// are the same ledger but for the times.
//
// The shape: the number of nodes minted by round r grows as the cube of r (sales take off), so
// 1M nodes over 50 rounds make ~12.5M credits; node i is credited in every round after its mint,
// 10^15 wei × (i%3+1) each, as fixed rounds with a base of 10^15 and tier weights 10000, 20000 and
// 30000 would (tier i%3). Owner k holds node k+1, and
// each later node goes to owner ⌊owners × u³⌋ for a hashed u ∈ [0,1): owner 0 then holds ~1/58 of
// them. Withdrawals go hotWithdrawals to each hot node (half its credits between them), the rest
// a quarter of a credit each to the other nodes, striding through them, so nobody withdraws more
// than it was credited.
var seedSteps = []struct{ name, sql string }{
	{"rounds", `
		CREATE FUNCTION pg_temp.seed_units(n bigint) RETURNS bigint LANGUAGE sql IMMUTABLE
		AS $$ SELECT 6 * (n / 3) + CASE n % 3 WHEN 0 THEN 0 WHEN 1 THEN 2 ELSE 5 END $$; -- Σ i%3+1, i ≤ n
		CREATE TEMP TABLE seed_rounds ON COMMIT DROP AS
		SELECT r, n, lag(n, 1, 0::bigint) OVER (ORDER BY r) AS prev_n,
			date_trunc('second', now()) - interval '1 hour' - (@rounds - r) * interval '1 day' AS at
		FROM (
			SELECT r, least(@nodes, greatest(@hot, floor(@nodes * power(r::float8 / @rounds, 3))))::bigint AS n
			FROM generate_series(1, @rounds) r
		) s`},
	{"tiers", `
		INSERT INTO tiers (id, label, price_wei, max_per_wallet, on_sale) VALUES
			(0, 'Lite', 50000000000000000, 100000, true),
			(1, 'Standard', 100000000000000000, 100000, true),
			(2, 'Pro', 250000000000000000, 100000, true)
		ON CONFLICT (id) DO NOTHING`},
	{"payments", `
		INSERT INTO payments (id, tx_hash, payment_ref, from_address, value_wei, block_number, block_hash,
			status, tier, mint_tx, created_at, updated_at)
		SELECT i, h.pay, h.pay, h.owner, t.price_wei, 1000000 + i, h.block, 'minted', i % 3, h.mint, h.at, h.at
		FROM seed_rounds r, generate_series(r.prev_n + 1, r.n) i
		CROSS JOIN LATERAL (SELECT
			'0x' || md5('pay' || i) || md5('pay.' || i) AS pay,
			'0x' || md5('mint' || i) || md5('mint.' || i) AS mint,
			'0x' || md5('block' || i) || md5('block.' || i) AS block,
			r.at - interval '1 day' + (i - r.prev_n) * interval '1 day' / (r.n - r.prev_n + 1) AS at,
			'0x' || md5('owner' || o.k) || left(md5('owner.' || o.k), 8) AS owner
			FROM (SELECT CASE WHEN i <= @owners THEN i - 1
				ELSE floor(@owners * power((hashint8extended(i, 7) & 2147483647) / 2147483648.0::float8, 3))::bigint
				END AS k) o) h
		JOIN tiers t ON t.id = i % 3`},
	{"nodes", `
		INSERT INTO nodes (id, tier, owner, balance_wei, cumulative_wei, price_wei, mint_tx,
			payment_id, next_credit_at, created_at)
		SELECT p.id, p.tier, p.from_address, c.wei, c.wei, p.value_wei, p.mint_tx, p.id,
			(SELECT max(at) FROM seed_rounds) + interval '1 day', p.created_at
		FROM seed_rounds r
		JOIN payments p ON p.id > r.prev_n AND p.id <= r.n
		CROSS JOIN LATERAL (SELECT (@rounds - r.r + 1) * 1000000000000000::numeric * (p.id % 3 + 1) AS wei) c`},
	{"distributions", `
		INSERT INTO distributions (id, total_wei, node_count, mode, funding_mode, status, tx_hash,
			amount_wei, chain_nodes, carry_wei, weights, due_at, next_at, created_at, confirmed_at)
		SELECT r, 1000000000000000::numeric * pg_temp.seed_units(n), n, 'fixed', 'value', 'confirmed',
			'0x' || md5('round' || r) || md5('round.' || r), 1000000000000000, n, 0, '{10000,20000,30000}',
			at - interval '1 minute', at + interval '1 day' - interval '1 minute', at - interval '1 minute', at
		FROM seed_rounds`},
	{"credits", `
		INSERT INTO credits (distribution_id, node_id, amount_wei, created_at)
		SELECT r.r, i, 1000000000000000::numeric * (i % 3 + 1), r.at
		FROM seed_rounds r, generate_series(1, r.n) i`},
	{"withdrawals", `
		INSERT INTO withdrawals (node_id, amount_wei, to_address, tx_hash, log_index, status, created_at,
			confirmed_at)
		SELECT w.node, trunc(1000000000000000::numeric * (w.node % 3 + 1) * w.credits), n.owner,
			'0x' || md5('withdraw' || w.j) || md5('withdraw.' || w.j), 0, 'sent', w.at, w.at
		FROM (
			SELECT j,
				CASE WHEN j <= @hot_withdrawals THEN (j - 1) / @per_hot + 1
					ELSE @hot + 1 + ((j - @hot_withdrawals - 1) * @stride) % (@nodes - @hot) END AS node,
				CASE WHEN j <= @hot_withdrawals THEN @rounds / (2.0 * @per_hot) ELSE 0.25 END AS credits,
				(SELECT max(at) FROM seed_rounds) - (j % 1000) * interval '1 hour' / 25 AS at
			FROM generate_series(1, @withdrawals) j
		) w
		JOIN nodes n ON n.id = w.node
		ORDER BY w.at, w.j`},
	{"balances", `
		UPDATE nodes n
		SET withdrawn_wei = w.total, balance_wei = n.cumulative_wei - w.total
		FROM (SELECT node_id, sum(amount_wei) AS total FROM withdrawals GROUP BY node_id) w
		WHERE w.node_id = n.id`},
}

// seedTables are the tables the seed fills, whose secondary indexes and foreign keys it drops
// while it loads and makes again after: building an index once is far cheaper than keeping it
// up to date through millions of inserts.
var seedTables = []string{"payments", "nodes", "distributions", "credits", "withdrawals"}

// Seed fills an empty ledger with a made-up one of the given size, in one transaction: a seed
// that fails leaves the ledger as it was. done is told each step's name and time as it ends.
func (s *Store) Seed(ctx context.Context, sz SeedSize, done func(step string, took time.Duration)) (err error) {
	defer wrap(&err, "Seed")
	if err := sz.Validate(); err != nil {
		return err
	}
	perHot := int64(hotWithdrawals)
	hotTotal := min(sz.Withdrawals, sz.HotNodes*perHot)
	if rest := sz.Withdrawals - hotTotal; rest > 0 && rest > 4*(sz.Nodes-sz.HotNodes) {
		return fmt.Errorf("%d withdrawals do not fit: at most 4 for each node that is not hot", sz.Withdrawals)
	}
	params := strings.NewReplacer(
		"@nodes", fmt.Sprint(sz.Nodes), "@owners", fmt.Sprint(sz.Owners), "@rounds", fmt.Sprint(sz.Rounds),
		"@withdrawals", fmt.Sprint(sz.Withdrawals), "@hot_withdrawals", fmt.Sprint(hotTotal),
		"@per_hot", fmt.Sprint(perHot), "@hot", fmt.Sprint(sz.HotNodes),
		"@stride", fmt.Sprint(coprimeStride(sz.Nodes-sz.HotNodes)))

	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var full bool
	if err := tx.GetContext(ctx, &full, `SELECT EXISTS (SELECT 1 FROM nodes)`); err != nil {
		return err
	}
	if full {
		return ErrNotEmpty
	}
	if _, err := tx.ExecContext(ctx, `
		SET LOCAL maintenance_work_mem = '512MB';
		SET LOCAL work_mem = '256MB';
		SET LOCAL synchronous_commit = off`); err != nil {
		return err
	}
	restore, err := dropSecondary(ctx, tx, seedTables)
	if err != nil {
		return err
	}
	for _, st := range seedSteps {
		start := time.Now()
		if _, err := tx.ExecContext(ctx, params.Replace(st.sql)); err != nil {
			return fmt.Errorf("%s: %w", st.name, err)
		}
		done(st.name, time.Since(start))
	}
	start := time.Now()
	for _, stmt := range restore {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("restore %q: %w", stmt, err)
		}
	}
	for _, t := range seedTables {
		if _, err := tx.ExecContext(ctx, fmt.Sprintf(
			`SELECT setval(pg_get_serial_sequence('%[1]s', 'id'), (SELECT coalesce(max(id), 0) + 1 FROM %[1]s), false)`,
			t)); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	done("indexes and foreign keys", time.Since(start))
	// VACUUM sets the visibility map, without which no index-only scan skips the heap.
	start = time.Now()
	if _, err = s.db.ExecContext(ctx, `VACUUM (ANALYZE) `+strings.Join(seedTables, ", ")+`, tiers`); err != nil {
		return err
	}
	done("vacuum analyze", time.Since(start))
	return nil
}

// dropSecondary drops the foreign keys, unique constraints and plain indexes of tables (primary
// keys stay) and returns the statements that make them again, in an order that works.
func dropSecondary(ctx context.Context, tx *sqlx.Tx, tables []string) ([]string, error) {
	type object struct {
		Table string `db:"tbl"`
		Name  string `db:"name"`
		Kind  string `db:"kind"` // f foreign key, u unique, i index
		Def   string `db:"def"`
	}
	var objs []object
	if err := tx.SelectContext(ctx, &objs, `
		SELECT * FROM (
		SELECT conrelid::regclass::text AS tbl, conname AS name, contype::text AS kind,
			pg_get_constraintdef(oid) AS def
		FROM pg_constraint
		WHERE conrelid = ANY ($1::regclass[]) AND contype IN ('f', 'u')
		UNION ALL
		SELECT i.indrelid::regclass::text, c.relname, 'i', pg_get_indexdef(i.indexrelid)
		FROM pg_index i
		JOIN pg_class c ON c.oid = i.indexrelid
		WHERE i.indrelid = ANY ($1::regclass[]) AND NOT i.indisprimary
			AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
		) o
		-- foreign keys go first and come back last
		ORDER BY kind = 'f' DESC, name`, pq.Array(tables)); err != nil {
		return nil, err
	}
	var restore []string
	for _, o := range objs {
		drop := fmt.Sprintf(`ALTER TABLE %s DROP CONSTRAINT %s`, o.Table, pq.QuoteIdentifier(o.Name))
		create := fmt.Sprintf(`ALTER TABLE %s ADD CONSTRAINT %s %s`, o.Table, pq.QuoteIdentifier(o.Name), o.Def)
		if o.Kind == "i" {
			drop, create = `DROP INDEX `+pq.QuoteIdentifier(o.Name), o.Def
		}
		if _, err := tx.ExecContext(ctx, drop); err != nil {
			return nil, err
		}
		restore = append([]string{create}, restore...)
	}
	return restore, nil
}

// coprimeStride returns a stride that visits every one of n slots before repeating.
func coprimeStride(n int64) int64 {
	stride := int64(7919)
	for n > 1 && gcd(stride, n) != 1 {
		stride += 2
	}
	return stride
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
