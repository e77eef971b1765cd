package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"
)

// Verification is where the continuous verifier stands: the ledger agrees with its rebuild from
// the chain and the settings log up to VerifiedTo (nil: nothing verified yet); MismatchBlock is
// the first block where it does not (nil: none), with the events that differ there.
type Verification struct {
	VerifiedTo    *int64      `db:"verified_to"`
	MismatchBlock *int64      `db:"mismatch_block"`
	Mismatch      []EventDiff `db:"-"`
	CheckedAt     time.Time   `db:"checked_at"`
}

// Verification returns where the continuous verifier stands; the zero Verification before its
// first pass.
func (s *Store) Verification(ctx context.Context) (_ Verification, err error) {
	defer wrap(&err, "Verification")
	var v Verification
	var mismatch []byte
	err = s.db.QueryRowxContext(ctx, `SELECT verified_to, mismatch_block, mismatch, checked_at FROM ledger_verification`).
		Scan(&v.VerifiedTo, &v.MismatchBlock, &mismatch, &v.CheckedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return Verification{}, nil
	}
	if err == nil && mismatch != nil {
		err = json.Unmarshal(mismatch, &v.Mismatch)
	}
	return v, err
}

// SaveVerification records where the continuous verifier stands.
func (s *Store) SaveVerification(ctx context.Context, v Verification) (err error) {
	defer wrap(&err, "SaveVerification")
	var mismatch *string
	if v.Mismatch != nil {
		b, err := json.Marshal(v.Mismatch)
		if err != nil {
			return err
		}
		mismatch = new(string(b))
	}
	_, err = s.db.ExecContext(ctx, `
		INSERT INTO ledger_verification (verified_to, mismatch_block, mismatch, checked_at) VALUES ($1, $2, $3, now())
		ON CONFLICT (one) DO UPDATE SET verified_to = excluded.verified_to, mismatch_block = excluded.mismatch_block,
			mismatch = excluded.mismatch, checked_at = excluded.checked_at`, v.VerifiedTo, v.MismatchBlock, mismatch)
	return err
}

// LoggedDeployment is the deployment the settings log names last; ErrNotFound before any.
func (s *Store) LoggedDeployment(ctx context.Context) (_ Deployment, err error) {
	defer wrap(&err, "LoggedDeployment")
	var body []byte
	err = s.db.GetContext(ctx, &body, `SELECT body FROM settings_log WHERE kind = 'deployment' ORDER BY seq DESC LIMIT 1`)
	if errors.Is(err, sql.ErrNoRows) {
		return Deployment{}, ErrNotFound
	}
	var d Deployment
	if err == nil {
		err = json.Unmarshal(body, &d)
	}
	return d, err
}

// LastLogged is the seq of the settings log's last entry (0: none).
func (s *Store) LastLogged(ctx context.Context) (seq int64, err error) {
	defer wrap(&err, "LastLogged")
	err = s.db.GetContext(ctx, &seq, `SELECT coalesce(max(seq), 0) FROM settings_log`)
	return seq, err
}
