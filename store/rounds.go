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

var (
	// ErrRoundPending is StartRound's answer while an earlier round is still pending: it has to be
	// finished first, or its nodes could be credited in two rounds at once.
	ErrRoundPending = errors.New("a credit round is still pending")
	// ErrNothingDue is StartRound's answer when no node is due for credit. It is an ErrNotFound.
	ErrNothingDue = fmt.Errorf("no node is due for credit: %w", ErrNotFound)
)

// LedgerBehindError is StartRound's and RepriceRound's answer when the chain has nodes the ledger
// has not recorded yet: a round credits every node the chain has, so the ledger must know each.
type LedgerBehindError struct {
	ChainNodes int64 // the chain's nodeCount
	Known      int64 // how many of nodes 1 to ChainNodes the ledger has, active
}

func (e *LedgerBehindError) Error() string {
	return fmt.Sprintf("the chain has %d nodes and the ledger has recorded %d of them", e.ChainNodes, e.Known)
}

// ErrTiersDisagree is StartRound's and RepriceRound's answer when the chain counts the nodes of
// a tier differently from the ledger: the contract pays a node by the tier the chain has for it,
// so no round is priced until the two agree (the drift report shows the nodes).
var ErrTiersDisagree = errors.New("the chain and the ledger disagree on the tiers of the nodes")

// NewRound is what a round is priced from: the mode and amount the operator configured, and the
// factory's state it will meet on chain, read at one block.
type NewRound struct {
	Mode           DistMode
	AmountWei      *big.Int       // fixed: the base per node; pool: the pool
	ChainNodes     int64          // the chain's nodeCount: the round credits nodes 1 to ChainNodes
	CarryWei       *big.Int       // the chain's poolCarry
	TierNodes      map[int]int64  // the chain's node count of each tier that has nodes (nil: not checked)
	Weights        map[int]uint32 // the factory's payoutBps of each tier (a tier not named: 0)
	WeightsVersion uint64         // the factory's weightsVersion, which the round's call names
}

// Round is a distribution round as the credit pass works on it: one factory.distribute call.
type Round struct {
	ID         int64         `db:"id"` // also the round id on chain, which it accepts once
	Mode       DistMode      `db:"mode"`
	AmountWei  Uint256       `db:"amount_wei"`
	ChainNodes int64         `db:"chain_nodes"`
	CarryWei   Uint256       `db:"carry_wei"`
	Weights    pq.Int64Array `db:"weights"` // the factory's payoutBps by tier id, as priced
	// WeightsVersion is the factory's weightsVersion the round was priced at: its call names it.
	WeightsVersion int64       `db:"weights_version"`
	TotalWei       Uint256     `db:"total_wei"`
	NodeCount      int         `db:"node_count"` // the nodes credited more than zero
	Status         RoundStatus `db:"status"`     // pending, then confirmed
	TxHash         *string     `db:"tx_hash"`    // its newest signed transaction, stored before it is sent
	Nonce          *int64      `db:"nonce"`
	Raw            []byte      `db:"raw"`
}

// Value is what the round's transaction carries: a fixed round's total, or a pool round's whole
// pool (what rounding leaves stays in the contract as poolCarry, for the next pool round).
func (r Round) Value() *big.Int {
	if r.Mode == DistPool {
		return r.AmountWei.Int
	}
	return r.TotalWei.Int
}

// Repriced is the round's mode and amount for the chain's state now, for pricing it again.
func (r Round) Repriced(chain NewRound) NewRound {
	chain.Mode, chain.AmountWei = r.Mode, r.AmountWei.Int
	return chain
}

// nextRoundSQL is when the next round is due: the next_at of the last round confirmed, or, before
// any, when the first node falls due (a period after its mint). One value for every node: a round
// credits them all. A node's own next_credit_at is set at its mint and says only that it is
// scheduled, and when it would first be due were it the first node.
const nextRoundSQL = `coalesce(
	(SELECT next_at FROM distributions WHERE status = 'confirmed' AND next_at IS NOT NULL ORDER BY id DESC LIMIT 1),
	(SELECT min(next_credit_at) FROM nodes WHERE status = 'active'))`

const roundColumns = `id, mode, amount_wei, chain_nodes, carry_wei, weights, weights_version, total_wei, node_count, status, tx_hash, nonce, raw`

