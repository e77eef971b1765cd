package chain

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/big"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"

	"nodeledger/chain/bindings"
)

// NodeInfo is one node as the factory records it.
type NodeInfo struct {
	ID        *big.Int
	Owner     common.Address
	Tier      uint8
	Balance   *big.Int
	Credited  *big.Int
	Withdrawn *big.Int
}

// NodeInfo reads node id from the factory; ErrUnknownNode when it was never minted.
func (c *Client) NodeInfo(ctx context.Context, id *big.Int) (NodeInfo, error) {
	return c.NodeInfoAt(ctx, id, nil)
}

// NodeInfoAt is NodeInfo at block (nil: the head); ErrUnknownNode when it was not minted by then.
func (c *Client) NodeInfoAt(ctx context.Context, id, block *big.Int) (NodeInfo, error) {
	out, err := c.callFactory(ctx, "nodeInfo", c.nf.PackNodeInfo(id), block)
	if err != nil {
		return NodeInfo{}, err
	}
	v, err := c.nf.UnpackNodeInfo(out)
	if err != nil {
		return NodeInfo{}, fmt.Errorf("nodeInfo: %w", err)
	}
	return NodeInfo{ID: id, Owner: v.NodeOwner, Tier: v.Tier, Balance: v.Balance, Credited: v.Credited, Withdrawn: v.Withdrawn}, nil
}

// NodesOf reads the ids of the nodes wallet holds, in minting order.
func (c *Client) NodesOf(ctx context.Context, wallet common.Address) ([]*big.Int, error) {
	return c.NodesOfAt(ctx, wallet, nil)
}

// NodesOfAt is NodesOf at block (nil: the head).
func (c *Client) NodesOfAt(ctx context.Context, wallet common.Address, block *big.Int) ([]*big.Int, error) {
	out, err := c.callFactory(ctx, "nodesOf", c.nf.PackNodesOf(wallet), block)
	if err != nil {
		return nil, err
	}
	return c.nf.UnpackNodesOf(out)
}

// callFactory runs eth_call against the factory at block (nil: latest).
func (c *Client) callFactory(ctx context.Context, what string, data []byte, block *big.Int) ([]byte, error) {
	var out []byte
	err := c.call(ctx, what, func(ctx context.Context, e *endpoint) (err error) {
		out, err = e.eth.CallContract(ctx, ethereum.CallMsg{To: &c.factory, Data: data}, block)
		return err
	})
	return out, err
}

// Cover is the factory's solvency, every figure read at the same block.
type Cover struct {
	Block       uint64
	Balance     *big.Int // what the contract holds
	Outstanding *big.Int // what it owes
	Solvent     bool     // the contract's own isSolvent()
	Paused      bool
}

// Covered reports whether the balance covers what is owed.
func (cv Cover) Covered() bool { return cv.Balance.Cmp(cv.Outstanding) >= 0 }

// Cover reads the factory's balance, what it owes, isSolvent and paused at one block number, in
// one batch, so the figures can be compared.
func (c *Client) Cover(ctx context.Context) (Cover, error) {
	var balance hexutil.Big
	var outstanding, solvent, paused hexutil.Bytes
	head, err := c.readAtHead(ctx, "cover", func(at string) []rpc.BatchElem {
		return []rpc.BatchElem{
			{Method: "eth_getBalance", Args: []any{c.factory, at}, Result: &balance},
			c.callAt(at, c.nf.PackTotalOutstanding(), &outstanding),
			c.callAt(at, c.nf.PackIsSolvent(), &solvent),
			c.callAt(at, c.nf.PackPaused(), &paused),
		}
	})
	if err != nil {
		return Cover{}, err
	}
	cv := Cover{Block: head, Balance: balance.ToInt()}
	if cv.Outstanding, err = c.nf.UnpackTotalOutstanding(outstanding); err != nil {
		return Cover{}, fmt.Errorf("cover: totalOutstanding: %w", err)
	}
	if cv.Solvent, err = c.nf.UnpackIsSolvent(solvent); err != nil {
		return Cover{}, fmt.Errorf("cover: isSolvent: %w", err)
	}
	if cv.Paused, err = c.nf.UnpackPaused(paused); err != nil {
		return Cover{}, fmt.Errorf("cover: paused: %w", err)
	}
	return cv, nil
}

