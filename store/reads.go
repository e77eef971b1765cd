package store

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"time"
)

// Reads is where the public read routes read the ledger (stats, nodes, a node, distributions):
// a standby (DATABASE_READ_URL) while it is at most maxLag behind the primary, else the primary.
// The spec lets those answers lag by seconds (they are cached that long already); a session
// route, a write and a pass always use the primary.
//
// How far behind the standby is, is measured against the primary rather than read from the
// standby's replay timestamp, which stands still while the primary writes nothing and keeps
// looking fresh while the standby has lost its primary: every interval, Follow notes the
// primary's write-ahead log position and the time, and asks the standby how far it has replayed.
// Everything the primary had written at a noted time that the standby has replayed past is on
// the standby; its lag is at most the time since the newest such note.
type Reads struct {
	primary, replica *Store
	maxLag           time.Duration

	mu    sync.Mutex
	marks []walMark // the primary's positions noted, oldest first, within the last maxLag and one more
	lag   time.Duration
	known bool // lag was measured at the last note
}

// walMark is the primary's write-ahead log position at a time.
type walMark struct {
	at  time.Time
	lsn uint64
}

// NewReads reads from replica (nil: none) while it is at most maxLag behind primary; until
// Follow has measured it, from primary.
func NewReads(primary, replica *Store, maxLag time.Duration) *Reads {
	return &Reads{primary: primary, replica: replica, maxLag: maxLag}
}

// Store is the ledger to read from now.
func (r *Reads) Store() *Store {
	if lag, ok := r.Lag(); ok && lag <= r.maxLag {
		return r.replica
	}
	return r.primary
}

// Lag is how far behind the primary the replica was at the last measure; ok is false when there
// is no replica, or it could not be measured (the replica or the primary did not answer, or the
// replica is no standby: promoted, it may be a primary cut off from the others).
func (r *Reads) Lag() (lag time.Duration, ok bool) {
	if r.replica == nil {
		return 0, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lag, r.known
}

// Follow measures the replica's lag every interval until ctx ends.
func (r *Reads) Follow(ctx context.Context, every time.Duration) {
	if r.replica == nil {
		return
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		r.measure(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// measure notes the primary's position now and sets the lag from the standby's replay.
func (r *Reads) measure(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, r.maxLag)
	defer cancel()
	now := time.Now()
	lsn, err := r.primary.walPosition(ctx, `SELECT pg_current_wal_lsn()::text`)
	r.mu.Lock()
	if err == nil {
		r.marks = append(r.marks, walMark{at: now, lsn: lsn})
	}
	r.mu.Unlock()
	replayed, err := r.replica.walPosition(ctx, `SELECT pg_last_wal_replay_lsn()::text`)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.known = false
	if err != nil {
		return
	}
	newest := -1 // the newest mark the standby has replayed past
	for i, m := range r.marks {
		if m.lsn <= replayed {
			newest = i
		}
	}
	switch {
	case newest >= 0:
		r.lag, r.known = time.Since(r.marks[newest].at), true
		r.marks = r.marks[newest:] // an older mark says less
	case len(r.marks) > 0 && time.Since(r.marks[0].at) > r.maxLag:
		r.lag, r.known = time.Since(r.marks[0].at), true // more than that behind
	}
	// Marks older than maxLag past the first are not needed to tell a lag over maxLag.
	for len(r.marks) > 1 && time.Since(r.marks[1].at) > r.maxLag {
		r.marks = r.marks[1:]
	}
}

// walPosition runs query, which gives a write-ahead log position (a pg_lsn as text), and reads
// it as a number; an error for NULL (pg_last_wal_replay_lsn on a server that is no standby).
func (s *Store) walPosition(ctx context.Context, query string) (uint64, error) {
	var text sql.NullString
	if err := s.db.QueryRowContext(ctx, query).Scan(&text); err != nil {
		return 0, err
	}
	if !text.Valid {
		return 0, fmt.Errorf("no write-ahead log position: the server is no standby")
	}
	var hi, lo uint64
	if _, err := fmt.Sscanf(text.String, "%X/%X", &hi, &lo); err != nil {
		return 0, fmt.Errorf("write-ahead log position %q: %w", text.String, err)
	}
	return hi<<32 | lo, nil
}