// StartRound writes, in one transaction, a pending round priced as factory.distribute will credit
// it, with one credit per node it credits. It answers ErrRoundPending while a round is pending,
// ErrNothingDue when no node is due, and a *LedgerBehindError while the ledger lacks a node the
// chain has.
func (s *Store) StartRound(ctx context.Context, r NewRound) (_ Round, err error) {
	defer wrap(&err, "StartRound")
	tx, err := s.db.BeginTxx(ctx, pricingTx)
	if err != nil {
		return Round{}, err
	}
	defer tx.Rollback()
	// The credit pass's advisory lock keeps a second pass away; this table lock is the backstop
	// for a lost advisory lock: round writers queue here, and each sees the rounds written before
	// it, so no two rounds are ever pending. Readers are not blocked.
	if _, err := tx.ExecContext(ctx, `LOCK TABLE distributions IN SHARE ROW EXCLUSIVE MODE`); err != nil {
		return Round{}, err
	}
	var state struct {
		Pending bool       `db:"pending"`
		DueAt   *time.Time `db:"due_at"` // nil when no node is scheduled
		Due     bool       `db:"due"`
	}
	if err := tx.GetContext(ctx, &state, `
		SELECT EXISTS (SELECT 1 FROM distributions WHERE status = 'pending') AS pending,
			s.at AS due_at, coalesce(s.at <= now(), false) AS due
		FROM (SELECT `+nextRoundSQL+` AS at) s`); err != nil {
		return Round{}, err
	}
	if state.Pending {
		return Round{}, ErrRoundPending
	}
	if !state.Due || r.ChainNodes == 0 {
		return Round{}, ErrNothingDue
	}
	var id int64
	if err := tx.GetContext(ctx, &id, `
		INSERT INTO distributions (total_wei, node_count, mode, funding_mode, status, due_at)
		VALUES (0, 0, $1, 'value', 'pending', $2)
		RETURNING id`, r.Mode, state.DueAt); err != nil {
		return Round{}, err
	}
	round, err := priceRound(ctx, tx, id, r)
	if err != nil {
		return Round{}, err
	}
	return round, tx.Commit()
}

