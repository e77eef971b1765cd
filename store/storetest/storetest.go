// Package storetest gives each test a fresh, migrated database of its own on a real PostgreSQL
// (copied from a template migrated once per package, so tests run in parallel), fixtures to fill
// it, and a fault proxy to put between the code and the database (or the RPC).
package storetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/lib/pq"

	"nodeledger/migrations"
	"nodeledger/store"
	"nodeledger/store/pgdev"
)

// DefaultServerURL is the server the tests use when TEST_DATABASE_URL is unset.
const DefaultServerURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

// serverURL is the server this test package makes its databases on, set by Main.
var serverURL string

// ServerURL is the PostgreSQL server the tests make their databases on.
func ServerURL() string { return serverURL }

// Main runs the package's tests with a PostgreSQL server to make their databases on (New,
// EmptyDatabase); use it from TestMain as os.Exit(storetest.Main(m)). The server is
// TEST_DATABASE_URL; unset, the one on 127.0.0.1:5432, or when none answers there, a private
// throwaway cluster for this package.
func Main(m *testing.M) int {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	stop, err := chooseServer(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, "storetest: no PostgreSQL server for the tests (set TEST_DATABASE_URL):", err)
		return 1
	}
	defer stop()
	code := m.Run()
	if template.name != "" {
		if err := pgdev.DropDatabase(context.Background(), serverURL, template.name); err != nil {
			fmt.Fprintln(os.Stderr, "storetest:", err)
			return 1
		}
	}
	return code
}

func chooseServer(ctx context.Context) (stop func(), err error) {
	if serverURL = os.Getenv("TEST_DATABASE_URL"); serverURL != "" {
		return func() {}, nil
	}
	serverURL = DefaultServerURL
	if db, err := store.Open(ctx, serverURL); err == nil {
		db.Close()
		return func() {}, nil
	}
	dir, err := os.MkdirTemp("", "nodeledger-testpg-")
	if err != nil {
		return nil, err
	}
	cluster, err := pgdev.Start(ctx, dir)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	serverURL = cluster.URL
	return func() { cluster.Stop(); os.RemoveAll(dir) }, nil
}

