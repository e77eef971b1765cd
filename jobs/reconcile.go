package jobs

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"nodeledger/chain"
	"nodeledger/store"
)

// reconcileCursor names the reconciler's cursor over the factory's events.
const reconcileCursor = "reconcile"

// ReconcileSummary is what one reconciler pass did.
type ReconcileSummary struct {
	Ran         bool   `json:"ran"`
	Reason      string `json:"reason,omitempty"`
	FromBlock   uint64 `json:"fromBlock,omitempty"`
	ToBlock     uint64 `json:"toBlock,omitempty"`
	NodesFound  int    `json:"nodesFound"`  // minted nodes the ledger had not recorded
	Withdrawals int    `json:"withdrawals"` // withdrawals recorded from Withdrawn events
	Synced      int    `json:"synced"`      // nodes whose owner or figures were set to the chain's
	Rewound     int64  `json:"rewound"`     // blocks taken back after a reorg
}

// Reconcile brings the ledger in line with the chain, which is right where they differ: it
// follows the factory's NodeMinted events (recording nodes nobody recorded, e.g. after a crash
// or a mint made outside the service), Withdrawn events (recording withdrawals) and Transferred
// events, and sets each touched node's owner and figures to nodeInfo's. After a reorg deeper
// than the confirmations it takes back what it read from the blocks replaced, and reads the
// chain's blocks instead.
func (j *Jobs) Reconcile(ctx context.Context) (_ ReconcileSummary, err error) {
	ctx, end, ok, err := j.startPass(ctx, store.LockReconcile, store.PassReconcile, &err)
	if err != nil {
		return ReconcileSummary{}, err
	}
	defer end()
	if !ok {
		return ReconcileSummary{Reason: "another reconciler pass is running"}, nil
	}

	sum := ReconcileSummary{Ran: true}
	head, err := j.chain.HeadNumber(ctx)
	if err != nil || head < j.cfg.Confirmations {
		return sum, err
	}
	target := head - j.cfg.Confirmations
	if j.cfg.ScanTo > 0 {
		target = min(target, j.cfg.ScanTo)
	}
	from := j.cfg.ScanFrom
	switch cur, err := j.store.Cursor(ctx, reconcileCursor); {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		return sum, err
	default:
		if from, sum.Rewound, err = j.checkCursor(ctx, reconcileCursor, cur, j.store.RewindEvents); err != nil {
			return sum, err
		}
	}
	if from > target {
		return sum, nil
	}
	to := min(target, from+j.cfg.BlocksPerPass-1)
	// The hashes kept are those of the blocks holding events, as their logs give them, and of the
	// range's last block, read before the events: a reorg in between leaves the hash of a
	// replaced block, which the next pass notices, so it reads the events again. A reorg that
	// replaced a block between two kept ones replaced the last one too (checkCursor).
	last, err := j.chain.BlockHashes(ctx, []uint64{to})
	if err != nil {
		return sum, err
	}
	events, err := j.chain.Events(ctx, from, to)
	if err != nil {
		return sum, err
	}
	return sum, j.reconcile(ctx, from, to, last[to], events, &sum)
}

// reconcileScanned is the reconciler's pass over the blocks a payments scan has just recorded,
// s, with the factory's events it read in the same eth_getLogs as its own logs
// (chain.LedgerLogs): the ledger then holds blocks final at the scan's pace, for no request of
// the reconciler's own. It runs where the reconciler stands where the scan stood before them, on
// the same block, and while no other reconciler pass runs; elsewhere (behind after a pass it
// could not run, ahead, or after a reorg) the reconciler's own pass takes the blocks up. The
// payments pass runs it last, once it has recorded the mints it saw mined, as the tick runs the
// reconciler's own pass after it: a mint the reconciler finds is then one the service did not
// record.
func (j *Jobs) reconcileScanned(ctx context.Context, s scannedBlocks) (err error) {
	ctx, end, ok, err := j.startPass(ctx, store.LockReconcile, store.PassReconcile, &err)
	if err != nil {
		return err
	}
	defer end()
	if !ok {
		return nil
	}
	cur, err := j.store.Cursor(ctx, reconcileCursor)
	switch {
	case errors.Is(err, store.ErrNotFound):
		if s.at != nil || s.from != j.cfg.ScanFrom {
			return nil
		}
	case err != nil:
		return err
	case s.at == nil || cur != *s.at:
		return nil
	}
	return j.reconcile(ctx, s.from, s.to, s.last, s.events, &ReconcileSummary{Ran: true})
}

