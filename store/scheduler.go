package store

import (
	"context"
	"time"
)

// Schedule is what the ledger knows of the scheduler: its last tick and the nodes it credits.
type Schedule struct {
	LastTickAt     *time.Time `db:"last_tick_at"`    // nil when it never ticked
	DueNodes       int64      `db:"due_nodes"`       // nodes whose next credit is due now
	ScheduledNodes int64      `db:"scheduled_nodes"` // nodes with a next credit time at all
}

// Schedule reads the last tick and counts the due and scheduled nodes.
func (s *Store) Schedule(ctx context.Context) (_ Schedule, err error) {
	defer wrap(&err, "Schedule")
	var sc Schedule
	err = s.db.GetContext(ctx, &sc, `
		SELECT
			(SELECT max(started_at) FROM scheduler_ticks) AS last_tick_at,
			(SELECT count(*) FROM nodes WHERE next_credit_at <= now()) AS due_nodes,
			(SELECT count(*) FROM nodes WHERE next_credit_at IS NOT NULL) AS scheduled_nodes`)
	return sc, err
}

// StartTick records that a scheduler tick began and returns its id.
func (s *Store) StartTick(ctx context.Context) (_ int64, err error) {
	defer wrap(&err, "StartTick")
	var id int64
	err = s.db.GetContext(ctx, &id, `INSERT INTO scheduler_ticks DEFAULT VALUES RETURNING id`)
	return id, err
}

// FinishTick records the end of tick id and what its passes did (a JSON document).
func (s *Store) FinishTick(ctx context.Context, id int64, summary []byte) (err error) {
	defer wrap(&err, "FinishTick")
	_, err = s.db.ExecContext(ctx, `UPDATE scheduler_ticks SET finished_at = now(), summary = $2 WHERE id = $1`, id, summary)
	return err
}
