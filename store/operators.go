package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"slices"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// OperatorRole is what an operator may do on the operator page; each role may do what the ones
// before it may.
type OperatorRole string

// The roles, from least to most.
const (
	RoleViewer   OperatorRole = "viewer"   // sees everything
	RoleOperator OperatorRole = "operator" // runs passes, holds and resumes minting, refunds, puts tiers on or off sale
	RoleAdmin    OperatorRole = "admin"    // changes tiers' settings and the operator list
)

// Roles are the roles an operator on the list may have, in rank order.
var Roles = []OperatorRole{RoleViewer, RoleOperator, RoleAdmin}

// RoleSigner is the power of an owner of the treasury who is not on the operator list: it sees,
// approves and executes the treasury's batches, and nothing else. It comes from owning the Safe,
// never from the list, so it is no role an admin gives, and it ranks below viewer.
const RoleSigner OperatorRole = "signer"

func (r OperatorRole) rank() int {
	if r == RoleSigner {
		return 0
	}
	for i, x := range Roles {
		if x == r {
			return i + 1
		}
	}
	return -1
}

// Valid reports whether r is one of Roles: a role an admin may give.
func (r OperatorRole) Valid() bool { return slices.Contains(Roles, r) }

// AtLeast reports whether r may do what min may.
func (r OperatorRole) AtLeast(min OperatorRole) bool { return r.rank() >= 0 && r.rank() >= min.rank() }

// Operator is a wallet that may sign in on the operator page, with its role.
type Operator struct {
	Address string       `db:"address" json:"address"` // lower case
	Role    OperatorRole `db:"role" json:"role"`
}

// OperatorSession is a live operator session: whose, in which role, and the CSRF token its forms
// carry.
type OperatorSession struct {
	Address string       `db:"address"`
	Role    OperatorRole `db:"role"`
	CSRF    string       `db:"csrf_token"`
}

// Operators returns the operator list, admins first, then by address.
func (s *Store) Operators(ctx context.Context) (_ []Operator, err error) {
	defer wrap(&err, "Operators")
	var ops []Operator
	err = s.db.SelectContext(ctx, &ops, `
		SELECT address, role FROM operators
		ORDER BY array_position(ARRAY['admin', 'operator', 'viewer'], role), address`)
	return ops, err
}

// Operator returns the operator of address; ErrNotFound when the wallet is not one.
func (s *Store) Operator(ctx context.Context, address string) (_ Operator, err error) {
	defer wrap(&err, "Operator")
	return Tx{s.db}.Operator(ctx, address)
}

// Operator returns the operator of address; ErrNotFound when the wallet is not one.
func (t Tx) Operator(ctx context.Context, address string) (Operator, error) {
	var o Operator
	err := sqlx.GetContext(ctx, t.q, &o, `SELECT address, role FROM operators WHERE address = $1`, address)
	if errors.Is(err, sql.ErrNoRows) {
		return Operator{}, ErrNotFound
	}
	return o, err
}

// PutOperator adds the operator or changes their role; a changed role ends their sessions, so
// that the new role applies from the next request with a fresh sign-in.
func (t Tx) PutOperator(ctx context.Context, o Operator) error {
	if _, err := t.q.ExecContext(ctx, `DELETE FROM operator_sessions WHERE address = $1
		AND EXISTS (SELECT FROM operators WHERE address = $1 AND role <> $2)`, o.Address, o.Role); err != nil {
		return err
	}
	_, err := t.q.ExecContext(ctx, `
		INSERT INTO operators (address, role) VALUES ($1, $2)
		ON CONFLICT (address) DO UPDATE SET role = excluded.role, updated_at = now()
		WHERE operators.role <> excluded.role`, o.Address, o.Role)
	return err
}

