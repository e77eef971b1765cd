package pgdev

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// HA is a pg_auto_failover formation on loopback ports (Debian's postgresql-N-auto-failover,
// pg_autoctl): a monitor and two nodes, a primary and a standby it replicates to synchronously.
// The monitor lets the standby take writes about 25 s after the primary stops answering (its
// timeouts halved, StartHA), and a node started again after a failover rejoins as the standby (pg_rewind). Each node's
// keeper and its server run in a process group of their own, so that KillPrimary takes the
// host down whole, as a crash would. It is how a failover is tried on one machine (make ha, make
// failover); production runs a monitor and each node on hosts of their own.
type HA struct {
	URL     string // both nodes, primary or not, with target_session_attrs=read-write
	Monitor string // the monitor's database: pgautofailover.node says who is primary

	dir     string
	cred    *syscall.Credential
	env     []string
	ports   map[string]int
	logs    *os.File
	mu      sync.Mutex
	keepers map[string]*exec.Cmd // by node name; nil while down
	exited  chan string          // a keeper's name when it exits
	stopped bool
}

// haNodes are the formation's two nodes, by the names pg_autoctl gives them.
var haNodes = []string{"node_1", "node_2"}

// HADatabase is the database the formation's nodes hold, as the postgres user.
const HADatabase = "ledger"

// StartHA makes a fresh formation under dir (made anew) and returns once the primary replicates
// to the standby synchronously. Its log, every keeper's, is dir/ha.log.
func StartHA(ctx context.Context, dir string) (*HA, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	if _, err := exec.LookPath("pg_autoctl"); err != nil {
		return nil, errors.New("pg_autoctl not found: install pg_auto_failover (Debian: apt-get install postgresql-15-auto-failover)")
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return nil, err
	}
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	cred, err := credential(dir)
	if err != nil {
		return nil, err
	}
	h := &HA{dir: dir, cred: cred, ports: map[string]int{}, keepers: map[string]*exec.Cmd{}, exited: make(chan string, 8)}
	// pg_autoctl keeps its configuration and state under XDG's directories: the formation's own.
	h.env = []string{"PATH=" + bin + ":" + os.Getenv("PATH"), "HOME=" + dir, "XDG_CONFIG_HOME=" + dir + "/config",
		"XDG_DATA_HOME=" + dir + "/data", "XDG_RUNTIME_DIR=" + dir + "/run"}
	if h.logs, err = os.OpenFile(filepath.Join(dir, "ha.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600); err != nil { // #nosec G304 -- the formation's log
		return nil, err
	}
	for _, name := range append([]string{"monitor"}, haNodes...) {
		if h.ports[name], err = freePort(); err != nil {
			return nil, err
		}
	}
	h.Monitor = fmt.Sprintf("postgres://autoctl_node@127.0.0.1:%d/pg_auto_failover?sslmode=disable", h.ports["monitor"])
	if err := os.WriteFile(filepath.Join(dir, "monitor.url"), []byte(h.Monitor), 0o600); err != nil {
		return nil, err
	}
	h.URL = fmt.Sprintf("postgres://postgres@127.0.0.1:%d,127.0.0.1:%d/%s?sslmode=disable&target_session_attrs=read-write",
		h.ports["node_1"], h.ports["node_2"], HADatabase)

	if err := h.keeper(ctx, "monitor", "create", "monitor", "--pgdata", h.pgdata("monitor"), "--pgport",
		strconv.Itoa(h.ports["monitor"]), "--hostname", "127.0.0.1", "--auth", "trust", "--no-ssl", "--run"); err != nil {
		h.Stop()
		return nil, err
	}
	if err := h.waitMonitor(ctx); err != nil {
		h.Stop()
		return nil, err
	}
	// The monitor's defaults let a standby take writes about 50 s after its primary died: 20 s to
	// call the primary unhealthy, then 30 s for it to demote itself. Halved, as the keepers' own
	// timeout is below (tune), a failover takes about 25 s.
	for _, stmt := range []string{
		`ALTER SYSTEM SET pgautofailover.node_considered_unhealthy_timeout = 10000`,
		`ALTER SYSTEM SET pgautofailover.primary_demote_timeout = 15000`,
		`SELECT pg_reload_conf()`,
	} {
		if err := exec1(ctx, h.serverURL("monitor"), stmt); err != nil {
			h.Stop()
			return nil, err
		}
	}
	for i, name := range haNodes {
		if err := h.keeper(ctx, name, "create", "postgres", "--pgdata", h.pgdata(name), "--pgport", strconv.Itoa(h.ports[name]),
			"--hostname", "127.0.0.1", "--name", name, "--auth", "trust", "--no-ssl", "--monitor", h.Monitor,
			"--dbname", HADatabase, "--run"); err != nil {
			h.Stop()
			return nil, err
		}
		// One at a time: the first registered is the primary, single until it has a standby.
		want := []string{"single"}
		if i > 0 {
			want = []string{"secondary"}
		}
		if err := h.waitState(ctx, name, want...); err != nil {
			h.Stop()
			return nil, err
		}
	}
	if err := h.waitState(ctx, "node_1", "primary"); err != nil {
		h.Stop()
		return nil, err
	}
	for _, name := range haNodes {
		if err := h.tune(ctx, name); err != nil {
			h.Stop()
			return nil, err
		}
	}
	return h, nil
}

// tune has node name's keeper demote its primary after 10 s without the monitor (20 by default),
// before the monitor lets the standby take writes (10 s to call the primary unhealthy, then 15 s
// to wait for it to demote itself): an old primary cut off from the others stops taking writes
// before the new one starts. (A synchronous primary cut off from its standby commits nothing
// meanwhile anyway.)
func (h *HA) tune(ctx context.Context, name string) error {
	cmd := exec.CommandContext(ctx, "pg_autoctl", "config", "set", "--pgdata", h.pgdata(name), "timeout.network_partition_timeout", "10") // #nosec G204 -- pg_autoctl with our arguments
	cmd.Env = h.env
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: h.cred}
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("pg_autoctl config set on %s: %w: %s", name, err, out)
	}
	return nil
}

