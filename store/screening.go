package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"io"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// ReleaseTo is what an admin's release of a held payment makes of it (payment_releases.release_to).
type ReleaseTo string

// The releases: a payment released to be minted is judged again without the screening; one
// released to be refunded is rejected for the reason it was held, and owed its refund.
const (
	ReleaseToMint   ReleaseTo = "mint"
	ReleaseToRefund ReleaseTo = "refund"
)

// Release is an admin's release of a held payment, by the payment's reference.
type Release struct {
	PaymentRef string     `db:"payment_ref" json:"paymentRef"`
	To         ReleaseTo  `db:"release_to" json:"to"`
	HeldFor    ReasonCode `db:"held_for" json:"heldFor"` // the reason it was held
	Reason     string     `db:"reason" json:"reason"`
	By         string     `db:"released_by" json:"releasedBy"`
	At         time.Time  `db:"released_at" json:"releasedAt"`
	// AfterBlock is the block up to which the ledger had judged payments when it was recorded:
	// it applies once they are judged (ApplyReleases).
	AfterBlock int64 `db:"after_block" json:"afterBlock"`
}

// ErrNotHeld is a release of a payment that is not held (never was, or released already).
var ErrNotHeld = errors.New("the payment is not held")

// ReleasePayment records r, the release of held payment id, with the hold's verdict (its reason,
// arguments and reads) and the block the payments scan stands at (releasesAfterSQL): the next
// payments pass applies it (ApplyReleases), as a rebuild does once its scan stands there. It returns the payment as it is held. ErrNotHeld when it
// is not held, or its release is recorded already; ErrNotFound when there is no such payment.
func (tx Tx) ReleasePayment(ctx context.Context, id int64, r Release) (Payment, error) {
	var p Payment
	err := sqlx.GetContext(ctx, tx.q, &p, `SELECT `+paymentColumns+` FROM payments WHERE id = $1 FOR UPDATE`, id)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return p, ErrNotFound
	case err != nil:
		return p, err
	case p.Status != PaymentHeld:
		return p, ErrNotHeld
	}
	res, err := tx.q.ExecContext(ctx, `
		INSERT INTO payment_releases (payment_ref, release_to, held_for, held_args, held_reads, reason, released_by, after_block)
		SELECT payment_ref, $2, reason_code, reason_args, judged_reads, $3, $4, `+JudgedUpToSQL+` FROM payments WHERE id = $1
		ON CONFLICT (payment_ref) DO NOTHING`, id, r.To, r.Reason, r.By)
	if err != nil {
		return p, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return p, cmp.Or(err, ErrNotHeld)
	}
	return p, nil
}

// JudgedUpToSQL is the block up to which the ledger has judged every payment: the payments
// scan's cursor, or, while payments wait to be judged (minting held, a backlog), the block before
// the first of them (-1 before any block). A release recorded now applies after it.
const JudgedUpToSQL = `least(coalesce((SELECT block_number FROM chain_cursors WHERE name = 'payments'), -1),
	coalesce((SELECT min(block_number) - 1 FROM payments WHERE status = 'pending'), 9223372036854775807))`

// JudgedUpTo is the block up to which the ledger has judged every payment (JudgedUpToSQL).
func (s *Store) JudgedUpTo(ctx context.Context) (block int64, err error) {
	defer wrap(&err, "JudgedUpTo")
	err = s.db.GetContext(ctx, &block, `SELECT `+JudgedUpToSQL)
	return block, err
}

// ApplyReleases makes the held payments whose release applies once the payments up to block upTo
// are judged pending again, for the pass to judge with their release, and emits payment.released
// for each.
func (s *Store) ApplyReleases(ctx context.Context, upTo int64) (applied int, err error) {
	defer wrap(&err, "ApplyReleases")
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	var ids []int64
	if err := tx.SelectContext(ctx, &ids, `
		UPDATE payments p SET status = 'pending', reason_code = NULL, reason_args = NULL, updated_at = now()
		FROM payment_releases r
		WHERE r.payment_ref = p.payment_ref AND p.status = 'held' AND r.after_block <= $1
		RETURNING p.id`, upTo); err != nil {
		return 0, err
	}
	if err := emitPayments(ctx, tx, EventPaymentReleased, ids); err != nil {
		return 0, err
	}
	return len(ids), tx.Commit()
}

// Releases are the releases that apply once the payments up to block upTo are judged, of the
// payments with references refs, by reference.
func (s *Store) Releases(ctx context.Context, refs []string, upTo int64) (_ map[string]Release, err error) {
	defer wrap(&err, "Releases")
	var rs []Release
	if err := s.db.SelectContext(ctx, &rs, `
		SELECT payment_ref, release_to, held_for, reason, released_by, released_at, after_block FROM payment_releases
		WHERE payment_ref = ANY ($1) AND after_block <= $2`, pq.Array(refs), upTo); err != nil {
		return nil, err
	}
	out := make(map[string]Release, len(rs))
	for _, r := range rs {
		out[r.PaymentRef] = r
	}
	return out, nil
}

// NextRelease is the first block from `from` on after which a release applies: a rebuild's scan
// stops there, so that it judges the same payments before the release as the service did; ok is
// false when there is none.
func (s *Store) NextRelease(ctx context.Context, from int64) (block int64, ok bool, err error) {
	defer wrap(&err, "NextRelease")
	var b sql.NullInt64
	err = s.db.GetContext(ctx, &b, `SELECT min(after_block) FROM payment_releases WHERE after_block >= $1`, from)
	return b.Int64, b.Valid, err
}

