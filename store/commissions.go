package store

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// CommissionStatus is where a commission stands: owed until a treasury batch that pays it
// executes.
type CommissionStatus string

// The commission's statuses.
const (
	CommissionOwed CommissionStatus = "owed"
	CommissionPaid CommissionStatus = "paid"
)

// Commission is what a referrer earned of one minted payment (commissions), with the batch that
// paid it, if one executed.
// It is also the document GET /api/admin/commissions lists and the referral.* webhooks carry.
type Commission struct {
	ID        int64            `db:"id" json:"id"`
	PaymentID int64            `db:"payment_id" json:"-"`
	Payment   string           `db:"payment_tx" json:"payment"` // the payment's transaction
	Code      string           `db:"code" json:"code"`
	Referrer  string           `db:"referrer" json:"referrer"`
	Role      string           `db:"role" json:"role"` // "owner" of the code, or "parent": the partner above
	AmountWei Uint256          `db:"amount_wei" json:"amountWei"`
	Status    CommissionStatus `db:"status" json:"status"`
	PaidTx    *string          `db:"paid_tx" json:"paidTx"`
	CreatedAt string           `db:"created_at" json:"createdAt"`
}

// commissionSQL reads Commissions: a commission c with its payment and referral, and the executed
// batch that paid it, if any.
const commissionSQL = `
	SELECT c.id, c.payment_id, p.tx_hash AS payment_tx, r.code, c.referrer, c.role, c.amount_wei,
		CASE WHEN paid.tx IS NULL THEN 'owed' ELSE 'paid' END AS status, paid.tx AS paid_tx,
		api_time(c.created_at) AS created_at
	FROM commissions c
	JOIN payment_referrals r ON r.payment_id = c.payment_id
	JOIN payments p ON p.id = c.payment_id
	LEFT JOIN LATERAL (
		SELECT b.executed_tx AS tx FROM refund_batch_commissions bc JOIN refund_batches b ON b.id = bc.batch_id
		WHERE bc.commission_id = c.id AND b.status = 'executed') paid ON true`

// Commissions lists the commissions in status (every one when empty), oldest first.
func (s *Store) Commissions(ctx context.Context, status CommissionStatus) (_ []Commission, err error) {
	defer wrap(&err, "Commissions")
	out := []Commission{}
	err = s.db.SelectContext(ctx, &out, `SELECT * FROM (`+commissionSQL+`) x
		WHERE $1 = '' OR x.status = $1 ORDER BY x.id`, status)
	return out, err
}

// CodeStats is how a referral code was used: payments minted under it, what they paid, what the
// code took off their prices, and what its referrers (its owner and the partner above) are owed
// and were paid.
type CodeStats struct {
	Code        string  `db:"code"` // a partner code's spelling, or a wallet's address
	Uses        int     `db:"uses"`
	VolumeWei   Uint256 `db:"volume_wei"`
	DiscountWei Uint256 `db:"discount_wei"`
	OwedWei     Uint256 `db:"owed_wei"`
	PaidWei     Uint256 `db:"paid_wei"`
}

// ReferralStats returns every used code's figures, keyed by CodeKey of the code.
func (s *Store) ReferralStats(ctx context.Context) (_ map[string]CodeStats, err error) {
	defer wrap(&err, "ReferralStats")
	var rows []CodeStats
	err = s.db.SelectContext(ctx, &rows, `
		WITH earned AS (
			SELECT payment_id,
				coalesce(sum(amount_wei) FILTER (WHERE status = 'owed'), 0) AS owed,
				coalesce(sum(amount_wei) FILTER (WHERE status = 'paid'), 0) AS paid
			FROM (`+commissionSQL+`) x GROUP BY payment_id)
		SELECT min(r.code) AS code, count(*) AS uses, sum(p.value_wei) AS volume_wei, sum(r.discount_wei) AS discount_wei,
			coalesce(sum(e.owed), 0) AS owed_wei, coalesce(sum(e.paid), 0) AS paid_wei
		FROM payment_referrals r JOIN payments p ON p.id = r.payment_id AND p.status = 'minted'
		LEFT JOIN earned e ON e.payment_id = r.payment_id
		GROUP BY lower(r.code)`)
	out := make(map[string]CodeStats, len(rows))
	for _, r := range rows {
		out[CodeKey(r.Code)] = r
	}
	return out, err
}

