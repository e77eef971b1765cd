package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// SignInNonce is a sign-in challenge: the message to sign is built from it.
type SignInNonce struct {
	Nonce     string    `db:"nonce"`
	Address   *string   `db:"address"` // lower case; nil when the client did not say which account signs
	IssuedAt  time.Time `db:"issued_at"`
	ExpiresAt time.Time `db:"expires_at"`
}

// PutNonce records a fresh nonce, and forgets nonces that lapsed a day ago.
func (s *Store) PutNonce(ctx context.Context, n SignInNonce) (err error) {
	defer wrap(&err, "PutNonce")
	_, err = s.db.ExecContext(ctx, `
		WITH gone AS (DELETE FROM auth_nonces WHERE expires_at < now() - interval '1 day')
		INSERT INTO auth_nonces (nonce, address, issued_at, expires_at) VALUES ($1, $2, $3, $4)`,
		n.Nonce, n.Address, n.IssuedAt, n.ExpiresAt)
	return err
}

// BurnNonce marks the nonce used and returns it, in one statement so that two attempts with the
// same nonce cannot both get it; ErrNotFound when it is unknown, used or lapsed.
func (s *Store) BurnNonce(ctx context.Context, nonce string) (_ SignInNonce, err error) {
	defer wrap(&err, "BurnNonce")
	var n SignInNonce
	err = s.db.GetContext(ctx, &n, `
		UPDATE auth_nonces SET used_at = now()
		WHERE nonce = $1 AND used_at IS NULL AND expires_at > now()
		RETURNING nonce, address, issued_at, expires_at`, nonce)
	if errors.Is(err, sql.ErrNoRows) {
		return SignInNonce{}, ErrNotFound
	}
	return n, err
}

// SignOut records that the wallet signed out now: sessions issued before are over.
func (s *Store) SignOut(ctx context.Context, address string) (err error) {
	defer wrap(&err, "SignOut")
	_, err = s.db.ExecContext(ctx, `
		INSERT INTO wallet_signouts (address, signed_out_at) VALUES ($1, clock_timestamp())
		ON CONFLICT (address) DO UPDATE SET signed_out_at = excluded.signed_out_at`, address)
	return err
}

// SignedOutAt is when the wallet last signed out; nil when it never did.
func (s *Store) SignedOutAt(ctx context.Context, address string) (_ *time.Time, err error) {
	defer wrap(&err, "SignedOutAt")
	var at time.Time
	err = s.db.GetContext(ctx, &at, `SELECT signed_out_at FROM wallet_signouts WHERE address = $1`, address)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return &at, err
}
