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
// use with driver.ErrBadConn. database/sql retries such a failure on another connection for pool
// queries, but not on a connection reserved with Conn, so TryLock does it itself.
func (s *Store) TryLock(ctx context.Context, key int64) (unlock func(), ok bool, err error) {
	defer wrap(&err, "TryLock")
	for attempt := 1; ; attempt++ {
		conn, err := s.db.Conn(ctx)
		if err != nil {
			return nil, false, err
		}
		err = conn.QueryRowContext(ctx, `SELECT pg_try_advisory_lock($1)`, key).Scan(&ok)
		if err == nil && ok {
			return func() { release(conn, key) }, true, nil
		}
		discard(conn, err)
		if !errors.Is(err, driver.ErrBadConn) || attempt == 3 {
			return nil, false, err
		}
	}
}

// discard gives conn back to the pool, which drops it when err says it is broken.
func discard(conn *sql.Conn, err error) {
	if errors.Is(err, driver.ErrBadConn) {
		conn.Raw(func(any) error { return driver.ErrBadConn })
	}
	conn.Close()
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
	if err != nil {
		err = driver.ErrBadConn
	}
	discard(conn, err)
}
