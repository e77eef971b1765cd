package store

import (
	"context"
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
type Commission struct {
	ID        int64            `db:"id"`
	PaymentID int64            `db:"payment_id"`
	Payment   string           `db:"payment_tx"` // the payment's transaction
	Code      string           `db:"code"`
	Referrer  string           `db:"referrer"`
	Role      string           `db:"role"` // "owner" of the code, or "parent": the partner above
	AmountWei Uint256          `db:"amount_wei"`
	Status    CommissionStatus `db:"status"`
	PaidTx    *string          `db:"paid_tx"`
	CreatedAt string           `db:"created_at"`
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
