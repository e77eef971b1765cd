package store

import (
	"context"
	"time"
)

// Schedule is what the ledger knows of the scheduler: its last tick and the nodes it credits. A
// round credits every node the chain has, so nodes are due together: when the next round's time
// has come, every scheduled node is due.
type Schedule struct {
	LastTickAt     *time.Time `db:"last_tick_at"`    // nil when it never ticked
	DueNodes       int64      `db:"due_nodes"`       // the scheduled nodes when a round is due now; else 0
	ScheduledNodes int64      `db:"scheduled_nodes"` // active nodes, each credited by the next round
	NextAt         *time.Time `db:"next_at"`         // when the next round is due; nil: no node is scheduled
}

// Schedule reads the last tick and counts the due and scheduled nodes.
func (s *Store) Schedule(ctx context.Context) (_ Schedule, err error) {
	defer wrap(&err, "Schedule")
	var sc Schedule
	err = s.db.GetContext(ctx, &sc, `
		WITH scheduled AS (
			SELECT count(*) AS nodes FROM nodes WHERE status = 'active' AND next_credit_at IS NOT NULL
		)
		SELECT
			(SELECT max(started_at) FROM scheduler_ticks) AS last_tick_at,
			CASE WHEN next_at <= now() THEN nodes ELSE 0 END AS due_nodes,
			nodes AS scheduled_nodes,
			CASE WHEN nodes > 0 THEN next_at END AS next_at
		FROM scheduled, (SELECT `+nextRoundSQL+` AS next_at) s`)
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
