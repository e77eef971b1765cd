package store

import (
	"context"
	"encoding/json"
	"time"
)

// TxState is what the chain said of a transaction when it was read.
type TxState string

const (
	TxMined   TxState = "mined"   // in a block: its transfer is kept with it
	TxPending TxState = "pending" // waiting in the node's pool
	TxUnknown TxState = "unknown" // unknown to the node
)

// TxRead is a transaction's read, shared by the instances (tx_reads): its state and, mined, its
// transfer as the chain package writes it (JSON).
type TxRead struct {
	State    TxState         `db:"state"`
	Transfer json.RawMessage `db:"transfer"`
	Until    time.Time       `db:"until"` // when it is asked again
}

// TxRead returns the read of transaction hash while it is kept at now (the readers' clock, which
// wrote until); ok is false when there is none.
func (s *Store) TxRead(ctx context.Context, hash string, now time.Time) (_ TxRead, ok bool, err error) {
	defer wrap(&err, "TxRead")
	var rows []TxRead
	err = s.db.SelectContext(ctx, &rows, `SELECT state, coalesce(transfer, 'null') AS transfer, until FROM tx_reads WHERE hash = $1 AND until > $2`, hash, now)
	if err != nil || len(rows) == 0 {
		return TxRead{}, false, err
	}
	return rows[0], true, nil
}

// PutTxRead keeps r as transaction hash's read until r.Until, and forgets the reads whose time
// passed at now.
func (s *Store) PutTxRead(ctx context.Context, hash string, r TxRead, now time.Time) (err error) {
	defer wrap(&err, "PutTxRead")
	var transfer *string
	if r.Transfer != nil {
		t := string(r.Transfer)
		transfer = &t
	}
	_, err = s.db.ExecContext(ctx, `
		WITH gone AS (DELETE FROM tx_reads WHERE until < $5 AND hash <> $1)
		INSERT INTO tx_reads (hash, state, transfer, until) VALUES ($1, $2, $3, $4)
		ON CONFLICT (hash) DO UPDATE SET state = excluded.state, transfer = excluded.transfer, until = excluded.until`,
		hash, r.State, transfer, r.Until, now)
	return err
}
