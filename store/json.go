package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"time"
)

// One rule for the API's JSON (said also in package handlers' comment): the handlers own its
// shapes and build them in Go; this file builds one in SQL only where a benchmark shows it pays.
// Here one value comes back instead of rows to decode into big numbers and times and encode
// again, which cut the server's CPU a request from 125 to 69 µs on /api/nodes/{address}, 866
// to 224 µs on /api/node/{id} and 473 to 141 µs on /api/distributions (bench/README.md,
// Findings). PostgreSQL is the only place that writes a node or a round as JSON: the shapes are
// those of web/openapi.json (wei as decimal strings, times ISO 8601 UTC with milliseconds:
// api_time, migrations/0005), which the web tests check every answer against. The pages that
// show the same things decode the same documents into Node, NodeDetail and Distribution, whose
// json names follow them (TestNodeDocumentsAreTheRows, TestRoundDocumentsAreTheRows).

// nodeJSON is a node row n as the API shows it in lists (the Node schema).
const nodeJSON = `'id', n.id, 'chainNodeId', n.id::text, 'tier', n.tier::text,
	'balanceWei', n.balance_wei::text, 'cumulativeWei', n.cumulative_wei::text,
	'withdrawnWei', n.withdrawn_wei::text, 'mintTx', n.mint_tx, 'status', n.status,
	'createdAt', api_time(n.created_at)`

// NodesByOwnerJSON is NodesByOwner as the JSON array of GET /api/nodes/{address}.
func (s *Store) NodesByOwnerJSON(ctx context.Context, owner string) (_ json.RawMessage, err error) {
	defer wrap(&err, "NodesByOwnerJSON")
	return queryJSON(ctx, s, nodesByOwnerJSONSQL, owner)
}

const nodesByOwnerJSONSQL = `
	SELECT coalesce(json_agg(json_build_object(` + nodeJSON + `) ORDER BY n.created_at, n.id), '[]')
	FROM nodes n
	WHERE n.owner = $1`

// NodeByChainIDJSON is the node with chain node id id as the API lists nodes: the answer of
// POST /api/nodes/sync. ErrNotFound when the ledger has none.
func (s *Store) NodeByChainIDJSON(ctx context.Context, id *big.Int) (_ json.RawMessage, err error) {
	defer wrap(&err, "NodeByChainIDJSON")
	rid, ok := rowID(id)
	if !ok {
		return nil, ErrNotFound
	}
	return queryJSON(ctx, s, nodeByChainIDJSONSQL, rid)
}

const nodeByChainIDJSONSQL = `
	SELECT json_build_object(` + nodeJSON + `)
	FROM nodes n
	WHERE n.id = $1`

// NodeJSON is the node of id (its chain node id, which is its ledger row id) with its latest
// limit credits from confirmed rounds and withdrawals, as the JSON object of GET /api/node/{id},
// in one round trip. ErrNotFound when there is no such node.
func (s *Store) NodeJSON(ctx context.Context, id *big.Int, limit int) (_ json.RawMessage, err error) {
	defer wrap(&err, "NodeJSON")
	return s.nodeJSON(ctx, id, limit)
}

func (s *Store) nodeJSON(ctx context.Context, id *big.Int, limit int) (json.RawMessage, error) {
	rid, ok := rowID(id)
	if !ok {
		return nil, ErrNotFound
	}
	return queryJSON(ctx, s, nodeJSONSQL, rid, limit)
}

// NodeDetail is a node with its latest credits and withdrawals, newest first.
type NodeDetail struct {
	Node
	NextCreditAt *time.Time   `json:"nextCreditAt"` // when the node is next due for credit; nil: not scheduled
	Credits      []Credit     `json:"credits"`
	Withdrawals  []Withdrawal `json:"withdrawals"`
}

// Node is NodeJSON's document decoded, for the node's page: the page and the API read the node
// with one query and one lookup rule. The page is not the hot path; decoding costs it little.
func (s *Store) Node(ctx context.Context, id *big.Int, limit int) (_ NodeDetail, err error) {
	defer wrap(&err, "Node")
	doc, err := s.nodeJSON(ctx, id, limit)
	if err != nil {
		return NodeDetail{}, err
	}
	var n NodeDetail
	err = json.Unmarshal(doc, &n)
	return n, err
}

