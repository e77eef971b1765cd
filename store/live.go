package store

import (
	"context"
	"database/sql"
	"time"
)

// LiveMinutes is how many minutes back the live view counts payments, minute by minute.
const LiveMinutes = 60

// SaleLive is the sale as the operator watches it while it runs: the last hour's payments minute
// by minute, the mint queue, the rejections and the refunds owed. Every figure reads an index over
// a bounded range or the rows still waiting, never the whole ledger (migration 0017).
type SaleLive struct {
	// From is the start of the first of the LiveMinutes minutes; PerMinute counts the payments
	// made (by their block's time) in each, oldest first, the last being the minute under way
	// (and any block stamped later than now).
	From      time.Time
	PerMinute []int
	// MintedLastHour counts the nodes recorded in the hour before the reading.
	MintedLastHour int `db:"minted_last_hour"`
	// The mint queue: payments recorded and not checked yet, and those whose mint is sent and not
	// mined yet; when the oldest of them was made; and the fee bumps of those mints so far (the
	// versions signed at a nonce that had one already).
	Pending         int        `db:"pending"`
	Minting         int        `db:"minting"`
	OldestWaitingAt *time.Time `db:"oldest_waiting_at"`
	Bumps           int        `db:"bumps"`
	// Held: the payments the screening holds (neither minted nor owed a refund).
	Held int `db:"held"`
	// The rejected payments not refunded yet, and what they paid.
	RefundsOwed    int     `db:"refunds_owed"`
	RefundsOwedWei Uint256 `db:"refunds_owed_wei"`
	// Rejections by reason, in no order (the page orders them by the sale's catalogue); a code no
	// payment was rejected for is absent.
	Rejections []Rejections
}

// Rejections counts the payments rejected for one reason: those made in the last hour, and all.
type Rejections struct {
	Code     ReasonCode `db:"code"`
	LastHour int        `db:"last_hour"`
	All      int        `db:"all_time"`
}

// SaleLive reads the live view as of now.
func (s *Store) SaleLive(ctx context.Context, now time.Time) (_ SaleLive, err error) {
	defer wrap(&err, "SaleLive")
	from := now.Truncate(time.Minute).Add(-(LiveMinutes - 1) * time.Minute)
	hourAgo := now.Add(-time.Hour)
	// One snapshot, so that a payment moving along the queue between two queries is counted once.
	tx, err := s.db.BeginTxx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		return SaleLive{}, err
	}
	defer tx.Rollback()
	live := SaleLive{From: from, PerMinute: make([]int, LiveMinutes)}
	var minutes []struct {
		Minute int `db:"minute"`
		N      int `db:"n"`
	}
	// A block stamped ahead of this server's clock counts in the minute under way: the chain's
	// clock and ours differ by seconds on a real network, and a dev chain that seals more than a
	// block a second runs ahead of it.
	err = tx.SelectContext(ctx, &minutes, `
		SELECT least(floor(extract(epoch FROM block_time - $1) / 60)::int, $2) AS minute, count(*) AS n
		FROM payments WHERE block_time >= $1
		GROUP BY 1`, from, LiveMinutes-1)
	if err != nil {
		return SaleLive{}, err
	}
	for _, m := range minutes {
		live.PerMinute[m.Minute] = m.N
	}
	err = tx.GetContext(ctx, &live, `
		WITH waiting AS (
			SELECT id, status, coalesce(block_time, created_at) AS at FROM payments
			WHERE status IN ('pending', 'minting')
		)
		SELECT
			(SELECT count(*) FROM nodes WHERE created_at >= $1) AS minted_last_hour,
			(SELECT count(*) FROM waiting WHERE status = 'pending') AS pending,
			(SELECT count(*) FROM waiting WHERE status = 'minting') AS minting,
			(SELECT min(at) FROM waiting) AS oldest_waiting_at,
			(SELECT count(*) - count(DISTINCT (o.sender, o.nonce)) FROM outbox o
			 WHERE o.mint_batch IN (SELECT mint_batch FROM payments WHERE status = 'minting')) AS bumps,
			(SELECT count(*) FROM payments WHERE status = 'held') AS held,
			r.refunds_owed, r.refunds_owed_wei
		FROM (SELECT count(*) AS refunds_owed, coalesce(sum(value_wei), 0) AS refunds_owed_wei
			FROM payments WHERE status = 'rejected') r`, hourAgo)
	if err != nil {
		return SaleLive{}, err
	}
	var rejections []Rejections
	err = tx.SelectContext(ctx, &rejections, `
		SELECT reason_code AS code, count(*) FILTER (WHERE block_time >= $1) AS last_hour, count(*) AS all_time
		FROM payments WHERE reason_code IS NOT NULL AND status <> 'held'
		GROUP BY reason_code`, hourAgo)
	if err != nil {
		return SaleLive{}, err
	}
	live.Rejections = rejections
	return live, tx.Commit()
}

// NodeCount counts the nodes in the ledger. It reads every node: the live view keeps it a while
// (handlers' saleTotals) rather than count at every refresh.
func (s *Store) NodeCount(ctx context.Context) (n int64, err error) {
	defer wrap(&err, "NodeCount")
	err = s.db.GetContext(ctx, &n, `SELECT count(*) FROM nodes`)
	return n, err
}

// PaymentFlow is how payments move now, for the public status: how long after it confirmed
// (the scan recorded it) each payment minted since a time was minted, at the median, and since
// when the oldest payment still waiting to be minted has waited.
type PaymentFlow struct {
	Minted          int        `db:"minted"`            // nodes minted for payments since
	MintDelaySec    *float64   `db:"mint_delay_sec"`    // their median delay; nil: none minted
	OldestWaitingAt *time.Time `db:"oldest_waiting_at"` // nil: none waits
}

// PaymentFlow reads the flow of the payments minted since since (an index each: nodes by
// creation, payments by status).
func (s *Store) PaymentFlow(ctx context.Context, since time.Time) (_ PaymentFlow, err error) {
	defer wrap(&err, "PaymentFlow")
	var f PaymentFlow
	err = s.db.GetContext(ctx, &f, `
		SELECT count(*) AS minted,
			percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM n.created_at - p.created_at)) AS mint_delay_sec,
			(SELECT min(created_at) FROM payments WHERE status IN ('pending', 'minting')) AS oldest_waiting_at
		FROM nodes n JOIN payments p ON p.id = n.payment_id
		WHERE n.created_at > $1`, since)
	return f, err
}