// reconcile records what the factory's events of blocks from..to say, read after last, the hash
// of block to, and moves the reconciler's cursor to it.
func (j *Jobs) reconcile(ctx context.Context, from, to uint64, last common.Hash, events chain.FactoryEvents, sum *ReconcileSummary) error {
	if h, ok := events.Blocks[to]; ok && h != last {
		return errReorgWhileReading
	}
	events.Blocks[to] = last
	// Nodes synced for blocks a rewind took back are synced again: the chain's blocks may hold
	// none of what moved them.
	stale, err := j.store.NodesReconciledAfter(ctx, int64(from)-1)
	if err != nil {
		return err
	}

	read := store.Events{}
	touched := map[string]*big.Int{}
	for _, id := range stale {
		touched[id.String()] = id
	}
	recorded, err := j.recordedMints(ctx, events.Minted)
	if err != nil {
		return err
	}
	for _, m := range events.Minted {
		if recorded[m.ID.Int64()] { // the payments pass recorded it from this very event
			read.Nodes = append(read.Nodes, m.ID)
			continue
		}
		found, stale, err := j.recordFound(ctx, m)
		if err != nil {
			return err
		}
		if found {
			sum.NodesFound++
		}
		// A node the payments pass recorded has its owner and tier from this very event, and
		// what rounds credit it the ledger credits too: only one the ledger did not have
		// (minted outside the service, maybe credited since) or left unconfirmed is read, not
		// one request a node. Each is still marked read at these blocks, so a reorg that takes
		// them back reads it again.
		if stale {
			touched[m.ID.String()] = m.ID
		} else {
			read.Nodes = append(read.Nodes, m.ID)
		}
	}
	if j.cfg.Observe { // the service records its rounds as the credit pass confirms them
		if err := j.recordRounds(ctx, events.Distributed); err != nil {
			return err
		}
	}
	for _, w := range events.Withdrawn {
		read.Withdrawals = append(read.Withdrawals, store.ChainWithdrawal{
			ChainNodeID: w.ID, AmountWei: w.Amount, To: hexLower(w.To), TxHash: hexLower(w.TxHash),
			LogIndex: w.LogIndex, BlockNumber: int64(w.Block), At: time.Unix(int64(w.Time), 0),
		})
		touched[w.ID.String()] = w.ID
	}
	for _, id := range events.Transferred {
		touched[id.String()] = id
	}
	if err := j.syncTouched(ctx, touched, to, sum, &read); err != nil {
		return err
	}
	for _, n := range slices.Sorted(maps.Keys(events.Blocks)) {
		read.Blocks = append(read.Blocks, store.ScannedBlock{Number: int64(n), Hash: hexLower(events.Blocks[n])})
	}
	if sum.Withdrawals, err = j.store.RecordEvents(ctx, reconcileCursor, read); err != nil {
		return err
	}
	sum.FromBlock, sum.ToBlock = from, to
	return nil
}

// syncTouched sets each node of touched to what the chain says of it, and adds it to the nodes
// read. A rebuild reads the nodes as they were at block to, its range's end: the rounds recorded
// up to it credited them, and the chain's later rounds are recorded by later passes.
func (j *Jobs) syncTouched(ctx context.Context, touched map[string]*big.Int, to uint64, sum *ReconcileSummary, read *store.Events) error {
	var at *big.Int
	if j.cfg.Observe {
		at = new(big.Int).SetUint64(to)
	}
	for _, id := range touched {
		changed, err := j.syncNode(ctx, id, at)
		if errors.Is(err, chain.ErrUnknownNode) {
			// Minted in a block a reorg took back: the ledger keeps it, unconfirmed, so that no
			// round credits what the contract would refuse, and the drift report names it.
			j.log.Warn("reconciler: the chain has no node the ledger has", "node", id)
			if err := j.store.MarkUnconfirmed(ctx, id); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			return err
		}
		if changed {
			sum.Synced++
		}
		read.Nodes = append(read.Nodes, id)
	}
	return nil
}

