package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

var (
	// ErrRoundPending is StartRound's answer while an earlier round is still pending: it has to be
	// finished first, or its nodes could be credited in two rounds at once.
	ErrRoundPending = errors.New("a credit round is still pending")
	// ErrNothingDue is StartRound's answer when no node is due for credit. It is an ErrNotFound.
	ErrNothingDue = fmt.Errorf("no node is due for credit: %w", ErrNotFound)
)

// DueNode is a node due for credit, with the payout rate of its tier.
type DueNode struct {
	ID          int64   `db:"id"`
	ChainNodeID Uint256 `db:"chain_node_id"`
	PayoutBps   int64   `db:"payout_bps"`
}

// NewRound is a round for StartRound to write.
type NewRound struct {
	Mode        string // fixed or pool
	FundingMode string // how the round is paid for: value (sent with each credit call)
	BatchSize   int    // nodes per credit batch, that is per transaction
	// Amounts says what each due node (ordered by id) is credited. It is called inside the
	// transaction that writes the round, so the nodes it prices are exactly the nodes credited.
	Amounts func(due []DueNode) ([]*big.Int, error)
}

// Round is a distribution round with its batches, as the credit pass works on it.
type Round struct {
	ID        int64         `db:"id"`
	Mode      string        `db:"mode"`
	TotalWei  Uint256       `db:"total_wei"`
	NodeCount int           `db:"node_count"`
	Status    string        `db:"status"` // pending, then confirmed once every batch is
	Batches   []CreditBatch `db:"-"`
}

// CreditBatch is the part of a round credited by one transaction. Its id is the round id the
// contract is given, which it accepts once.
type CreditBatch struct {
	ID             int64   `db:"id"`
	DistributionID int64   `db:"distribution_id"`
	BatchNo        int     `db:"batch_no"`
	TotalWei       Uint256 `db:"total_wei"` // the value its transaction carries
	NodeCount      int     `db:"node_count"`
	// Status is pending until the batch is credited on chain and in the ledger, then confirmed.
	// A batch whose transaction reverted stays pending while a new one is signed: the reconciler
	// leaves the nodes of pending batches alone, which a batch the chain may already have credited
	// (by another transaction) needs.
	Status string  `db:"status"`
	TxHash *string `db:"tx_hash"`
	Nonce  *int64  `db:"nonce"`
	Raw    []byte  `db:"raw"` // the signed transaction, stored before it is sent
}

// BatchCredit is one node's line in a credit batch.
type BatchCredit struct {
	NodeID      int64   `db:"node_id"`
	ChainNodeID Uint256 `db:"chain_node_id"`
	AmountWei   Uint256 `db:"amount_wei"`
}

// StartRound writes, in one transaction, a pending round for the nodes due now: the distribution,
// one credit per node, and the batches the credits are split into (in node id order), each credit
// linked to its batch. It answers ErrRoundPending while a round is pending and ErrNothingDue when
// no node is due.
func (s *Store) StartRound(ctx context.Context, r NewRound) (_ Round, err error) {
	defer wrap(&err, "StartRound")
	if r.BatchSize <= 0 {
		return Round{}, fmt.Errorf("batch size %d", r.BatchSize)
	}
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return Round{}, err
	}
	defer tx.Rollback()
	round, err := startRound(ctx, tx, r)
	if err != nil {
		return Round{}, err
	}
	return round, tx.Commit()
}

