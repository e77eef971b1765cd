package chain

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"
)

// Sender signs transactions for one account, through its Signer. It hands out nonces in order, so callers may sign
// several transactions before any is mined; Sign does not broadcast, so a caller can store the
// signed bytes first and re-send the very same transaction after a crash.
type Sender struct {
	c       *Client
	signer  Signer
	From    common.Address
	chainID *big.Int
	// MaxFee caps the fee per gas of everything the sender signs (nil: no cap): a base fee above
	// it leaves a transaction waiting rather than paying it.
	MaxFee *big.Int

	mu    sync.Mutex
	nonce *uint64 // next nonce to hand out; nil: ask the chain
}

// NewSender returns a Sender signing through signer for chain chainID.
func (c *Client) NewSender(signer Signer, chainID *big.Int) *Sender {
	return &Sender{c: c, signer: signer, From: signer.Address(), chainID: chainID}
}

// gasMargin is added to every gas estimate, in percent: state may move between estimate and mining.
const gasMargin = 25

// Sign builds a transaction from the sender to `to` (nil: a contract creation) carrying data and
// value, with the next nonce, an estimated gas limit and EIP-1559 fees, and signs it.
func (s *Sender) Sign(ctx context.Context, to *common.Address, data []byte, value *big.Int) (*types.Transaction, error) {
	fees, err := s.Fees(ctx)
	if err != nil {
		return nil, err
	}
	return s.SignWith(ctx, fees, 0, to, data, value)
}

// Fees are the EIP-1559 fees per gas a transaction is signed with. A pass that signs many reads
// them once (Sender.Fees) for all of them.
type Fees struct {
	Tip, Cap *big.Int
	// Head is the block they were read at, and BlockGas its gas limit: a pass sizes its mint
	// batches to it, so that several fit in a block.
	Head, BlockGas uint64
}

// Fees are the node's fees now (a suggested tip, and room for the base fee to double), within
// MaxFee.
func (s *Sender) Fees(ctx context.Context) (Fees, error) {
	return s.fees(ctx)
}

