package chain

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"

	"nodeledger/chain/bindings"
)

// sanctions packs and unpacks the calls of a sanctions oracle with Chainalysis's interface.
var sanctions = bindings.NewSanctionsList()

// sanctionsTopics are the events a Chainalysis-style oracle logs when its list changes.
var sanctionsTopics = []common.Hash{
	sanctions.GetABI().Events["SanctionedAddressesAdded"].ID,
	sanctions.GetABI().Events["SanctionedAddressesRemoved"].ID,
}

// SanctionsChange is a wallet the sanctions oracle listed or took off its list, as its logs say.
type SanctionsChange struct {
	Block     uint64
	BlockHash common.Hash
	LogIndex  uint
	Address   common.Address
	Listed    bool
}

// sanctionsChanges reads the changes of the oracle's list from its logs. A log of the oracle's
// events that does not decode is an error, never skipped: a listing missed would let its wallet
// pay unscreened.
func sanctionsChanges(logs []types.Log) ([]SanctionsChange, error) {
	var out []SanctionsChange
	for i := range logs {
		l := &logs[i]
		listed := l.Topics[0] == sanctionsTopics[0]
		addrs, err := changedAddrs(l, listed)
		if err != nil {
			return nil, fmt.Errorf("the sanctions oracle's log %d in block %d: %w", l.Index, l.BlockNumber, err)
		}
		for _, a := range addrs {
			out = append(out, SanctionsChange{Block: l.BlockNumber, BlockHash: l.BlockHash, LogIndex: l.Index, Address: a, Listed: listed})
		}
	}
	return out, nil
}

// changedAddrs are the wallets an oracle's log listed (listed) or took off its list.
func changedAddrs(l *types.Log, listed bool) ([]common.Address, error) {
	if listed {
		e, err := sanctions.UnpackSanctionedAddressesAddedEvent(l)
		if err != nil {
			return nil, err
		}
		return e.Addrs, nil
	}
	e, err := sanctions.UnpackSanctionedAddressesRemovedEvent(l)
	if err != nil {
		return nil, err
	}
	return e.Addrs, nil
}

// Sanctioned reads, in one JSON-RPC batch, whether the sanctions oracle at oracle (Chainalysis's
// interface, isSanctioned(address)) listed each of addrs at the end of block (nil: the head). An
// oracle with no code at that block is an error, never "not listed": a payment must wait rather
// than pass unscreened. A block older than the node keeps state for fails (an archive node
// answers).
func (c *Client) Sanctioned(ctx context.Context, oracle common.Address, block *big.Int, addrs []common.Address) ([]bool, error) {
	if len(addrs) == 0 {
		return nil, nil
	}
	at := "latest"
	if block != nil {
		at = hexutil.EncodeBig(block)
	}
	calls := make([]hexutil.Bytes, len(addrs))
	elems := make([]rpc.BatchElem, len(addrs))
	for i, a := range addrs {
		elems[i] = callElem(oracle, sanctions.PackIsSanctioned(a), at, &calls[i])
	}
	if err := c.batch(ctx, fmt.Sprintf("%d sanctions checks", len(addrs)), elems); err != nil {
		return nil, err
	}
	out := make([]bool, len(addrs))
	for i := range addrs {
		if len(calls[i]) == 0 {
			return nil, fmt.Errorf("no sanctions oracle at %s at block %s", oracle, at)
		}
		listed, err := sanctions.UnpackIsSanctioned(calls[i])
		if err != nil {
			return nil, fmt.Errorf("isSanctioned(%s) at block %s: %w", addrs[i], at, err)
		}
		out[i] = listed
	}
	return out, nil
}
