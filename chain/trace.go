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

// InternalTransfer is ETH moved to or from an address by a frame inside a transaction: a call,
// as contract wallets pay, a contract created with value, or a SELFDESTRUCT handing a contract's
// balance to its beneficiary. It has no top-level transaction of its own.
type InternalTransfer struct {
	Block   uint64
	TxHash  common.Hash
	TxIndex uint   // the transaction's place in the block
	Type    string // the frame's: CALL, CREATE, CREATE2 or SELFDESTRUCT
	From    common.Address
	To      common.Address
	Value   *big.Int
	// Index is the transfer's place, 1-based, among the transaction's CALLs to the address (a
	// payment's place, part of its reference); 0 for every other transfer.
	Index int
}

// Payment tells whether t is a payment to recipient: a CALL with value, as a contract wallet
// pays. ETH a SELFDESTRUCT hands over was sent by nobody, so it is no payment.
func (t InternalTransfer) Payment(recipient common.Address) bool {
	return t.Type == "CALL" && t.To == recipient && t.From != recipient
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

// InternalTransfers traces blocks and returns the ETH that frames inside successful transactions
// moved to or from addr, leaving out frames whose effects a revert undid: every frame type that
// moves value counts, not only CALL. Nodes refuse to trace the genesis block.
func (c *Client) InternalTransfers(ctx context.Context, blocks []uint64, addr common.Address) ([]InternalTransfer, error) {
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
			for k, tx := range block { // the tracer answers in the block's order
				if tx.Result == nil || tx.Result.Error != "" {
					continue // the transaction reverted: nothing it did happened
				}
				calls := 0
				collect(tx.Result.Calls, addr, func(f callFrame) {
					t := InternalTransfer{Block: batch[i], TxHash: tx.TxHash, TxIndex: uint(k), Type: f.Type, From: f.From, To: *f.To, Value: f.Value.ToInt()}
					if t.Payment(addr) {
						calls++
						t.Index = calls
					}
					out = append(out, t)
				})
			}
		}
	}
	return out, nil
}

// movesValue are the frame types that move the value they show. A DELEGATECALL shows its
// caller's value without moving it; a STATICCALL moves none; a CALLCODE pays its own caller.
var movesValue = map[string]bool{"CALL": true, "CREATE": true, "CREATE2": true, "SELFDESTRUCT": true}

// collect calls found for each frame moving value to or from addr, skipping frames that failed
// and everything below them.
func collect(frames []callFrame, addr common.Address, found func(callFrame)) {
	for _, f := range frames {
		if f.Error != "" {
			continue
		}
		if movesValue[f.Type] && f.To != nil && (*f.To == addr) != (f.From == addr) && f.Value != nil && f.Value.ToInt().Sign() > 0 {
			found(f)
		}
		collect(f.Calls, addr, found)
	}
}