// RepriceRound prices pending round id again for the chain's state now: its transaction was
// refused because a node was minted since it was priced (NodeCountChanged), or the factory's
// owner changed a tier's weight (WeightsChanged). A version of its old
// transaction mined after all would credit nothing: it names the old count (see jobs.submitRound).
func (s *Store) RepriceRound(ctx context.Context, id int64, r NewRound) (_ Round, err error) {
	defer wrap(&err, "RepriceRound")
	tx, err := s.db.BeginTxx(ctx, pricingTx)
	if err != nil {
		return Round{}, err
	}
	defer tx.Rollback()
	var pending bool
	if err := tx.GetContext(ctx, &pending, `SELECT status = 'pending' FROM distributions WHERE id = $1 FOR UPDATE`, id); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return Round{}, ErrNotFound
		}
		return Round{}, err
	}
	if !pending {
		return Round{}, ErrNotFound
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM credits WHERE distribution_id = $1`, id); err != nil {
		return Round{}, err
	}
	round, err := priceRound(ctx, tx, id, r)
	if err != nil {
		return Round{}, err
	}
	return round, tx.Commit()
}

// pricingTx is how a round is priced: its queries see one snapshot, so the nodes it counts are
// the nodes it credits, whatever the reconciler commits meanwhile.
var pricingTx = &sql.TxOptions{Isolation: sql.LevelRepeatableRead}

// tierNodes is one tier's weight (the chain's) and how many of the round's nodes it has.
type tierNodes struct {
	Tier      int   `db:"tier"`
	PayoutBps int64 `db:"-"` // the chain's, from NewRound.Weights
	Nodes     int64 `db:"nodes"`
}

// priceRound prices round id for r, writes its credits and figures, and returns it.
func priceRound(ctx context.Context, tx *sqlx.Tx, id int64, r NewRound) (Round, error) {
	// Every tier, with the nodes it has among 1 to ChainNodes, weighted as the chain weighs it.
	var tiers []tierNodes
	if err := tx.SelectContext(ctx, &tiers, `
		SELECT t.id AS tier, count(n.id) AS nodes
		FROM tiers t
		LEFT JOIN nodes n ON n.tier = t.id AND n.status = 'active' AND n.id <= $1
		GROUP BY t.id
		ORDER BY t.id`, r.ChainNodes); err != nil {
		return Round{}, err
	}
	var known int64
	for i, t := range tiers {
		known += t.Nodes
		tiers[i].PayoutBps = int64(r.Weights[t.Tier])
	}
	if known != r.ChainNodes {
		return Round{}, &LedgerBehindError{ChainNodes: r.ChainNodes, Known: known}
	}
	for _, t := range tiers {
		if r.TierNodes != nil && t.Nodes != r.TierNodes[t.Tier] {
			return Round{}, fmt.Errorf("tier %d: the chain counts %d nodes, the ledger %d: %w", t.Tier, r.TierNodes[t.Tier], t.Nodes, ErrTiersDisagree)
		}
	}
	inc, total, err := price(r, tiers)
	if err != nil {
		return Round{}, err
	}
	weights := make([]int64, 0, len(tiers))
	tierIDs := make([]int64, len(tiers))
	incs := make([]string, len(tiers))
	for i, t := range tiers {
		for len(weights) < t.Tier {
			weights = append(weights, 0) // a tier id nobody uses
		}
		weights = append(weights, t.PayoutBps)
		tierIDs[i], incs[i] = int64(t.Tier), inc[i].String()
	}
	// One statement for the credits: a round can credit a million nodes. A node its tier pays
	// nothing this round gets no credit row.
	res, err := tx.ExecContext(ctx, `
		INSERT INTO credits (distribution_id, node_id, amount_wei)
		SELECT $1, n.id, x.inc
		FROM unnest($2::smallint[], $3::numeric[]) AS x (tier, inc)
		JOIN nodes n ON n.tier = x.tier AND n.status = 'active' AND n.id <= $4
		WHERE x.inc > 0`, id, pq.Array(tierIDs), pq.Array(incs), r.ChainNodes)
	if err != nil {
		return Round{}, err
	}
	credited, err := res.RowsAffected()
	if err != nil {
		return Round{}, err
	}
	var round Round
	err = tx.GetContext(ctx, &round, `
		UPDATE distributions
		SET total_wei = $2, node_count = $3, amount_wei = $4, chain_nodes = $5, carry_wei = $6, weights = $7,
			mode = $8, weights_version = $9, tx_hash = NULL, nonce = NULL, raw = NULL
		WHERE id = $1
		RETURNING `+roundColumns,
		id, Uint256{total}, credited, Uint256{r.AmountWei}, r.ChainNodes, Uint256{r.CarryWei}, pq.Int64Array(weights), r.Mode,
		int64(r.WeightsVersion))
	return round, err
}

var bpsBase = big.NewInt(10000)

// price repeats factory.distribute's arithmetic: what the round credits each node of tiers[i]
// (inc[i]) and in all. Every rounding happens once for the whole round, never per node:
//
//	fixed: inc_t = floor(base * w_t / 10000)
//	pool:  unit = floor((pool + carry) / W), W = sum of nodes_t * w_t; inc_t = unit * w_t
//
// so the round's total is exactly the sum of its credits, and a pool's remainder stays in the
// contract's carry.
func price(r NewRound, tiers []tierNodes) (inc []*big.Int, total *big.Int, err error) {
	if r.AmountWei == nil || r.AmountWei.Sign() < 0 {
		return nil, nil, fmt.Errorf("round amount %v", r.AmountWei)
	}
	unit := new(big.Int)
	switch r.Mode {
	case DistFixed:
	case DistPool:
		weight := new(big.Int)
		for _, t := range tiers {
			weight.Add(weight, new(big.Int).Mul(big.NewInt(t.Nodes), big.NewInt(t.PayoutBps)))
		}
		if weight.Sign() > 0 {
			pool := new(big.Int).Add(r.AmountWei, r.CarryWei)
			unit.Quo(pool, weight)
		}
	default:
		return nil, nil, fmt.Errorf("unknown distribution mode %q (want fixed or pool)", r.Mode)
	}
	inc = make([]*big.Int, len(tiers))
	total = new(big.Int)
	for i, t := range tiers {
		w := big.NewInt(t.PayoutBps)
		if r.Mode == DistFixed {
			inc[i] = new(big.Int).Mul(r.AmountWei, w)
			inc[i].Quo(inc[i], bpsBase)
		} else {
			inc[i] = new(big.Int).Mul(unit, w)
		}
		total.Add(total, new(big.Int).Mul(inc[i], big.NewInt(t.Nodes)))
	}
	return inc, total, nil
}

// PendingRound returns the oldest pending round; ErrNotFound when none is.
func (s *Store) PendingRound(ctx context.Context) (_ Round, err error) {
	defer wrap(&err, "PendingRound")
	var r Round
	err = s.db.GetContext(ctx, &r, `
		SELECT `+roundColumns+`
		FROM distributions
		WHERE status = 'pending'
		ORDER BY id
		LIMIT 1`)
	if errors.Is(err, sql.ErrNoRows) {
		return Round{}, ErrNotFound
	}
	return r, err
}

// StoreRoundTx records a signed version of a round's transaction before it is sent, so that a
// pass that dies after sending can send the very same bytes again: in the outbox, and as the
// round's newest. ErrNotFound when the round is confirmed already, or does not exist.
func (s *Store) StoreRoundTx(ctx context.Context, roundID int64, v SentTx) (err error) {
	defer wrap(&err, "StoreRoundTx")
	return s.keepVersion(ctx, v, TxFor{RoundID: roundID}, `
		UPDATE distributions SET tx_hash = $2, nonce = $3, raw = $4
		WHERE id = $1 AND status = 'pending'`, roundID, v.Hash, v.Nonce, v.Raw)
}

// ConfirmRound records, in one transaction, that round id was credited on chain by transaction
// txHash in block (nil and 0: by a transaction not known, recorded as null rather than a wrong one): the round is
// confirmed and each credit is added to its node's cumulative total (and balance). The next round
// is due a period after this one fell due, or after now when that is still in the past, so that
// missed periods are not credited in a burst: one time for every node (nextRoundSQL), written
// here, never per node. Nodes minted after the round was priced join the next one. applied is
// false when the round was confirmed before: it is never applied twice.
func (s *Store) ConfirmRound(ctx context.Context, id int64, txHash *string, block int64, period time.Duration) (applied bool, err error) {
	defer wrap(&err, "ConfirmRound")
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	if applied, err = confirmRound(ctx, tx, id, txHash, block, period); err != nil || !applied {
		return applied, err
	}
	return true, tx.Commit()
}

// RecordRound records round id, which the chain credited by txHash in block at time at, as a
// rebuild finds it (jobs.Config.Observe): priced for r as the credit pass prices a round (r's
// TierNodes nil: the ledger's nodes are taken as the chain's), then confirmed, in one
// transaction. applied is false when the ledger has the round already.
func (s *Store) RecordRound(ctx context.Context, id int64, r NewRound, txHash string, block int64, at time.Time) (applied bool, err error) {
	defer wrap(&err, "RecordRound")
	tx, err := s.db.BeginTxx(ctx, pricingTx)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `
		INSERT INTO distributions (id, total_wei, node_count, mode, funding_mode, status, due_at)
		VALUES ($1, 0, 0, $2, 'value', 'pending', $3) ON CONFLICT (id) DO NOTHING`, id, r.Mode, at)
	if err != nil {
		return false, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return false, err
	}
	// The rounds the service credits after a rebuild are numbered after the chain's.
	if _, err := tx.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence('distributions', 'id'), (SELECT max(id) FROM distributions))`); err != nil {
		return false, err
	}
	if _, err := priceRound(ctx, tx, id, r); err != nil {
		return false, err
	}
	if applied, err = confirmRound(ctx, tx, id, &txHash, block, 0); err != nil || !applied {
		return applied, err
	}
	return true, tx.Commit()
}

