package store

import (
	"context"
	"database/sql"
	"fmt"
	"math/big"
	"strings"
	"time"
)

// Export is a table of the books as its CSV has it: the columns in order, and the query that
// reads its rows, oldest first, whose $1 and $2 are the times it covers ([from, to), either null
// for open). Every column is read as text, times already in ISO 8601 UTC; an amount in wei is
// written twice, in ETH then in wei.
type Export struct {
	Name    string
	Columns []ExportColumn
	query   string
}

// ExportColumn is a column of an export; Wei marks an amount, which becomes two CSV columns,
// Name_eth and Name_wei. Outcome marks the audit's outcome, read as the JSON of an AuditOutcome
// (its code and values): the store keeps no sentence, so the caller writes the one people read
// in its place.
type ExportColumn struct {
	Name    string
	Wei     bool
	Outcome bool
}

// isoUTC renders a timestamptz column as the API writes times: 2026-11-24T08:56:00.123Z.
func isoUTC(col string) string {
	return fmt.Sprintf(`to_char(%s AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`, col)
}

// within is the condition that col lies in the export's [$1, $2), either end null for open.
func within(col string) string {
	return fmt.Sprintf(`($1::timestamptz IS NULL OR %[1]s >= $1) AND ($2::timestamptz IS NULL OR %[1]s < $2)`, col)
}

// Exports are the tables the books can take, by name.
var Exports = map[string]Export{
	"payments": {
		Name: "payments",
		Columns: []ExportColumn{{Name: "id"}, {Name: "tx_hash"}, {Name: "call_index"}, {Name: "from"}, {Name: "value", Wei: true},
			{Name: "block_number"}, {Name: "status"}, {Name: "reason_code"}, {Name: "tier"}, {Name: "node_id"}, {Name: "mint_tx"},
			{Name: "refund_tx_hash"}, {Name: "created_at"}, {Name: "updated_at"},
			// What was paid, in ETH or a token: amount in its base units (ETH: wei, as value).
			{Name: "token"}, {Name: "symbol"}, {Name: "decimals"}, {Name: "amount"}},
		query: `SELECT p.id, p.tx_hash, p.call_index, p.from_address, p.value_wei, p.block_number, p.status, p.reason_code,
		               p.tier, n.id, p.mint_tx, p.refund_tx_hash, ` + isoUTC("p.created_at") + `, ` + isoUTC("p.updated_at") + `,
		               p.token, coalesce(tk.symbol, 'ETH'), coalesce(tk.decimals, 18), coalesce(p.amount, p.value_wei)
		        FROM payments p LEFT JOIN nodes n ON n.payment_id = p.id LEFT JOIN tokens tk ON tk.address = p.token
		        WHERE ` + within("p.created_at") + `
		        ORDER BY p.id`,
	},
	"nodes": {
		Name: "nodes",
		Columns: []ExportColumn{{Name: "id"}, {Name: "tier"}, {Name: "owner"}, {Name: "price", Wei: true}, {Name: "payment_tx"},
			{Name: "mint_tx"}, {Name: "credited", Wei: true}, {Name: "withdrawn", Wei: true}, {Name: "balance", Wei: true}, {Name: "created_at"}},
		query: `SELECT n.id, n.tier, n.owner, n.price_wei, p.tx_hash, n.mint_tx, n.cumulative_wei, n.withdrawn_wei, n.balance_wei,
		               ` + isoUTC("n.created_at") + `
		        FROM nodes n LEFT JOIN payments p ON p.id = n.payment_id
		        WHERE ` + within("n.created_at") + `
		        ORDER BY n.id`,
	},
	"rounds": {
		Name: "rounds",
		Columns: []ExportColumn{{Name: "id"}, {Name: "mode"}, {Name: "status"}, {Name: "total", Wei: true}, {Name: "nodes"},
			{Name: "tx_hash"}, {Name: "created_at"}, {Name: "confirmed_at"}},
		query: `SELECT d.id, d.mode, d.status, d.total_wei, d.node_count, d.tx_hash, ` + isoUTC("d.created_at") + `, ` + isoUTC("d.confirmed_at") + `
		        FROM distributions d
		        WHERE ` + within("d.created_at") + `
		        ORDER BY d.id`,
	},
	"withdrawals": {
		Name: "withdrawals",
		Columns: []ExportColumn{{Name: "id"}, {Name: "node_id"}, {Name: "amount", Wei: true}, {Name: "to"}, {Name: "status"},
			{Name: "tx_hash"}, {Name: "log_index"}, {Name: "block_number"}, {Name: "created_at"}},
		query: `SELECT w.id, w.node_id, w.amount_wei, w.to_address, w.status, w.tx_hash, w.log_index, w.block_number, ` + isoUTC("w.created_at") + `
		        FROM withdrawals w
		        WHERE ` + within("w.created_at") + `
		        ORDER BY w.id`,
	},
	"commissions": {
		Name: "commissions",
		Columns: []ExportColumn{{Name: "id"}, {Name: "payment_tx"}, {Name: "code"}, {Name: "referrer"}, {Name: "role"},
			{Name: "amount", Wei: true}, {Name: "status"}, {Name: "paid_tx"}, {Name: "created_at"},
			// A commission on a token payment is owed in the token (amount is then 0): token_amount in its base units.
			{Name: "token"}, {Name: "symbol"}, {Name: "decimals"}, {Name: "token_amount"}},
		query: `SELECT x.id, x.payment_tx, x.code, x.referrer, x.role, x.amount_wei, x.status, x.paid_tx, x.created_at,
		               x.in_token->>'token', x.in_token->>'symbol', x.in_token->>'decimals', x.in_token->>'amount'
		        FROM (` + commissionSQL + `) x
		        WHERE ` + within("x.created_at::timestamptz") + `
		        ORDER BY x.id`,
	},
	"audit": {
		Name: "audit",
		Columns: []ExportColumn{{Name: "id"}, {Name: "at"}, {Name: "actor"}, {Name: "ip"}, {Name: "action"}, {Name: "target"},
			{Name: "before"}, {Name: "after"}, {Name: "outcome", Outcome: true}},
		query: `SELECT a.id, ` + isoUTC("a.at") + `, a.actor, a.ip, a.action, a.target, a.before, a.after, ` + auditOutcomeSQL + `
		        FROM operator_audit a
		        WHERE ` + within("a.at") + `
		        ORDER BY a.id`,
	},
}

