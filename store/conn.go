package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"maps"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lib/pq"
)

// lib/pq honours a context only by asking the server, over a second connection, to cancel the
// query; then it goes on reading the first connection until the server answers. A database that
// keeps its connections open but answers nothing (a hung host, a stalled network path) therefore
// holds a request forever, deadline or not. The driver below closes that gap: for as long as a
// call runs with a context, the end of that context also sets the connection's socket deadline,
// so the blocked read returns, lib/pq reports an error, and database/sql throws the connection
// away. Nothing else about lib/pq changes.

// connector opens lib/pq connections over sockets that a context can interrupt.
type connector struct{ cfg pq.Config }

// newConnector reads dsn and sets runtime, session settings of every connection, over it.
func newConnector(dsn string, runtime map[string]string) (*connector, error) {
	cfg, err := pq.NewConfig(dsn)
	if err != nil {
		return nil, err
	}
	// A query with parameters goes out as one message (parse, bind, execute), not a prepare and
	// then an execute: one round trip rather than two. In this mode lib/pq sends a []byte as raw
	// bytes, so a jsonb value is passed as a string.
	cfg.BinaryParameters = true
	if len(runtime) > 0 && cfg.Runtime == nil {
		cfg.Runtime = map[string]string{}
	}
	maps.Copy(cfg.Runtime, runtime)
	return &connector{cfg: cfg}, nil
}

func (c *connector) Driver() driver.Driver { return &pq.Driver{} }

func (c *connector) Connect(ctx context.Context) (driver.Conn, error) {
	// A connector per connection, so the dialer knows which socket is this connection's.
	pc, err := pq.NewConnectorConfig(c.cfg)
	if err != nil {
		return nil, err
	}
	d := &dialer{connecting: ctx}
	pc.Dialer(d)
	dc, err := pc.Connect(ctx)
	sock, ok := d.connected()
	if err != nil {
		return nil, err
	}
	if !ok {
		_ = dc.Close()
		return nil, ctx.Err()
	}
	return &conn{pq: dc, sock: sock}, nil
}

// dialer dials the sockets of one connection. While the connection is being made, the end of
// Connect's context interrupts the socket too: lib/pq bounds the handshake only by
// connect_timeout. Later dials are lib/pq's cancel requests, which connect_timeout bounds.
type dialer struct {
	mu         sync.Mutex
	connecting context.Context // nil once connected
	sock       net.Conn
	unwatch    func() bool
}

// keepAlive finds a database host that vanished (no reset, no answer) in about half a minute
// rather than the operating system's default of over two hours, so a pass blocked on it fails.
var keepAlive = net.KeepAliveConfig{Enable: true, Idle: 15 * time.Second, Interval: 5 * time.Second, Count: 3}

func (d *dialer) Dial(network, address string) (net.Conn, error) {
	return d.DialContext(context.Background(), network, address)
}

func (d *dialer) DialTimeout(network, address string, timeout time.Duration) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return d.DialContext(ctx, network, address)
}

func (d *dialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	c, err := (&net.Dialer{KeepAliveConfig: keepAlive}).DialContext(ctx, network, address)
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.connecting != nil { // lib/pq may dial twice while connecting, to retry without TLS
		if d.unwatch != nil {
			d.unwatch()
		}
		d.sock = c
		d.unwatch = context.AfterFunc(d.connecting, func() { _ = c.SetDeadline(time.Now()) })
	}
	return c, nil
}

// connected ends the connecting phase and returns the connection's socket; ok is false when
// Connect's context ended and so spent the socket's deadline.
func (d *dialer) connected() (sock net.Conn, ok bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.connecting = nil
	if d.unwatch == nil {
		return d.sock, true
	}
	return d.sock, d.unwatch()
}

// conn is a lib/pq connection whose calls end when their context does.
type conn struct {
	pq     driver.Conn
	sock   net.Conn
	broken atomic.Bool // a context ended a call: the socket's deadline is spent
}

// watch arms the socket deadline for the life of a call under ctx; the returned func disarms it.
// If the context ended first, the connection is marked broken before watch's func returns, so
// database/sql never hands it out again.
func (c *conn) watch(ctx context.Context) (done func()) {
	if ctx.Done() == nil {
		return func() {}
	}
	fired := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		c.broken.Store(true)
		_ = c.sock.SetDeadline(time.Now())
		close(fired)
	})
	return sync.OnceFunc(func() {
		if !stop() {
			<-fired
		}
	})
}