func (h *HA) pgdata(name string) string { return filepath.Join(h.dir, name) }

// keeper starts pg_autoctl (args) for name, its keeper, as the servers' user, in a process group of
// its own.
func (h *HA) keeper(ctx context.Context, name string, args ...string) error {
	cmd := exec.Command("pg_autoctl", args...) // #nosec G204 -- pg_autoctl with our arguments
	cmd.Env = h.env
	cmd.Stdout, cmd.Stderr = h.logs, h.logs
	// SIGTERM when this process dies: the keeper stops its server on the way out.
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: h.cred, Setpgid: true, Pdeathsig: syscall.SIGTERM}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("pg_autoctl %s: %w", name, err)
	}
	h.mu.Lock()
	h.keepers[name] = cmd
	h.mu.Unlock()
	// Where KillPrimaryIn finds it from another process (make ha-kill).
	if err := os.WriteFile(filepath.Join(h.dir, name+".pid"), []byte(strconv.Itoa(cmd.Process.Pid)), 0o600); err != nil {
		return err
	}
	go func() {
		_ = cmd.Wait()
		h.mu.Lock()
		if h.keepers[name] == cmd {
			h.keepers[name] = nil
		}
		h.mu.Unlock()
		select {
		case h.exited <- name:
		default: // nobody supervises
		}
	}()
	return ctx.Err()
}

// waitMonitor waits until the monitor answers.
func (h *HA) waitMonitor(ctx context.Context) error {
	return h.poll(ctx, time.Minute, "the monitor to answer", func(db *sql.DB) (bool, error) {
		return true, db.PingContext(ctx)
	})
}

// waitState waits until the monitor has seen node name reach one of states, as assigned and as
// reported.
func (h *HA) waitState(ctx context.Context, name string, states ...string) error {
	return h.poll(ctx, 3*time.Minute, name+" to be "+strings.Join(states, " or "), func(db *sql.DB) (bool, error) {
		var reported, goal string
		err := db.QueryRowContext(ctx, `SELECT reportedstate, goalstate FROM pgautofailover.node WHERE nodename = $1`, name).Scan(&reported, &goal)
		if errors.Is(err, sql.ErrNoRows) {
			return false, nil
		}
		for _, s := range states {
			if reported == s && goal == s {
				return true, err
			}
		}
		// A base backup waits for a checkpoint, which the primary spreads over minutes when
		// nothing asks for one sooner: ask.
		if goal == "catchingup" || reported == "wait_standby" {
			_ = exec1(ctx, h.serverURL(h.other(name)), "CHECKPOINT")
		}
		return false, err
	})
}

// primaryOf is the node the monitor (db) has as primary, "" while it has none.
func primaryOf(ctx context.Context, db *sql.DB) (string, error) {
	var name string
	err := db.QueryRowContext(ctx, `SELECT nodename FROM pgautofailover.node WHERE reportedstate IN ('primary', 'wait_primary')
		AND goalstate IN ('primary', 'wait_primary')`).Scan(&name)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return name, err
}

// KillPrimary kills the primary node's keeper and server with SIGKILL (no shutdown, no last words
// to the standby, nobody to start them again) and returns its name. Start brings it back.
func (h *HA) KillPrimary(ctx context.Context) (string, error) {
	return KillPrimaryIn(ctx, h.dir)
}

