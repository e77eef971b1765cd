package jobs

import (
	"context"
	"errors"
	"math/big"
	"time"

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
}

// Reconcile brings the ledger in line with the chain, which is right where they differ: it
// follows the factory's NodeMinted events (recording nodes nobody recorded, e.g. after a crash
// or a mint made outside the service), Withdrawn events (recording withdrawals) and Transferred
// events, and sets each touched node's owner and figures to nodeInfo's.
func (j *Jobs) Reconcile(ctx context.Context) (ReconcileSummary, error) {
	ctx, end, ok, err := j.startPass(ctx, store.LockReconcile)
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
	from := j.cfg.ScanFrom
	switch cur, err := j.store.Cursor(ctx, reconcileCursor); {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		return sum, err
	default:
		from = uint64(cur.Number) + 1
	}
	if from > target {
		return sum, nil
	}
	to := min(target, from+j.cfg.BlocksPerPass-1)
	events, err := j.chain.Events(ctx, from, to)
	if err != nil {
		return sum, err
	}

	touched := map[string]*big.Int{}
	for _, m := range events.Minted {
		found, err := j.recordFound(ctx, m)
		if err != nil {
			return sum, err
		}
		if found {
			sum.NodesFound++
		}
		touched[m.ID.String()] = m.ID
	}
	for _, w := range events.Withdrawn {
		created, err := j.store.RecordWithdrawal(ctx, store.ChainWithdrawal{
			ChainNodeID: w.ID, AmountWei: w.Amount, To: hexLower(w.To), TxHash: hexLower(w.TxHash),
			LogIndex: w.LogIndex, At: time.Unix(int64(w.Time), 0),
		})
		if err != nil {
			return sum, err
		}
		if created {
			sum.Withdrawals++
		}
		touched[w.ID.String()] = w.ID
	}
	for _, id := range events.Transferred {
		touched[id.String()] = id
	}
	for _, id := range touched {
		changed, err := j.syncNode(ctx, id)
		if err != nil {
			return sum, err
		}
		if changed {
			sum.Synced++
		}
	}
	last, err := j.chain.Blocks(ctx, to, to)
	if err != nil {
		return sum, err
	}
	if err := j.store.RecordScan(ctx, reconcileCursor, store.Scan{Blocks: []store.ScannedBlock{{Number: int64(to), Hash: hexLower(last[0].Hash)}}}); err != nil {
		return sum, err
	}
	sum.FromBlock, sum.ToBlock = from, to
	return sum, nil
}

// recordFound records a minted node, linking it to its payment when the ledger has one; found
// is true when the ledger did not have the node yet.
func (j *Jobs) recordFound(ctx context.Context, m chain.Minted) (found bool, err error) {
	next := time.Now().Add(j.cfg.DistPeriod)
	n := store.NewNode{ChainNodeID: m.ID, Tier: int(m.Tier), Owner: hexLower(m.Owner), PriceWei: new(big.Int),
		MintTx: hexLower(m.TxHash), NextCreditAt: &next}
	p, err := j.store.PaymentByRef(ctx, hexLower(m.PaymentRef))
	switch {
	case errors.Is(err, store.ErrNotFound):
		_, created, err := j.store.InsertNode(ctx, n)
		return created, err
	case err != nil:
		return false, err
	}
	n.PriceWei = p.ValueWei.Int
	_, created, err := j.store.RecordMint(ctx, p.ID, n)
	return created, err
}

// syncNode sets the ledger's node to what nodeInfo says.
func (j *Jobs) syncNode(ctx context.Context, id *big.Int) (bool, error) {
	info, err := j.chain.NodeInfo(ctx, id)
	if err != nil {
		return false, err
	}
	return j.store.SyncNode(ctx, store.ChainNode{ChainNodeID: id, Owner: hexLower(info.Owner),
		BalanceWei: info.Balance, CumulativeWei: info.Credited, WithdrawnWei: info.Withdrawn})
}