// RoundState is what a round is priced from on chain, read at one block.
type RoundState struct {
	Block          uint64
	Nodes          int64          // nodeCount: the nodes a round sent now credits
	PoolCarry      *big.Int       // pool wei the next pool round adds to its pool
	TierNodes      map[int]int64  // the nodes of each tier that has any, by tier id
	Weights        map[int]uint32 // payoutBps of each tier that has nodes, and of those asked for
	WeightsVersion uint64         // weightsVersion: the round names it, and reverts if it moved
}

// RoundState reads nodeCount, poolCarry, weightsVersion and each tier's node count and weight at
// one block; the weights of the tiers `also` too, with nodes or not, for the round's record.
func (c *Client) RoundState(ctx context.Context, also ...uint8) (RoundState, error) {
	return c.roundState(ctx, nil, also)
}

// RoundStateAt is RoundState at block.
func (c *Client) RoundStateAt(ctx context.Context, block uint64, also ...uint8) (RoundState, error) {
	return c.roundState(ctx, &block, also)
}

// roundState reads RoundState at block, or at the head for nil.
func (c *Client) roundState(ctx context.Context, block *uint64, also []uint8) (RoundState, error) {
	var nodes, carry, list, version hexutil.Bytes
	elems := func(at string) []rpc.BatchElem {
		return []rpc.BatchElem{c.callAt(at, c.nf.PackNodeCount(), &nodes), c.callAt(at, c.nf.PackPoolCarry(), &carry),
			c.callAt(at, c.nf.PackTierList(), &list), c.callAt(at, c.nf.PackWeightsVersion(), &version)}
	}
	var head uint64
	var err error
	if block == nil {
		head, err = c.readAtHead(ctx, "round state", elems)
	} else {
		head, err = *block, c.batch(ctx, "round state", elems(hexutil.EncodeUint64(*block)))
	}
	if err != nil {
		return RoundState{}, err
	}
	n, err := c.nf.UnpackNodeCount(nodes)
	if err != nil {
		return RoundState{}, fmt.Errorf("round state: nodeCount: %w", err)
	}
	if !n.IsInt64() {
		return RoundState{}, fmt.Errorf("round state: nodeCount %s", n)
	}
	st := RoundState{Block: head, Nodes: n.Int64(), TierNodes: map[int]int64{}}
	if st.PoolCarry, err = c.nf.UnpackPoolCarry(carry); err != nil {
		return RoundState{}, fmt.Errorf("round state: poolCarry: %w", err)
	}
	v, err := c.nf.UnpackWeightsVersion(version)
	if err != nil {
		return RoundState{}, fmt.Errorf("round state: weightsVersion: %w", err)
	}
	st.WeightsVersion = v.Uint64()
	tiers, err := c.nf.UnpackTierList(list)
	if err != nil {
		return RoundState{}, fmt.Errorf("round state: tierList: %w", err)
	}
	slots, err := c.tierSlots(ctx, head, append(tiers, also...))
	if err != nil {
		return RoundState{}, fmt.Errorf("round state: %w", err)
	}
	st.Weights = map[int]uint32{}
	for t, slot := range slots {
		st.Weights[t] = slot.WeightBps
		if slot.Nodes > 0 {
			st.TierNodes[t] = int64(slot.Nodes)
		}
	}
	return st, nil
}

// weightsSeen are the tiers' weights as last read, with the factory's weightsVersion at the block
// they were read at.
type weightsSeen struct {
	mu      sync.Mutex
	version *big.Int
	bps     map[int]uint32
	// head is the followed head (FollowedHead) the version was last read at or after: while the
	// head stays there, nothing can have changed it.
	head uint64
}

// TierWeights reads the payoutBps of each tier of ids, as the factory's owner set it, at the head.
// Every change of a weight moves the factory's weightsVersion, so the tiers are read again only
// when it moved since the last read: a reader of the tiers costs one request then, however many
// tiers there are, and none while the head the passes follow has not moved since that read.
func (c *Client) TierWeights(ctx context.Context, ids []uint8) (map[int]uint32, error) {
	followed, isFollowed := c.FollowedHead(headQuiet)
	if isFollowed {
		if weights, ok := c.weights.atHead(followed, ids); ok {
			return weights, nil
		}
	}
	out, err := c.callFactory(ctx, "weightsVersion", c.nf.PackWeightsVersion(), nil)
	if err != nil {
		return nil, fmt.Errorf("tier weights: %w", err)
	}
	version, err := c.nf.UnpackWeightsVersion(out)
	if err != nil {
		return nil, fmt.Errorf("tier weights: weightsVersion: %w", err)
	}
	if weights, ok := c.weights.of(version, ids); ok {
		if isFollowed {
			c.weights.seenAt(version, followed)
		}
		return weights, nil
	}
	// The tiers and the version again, at one block: what is kept is labelled by its own version.
	head, err := c.HeadNumber(ctx)
	if err != nil {
		return nil, err
	}
	slots, err := c.tierSlots(ctx, head, ids)
	if err != nil {
		return nil, fmt.Errorf("tier weights: %w", err)
	}
	if out, err = c.callFactory(ctx, "weightsVersion", c.nf.PackWeightsVersion(), new(big.Int).SetUint64(head)); err != nil {
		return nil, fmt.Errorf("tier weights: %w", err)
	}
	at, err := c.nf.UnpackWeightsVersion(out)
	if err != nil {
		return nil, fmt.Errorf("tier weights: weightsVersion: %w", err)
	}
	weights := make(map[int]uint32, len(slots))
	for t, slot := range slots {
		weights[t] = slot.WeightBps
	}
	c.weights.keep(at, weights)
	if isFollowed {
		c.weights.seenAt(at, followed)
	}
	return weights, nil
}

