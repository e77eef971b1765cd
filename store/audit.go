package store

import (
	"context"
	"encoding/json"
	"time"
)

// Actor is who did an operator action, and from which client address.
type Actor struct {
	Who string // an operator's address, or "admin key <fingerprint>"
	IP  string
}

// AuditAction names what an operator did; the audit stores it as written here.
type AuditAction string

const (
	ActionSignIn           AuditAction = "operator.sign-in"
	ActionSignOut          AuditAction = "operator.sign-out"
	ActionOperatorPut      AuditAction = "operator.put"
	ActionOperatorRemove   AuditAction = "operator.remove"
	ActionTierPut          AuditAction = "tier.put"
	ActionTierOnSale       AuditAction = "tier.on-sale"
	ActionTierOffSale      AuditAction = "tier.off-sale"
	ActionAllowlistPut     AuditAction = "tier.allowlist"
	ActionMintingHold      AuditAction = "minting.hold"
	ActionMintingResume    AuditAction = "minting.resume"
	ActionPassPayments     AuditAction = "pass.payments"
	ActionPassCredit       AuditAction = "pass.credit"
	ActionWebhookAdd       AuditAction = "webhook.add"
	ActionWebhookDelete    AuditAction = "webhook.delete"
	ActionWebhookRoll      AuditAction = "webhook.roll-secret"
	ActionWebhookEnable    AuditAction = "webhook.enable"
	ActionWebhookRedeliver AuditAction = "webhook.redeliver"
)

// AuditEntry is one operator action to record. Before and After are the changed value, written
// as JSON; nil for none.
type AuditEntry struct {
	Actor   Actor
	Action  AuditAction
	Target  string // which: a tier id, an address; "" for the service as a whole
	Before  any
	After   any
	Outcome string // what came of it, as the operator was told
}

// AuditRecord is an audit entry as stored.
type AuditRecord struct {
	At      time.Time   `db:"at"`
	Actor   string      `db:"actor"`
	IP      string      `db:"ip"`
	Action  AuditAction `db:"action"`
	Target  string      `db:"target"`
	Before  *string     `db:"before"` // JSON; nil for none
	After   *string     `db:"after"`
	Outcome string      `db:"outcome"`
}

// Audited runs change and writes its audit entry in one transaction: both are kept, or neither
// (a change that fails leaves no entry; an entry that cannot be written undoes the change).
// change fills in the entry's Before, After and Outcome.
func (s *Store) Audited(ctx context.Context, e AuditEntry, change func(t Tx, e *AuditEntry) error) (err error) {
	defer wrap(&err, "Audited")
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	t := Tx{tx}
	if change != nil {
		if err := change(t, &e); err != nil {
			return err
		}
	}
	if err := t.audit(ctx, e); err != nil {
		return err
	}
	return tx.Commit()
}

func (t Tx) audit(ctx context.Context, e AuditEntry) error {
	before, err := jsonOrNull(e.Before)
	if err != nil {
		return err
	}
	after, err := jsonOrNull(e.After)
	if err != nil {
		return err
	}
	_, err = t.q.ExecContext(ctx, `
		INSERT INTO operator_audit (actor, ip, action, target, before, after, outcome)
		VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		e.Actor.Who, e.Actor.IP, e.Action, e.Target, before, after, e.Outcome)
	return err
}

// jsonOrNull is v as JSON for a jsonb column; nil stays SQL NULL.
func jsonOrNull(v any) (*string, error) {
	if v == nil {
		return nil, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	s := string(b)
	return &s, nil
}

// AuditLog returns the latest limit audit records, newest first.
func (s *Store) AuditLog(ctx context.Context, limit int) (_ []AuditRecord, err error) {
	defer wrap(&err, "AuditLog")
	var rs []AuditRecord
	err = s.db.SelectContext(ctx, &rs, `
		SELECT at, actor, ip, action, target, before, after, outcome
		FROM operator_audit
		ORDER BY id DESC
		LIMIT $1`, limit)
	return rs, err
}
