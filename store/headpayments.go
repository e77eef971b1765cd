package store

import (
	"context"
	"database/sql"
	"errors"

	"github.com/lib/pq"
)

// The payments' scanners: PaymentsScanner records them CONFIRMATIONS blocks behind the head
// (RecordScan), HeadScanner sees them at the head (RecordHead), with cursors and block hashes of
// their own.
const (
	PaymentsScanner = "payments"
	HeadScanner     = "head"
)

// headKept is how many blocks behind the head a payment seen there is kept: the payments scan
// records it CONFIRMATIONS blocks on, after which trackers read the ledger's record.
const headKept = 256

// HeadPayment is a payment seen at the chain's head and not judged yet: what its tracker shows
// while it confirms.
type HeadPayment struct {
	TxHash      string  `db:"tx_hash"`
	From        string  `db:"from_address"`
	ValueWei    Uint256 `db:"value_wei"`
	Token       *string `db:"token"` // nil: ETH
	Symbol      string  `db:"symbol"`
	Decimals    int     `db:"decimals"`
	Amount      Uint256 `db:"amount"` // for ETH, ValueWei
	BlockNumber int64   `db:"block_number"`
}

// RecordHead records the payments in blocks, read at the head: it forgets those of blocks more
// than headKept behind the last, and moves the head scanner's cursor to the last block. Recording
// the same blocks again changes nothing.
func (s *Store) RecordHead(ctx context.Context, blocks []ScannedBlock, payments []NewPayment) (err error) {
	defer wrap(&err, "RecordHead")
	if len(blocks) == 0 {
		return nil
	}
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	a := columnsOf(payments) // an ETH payment's amount is its value
	if _, err := tx.ExecContext(ctx, `
		INSERT INTO head_payments (tx_hash, call_index, log_index, from_address, value_wei, token, amount, block_number, block_hash)
		SELECT h, c, li, f, v, tk, coalesce(a, v), n, bh
		FROM unnest($1::text[], $2::int[], $3::int[], $4::text[], $5::numeric[], $6::text[], $7::numeric[], $8::bigint[],
			$9::text[]) AS p (h, c, li, f, v, tk, a, n, bh)
		ON CONFLICT DO NOTHING`,
		pq.Array(a.txHashes), pq.Array(a.callIndexes), pq.Array(a.logIndexes), pq.Array(a.froms), pq.Array(a.values),
		pq.Array(a.tokens), pq.Array(a.amounts), pq.Array(a.blockNumbers), pq.Array(a.blockHashes)); err != nil {
		return err
	}
	last := blocks[len(blocks)-1].Number
	if _, err := tx.ExecContext(ctx, `DELETE FROM head_payments WHERE block_number < $1`, last-headKept); err != nil {
		return err
	}
	if err := advance(ctx, tx, HeadScanner, blocks); err != nil {
		return err
	}
	return tx.Commit()
}

// RewindHead forgets the payments seen at the head above block number, which a reorg took
// away, and moves the head scanner's cursor back to it (hash); it returns how many it forgot.
func (s *Store) RewindHead(ctx context.Context, name string, number int64, hash string) (forgotten int64, err error) {
	defer wrap(&err, "RewindHead")
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `DELETE FROM head_payments WHERE block_number > $1`, number)
	if err != nil {
		return 0, err
	}
	if forgotten, err = res.RowsAffected(); err != nil {
		return 0, err
	}
	if err := rewindTo(ctx, tx, name, number, hash); err != nil {
		return 0, err
	}
	return forgotten, tx.Commit()
}

// headPaymentSQL is a tracker's poll while its payment confirms (see PollSQL).
const headPaymentSQL = `SELECT h.tx_hash, h.from_address, h.value_wei, h.token, coalesce(tk.symbol, 'ETH') AS symbol,
	coalesce(tk.decimals, 18) AS decimals, h.amount, h.block_number
	FROM head_payments h LEFT JOIN tokens tk ON tk.address = h.token
	WHERE h.tx_hash = $1 ORDER BY h.call_index, h.log_index NULLS FIRST LIMIT 1`

// HeadPaymentByTx is the payment transaction hash (lower case) made, as seen at the head (for a
// transaction that paid several times, the first); ErrNotFound when none was seen there.
func (s *Store) HeadPaymentByTx(ctx context.Context, hash string) (_ HeadPayment, err error) {
	defer wrap(&err, "HeadPaymentByTx")
	var p HeadPayment
	err = s.get(ctx, &p, headPaymentSQL, hash)
	if errors.Is(err, sql.ErrNoRows) {
		return p, ErrNotFound
	}
	return p, err
}

// HeadCursors is how far the payments' two scanners have gone: what a payment seen at the head
// is told against.
type HeadCursors struct {
	// Scanned is the last block the payments scan has recorded (0 before its first): a payment
	// in a block up to it that the ledger does not hold is one the scan did not take.
	Scanned int64 `db:"scanned"`
	// Followed is the last block the head scanner has seen (0 before its first): how far the
	// pass that takes back what a reorg removed has followed the chain.
	Followed int64 `db:"followed"`
}

// HeadCursors reads the payments' scanners' cursors.
func (s *Store) HeadCursors(ctx context.Context) (_ HeadCursors, err error) {
	defer wrap(&err, "HeadCursors")
	var c HeadCursors
	err = s.get(ctx, &c, `SELECT
		coalesce(max(block_number) FILTER (WHERE name = '`+PaymentsScanner+`'), 0) AS scanned,
		coalesce(max(block_number) FILTER (WHERE name = '`+HeadScanner+`'), 0) AS followed
		FROM chain_cursors WHERE name IN ('`+PaymentsScanner+`', '`+HeadScanner+`')`)
	return c, err
}
