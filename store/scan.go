package store

import (
	"context"
	"database/sql"
	"errors"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// Cursor is how far a chain scanner has read: the last block it read and that block's hash.
type Cursor struct {
	Number int64  `db:"block_number"`
	Hash   string `db:"block_hash"`
}

// Cursor returns the scanner's cursor; ErrNotFound before its first block.
func (s *Store) Cursor(ctx context.Context, name string) (_ Cursor, err error) {
	defer wrap(&err, "Cursor")
	var c Cursor
	err = s.db.GetContext(ctx, &c, `SELECT block_number, block_hash FROM chain_cursors WHERE name = $1`, name)
	if errors.Is(err, sql.ErrNoRows) {
		return Cursor{}, ErrNotFound
	}
	return c, err
}

// ScannedBlock is a block a scanner read.
type ScannedBlock struct {
	Number int64  `db:"number"`
	Hash   string `db:"hash"`
}

// blocksKept is how far behind its cursor a scanner keeps the hashes of the blocks it read. A
// reorg is noticed as deep as that; no chain the service follows reorganises thousands of blocks.
const blocksKept = 5000

// ScannedBelow returns the last block below number whose hash scanner name keeps; ErrNotFound when
// it keeps none. A payments scan that skipped a quiet range kept the hash of the range's last
// block only: a reorg is looked for there, never at the blocks between.
func (s *Store) ScannedBelow(ctx context.Context, name string, number int64) (_ ScannedBlock, err error) {
	defer wrap(&err, "ScannedBelow")
	var b ScannedBlock
	err = s.db.GetContext(ctx, &b, `
		SELECT number, hash FROM scanned_blocks WHERE scanner = $1 AND number < $2
		ORDER BY number DESC LIMIT 1`, name, number)
	if errors.Is(err, sql.ErrNoRows) {
		return ScannedBlock{}, ErrNotFound
	}
	return b, err
}

// advance records the hashes of the blocks scanner name read, forgets its hashes older than
// blocksKept behind the last of them, and moves its cursor to that last block.
func advance(ctx context.Context, tx *sqlx.Tx, name string, blocks []ScannedBlock) error {
	numbers, hashes := make([]int64, len(blocks)), make([]string, len(blocks))
	for i, b := range blocks {
		numbers[i], hashes[i] = b.Number, b.Hash
	}
	if _, err := tx.ExecContext(ctx, `
		INSERT INTO scanned_blocks (scanner, number, hash)
		SELECT $1, b.number, b.hash FROM unnest($2::bigint[], $3::text[]) AS b (number, hash)
		ON CONFLICT (scanner, number) DO UPDATE SET hash = excluded.hash`,
		name, pq.Array(numbers), pq.Array(hashes)); err != nil {
		return err
	}
	last := blocks[len(blocks)-1]
	if _, err := tx.ExecContext(ctx, `DELETE FROM scanned_blocks WHERE scanner = $1 AND number < $2`,
		name, last.Number-blocksKept); err != nil {
		return err
	}
	return putCursor(ctx, tx, name, last.Number, last.Hash)
}

// rewindTo forgets the hashes scanner name recorded above block number and moves its cursor back
// to it; the other scanners' hashes are theirs.
func rewindTo(ctx context.Context, tx *sqlx.Tx, name string, number int64, hash string) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM scanned_blocks WHERE scanner = $1 AND number > $2`, name, number); err != nil {
		return err
	}
	return putCursor(ctx, tx, name, number, hash)
}

func putCursor(ctx context.Context, tx *sqlx.Tx, name string, number int64, hash string) error {
	_, err := tx.ExecContext(ctx, `
		INSERT INTO chain_cursors (name, block_number, block_hash) VALUES ($1, $2, $3)
		ON CONFLICT (name) DO UPDATE SET block_number = excluded.block_number,
			block_hash = excluded.block_hash, updated_at = now()`, name, number, hash)
	return err
}
