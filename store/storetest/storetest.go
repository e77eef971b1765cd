// Package storetest gives each test package a fresh, migrated database on a real PostgreSQL,
// fixtures to fill it, and a fault proxy to put between the code and the database (or the RPC).
package storetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"testing"
	"testing/fstest"
	"time"

	"nodeledger/migrations"
	"nodeledger/store"
	"nodeledger/store/pgdev"
)

// DefaultServerURL is the server the tests use when TEST_DATABASE_URL is unset.
const DefaultServerURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

// serverURL is the server this test package makes its databases on, and databaseURL the
// package's own database; both set by Main.
var serverURL, databaseURL string

// DatabaseURL is the URL of the database Main made for the package, for a second connection pool.
func DatabaseURL() string { return databaseURL }

// ServerURL is the PostgreSQL server the tests make their databases on.
func ServerURL() string { return serverURL }

// Main runs the package's tests against a database made for them and dropped after; use it from
// TestMain as os.Exit(storetest.Main(m, &db)), or with a nil db where the tests make their own
// databases (EmptyDatabase). The server is TEST_DATABASE_URL; unset, the one on 127.0.0.1:5432,
// or when none answers there, a private throwaway cluster for this package.
func Main(m *testing.M, db **store.Store) int {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	stop, err := chooseServer(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, "storetest: no PostgreSQL server for the tests (set TEST_DATABASE_URL):", err)
		return 1
	}
	defer stop()
	if db == nil {
		return m.Run()
	}
	name, err := randomName()
	if err == nil {
		*db, err = Create(ctx, name)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "storetest: no test database on %s: %v\n", serverURL, err)
		return 1
	}
	code := m.Run()
	(*db).Close()
	if err := pgdev.DropDatabase(context.Background(), serverURL, name); err != nil {
		fmt.Fprintln(os.Stderr, "storetest:", err)
		return 1
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

// Create makes a fresh migrated database called name and opens it.
func Create(ctx context.Context, name string) (*store.Store, error) {
	url, err := pgdev.CreateDatabase(ctx, ServerURL(), name)
	if err != nil {
		return nil, err
	}
	databaseURL = url
	return Open(ctx, url)
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

// EmptyDatabase makes an empty database for one test, dropped when the test ends, and returns its URL.
func EmptyDatabase(t testing.TB) string {
	t.Helper()
	name, err := randomName()
	if err != nil {
		t.Fatal(err)
	}
	url, err := pgdev.CreateDatabase(context.Background(), serverURL, name)
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
		refund_batches, refund_batch_payments, refund_batch_approvals, refund_batch_attempts,
		referral_codes, referral_code_versions, referral_bindings, payment_referrals, commissions, refund_batch_commissions, head_payments, mint_batches RESTART IDENTITY CASCADE`)
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
