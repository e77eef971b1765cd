package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// What a rebuild cannot know from the chain and the settings log, and copies from the ledger it
// rebuilds when that is there (issue 50 §3): who did what (the audit), the operators and their
// sessions, the wallets signed out, the webhook endpoints with every event, delivery and attempt,
// and the treasury batches the chain has not decided (proposed or ready) with the owners'
// signatures, and the attempts to execute every batch.

// keptTables are copied row for row, ids and all: nothing in them names a ledger row a rebuild
// numbers otherwise. Their order is their foreign keys'; serial, whether an id sequence numbers
// their rows.
var keptTables = []struct {
	name   string
	serial bool
}{{"operators", false}, {"operator_sessions", false}, {"operator_audit", true}, {"wallet_signouts", false},
	{"webhook_endpoints", true}, {"webhook_events", true}, {"webhook_deliveries", true}, {"webhook_attempts", true}}

// Kept is what CopyKept copied.
type Kept struct {
	Rows    map[string]int // by table of keptTables
	Batches int            // open treasury batches, each with its signatures
}

// CopyKept copies into s, a ledger rebuilt from the ledger from, what from keeps that a rebuild
// cannot know (keptTables, replacing what the rebuild wrote there, and the open treasury batches
// with their approvals and every batch's execution attempts, matched to the rebuild's payments
// and commissions by what names them on chain), in one transaction. Triggers stay off while it
// runs: the rows are the source's, not changes to log or audit again.
func (s *Store) CopyKept(ctx context.Context, from *Store) (k Kept, err error) {
	defer wrap(&err, "CopyKept")
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return k, err
	}
	defer tx.Rollback()
	k.Rows = map[string]int{}
	for _, table := range keptTables {
		n, err := copyTable(ctx, tx, from.db, table.name, table.serial)
		if err != nil {
			return k, fmt.Errorf("%s: %w", table.name, err)
		}
		k.Rows[table.name] = n
	}
	if k.Batches, err = copyOpenBatches(ctx, tx, from); err != nil {
		return k, err
	}
	if err := copyBatchRows(ctx, tx, from.db); err != nil {
		return k, err
	}
	return k, tx.Commit()
}

// copyTable replaces table's rows in tx with from's, and moves its id sequence, if serial, past
// them.
func copyTable(ctx context.Context, tx *sqlx.Tx, from sqlx.QueryerContext, table string, serial bool) (int, error) {
	t := pq.QuoteIdentifier(table)
	var rows []byte
	if err := sqlx.GetContext(ctx, from, &rows, `SELECT coalesce(json_agg(t), '[]') FROM `+t+` t`); err != nil {
		return 0, err
	}
	var n int
	for _, q := range []string{`ALTER TABLE ` + t + ` DISABLE TRIGGER USER`, `DELETE FROM ` + t} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return 0, err
		}
	}
	if err := tx.GetContext(ctx, &n, `WITH c AS (INSERT INTO `+t+` SELECT * FROM json_populate_recordset(NULL::`+t+`, $1) RETURNING 1)
		SELECT count(*) FROM c`, rows); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, `ALTER TABLE `+t+` ENABLE TRIGGER USER`); err != nil || !serial {
		return n, err
	}
	_, err := tx.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence($1, 'id'), greatest((SELECT max(id) FROM `+t+`), 1))`, table)
	return n, err
}

// copyOpenBatches records in tx each batch from holds open (proposed or ready), with its payments
// and commissions found in tx by their payments' references (and roles).
func copyOpenBatches(ctx context.Context, tx *sqlx.Tx, from *Store) (int, error) {
	open, err := treasuryBatches(ctx, from.db, `WHERE status IN ('proposed', 'ready') ORDER BY id`)
	if err != nil {
		return 0, err
	}
	for _, b := range open {
		nb := NewTreasuryBatch{TreasuryBatch: b}
		var refs []string
		if err := from.db.SelectContext(ctx, &refs, `
			SELECT p.payment_ref FROM treasury_batch_payments bp JOIN payments p ON p.id = bp.payment_id
			WHERE bp.batch_id = $1 AND bp.open ORDER BY bp.position`, b.ID); err != nil {
			return 0, err
		}
		if nb.Payments, err = idsOf(ctx, tx, `SELECT id FROM payments WHERE payment_ref = $1`, refs); err != nil {
			return 0, err
		}
		var roles []string
		if err := from.db.SelectContext(ctx, &roles, `
			SELECT p.payment_ref || ' ' || c.role FROM treasury_batch_commissions bc JOIN commissions c ON c.id = bc.commission_id
			JOIN payments p ON p.id = c.payment_id WHERE bc.batch_id = $1 AND bc.open ORDER BY c.id`, b.ID); err != nil {
			return 0, err
		}
		if nb.Commissions, err = idsOf(ctx, tx, `
			SELECT c.id FROM commissions c JOIN payments p ON p.id = c.payment_id WHERE p.payment_ref || ' ' || c.role = $1`, roles); err != nil {
			return 0, err
		}
		added, err := Tx{tx}.AddTreasuryBatch(ctx, nb)
		if err != nil {
			return 0, fmt.Errorf("open batch %s: %w", b.SafeTxHash, err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE treasury_batches SET status = $2 WHERE id = $1 AND status <> $2`, added.ID, b.Status); err != nil {
			return 0, err
		}
	}
	return len(open), nil
}

// idsOf are the ids query ($1: each of keys) finds in tx, in keys' order; a key it does not find
// is an error, naming it.
func idsOf(ctx context.Context, tx *sqlx.Tx, query string, keys []string) ([]int64, error) {
	ids := make([]int64, 0, len(keys))
	for _, key := range keys {
		var id int64
		if err := tx.GetContext(ctx, &id, query, key); err != nil {
			return nil, fmt.Errorf("%s: not in the rebuilt ledger: %w", key, err)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// batchRows are the tables whose rows hang on a batch, with the columns copied beside it.
var batchRows = []struct{ table, columns string }{
	{"treasury_batch_approvals", "owner, signature, submitted_by, created_at"},
	{"treasury_batch_attempts", "tx_hash, sender, reported_by, status, error, block_number, created_at, updated_at"},
}

// copyBatchRows copies from's approvals of and attempts to execute each batch to the batch of the
// same Safe transaction hash in tx: an open one copied, or one the chain decided and the rebuild
// found. A void batch, which a rebuild does not know, takes its rows with it.
func copyBatchRows(ctx context.Context, tx *sqlx.Tx, from sqlx.QueryerContext) error {
	for _, r := range batchRows {
		var rows []byte
		if err := sqlx.GetContext(ctx, from, &rows, `
			SELECT coalesce(json_agg(json_build_object('row', to_jsonb(a), 'hash', b.safe_tx_hash)), '[]')
			FROM `+r.table+` a JOIN treasury_batches b ON b.id = a.batch_id`); err != nil {
			return err
		}
		cols := strings.Split(r.columns, ", ")
		for i := range cols {
			cols[i] = "a." + cols[i]
		}
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO `+r.table+` (batch_id, `+r.columns+`)
			SELECT b.id, `+strings.Join(cols, ", ")+`
			FROM json_array_elements($1::json) x
			CROSS JOIN LATERAL json_populate_record(NULL::`+r.table+`, x->'row') a
			JOIN treasury_batches b ON b.safe_tx_hash = x->>'hash'
			ON CONFLICT DO NOTHING`, rows); err != nil {
			return fmt.Errorf("%s: %w", r.table, err)
		}
	}
	return nil
}