func startRound(ctx context.Context, tx *sqlx.Tx, r NewRound) (Round, error) {
	// The credit pass's advisory lock keeps a second pass away; this table lock is the backstop
	// for a lost advisory lock: round writers queue here, and each sees the rounds written before
	// it, so no node ever has two pending rounds. Readers are not blocked.
	if _, err := tx.ExecContext(ctx, `LOCK TABLE distributions IN SHARE ROW EXCLUSIVE MODE`); err != nil {
		return Round{}, err
	}
	var pending bool
	if err := tx.GetContext(ctx, &pending, `SELECT EXISTS (SELECT 1 FROM distributions WHERE status = 'pending')`); err != nil {
		return Round{}, err
	}
	if pending {
		return Round{}, ErrRoundPending
	}
	due, err := dueNodes(ctx, tx)
	if err != nil {
		return Round{}, err
	}
	if len(due) == 0 {
		return Round{}, ErrNothingDue
	}
	amounts, err := r.Amounts(due)
	if err != nil {
		return Round{}, err
	}
	if len(amounts) != len(due) {
		return Round{}, fmt.Errorf("%d amounts for %d due nodes", len(amounts), len(due))
	}
	total := new(big.Int)
	for _, a := range amounts {
		if a == nil || a.Sign() < 0 {
			return Round{}, fmt.Errorf("credit amount %v", a)
		}
		total.Add(total, a)
	}

	round := Round{Mode: r.Mode, TotalWei: Uint256{total}, NodeCount: len(due), Status: "pending"}
	if err := tx.GetContext(ctx, &round.ID, `
		INSERT INTO distributions (total_wei, node_count, mode, funding_mode, status)
		VALUES ($1, $2, $3, $4, 'pending')
		RETURNING id`, round.TotalWei, len(due), r.Mode, r.FundingMode); err != nil {
		return Round{}, err
	}

	var batchNos, counts []int64
	var totals []string
	for start, no := 0, 1; start < len(due); start, no = start+r.BatchSize, no+1 {
		end := min(start+r.BatchSize, len(due))
		b := CreditBatch{DistributionID: round.ID, BatchNo: no, TotalWei: Uint256{new(big.Int)}, NodeCount: end - start, Status: "pending"}
		for _, a := range amounts[start:end] {
			b.TotalWei.Add(b.TotalWei.Int, a)
		}
		round.Batches = append(round.Batches, b)
		batchNos, totals, counts = append(batchNos, int64(no)), append(totals, b.TotalWei.String()), append(counts, int64(b.NodeCount))
	}
	// One statement for the batches and one for the credits: a round can credit a million nodes.
	var written []struct {
		ID      int64 `db:"id"`
		BatchNo int   `db:"batch_no"`
	}
	if err := tx.SelectContext(ctx, &written, `
		INSERT INTO credit_batches (distribution_id, batch_no, total_wei, node_count)
		SELECT $1, * FROM unnest($2::int[], $3::numeric[], $4::int[])
		RETURNING id, batch_no`, round.ID, pq.Array(batchNos), pq.Array(totals), pq.Array(counts)); err != nil {
		return Round{}, err
	}
	for _, b := range written {
		round.Batches[b.BatchNo-1].ID = b.ID
	}
	nodeIDs := make([]int64, len(due))
	amountText := make([]string, len(due))
	batchIDs := make([]int64, len(due))
	for i := range due {
		nodeIDs[i], amountText[i], batchIDs[i] = due[i].ID, amounts[i].String(), round.Batches[i/r.BatchSize].ID
	}
	if _, err := tx.ExecContext(ctx, `
		INSERT INTO credits (distribution_id, node_id, amount_wei, batch_id)
		SELECT $1, t.node_id, t.amount, t.batch_id
		FROM unnest($2::bigint[], $3::numeric[], $4::bigint[]) AS t (node_id, amount, batch_id)`,
		round.ID, pq.Array(nodeIDs), pq.Array(amountText), pq.Array(batchIDs)); err != nil {
		return Round{}, err
	}
	return round, nil
}

// dueNodes reads the active nodes whose next credit is due, by id.
func dueNodes(ctx context.Context, tx *sqlx.Tx) ([]DueNode, error) {
	var due []DueNode
	err := tx.SelectContext(ctx, &due, `
		SELECT n.id, n.chain_node_id, t.payout_bps
		FROM nodes n
		JOIN tiers t ON t.id = n.tier
		WHERE n.status = 'active' AND n.next_credit_at <= now()
		ORDER BY n.id`)
	return due, err
}

// PendingRound returns the oldest pending round with its batches; ErrNotFound when none is.
func (s *Store) PendingRound(ctx context.Context) (_ Round, err error) {
	defer wrap(&err, "PendingRound")
	var r Round
	err = s.db.GetContext(ctx, &r, `
		SELECT id, mode, total_wei, node_count, status
		FROM distributions
		WHERE status = 'pending'
		ORDER BY id
		LIMIT 1`)
	if errors.Is(err, sql.ErrNoRows) {
		return Round{}, ErrNotFound
	}
	if err != nil {
		return Round{}, err
	}
	err = s.db.SelectContext(ctx, &r.Batches, `
		SELECT id, distribution_id, batch_no, total_wei, node_count, status, tx_hash, nonce, raw
		FROM credit_batches
		WHERE distribution_id = $1
		ORDER BY batch_no`, r.ID)
	return r, err
}