// atHead is the weights of ids when their version was read at followed head n or after.
func (w *weightsSeen) atHead(n uint64, ids []uint8) (map[int]uint32, bool) {
	w.mu.Lock()
	version, head := w.version, w.head
	w.mu.Unlock()
	if version == nil || head != n {
		return nil, false
	}
	return w.of(version, ids)
}

// seenAt notes that version was the factory's at followed head n or after.
func (w *weightsSeen) seenAt(version *big.Int, n uint64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.version != nil && w.version.Cmp(version) == 0 {
		w.head = n
	}
}

// of is the weights of ids kept under version; false when some are not.
func (w *weightsSeen) of(version *big.Int, ids []uint8) (map[int]uint32, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.version == nil || w.version.Cmp(version) != 0 {
		return nil, false
	}
	out := make(map[int]uint32, len(ids))
	for _, t := range ids {
		bps, ok := w.bps[int(t)]
		if !ok {
			return nil, false
		}
		out[int(t)] = bps
	}
	return out, true
}

// keep keeps weights, read under version, beside those of other tiers read under it.
func (w *weightsSeen) keep(version *big.Int, weights map[int]uint32) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.version == nil || w.version.Cmp(version) != 0 {
		w.version, w.bps, w.head = version, map[int]uint32{}, 0
	}
	maps.Copy(w.bps, weights)
}

