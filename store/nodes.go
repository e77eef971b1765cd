package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// Node is a node as the ledger records it. Its json names are those of the documents PostgreSQL
// builds for the API (store/json.go), which the pages decode: owner and priceWei are only in
// GET /api/node/{id}'s.
type Node struct {
	// ID is the ledger row id, which is the chain node id (the factory numbers nodes 1, 2, 3…):
	// the API shows it twice, as the integer id and the string chainNodeId (spec §2).
	ID            int64      `db:"id" json:"id"`
	ChainNodeID   Uint256    `db:"chain_node_id" json:"chainNodeId"`
	Tier          int        `db:"tier" json:"tier,string"`
	Owner         string     `db:"owner" json:"owner"`
	BalanceWei    Uint256    `db:"balance_wei" json:"balanceWei"`
	CumulativeWei Uint256    `db:"cumulative_wei" json:"cumulativeWei"`
	WithdrawnWei  Uint256    `db:"withdrawn_wei" json:"withdrawnWei"`
	PriceWei      Uint256    `db:"price_wei" json:"priceWei"` // what was paid for it
	MintTx        string     `db:"mint_tx" json:"mintTx"`
	Status        NodeStatus `db:"status" json:"status"`
	CreatedAt     time.Time  `db:"created_at" json:"createdAt"`
}

const nodeColumns = `id, id AS chain_node_id, tier, owner, balance_wei, cumulative_wei, withdrawn_wei,
	price_wei, mint_tx, status, created_at`

// NodesByOwner returns the nodes of a wallet (lower-case address), oldest first.
func (s *Store) NodesByOwner(ctx context.Context, owner string) (_ []Node, err error) {
	defer wrap(&err, "NodesByOwner")
	var nodes []Node
	err = s.all(ctx, &nodes, `
		SELECT `+nodeColumns+`
		FROM nodes
		WHERE owner = $1
		ORDER BY created_at, id`, owner)
	return nodes, err
}

// Credit is what one round credited to one node, as GET /api/node/{id} lists it.
type Credit struct {
	ID             int64     `json:"id"`
	DistributionID int64     `json:"distributionId"`
	AmountWei      Uint256   `json:"amountWei"`
	CreatedAt      time.Time `json:"createdAt"`
}

// Withdrawal is a withdrawal the ledger has seen against a node, as GET /api/node/{id} lists it.
type Withdrawal struct {
	ID                  int64             `json:"id"`
	AmountWei           Uint256           `json:"amountWei"`
	CumulativeSignedWei Uint256           `json:"cumulativeSignedWei"`
	ToAddress           *string           `json:"toAddress"`
	Deadline            int64             `json:"deadline"`
	TxHash              *string           `json:"txHash"`
	Status              *WithdrawalStatus `json:"status"`
	CreatedAt           time.Time         `json:"createdAt"`
	ConfirmedAt         *time.Time        `json:"confirmedAt"`
}

// NewNode is a node the chain minted, to be recorded.
type NewNode struct {
	ChainNodeID *big.Int
	Tier        int
	Owner       string // lower case
	PriceWei    *big.Int
	MintTx      string
	PaymentID   *int64 // the payment it was minted for, when known
	Block       int64  // the block of its mint (0: not known)
	// NextCreditAt is when it is first due for credit, should no node be scheduled before it
	// (nextRoundSQL); nil: it is never credited.
	NextCreditAt *time.Time
}

// InsertNode records a minted node unless one with its chain id is recorded already, and
// returns the ledger row either way; created tells which.
func (s *Store) InsertNode(ctx context.Context, n NewNode) (_ Node, created bool, err error) {
	defer wrap(&err, "InsertNode")
	return insertNode(ctx, s.db, n)
}

func insertNode(ctx context.Context, db sqlx.QueryerContext, n NewNode) (Node, bool, error) {
	id, err := mintedRowID(n)
	if err != nil {
		return Node{}, false, err
	}
	var node Node
	err = sqlx.GetContext(ctx, db, &node, `
		INSERT INTO nodes (id, tier, owner, price_wei, mint_tx, payment_id, next_credit_at, block_number)
		VALUES ($1, $2, $3, $4, $5, $6, $7, nullif($8, 0))
		ON CONFLICT (id) DO NOTHING
		RETURNING `+nodeColumns, id, n.Tier, n.Owner, Uint256{n.PriceWei}, n.MintTx,
		n.PaymentID, n.NextCreditAt, n.Block)
	if err == nil {
		return node, true, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return Node{}, false, err
	}
	// A node recorded before its mint's block was kept learns it now.
	err = sqlx.GetContext(ctx, db, &node, `
		UPDATE nodes SET block_number = coalesce(block_number, nullif($2, 0)) WHERE id = $1
		RETURNING `+nodeColumns, id, n.Block)
	return node, false, err
}

// RecordedMints returns which of nodes minted the ledger holds as recorded from its mint already
// (active, of its tier, from its transaction, with its payment and its block), by row id: the
// reconciler records only the others.
func (s *Store) RecordedMints(ctx context.Context, nodes []NewNode) (_ map[int64]bool, err error) {
	defer wrap(&err, "RecordedMints")
	ids, tiers, txs := make([]int64, len(nodes)), make([]int64, len(nodes)), make([]string, len(nodes))
	for i, n := range nodes {
		if ids[i], err = mintedRowID(n); err != nil {
			return nil, err
		}
		tiers[i], txs[i] = int64(n.Tier), n.MintTx
	}
	var recorded []int64
	if err := s.db.SelectContext(ctx, &recorded, `
		SELECT n.id FROM nodes n JOIN unnest($1::bigint[], $2::bigint[], $3::text[]) AS m (id, tier, mint_tx)
			ON n.id = m.id AND n.tier = m.tier AND n.mint_tx = m.mint_tx
		WHERE n.status = 'active' AND n.payment_id IS NOT NULL AND n.block_number IS NOT NULL`,
		pq.Array(ids), pq.Array(tiers), pq.Array(txs)); err != nil {
		return nil, err
	}
	out := make(map[int64]bool, len(recorded))
	for _, id := range recorded {
		out[id] = true
	}
	return out, nil
}

// mintedRowID is the ledger row id of minted node n.
func mintedRowID(n NewNode) (int64, error) {
	id, ok := rowID(n.ChainNodeID)
	if !ok {
		return 0, fmt.Errorf("chain node id %s: the factory numbers nodes from 1 within int64", n.ChainNodeID)
	}
	return id, nil
}

// rowID is chain node id id as its ledger row id: the same number. The factory numbers nodes
// 1, 2, 3…, so every id it mints fits a bigint; ok is false for an id no node can have.
func rowID(id *big.Int) (_ int64, ok bool) {
	if id == nil || id.Sign() <= 0 || !id.IsInt64() {
		return 0, false
	}
	return id.Int64(), true
}

// NodeByChainID returns the node with chain node id id; ErrNotFound when the ledger has none.
func (s *Store) NodeByChainID(ctx context.Context, id *big.Int) (_ Node, err error) {
	defer wrap(&err, "NodeByChainID")
	rid, ok := rowID(id)
	if !ok {
		return Node{}, ErrNotFound
	}
	var n Node
	err = s.db.GetContext(ctx, &n, `SELECT `+nodeColumns+` FROM nodes WHERE id = $1`, rid)
	if errors.Is(err, sql.ErrNoRows) {
		return Node{}, ErrNotFound
	}
	return n, err
}
