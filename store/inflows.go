package store

import "context"

// UnattributedInflow is ETH the payments wallet received in a block beyond what the block's
// top-level transactions and its trace attribute to payments: a contract wallet's payment where
// the RPC could not trace the block, a SELFDESTRUCT to the wallet, a beacon withdrawal. For the
// operator to look up on a block explorer; one row per block, so recording it is idempotent.
type UnattributedInflow struct {
	BlockNumber int64   `db:"block_number"`
	BlockHash   string  `db:"block_hash"`
	AmountWei   Uint256 `db:"amount_wei"`
}

// UnattributedInflows returns up to limit unattributed inflows, newest block first.
func (s *Store) UnattributedInflows(ctx context.Context, limit int) (_ []UnattributedInflow, err error) {
	defer wrap(&err, "UnattributedInflows")
	var in []UnattributedInflow
	err = s.db.SelectContext(ctx, &in, `
		SELECT block_number, block_hash, amount_wei FROM unattributed_inflows
		ORDER BY block_number DESC LIMIT $1`, limit)
	return in, err
}

// UnattributedCount counts the unattributed inflows.
func (s *Store) UnattributedCount(ctx context.Context) (n int, err error) {
	defer wrap(&err, "UnattributedCount")
	err = s.db.GetContext(ctx, &n, `SELECT count(*) FROM unattributed_inflows`)
	return n, err
}
