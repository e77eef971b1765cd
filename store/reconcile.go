package store

import (
	"context"
	"database/sql"
	"errors"
	"math/big"
	"time"
)

// PaymentByRef returns the payment the contract knows by paymentRef; ErrNotFound for none.
func (s *Store) PaymentByRef(ctx context.Context, paymentRef string) (_ Payment, err error) {
	defer wrap(&err, "PaymentByRef")
	var p Payment
	err = s.db.GetContext(ctx, &p, `SELECT `+paymentColumns+` FROM payments WHERE payment_ref = $1`, paymentRef)
	if errors.Is(err, sql.ErrNoRows) {
		return Payment{}, ErrNotFound
	}
	return p, err
}

// ChainWithdrawal is a Withdrawn log of the factory.
type ChainWithdrawal struct {
	ChainNodeID *big.Int
	AmountWei   *big.Int
	To          string
	TxHash      string
	LogIndex    uint
	At          time.Time // the block's time
}

// RecordWithdrawal records a withdrawal the chain made (sent, confirmed at its block's time),
// once per log; created is false when it was recorded already or its node is not in the ledger.
func (s *Store) RecordWithdrawal(ctx context.Context, w ChainWithdrawal) (created bool, err error) {
	defer wrap(&err, "RecordWithdrawal")
	res, err := s.db.ExecContext(ctx, `
		INSERT INTO withdrawals (node_id, amount_wei, to_address, tx_hash, log_index, status, created_at, confirmed_at)
		SELECT id, $2, $3, $4, $5, 'sent', $6, $6 FROM nodes WHERE chain_node_id = $1::numeric
		ON CONFLICT (tx_hash, log_index) DO NOTHING`,
		Uint256{w.ChainNodeID}, Uint256{w.AmountWei}, w.To, w.TxHash, int64(w.LogIndex), w.At)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// ChainNode is one node's figures as the factory reports them (nodeInfo).
type ChainNode struct {
	ChainNodeID   *big.Int
	Owner         string
	BalanceWei    *big.Int
	CumulativeWei *big.Int
	WithdrawnWei  *big.Int
}

// SyncNode sets a node's owner and figures to the chain's; changed tells whether they differed.
// A node in a credit batch not yet settled is left alone: the credit pass adds the batch to the
// ledger once it settles, and syncing in between would count the credit twice.
func (s *Store) SyncNode(ctx context.Context, n ChainNode) (changed bool, err error) {
	defer wrap(&err, "SyncNode")
	res, err := s.db.ExecContext(ctx, `
		UPDATE nodes SET owner = $2, balance_wei = $3, cumulative_wei = $4, withdrawn_wei = $5
		WHERE chain_node_id = $1::numeric
			AND (owner, balance_wei, cumulative_wei, withdrawn_wei) IS DISTINCT FROM ($2, $3::numeric, $4::numeric, $5::numeric)
			AND NOT EXISTS (
				SELECT 1 FROM credits c JOIN credit_batches b ON b.id = c.batch_id
				WHERE c.node_id = nodes.id AND b.status <> 'confirmed')`,
		Uint256{n.ChainNodeID}, n.Owner, Uint256{n.BalanceWei}, Uint256{n.CumulativeWei}, Uint256{n.WithdrawnWei})
	if err != nil {
		return false, err
	}
	rows, err := res.RowsAffected()
	return rows == 1, err
}

// NodesFrom returns up to limit nodes with a ledger row id above after, in id order: a page of a
// sweep over every node.
func (s *Store) NodesFrom(ctx context.Context, after int64, limit int) (_ []Node, err error) {
	defer wrap(&err, "NodesFrom")
	var nodes []Node
	err = s.db.SelectContext(ctx, &nodes, `
		SELECT `+nodeColumns+` FROM nodes WHERE id > $1 ORDER BY id LIMIT $2`, after, limit)
	return nodes, err
}