// KillPrimaryIn is KillPrimary for the formation a process (make ha) runs under dir.
func KillPrimaryIn(ctx context.Context, dir string) (string, error) {
	monitor, err := os.ReadFile(filepath.Join(dir, "monitor.url")) // #nosec G304 -- the formation's own
	if err != nil {
		return "", fmt.Errorf("no formation runs under %s (make ha starts one): %w", dir, err)
	}
	db, err := sql.Open("postgres", string(monitor))
	if err != nil {
		return "", err
	}
	defer db.Close()
	name, err := primaryOf(ctx, db)
	if err != nil || name == "" {
		return "", fmt.Errorf("no primary to kill: %v", err)
	}
	if !slices.Contains(haNodes, name) {
		return "", fmt.Errorf("the monitor names %q primary, not a node of this formation", name)
	}
	pid, err := os.ReadFile(filepath.Join(dir, name+".pid")) // #nosec G304 G703 -- name is one of haNodes (above)
	if err != nil {
		return "", err
	}
	p, err := strconv.Atoi(string(pid))
	if err != nil {
		return "", fmt.Errorf("%s.pid: %w", name, err)
	}
	if err := syscall.Kill(-p, syscall.SIGKILL); err != nil {
		return "", fmt.Errorf("kill %s (process group %d): %w", name, p, err)
	}
	return name, nil
}

// WaitFailover waits until a node other than old is primary and takes writes.
func (h *HA) WaitFailover(ctx context.Context, old string) (string, error) {
	var now string
	err := h.poll(ctx, 3*time.Minute, "a primary other than "+old, func(db *sql.DB) (bool, error) {
		var err error
		if now, err = primaryOf(ctx, db); err != nil || now == "" || now == old {
			return false, nil
		}
		return exec1(ctx, h.serverURL(now), "CREATE TEMP TABLE ha_probe ()") == nil, nil
	})
	return now, err
}

// Start starts node name's keeper again (after KillPrimary): the monitor has it rejoin as the
// standby of whichever node is primary now, and Start returns once it does and the primary
// replicates to it synchronously again.
func (h *HA) Start(ctx context.Context, name string) error {
	if err := h.keeper(ctx, name, "run", "--pgdata", h.pgdata(name)); err != nil {
		return err
	}
	if err := h.waitState(ctx, name, "secondary"); err != nil {
		return err
	}
	return h.waitState(ctx, h.other(name), "primary")
}

// Supervise starts again every node whose keeper exits, as a service manager would, once the
// other node is primary (a node back before the monitor gave up on it would simply be primary
// again, and no failover be seen), until ctx ends or Stop. say is told what happened.
func (h *HA) Supervise(ctx context.Context, say func(string)) {
	for {
		var name string
		select {
		case <-ctx.Done():
			return
		case name = <-h.exited:
		}
		h.mu.Lock()
		stopped := h.stopped
		h.mu.Unlock()
		if stopped || name == "monitor" {
			say(name + " exited")
			continue
		}
		began := time.Now()
		say(name + " is down: waiting for the monitor to promote the other node")
		now, err := h.WaitFailover(ctx, name)
		if err != nil {
			say(err.Error())
			continue
		}
		say(fmt.Sprintf("%s is primary and takes writes, %v after %s went down; starting %s again", now, time.Since(began).Round(time.Second), name, name))
		if err := h.Start(ctx, name); err != nil {
			say(err.Error())
			continue
		}
		say(name + " is back, as the standby")
	}
}

// Stop stops every keeper (each stops its server) and waits for them.
func (h *HA) Stop() {
	h.mu.Lock()
	h.stopped = true
	var running []*exec.Cmd
	for _, name := range append(slices.Clone(haNodes), "monitor") { // the monitor last
		if cmd := h.keepers[name]; cmd != nil {
			_ = cmd.Process.Signal(syscall.SIGTERM)
			running = append(running, cmd)
		}
	}
	h.mu.Unlock()
	deadline := time.Now().Add(30 * time.Second)
	for _, cmd := range running {
		for syscall.Kill(cmd.Process.Pid, 0) == nil && time.Now().Before(deadline) {
			time.Sleep(100 * time.Millisecond)
		}
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	if h.logs != nil {
		h.logs.Close()
	}
}

func (h *HA) other(name string) string {
	if name == haNodes[0] {
		return haNodes[1]
	}
	return haNodes[0]
}

// serverURL is server name's (a node or the monitor) own URL, the postgres database.
func (h *HA) serverURL(name string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable&connect_timeout=2", h.ports[name])
}

// poll asks done, with a connection to the monitor, every 200 ms until it says so, for at most
// limit.
func (h *HA) poll(ctx context.Context, limit time.Duration, what string, done func(*sql.DB) (bool, error)) error {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	db, err := sql.Open("postgres", h.Monitor+"&connect_timeout=2")
	if err != nil {
		return err
	}
	defer db.Close()
	for {
		ok, err := done(db)
		if ok && err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waited %v for %s (see %s): %v", limit, what, h.logs.Name(), err)
		case <-time.After(200 * time.Millisecond):
		}
	}
}