// HeldPayment is a payment the screening holds, and where an admin released it to, when the
// release waits for the next pass (nil: not released).
type HeldPayment struct {
	Payment
	ReleasedTo *ReleaseTo `db:"released_to"`
}

// HeldPayments are the payments the screening holds, oldest first, at most limit.
func (s *Store) HeldPayments(ctx context.Context, limit int) (_ []HeldPayment, err error) {
	defer wrap(&err, "HeldPayments")
	var ps []HeldPayment
	err = s.db.SelectContext(ctx, &ps, `
		SELECT `+paymentColumns+`,
			(SELECT release_to FROM payment_releases r WHERE r.payment_ref = payments.payment_ref) AS released_to
		FROM payments WHERE status = 'held' ORDER BY block_number, id LIMIT $1`, limit)
	return ps, err
}

// HeldCounts counts the payments the screening holds, by reason.
func (s *Store) HeldCounts(ctx context.Context) (_ map[ReasonCode]int, err error) {
	defer wrap(&err, "HeldCounts")
	var rows []struct {
		Code ReasonCode `db:"reason_code"`
		N    int        `db:"n"`
	}
	if err := s.db.SelectContext(ctx, &rows, `
		SELECT reason_code, count(*) AS n FROM payments WHERE status = 'held' GROUP BY reason_code`); err != nil {
		return nil, err
	}
	out := map[ReasonCode]int{}
	for _, r := range rows {
		out[r.Code] = r.N
	}
	return out, nil
}

// WalletReason is a wallet of an uploaded list and the operator's words for it: why it is on the
// denylist (a payer never reads it), or where it was verified (a list of verified identities).
type WalletReason struct {
	Address string `db:"address" json:"address"` // lower case
	Reason  string `db:"reason" json:"reason"`
}

// MaxDenylistReason bounds a denylist entry's reason, in bytes.
const MaxDenylistReason = 200

// ParseWalletReasons reads an upload of the denylist or of verified identities: lines of
// `address,reason` (the reason the rest of the line, up to MaxDenylistReason bytes, possibly
// empty), with an optional header `address,reason`, read as allowlists are (parseWallets).
func ParseWalletReasons(r io.Reader) ([]WalletReason, error) {
	return parseWallets(r, "reason", DenylistReason, true, func(addr, reason string) (WalletReason, bool) {
		return WalletReason{Address: addr, Reason: reason}, len(reason) <= MaxDenylistReason
	})
}

// DenylistVersion is the denylist as one upload set it.
type DenylistVersion struct {
	ID          int64     `db:"id" json:"-"`
	EffectiveAt time.Time `db:"effective_at" json:"effectiveAt"`
	CreatedBy   string    `db:"created_by" json:"createdBy"`
	Rows        int       `db:"rows" json:"rows"`
}

// ReplaceDenylist makes entries the denylist from now on, as a new version set by `by`: the
// lists before stay, for the payments made while they were in force.
func (tx Tx) ReplaceDenylist(ctx context.Context, by string, entries []WalletReason) (DenylistVersion, error) {
	v := DenylistVersion{CreatedBy: by, Rows: len(entries)}
	if err := sqlx.GetContext(ctx, tx.q, &v, `
		INSERT INTO denylist_versions (created_by) VALUES ($1) RETURNING id, effective_at, created_by`, by); err != nil {
		return v, err
	}
	v.Rows = len(entries)
	addrs, reasons := make([]string, len(entries)), make([]string, len(entries))
	for i, e := range entries {
		addrs[i], reasons[i] = e.Address, e.Reason
	}
	_, err := tx.q.ExecContext(ctx, `
		INSERT INTO denylist_entries (version, address, reason) SELECT $1, a, r FROM unnest($2::text[], $3::text[]) AS e (a, r)`,
		v.ID, pq.Array(addrs), pq.Array(reasons))
	return v, err
}

// denylistAtSQL is the id of the denylist in force at $1 (none: NULL).
const denylistAtSQL = `(SELECT id FROM denylist_versions WHERE effective_at <= $1 ORDER BY effective_at DESC, id DESC LIMIT 1)`

// Denylisted tells whether wallet was on the denylist in force at instant at.
func (s *Store) Denylisted(ctx context.Context, wallet string, at time.Time) (listed bool, err error) {
	defer wrap(&err, "Denylisted")
	err = s.get(ctx, &listed, `
		SELECT EXISTS (SELECT 1 FROM denylist_entries WHERE version = `+denylistAtSQL+` AND address = $2)`, at, wallet)
	return listed, err
}

// Denylist is the denylist in force now, by address; a zero version (and no entries) when there
// has never been one.
func (s *Store) Denylist(ctx context.Context) (_ DenylistVersion, _ []WalletReason, err error) {
	defer wrap(&err, "Denylist")
	var v DenylistVersion
	err = s.db.GetContext(ctx, &v, `
		SELECT d.id, d.effective_at, d.created_by, (SELECT count(*) FROM denylist_entries e WHERE e.version = d.id) AS rows
		FROM denylist_versions d WHERE d.effective_at <= now() ORDER BY d.effective_at DESC, d.id DESC LIMIT 1`)
	if errors.Is(err, sql.ErrNoRows) {
		return DenylistVersion{}, []WalletReason{}, nil
	}
	if err != nil {
		return v, nil, err
	}
	entries := []WalletReason{}
	err = s.db.SelectContext(ctx, &entries, `SELECT address, reason FROM denylist_entries WHERE version = $1 ORDER BY address`, v.ID)
	return v, entries, err
}