// recordedMints is which of minted the ledger has recorded from those very mints (store.RecordedMints).
func (j *Jobs) recordedMints(ctx context.Context, minted []chain.Minted) (map[int64]bool, error) {
	if len(minted) == 0 {
		return nil, nil
	}
	nodes := make([]store.NewNode, len(minted))
	for i, m := range minted {
		nodes[i] = store.NewNode{ChainNodeID: m.ID, Tier: int(m.Tier), MintTx: hexLower(m.TxHash)}
	}
	return j.store.RecordedMints(ctx, nodes)
}

// recordFound records a minted node, linking it to its payment when the ledger has one. found is
// true when the ledger did not have the node yet; stale when what the ledger has of it must be
// read from the chain: found, left unconfirmed by a reorg that took its mint back before, or
// recorded from another mint than this event's (a reorg gave its id to another transaction).
func (j *Jobs) recordFound(ctx context.Context, m chain.Minted) (found, stale bool, err error) {
	next := time.Now().Add(j.cfg.DistPeriod)
	n := store.NewNode{ChainNodeID: m.ID, Tier: int(m.Tier), Owner: hexLower(m.Owner), PriceWei: new(big.Int),
		MintTx: hexLower(m.TxHash), NextCreditAt: &next, Block: int64(m.Block)}
	var node store.Node
	p, err := j.store.PaymentByRef(ctx, hexLower(m.PaymentRef))
	switch {
	case errors.Is(err, store.ErrNotFound):
		node, found, err = j.store.InsertNode(ctx, n)
	case err == nil:
		n.PriceWei = p.ValueWei.Int
		node, found, err = j.store.RecordMint(ctx, p.ID, n)
	}
	stale = found || node.Status != store.NodeActive || node.Tier != int(m.Tier) || node.MintTx != hexLower(m.TxHash)
	return found, stale, err
}

// syncNode sets the ledger's node to what nodeInfo says at block (nil: the head).
func (j *Jobs) syncNode(ctx context.Context, id, block *big.Int) (bool, error) {
	info, err := j.chain.NodeInfoAt(ctx, id, block)
	if err != nil {
		return false, err
	}
	return j.store.SyncNode(ctx, store.ChainNode{ChainNodeID: id, Owner: hexLower(info.Owner),
		BalanceWei: info.Balance, CumulativeWei: info.Credited, WithdrawnWei: info.Withdrawn})
}

// recordRounds records the rounds the factory credited, as a rebuild finds them: each priced
// from its Distributed event (the call's mode, amount and node count) and the tiers' weights at
// its block, with the ledger's nodes, as the credit pass priced it.
func (j *Jobs) recordRounds(ctx context.Context, rounds []chain.Distribution) error {
	if len(rounds) == 0 {
		return nil
	}
	tiers, err := j.store.Tiers(ctx)
	if err != nil {
		return err
	}
	ids := make([]uint8, len(tiers))
	for i, t := range tiers {
		ids[i] = uint8(t.ID)
	}
	for _, d := range rounds {
		st, err := j.chain.RoundStateAt(ctx, d.Block, ids...)
		if err != nil {
			return err
		}
		r := store.NewRound{Mode: store.DistFixed, AmountWei: d.Amount, ChainNodes: d.Nodes.Int64(), CarryWei: d.Carry,
			Weights: st.Weights, WeightsVersion: st.WeightsVersion}
		if d.Mode == chain.RoundPool { // the carry the round found: what its pool and carry left
			r.Mode = store.DistPool
			r.CarryWei = new(big.Int).Sub(new(big.Int).Add(d.Total, d.Carry), d.Amount)
		}
		if _, err := j.store.RecordRound(ctx, d.RoundID.Int64(), r, hexLower(d.TxHash), int64(d.Block), time.Unix(int64(d.Time), 0)); err != nil {
			return fmt.Errorf("round %s: %w", d.RoundID, err)
		}
	}
	return nil
}
