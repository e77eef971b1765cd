package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/lib/pq"
)

// KYCStatus is where a wallet's identity check stands (kyc_events.status).
type KYCStatus string

// A wallet's check is not started (none), waits for the provider's review (pending), or was
// decided: verified or rejected.
const (
	KYCNone     KYCStatus = "none"
	KYCPending  KYCStatus = "pending"
	KYCVerified KYCStatus = "verified"
	KYCRejected KYCStatus = "rejected"
)

// KYCProvider is who said a wallet's status (kyc_events.provider).
type KYCProvider string

// The providers whose webhooks the service reads, an admin's word, and a list an admin uploaded
// of wallets verified elsewhere.
const (
	KYCSumsub    KYCProvider = "sumsub"
	KYCBlockpass KYCProvider = "blockpass"
	KYCAdmin     KYCProvider = "admin"
	KYCList      KYCProvider = "list"
)

// KYCEvent is one change of a wallet's identity check.
type KYCEvent struct {
	Address  string      `db:"address" json:"address"`
	Status   KYCStatus   `db:"status" json:"status"`
	Provider KYCProvider `db:"provider" json:"provider"`
	// Event makes the entry one: a provider's webhook delivered twice is one entry (nil: none,
	// an admin's word).
	Event  *string   `db:"event" json:"-"`
	Reason *string   `db:"reason" json:"reason"` // the provider's or the admin's words; nil: none
	By     *string   `db:"by_whom" json:"by"`    // who said it, when a person did
	At     time.Time `db:"at" json:"at"`
}

// AddKYCEvents records wallets' identity checks, in one statement; an event already recorded
// (the same webhook delivered again) changes nothing. It returns how many were new.
func (tx Tx) AddKYCEvents(ctx context.Context, events []KYCEvent) (int, error) {
	n := len(events)
	addrs, statuses, providers := make([]string, n), make([]string, n), make([]string, n)
	ids, reasons, by := make([]sql.NullString, n), make([]sql.NullString, n), make([]sql.NullString, n)
	text := func(s *string) sql.NullString {
		if s == nil {
			return sql.NullString{}
		}
		return sql.NullString{String: *s, Valid: true}
	}
	for i, e := range events {
		addrs[i], statuses[i], providers[i] = e.Address, string(e.Status), string(e.Provider)
		ids[i], reasons[i], by[i] = text(e.Event), text(e.Reason), text(e.By)
	}
	res, err := tx.q.ExecContext(ctx, `
		INSERT INTO kyc_events (address, status, provider, event, reason, by_whom)
		SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
		ON CONFLICT (provider, event) DO NOTHING`,
		pq.Array(addrs), pq.Array(statuses), pq.Array(providers), pq.Array(ids), pq.Array(reasons), pq.Array(by))
	if err != nil {
		return 0, err
	}
	added, err := res.RowsAffected()
	return int(added), err
}

// AddKYCEvent records one wallet's identity check, as AddKYCEvents; added is false when it was
// recorded already.
func (s *Store) AddKYCEvent(ctx context.Context, e KYCEvent) (added bool, err error) {
	defer wrap(&err, "AddKYCEvent")
	n, err := Tx{s.db}.AddKYCEvents(ctx, []KYCEvent{e})
	return n == 1, err
}

// KYCAt is wallet's identity check as it stood at instant at: its latest event by then, or a
// zero event of status none when it had none.
func (s *Store) KYCAt(ctx context.Context, wallet string, at time.Time) (_ KYCEvent, err error) {
	defer wrap(&err, "KYCAt")
	var e KYCEvent
	err = s.get(ctx, &e, `
		SELECT address, status, provider, event, reason, by_whom, at FROM kyc_events
		WHERE address = $1 AND at <= $2 ORDER BY at DESC, id DESC LIMIT 1`, wallet, at)
	if errors.Is(err, sql.ErrNoRows) {
		return KYCEvent{Address: wallet, Status: KYCNone}, nil
	}
	return e, err
}

// KYCHistory is wallet's identity checks, newest first.
func (s *Store) KYCHistory(ctx context.Context, wallet string) (_ []KYCEvent, err error) {
	defer wrap(&err, "KYCHistory")
	events := []KYCEvent{}
	err = s.db.SelectContext(ctx, &events, `
		SELECT address, status, provider, event, reason, by_whom, at FROM kyc_events
		WHERE address = $1 ORDER BY at DESC, id DESC`, wallet)
	return events, err
}

// ResolveKYCHolds releases the payments held for an identity check whose wallet was decided by
// instant asOf (the service's now, a rebuild's scan): verified by the hold's end, to be minted;
// rejected by then, or still undecided at the end, to be refunded. Each release is the wallet's
// decision, at the instant it was made (or the hold's end), so that a rebuild makes the same one,
// and it applies after block upTo, up to which the pass that resolves it had judged payments
// when it began: ApplyReleases applies it in the same pass. It returns how many it released.
func (s *Store) ResolveKYCHolds(ctx context.Context, asOf time.Time, upTo int64) (released int, err error) {
	defer wrap(&err, "ResolveKYCHolds")
	var refs pq.StringArray
	err = s.db.SelectContext(ctx, &refs, `
		WITH held AS (
			SELECT p.payment_ref, p.from_address, p.reason_code, p.reason_args, p.judged_reads,
				(p.reason_args->>'until')::timestamptz AS until
			FROM payments p
			WHERE p.status = 'held' AND p.reason_code = 'kyc_required'
				AND NOT EXISTS (SELECT 1 FROM payment_releases r WHERE r.payment_ref = p.payment_ref)
		), decided AS (
			SELECT h.*, e.status, e.provider, e.reason AS said, e.at
			FROM held h
			LEFT JOIN LATERAL (
				SELECT status, provider, reason, at FROM kyc_events
				WHERE address = h.from_address AND at <= least(h.until, $1) ORDER BY at DESC, id DESC LIMIT 1
			) e ON true
		)
		INSERT INTO payment_releases (payment_ref, release_to, held_for, held_args, held_reads, reason, released_by, released_at, after_block)
		SELECT payment_ref,
			CASE WHEN status = 'verified' THEN 'mint' ELSE 'refund' END,
			reason_code, reason_args, judged_reads,
			CASE WHEN status = 'verified' THEN 'identity verified'
				WHEN status = 'rejected' THEN left('identity check rejected' || coalesce(': ' || said, ''), 500)
				ELSE 'identity not verified before the hold ended' END,
			CASE WHEN status IN ('verified', 'rejected') THEN 'kyc: ' || provider ELSE 'kyc: hold ended' END,
			CASE WHEN status IN ('verified', 'rejected') THEN at ELSE until END,
			$2
		FROM decided
		WHERE status IN ('verified', 'rejected') OR until <= $1
		ON CONFLICT (payment_ref) DO NOTHING
		RETURNING payment_ref`, asOf, upTo)
	return len(refs), err
}
