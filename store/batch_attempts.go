package store

import (
	"context"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// AttemptStatus is where a transaction sent to execute a treasury batch is
// (treasury_batch_attempts.status).
type AttemptStatus string

// An attempt is sent until mined; then it executed the batch (mined: the payments scan records
// what it paid, from the Safe's log) or the Safe refused it (reverted: nothing paid, no nonce
// taken, the batch still open for another attempt).
const (
	AttemptSent     AttemptStatus = "sent"
	AttemptMined    AttemptStatus = "mined"
	AttemptReverted AttemptStatus = "reverted"
)

// BatchAttempt is a transaction sent to execute a treasury batch, as the page or a script reported
// it, and what the chain made of it.
type BatchAttempt struct {
	TxHash     string        `db:"tx_hash"`
	Sender     string        `db:"sender"`
	ReportedBy string        `db:"reported_by"`
	Status     AttemptStatus `db:"status"`
	// Reverted: why, as the Safe said it ("GS020"), "out of gas", or "" when the chain told nothing.
	Error *string `db:"error"`
	// Reverted for a transfer that failed (GS013): the transfer's recipient, when running each
	// again in the block before named it, and what the chain said of it.
	RefusedTo   *string   `db:"refused_to"`
	RefusedSays *string   `db:"refused_says"`
	BlockNumber *int64    `db:"block_number"`
	CreatedAt   time.Time `db:"created_at"`
	UpdatedAt   time.Time `db:"updated_at"`
}

// batchAttempts adds to each batch of at its attempts, oldest first.
func batchAttempts(ctx context.Context, q sqlx.QueryerContext, at map[int64]*TreasuryBatch, ids []int64) error {
	var rows []struct {
		BatchID int64 `db:"batch_id"`
		BatchAttempt
	}
	if err := sqlx.SelectContext(ctx, q, &rows, `
		SELECT batch_id, tx_hash, sender, reported_by, status, error, refused_to, refused_says, block_number, created_at, updated_at
		FROM treasury_batch_attempts WHERE batch_id = ANY ($1) ORDER BY batch_id, created_at, tx_hash`, pq.Array(ids)); err != nil {
		return err
	}
	for _, r := range rows {
		at[r.BatchID].Attempts = append(at[r.BatchID].Attempts, r.BatchAttempt)
	}
	return nil
}

// RecordBatchAttempt records what the chain made of attempt a to execute batch (a reported again,
// or followed by the payments pass, moves only out of sent), and audits one that reverted,
// with its sender as who did it. safe is the treasury, the audit's target.
func (s *Store) RecordBatchAttempt(ctx context.Context, batch int64, safe string, a BatchAttempt) (err error) {
	defer wrap(&err, "RecordBatchAttempt")
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var moved []AttemptStatus
	if err := tx.SelectContext(ctx, &moved, `
		INSERT INTO treasury_batch_attempts (tx_hash, batch_id, sender, reported_by, status, error, refused_to, refused_says, block_number)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
		ON CONFLICT (tx_hash) DO UPDATE SET status = EXCLUDED.status, error = EXCLUDED.error, refused_to = EXCLUDED.refused_to,
			refused_says = EXCLUDED.refused_says, block_number = EXCLUDED.block_number, updated_at = now()
		WHERE treasury_batch_attempts.status = 'sent' AND EXCLUDED.status <> 'sent'
		RETURNING status`, a.TxHash, batch, a.Sender, a.ReportedBy, a.Status, a.Error, a.RefusedTo, a.RefusedSays, a.BlockNumber); err != nil {
		return err
	}
	if len(moved) == 1 && moved[0] == AttemptReverted {
		var kind BatchKind
		if err := tx.GetContext(ctx, &kind, `SELECT kind FROM treasury_batches WHERE id = $1`, batch); err != nil {
			return err
		}
		if err := (Tx{tx}).audit(ctx, AuditEntry{Actor: Actor{Who: a.Sender}, Action: ActionBatchExecute, Target: safe,
			Outcome: AuditOutcome{Code: OutcomeBatchReverted, Args: AuditArgs{Batch: batch, Kind: kind, TxHash: a.TxHash,
				SafeError: *a.Error}}}); err != nil {
			return err
		}
	}
	return tx.Commit()
}