var nodeJSONSQL = `
	SELECT json_build_object(` + nodeJSON + `, 'owner', n.owner, 'priceWei', n.price_wei::text,
		'nextCreditAt', CASE WHEN n.status = 'active' AND n.next_credit_at IS NOT NULL THEN api_time(` + nextRoundSQL + `) END,
		'credits', (` + creditListSQL("n.id", "", "$2") + `),
		'withdrawals', (` + withdrawalListSQL("n.id", "", "$2") + `))
	FROM nodes n
	WHERE n.id = $1`

// creditListSQL is the JSON array of node's confirmed credits, newest first, that also match
// `also` (an SQL condition: "" or " AND ..."), at most limit: one query for the node document's
// list and for the node page's further pages (node, also and limit are SQL text, never input).
func creditListSQL(node, also, limit string) string {
	return `
			SELECT coalesce(json_agg(json_build_object('id', c.id, 'distributionId', c.distribution_id,
				'amountWei', c.amount_wei::text, 'createdAt', api_time(c.created_at))
				ORDER BY c.created_at DESC, c.id DESC), '[]')
			FROM (
				SELECT c.id, c.distribution_id, c.amount_wei, c.created_at
				FROM credits c
				JOIN distributions d ON d.id = c.distribution_id
				WHERE c.node_id = ` + node + ` AND d.status = 'confirmed'` + also + `
				ORDER BY c.created_at DESC, c.id DESC
				LIMIT ` + limit + `
			) c`
}

// withdrawalJSON is a withdrawal row w as the API shows it in a node's list.
const withdrawalJSON = `'id', w.id, 'amountWei', w.amount_wei::text,
	'cumulativeSignedWei', w.cumulative_signed_wei::text, 'toAddress', w.to_address,
	'deadline', w.deadline, 'txHash', w.tx_hash, 'status', w.status,
	'createdAt', api_time(w.created_at), 'confirmedAt', api_time(w.confirmed_at)`

// withdrawalListSQL is creditListSQL for the withdrawals of node.
func withdrawalListSQL(node, also, limit string) string {
	return `
			SELECT coalesce(json_agg(json_build_object(` + withdrawalJSON + `)
				ORDER BY w.created_at DESC, w.id DESC), '[]')
			FROM (
				SELECT *
				FROM withdrawals w
				WHERE w.node_id = ` + node + also + `
				ORDER BY w.created_at DESC, w.id DESC
				LIMIT ` + limit + `
			) w`
}

// DistributionsJSON is Distributions as the JSON array of GET /api/distributions.
func (s *Store) DistributionsJSON(ctx context.Context, limit int) (_ json.RawMessage, err error) {
	defer wrap(&err, "DistributionsJSON")
	return queryJSON(ctx, s, distributionsJSONSQL, limit)
}

// roundJSON is a distribution row d as the API shows it (the Distribution schema).
const roundJSON = `'id', d.id, 'totalWei', d.total_wei::text,
	'nodeCount', d.node_count, 'mode', d.mode, 'fundingMode', d.funding_mode, 'status', d.status,
	'txHash', d.tx_hash, 'createdAt', api_time(d.created_at), 'confirmedAt', api_time(d.confirmed_at)`

const distributionsJSONSQL = `
	SELECT coalesce(json_agg(json_build_object(` + roundJSON + `) ORDER BY d.created_at DESC, d.id DESC), '[]')
	FROM (
		SELECT *
		FROM distributions
		ORDER BY created_at DESC, id DESC
		LIMIT $1
	) d`

// queryJSON runs a prepared query whose one row holds one JSON value; ErrNotFound for no row.
func queryJSON(ctx context.Context, s *Store, query string, args ...any) (json.RawMessage, error) {
	var doc []byte
	err := s.get(ctx, &doc, query, args...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	return doc, err
}

// jsonValue writes v as the value of a json or jsonb column.
func jsonValue(v any) (driver.Value, error) {
	b, err := json.Marshal(v)
	return string(b), err
}

// scanJSON reads a json or jsonb column into dst.
func scanJSON(src, dst any) error {
	switch v := src.(type) {
	case []byte:
		return json.Unmarshal(v, dst)
	case string:
		return json.Unmarshal([]byte(v), dst)
	}
	return fmt.Errorf("store: cannot scan %T into %T", src, dst)
}