// BatchKind is what a treasury batch pays: payments back to their payers, or commissions to
// referrers.
type BatchKind string

// The batch kinds (refund_batches.kind).
const (
	BatchRefunds     BatchKind = "refunds"
	BatchCommissions BatchKind = "commissions"
)

// BatchPayout is one transfer of a commission batch: a referrer paid the sum of its commissions
// in the batch.
type BatchPayout struct {
	To          string  `db:"to_address"`
	ValueWei    Uint256 `db:"value_wei"`
	Commissions []int64 `db:"-"`
}

// NotOwedCommissionError is a commission a batch cannot pay: there is none of that id, or it is
// paid.
type NotOwedCommissionError struct{ ID int64 }

func (e *NotOwedCommissionError) Error() string {
	return fmt.Sprintf("commission %d is not owed", e.ID)
}

// CommissionInBatchError is a commission already in a batch that is not void or failed.
type CommissionInBatchError struct{ ID, Batch int64 }

func (e *CommissionInBatchError) Error() string {
	return fmt.Sprintf("commission %d is already in batch %d", e.ID, e.Batch)
}

// ErrNoCommissionOwed is a batch of "all" commissions owed when none is outside a batch.
var ErrNoCommissionOwed = errors.New("no commission is owed")

// Payouts groups owed commissions into a batch's transfers: one a referrer, in the order of
// their addresses, each the sum it is owed.
func Payouts(owed []Commission) []BatchPayout {
	at := map[string]int{}
	var out []BatchPayout
	for _, c := range owed {
		i, ok := at[c.Referrer]
		if !ok {
			i = len(out)
			at[c.Referrer] = i
			out = append(out, BatchPayout{To: c.Referrer, ValueWei: Uint256{Int: new(big.Int)}})
		}
		out[i].ValueWei.Add(out[i].ValueWei.Int, c.AmountWei.Int)
		out[i].Commissions = append(out[i].Commissions, c.ID)
	}
	slices.SortFunc(out, func(a, b BatchPayout) int { return strings.Compare(a.To, b.To) })
	return out
}

// commissionBatchSQL is the batch that holds commission c, open or executed (NULL: none).
const commissionBatchSQL = `(SELECT bc.batch_id FROM refund_batch_commissions bc WHERE bc.commission_id = c.id AND bc.open)`

// OwedCommissions are the commissions a batch may pay: those of ids, or with none, every one owed
// outside a batch. One of ids that is not owed is a *NotOwedCommissionError, one in an open or
// executed batch a *CommissionInBatchError, and "all" with nothing owed ErrNoCommissionOwed.
func (s *Store) OwedCommissions(ctx context.Context, ids []int64) (_ []Commission, err error) {
	defer wrap(&err, "OwedCommissions")
	var rows []struct {
		Commission
		Batch *int64 `db:"batch"`
	}
	err = s.db.SelectContext(ctx, &rows, `
		SELECT x.*, `+commissionBatchSQL+` AS batch FROM (`+commissionSQL+`) x JOIN commissions c ON c.id = x.id
		WHERE CASE WHEN coalesce(cardinality($1::bigint[]), 0) = 0 THEN x.status = 'owed' ELSE x.id = ANY ($1) END
		ORDER BY x.id`, pq.Array(ids))
	if err != nil {
		return nil, err
	}
	var owed []Commission
	for _, r := range rows {
		switch {
		case r.Status != CommissionOwed && len(ids) > 0:
			return nil, &NotOwedCommissionError{ID: r.ID}
		case r.Batch != nil && len(ids) > 0:
			return nil, &CommissionInBatchError{ID: r.ID, Batch: *r.Batch}
		case r.Batch == nil:
			owed = append(owed, r.Commission)
		}
	}
	for _, id := range ids {
		if !slices.ContainsFunc(owed, func(c Commission) bool { return c.ID == id }) {
			return nil, &NotOwedCommissionError{ID: id}
		}
	}
	if len(owed) == 0 {
		return nil, ErrNoCommissionOwed
	}
	return owed, nil
}

