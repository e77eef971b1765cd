// Package store owns the ledger's SQL: every query sits next to the method that runs it.
package store

import (
	"cmp"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

var (
	// ErrNotFound is returned when the row asked for does not exist.
	ErrNotFound = errors.New("not found")
	// ErrUnavailable marks failures of the database itself (unreachable, shutting down, timed out),
	// as opposed to a bad query: callers answer 503 and retry later.
	ErrUnavailable = errors.New("database unavailable")
)

// Store is the ledger database.
type Store struct {
	db    *sqlx.DB
	dsn   string   // what the pool connects to, for a connection of its own (Follow)
	stmts sync.Map // query text → *sqlx.Stmt, see prepared
}

// Tx runs the store's changes inside a transaction, or on the pool when the change is a single
// statement: the operator's changes are written through it so that Audited can keep each with
// its audit entry.
type Tx struct{ q sqlx.ExtContext }

// connectTimeout bounds how long a request waits for a connection to a dead database; without it
// lib/pq waits for the operating system's TCP timeout, minutes.
const connectTimeout = "2"

// Open connects to the database at dsn (a postgres:// URL or key=value string) and checks it answers.
func Open(ctx context.Context, dsn string) (*Store, error) {
	return open(ctx, dsn, nil)
}

// OpenRebuild opens a ledger written again from the chain (a rebuild's, a verify's scratch schema,
// the continuous verifier's): its commits return without waiting for the disk or a standby, a
// third of a rebuild's time when it commits a block at a time. A crash of the server loses at
// most the last moments' transactions, each whole, with the cursors that had passed them, so the
// rebuild reads those blocks again; Durable waits for everything committed before it.
func OpenRebuild(ctx context.Context, dsn string) (*Store, error) {
	return open(ctx, dsn, map[string]string{"synchronous_commit": "off"})
}

// OpenStandby is Open for the ledger's standbys (DATABASE_READ_URL), without the check that
// they answer: a standby that is down at a start must not keep the service from starting, and
// Reads sends no read to one it cannot measure.
func OpenStandby(dsn string) (*Store, error) {
	return pool(dsn, nil)
}

func open(ctx context.Context, dsn string, runtime map[string]string) (*Store, error) {
	return openIn(ctx, dsn, runtime, socketDirs)
}

// openIn is open, looking for the server's socket in dirs.
func openIn(ctx context.Context, dsn string, runtime map[string]string, dirs []string) (*Store, error) {
	// Over the socket; where it refuses (pg_hba's local lines differ from its host lines), TCP.
	if local, ok := localSocket(dsn, dirs); ok {
		if s, err := answering(ctx, local, runtime); err == nil {
			return s, nil
		}
	}
	return answering(ctx, dsn, runtime)
}

// answering is a pool over dsn whose server answered.
func answering(ctx context.Context, dsn string, runtime map[string]string) (*Store, error) {
	s, err := pool(dsn, runtime)
	if err != nil {
		return nil, err
	}
	if err := s.Ping(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// pool makes the connection pool of dsn, connecting to nothing yet.
func pool(dsn string, runtime map[string]string) (*Store, error) {
	dsn, err := hostList(dsn)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	dsn = withConnectTimeout(dsn)
	c, err := newConnector(dsn, runtime)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	db := sqlx.NewDb(sql.OpenDB(c), "postgres")
	db.SetConnMaxIdleTime(5 * time.Minute)
	s := &Store{db: db, dsn: dsn}
	s.LimitConns(DefaultMaxConns)
	return s, nil
}

// socketDirs are where PostgreSQL puts its Unix sockets: Debian's and the default build's.
var socketDirs = []string{"/var/run/postgresql", "/tmp"}

// localSocket is dsn over the server's Unix socket, when dsn is a URL for a server on this
// machine (127.0.0.1, localhost or ::1) whose socket is in one of dirs, and asks for no TLS: a request's
// queries then skip the TCP stack, the lever issue 53 §4 names for the read routes. open falls
// back to dsn when the socket refuses it.
func localSocket(dsn string, dirs []string) (string, bool) {
	u, err := url.Parse(dsn)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return "", false
	}
	q := u.Query()
	switch q.Get("sslmode") {
	case "", "disable", "allow", "prefer":
	default:
		return "", false
	}
	if q.Has("host") || q.Has("port") || !slices.Contains([]string{"127.0.0.1", "localhost", "::1"}, u.Hostname()) {
		return "", false
	}
	port := cmp.Or(u.Port(), "5432")
	for _, dir := range dirs {
		if _, err := os.Stat(filepath.Join(dir, ".s.PGSQL."+port)); err == nil {
			q.Set("host", dir)
			q.Set("port", port)
			u.Host, u.RawQuery = "", q.Encode()
			return u.String(), true
		}
	}
	return "", false
}

// DefaultMaxConns is how many connections a Store holds at most unless told (LimitConns): on a
// sale day a request waits for a connection rather than PostgreSQL refusing one past its
// max_connections (100 by default), which three instances at this limit stay under.
const DefaultMaxConns = 20

// LimitConns sets how many connections the store holds at most, all of them kept when idle.
func (s *Store) LimitConns(n int) {
	s.db.SetMaxOpenConns(n)
	s.db.SetMaxIdleConns(n)
}

// hostList rewrites a URL that names several servers (postgres://h1:5432,h2:5433/db, libpq's
// form for a primary and its standbys) into the form lib/pq reads, the servers in the query
// (postgres:///db?host=h1,h2&port=5432,5433): lib/pq splits the URL's host at its last colon,
// and would try "h1:5432" on port 5433. Any other DSN is returned as it is.
func hostList(dsn string) (string, error) {
	u, err := url.Parse(dsn)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") || !strings.Contains(u.Host, ",") {
		return dsn, nil
	}
	q := u.Query()
	if q.Has("host") || q.Has("port") {
		return "", errors.New("the URL names its servers twice, before the path and as host= or port=: name them once, " +
			"as postgres://user@host1:5432,host2:5432/db?target_session_attrs=read-write")
	}
	var hosts, ports []string
	for _, h := range strings.Split(u.Host, ",") {
		host, port, err := net.SplitHostPort(h)
		if err != nil { // no port: the default
			host, port = strings.Trim(h, "[]"), "5432"
		}
		if host == "" {
			return "", fmt.Errorf("the URL's server list %q has an empty entry: write it as host1:5432,host2:5432", u.Host)
		}
		hosts, ports = append(hosts, host), append(ports, port)
	}
	q.Set("host", strings.Join(hosts, ","))
	q.Set("port", strings.Join(ports, ","))
	u.Host, u.RawQuery = "", q.Encode()
	return u.String(), nil
}

func withConnectTimeout(dsn string) string {
	if strings.Contains(dsn, "connect_timeout") {
		return dsn
	}
	if u, err := url.Parse(dsn); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		q := u.Query()
		q.Set("connect_timeout", connectTimeout)
		u.RawQuery = q.Encode()
		return u.String()
	}
	return dsn + " connect_timeout=" + connectTimeout
}

