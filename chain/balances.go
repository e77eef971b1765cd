package chain

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
)

// BalanceChange is what a block did to an address's balance, and whether the address had code on
// either side of the block: a contract wallet, or an EOA delegated by EIP-7702. An address with
// code can move ETH in calls, so its own transactions no longer account for its balance.
type BalanceChange struct {
	Block   uint64
	Delta   *big.Int // the balance after the block less the balance before it
	HasCode bool
}

// BalanceChanges reads addr's balance and code at the end of blocks from-1..to (eth_getBalance,
// eth_getCode, each batch of blocks in one JSON-RPC batch) and returns what each block from..to
// changed. The genesis block changes nothing: what it allocates was never sent.
func (c *Client) BalanceChanges(ctx context.Context, from, to uint64, addr common.Address) ([]BalanceChange, error) {
	var out []BalanceChange
	for start := from; start <= to; start += blocksPerBatch {
		end := min(start+blocksPerBatch-1, to)
		first := max(start, 1) - 1 // the block before start (the genesis stands before itself)
		n := int(end - first + 1)
		balances, codes := make([]hexutil.Big, n), make([]hexutil.Bytes, n)
		elems := make([]rpc.BatchElem, 0, 2*n)
		for i := range n {
			block := hexutil.EncodeUint64(first + uint64(i))
			elems = append(elems,
				rpc.BatchElem{Method: "eth_getBalance", Args: []any{addr, block}, Result: &balances[i]},
				rpc.BatchElem{Method: "eth_getCode", Args: []any{addr, block}, Result: &codes[i]})
		}
		if err := c.batch(ctx, fmt.Sprintf("balances %d-%d", start, end), elems); err != nil {
			return nil, err
		}
		for b := start; b <= end; b++ {
			i := int(b - first)
			before := i - 1
			if b == 0 {
				before = i
			}
			out = append(out, BalanceChange{Block: b,
				Delta:   new(big.Int).Sub(balances[i].ToInt(), balances[before].ToInt()),
				HasCode: len(codes[i]) > 0 || len(codes[before]) > 0})
		}
	}
	return out, nil
}

// FeeCap is the fee per gas the service signs a transaction with now (before MAX_FEE_GWEI caps
// it): the node's suggested tip plus room for the base fee to double.
func (c *Client) FeeCap(ctx context.Context) (*big.Int, error) {
	f, err := c.fees(ctx)
	return f.Cap, err
}

// TransferGas is the gas limit from signs a transfer of ETH to `to` with: the node's estimate
// (21,000 to an account; more to a contract whose receive runs code, as a Safe's does), plus
// the margin Sign adds.
func (c *Client) TransferGas(ctx context.Context, from, to common.Address) (uint64, error) {
	var gas uint64
	err := c.call(ctx, "estimate transfer gas", func(ctx context.Context, e *endpoint) (err error) {
		gas, err = e.eth.EstimateGas(ctx, ethereum.CallMsg{From: from, To: &to, Value: big.NewInt(1)})
		return err
	})
	return gas + gas*gasMargin/100, err
}

// estimateWallet stands for a buyer with no node, estimateRef for a payment never used: a mint to
// it is a wallet's first, the dearest kind of a tier's mints (it writes the wallet's list from zero).
var (
	estimateWallet = common.BytesToAddress(crypto.Keccak256([]byte("nodeledger mint estimate"))[12:])
	estimateRef    = crypto.Keccak256Hash([]byte("nodeledger mint estimate"))
)

// MintGas is the gas limit minter signs a mint of tier with, at most: the node's estimate of the
// dearest mint of that tier now (a wallet's first node; the tier's first too while it has none),
// plus the margin Sign adds. Tier 0, which the ledger's tiers, numbered from 1, leave empty,
// gives the dearest mint of all. It fails while minting is paused (the estimate reverts).
func (c *Client) MintGas(ctx context.Context, minter common.Address, tier uint8) (uint64, error) {
	var gas uint64
	err := c.call(ctx, "estimate mint gas", func(ctx context.Context, e *endpoint) (err error) {
		gas, err = e.eth.EstimateGas(ctx, ethereum.CallMsg{From: minter, To: &c.factory, Data: c.MintData(estimateWallet, tier, estimateRef)})
		return err
	})
	return gas + gas*gasMargin/100, err
}

