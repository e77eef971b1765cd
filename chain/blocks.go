package chain

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"
)

// Block is a block with its transactions and their outcome.
type Block struct {
	Number     uint64
	Hash       common.Hash
	ParentHash common.Hash
	Time       uint64
	Txs        []Tx
}

// Tx is a top-level transaction of a block.
type Tx struct {
	Hash   common.Hash
	From   common.Address
	To     *common.Address // nil for a contract creation
	Value  *big.Int
	Input  []byte
	Status uint64 // types.ReceiptStatusSuccessful or Failed
}

// blocksPerBatch bounds one JSON-RPC batch: two requests per block.
const blocksPerBatch = 50

// Blocks fetches blocks from..to inclusive with their transactions and receipts, in batched
// round trips (eth_getBlockByNumber and eth_getBlockReceipts for each block).
func (c *Client) Blocks(ctx context.Context, from, to uint64) ([]Block, error) {
	var out []Block
	for start := from; start <= to; start += blocksPerBatch {
		end := min(start+blocksPerBatch-1, to)
		n := int(end - start + 1)
		raws := make([]json.RawMessage, n)
		receipts := make([][]*types.Receipt, n)
		elems := make([]rpc.BatchElem, 0, 2*n)
		for i := range n {
			num := hexutil.EncodeUint64(start + uint64(i))
			elems = append(elems,
				rpc.BatchElem{Method: "eth_getBlockByNumber", Args: []any{num, true}, Result: &raws[i]},
				rpc.BatchElem{Method: "eth_getBlockReceipts", Args: []any{num}, Result: &receipts[i]})
		}
		if err := c.batch(ctx, fmt.Sprintf("blocks %d-%d", start, end), elems); err != nil {
			return nil, err
		}
		for i := range n {
			b, err := decodeBlock(raws[i], receipts[i])
			if err != nil {
				return nil, fmt.Errorf("block %d: %w", start+uint64(i), err)
			}
			out = append(out, b)
		}
	}
	return out, nil
}

func decodeBlock(raw json.RawMessage, receipts []*types.Receipt) (Block, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return Block{}, fmt.Errorf("%w: block not found", ErrUnavailable)
	}
	var b struct {
		Number     hexutil.Uint64 `json:"number"`
		Hash       common.Hash    `json:"hash"`
		ParentHash common.Hash    `json:"parentHash"`
		Time       hexutil.Uint64 `json:"timestamp"`
		Txs        []struct {
			Hash  common.Hash     `json:"hash"`
			From  common.Address  `json:"from"`
			To    *common.Address `json:"to"`
			Value *hexutil.Big    `json:"value"`
			Input hexutil.Bytes   `json:"input"`
		} `json:"transactions"`
	}
	if err := json.Unmarshal(raw, &b); err != nil {
		return Block{}, err
	}
	if len(receipts) != len(b.Txs) {
		return Block{}, fmt.Errorf("%d receipts for %d transactions", len(receipts), len(b.Txs))
	}
	out := Block{Number: uint64(b.Number), Hash: b.Hash, ParentHash: b.ParentHash, Time: uint64(b.Time)}
	for i, t := range b.Txs {
		if receipts[i].TxHash != t.Hash {
			return Block{}, fmt.Errorf("receipt %d is for %s, not %s", i, receipts[i].TxHash, t.Hash)
		}
		out.Txs = append(out.Txs, Tx{Hash: t.Hash, From: t.From, To: t.To, Value: t.Value.ToInt(), Input: t.Input, Status: receipts[i].Status})
	}
	return out, nil
}

// HeadNumber is the number of the latest block.
func (c *Client) HeadNumber(ctx context.Context) (uint64, error) {
	var n uint64
	err := c.call(ctx, "block number", func(ctx context.Context) (err error) {
		n, err = c.eth.BlockNumber(ctx)
		return err
	})
	return n, err
}

// logsPerQuery bounds the block range of one eth_getLogs: providers refuse wide ranges.
const logsPerQuery = 2000

// FactoryLogs returns the factory's logs matching topics (per position, any of the hashes; none:
// every log) from block from to block to inclusive, querying in ranges.
func (c *Client) FactoryLogs(ctx context.Context, from, to uint64, topics ...[]common.Hash) ([]types.Log, error) {
	var out []types.Log
	for start := from; start <= to; start += logsPerQuery {
		end := min(start+logsPerQuery-1, to)
		q := ethereum.FilterQuery{
			FromBlock: new(big.Int).SetUint64(start),
			ToBlock:   new(big.Int).SetUint64(end),
			Addresses: []common.Address{c.factory},
			Topics:    topics,
		}
		var logs []types.Log
		err := c.call(ctx, fmt.Sprintf("logs %d-%d", start, end), func(ctx context.Context) (err error) {
			logs, err = c.eth.FilterLogs(ctx, q)
			return err
		})
		if err != nil {
			return nil, err
		}
		out = append(out, logs...)
	}
	return out, nil
}
