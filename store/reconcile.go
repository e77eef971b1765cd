package store

import (
	"context"
	"database/sql"
	"errors"
	"math/big"
	"time"

	"github.com/lib/pq"
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
	BlockNumber int64
	At          time.Time // the block's time
}

// Events is what the reconciler read in a range of blocks.
type Events struct {
	Blocks      []ScannedBlock // every block read, in order
	Withdrawals []ChainWithdrawal
	Nodes       []*big.Int // the nodes it synced for these blocks
}

// RecordEvents records, in one transaction, the withdrawals the reconciler read (sent, confirmed
// at their block's time), that it synced Nodes for these blocks, the blocks' hashes, and its
// cursor moved to the last of them; recorded counts the withdrawals new to the ledger. A
// withdrawal is recorded once per log, and not at all while its node is not in the ledger.
func (s *Store) RecordEvents(ctx context.Context, name string, ev Events) (recorded int, err error) {
	defer wrap(&err, "RecordEvents")
	if len(ev.Blocks) == 0 {
		return 0, nil
	}
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	var withdrawals []int64
	for _, w := range ev.Withdrawals { // a few a block at most: one statement each
		id, ok := rowID(w.ChainNodeID)
		if !ok {
			continue // no node has it
		}
		var recorded []int64
		if err := tx.SelectContext(ctx, &recorded, `
			INSERT INTO withdrawals (node_id, amount_wei, to_address, tx_hash, log_index, block_number, status, created_at, confirmed_at)
			SELECT id, $2, $3, $4, $5, $6, 'sent', $7, $7 FROM nodes WHERE id = $1
			ON CONFLICT (tx_hash, log_index) DO NOTHING
			RETURNING id`,
			id, Uint256{w.AmountWei}, w.To, w.TxHash, int64(w.LogIndex), w.BlockNumber, w.At); err != nil {
			return 0, err
		}
		withdrawals = append(withdrawals, recorded...)
	}
	if err := emitWithdrawals(ctx, tx, withdrawals); err != nil {
		return 0, err
	}
	ids := make([]int64, 0, len(ev.Nodes))
	for _, id := range ev.Nodes {
		if id, ok := rowID(id); ok {
			ids = append(ids, id)
		}
	}
	last := ev.Blocks[len(ev.Blocks)-1].Number
	if _, err := tx.ExecContext(ctx, `UPDATE nodes SET reconciled_block = $2 WHERE id = ANY ($1::bigint[])`,
		pq.Array(ids), last); err != nil {
		return 0, err
	}
	if err := advance(ctx, tx, name, ev.Blocks); err != nil {
		return 0, err
	}
	return len(withdrawals), tx.Commit()
}

// RewindEvents undoes RecordEvents above block number (a block both the ledger and the chain
// agree on) after a reorg, and moves the reconciler back to it: the blocks above are forgotten,
// and so are the withdrawals they held, so that the chain's blocks, read again, record each
// withdrawal they hold afresh, at its new block. The nodes synced for those blocks are
// NodesReconciledAfter the moved cursor until the reconciler syncs them again. Nodes it found
// minted there stay, as minted payments do (RewindScan), for the drift report.
func (s *Store) RewindEvents(ctx context.Context, name string, number int64, hash string) (forgotten int64, err error) {
	defer wrap(&err, "RewindEvents")
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	var withdrawals []int64
	if err := tx.SelectContext(ctx, &withdrawals, `
		DELETE FROM withdrawals WHERE log_index IS NOT NULL AND block_number > $1 RETURNING id`, number); err != nil { // the payments scan's reverted calls are its own
		return 0, err
	}
	forgotten = int64(len(withdrawals))
	if err := revert(ctx, tx, withdrawalSubjects(withdrawals), EventWithdrawalRecorded); err != nil {
		return 0, err
	}
	if err := forgetDigests(ctx, tx, number, hash); err != nil {
		return 0, err
	}
	if err := rewindTo(ctx, tx, name, number, hash); err != nil {
		return 0, err
	}
	return forgotten, tx.Commit()
}

