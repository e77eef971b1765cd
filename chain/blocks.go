package chain

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"
	"golang.org/x/sync/errgroup"
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
	Hash  common.Hash
	Index uint // its place in the block (transactionIndex)
	From  common.Address
	To    *common.Address // nil for a contract creation
	Value *big.Int
	Input []byte
	// Status (types.ReceiptStatusSuccessful or Failed) and Fee, what the sender paid for gas,
	// failed or not (gasUsed × effectiveGasPrice, and blob gas), come from Outcomes.
	Status uint64
	Fee    *big.Int
}

// blocksPerBatch bounds one JSON-RPC batch.
const blocksPerBatch = 50

// A block read with its transactions is large (a busy mainnet block, a few hundred KB), and a
// node answers the calls of a batch one after another on one core: such blocks are read a few
// to a batch, several batches at once.
const (
	fullBlocksPerBatch = 5
	batchesAtOnce      = 4
)

// Blocks fetches blocks from..to inclusive in batched round trips (eth_getBlockByNumber), with
// the transactions sent to or from any of the watched addresses (contract creations included),
// whose outcome Outcomes reads. Without watched addresses a block comes without transactions:
// its number and hashes only.
func (c *Client) Blocks(ctx context.Context, from, to uint64, watched ...common.Address) ([]Block, error) {
	per := uint64(blocksPerBatch)
	if len(watched) > 0 {
		per = fullBlocksPerBatch
	}
	out := make([]Block, to-from+1)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(batchesAtOnce)
	for start := from; start <= to; start += per {
		end := min(start+per-1, to)
		g.Go(func() error { return c.blockBatch(gctx, out[start-from:end-from+1], start, watched) })
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return out, nil
}

// blockBatch reads the len(out) blocks from start on into out, in one batch.
func (c *Client) blockBatch(ctx context.Context, out []Block, start uint64, watched []common.Address) error {
	// Decoded straight from the answer: a second pass over a hundred transactions a block costs
	// as much as the first.
	blocks := make([]fullBlock, len(out))
	elems := make([]rpc.BatchElem, len(out))
	for i := range elems {
		// Without transactions the node lists their hashes, which fullBlock cannot hold.
		elems[i] = rpc.BatchElem{Method: "eth_getBlockByNumber", Args: []any{hexutil.EncodeUint64(start + uint64(i)), false}, Result: &blocks[i].blockHeader}
		if len(watched) > 0 {
			elems[i].Args[1], elems[i].Result = true, &blocks[i]
		}
	}
	if err := c.batch(ctx, fmt.Sprintf("blocks %d-%d", start, start+uint64(len(out))-1), elems); err != nil {
		return err
	}
	for i, b := range blocks {
		if b.Hash == (common.Hash{}) { // the node answered null
			return fmt.Errorf("block %d: %w: block not found", start+uint64(i), ErrUnavailable)
		}
		out[i] = b.watched(watched)
	}
	return nil
}

// BlockHashes reads the hashes of blocks (in any order), blocksPerBatch to a round trip.
func (c *Client) BlockHashes(ctx context.Context, blocks []uint64) (map[uint64]common.Hash, error) {
	out := make(map[uint64]common.Hash, len(blocks))
	for batch := range slices.Chunk(blocks, blocksPerBatch) {
		headers := make([]blockHeader, len(batch))
		elems := make([]rpc.BatchElem, len(batch))
		for i, b := range batch {
			elems[i] = rpc.BatchElem{Method: "eth_getBlockByNumber", Args: []any{hexutil.EncodeUint64(b), false}, Result: &headers[i]}
		}
		if err := c.batch(ctx, fmt.Sprintf("block hashes %v", batch), elems); err != nil {
			return nil, err
		}
		for i, h := range headers {
			if h.Hash == (common.Hash{}) { // the node answered null
				return nil, fmt.Errorf("block %d: %w: block not found", batch[i], ErrUnavailable)
			}
			out[batch[i]] = h.Hash
		}
	}
	return out, nil
}

// Outcomes fills in the status and fee of the blocks' transactions from their receipts
// (eth_getTransactionReceipt, batched), for those need picks: a payments wallet receives a few of
// a block's transactions, and fewer still can fail, so reading every receipt would be mostly
// waste. need must pick every transaction that may have failed or whose fee matters; the others
// are taken as successful, their fee unknown (nil).
func (c *Client) Outcomes(ctx context.Context, blocks []Block, need func(Block, Tx) bool) error {
	var elems []rpc.BatchElem
	var txs []*Tx
	var hashes []common.Hash // the block each transaction was read in
	for i := range blocks {
		for k := range blocks[i].Txs {
			tx := &blocks[i].Txs[k]
			if !need(blocks[i], *tx) {
				tx.Status = types.ReceiptStatusSuccessful
				continue
			}
			elems = append(elems, rpc.BatchElem{Method: "eth_getTransactionReceipt", Args: []any{tx.Hash}, Result: new(types.Receipt)})
			txs, hashes = append(txs, tx), append(hashes, blocks[i].Hash)
		}
	}
	for start := 0; start < len(elems); start += receiptsPerBatch {
		batch := elems[start:min(start+receiptsPerBatch, len(elems))]
		if err := c.batch(ctx, fmt.Sprintf("%d receipts", len(batch)), batch); err != nil {
			return err
		}
	}
	for i, e := range elems {
		r := e.Result.(*types.Receipt)
		if r.TxHash != txs[i].Hash || r.BlockHash != hashes[i] {
			// The chain moved between the two reads: the next pass reads the blocks again.
			return fmt.Errorf("%w: the receipt of %s is not from block %s", ErrUnavailable, txs[i].Hash, hashes[i])
		}
		txs[i].Status, txs[i].Fee = r.Status, fee(r)
	}
	return nil
}

// receiptsPerBatch bounds one JSON-RPC batch of receipts: nodes refuse batches of more than a
// thousand calls (geth's default), and providers fewer.
const receiptsPerBatch = 500

// fee is what the receipt's transaction cost its sender. A node that leaves out the effective gas
// price (older than London) makes it zero: the payments scan then finds the sender's balance
// unexplained and traces its block.
func fee(r *types.Receipt) *big.Int {
	f := new(big.Int)
	if r.EffectiveGasPrice != nil {
		f.Mul(new(big.Int).SetUint64(r.GasUsed), r.EffectiveGasPrice)
	}
	if r.BlobGasPrice != nil {
		f.Add(f, new(big.Int).Mul(new(big.Int).SetUint64(r.BlobGasUsed), r.BlobGasPrice))
	}
	return f
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

// watched is b with only the transactions to or from watched.
func (b *fullBlock) watched(watched []common.Address) Block {
	out := Block{Number: uint64(b.Number), Hash: b.Hash, ParentHash: b.ParentHash, Time: uint64(b.Time)}
	for i, t := range b.Txs {
		if slices.Contains(watched, t.From) || t.To != nil && slices.Contains(watched, *t.To) {
			out.Txs = append(out.Txs, Tx{Hash: t.Hash, Index: uint(i), From: t.From, To: t.To, Value: t.Value.ToInt(), Input: t.Input})
		}
	}
	return out
}

// HeadNumber is the number of the latest block: the one ctx was started at (AtHead), without
// asking, or the node's.
func (c *Client) HeadNumber(ctx context.Context) (uint64, error) {
	if n, ok := ctx.Value(atHeadKey{}).(uint64); ok {
		return n, nil
	}
	var n uint64
	err := c.call(ctx, "block number", func(ctx context.Context, e *endpoint) (err error) {
		if n, err = e.eth.BlockNumber(ctx); err == nil {
			e.sawHead(n, time.Now())
		}
		return err
	})
	return n, err
}

// logsPerQuery bounds the block range of one eth_getLogs: providers refuse wide ranges.
const logsPerQuery = 2000

// FactoryLogs returns the factory's logs matching topics (per position, any of the hashes; none:
// every log) from block from to block to inclusive, querying in ranges.
func (c *Client) FactoryLogs(ctx context.Context, from, to uint64, topics ...[]common.Hash) ([]types.Log, error) {
	return c.logs(ctx, []common.Address{c.factory}, from, to, topics...)
}

// logs returns the logs of the contracts at addrs matching topics from block from to block to
// inclusive, one eth_getLogs per logsPerQuery blocks.
func (c *Client) logs(ctx context.Context, addrs []common.Address, from, to uint64, topics ...[]common.Hash) ([]types.Log, error) {
	var out []types.Log
	for start := from; start <= to; start += logsPerQuery {
		logs, err := c.logsIn(ctx, addrs, start, min(start+logsPerQuery-1, to), topics)
		if err != nil {
			return nil, err
		}
		out = append(out, logs...)
	}
	return out, nil
}

// ErrLogsRefused is a single block whose logs the provider refuses to return for their number:
// no narrower query can read them from it.
var ErrLogsRefused = errors.New("the RPC refuses the block's logs for their number")

// logsIn reads the logs of blocks start..end, halving a range the provider refuses for the
// number of its logs (Infura and others cap an answer at 10,000) down to one block.
func (c *Client) logsIn(ctx context.Context, addrs []common.Address, start, end uint64, topics [][]common.Hash) ([]types.Log, error) {
	q := ethereum.FilterQuery{FromBlock: new(big.Int).SetUint64(start), ToBlock: new(big.Int).SetUint64(end), Addresses: addrs, Topics: topics}
	var logs []types.Log
	err := c.call(ctx, fmt.Sprintf("logs %d-%d", start, end), func(ctx context.Context, e *endpoint) (err error) {
		logs, err = e.eth.FilterLogs(ctx, q)
		return err
	})
	switch {
	case err == nil:
		return logs, nil
	case !tooManyLogs(err):
		return nil, err
	case start == end:
		return nil, fmt.Errorf("%w: block %d: %w", ErrLogsRefused, start, err)
	}
	mid := start + (end-start)/2
	low, err := c.logsIn(ctx, addrs, start, mid, topics)
	if err != nil {
		return nil, err
	}
	high, err := c.logsIn(ctx, addrs, mid+1, end, topics)
	if err != nil {
		return nil, err
	}
	return append(low, high...), nil
}

// tooManyLogs tells an eth_getLogs the provider refused for the size of its answer, in the words
// the big ones use: Infura's "query returned more than 10000 results", Alchemy's "Log response
// size exceeded", and the like. Words, not the code: Infura's -32005 also means rate limited.
func tooManyLogs(err error) bool {
	msg := strings.ToLower(err.Error())
	return strings.Contains(msg, "more than") && strings.Contains(msg, "results") ||
		strings.Contains(msg, "response size") || strings.Contains(msg, "too many logs") || strings.Contains(msg, "logs limit")
}
