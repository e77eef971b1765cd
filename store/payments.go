package store

import (
	"context"
	"database/sql"
	"errors"
	"math/big"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// Payment is a transfer to the payments wallet, from the moment it is seen to its node or its
// rejection. Status: pending (seen, not yet checked), minting (its mint transaction is signed
// and stored), minted, rejected (Reason says why; the operator refunds it).
type Payment struct {
	ID          int64     `db:"id"`
	TxHash      string    `db:"tx_hash"`
	CallIndex   int       `db:"call_index"`
	PaymentRef  string    `db:"payment_ref"` // what the contract is told: one payment can never mint twice
	From        string    `db:"from_address"`
	ValueWei    Uint256   `db:"value_wei"`
	BlockNumber int64     `db:"block_number"`
	BlockHash   string    `db:"block_hash"`
	Status      string    `db:"status"`
	Reason      *string   `db:"reason"`
	Tier        *int      `db:"tier"`
	MintTx      *string   `db:"mint_tx"`
	MintNonce   *int64    `db:"mint_nonce"`
	MintRaw     []byte    `db:"mint_raw"`
	CreatedAt   time.Time `db:"created_at"`
}

const paymentColumns = `id, tx_hash, call_index, payment_ref, from_address, value_wei, block_number,
	block_hash, status, reason, tier, mint_tx, mint_nonce, mint_raw, created_at`

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

// ScannedHash returns the hash the payments scan recorded for block number; ErrNotFound when it
// recorded none.
func (s *Store) ScannedHash(ctx context.Context, number int64) (_ string, err error) {
	defer wrap(&err, "ScannedHash")
	var hash string
	err = s.db.GetContext(ctx, &hash, `SELECT hash FROM scanned_blocks WHERE number = $1`, number)
	if errors.Is(err, sql.ErrNoRows) {
		return "", ErrNotFound
	}
	return hash, err
}

// NewPayment is a transfer the scan found.
type NewPayment struct {
	TxHash      string
	CallIndex   int
	PaymentRef  string
	From        string
	ValueWei    *big.Int
	BlockNumber int64
	BlockHash   string
}

// FailedWithdrawal is a withdraw call to the factory that reverted.
type FailedWithdrawal struct {
	ChainNodeID *big.Int
	AmountWei   *big.Int
	To          string
	TxHash      string
	At          time.Time
}

// ScannedBlock is a block the scan read.
type ScannedBlock struct {
	Number int64
	Hash   string
}

// RecordScan records, in one transaction, what the scan found in blocks (payments, reverted
// withdrawals), the blocks' hashes, and the cursor moved to the last of them. Recording the same
// blocks again changes nothing, so a scan that dies before this commits simply reads them again.
func (s *Store) RecordScan(ctx context.Context, name string, blocks []ScannedBlock, payments []NewPayment, failed []FailedWithdrawal) (err error) {
	defer wrap(&err, "RecordScan")
	if len(blocks) == 0 {
		return nil
	}
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// One statement a table: a scan of a busy chain finds thousands of payments at a time.
	var (
		txHashes, refs, froms, values, blockHashes []string
		callIndexes                                []int64
		blockNumbers                               []int64
	)
	for _, p := range payments {
		txHashes, refs, froms = append(txHashes, p.TxHash), append(refs, p.PaymentRef), append(froms, p.From)
		values, blockHashes = append(values, p.ValueWei.String()), append(blockHashes, p.BlockHash)
		callIndexes, blockNumbers = append(callIndexes, int64(p.CallIndex)), append(blockNumbers, p.BlockNumber)
	}
	if _, err := tx.ExecContext(ctx, `
		INSERT INTO payments (tx_hash, call_index, payment_ref, from_address, value_wei, block_number, block_hash)
		SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::numeric[], $6::bigint[], $7::text[])
		ON CONFLICT (tx_hash, call_index) DO NOTHING`,
		pq.Array(txHashes), pq.Array(callIndexes), pq.Array(refs), pq.Array(froms), pq.Array(values),
		pq.Array(blockNumbers), pq.Array(blockHashes)); err != nil {
		return err
	}
	for _, w := range failed { // rare: one statement each
		// A reverted call against a node the ledger does not know yet is left to the reconciler.
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO withdrawals (node_id, amount_wei, to_address, tx_hash, status, created_at)
			SELECT id, $2, $3, $4, 'failed', $5 FROM nodes WHERE chain_node_id = $1::numeric
			ON CONFLICT (tx_hash) WHERE log_index IS NULL DO NOTHING`,
			Uint256{w.ChainNodeID}, Uint256{w.AmountWei}, w.To, w.TxHash, w.At); err != nil {
			return err
		}
	}
	numbers, hashes := make([]int64, len(blocks)), make([]string, len(blocks))
	for i, b := range blocks {
		numbers[i], hashes[i] = b.Number, b.Hash
	}
	if _, err := tx.ExecContext(ctx, `
		INSERT INTO scanned_blocks (number, hash)
		SELECT * FROM unnest($1::bigint[], $2::text[])
		ON CONFLICT (number) DO UPDATE SET hash = excluded.hash`, pq.Array(numbers), pq.Array(hashes)); err != nil {
		return err
	}
	last := blocks[len(blocks)-1]
	if err := putCursor(ctx, tx, name, last.Number, last.Hash); err != nil {
		return err
	}
	return tx.Commit()
}

func putCursor(ctx context.Context, tx *sqlx.Tx, name string, number int64, hash string) error {
	_, err := tx.ExecContext(ctx, `
		INSERT INTO chain_cursors (name, block_number, block_hash) VALUES ($1, $2, $3)
		ON CONFLICT (name) DO UPDATE SET block_number = excluded.block_number,
			block_hash = excluded.block_hash, updated_at = now()`, name, number, hash)
	return err
}

// Rewind moves the scan back to block number (a block both the ledger and the chain agree on)
// after a reorg: blocks above it are forgotten, and so are the payments they held that had not
// gone further than being seen or rejected. A payment already minting or minted stays, for the
// drift report: the chain decides what became of it.
func (s *Store) Rewind(ctx context.Context, name string, number int64, hash string) (forgotten int64, err error) {
	defer wrap(&err, "Rewind")
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `DELETE FROM payments WHERE block_number > $1 AND status IN ('pending', 'rejected')`, number)
	if err != nil {
		return 0, err
	}
	forgotten, _ = res.RowsAffected()
	if _, err := tx.ExecContext(ctx, `DELETE FROM scanned_blocks WHERE number > $1`, number); err != nil {
		return 0, err
	}
	if err := putCursor(ctx, tx, name, number, hash); err != nil {
		return 0, err
	}
	return forgotten, tx.Commit()
}

// PaymentsByStatus returns the payments in status, oldest first (by block, then id).
func (s *Store) PaymentsByStatus(ctx context.Context, status string) (_ []Payment, err error) {
	defer wrap(&err, "PaymentsByStatus")
	var ps []Payment
	err = s.db.SelectContext(ctx, &ps, `
		SELECT `+paymentColumns+` FROM payments WHERE status = $1 ORDER BY block_number, id`, status)
	return ps, err
}

// RejectPayment records why a payment does not become a node.
func (s *Store) RejectPayment(ctx context.Context, id int64, reason string) (err error) {
	defer wrap(&err, "RejectPayment")
	_, err = s.db.ExecContext(ctx, `
		UPDATE payments SET status = 'rejected', reason = $2, updated_at = now()
		WHERE id = $1 AND status IN ('pending', 'minting')`, id, reason)
	return err
}

// StoreMintTx records the signed mint transaction of a payment before it is sent, moving the
// payment to minting (or replacing the transaction of one already minting).
func (s *Store) StoreMintTx(ctx context.Context, id int64, tier int, nonce uint64, txHash string, raw []byte) (err error) {
	defer wrap(&err, "StoreMintTx")
	_, err = s.db.ExecContext(ctx, `
		UPDATE payments SET status = 'minting', tier = $2, mint_nonce = $3, mint_tx = $4, mint_raw = $5,
			reason = NULL, updated_at = now()
		WHERE id = $1 AND status IN ('pending', 'minting')`, id, tier, int64(nonce), txHash, raw)
	return err
}

// RecordMint records the node a payment's mint created and marks the payment minted, in one
// transaction; recording it again changes nothing. created is false when the node was recorded
// already.
func (s *Store) RecordMint(ctx context.Context, paymentID int64, n NewNode) (_ Node, created bool, err error) {
	defer wrap(&err, "RecordMint")
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return Node{}, false, err
	}
	defer tx.Rollback()
	n.PaymentID = &paymentID
	node, created, err := insertNode(ctx, tx, n)
	if err != nil {
		return Node{}, false, err
	}
	// A node the reconciler recorded first gets its payment now.
	if _, err := tx.ExecContext(ctx, `UPDATE nodes SET payment_id = $1 WHERE id = $2 AND payment_id IS NULL`,
		paymentID, node.ID); err != nil {
		return Node{}, false, err
	}
	if _, err := tx.ExecContext(ctx, `
		UPDATE payments SET status = 'minted', updated_at = now() WHERE id = $1 AND status = 'minting'`,
		paymentID); err != nil {
		return Node{}, false, err
	}
	return node, created, tx.Commit()
}

// WalletHoldings counts what a wallet holds or is being minted: of one tier (nodes recorded and
// payments minting), and in all (payments minting only: the chain counts the nodes).
func (s *Store) WalletHoldings(ctx context.Context, owner string, tier int) (ofTier, minting int, err error) {
	defer wrap(&err, "WalletHoldings")
	var h struct {
		OfTier  int `db:"of_tier"`
		Minting int `db:"minting"`
	}
	err = s.db.GetContext(ctx, &h, `
		SELECT
			(SELECT count(*) FROM nodes WHERE owner = $1 AND tier = $2)
			+ (SELECT count(*) FROM payments WHERE from_address = $1 AND tier = $2 AND status = 'minting') AS of_tier,
			(SELECT count(*) FROM payments WHERE from_address = $1 AND status = 'minting') AS minting`,
		owner, tier)
	return h.OfTier, h.Minting, err
}

// Refunds returns the rejected payments, newest first: what the operator owes back.
func (s *Store) Refunds(ctx context.Context, limit int) (_ []Payment, err error) {
	defer wrap(&err, "Refunds")
	var ps []Payment
	err = s.db.SelectContext(ctx, &ps, `
		SELECT `+paymentColumns+` FROM payments WHERE status = 'rejected'
		ORDER BY block_number DESC, id DESC LIMIT $1`, limit)
	return ps, err
}

// MintedSince returns the minted payments of blocks from `from` on, oldest first.
func (s *Store) MintedSince(ctx context.Context, from int64) (_ []Payment, err error) {
	defer wrap(&err, "MintedSince")
	var ps []Payment
	err = s.db.SelectContext(ctx, &ps, `
		SELECT `+paymentColumns+` FROM payments WHERE status = 'minted' AND block_number >= $1
		ORDER BY block_number, id`, from)
	return ps, err
}