// WalletState is an address's balance, nonce and code at the end of a block, with the block's
// hash: where two of them agree and the address has no code, nothing was paid to it or sent from
// it in between.
type WalletState struct {
	Block   uint64
	Hash    common.Hash
	Balance *big.Int
	Nonce   uint64
	HasCode bool
}

// WalletStates reads addr's balance, nonce and code at the end of each of blocks, and each
// block's hash, in one JSON-RPC batch (four requests a block).
func (c *Client) WalletStates(ctx context.Context, addr common.Address, blocks ...uint64) ([]WalletState, error) {
	n := len(blocks)
	balances, nonces, codes := make([]hexutil.Big, n), make([]hexutil.Uint64, n), make([]hexutil.Bytes, n)
	headers := make([]blockHeader, n)
	elems := make([]rpc.BatchElem, 0, 4*n)
	for i, b := range blocks {
		block := hexutil.EncodeUint64(b)
		elems = append(elems,
			rpc.BatchElem{Method: "eth_getBalance", Args: []any{addr, block}, Result: &balances[i]},
			rpc.BatchElem{Method: "eth_getTransactionCount", Args: []any{addr, block}, Result: &nonces[i]},
			rpc.BatchElem{Method: "eth_getCode", Args: []any{addr, block}, Result: &codes[i]},
			rpc.BatchElem{Method: "eth_getBlockByNumber", Args: []any{block, false}, Result: &headers[i]})
	}
	if err := c.batch(ctx, fmt.Sprintf("wallet states at %v", blocks), elems); err != nil {
		return nil, err
	}
	out := make([]WalletState, n)
	for i, b := range blocks {
		if headers[i].Hash == (common.Hash{}) { // the node answered null
			return nil, fmt.Errorf("block %d: %w: block not found", b, ErrUnavailable)
		}
		out[i] = WalletState{Block: b, Hash: headers[i].Hash, Balance: balances[i].ToInt(),
			Nonce: uint64(nonces[i]), HasCode: len(codes[i]) > 0}
	}
	return out, nil
}

// Holding is what Holder holds of Token (zero: ETH) at the end of Block, as HoldingsAt reads it.
type Holding struct {
	Holder, Token common.Address
	Block         uint64
	Amount        *big.Int
}

// HoldingsAt reads, in one JSON-RPC batch, each of hs's Amount: eth_getBalance, or the token's
// balanceOf. A block older than the node keeps state for fails (an archive node answers).
func (c *Client) HoldingsAt(ctx context.Context, hs []Holding) error {
	if len(hs) == 0 {
		return nil
	}
	balances, calls := make([]hexutil.Big, len(hs)), make([]hexutil.Bytes, len(hs))
	elems := make([]rpc.BatchElem, len(hs))
	for i, h := range hs {
		block := hexutil.EncodeUint64(h.Block)
		if h.Token == (common.Address{}) {
			elems[i] = rpc.BatchElem{Method: "eth_getBalance", Args: []any{h.Holder, block}, Result: &balances[i]}
			continue
		}
		elems[i] = callElem(h.Token, erc20.PackBalanceOf(h.Holder), block, &calls[i])
	}
	if err := c.batch(ctx, fmt.Sprintf("%d holdings", len(hs)), elems); err != nil {
		return err
	}
	for i := range hs {
		if hs[i].Token == (common.Address{}) {
			hs[i].Amount = balances[i].ToInt()
			continue
		}
		if len(calls[i]) == 0 { // no code at the token's address yet: nobody holds any
			hs[i].Amount = new(big.Int)
			continue
		}
		amount, err := erc20.UnpackBalanceOf(calls[i])
		if err != nil {
			return fmt.Errorf("balanceOf of %s at block %d: %w", hs[i].Token, hs[i].Block, err)
		}
		hs[i].Amount = amount
	}
	return nil
}
