package chain

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
)

// ErrTraceUnsupported is the answer of a node that does not serve debug_traceBlockByNumber: ETH
// sent by contracts (Safe, ERC-4337 accounts) cannot be seen through it.
var ErrTraceUnsupported = errors.New("the node does not serve debug_traceBlockByNumber")

// InternalTransfer is ETH sent to an address by a call inside a transaction, as contract wallets
// pay: it has no top-level transaction of its own.
type InternalTransfer struct {
	Block  uint64
	TxHash common.Hash
	From   common.Address // the contract that made the call
	Value  *big.Int
	Index  int // 1-based, among the transaction's transfers to the same address
}

// Ref is the payment reference of the transfer: the transaction hash with its index, hashed, so
// that each of several transfers in one transaction is a payment of its own.
func (t InternalTransfer) Ref() common.Hash {
	var idx [4]byte
	binary.BigEndian.PutUint32(idx[:], uint32(t.Index))
	return crypto.Keccak256Hash(t.TxHash[:], idx[:])
}

// callFrame is a frame of geth's callTracer.
type callFrame struct {
	Type  string          `json:"type"`
	From  common.Address  `json:"from"`
	To    *common.Address `json:"to"`
	Value *hexutil.Big    `json:"value"`
	Error string          `json:"error"`
	Calls []callFrame     `json:"calls"`
}

// InternalTransfers traces blocks and returns the ETH that calls inside successful transactions
// sent to recipient, leaving out calls whose effects a revert undid. Nodes refuse to trace the
// genesis block.
func (c *Client) InternalTransfers(ctx context.Context, blocks []uint64, recipient common.Address) ([]InternalTransfer, error) {
	var out []InternalTransfer
	for len(blocks) > 0 {
		batch := blocks[:min(blocksPerBatch, len(blocks))]
		blocks = blocks[len(batch):]
		traces := make([][]struct {
			TxHash common.Hash `json:"txHash"`
			Result *callFrame  `json:"result"`
		}, len(batch))
		elems := make([]rpc.BatchElem, len(batch))
		for i, n := range batch {
			elems[i] = rpc.BatchElem{Method: "debug_traceBlockByNumber",
				Args:   []any{hexutil.EncodeUint64(n), map[string]string{"tracer": "callTracer"}},
				Result: &traces[i]}
		}
		if err := c.batch(ctx, fmt.Sprintf("trace %d blocks from %d", len(batch), batch[0]), elems); err != nil {
			var re rpc.Error
			if errors.As(err, &re) && re.ErrorCode() == -32601 { // method not found
				return nil, fmt.Errorf("%w: %w", ErrTraceUnsupported, err)
			}
			return nil, err
		}
		for i, block := range traces {
			for _, tx := range block {
				if tx.Result == nil || tx.Result.Error != "" {
					continue // the transaction reverted: nothing it did happened
				}
				found := 0
				collect(tx.Result.Calls, recipient, func(f callFrame) {
					found++
					out = append(out, InternalTransfer{Block: batch[i], TxHash: tx.TxHash, From: f.From,
						Value: f.Value.ToInt(), Index: found})
				})
			}
		}
	}
	return out, nil
}

// collect calls found for each CALL frame sending value to recipient, skipping frames that
// failed and everything below them.
func collect(frames []callFrame, recipient common.Address, found func(callFrame)) {
	for _, f := range frames {
		if f.Error != "" {
			continue
		}
		if f.Type == "CALL" && f.To != nil && *f.To == recipient && f.Value != nil && f.Value.ToInt().Sign() > 0 {
			found(f)
		}
		collect(f.Calls, recipient, found)
	}
}