// SignWith is Sign with fees given, and a gas limit given (0: estimated, plus gasMargin).
func (s *Sender) SignWith(ctx context.Context, fees Fees, gas uint64, to *common.Address, data []byte, value *big.Int) (*types.Transaction, error) {
	if value == nil {
		value = new(big.Int)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.nonce == nil {
		var n uint64
		err := s.c.call(ctx, "pending nonce", func(ctx context.Context, e *endpoint) (err error) {
			n, err = e.eth.PendingNonceAt(ctx, s.From)
			return err
		})
		if err != nil {
			return nil, err
		}
		s.nonce = &n
	}
	if gas == 0 {
		err := s.c.call(ctx, "estimate gas", func(ctx context.Context, e *endpoint) (err error) {
			gas, err = e.eth.EstimateGas(ctx, ethereum.CallMsg{From: s.From, To: to, Data: data, Value: value})
			return err
		})
		if err != nil {
			return nil, err
		}
		gas += gas * gasMargin / 100
	}
	tx, err := s.sign(ctx, *s.nonce, fees.Tip, fees.Cap, gas, to, data, value)
	if err != nil {
		return nil, err
	}
	*s.nonce++
	return tx, nil
}

// ErrFeeCapReached is Replace's answer when the fees a replacement needs would pass MaxFee.
var ErrFeeCapReached = errors.New("the fee cap (MAX_FEE_GWEI) is reached")

// ErrCannotAfford is Replace's answer when the sender's balance does not cover the replacement's
// gas at its fee cap and its value: the node would refuse it.
var ErrCannotAfford = errors.New("the sender's balance does not cover the replacement's fees")

// priceBump is the rise, in percent, of both fees that a node asks of a transaction replacing
// another at the same nonce (geth's txpool.pricebump).
const priceBump = 10

// Replace signs old again, at its nonce, with the same call and gas, and fees raised to the
// node's suggestion or by the replacement minimum, whichever is higher: the transaction that
// takes old's place in the pool when old was priced out (a base fee that rose, a tip too low).
// Fees stay within MaxFee; ErrFeeCapReached when the minimum rise would pass it.
func (s *Sender) Replace(ctx context.Context, old *types.Transaction) (*types.Transaction, error) {
	f, err := s.c.fees(ctx)
	if err != nil {
		return nil, err
	}
	tip, feeCap := f.Tip, f.Cap
	minTip, minCap := bumped(old.GasTipCap()), bumped(old.GasFeeCap())
	tip = bigMax(tip, minTip)
	feeCap = bigMax(bigMax(feeCap, minCap), tip)
	if s.MaxFee != nil {
		if s.MaxFee.Cmp(minCap) < 0 || s.MaxFee.Cmp(minTip) < 0 {
			return nil, ErrFeeCapReached
		}
		feeCap = bigMin(feeCap, s.MaxFee)
		tip = bigMin(tip, feeCap)
	}
	balance, err := s.c.Balance(ctx, s.From)
	if err != nil {
		return nil, err
	}
	cost := new(big.Int).Mul(feeCap, new(big.Int).SetUint64(old.Gas()))
	if balance.Cmp(cost.Add(cost, old.Value())) < 0 {
		return nil, ErrCannotAfford
	}
	return s.sign(ctx, old.Nonce(), tip, feeCap, old.Gas(), old.To(), old.Data(), old.Value())
}

// Fill signs a transfer of nothing to the sender itself at nonce: it fills a gap in the sender's
// nonces that would otherwise keep every later transaction from being mined.
func (s *Sender) Fill(ctx context.Context, nonce uint64) (*types.Transaction, error) {
	f, err := s.fees(ctx)
	if err != nil {
		return nil, err
	}
	return s.sign(ctx, nonce, f.Tip, f.Cap, params.TxGas, &s.From, nil, new(big.Int))
}

// fees are the node's fees (Client.fees) within MaxFee.
func (s *Sender) fees(ctx context.Context) (Fees, error) {
	f, err := s.c.fees(ctx)
	if err != nil || s.MaxFee == nil {
		return f, err
	}
	f.Cap = bigMin(f.Cap, s.MaxFee)
	f.Tip = bigMin(f.Tip, f.Cap)
	return f, nil
}

func (s *Sender) sign(ctx context.Context, nonce uint64, tip, feeCap *big.Int, gas uint64, to *common.Address, data []byte, value *big.Int) (*types.Transaction, error) {
	tx, err := s.signer.SignTx(ctx, types.NewTx(&types.DynamicFeeTx{
		ChainID:   s.chainID,
		Nonce:     nonce,
		GasTipCap: tip,
		GasFeeCap: feeCap,
		Gas:       gas,
		To:        to,
		Value:     value,
		Data:      data,
	}), s.chainID)
	if err != nil {
		return nil, fmt.Errorf("sign: %w", err)
	}
	return tx, nil
}

// bumped is x raised by the replacement minimum, and by at least 1 wei.
func bumped(x *big.Int) *big.Int {
	y := new(big.Int).Mul(x, big.NewInt(100+priceBump))
	y.Quo(y, big.NewInt(100))
	return y.Add(y, big.NewInt(1))
}

func bigMin(a, b *big.Int) *big.Int {
	if a.Cmp(b) <= 0 {
		return a
	}
	return b
}

func bigMax(a, b *big.Int) *big.Int {
	if a.Cmp(b) >= 0 {
		return a
	}
	return b
}

// Nonces returns how many transactions of account are mined, and how many the node knows of,
// mined or waiting in its pool to be mined next: one round trip.
func (c *Client) Nonces(ctx context.Context, account common.Address) (mined, pending uint64, err error) {
	var m, p hexutil.Uint64
	err = c.batch(ctx, "nonces", []rpc.BatchElem{
		{Method: "eth_getTransactionCount", Args: []any{account, "latest"}, Result: &m},
		{Method: "eth_getTransactionCount", Args: []any{account, "pending"}, Result: &p},
	})
	return uint64(m), uint64(p), err
}

// Receipts reads the receipts of hashes in batched round trips: those mined, by hash; one not
// mined is not in the map. A pass reads those of every transaction it knows mined at once,
// instead of a round trip each.
func (c *Client) Receipts(ctx context.Context, hashes []common.Hash) (map[common.Hash]*types.Receipt, error) {
	out := make(map[common.Hash]*types.Receipt, len(hashes))
	for start := 0; start < len(hashes); start += receiptsPerBatch {
		part := hashes[start:min(start+receiptsPerBatch, len(hashes))]
		rs := make([]*types.Receipt, len(part))
		elems := make([]rpc.BatchElem, len(part))
		for i, h := range part {
			elems[i] = rpc.BatchElem{Method: "eth_getTransactionReceipt", Args: []any{h}, Result: &rs[i]}
		}
		if err := c.batch(ctx, fmt.Sprintf("%d receipts", len(part)), elems); err != nil {
			if stillIndexing(err) { // it cannot tell yet: none is known mined
				return map[common.Hash]*types.Receipt{}, nil
			}
			return nil, err
		}
		for i, r := range rs {
			if r != nil {
				out[part[i]] = r
			}
		}
	}
	return out, nil
}

// Transact signs a transaction from the sender, sends it and waits for its receipt (polling
// every 10 ms at first, then less often): for one-off transactions such as a deployment. The
// passes do not use it: they store what they sign before they send it.
func (s *Sender) Transact(ctx context.Context, to *common.Address, data []byte, value *big.Int) (*types.Receipt, error) {
	tx, err := s.Sign(ctx, to, data, value)
	if err != nil {
		return nil, err
	}
	if err := s.c.Send(ctx, tx); err != nil {
		return nil, err
	}
	return s.c.waitMined(ctx, tx.Hash(), 10*time.Millisecond, time.Second)
}

// ResetNonce makes the next Sign ask the chain for the nonce again, after a transaction signed
// earlier was dropped or replaced.
func (s *Sender) ResetNonce() {
	s.mu.Lock()
	s.nonce = nil
	s.mu.Unlock()
}

// fees returns an EIP-1559 tip and fee cap: the node's suggested tip, and room for the base fee
// to double before the transaction is priced out.
func (c *Client) fees(ctx context.Context) (Fees, error) {
	var head *types.Header
	var tip *big.Int
	err := c.call(ctx, "fees", func(ctx context.Context, e *endpoint) (err error) {
		if tip, err = e.eth.SuggestGasTipCap(ctx); err != nil {
			return err
		}
		head, err = e.eth.HeaderByNumber(ctx, nil)
		return err
	})
	if err != nil {
		return Fees{}, err
	}
	base := head.BaseFee
	if base == nil {
		base = new(big.Int)
	}
	return Fees{Tip: tip, Cap: new(big.Int).Add(new(big.Int).Mul(base, big.NewInt(2)), tip), Head: head.Number.Uint64(), BlockGas: head.GasLimit}, nil
}

// ErrNonceTaken is Send's answer when tx can never be mined: another transaction took its nonce,
// mined or waiting in the pool at a higher price.
var ErrNonceTaken = errors.New("the transaction's nonce is taken by another")

// ErrUnderpriced is Send's answer when the node turns tx away for its fees: a tip below the
// least its pool takes, or a full pool that keeps better-paying transactions. The same call at
// the same nonce with higher fees is taken.
var ErrUnderpriced = errors.New("the node refuses the transaction's fees as too low")

// ErrInsufficientFunds is Send's answer when the sender's balance does not cover tx's gas at its
// fee cap and its value: the node refuses it until the sender is funded.
var ErrInsufficientFunds = errors.New("the sender's balance does not cover the transaction's gas and value")

// Send broadcasts tx to every endpoint at once; it is sent when any of them takes it. Sending a
// transaction the node already has, or has already mined, is not an error, so a retry after a
// crash can simply send the stored bytes again. The typed errors are those of an endpoint that
// refused it while none took it.
func (c *Client) Send(ctx context.Context, tx *types.Transaction) error {
	return c.broadcast(ctx, "send", func(ctx context.Context, e *endpoint) error {
		err := e.eth.SendTransaction(ctx, tx)
		if err == nil {
			return nil
		}
		msg := strings.ToLower(err.Error())
		switch {
		case strings.Contains(msg, "already known"):
			return nil
		case strings.Contains(msg, "nonce too low"):
			// Its nonce is used: by this very transaction (mined since), or by another one.
			if _, rerr := e.eth.TransactionReceipt(ctx, tx.Hash()); rerr == nil {
				return nil
			}
			return fmt.Errorf("%w: %w", ErrNonceTaken, err)
		case strings.Contains(msg, "replacement transaction underpriced"):
			return fmt.Errorf("%w: %w", ErrNonceTaken, err)
		case strings.Contains(msg, "gas price below minimum"), strings.Contains(msg, "transaction underpriced"):
			return fmt.Errorf("%w: %w", ErrUnderpriced, err)
		case strings.Contains(msg, "insufficient funds"):
			return fmt.Errorf("%w: %w", ErrInsufficientFunds, err)
		}
		return err
	})
}

// ErrNotMined is the package's one answer for a transaction that is not mined yet (Receipt,
// Mined, Transfer): never a nil receipt without an error.
var ErrNotMined = errors.New("transaction not mined yet")

// ErrUnknownTx is ErrNotMined for a transaction the node knows nothing of, neither in a block nor
// waiting in its pool: a payment tracker says "not found" only of these, and only after a while,
// since a transaction reaches a node's pool a moment after the wallet sends it.
var ErrUnknownTx = fmt.Errorf("transaction unknown: %w", ErrNotMined)

// Receipt reads the receipt of hash; ErrNotMined when there is none yet.
func (c *Client) Receipt(ctx context.Context, hash common.Hash) (*types.Receipt, error) {
	var r *types.Receipt
	err := c.call(ctx, "receipt", func(ctx context.Context, e *endpoint) (err error) {
		r, err = e.eth.TransactionReceipt(ctx, hash)
		if errors.Is(err, ethereum.NotFound) || stillIndexing(err) {
			return ErrNotMined
		}
		return err
	})
	return r, err
}

// stillIndexing tells whether err is a node's answer that it is still indexing transactions: it
// cannot tell whether one is mined yet either.
func stillIndexing(err error) bool {
	return err != nil && strings.Contains(err.Error(), "indexing is in progress")
}

// WaitMined polls for the receipt of hash every interval until it is mined or ctx ends.
func (c *Client) WaitMined(ctx context.Context, hash common.Hash, interval time.Duration) (*types.Receipt, error) {
	return c.waitMined(ctx, hash, interval, interval)
}

// waitMined polls for the receipt of hash, first after `first`, then twice as long each time up
// to longest, until it is Mined, or ctx ends.
func (c *Client) waitMined(ctx context.Context, hash common.Hash, first, longest time.Duration) (*types.Receipt, error) {
	for wait := first; ; wait = min(2*wait, longest) {
		r, err := c.Mined(ctx, hash)
		if !errors.Is(err, ErrNotMined) {
			return r, err
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for %s: %w", hash, ctx.Err())
		case <-time.After(wait):
		}
	}
}

// Mined returns the receipt of whichever of hashes (versions of one transaction, at one nonce,
// oldest first) is mined, once the node's head has reached its block; ErrNotMined while none is.
// It asks newest first: the version most likely mined.
//
// geth indexes a block's transactions a moment before it moves its head to that block, so a
// receipt can be there while reads at "latest" still see the block before; callers read state
// after this returns and must see the transaction's effects.
func (c *Client) Mined(ctx context.Context, hashes ...common.Hash) (*types.Receipt, error) {
	for _, hash := range slices.Backward(hashes) {
		r, err := c.Receipt(ctx, hash)
		if errors.Is(err, ErrNotMined) {
			continue
		}
		if err != nil {
			return nil, err
		}
		head, err := c.HeadNumber(ctx)
		if err != nil {
			return nil, err
		}
		if r.BlockNumber != nil && head < r.BlockNumber.Uint64() {
			return nil, ErrNotMined
		}
		return r, nil
	}
	return nil, ErrNotMined
}
