// Package pgdev runs a private PostgreSQL cluster for development from the machine's own PostgreSQL
// binaries (initdb, postgres), and makes and drops throwaway databases on any server.
package pgdev

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/lib/pq"
)

// Cluster is a running private cluster; Stop ends it.
type Cluster struct {
	URL  string // of the postgres database, as the postgres superuser
	cmd  *exec.Cmd
	port int
}

// Start initialises dir as a cluster when it is not one yet and runs a server on a free loopback
// port. The server dies with this process.
func Start(ctx context.Context, dir string) (*Cluster, error) {
	return start(ctx, dir, filepath.Join(dir, "server.log"))
}

// start is Start with the server's log at logPath and its settings (postgres -c name=value, …)
// added.
func start(ctx context.Context, dir, logPath string, settings ...string) (*Cluster, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	dir, err = filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	cred, err := credential(dir)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(dir, "PG_VERSION")); errors.Is(err, os.ErrNotExist) {
		if err := runAs(ctx, cred, filepath.Join(bin, "initdb"), "-D", dir, "-U", "postgres",
			"-A", "trust", "-E", "UTF8", "--no-sync"); err != nil {
			return nil, fmt.Errorf("initdb %s: %w", dir, err)
		}
	}
	// A server left over by a process that was killed keeps the cluster locked: stop it first.
	if _, err := os.Stat(filepath.Join(dir, "postmaster.pid")); err == nil {
		_ = runAs(ctx, cred, filepath.Join(bin, "pg_ctl"), "stop", "-D", dir, "-m", "immediate")
	}

	port, err := freePort()
	if err != nil {
		return nil, err
	}
	args := append([]string{"-D", dir, "-p", strconv.Itoa(port),
		"-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "fsync=off"}, settings...)
	cmd := exec.Command(filepath.Join(bin, "postgres"), args...) // #nosec G204 -- the machine's own postgres (pg_config's bindir) with our arguments
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGINT, Setpgid: true}
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600) // #nosec G304 -- our cluster's log
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start postgres: %w", err)
	}
	c := &Cluster{URL: fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port), cmd: cmd, port: port}
	if err := c.waitReady(ctx); err != nil {
		c.Stop()
		return nil, fmt.Errorf("postgres did not start (see %s): %w", logFile.Name(), err)
	}
	return c, nil
}

// Stop shuts the server down quickly and waits for it.
func (c *Cluster) Stop() error {
	if err := c.cmd.Process.Signal(syscall.SIGINT); err != nil {
		return err
	}
	return c.cmd.Wait()
}

