// Package storetest gives each test package a fresh, migrated database on a real PostgreSQL, and
// fixtures to fill it.
package storetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"testing"
	"time"

	"nodeledger/migrations"
	"nodeledger/store"
	"nodeledger/store/pgdev"
)

// DefaultServerURL is the server the tests use when TEST_DATABASE_URL is unset.
const DefaultServerURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

// ServerURL is the PostgreSQL server tests make their databases on.
func ServerURL() string {
	if u := os.Getenv("TEST_DATABASE_URL"); u != "" {
		return u
	}
	return DefaultServerURL
}

// Main runs the package's tests against a database made for them and dropped after; use it from
// TestMain as os.Exit(storetest.Main(m, &db)).
func Main(m *testing.M, db **store.Store) int {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	name, err := randomName()
	if err == nil {
		*db, err = Create(ctx, name)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "storetest: no test database on %s (start PostgreSQL or set TEST_DATABASE_URL): %v\n", ServerURL(), err)
		return 1
	}
	code := m.Run()
	(*db).Close()
	if err := pgdev.DropDatabase(context.Background(), ServerURL(), name); err != nil {
		fmt.Fprintln(os.Stderr, "storetest:", err)
		return 1
	}
	return code
}

// Create makes a fresh migrated database called name and opens it.
func Create(ctx context.Context, name string) (*store.Store, error) {
	url, err := pgdev.CreateDatabase(ctx, ServerURL(), name)
	if err != nil {
		return nil, err
	}
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
		chain_cursors, scanned_blocks, scheduler_ticks RESTART IDENTITY CASCADE`)
	if err != nil {
		t.Fatal(err)
	}
}