// tierSlots reads the tiers(t) slot of each tier of ids at block, in one batch.
func (c *Client) tierSlots(ctx context.Context, block uint64, ids []uint8) (map[int]bindings.TiersOutput, error) {
	out := make(map[int]bindings.TiersOutput, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	at := hexutil.EncodeUint64(block)
	raw := make([]hexutil.Bytes, len(ids))
	elems := make([]rpc.BatchElem, len(ids))
	for i, t := range ids {
		elems[i] = c.callAt(at, c.nf.PackTiers(t), &raw[i])
	}
	if err := c.batch(ctx, "tiers", elems); err != nil {
		return nil, err
	}
	for i, t := range ids {
		v, err := c.nf.UnpackTiers(raw[i])
		if err != nil {
			return nil, fmt.Errorf("tiers(%d): %w", t, err)
		}
		out[int(t)] = v
	}
	return out, nil
}

// readAtHead reads the head, then sends the batch elems builds for that block number in one round
// trip, so that the figures it reads can be compared.
func (c *Client) readAtHead(ctx context.Context, what string, elems func(at string) []rpc.BatchElem) (uint64, error) {
	var head uint64
	err := c.call(ctx, "blockNumber", func(ctx context.Context, e *endpoint) (err error) {
		head, err = e.eth.BlockNumber(ctx)
		return err
	})
	if err != nil {
		return 0, err
	}
	return head, c.batch(ctx, what, elems(hexutil.EncodeUint64(head)))
}

// callAt is an eth_call of the factory with data at block at, into out.
func (c *Client) callAt(at string, data []byte, out *hexutil.Bytes) rpc.BatchElem {
	return callElem(c.factory, data, at, out)
}

// callElem is an eth_call of the contract at `to` with data at block at (a number, or a tag such
// as "latest"), into out: one element of a JSON-RPC batch.
func callElem(to common.Address, data []byte, at string, out *hexutil.Bytes) rpc.BatchElem {
	return rpc.BatchElem{Method: "eth_call", Args: []any{map[string]any{"to": to, "data": hexutil.Bytes(data)}, at}, Result: out}
}

// batch sends elems in one round trip; the first failed element fails it all.
func (c *Client) batch(ctx context.Context, what string, elems []rpc.BatchElem) error {
	return c.roundTrip(ctx, what, len(elems), func(ctx context.Context, e *endpoint) error {
		for i := range elems {
			elems[i].Error = nil
		}
		if err := e.rpc.BatchCallContext(ctx, elems); err != nil {
			return err
		}
		for _, e := range elems {
			if e.Error != nil {
				return fmt.Errorf("%s: %w", e.Method, e.Error)
			}
		}
		return nil
	})
}

// Balance reads the wei held by addr at the latest block.
func (c *Client) Balance(ctx context.Context, addr common.Address) (*big.Int, error) {
	return c.BalanceAt(ctx, addr, nil)
}

// BalanceAt reads the wei held by addr at the end of block (nil: the latest).
func (c *Client) BalanceAt(ctx context.Context, addr common.Address, block *big.Int) (*big.Int, error) {
	var bal *big.Int
	err := c.call(ctx, "balance", func(ctx context.Context, e *endpoint) (err error) {
		bal, err = e.eth.BalanceAt(ctx, addr, block)
		return err
	})
	return bal, err
}

// HasPriceFeed tells whether an ETH/USD feed is configured.
func (c *Client) HasPriceFeed() bool { return c.priceFeed != (common.Address{}) }

// USDPerETHAt reads the ETH/USD feed's answer as it stood at the end of each of blocks, in one
// round trip, as exact decimal strings ("3000.00000000") by block: the price a payment of that
// block is booked at. A block the feed gives no positive answer at (not deployed yet) is left
// out. ErrNoPriceFeed without a feed.
func (c *Client) USDPerETHAt(ctx context.Context, blocks []uint64) (map[uint64]string, error) {
	if c.priceFeed == (common.Address{}) {
		return nil, ErrNoPriceFeed
	}
	var decimals hexutil.Bytes
	rounds := make([]hexutil.Bytes, len(blocks))
	elems := []rpc.BatchElem{callElem(c.priceFeed, c.feed.PackDecimals(), "latest", &decimals)}
	for i, b := range blocks {
		elems = append(elems, callElem(c.priceFeed, c.feed.PackLatestRoundData(), hexutil.EncodeUint64(b), &rounds[i]))
	}
	err := c.roundTrip(ctx, "price feed at blocks", len(elems), func(ctx context.Context, e *endpoint) error {
		for i := range elems {
			elems[i].Error = nil
		}
		if err := e.rpc.BatchCallContext(ctx, elems); err != nil {
			return err
		}
		if elems[0].Error != nil { // a block before the feed answers nothing; the feed itself must
			return elems[0].Error
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	d, err := c.feed.UnpackDecimals(decimals)
	if err != nil {
		return nil, fmt.Errorf("price feed: decimals: %w", err)
	}
	out := map[uint64]string{}
	for i, b := range blocks {
		if elems[i+1].Error != nil || len(rounds[i]) == 0 {
			continue
		}
		r, err := c.feed.UnpackLatestRoundData(rounds[i])
		if err != nil || r.Answer.Sign() <= 0 {
			continue
		}
		out[b] = new(big.Rat).SetFrac(r.Answer, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d)), nil)).FloatString(int(d))
	}
	return out, nil
}

// ErrNoPriceFeed is the answer of USDPerETH when no feed is configured.
var ErrNoPriceFeed = errors.New("no price feed configured")

// priceMaxAge is how old the feed's last answer may be; an older one is no quote at all.
const priceMaxAge = 24 * time.Hour

// USDPerETH reads the ETH/USD feed (Chainlink's AggregatorV3Interface): latestRoundData scaled
// by decimals. A non-positive or stale answer is an error, never a price.
func (c *Client) USDPerETH(ctx context.Context) (float64, error) {
	if c.priceFeed == (common.Address{}) {
		return 0, ErrNoPriceFeed
	}
	var round, decimals hexutil.Bytes
	err := c.batch(ctx, "price feed", []rpc.BatchElem{
		callElem(c.priceFeed, c.feed.PackLatestRoundData(), "latest", &round),
		callElem(c.priceFeed, c.feed.PackDecimals(), "latest", &decimals),
	})
	if err != nil {
		return 0, err
	}
	r, err := c.feed.UnpackLatestRoundData(round)
	if err != nil {
		return 0, fmt.Errorf("price feed: latestRoundData: %w", err)
	}
	d, err := c.feed.UnpackDecimals(decimals)
	if err != nil {
		return 0, fmt.Errorf("price feed: decimals: %w", err)
	}
	if r.Answer.Sign() <= 0 {
		return 0, fmt.Errorf("price feed: answer %s is not a price", r.Answer)
	}
	if age := time.Since(time.Unix(r.UpdatedAt.Int64(), 0)); age > priceMaxAge {
		return 0, fmt.Errorf("price feed: last answer is %v old", age.Round(time.Second))
	}
	usd, _ := new(big.Float).Quo(new(big.Float).SetInt(r.Answer), big.NewFloat(math.Pow10(int(d)))).Float64()
	return usd, nil
}

// Distributor reads the address the factory accepts credit rounds from.
func (c *Client) Distributor(ctx context.Context) (common.Address, error) {
	out, err := c.callFactory(ctx, "distributor", c.nf.PackDistributor(), nil)
	if err != nil {
		return common.Address{}, err
	}
	return c.nf.UnpackDistributor(out)
}

// Minter reads the address the factory accepts mints from.
func (c *Client) Minter(ctx context.Context) (common.Address, error) {
	out, err := c.callFactory(ctx, "minter", c.nf.PackMinter(), nil)
	if err != nil {
		return common.Address{}, err
	}
	return c.nf.UnpackMinter(out)
}

// ChainID asks the node which chain it serves.
func (c *Client) ChainID(ctx context.Context) (*big.Int, error) {
	var id *big.Int
	err := c.call(ctx, "chain id", func(ctx context.Context, e *endpoint) (err error) {
		id, err = e.eth.ChainID(ctx)
		return err
	})
	return id, err
}

// Transfer is a mined transaction, as a payment's tracker sees it.
type Transfer struct {
	From          common.Address
	To            *common.Address // nil for a contract creation
	Value         *big.Int
	Block         uint64
	Success       bool
	Confirmations uint64 // its block and those on top of it, up to the head
	// Tokens are the ERC-20 Transfer logs of its receipt (a token payment is one of them).
	Tokens []TokenTransfer
}

// Transfer reads transaction hash, then its receipt once it is mined: one request while it waits
// in a pool (ErrNotMined) or the node knows nothing of it (ErrUnknownTx), two once it is mined.
// Its confirmations are the caller's to count, from the head it follows (AtHead).
func (c *Client) Transfer(ctx context.Context, hash common.Hash) (Transfer, error) {
	var tx *struct {
		From        common.Address  `json:"from"`
		To          *common.Address `json:"to"`
		Value       *hexutil.Big    `json:"value"`
		BlockNumber *hexutil.Uint64 `json:"blockNumber"` // null while pending
	}
	err := c.call(ctx, "tracked transaction", func(ctx context.Context, e *endpoint) error {
		return e.rpc.CallContext(ctx, &tx, "eth_getTransactionByHash", hash)
	})
	switch {
	case stillIndexing(err):
		return Transfer{}, ErrNotMined
	case err != nil:
		return Transfer{}, err
	case tx == nil:
		return Transfer{}, ErrUnknownTx
	case tx.BlockNumber == nil || tx.Value == nil:
		return Transfer{}, ErrNotMined
	}
	var r *struct {
		Status      hexutil.Uint64 `json:"status"`
		BlockNumber hexutil.Uint64 `json:"blockNumber"`
		Logs        []types.Log    `json:"logs"`
	}
	err = c.call(ctx, "tracked receipt", func(ctx context.Context, e *endpoint) error {
		return e.rpc.CallContext(ctx, &r, "eth_getTransactionReceipt", hash)
	})
	if stillIndexing(err) {
		return Transfer{}, ErrNotMined
	}
	if err != nil {
		return Transfer{}, err
	}
	if r == nil {
		return Transfer{}, ErrNotMined
	}
	t := Transfer{From: tx.From, To: tx.To, Value: tx.Value.ToInt(), Block: uint64(r.BlockNumber),
		Success: uint64(r.Status) == types.ReceiptStatusSuccessful}
	for _, l := range r.Logs {
		if tt, ok := tokenTransfer(l); ok {
			t.Tokens = append(t.Tokens, tt)
		}
	}
	return t, nil
}

// AtHead is t with its confirmations counted up to head: at least 1, its own block, since a
// head read may lag the receipt's block by a moment.
func (t Transfer) AtHead(head uint64) Transfer {
	t.Confirmations = 1
	if head > t.Block {
		t.Confirmations = head - t.Block + 1
	}
	return t
}