// BatchCredits returns the credits of a batch, by node id: what its transaction credits.
func (s *Store) BatchCredits(ctx context.Context, batchID int64) (_ []BatchCredit, err error) {
	defer wrap(&err, "BatchCredits")
	var credits []BatchCredit
	err = s.db.SelectContext(ctx, &credits, `
		SELECT c.node_id, n.chain_node_id, c.amount_wei
		FROM credits c
		JOIN nodes n ON n.id = c.node_id
		WHERE c.batch_id = $1
		ORDER BY c.node_id`, batchID)
	return credits, err
}

// StoreBatchTx records a signed version of a batch's transaction before it is sent, so that a
// pass that dies after sending can send the very same bytes again: in the outbox, and as the
// batch's newest. ErrNotFound when the batch is confirmed already, or does not exist.
func (s *Store) StoreBatchTx(ctx context.Context, batchID int64, v SentTx) (err error) {
	defer wrap(&err, "StoreBatchTx")
	return s.keepVersion(ctx, v, TxFor{BatchID: batchID}, `
		UPDATE credit_batches SET tx_hash = $2, nonce = $3, raw = $4
		WHERE id = $1 AND status = 'pending'`, batchID, v.Hash, v.Nonce, v.Raw)
}

// BatchConfirmation is what ConfirmBatch did.
type BatchConfirmation struct {
	// Applied is false when the batch was confirmed already: nothing was credited again.
	Applied bool
	// RoundConfirmed is true when this was the round's last unconfirmed batch, and the round is
	// now confirmed.
	RoundConfirmed bool
}

// ConfirmBatch records, in one transaction, that a batch was credited on chain by transaction
// txHash (nil: by a transaction not known, recorded as null rather than a wrong one): the batch is
// confirmed, each of its credits is added to its node's balance and
// cumulative total, and each node's next credit moves one period on from when it was due (from
// now, when that is still in the past, so a node that missed periods is not credited in a burst).
// When it was the round's last batch, the round is confirmed too, with this batch's transaction.
// It is guarded by the batch's status, so a batch is never applied twice.
func (s *Store) ConfirmBatch(ctx context.Context, batchID int64, txHash *string, period time.Duration) (_ BatchConfirmation, err error) {
	defer wrap(&err, "ConfirmBatch")
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return BatchConfirmation{}, err
	}
	defer tx.Rollback()
	c, err := confirmBatch(ctx, tx, batchID, txHash, period)
	if err != nil {
		return BatchConfirmation{}, err
	}
	return c, tx.Commit()
}

func confirmBatch(ctx context.Context, tx *sqlx.Tx, batchID int64, txHash *string, period time.Duration) (BatchConfirmation, error) {
	var c BatchConfirmation
	var roundID int64
	err := tx.GetContext(ctx, &roundID, `
		UPDATE credit_batches
		SET status = 'confirmed', tx_hash = $2, confirmed_at = now()
		WHERE id = $1 AND status = 'pending'
		RETURNING distribution_id`, batchID, txHash)
	if errors.Is(err, sql.ErrNoRows) {
		var exists bool
		if err := tx.GetContext(ctx, &exists, `SELECT EXISTS (SELECT 1 FROM credit_batches WHERE id = $1)`, batchID); err != nil {
			return c, err
		}
		if !exists {
			return c, ErrNotFound
		}
		return c, nil // confirmed before
	}
	if err != nil {
		return c, err
	}
	c.Applied = true
	if _, err := tx.ExecContext(ctx, `
		UPDATE nodes n
		SET balance_wei = n.balance_wei + c.amount_wei,
			cumulative_wei = n.cumulative_wei + c.amount_wei,
			next_credit_at = CASE
				WHEN n.next_credit_at IS NULL THEN NULL
				WHEN n.next_credit_at + $2 * interval '1 microsecond' > now() THEN n.next_credit_at + $2 * interval '1 microsecond'
				ELSE now() + $2 * interval '1 microsecond'
			END
		FROM credits c
		WHERE c.batch_id = $1 AND n.id = c.node_id`, batchID, period.Microseconds()); err != nil {
		return c, err
	}
	res, err := tx.ExecContext(ctx, `
		UPDATE distributions
		SET status = 'confirmed', confirmed_at = now(), tx_hash = $2
		WHERE id = $1 AND status = 'pending'
			AND NOT EXISTS (SELECT 1 FROM credit_batches WHERE distribution_id = $1 AND status <> 'confirmed')`,
		roundID, txHash)
	if err != nil {
		return c, err
	}
	n, err := res.RowsAffected()
	c.RoundConfirmed = n == 1
	return c, err
}