func (c *Cluster) waitReady(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for {
		db, err := sql.Open("postgres", c.URL)
		if err == nil {
			err = db.PingContext(ctx)
			db.Close()
		}
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// binDir finds the directory holding initdb and postgres: on PATH, or Debian's
// /usr/lib/postgresql/N/bin (newest N).
func binDir() (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Dir(real), nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	return "", errors.New("no PostgreSQL server found (initdb): install it (Debian: apt-get install postgresql) or set DATABASE_URL")
}

func version(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

// credential is who runs the server: PostgreSQL refuses to run as root, so root hands the cluster
// to the postgres user.
func credential(dir string) (*syscall.Credential, error) {
	// The parents must let the server's user through to its directory.
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil { // #nosec G301 -- see above
		return nil, err
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return nil, err
	}
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, errors.New("running as root needs a postgres user to own the private cluster: create one or set DATABASE_URL")
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chown(dir, uid, gid); err != nil {
		return nil, err
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

func runAs(ctx context.Context, cred *syscall.Credential, name string, args ...string) error {
	cmd := exec.CommandContext(ctx, name, args...) // #nosec G204 -- initdb and friends, found in pg_config's bindir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%w: %s", err, out)
	}
	return nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// CreateDatabase makes a database called name on the server of serverURL, dropping any database
// of that name first, and returns its URL. It is empty unless options (CREATE DATABASE's, such
// as "TEMPLATE other") say otherwise.
func CreateDatabase(ctx context.Context, serverURL, name string, options ...string) (string, error) {
	if err := DropDatabase(ctx, serverURL, name); err != nil {
		return "", err
	}
	stmt := strings.Join(append([]string{"CREATE DATABASE", pq.QuoteIdentifier(name)}, options...), " ")
	if err := exec1(ctx, serverURL, stmt); err != nil {
		return "", err
	}
	u, err := url.Parse(serverURL)
	if err != nil {
		return "", err
	}
	u.Path = "/" + name
	return u.String(), nil
}

// DropDatabase drops the database called name, closing its connections, if it exists.
func DropDatabase(ctx context.Context, serverURL, name string) error {
	return exec1(ctx, serverURL, "DROP DATABASE IF EXISTS "+pq.QuoteIdentifier(name)+" WITH (FORCE)")
}

func exec1(ctx context.Context, serverURL, stmt string) error {
	db, err := sql.Open("postgres", serverURL)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, stmt); err != nil {
		return fmt.Errorf("%s: %w", stmt, err)
	}
	return nil
}

// Pair is a primary and a standby that streams from it synchronously, each a private cluster
// on a loopback port: a failover on one machine. URL names both, primary first, with
// target_session_attrs=read-write, as an application that follows the primary names them.
type Pair struct {
	URL              string
	Primary, Standby *Cluster
}

// StartPair makes a fresh pair under dir (primary/ and standby/, made anew): the primary with
// the standby as its synchronous standby (synchronous_commit is on by default), the standby a
// base backup of it.
func StartPair(ctx context.Context, dir string) (*Pair, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	primaryDir, standbyDir := filepath.Join(dir, "primary"), filepath.Join(dir, "standby")
	for _, d := range []string{primaryDir, standbyDir} {
		if err := os.RemoveAll(d); err != nil {
			return nil, err
		}
	}
	// The logs beside the data directories: a base backup copies the primary's directory, as its
	// user, and a log the test's user wrote is not theirs to read.
	primary, err := start(ctx, primaryDir, primaryDir+".log", "-c", "wal_level=replica", "-c", "max_wal_senders=4")
	if err != nil {
		return nil, err
	}
	cred, err := credential(standbyDir) // empty, the cluster's user's: pg_basebackup fills it
	if err != nil {
		primary.Stop()
		return nil, err
	}
	if err := runAs(ctx, cred, filepath.Join(bin, "pg_basebackup"), "-d", primary.URL+"&application_name=standby",
		"-D", standbyDir, "-R", "-X", "stream", "--no-sync"); err != nil {
		primary.Stop()
		return nil, fmt.Errorf("pg_basebackup: %w", err)
	}
	standby, err := start(ctx, standbyDir, standbyDir+".log", "-c", "hot_standby=on")
	if err != nil {
		primary.Stop()
		return nil, err
	}
	p := &Pair{Primary: primary, Standby: standby,
		URL: fmt.Sprintf("postgres://postgres@127.0.0.1:%d,127.0.0.1:%d/postgres?sslmode=disable&target_session_attrs=read-write",
			primary.port, standby.port)}
	// Synchronous from now on, set as ALTER SYSTEM would (a test may change it so), after the base
	// backup: a promoted standby that inherited it would wait for a standby of its own.
	for _, stmt := range []string{`ALTER SYSTEM SET synchronous_standby_names = 'standby'`, `SELECT pg_reload_conf()`} {
		if err := exec1(ctx, primary.URL, stmt); err != nil {
			p.Stop()
			return nil, err
		}
	}
	if err := p.waitSync(ctx); err != nil {
		p.Stop()
		return nil, err
	}
	return p, nil
}

// waitSync waits until the primary streams to the standby synchronously.
func (p *Pair) waitSync(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	db, err := sql.Open("postgres", p.Primary.URL)
	if err != nil {
		return err
	}
	defer db.Close()
	for {
		var state string
		err := db.QueryRowContext(ctx, `SELECT sync_state FROM pg_stat_replication WHERE application_name = 'standby'`).Scan(&state)
		if err == nil && state == "sync" {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("the standby is not streaming synchronously (%q): %w", state, err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Failover kills the primary (SIGKILL: no shutdown, no last words to the standby) and promotes
// the standby, and returns once it takes writes.
func (p *Pair) Failover(ctx context.Context) error {
	if err := syscall.Kill(-p.Primary.cmd.Process.Pid, syscall.SIGKILL); err != nil {
		return err
	}
	_ = p.Primary.cmd.Wait()
	db, err := sql.Open("postgres", p.Standby.URL)
	if err != nil {
		return err
	}
	defer db.Close()
	var promoted bool
	if err := db.QueryRowContext(ctx, `SELECT pg_promote(true, 30)`).Scan(&promoted); err != nil || !promoted {
		return fmt.Errorf("promote the standby: %v, %w", promoted, err)
	}
	return nil
}

// Stop stops whichever of the two still runs.
func (p *Pair) Stop() {
	for _, c := range []*Cluster{p.Primary, p.Standby} {
		if c != nil && c.cmd.ProcessState == nil {
			_ = c.Stop()
		}
	}
}