// OutcomeFields are the places in a row Stream emits of the columns marked Outcome.
func (e Export) OutcomeFields() []int {
	var out []int
	i := 0
	for _, c := range e.Columns {
		if c.Outcome {
			out = append(out, i)
		}
		if i++; c.Wei {
			i++
		}
	}
	return out
}

// Header is the CSV's header row.
func (e Export) Header() []string {
	var out []string
	for _, c := range e.Columns {
		if c.Wei {
			out = append(out, c.Name+"_eth", c.Name+"_wei")
		} else {
			out = append(out, c.Name)
		}
	}
	return out
}

// Stream reads e's rows created in [from, to) (nil: open) and hands each to emit as it is read,
// as the CSV's fields (a null is empty), so an export of any size holds one row at a time. It
// reads in one transaction, so the rows are those of one instant.
func (s *Store) Stream(ctx context.Context, e Export, from, to *time.Time, emit func(fields []string) error) (err error) {
	defer wrap(&err, "Stream "+e.Name)
	tx, err := s.db.BeginTxx(ctx, &sql.TxOptions{ReadOnly: true, Isolation: sql.LevelRepeatableRead})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, e.query, from, to)
	if err != nil {
		return err
	}
	defer rows.Close()
	cells := make([]sql.NullString, len(e.Columns))
	dest := make([]any, len(cells))
	for i := range cells {
		dest[i] = &cells[i]
	}
	fields := make([]string, 0, len(e.Header()))
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		fields = fields[:0]
		for i, c := range e.Columns {
			if !c.Wei {
				fields = append(fields, cells[i].String)
				continue
			}
			eth, err := ethOf(cells[i])
			if err != nil {
				return fmt.Errorf("%s: %w", c.Name, err)
			}
			fields = append(fields, eth, cells[i].String)
		}
		if err := emit(fields); err != nil {
			return err
		}
	}
	return rows.Err()
}

// ethOf is the ETH of an amount read as text in wei; empty for a null.
func ethOf(wei sql.NullString) (string, error) {
	if !wei.Valid {
		return "", nil
	}
	n, ok := new(big.Int).SetString(strings.TrimSpace(wei.String), 10)
	if !ok {
		return "", fmt.Errorf("not an amount in wei: %q", wei.String)
	}
	return Uint256{Int: n}.ETH(), nil
}
