package chain

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"
)

// Block is a block with the transactions the caller watches, and their outcome.
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

// blocksPerBatch bounds one JSON-RPC batch.
const blocksPerBatch = 50

// Blocks fetches blocks from..to inclusive in batched round trips (eth_getBlockByNumber), with
// the transactions sent to or from any of the watched addresses and their receipts' status
// (eth_getTransactionReceipt, batched too). A payments wallet receives a few of a block's
// transactions, so reading every receipt of every block would be mostly waste. Without watched
// addresses a block comes without transactions: its number and hashes only.
func (c *Client) Blocks(ctx context.Context, from, to uint64, watched ...common.Address) ([]Block, error) {
	var out []Block
	for start := from; start <= to; start += blocksPerBatch {
		end := min(start+blocksPerBatch-1, to)
		n := int(end - start + 1)
		raws := make([]json.RawMessage, n)
		elems := make([]rpc.BatchElem, n)
		for i := range n {
			elems[i] = rpc.BatchElem{Method: "eth_getBlockByNumber",
				Args: []any{hexutil.EncodeUint64(start + uint64(i)), len(watched) > 0}, Result: &raws[i]}
		}
		if err := c.batch(ctx, fmt.Sprintf("blocks %d-%d", start, end), elems); err != nil {
			return nil, err
		}
		blocks := make([]Block, n)
		for i := range n {
			b, err := decodeBlock(raws[i], watched)
			if err != nil {
				return nil, fmt.Errorf("block %d: %w", start+uint64(i), err)
			}
			blocks[i] = b
		}
		if err := c.statuses(ctx, blocks); err != nil {
			return nil, err
		}
		out = append(out, blocks...)
	}
	return out, nil
}

// statuses fills in the status of the blocks' transactions from their receipts.
func (c *Client) statuses(ctx context.Context, blocks []Block) error {
	var elems []rpc.BatchElem
	var txs []*Tx
	var hashes []common.Hash // the block each transaction was read in
	for i := range blocks {
		for k := range blocks[i].Txs {
			tx := &blocks[i].Txs[k]
			elems = append(elems, rpc.BatchElem{Method: "eth_getTransactionReceipt", Args: []any{tx.Hash}, Result: new(types.Receipt)})
			txs, hashes = append(txs, tx), append(hashes, blocks[i].Hash)
		}
	}
	if len(elems) == 0 {
		return nil
	}
	if err := c.batch(ctx, fmt.Sprintf("%d receipts", len(elems)), elems); err != nil {
		return err
	}
	for i, e := range elems {
		r := e.Result.(*types.Receipt)
		if r.TxHash != txs[i].Hash || r.BlockHash != hashes[i] {
			// The chain moved between the two reads: the next pass reads the blocks again.
			return fmt.Errorf("%w: the receipt of %s is not from block %s", ErrUnavailable, txs[i].Hash, hashes[i])
		}
		txs[i].Status = r.Status
	}
	return nil
}

// blockHeader is what a block is read for when no transaction is watched.
type blockHeader struct {
	Number     hexutil.Uint64 `json:"number"`
	Hash       common.Hash    `json:"hash"`
	ParentHash common.Hash    `json:"parentHash"`
	Time       hexutil.Uint64 `json:"timestamp"`
}

// fullBlock is a block with its transactions, decoded in one pass.
type fullBlock struct {
	blockHeader
	Txs []struct {
		Hash  common.Hash     `json:"hash"`
		From  common.Address  `json:"from"`
		To    *common.Address `json:"to"`
		Value *hexutil.Big    `json:"value"`
		Input hexutil.Bytes   `json:"input"`
	} `json:"transactions"`
}

func decodeBlock(raw json.RawMessage, watched []common.Address) (Block, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return Block{}, fmt.Errorf("%w: block not found", ErrUnavailable)
	}
	var b fullBlock
	var err error
	if len(watched) == 0 {
		err = json.Unmarshal(raw, &b.blockHeader)
	} else {
		err = json.Unmarshal(raw, &b)
	}
	if err != nil {
		return Block{}, err
	}
	out := Block{Number: uint64(b.Number), Hash: b.Hash, ParentHash: b.ParentHash, Time: uint64(b.Time)}
	for _, t := range b.Txs {
		if t.To != nil && (slices.Contains(watched, *t.To) || slices.Contains(watched, t.From)) {
			out.Txs = append(out.Txs, Tx{Hash: t.Hash, From: t.From, To: t.To, Value: t.Value.ToInt(), Input: t.Input})
		}
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
