package store

import (
	"context"
	"database/sql"
	"errors"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// SanctionsFollow is what a payments scan read of the sanctions oracle's logs: the blocks From..To
// and the changes of its list there (migration 0057).
type SanctionsFollow struct {
	Oracle   string
	From, To int64
	Changes  []SanctionsChange
}

// SanctionsChange is a wallet the oracle listed (Listed) or took off its list, by its log.
type SanctionsChange struct {
	Address  string
	Block    int64
	LogIndex int
	Listed   bool
}

// recordSanctions records f with the scan's blocks. A follow that continues the recorded one
// extends it; one that does not (the oracle was unset for a while, or the scan jumped) starts
// again from its own blocks, forgetting the changes outside them.
func recordSanctions(ctx context.Context, tx *sqlx.Tx, f *SanctionsFollow) error {
	if f == nil {
		return nil
	}
	var cur struct {
		From int64 `db:"from_block"`
		To   int64 `db:"to_block"`
	}
	err := tx.GetContext(ctx, &cur, `SELECT from_block, to_block FROM sanctions_follow WHERE oracle = $1 FOR UPDATE`, f.Oracle)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	if err == nil && cur.From <= f.From && f.From <= cur.To+1 {
		_, err = tx.ExecContext(ctx, `UPDATE sanctions_follow SET to_block = greatest(to_block, $2) WHERE oracle = $1`, f.Oracle, f.To)
	} else {
		_, err = tx.ExecContext(ctx, `
			WITH forgotten AS (DELETE FROM sanctions_changes WHERE oracle = $1 AND (block < $2 OR block > $3))
			INSERT INTO sanctions_follow (oracle, from_block, to_block) VALUES ($1, $2, $3)
			ON CONFLICT (oracle) DO UPDATE SET from_block = $2, to_block = $3`, f.Oracle, f.From, f.To)
	}
	if err != nil {
		return err
	}
	if len(f.Changes) == 0 {
		return nil
	}
	addrs, blocks, indexes, listed := make([]string, len(f.Changes)), make([]int64, len(f.Changes)), make([]int64, len(f.Changes)), make([]bool, len(f.Changes))
	for i, c := range f.Changes {
		addrs[i], blocks[i], indexes[i], listed[i] = c.Address, c.Block, int64(c.LogIndex), c.Listed
	}
	_, err = tx.ExecContext(ctx, `
		INSERT INTO sanctions_changes (oracle, address, block, log_index, listed)
		SELECT $1, a, b, i, l FROM unnest($2::text[], $3::bigint[], $4::int[], $5::bool[]) AS c (a, b, i, l)
		ON CONFLICT DO NOTHING`, f.Oracle, pq.Array(addrs), pq.Array(blocks), pq.Array(indexes), pq.Array(listed))
	return err
}

// rewindSanctions forgets what the oracle's logs and answers said above block number, which a
// reorg took back with the scan's blocks.
func rewindSanctions(ctx context.Context, tx *sqlx.Tx, number int64) error {
	for _, q := range []string{
		`DELETE FROM sanctions_changes WHERE block > $1`,
		`DELETE FROM sanctions_answers WHERE block > $1`,
		`DELETE FROM sanctions_follow WHERE from_block > $1 + 1`,
		`UPDATE sanctions_follow SET to_block = $1 WHERE to_block > $1`,
	} {
		if _, err := tx.ExecContext(ctx, q, number); err != nil {
			return err
		}
	}
	return nil
}

// followedAt is the oracle's follow ($1) when it covers block $2, from the state it started from
// (the end of the block before its first) to its last block.
const followedAt = `SELECT from_block, to_block FROM sanctions_follow WHERE oracle = $1::text AND $2::bigint BETWEEN from_block - 1 AND to_block`

// SanctionsKnown is what the ledger knows the sanctions oracle said of each of wallets at the end
// of block, where the payments scan has followed its logs: the last change of the wallet's listing
// there up to block, or, with none, an answer read at a followed block with no change of the
// wallet's between. A wallet missing from it must be asked.
func (s *Store) SanctionsKnown(ctx context.Context, oracle string, block int64, wallets []string) (_ map[string]bool, err error) {
	defer wrap(&err, "SanctionsKnown")
	var rows []struct {
		Address string `db:"address"`
		Listed  bool   `db:"listed"`
	}
	if err := s.db.SelectContext(ctx, &rows, `
		WITH f AS (`+followedAt+`),
		known AS (
			SELECT w.address, coalesce(
				(SELECT c.listed FROM sanctions_changes c
				 WHERE c.oracle = $1 AND c.address = w.address AND c.block BETWEEN f.from_block AND $2
				 ORDER BY c.block DESC, c.log_index DESC LIMIT 1),
				(SELECT a.listed FROM sanctions_answers a
				 WHERE a.oracle = $1 AND a.address = w.address AND a.block BETWEEN f.from_block - 1 AND f.to_block
				   AND NOT EXISTS (SELECT 1 FROM sanctions_changes c WHERE c.oracle = $1 AND c.address = w.address
				       AND c.block > least(a.block, $2) AND c.block <= greatest(a.block, $2)))) AS listed
			FROM unnest($3::text[]) AS w (address), f)
		SELECT address, listed FROM known WHERE listed IS NOT NULL`, oracle, block, pq.Array(wallets)); err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(rows))
	for _, r := range rows {
		out[r.Address] = r.Listed
	}
	return out, nil
}

// PutSanctionsAnswers keeps what the oracle answered of wallets (listed, in order) at block, when
// its logs are followed there: the answer holds on until the wallet's listing changes.
func (s *Store) PutSanctionsAnswers(ctx context.Context, oracle string, block int64, wallets []string, listed []bool) (err error) {
	defer wrap(&err, "PutSanctionsAnswers")
	_, err = s.db.ExecContext(ctx, `
		INSERT INTO sanctions_answers AS s (oracle, address, block, listed)
		SELECT $1::text, a, $2::bigint, l FROM unnest($3::text[], $4::bool[]) AS w (a, l)
		WHERE EXISTS (`+followedAt+`)
		ON CONFLICT (oracle, address) DO UPDATE SET block = excluded.block, listed = excluded.listed
		WHERE excluded.block > s.block`, oracle, block, pq.Array(wallets), pq.Array(listed))
	return err
}