// NodesReconciledAfter returns the chain ids of the nodes the reconciler last synced for blocks
// above block: after a rewind to block, those whose events a reorg may have taken away.
func (s *Store) NodesReconciledAfter(ctx context.Context, block int64) (_ []*big.Int, err error) {
	defer wrap(&err, "NodesReconciledAfter")
	var ids []Uint256
	if err := s.db.SelectContext(ctx, &ids, `
		SELECT id FROM nodes WHERE reconciled_block > $1 ORDER BY id`, block); err != nil {
		return nil, err
	}
	out := make([]*big.Int, len(ids))
	for i, id := range ids {
		out[i] = id.Int
	}
	return out, nil
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
// A node with a credit in a round not yet settled keeps its ledger cumulative total: the credit
// pass adds the round once it settles, and taking the chain's in between would count the credit
// twice. Its owner and withdrawn total are the chain's all the same, and its balance is what the
// ledger credited less what the chain says was withdrawn (never below zero, while a withdrawal
// spends a credit the ledger has yet to record: ConfirmRound puts the balance right).
func (s *Store) SyncNode(ctx context.Context, n ChainNode) (changed bool, err error) {
	defer wrap(&err, "SyncNode")
	id, ok := rowID(n.ChainNodeID)
	if !ok {
		return false, nil // no node has it
	}
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	// The chain has the node: one a reorg had taken back (MarkUnconfirmed) is active again, and
	// its payment minted again for the webhooks.
	var synced []struct {
		Was     NodeStatus `db:"was"`
		Payment *int64     `db:"payment_id"`
	}
	err = s.allIn(ctx, tx, &synced, `
		WITH target AS (
			SELECT m.id, m.status AS was, m.payment_id,
				CASE WHEN p.pending THEN m.cumulative_wei ELSE $4::numeric END AS cumulative,
				CASE WHEN p.pending THEN greatest(m.cumulative_wei - $5::numeric, 0) ELSE $3::numeric END AS balance
			FROM nodes m, LATERAL (SELECT EXISTS (
				SELECT 1 FROM credits c JOIN distributions d ON d.id = c.distribution_id
				WHERE c.node_id = m.id AND d.status = 'pending') AS pending) p
			WHERE m.id = $1
		)
		UPDATE nodes SET owner = $2, balance_wei = t.balance, cumulative_wei = t.cumulative, withdrawn_wei = $5, status = 'active'
		FROM target t
		WHERE nodes.id = t.id
			AND (owner, balance_wei, cumulative_wei, withdrawn_wei, status)
				IS DISTINCT FROM ($2, t.balance, t.cumulative, $5::numeric, 'active')
		RETURNING t.was, t.payment_id`, id, n.Owner, Uint256{n.BalanceWei}, Uint256{n.CumulativeWei}, Uint256{n.WithdrawnWei})
	if err != nil || len(synced) == 0 {
		return false, err
	}
	if s := synced[0]; s.Was == NodeUnconfirmed && s.Payment != nil {
		if err := emitPayments(ctx, tx, EventPaymentMinted, []int64{*s.Payment}); err != nil {
			return false, err
		}
	}
	return true, tx.Commit()
}

// MarkUnconfirmed marks a node the chain does not have (a reorg took its mint back)
// unconfirmed: credit rounds leave it out until the chain has it again.
func (s *Store) MarkUnconfirmed(ctx context.Context, chainNodeID *big.Int) (err error) {
	defer wrap(&err, "MarkUnconfirmed")
	id, ok := rowID(chainNodeID)
	if !ok {
		return nil // no node has it
	}
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// The webhooks' payment.minted of a node that was active is taken back.
	var payments []int64
	if err := tx.SelectContext(ctx, &payments, `
		WITH old AS (SELECT id, status, payment_id FROM nodes WHERE id = $1 FOR UPDATE),
		marked AS (UPDATE nodes SET status = 'unconfirmed' FROM old WHERE nodes.id = old.id RETURNING old.status, old.payment_id)
		SELECT payment_id FROM marked WHERE status = 'active' AND payment_id IS NOT NULL`, id); err != nil {
		return err
	}
	if err := revert(ctx, tx, paymentSubjects(payments), EventPaymentMinted); err != nil {
		return err
	}
	return tx.Commit()
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