// URL is the URL of db's database, for a second connection pool on it.
func URL(t testing.TB, db *store.Store) string {
	t.Helper()
	var name string
	if err := db.DB().Get(&name, `SELECT current_database()`); err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(serverURL)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// Open opens the database at url and applies the migrations.
func Open(ctx context.Context, url string) (*store.Store, error) {
	db, err := store.Open(ctx, url)
	if err != nil {
		return nil, err
	}
	if _, err := db.Migrate(ctx, migrations.FS); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// template is the package's migrated database that New copies, made by the first New.
var template struct {
	once sync.Once
	name string
	err  error
}

// New gives the test a fresh migrated ledger of its own, closed and dropped when the test ends. It
// is a copy of the package's template (CREATE DATABASE … TEMPLATE, tens of milliseconds, where
// migrating takes seconds), so tests that each take one can run in parallel.
func New(t testing.TB) *store.Store {
	t.Helper()
	db, err := Open(t.Context(), NewURL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// NewURL is New's database without opening it: its URL, for a test that opens pools of its own.
func NewURL(t testing.TB) string {
	t.Helper()
	template.once.Do(func() { template.name, template.err = makeTemplate() })
	if template.err != nil {
		t.Fatalf("storetest: no template database on %s: %v", serverURL, template.err)
	}
	return testDatabase(t, "TEMPLATE "+pq.QuoteIdentifier(template.name))
}

// makeTemplate migrates a database for New to copy, and closes it: PostgreSQL copies a template
// only while nobody is connected to it. Main drops it.
func makeTemplate() (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	name, err := randomName()
	if err != nil {
		return "", err
	}
	url, err := pgdev.CreateDatabase(ctx, serverURL, name)
	if err != nil {
		return "", err
	}
	db, err := Open(ctx, url)
	if err != nil {
		return name, err
	}
	db.Close()
	return name, nil
}

// EmptyDatabase makes an empty database for one test, dropped when the test ends, and returns its URL.
func EmptyDatabase(t testing.TB) string {
	t.Helper()
	return testDatabase(t)
}

// testDatabase makes a database for one test with CREATE DATABASE's options, dropped when the
// test ends, and returns its URL.
func testDatabase(t testing.TB, options ...string) string {
	t.Helper()
	name, err := randomName()
	if err != nil {
		t.Fatal(err)
	}
	url, err := pgdev.CreateDatabase(context.Background(), serverURL, name, options...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := pgdev.DropDatabase(context.Background(), serverURL, name); err != nil {
			t.Error(err)
		}
	})
	return url
}

func randomName() (string, error) {
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return "nodeledger_test_" + hex.EncodeToString(b), nil
}

// Reset empties every ledger table, so a test starts from a fresh deployment.
func Reset(t testing.TB, db *store.Store) {
	t.Helper()
	_, err := db.DB().Exec(`TRUNCATE tiers, payments, nodes, distributions, credits, withdrawals,
		chain_cursors, scanned_blocks, scheduler_ticks, settings, auth_nonces, wallet_signouts, outgoing_transfers, outbox, unattributed_inflows, pass_status,
		webhook_endpoints, webhook_events, webhook_deliveries, webhook_attempts, sweeps,
		treasury_batches, treasury_batch_payments, treasury_batch_approvals, treasury_batch_attempts,
		referral_codes, referral_code_versions, referral_bindings, payment_referrals, commissions, treasury_batch_commissions, head_payments, tx_reads, sanctions_follow, sanctions_changes, sanctions_answers, mint_batches, ledger_digests RESTART IDENTITY CASCADE`)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.DB().Exec(`UPDATE sweep_watch SET excess_since = NULL, over_min_since = NULL`); err != nil {
		t.Fatal(err)
	}
	// The operators' tables: TRUNCATE passes the audit's append-only trigger, which is for UPDATE
	// and DELETE.
	if _, err := db.DB().Exec(`TRUNCATE operators, operator_sessions, operator_audit RESTART IDENTITY CASCADE`); err != nil {
		t.Fatal(err)
	}
}

// Through is a ledger as the release whose last migration is last left it: an empty database
// migrated through last, closed when the test ends. The test fills it, then migrates it on.
func Through(t testing.TB, last string) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), EmptyDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if _, err := s.Migrate(context.Background(), MigrationsThrough(t, last)); err != nil {
		t.Fatal(err)
	}
	return s
}

// MigrationsThrough is the ledger's migrations up to and including last, to build a ledger as
// an older release left it.
func MigrationsThrough(t testing.TB, last string) fs.FS {
	t.Helper()
	names, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{}
	for _, name := range names {
		if name > last {
			continue
		}
		body, err := fs.ReadFile(migrations.FS, name)
		if err != nil {
			t.Fatal(err)
		}
		fsys[name] = &fstest.MapFile{Data: body}
	}
	return fsys
}

// Pair starts a primary and its synchronous standby for the test (pgdev.StartPair), stopped
// when it ends: a failover on one machine.
func Pair(t testing.TB) *pgdev.Pair {
	t.Helper()
	pair, err := pgdev.StartPair(t.Context(), clustersDir(t, "pair"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pair.Stop)
	return pair
}

// HA starts a pg_auto_failover formation for the test (pgdev.StartHA), stopped when it ends.
func HA(t testing.TB) *pgdev.HA {
	t.Helper()
	h, err := pgdev.StartHA(t.Context(), clustersDir(t, "ha"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Stop)
	return h
}

// clustersDir is a directory for the test's clusters, removed when it ends, that their user
// (postgres, when the test runs as root) can reach, as t.TempDir's cannot.
func clustersDir(t testing.TB, what string) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "nodeledger-"+what+"-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil { // #nosec G302 -- the clusters' user (postgres, under root) passes through
		t.Fatal(err)
	}
	return dir
}

// PairLedger is an empty migrated ledger on a Pair's primary, reached through the URL that names
// both, as a service that follows the primary reaches them; closed when the test ends.
func PairLedger(t testing.TB) (*store.Store, *pgdev.Pair) {
	t.Helper()
	pair := Pair(t)
	db, err := Open(t.Context(), pair.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, pair
}

// CheckSold fails t unless what the triggers keep of each tier's sales (tier_sold) is what its
// nodes and payments minting count, both read in one snapshot. A test calls it as it ends.
func CheckSold(t testing.TB, db *store.Store) {
	t.Helper()
	// The test's context is over by its cleanups.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var wrong []string
	err := db.DB().SelectContext(ctx, &wrong, `
		WITH counted AS (
			SELECT tier, sum(n) AS n FROM (
				SELECT tier, count(*) AS n FROM nodes GROUP BY tier
				UNION ALL
				SELECT tier, count(*) FROM payments WHERE status IN ('minting', 'held') AND tier IS NOT NULL GROUP BY tier
			) s GROUP BY tier
		)
		SELECT format('tier %s: kept %s, counted %s', coalesce(c.tier, k.tier), coalesce(k.n, 0), coalesce(c.n, 0))
		FROM counted c FULL JOIN tier_sold k ON k.tier = c.tier
		WHERE coalesce(k.n, 0) <> coalesce(c.n, 0)`)
	if err != nil {
		t.Errorf("storetest: check tier_sold: %v", err)
		return
	}
	for _, w := range wrong {
		t.Errorf("storetest: what a tier sold is kept wrong: %s", w)
	}
}

// PauseReplay pauses the replay of a standby and returns once it has paused: a pause is only
// asked for at first, and a write the primary makes meanwhile may still be replayed.
func PauseReplay(t testing.TB, standby *store.Store) {
	t.Helper()
	ctx := t.Context()
	if _, err := standby.DB().ExecContext(ctx, `SELECT pg_wal_replay_pause()`); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		var state string
		if err := standby.DB().GetContext(ctx, &state, `SELECT pg_get_wal_replay_pause_state()`); err != nil {
			t.Fatal(err)
		}
		if state == "paused" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the standby's replay is %s, not paused", state)
		}
	}
}