// addBatchCommissions puts commissions ids in batch id, each still owed and in no open or
// executed batch (else a *CommissionInBatchError), under a lock so that two batches proposed at
// once cannot both take one.
func addBatchCommissions(ctx context.Context, q sqlx.ExtContext, id int64, ids []int64) error {
	var locked []int64
	if err := sqlx.SelectContext(ctx, q, &locked, `SELECT id FROM commissions WHERE id = ANY ($1) ORDER BY id FOR UPDATE`,
		pq.Array(ids)); err != nil {
		return err
	}
	var taken []struct {
		ID    int64 `db:"commission_id"`
		Batch int64 `db:"batch_id"`
	}
	if err := sqlx.SelectContext(ctx, q, &taken, `
		SELECT commission_id, batch_id FROM refund_batch_commissions WHERE commission_id = ANY ($1) AND open
		ORDER BY commission_id`, pq.Array(ids)); err != nil {
		return err
	}
	if len(taken) > 0 {
		return &CommissionInBatchError{ID: taken[0].ID, Batch: taken[0].Batch}
	}
	// The unique index refund_batch_commissions_once is the rule's last word.
	_, err := q.ExecContext(ctx, `
		INSERT INTO refund_batch_commissions (batch_id, commission_id) SELECT $1, unnest($2::bigint[])`, id, pq.Array(ids))
	return err
}

// batchPayouts reads the transfers of the commission batches ids, by batch.
func batchPayouts(ctx context.Context, q sqlx.QueryerContext, ids []int64) (map[int64][]BatchPayout, error) {
	var rows []struct {
		BatchID int64 `db:"batch_id"`
		Commission
	}
	if err := sqlx.SelectContext(ctx, q, &rows, `
		SELECT bc.batch_id, x.* FROM refund_batch_commissions bc JOIN (`+commissionSQL+`) x ON x.id = bc.commission_id
		WHERE bc.batch_id = ANY ($1) ORDER BY bc.batch_id, x.id`, pq.Array(ids)); err != nil {
		return nil, err
	}
	by := map[int64][]Commission{}
	for _, r := range rows {
		by[r.BatchID] = append(by[r.BatchID], r.Commission)
	}
	out := map[int64][]BatchPayout{}
	for id, cs := range by {
		out[id] = Payouts(cs)
	}
	return out, nil
}

// ReferrerStats returns what referrer earned of each code it earns from: the partner codes it
// owns or is the partner above, the codes it earned from before (an owner changed since), and,
// when walletCode, its own address as a code. Uses and volume are the code's; owed and paid are
// referrer's own part. By code.
func (s *Store) ReferrerStats(ctx context.Context, referrer string, walletCode bool) (_ []CodeStats, err error) {
	defer wrap(&err, "ReferrerStats")
	out := []CodeStats{}
	err = s.db.SelectContext(ctx, &out, `
		WITH earned AS (
			SELECT lower(x.code) AS key, min(x.code) AS code,
				coalesce(sum(x.amount_wei) FILTER (WHERE x.status = 'owed'), 0) AS owed,
				coalesce(sum(x.amount_wei) FILTER (WHERE x.status = 'paid'), 0) AS paid
			FROM (`+commissionSQL+`) x WHERE x.referrer = $1 GROUP BY lower(x.code)),
		mine AS (
			SELECT key, code FROM referral_codes WHERE owner = $1 OR parent = $1
			UNION SELECT key, code FROM earned
			UNION SELECT $1, $1 WHERE $2),
		used AS (
			SELECT lower(r.code) AS key, count(*) AS uses, sum(p.value_wei) AS volume, sum(r.discount_wei) AS discount
			FROM payment_referrals r JOIN payments p ON p.id = r.payment_id AND p.status = 'minted'
			WHERE lower(r.code) IN (SELECT key FROM mine) GROUP BY lower(r.code))
		SELECT m.code, coalesce(u.uses, 0) AS uses, coalesce(u.volume, 0) AS volume_wei, coalesce(u.discount, 0) AS discount_wei,
			coalesce(e.owed, 0) AS owed_wei, coalesce(e.paid, 0) AS paid_wei
		FROM (SELECT DISTINCT ON (key) key, code FROM mine ORDER BY key) m
		LEFT JOIN used u ON u.key = m.key LEFT JOIN earned e ON e.key = m.key
		ORDER BY m.key`, referrer, walletCode)
	return out, err
}
