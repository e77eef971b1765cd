package store

import (
	"context"
	"database/sql"
	"errors"
	"math/big"
	"time"

	"github.com/jmoiron/sqlx"
)

// Node is a node as the ledger records it.
type Node struct {
	ID            int64 // ledger row id
	ChainNodeID   *big.Int
	Tier          int
	Owner         string
	BalanceWei    *big.Int
	CumulativeWei *big.Int
	WithdrawnWei  *big.Int
	PriceWei      *big.Int // what was paid for it
	MintTx        string
	Status        string // active or unconfirmed
	CreatedAt     time.Time
}

const nodeColumns = `id, chain_node_id, tier, owner, balance_wei, cumulative_wei, withdrawn_wei,
	price_wei, mint_tx, status, created_at`

func scanNode(row scanner) (Node, error) {
	var n Node
	err := row.Scan(&n.ID, num(&n.ChainNodeID), &n.Tier, &n.Owner, num(&n.BalanceWei),
		num(&n.CumulativeWei), num(&n.WithdrawnWei), num(&n.PriceWei), &n.MintTx, &n.Status, &n.CreatedAt)
	return n, err
}

// NodesByOwner returns the nodes of a wallet (lower-case address), oldest first.
func (s *Store) NodesByOwner(ctx context.Context, owner string) (_ []Node, err error) {
	defer wrap(&err, "NodesByOwner")
	return selectAll(ctx, prepared{s}, scanNode, `
		SELECT `+nodeColumns+`
		FROM nodes
		WHERE owner = $1
		ORDER BY created_at, id`, owner)
}

// Node returns the node whose chain node id is id or, failing that, whose ledger row id is id.
func (s *Store) Node(ctx context.Context, id *big.Int) (_ Node, err error) {
	defer wrap(&err, "Node")
	var rowID *int64 // a ledger row id is a bigint; a larger id can only be a chain node id
	if id.IsInt64() {
		v := id.Int64()
		rowID = &v
	}
	nodes, err := selectAll(ctx, prepared{s}, scanNode, `
		SELECT `+nodeColumns+`
		FROM nodes
		WHERE chain_node_id = $1::numeric OR id = $2
		ORDER BY chain_node_id = $1::numeric DESC
		LIMIT 1`, id.String(), rowID)
	switch {
	case err != nil:
		return Node{}, err
	case len(nodes) == 0:
		return Node{}, ErrNotFound
	}
	return nodes[0], nil
}

// Credit is what one round credited to one node.
type Credit struct {
	ID             int64
	DistributionID int64
	AmountWei      *big.Int
	CreatedAt      time.Time
}

// Credits returns up to limit credits of a node from confirmed rounds, newest first.
func (s *Store) Credits(ctx context.Context, nodeID int64, limit int) (_ []Credit, err error) {
	defer wrap(&err, "Credits")
	return selectAll(ctx, prepared{s}, func(row scanner) (Credit, error) {
		var c Credit
		err := row.Scan(&c.ID, &c.DistributionID, num(&c.AmountWei), &c.CreatedAt)
		return c, err
	}, `
		SELECT c.id, c.distribution_id, c.amount_wei, c.created_at
		FROM credits c
		JOIN distributions d ON d.id = c.distribution_id
		WHERE c.node_id = $1 AND d.status = 'confirmed'
		ORDER BY c.created_at DESC, c.id DESC
		LIMIT $2`, nodeID, limit)
}

// Withdrawal is a withdrawal the ledger has seen against a node.
type Withdrawal struct {
	ID                  int64
	AmountWei           *big.Int
	CumulativeSignedWei *big.Int
	ToAddress           *string
	Deadline            int64
	TxHash              *string
	Status              *string // signed, sent or failed
	CreatedAt           time.Time
	ConfirmedAt         *time.Time
}

// Withdrawals returns up to limit withdrawals of a node, newest first.
func (s *Store) Withdrawals(ctx context.Context, nodeID int64, limit int) (_ []Withdrawal, err error) {
	defer wrap(&err, "Withdrawals")
	return selectAll(ctx, prepared{s}, func(row scanner) (Withdrawal, error) {
		var w Withdrawal
		err := row.Scan(&w.ID, num(&w.AmountWei), num(&w.CumulativeSignedWei), &w.ToAddress,
			&w.Deadline, &w.TxHash, &w.Status, &w.CreatedAt, &w.ConfirmedAt)
		return w, err
	}, `
		SELECT id, amount_wei, cumulative_signed_wei, to_address, deadline, tx_hash, status,
			created_at, confirmed_at
		FROM withdrawals
		WHERE node_id = $1
		ORDER BY created_at DESC, id DESC
		LIMIT $2`, nodeID, limit)
}

// NewNode is a node the chain minted, to be recorded.
type NewNode struct {
	ChainNodeID  *big.Int
	Tier         int
	Owner        string // lower case
	PriceWei     *big.Int
	MintTx       string
	PaymentID    *int64     // the payment it was minted for, when known
	NextCreditAt *time.Time // when it is first due for credit
}

// InsertNode records a minted node unless one with its chain id is recorded already, and
// returns the ledger row either way; created tells which.
func (s *Store) InsertNode(ctx context.Context, n NewNode) (_ Node, created bool, err error) {
	defer wrap(&err, "InsertNode")
	return insertNode(ctx, s.db, n)
}

func insertNode(ctx context.Context, db sqlx.QueryerContext, n NewNode) (Node, bool, error) {
	node, err := scanNode(db.QueryRowxContext(ctx, `
		INSERT INTO nodes (chain_node_id, tier, owner, price_wei, mint_tx, payment_id, next_credit_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (chain_node_id) DO NOTHING
		RETURNING `+nodeColumns, n.ChainNodeID.String(), n.Tier, n.Owner, n.PriceWei.String(), n.MintTx,
		n.PaymentID, n.NextCreditAt))
	if err == nil {
		return node, true, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return Node{}, false, err
	}
	node, err = scanNode(db.QueryRowxContext(ctx, `SELECT `+nodeColumns+` FROM nodes WHERE chain_node_id = $1::numeric`,
		n.ChainNodeID.String()))
	return node, false, err
}

// NodeByChainID returns the node with chain node id id; ErrNotFound when the ledger has none.
func (s *Store) NodeByChainID(ctx context.Context, id *big.Int) (_ Node, err error) {
	defer wrap(&err, "NodeByChainID")
	n, err := scanNode(s.db.QueryRowContext(ctx, `SELECT `+nodeColumns+` FROM nodes WHERE chain_node_id = $1::numeric`, id.String()))
	if errors.Is(err, sql.ErrNoRows) {
		return Node{}, ErrNotFound
	}
	return n, err
}
