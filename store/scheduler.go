package store

import (
	"context"
	"time"
)

// Schedule is what the ledger knows of the scheduler: its last tick and the nodes it credits.
type Schedule struct {
	LastTickAt     *time.Time // nil when it never ticked
	DueNodes       int64      // nodes whose next credit is due now
	ScheduledNodes int64      // nodes with a next credit time at all
}

// Schedule reads the last tick and counts the due and scheduled nodes.
func (s *Store) Schedule(ctx context.Context) (_ Schedule, err error) {
	defer wrap(&err, "Schedule")
	var sc Schedule
	err = s.db.QueryRowContext(ctx, `
		SELECT
			(SELECT max(started_at) FROM scheduler_ticks),
			(SELECT count(*) FROM nodes WHERE next_credit_at <= now()),
			(SELECT count(*) FROM nodes WHERE next_credit_at IS NOT NULL)`,
	).Scan(&sc.LastTickAt, &sc.DueNodes, &sc.ScheduledNodes)
	return sc, err
}
