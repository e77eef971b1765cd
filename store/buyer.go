package store

import (
	"context"
	"encoding/json"
	"math/big"
)

// What a node's owner pages through on the pages (not the API, whose only paging is the latest
// limit of GET /api/node/{id}): the rows after the first page, newest first as that page lists
// them, decoded from the same JSON shapes nodeJSONSQL builds.

// NodeCredits are up to limit credits of node id from confirmed rounds, newest first, older than
// credit before (its id; 0: from the newest).
func (s *Store) NodeCredits(ctx context.Context, id *big.Int, before int64, limit int) (_ []Credit, err error) {
	defer wrap(&err, "NodeCredits")
	var credits []Credit
	return credits, s.pageJSON(ctx, nodeCreditsSQL, &credits, id, before, limit)
}

// nodeCreditsSQL pages node $1's credits: up to $3 older than credit $2 (0: from the newest).
var nodeCreditsSQL = creditListSQL("$1", ` AND ($2 = 0 OR (c.created_at, c.id) < (SELECT b.created_at, b.id FROM credits b WHERE b.id = $2))`, "$3")

// NodeWithdrawals are up to limit withdrawals of node id, newest first, older than withdrawal
// before (its id; 0: from the newest).
func (s *Store) NodeWithdrawals(ctx context.Context, id *big.Int, before int64, limit int) (_ []Withdrawal, err error) {
	defer wrap(&err, "NodeWithdrawals")
	var ws []Withdrawal
	return ws, s.pageJSON(ctx, nodeWithdrawalsSQL, &ws, id, before, limit)
}

// nodeWithdrawalsSQL pages node $1's withdrawals as nodeCreditsSQL pages its credits.
var nodeWithdrawalsSQL = withdrawalListSQL("$1", ` AND ($2 = 0 OR (w.created_at, w.id) < (SELECT b.created_at, b.id FROM withdrawals b WHERE b.id = $2))`, "$3")

// pageJSON runs a page query of node id and decodes its JSON array into out; a node id beyond
// the ledger's row ids has no rows.
func (s *Store) pageJSON(ctx context.Context, query string, out any, id *big.Int, before int64, limit int) error {
	rid, ok := rowID(id)
	if !ok {
		return json.Unmarshal([]byte("[]"), out)
	}
	doc, err := queryJSON(ctx, s, query, rid, before, limit)
	if err != nil {
		return err
	}
	return json.Unmarshal(doc, out)
}

// PaidOut is a withdrawal that went through, as its owner's confirmation shows it.
type PaidOut struct {
	NodeID    int64   `db:"node_id"`
	AmountWei Uint256 `db:"amount_wei"`
	ToAddress *string `db:"to_address"`
	TxHash    string  `db:"tx_hash"`
}

// PaidOutByTx are the withdrawals transaction hash (lower case) made, as the ledger records them
// once they went through (sent), by node; none while it records none (not yet, or it failed).
func (s *Store) PaidOutByTx(ctx context.Context, hash string) (_ []PaidOut, err error) {
	defer wrap(&err, "PaidOutByTx")
	var ps []PaidOut
	err = s.all(ctx, &ps, `
		SELECT w.node_id, w.amount_wei, w.to_address, w.tx_hash
		FROM withdrawals w
		WHERE w.tx_hash = $1 AND w.status = 'sent'
		ORDER BY w.node_id, w.log_index`, hash)
	return ps, err
}