// Durable returns once every transaction committed so far on this database is on its disk and
// on its synchronous standbys, as a commit of the live ledger's is: what a rebuild opened with
// OpenRebuild wrote is then as safe as what the service writes. A transaction that writes
// nothing waits for nothing, so it writes a mark to the write-ahead log (read by no one).
func (s *Store) Durable(ctx context.Context) (err error) {
	defer wrap(&err, "Durable")
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `SET LOCAL synchronous_commit = on`); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `SELECT pg_logical_emit_message(true, 'nodeledger', 'durable')`); err != nil {
		return err
	}
	return tx.Commit()
}

// DB is the underlying handle, for migrations and tests.
func (s *Store) DB() *sqlx.DB { return s.db }

// Close closes the connection pool.
func (s *Store) Close() error { return s.db.Close() }

// Ping reports whether the database answers.
func (s *Store) Ping(ctx context.Context) (err error) {
	defer wrap(&err, "Ping")
	return s.db.PingContext(ctx)
}

// wrap names the failing method and marks failures of the database itself with ErrUnavailable.
// It is deferred at the top of every exported method.
func wrap(err *error, method string) {
	switch {
	case *err == nil || errors.Is(*err, ErrNotFound):
	case unavailable(*err):
		*err = fmt.Errorf("store.%s: %w: %w", method, ErrUnavailable, *err)
	default:
		*err = fmt.Errorf("store.%s: %w", method, *err)
	}
}