func (c *conn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

func (c *conn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	defer c.watch(ctx)()
	st, err := c.pq.(driver.ConnPrepareContext).PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	return &stmt{pq: st, conn: c}, nil
}

func (c *conn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

// BeginTx watches the transaction's context until it commits or rolls back: database/sql rolls
// back a transaction whose context ended, and that rollback must not wait on a silent server.
// lib/pq is given a context that never ends: it would cancel the COMMIT on the server when the
// context ends during it, and a COMMIT cancelled while it waits for the synchronous standby has
// committed on the primary alone (PostgreSQL warns, and the client is told it committed): a
// failover then loses what the service acted on. tx.Commit stops watching before it commits.
func (c *conn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	done := c.watch(ctx)
	t, err := c.pq.(driver.ConnBeginTx).BeginTx(context.WithoutCancel(ctx), opts)
	if err != nil {
		done()
		return nil, err
	}
	return &tx{pq: t, conn: c, done: done}, nil
}

func (c *conn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	done := c.watch(ctx)
	r, err := c.pq.(driver.QueryerContext).QueryContext(ctx, query, args)
	if err != nil {
		done()
		return nil, err
	}
	return &rows{Rows: r, done: done}, nil
}

func (c *conn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	defer c.watch(ctx)()
	return c.pq.(driver.ExecerContext).ExecContext(ctx, query, args)
}

func (c *conn) Ping(ctx context.Context) error {
	defer c.watch(ctx)()
	return c.pq.(driver.Pinger).Ping(ctx)
}

func (c *conn) ResetSession(ctx context.Context) error {
	if c.broken.Load() {
		return driver.ErrBadConn
	}
	return c.pq.(driver.SessionResetter).ResetSession(ctx)
}

func (c *conn) IsValid() bool {
	return !c.broken.Load() && c.pq.(driver.Validator).IsValid()
}

func (c *conn) CheckNamedValue(nv *driver.NamedValue) error {
	return c.pq.(driver.NamedValueChecker).CheckNamedValue(nv)
}

func (c *conn) Close() error { return c.pq.Close() }

type stmt struct {
	pq   driver.Stmt
	conn *conn
}

func (s *stmt) Close() error  { return s.pq.Close() }
func (s *stmt) NumInput() int { return s.pq.NumInput() }

func (s *stmt) Exec(args []driver.Value) (driver.Result, error) {
	return nil, errors.New("store: Stmt.Exec without a context") // database/sql always passes one
}

func (s *stmt) Query(args []driver.Value) (driver.Rows, error) {
	return nil, errors.New("store: Stmt.Query without a context")
}

func (s *stmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	defer s.conn.watch(ctx)()
	return s.pq.(driver.StmtExecContext).ExecContext(ctx, args)
}

func (s *stmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	done := s.conn.watch(ctx)
	r, err := s.pq.(driver.StmtQueryContext).QueryContext(ctx, args)
	if err != nil {
		done()
		return nil, err
	}
	return &rows{Rows: r, done: done}, nil
}

// rows keep their query's watch until closed: reading them reads the socket too.
type rows struct {
	driver.Rows
	done func()
}

func (r *rows) Close() error {
	err := r.Rows.Close()
	r.done()
	return err
}

type tx struct {
	pq   driver.Tx
	conn *conn
	done func()
}

// commitWait bounds how long a COMMIT, once sent, waits for its answer: past any context (a
// COMMIT waiting for the synchronous standby must not be cut short), but not past a connection
// that swallows what it is sent while its peer stays up (a proxy whose far side is gone answers
// the keepalive probes that find a vanished host). Past it the connection is thrown away and
// the COMMIT fails, its outcome unknown: as a crash at that instant, which every pass finishes
// from. A minute is more than a synchronous standby's switch takes.
const commitWait = time.Minute

// Commit is never cut short by the transaction's context (BeginTx): once sent, a COMMIT's answer
// is awaited for as long as the socket lives (keepAlive finds a vanished server), up to
// commitWait. database/sql refuses to start it when the context has ended already.
func (t *tx) Commit() error {
	t.done()
	give := time.AfterFunc(commitWait, func() {
		t.conn.broken.Store(true)
		_ = t.conn.sock.SetDeadline(time.Now())
	})
	defer give.Stop()
	return t.pq.Commit()
}

func (t *tx) Rollback() error {
	defer t.done()
	return t.pq.Rollback()
}
