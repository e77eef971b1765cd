package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"time"
)

// Advisory lock keys of the passes: one pass of each kind runs at a time across every instance.
const (
	LockPayments  = 0x6e6c0001
	LockCredit    = 0x6e6c0002
	LockReconcile = 0x6e6c0003
	LockSweep     = 0x6e6c0004
	LockVerify    = 0x6e6c0005
)

// TryLock takes the advisory lock key for as long as the caller needs it, without waiting:
// ok is false when another session holds it. The lock lives on one connection kept aside for it
// (a session lock released on another pooled connection would release nothing), and dies with
// that connection, so a crashed process never keeps it. unlock releases it.
//
// A pooled connection that the server or the network closed while it sat idle fails its first
// use: with driver.ErrBadConn when nothing was sent yet, with the socket's error ("connection
// reset by peer") when the query was. database/sql retries the first on another connection for
// pool queries, but not on a connection reserved with Conn, and never the second; yet a broken
// connection holds no lock (its session is gone), so TryLock tries another itself, until the
// pool has none left that a fault broke (each is dropped as it fails), and a new one answers.
func (s *Store) TryLock(ctx context.Context, key int64) (unlock func(), ok bool, err error) {
	defer wrap(&err, "TryLock")
	attempts := max(s.db.Stats().MaxOpenConnections, 8) + 2
	for attempt := 1; ; attempt++ {
		conn, err := s.db.Conn(ctx)
		if err != nil {
			return nil, false, err
		}
		err = conn.QueryRowContext(ctx, `SELECT pg_try_advisory_lock($1)`, key).Scan(&ok)
		if err == nil && ok {
			return func() { release(conn, key) }, true, nil
		}
		broken := err != nil && isBroken(conn, err)
		discard(conn, broken)
		if !broken || attempt == attempts || ctx.Err() != nil {
			return nil, false, err
		}
	}
}

// isBroken tells whether err left conn unusable: driver.ErrBadConn, or a socket that failed
// (lib/pq marks its connection bad then, and says so through driver.Validator).
func isBroken(conn *sql.Conn, err error) bool {
	if errors.Is(err, driver.ErrBadConn) {
		return true
	}
	broken := false
	_ = conn.Raw(func(dc any) error {
		if v, ok := dc.(driver.Validator); ok {
			broken = !v.IsValid()
		}
		return nil
	})
	return broken
}

// discard gives conn back to the pool, which drops it when it is broken.
func discard(conn *sql.Conn, broken bool) {
	if broken {
		_ = conn.Raw(func(any) error { return driver.ErrBadConn })
	}
	_ = conn.Close()
}

// unlockTimeout bounds the unlock: the pass is over, whatever its context says, but a database
// that stopped answering must not keep it waiting. Giving up is safe: the connection is closed,
// and its session's locks go with it.
const unlockTimeout = 2 * time.Second

func release(conn *sql.Conn, key int64) {
	ctx, cancel := context.WithTimeout(context.Background(), unlockTimeout)
	defer cancel()
	// If the unlock fails the connection is broken, and closing it ends the session and the lock.
	_, err := conn.ExecContext(ctx, `SELECT pg_advisory_unlock($1)`, key)
	discard(conn, err != nil)
}
