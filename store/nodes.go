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
	ID            int64     `db:"id"` // ledger row id
	ChainNodeID   Uint256   `db:"chain_node_id"`
	Tier          int       `db:"tier"`
	Owner         string    `db:"owner"`
	BalanceWei    Uint256   `db:"balance_wei"`
	CumulativeWei Uint256   `db:"cumulative_wei"`
	WithdrawnWei  Uint256   `db:"withdrawn_wei"`
	PriceWei      Uint256   `db:"price_wei"` // what was paid for it
	MintTx        string    `db:"mint_tx"`
	Status        string    `db:"status"` // active or unconfirmed
	CreatedAt     time.Time `db:"created_at"`
}

const nodeColumns = `id, chain_node_id, tier, owner, balance_wei, cumulative_wei, withdrawn_wei,
	price_wei, mint_tx, status, created_at`

// NodesByOwner returns the nodes of a wallet (lower-case address), oldest first.
func (s *Store) NodesByOwner(ctx context.Context, owner string) (_ []Node, err error) {
	defer wrap(&err, "NodesByOwner")
	st, err := s.prepared(ctx, `
		SELECT `+nodeColumns+`
		FROM nodes
		WHERE owner = $1
		ORDER BY created_at, id`)
	if err != nil {
		return nil, err
	}
	var nodes []Node
	err = st.SelectContext(ctx, &nodes, owner)
	return nodes, err
}

// Node returns the node whose chain node id is id or, failing that, whose ledger row id is id.
func (s *Store) Node(ctx context.Context, id *big.Int) (_ Node, err error) {
	defer wrap(&err, "Node")
	var rowID *int64 // a ledger row id is a bigint; a larger id can only be a chain node id
	if id.IsInt64() {
		v := id.Int64()
		rowID = &v
	}
	st, err := s.prepared(ctx, `
		SELECT `+nodeColumns+`
		FROM nodes
		WHERE chain_node_id = $1::numeric OR id = $2
		ORDER BY chain_node_id = $1::numeric DESC
		LIMIT 1`)
	if err != nil {
		return Node{}, err
	}
	var n Node
	err = st.GetContext(ctx, &n, Uint256{id}, rowID)
	if errors.Is(err, sql.ErrNoRows) {
		return Node{}, ErrNotFound
	}
	return n, err
}

// Credit is what one round credited to one node.
type Credit struct {
	ID             int64     `db:"id"`
	DistributionID int64     `db:"distribution_id"`
	AmountWei      Uint256   `db:"amount_wei"`
	CreatedAt      time.Time `db:"created_at"`
}

// Credits returns up to limit credits of a node from confirmed rounds, newest first.
func (s *Store) Credits(ctx context.Context, nodeID int64, limit int) (_ []Credit, err error) {
	defer wrap(&err, "Credits")
	st, err := s.prepared(ctx, `
		SELECT c.id, c.distribution_id, c.amount_wei, c.created_at
		FROM credits c
		JOIN distributions d ON d.id = c.distribution_id
		WHERE c.node_id = $1 AND d.status = 'confirmed'
		ORDER BY c.created_at DESC, c.id DESC
		LIMIT $2`)
	if err != nil {
		return nil, err
	}
	var credits []Credit
	err = st.SelectContext(ctx, &credits, nodeID, limit)
	return credits, err
}

// Withdrawal is a withdrawal the ledger has seen against a node.
type Withdrawal struct {
	ID                  int64      `db:"id"`
	AmountWei           Uint256    `db:"amount_wei"`
	CumulativeSignedWei Uint256    `db:"cumulative_signed_wei"`
	ToAddress           *string    `db:"to_address"`
	Deadline            int64      `db:"deadline"`
	TxHash              *string    `db:"tx_hash"`
	Status              *string    `db:"status"` // signed, sent or failed
	CreatedAt           time.Time  `db:"created_at"`
	ConfirmedAt         *time.Time `db:"confirmed_at"`
}

// Withdrawals returns up to limit withdrawals of a node, newest first.
func (s *Store) Withdrawals(ctx context.Context, nodeID int64, limit int) (_ []Withdrawal, err error) {
	defer wrap(&err, "Withdrawals")
	st, err := s.prepared(ctx, `
		SELECT id, amount_wei, cumulative_signed_wei, to_address, deadline, tx_hash, status,
			created_at, confirmed_at
		FROM withdrawals
		WHERE node_id = $1
		ORDER BY created_at DESC, id DESC
		LIMIT $2`)
	if err != nil {
		return nil, err
	}
	var ws []Withdrawal
	err = st.SelectContext(ctx, &ws, nodeID, limit)
	return ws, err
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
	var node Node
	err := sqlx.GetContext(ctx, db, &node, `
		INSERT INTO nodes (chain_node_id, tier, owner, price_wei, mint_tx, payment_id, next_credit_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (chain_node_id) DO NOTHING
		RETURNING `+nodeColumns, Uint256{n.ChainNodeID}, n.Tier, n.Owner, Uint256{n.PriceWei}, n.MintTx,
		n.PaymentID, n.NextCreditAt)
	if err == nil {
		return node, true, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return Node{}, false, err
	}
	err = sqlx.GetContext(ctx, db, &node, `SELECT `+nodeColumns+` FROM nodes WHERE chain_node_id = $1::numeric`,
		Uint256{n.ChainNodeID})
	return node, false, err
}

// NodeByChainID returns the node with chain node id id; ErrNotFound when the ledger has none.
func (s *Store) NodeByChainID(ctx context.Context, id *big.Int) (_ Node, err error) {
	defer wrap(&err, "NodeByChainID")
	var n Node
	err = s.db.GetContext(ctx, &n, `SELECT `+nodeColumns+` FROM nodes WHERE chain_node_id = $1::numeric`, Uint256{id})
	if errors.Is(err, sql.ErrNoRows) {
		return Node{}, ErrNotFound
	}
	return n, err
}
