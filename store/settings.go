package store

import (
	"context"
	"database/sql"
	"errors"

	"github.com/jmoiron/sqlx"
)

// mintingHeld is the setting that holds minting: payments are recorded but not minted.
const mintingHeld = "minting_held"

// MintingHeld reports whether the operator holds minting.
func (s *Store) MintingHeld(ctx context.Context) (held bool, err error) {
	defer wrap(&err, "MintingHeld")
	return Tx{s.db}.MintingHeld(ctx)
}

// MintingHeld reports whether the operator holds minting.
func (tx Tx) MintingHeld(ctx context.Context) (held bool, err error) {
	err = sqlx.GetContext(ctx, tx.q, &held, `SELECT value FROM settings WHERE name = $1`, mintingHeld)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return held, err
}

// HoldMinting holds minting (true) or lets it go on (false).
func (s *Store) HoldMinting(ctx context.Context, held bool) (err error) {
	defer wrap(&err, "HoldMinting")
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := (Tx{tx}).HoldMinting(ctx, held); err != nil {
		return err
	}
	return tx.Commit()
}

// HoldMinting holds minting (true) or lets it go on (false). A hold sends payment.held for each
// payment it keeps waiting.
func (tx Tx) HoldMinting(ctx context.Context, held bool) error {
	was, err := tx.MintingHeld(ctx)
	if err != nil {
		return err
	}
	if _, err := tx.q.ExecContext(ctx, `
		INSERT INTO settings (name, value) VALUES ($1, $2)
		ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = now()`, mintingHeld, held); err != nil {
		return err
	}
	if !held || was {
		return nil
	}
	if ok, err := wanted(ctx, tx.q, EventPaymentHeld); err != nil || !ok {
		return err
	}
	var waiting []int64
	if err := sqlx.SelectContext(ctx, tx.q, &waiting, `SELECT id FROM payments WHERE status = 'pending'`); err != nil {
		return err
	}
	return emitPayments(ctx, tx.q, EventPaymentHeld, waiting)
}