// confirmRound is ConfirmRound in tx, which the caller commits when applied.
func confirmRound(ctx context.Context, tx *sqlx.Tx, id int64, txHash *string, block int64, period time.Duration) (applied bool, err error) {
	res, err := tx.ExecContext(ctx, `
		UPDATE distributions
		SET status = 'confirmed', confirmed_at = now(), tx_hash = $2, block_number = nullif($4, 0), nonce = NULL, raw = NULL,
			next_at = CASE WHEN due_at + $3 * interval '1 microsecond' > now() THEN due_at + $3 * interval '1 microsecond'
				ELSE now() + $3 * interval '1 microsecond' END
		WHERE id = $1 AND status = 'pending'`,
		id, txHash, period.Microseconds(), block)
	if err != nil {
		return false, err
	}
	if n, err := res.RowsAffected(); err != nil {
		return false, err
	} else if n == 0 {
		var exists bool
		if err := tx.GetContext(ctx, &exists, `SELECT EXISTS (SELECT 1 FROM distributions WHERE id = $1)`, id); err != nil {
			return false, err
		}
		if !exists {
			return false, ErrNotFound
		}
		return false, nil
	}
	// Room for the join's hash table, so the rows reach the update in table order: at a million
	// nodes, a join spilled to disk in batches doubles the time the update takes.
	if _, err := tx.ExecContext(ctx, `SET LOCAL work_mem = '256MB'`); err != nil {
		return false, err
	}
	// The balance is what was credited less what the chain says was withdrawn (SyncNode may have
	// taken a withdrawal of this very round's credit before the round was recorded).
	if _, err := tx.ExecContext(ctx, `
		UPDATE nodes n
		SET cumulative_wei = n.cumulative_wei + c.amount_wei,
			balance_wei = greatest(n.cumulative_wei + c.amount_wei - n.withdrawn_wei, 0)
		FROM credits c
		WHERE c.distribution_id = $1 AND n.id = c.node_id`, id); err != nil {
		return false, err
	}
	return true, emitRound(ctx, tx, id)
}