// RemoveOperator takes the wallet off the operator list and ends its sessions; ErrNotFound when
// it was not on it.
func (t Tx) RemoveOperator(ctx context.Context, address string) error {
	res, err := t.q.ExecContext(ctx, `DELETE FROM operators WHERE address = $1`, address) // sessions cascade
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// SeedOperators makes the operator list hold ops, as the OPERATORS setting names them: each is
// added, or given its role, and marked seeded; a seeded operator the setting no longer names is
// removed. Operators added from the page are left alone. Each change is audited as by actor.
func (s *Store) SeedOperators(ctx context.Context, ops []Operator, actor Actor) (err error) {
	defer wrap(&err, "SeedOperators")
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	t := Tx{tx}
	named := make([]string, 0, len(ops))
	for _, o := range ops {
		named = append(named, o.Address)
		before, err := t.Operator(ctx, o.Address)
		if errors.Is(err, ErrNotFound) {
			err = nil
		}
		if err != nil {
			return err
		}
		if before != o {
			if err := t.PutOperator(ctx, o); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE operators SET seeded = true WHERE address = $1`, o.Address); err != nil {
			return err
		}
		if before == o {
			continue
		}
		e := AuditEntry{Actor: actor, Action: ActionOperatorPut, Target: o.Address, Outcome: AuditOutcome{Code: OutcomeOperatorSetBySetting}}
		if before.Address != "" {
			e.Before = before
		}
		e.After = o
		if err := t.audit(ctx, e); err != nil {
			return err
		}
	}
	var gone []Operator
	if err := tx.SelectContext(ctx, &gone, `
		DELETE FROM operators WHERE seeded AND address <> ALL ($1::text[]) RETURNING address, role`, pq.Array(named)); err != nil {
		return err
	}
	for _, o := range gone {
		e := AuditEntry{Actor: actor, Action: ActionOperatorRemove, Target: o.Address, Before: o,
			Outcome: AuditOutcome{Code: OutcomeOperatorRemovedBySetting}}
		if err := t.audit(ctx, e); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// StartOperatorSession records a session of the operator of address (or, signer, of an owner of
// the treasury not on the list), for the cookie's id, with the CSRF token of its forms; it lasts
// maxAge at most.
func (t Tx) StartOperatorSession(ctx context.Context, id, address, csrf string, signer bool, maxAge time.Duration) error {
	_, err := t.q.ExecContext(ctx, `
		WITH gone AS (DELETE FROM operator_sessions WHERE expires_at < now())
		INSERT INTO operator_sessions (id_hash, address, csrf_token, signer, expires_at)
		VALUES ($1, $2, $3, $4, now() + $5 * interval '1 second')`,
		sessionHash(id), address, csrf, signer, maxAge.Seconds())
	return err
}

// OperatorSession is the live session of the cookie's id, and marks it seen now, with its role
// as the operator list says it now (RoleSigner for a signer's session of a wallet not on it):
// ErrNotFound when there is none, it ended, it was idle longer than idle, it is past its expiry,
// or its operator left the list.
func (s *Store) OperatorSession(ctx context.Context, id string, idle time.Duration) (_ OperatorSession, err error) {
	defer wrap(&err, "OperatorSession")
	var o OperatorSession
	err = s.db.GetContext(ctx, &o, `
		UPDATE operator_sessions s SET last_seen_at = now()
		WHERE s.id_hash = $1 AND s.last_seen_at > now() - $2 * interval '1 second' AND s.expires_at > now()
			AND (s.signer OR EXISTS (SELECT 1 FROM operators o WHERE o.address = s.address))
		RETURNING s.address, coalesce((SELECT o.role FROM operators o WHERE o.address = s.address), 'signer') AS role, s.csrf_token`,
		sessionHash(id), idle.Seconds())
	if errors.Is(err, sql.ErrNoRows) {
		return OperatorSession{}, ErrNotFound
	}
	return o, err
}

// EndOperatorSession ends the session of the cookie's id, wherever a copy of the cookie went.
func (t Tx) EndOperatorSession(ctx context.Context, id string) error {
	_, err := t.q.ExecContext(ctx, `DELETE FROM operator_sessions WHERE id_hash = $1`, sessionHash(id))
	return err
}

// sessionHash is what the table keeps of a session id.
func sessionHash(id string) []byte {
	h := sha256.Sum256([]byte(id))
	return h[:]
}
