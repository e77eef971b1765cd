package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
)

// ErrCodeTaken: a referral code of that name exists already, in some spelling.
var ErrCodeTaken = errors.New("referral code taken")

// ReferralCode is a partner code's terms (referral_codes). ParentBps is set exactly when Parent is.
type ReferralCode struct {
	Code          string     `db:"code"`
	Owner         string     `db:"owner"`
	DiscountBps   int        `db:"discount_bps"`
	CommissionBps int        `db:"commission_bps"`
	Parent        *string    `db:"parent"`
	ParentBps     *int       `db:"parent_bps"`
	ExpiresAt     *time.Time `db:"expires_at"`
	Enabled       bool       `db:"enabled"`
}

// ValidAt says whether the code gives its discount at t: switched on and not yet expired.
func (r ReferralCode) ValidAt(t time.Time) bool {
	return r.Enabled && (r.ExpiresAt == nil || t.Before(*r.ExpiresAt))
}

// CodeKey is how a code is looked up: codes are case-insensitive.
func CodeKey(code string) string { return strings.ToLower(code) }

const referralCodeColumns = `code, owner, discount_bps, commission_bps, parent, parent_bps, expires_at, enabled`

// AddReferralCode stores a new code, as by; ErrCodeTaken when its name is taken in any case.
func (tx Tx) AddReferralCode(ctx context.Context, r ReferralCode, by string) (_ ReferralCode, err error) {
	defer wrap(&err, "AddReferralCode")
	var out ReferralCode
	err = sqlx.GetContext(ctx, tx.q, &out, `
		INSERT INTO referral_codes (key, code, owner, discount_bps, commission_bps, parent, parent_bps, expires_at, enabled,
			created_by, updated_by)
		VALUES (lower($1), $1, $2, $3, $4, $5, $6, $7, $8, $9, $9)
		ON CONFLICT (key) DO NOTHING
		RETURNING `+referralCodeColumns,
		r.Code, r.Owner, r.DiscountBps, r.CommissionBps, r.Parent, r.ParentBps, r.ExpiresAt, r.Enabled, by)
	if errors.Is(err, sql.ErrNoRows) {
		return ReferralCode{}, ErrCodeTaken
	}
	return out, err
}

// PutReferralCode replaces every term of the code named key (any case), as by, from this second;
// the code keeps the spelling it was made with. It returns the code before and after; ErrNotFound
// when there is none.
func (tx Tx) PutReferralCode(ctx context.Context, key string, r ReferralCode, by string) (before, after ReferralCode, err error) {
	defer wrap(&err, "PutReferralCode")
	err = sqlx.GetContext(ctx, tx.q, &before, `SELECT `+referralCodeColumns+` FROM referral_codes WHERE key = lower($1) FOR UPDATE`, key)
	if errors.Is(err, sql.ErrNoRows) {
		return before, after, ErrNotFound
	}
	if err != nil {
		return before, after, err
	}
	err = sqlx.GetContext(ctx, tx.q, &after, `
		UPDATE referral_codes SET owner = $2, discount_bps = $3, commission_bps = $4, parent = $5, parent_bps = $6,
			expires_at = $7, enabled = $8, updated_by = $9, updated_at = now()
		WHERE key = lower($1)
		RETURNING `+referralCodeColumns,
		key, r.Owner, r.DiscountBps, r.CommissionBps, r.Parent, r.ParentBps, r.ExpiresAt, r.Enabled, by)
	return before, after, err
}

// ReferralCodes lists the partner codes, by name.
func (s *Store) ReferralCodes(ctx context.Context) (_ []ReferralCode, err error) {
	defer wrap(&err, "ReferralCodes")
	out := []ReferralCode{}
	err = s.db.SelectContext(ctx, &out, `SELECT `+referralCodeColumns+` FROM referral_codes ORDER BY key`)
	return out, err
}

// ReferralCode returns the code named code (any case) as it is now; ErrNotFound when there is none.
func (s *Store) ReferralCode(ctx context.Context, code string) (_ ReferralCode, err error) {
	defer wrap(&err, "ReferralCode")
	var out ReferralCode
	err = s.db.GetContext(ctx, &out, `SELECT `+referralCodeColumns+` FROM referral_codes WHERE key = lower($1)`, code)
	if errors.Is(err, sql.ErrNoRows) {
		return out, ErrNotFound
	}
	return out, err
}

// ReferralCodeAt returns the code's terms in force at t (a payment's block time), as
// referral_code_versions keeps them; ErrNotFound when the code did not exist yet.
func (s *Store) ReferralCodeAt(ctx context.Context, code string, t time.Time) (_ ReferralCode, err error) {
	defer wrap(&err, "ReferralCodeAt")
	var out ReferralCode
	err = s.db.GetContext(ctx, &out, `
		SELECT c.code, v.owner, v.discount_bps, v.commission_bps, v.parent, v.parent_bps, v.expires_at, v.enabled
		FROM referral_code_versions v JOIN referral_codes c USING (key)
		WHERE v.key = lower($1) AND v.effective_at <= $2
		ORDER BY v.effective_at DESC, v.id DESC LIMIT 1`, code, t)
	if errors.Is(err, sql.ErrNoRows) {
		return out, ErrNotFound
	}
	return out, err
}

// HoldsNode says whether the wallet holds at least one node, which makes its address a code.
func (s *Store) HoldsNode(ctx context.Context, wallet string) (_ bool, err error) {
	defer wrap(&err, "HoldsNode")
	var holds bool
	err = s.db.GetContext(ctx, &holds, `SELECT EXISTS (SELECT 1 FROM nodes WHERE owner = $1)`, wallet)
	return holds, err
}