func unavailable(err error) bool {
	var netErr net.Error
	if errors.Is(err, driver.ErrBadConn) || errors.Is(err, sql.ErrConnDone) ||
		errors.Is(err, context.DeadlineExceeded) || errors.Is(err, io.EOF) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.As(err, &netErr) {
		return true
	}
	var pqErr *pq.Error
	if !errors.As(err, &pqErr) {
		return false
	}
	switch state := pqErr.SQLState(); {
	case strings.HasPrefix(state, "08"): // connection exception
		return true
	case state == "53300", // too many connections
		state == "57014",                                     // query canceled (statement timeout)
		state == "57P01", state == "57P02", state == "57P03", // shutting down, cannot connect now
		state == "25006": // a write on a server that is no longer the primary (read-only)
		return true
	}
	return false
}

// prepared returns query as a statement prepared for the queries run most (the read routes,
// trackers' polls, the passes' per-payment steps): PostgreSQL plans a query sent unprepared anew
// each time, and planning one of the tracker's joins took 2 ms against 0.07 ms to run it (three
// quarters of the database's time on a sale day, bench/SALEDAY.md). A prepared statement is planned
// once per connection (a generic plan once five runs show it is no worse), and every run is one
// round trip instead of two. database/sql prepares it again on each connection it meets,
// including after the database restarts.
func (s *Store) prepared(ctx context.Context, query string) (*sqlx.Stmt, error) {
	if st, ok := s.stmts.Load(query); ok {
		return st.(*sqlx.Stmt), nil
	}
	st, err := s.db.PreparexContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if first, loaded := s.stmts.LoadOrStore(query, st); loaded {
		st.Close()
		return first.(*sqlx.Stmt), nil
	}
	return st, nil
}

// get runs query, prepared, for the one row dest takes.
func (s *Store) get(ctx context.Context, dest any, query string, args ...any) error {
	st, err := s.prepared(ctx, query)
	if err != nil {
		return err
	}
	return st.GetContext(ctx, dest, args...)
}

// all runs query, prepared, for the rows dest takes.
func (s *Store) all(ctx context.Context, dest any, query string, args ...any) error {
	st, err := s.prepared(ctx, query)
	if err != nil {
		return err
	}
	return st.SelectContext(ctx, dest, args...)
}

// preparedIn is query prepared, for transaction tx: database/sql reuses the statement where the
// transaction's connection has prepared it already. Until the pool has the statement, the
// transaction prepares a copy of its own, closed with it, and the pool's is prepared beside it:
// preparing for the pool takes a connection of its own, and waiting for one while tx holds one
// would wait forever on a pool whose every connection is in such a transaction (a small
// DB_MAX_CONNS, an instance started again under load).
func (s *Store) preparedIn(ctx context.Context, tx *sqlx.Tx, query string) (*sqlx.Stmt, error) {
	if st, ok := s.stmts.Load(query); ok {
		return tx.StmtxContext(ctx, st.(*sqlx.Stmt)), nil
	}
	go s.prepared(context.WithoutCancel(ctx), query) // a failure is tried again at the next use
	return tx.PreparexContext(ctx, query)
}

// getIn is get inside transaction tx.
func (s *Store) getIn(ctx context.Context, tx *sqlx.Tx, dest any, query string, args ...any) error {
	st, err := s.preparedIn(ctx, tx, query)
	if err != nil {
		return err
	}
	return st.GetContext(ctx, dest, args...)
}

// allIn is all inside transaction tx.
func (s *Store) allIn(ctx context.Context, tx *sqlx.Tx, dest any, query string, args ...any) error {
	st, err := s.preparedIn(ctx, tx, query)
	if err != nil {
		return err
	}
	return st.SelectContext(ctx, dest, args...)
}

// execIn runs query, prepared, inside transaction tx.
func (s *Store) execIn(ctx context.Context, tx *sqlx.Tx, query string, args ...any) error {
	st, err := s.preparedIn(ctx, tx, query)
	if err != nil {
		return err
	}
	_, err = st.ExecContext(ctx, args...)
	return err
}
