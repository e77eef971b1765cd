package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
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
	err = s.get(ctx, &out, `
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
	err = s.get(ctx, &holds, `SELECT EXISTS (SELECT 1 FROM nodes WHERE owner = $1)`, wallet)
	return holds, err
}

// SignIn is a wallet's Sign-In with Ethereum: the message the server gave it and its signature.
type SignIn struct {
	Message   string
	Signature []byte
}

// Bind binds wallet to code (a partner code's key, or a wallet's address) for the payments of
// the blocks after head, the chain's head now, replacing the code it had; by is the sign-in of
// the session that asked (zero: none kept), logged with the binding. It returns the instant it
// was made (the start of its second).
func (s *Store) Bind(ctx context.Context, wallet, code string, head uint64, by SignIn) (boundAt time.Time, err error) {
	defer wrap(&err, "Bind")
	var msg, sig any // NULL for none
	if by.Message != "" {
		msg, sig = by.Message, by.Signature
	}
	err = s.db.GetContext(ctx, &boundAt, `
		INSERT INTO referral_bindings (wallet, code, head_block, sign_in_message, sign_in_signature) VALUES ($1, $2, $3, $4, $5)
		RETURNING bound_at`, wallet, code, int64(head), msg, sig)
	return boundAt, err
}

// Binding is the code a wallet pays under (referral_bindings): a partner code's key, or the
// address of a wallet's own code, from BoundAt.
type Binding struct {
	Code    string    `db:"code"`
	BoundAt time.Time `db:"bound_at"`
}

// BindingAt returns the code wallet was bound to for a payment at instant at in block block
// (0: a payment yet to come, for which every binding made so far counts); ErrNotFound when none
// was. A binding counts for the payments of the blocks after the head it was made at: a wallet
// cannot bind a code to a payment already in a block. One made before bindings kept their head
// counts from the start of its second, as it did then.
func (s *Store) BindingAt(ctx context.Context, wallet string, at time.Time, block int64) (_ Binding, err error) {
	defer wrap(&err, "BindingAt")
	var b Binding
	err = s.get(ctx, &b, `
		SELECT code, bound_at FROM referral_bindings
		WHERE wallet = $1 AND CASE WHEN $3::bigint > 0 AND head_block IS NOT NULL THEN head_block < $3 ELSE bound_at <= $2 END
		ORDER BY bound_at DESC, id DESC LIMIT 1`, wallet, at, block)
	if errors.Is(err, sql.ErrNoRows) {
		return b, ErrNotFound
	}
	return b, err
}

// PaymentReferral is the code a payment bought its node under, with the terms in force at its
// block (payment_referrals): what the buyer saved, in the currency paid (base units: wei for
// ETH), and what the code's owner and the partner above it earn of what was paid.
type PaymentReferral struct {
	Code          string  `db:"code"` // a partner code's spelling, or the address of a wallet's own code
	Discount      Uint256 `db:"discount"`
	Owner         string  `db:"owner"`
	CommissionBps int     `db:"commission_bps"`
	Parent        *string `db:"parent"`
	ParentBps     *int    `db:"parent_bps"`
}

// keepPaymentReferral records the code payment id is minted under, or that it is minted under
// none (r nil): a payment judged again (after its tier sold out under it) keeps only the last
// judgement's.
func (s *Store) keepPaymentReferral(ctx context.Context, tx *sqlx.Tx, id int64, r *PaymentReferral) error {
	if r == nil {
		return s.execIn(ctx, tx, `DELETE FROM payment_referrals WHERE payment_id = $1`, id)
	}
	return s.execIn(ctx, tx, `
		INSERT INTO payment_referrals (payment_id, code, discount, owner, commission_bps, parent, parent_bps)
		VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (payment_id) DO UPDATE SET code = $2, discount = $3, owner = $4, commission_bps = $5,
			parent = $6, parent_bps = $7`,
		id, r.Code, r.Discount, r.Owner, r.CommissionBps, r.Parent, r.ParentBps)
}

// earnCommissions writes what each minted payment of ids earns its referrers, if it was bought
// under a code: floor(paid × bps / 10000) for the code's owner and for the partner above, each when not
// zero, in the currency paid (a token payment's amount, else its wei); writing them again changes
// nothing. It returns the rows it wrote.
func earnCommissions(ctx context.Context, tx sqlx.QueryerContext, payments []int64) (ids []int64, err error) {
	err = sqlx.SelectContext(ctx, tx, &ids, `
		INSERT INTO commissions (payment_id, referrer, role, amount)
		SELECT r.payment_id, e.referrer, e.role, e.amount
		FROM payment_referrals r JOIN payments p ON p.id = r.payment_id,
			LATERAL (VALUES (r.owner, 'owner', div(coalesce(p.amount, p.value_wei) * r.commission_bps, 10000)),
			                (r.parent, 'parent', div(coalesce(p.amount, p.value_wei) * r.parent_bps, 10000))) e (referrer, role, amount)
		WHERE r.payment_id = ANY ($1) AND e.referrer IS NOT NULL AND e.amount > 0
		ON CONFLICT (payment_id, role) DO NOTHING
		RETURNING id`, pq.Array(payments))
	return ids, err
}
