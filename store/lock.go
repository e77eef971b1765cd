package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
)

// Advisory lock keys of the passes: one pass of each kind runs at a time across every instance.
const (
	LockPayments  = 0x6e6c0001
	LockCredit    = 0x6e6c0002
	LockReconcile = 0x6e6c0003
)

// TryLock takes the advisory lock key for as long as the caller needs it, without waiting:
// ok is false when another session holds it. The lock lives on one connection kept aside for it
// (a session lock released on another pooled connection would release nothing), and dies with
// that connection, so a crashed process never keeps it. unlock releases it.
func (s *Store) TryLock(ctx context.Context, key int64) (unlock func(), ok bool, err error) {
	defer wrap(&err, "TryLock")
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, false, err
	}
	if err := conn.QueryRowContext(ctx, `SELECT pg_try_advisory_lock($1)`, key).Scan(&ok); err != nil || !ok {
		conn.Close()
		return nil, false, err
	}
	return func() { release(conn, key) }, true, nil
}

func release(conn *sql.Conn, key int64) {
	// If the unlock fails the connection is broken, and closing it ends the session and the lock.
	if _, err := conn.ExecContext(context.Background(), `SELECT pg_advisory_unlock($1)`, key); err != nil {
		conn.Raw(func(any) error { return driver.ErrBadConn }) // makes the pool drop it
	}
	conn.Close()
}
