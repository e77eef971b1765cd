package jobs

import (
	"context"
	"errors"

	"nodeledger/chain"
)

// NodeDrift is a node on which the ledger and the chain disagree (the chain is right).
type NodeDrift struct {
	ChainNodeID string `json:"chainNodeId"`
	Field       string `json:"field"`
	Ledger      string `json:"ledger"`
	Chain       string `json:"chain"`
}

// PaymentDrift is a minted payment whose block the chain has replaced since: its node may stand
// on a payment that no longer happened.
type PaymentDrift struct {
	TxHash      string `json:"txHash"`
	BlockNumber int64  `json:"blockNumber"`
	LedgerHash  string `json:"ledgerBlockHash"`
	ChainHash   string `json:"chainBlockHash"`
}

// DriftReport is one page of the ledger-versus-chain comparison.
type DriftReport struct {
	Checked  int            `json:"checked"`           // nodes compared on this page
	NextFrom int64          `json:"nextFrom,omitzero"` // ledger id to continue from; 0 at the end
	Nodes    []NodeDrift    `json:"nodes"`
	Payments []PaymentDrift `json:"payments"`
	// Unattributed counts the blocks where the payments wallet received ETH that no transaction
	// explains and the RPC could not trace: a payment the ledger may be missing.
	Unattributed int `json:"unattributedInflows"`
	// Unexplained counts the transfers out of the payments wallet or the treasury that no ledger
	// row explains (store.UnexplainedOutflow): a refund paid twice among them.
	Unexplained int `json:"unexplainedOutflows"`
}

// driftWindow is how many recent blocks the report checks minted payments in.
const driftWindow = 5000

// Drift compares up to limit nodes after ledger id `after` with nodeInfo, and the minted payments
// of the recent blocks with the chain's blocks, and counts the unattributed inflows and the
// unexplained outflows.
func (j *Jobs) Drift(ctx context.Context, after int64, limit int) (DriftReport, error) {
	rep := DriftReport{Nodes: []NodeDrift{}, Payments: []PaymentDrift{}}
	var err error
	if rep.Unattributed, err = j.store.UnattributedCount(ctx); err != nil {
		return rep, err
	}
	if rep.Unexplained, err = j.store.UnexplainedOutflowCount(ctx); err != nil {
		return rep, err
	}
	nodes, err := j.store.NodesFrom(ctx, after, limit)
	if err != nil {
		return rep, err
	}
	for _, n := range nodes {
		info, err := j.chain.NodeInfo(ctx, n.ChainNodeID.Int)
		if errors.Is(err, chain.ErrUnknownNode) {
			rep.Nodes = append(rep.Nodes, NodeDrift{ChainNodeID: n.ChainNodeID.String(), Field: "exists", Ledger: "true", Chain: "false"})
			continue
		}
		if err != nil {
			return rep, err
		}
		for _, f := range []struct {
			name          string
			ledger, chain string
		}{
			{"owner", n.Owner, hexLower(info.Owner)},
			{"balanceWei", n.BalanceWei.String(), info.Balance.String()},
			{"cumulativeWei", n.CumulativeWei.String(), info.Credited.String()},
			{"withdrawnWei", n.WithdrawnWei.String(), info.Withdrawn.String()},
		} {
			if f.ledger != f.chain {
				rep.Nodes = append(rep.Nodes, NodeDrift{ChainNodeID: n.ChainNodeID.String(), Field: f.name, Ledger: f.ledger, Chain: f.chain})
			}
		}
	}
	rep.Checked = len(nodes)
	if len(nodes) == limit {
		rep.NextFrom = nodes[len(nodes)-1].ID
	}

	head, err := j.chain.HeadNumber(ctx)
	if err != nil {
		return rep, err
	}
	minted, err := j.store.MintedSince(ctx, max(int64(head)-driftWindow, 0))
	if err != nil {
		return rep, err
	}
	for _, p := range minted {
		blocks, err := j.chain.Blocks(ctx, uint64(p.BlockNumber), uint64(p.BlockNumber))
		if err != nil {
			return rep, err
		}
		if h := hexLower(blocks[0].Hash); h != p.BlockHash {
			rep.Payments = append(rep.Payments, PaymentDrift{TxHash: p.TxHash, BlockNumber: p.BlockNumber, LedgerHash: p.BlockHash, ChainHash: h})
		}
	}
	return rep, nil
}
