package store

import (
	"context"
	"database/sql"
)

// Replication is what the primary says of its standbys (pg_stat_replication), for health: a
// write is safe from a failover only once a synchronous standby has it.
type Replication struct {
	// Known is false when the database's user may not read its standbys' states (neither a
	// superuser nor a member of pg_monitor): nothing is said of them then.
	Known bool
	// Synchronous counts the standbys streaming synchronously (sync or quorum); Standbys all.
	Synchronous, Standbys int
	// MaxReplayLagSec is the longest a standby takes to replay what the primary wrote (0: none
	// behind, or no standby).
	MaxReplayLagSec float64
}

// Replication reads the primary's standbys.
func (s *Store) Replication(ctx context.Context) (r Replication, err error) {
	defer wrap(&err, "Replication")
	var lag sql.NullFloat64
	err = s.db.QueryRowContext(ctx, `
		SELECT pg_has_role(current_user, 'pg_monitor', 'USAGE') OR (SELECT rolsuper FROM pg_roles WHERE rolname = current_user),
			count(*) FILTER (WHERE sync_state IN ('sync', 'quorum')), count(*),
			max(extract(epoch FROM replay_lag))
		FROM pg_stat_replication`).Scan(&r.Known, &r.Synchronous, &r.Standbys, &lag)
	r.MaxReplayLagSec = lag.Float64
	return r, err
}
