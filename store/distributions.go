package store

import (
	"context"
	"math/big"
	"time"
)

// Distribution is a round of credits.
type Distribution struct {
	ID          int64 // also the round id on chain
	TotalWei    *big.Int
	NodeCount   int
	Mode        string // fixed or pool
	FundingMode string
	Status      string // pending, confirmed or failed
	TxHash      *string
	CreatedAt   time.Time
	ConfirmedAt *time.Time
}

// Distributions returns the latest limit rounds, newest first.
func (s *Store) Distributions(ctx context.Context, limit int) (_ []Distribution, err error) {
	defer wrap(&err, "Distributions")
	return selectAll(ctx, prepared{s}, func(row scanner) (Distribution, error) {
		var d Distribution
		err := row.Scan(&d.ID, num(&d.TotalWei), &d.NodeCount, &d.Mode, &d.FundingMode, &d.Status,
			&d.TxHash, &d.CreatedAt, &d.ConfirmedAt)
		return d, err
	}, `
		SELECT id, total_wei, node_count, mode, funding_mode, status, tx_hash, created_at, confirmed_at
		FROM distributions
		ORDER BY created_at DESC, id DESC
		LIMIT $1`, limit)
}

// Stats are the protocol totals.
type Stats struct {
	TotalNodes          int64
	Operators           int64 // distinct wallets holding a node
	TotalDistributedWei *big.Int
	Distributed24hWei   *big.Int
}

// Stats counts nodes and owners and sums what confirmed rounds distributed, in all and over the
// last 24 hours.
func (s *Store) Stats(ctx context.Context) (_ Stats, err error) {
	defer wrap(&err, "Stats")
	var st Stats
	err = s.db.QueryRowContext(ctx, statsSQL).Scan(&st.TotalNodes, &st.Operators, num(&st.TotalDistributedWei), num(&st.Distributed24hWei))
	return st, err
}

const statsSQL = `
	SELECT
		(SELECT count(*) FROM nodes),
		(SELECT count(DISTINCT owner) FROM nodes),
		(SELECT coalesce(sum(total_wei), 0) FROM distributions WHERE status = 'confirmed'),
		(SELECT coalesce(sum(total_wei), 0) FROM distributions
		 WHERE status = 'confirmed' AND confirmed_at >= now() - interval '24 hours')`

// DayTotal is what confirmed rounds distributed on one UTC day.
type DayTotal struct {
	Day      time.Time
	TotalWei *big.Int
}

// DistributedPerDay returns what confirmed rounds distributed on each of the last days UTC days,
// oldest first, zero for a day without a round.
func (s *Store) DistributedPerDay(ctx context.Context, days int) (_ []DayTotal, err error) {
	defer wrap(&err, "DistributedPerDay")
	return selectAll(ctx, s.db, func(row scanner) (DayTotal, error) {
		var d DayTotal
		err := row.Scan(&d.Day, num(&d.TotalWei))
		return d, err
	}, `
		WITH days AS (
			SELECT generate_series((now() AT TIME ZONE 'UTC')::date - ($1::int - 1), (now() AT TIME ZONE 'UTC')::date, interval '1 day')::date AS day
		)
		SELECT days.day, coalesce(sum(d.total_wei), 0)
		FROM days
		LEFT JOIN distributions d
			ON d.status = 'confirmed' AND (d.confirmed_at AT TIME ZONE 'UTC')::date = days.day
		GROUP BY days.day
		ORDER BY days.day`, days)
}
