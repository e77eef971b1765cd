package store

import (
	"context"
	"fmt"
	"io/fs"
	"sort"

	"github.com/lib/pq"
)

// migrateLock is the advisory lock key that serialises migrations across instances.
const migrateLock = 0x6e6c6d67 // "nlmg"

// Migrate applies, in name order, every *.sql file of fsys not yet recorded in schema_migrations,
// each in its own transaction, and returns the names it applied. Instances starting together queue
// on an advisory lock, so each file is applied once.
func (s *Store) Migrate(ctx context.Context, fsys fs.FS) (applied []string, err error) {
	defer wrap(&err, "Migrate")
	names, err := fs.Glob(fsys, "*.sql")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)

	// A session lock lives on one connection, so every statement below runs on this one.
	conn, err := s.db.Connx(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, migrateLock); err != nil {
		return nil, err
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, migrateLock)

	if _, err := conn.ExecContext(ctx, `
		CREATE TABLE IF NOT EXISTS schema_migrations (
			name       text PRIMARY KEY,
			applied_at timestamptz NOT NULL DEFAULT now()
		)`); err != nil {
		return nil, err
	}
	var done []string
	if err := conn.SelectContext(ctx, &done, `SELECT name FROM schema_migrations`); err != nil {
		return nil, err
	}
	isDone := make(map[string]bool, len(done))
	for _, name := range done {
		isDone[name] = true
	}

	for _, name := range names {
		if isDone[name] {
			continue
		}
		body, err := fs.ReadFile(fsys, name)
		if err != nil {
			return applied, err
		}
		tx, err := conn.BeginTxx(ctx, nil)
		if err != nil {
			return applied, err
		}
		if _, err := tx.ExecContext(ctx, string(body)); err != nil {
			tx.Rollback()
			return applied, fmt.Errorf("%s: %w", name, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (name) VALUES ($1)`, name); err != nil {
			tx.Rollback()
			return applied, err
		}
		if err := tx.Commit(); err != nil {
			return applied, err
		}
		applied = append(applied, name)
	}
	return applied, nil
}

// Readiness is what /readyz asks of the ledger's database: whether this connection takes writes
// (a primary, not a standby or a read-only session) and how many of the binary's migrations it
// has not recorded (an instance newer than the schema, while another applies them).
type Readiness struct {
	Writable bool
	Pending  int
}

// Readiness reads both in one round trip; fsys is the binary's migrations.
func (s *Store) Readiness(ctx context.Context, fsys fs.FS) (r Readiness, err error) {
	defer wrap(&err, "Readiness")
	names, err := fs.Glob(fsys, "*.sql")
	if err != nil {
		return r, err
	}
	err = s.db.QueryRowContext(ctx, `
		SELECT NOT pg_is_in_recovery() AND current_setting('transaction_read_only') = 'off',
			(SELECT count(*) FROM unnest($1::text[]) AS want(name)
			 WHERE NOT EXISTS (SELECT 1 FROM schema_migrations m WHERE m.name = want.name))`,
		pq.Array(names)).Scan(&r.Writable, &r.Pending)
	return r, err
}
