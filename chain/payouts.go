package chain

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"
)

// PayoutGas is the most gas one payout of a batch may take in its simulation: a recipient that
// needs more to take ETH (a wallet that would burn the batch's gas) is refused like one that
// reverts. A plain account takes ETH for nothing beyond the call; a Safe, some 3,000 gas.
const PayoutGas = 200_000

// TxGasCap is the most gas one transaction may take (EIP-7825), whatever the block's limit.
const TxGasCap = 1 << 24

// PayoutCheck is what the chain made of one payout simulated from a wallet: refused (the
// recipient reverted on taking ETH, or the token's transfer reverted or answered false), and why
// in the chain's words ("" when it said nothing).
type PayoutCheck struct {
	Refused bool
	Reason  string
}

// payoutChecksPerTrip is how many payouts one round trip simulates: providers cap a batch's size.
const payoutChecksPerTrip = 100

// CheckPayouts simulates each payout as from (the treasury) would make it at block head alone
// (an eth_call of the transfer, or of the token's transfer, with PayoutGas), a hundred a round
// trip: a refused payout would make its batch revert as a whole. It fails only when the chain
// cannot answer.
func (c *Client) CheckPayouts(ctx context.Context, from common.Address, head uint64, payouts []Payout) ([]PayoutCheck, error) {
	checks := make([]PayoutCheck, len(payouts))
	at := hexutil.EncodeUint64(head)
	for lo := 0; lo < len(payouts); lo += payoutChecksPerTrip {
		hi := min(lo+payoutChecksPerTrip, len(payouts))
		outs := make([]hexutil.Bytes, hi-lo)
		elems := make([]rpc.BatchElem, hi-lo)
		for i, p := range payouts[lo:hi] {
			to, value, data := p.call()
			elems[i] = rpc.BatchElem{Method: "eth_call", Args: []any{map[string]any{"from": from, "to": to, "value": (*hexutil.Big)(value),
				"data": hexutil.Bytes(data), "gas": hexutil.Uint64(PayoutGas)}, at}, Result: &outs[i]}
		}
		err := c.roundTrip(ctx, "check payouts", len(elems), func(ctx context.Context, e *endpoint) error {
			for i := range elems {
				elems[i].Error = nil
			}
			if err := e.rpc.BatchCallContext(ctx, elems); err != nil {
				return err
			}
			for _, el := range elems { // a revert is an answer; anything else fails the round trip
				if el.Error != nil && !reverted(el.Error) && !outOfGas(el.Error) {
					return fmt.Errorf("%s: %w", el.Method, el.Error)
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		for i, el := range elems {
			p := payouts[lo+i]
			switch {
			case el.Error != nil:
				checks[lo+i] = PayoutCheck{Refused: true, Reason: revertReason(c.decodeRevert(el.Error))}
			case p.Token != (common.Address{}) && len(outs[i]) >= 32 && new(big.Int).SetBytes(outs[i][:32]).Sign() == 0:
				// A token that answers false instead of reverting moved nothing.
				checks[lo+i] = PayoutCheck{Refused: true, Reason: "returned false"}
			}
		}
	}
	return checks, nil
}

// outOfGas tells a call that ran out of its gas: the recipient needs more than PayoutGas.
func outOfGas(err error) bool { return revertReason(err) == "out of gas" }

// ErrBatchReverts is a batch whose simulation reverts: the treasury cannot make its transfers as
// they stand (it holds too little, or a transfer is refused), so its execution would fail.
var ErrBatchReverts = errors.New("the batch's simulation reverts")

// BatchGas simulates tx, a Safe transaction of the Safe at safe, at block head as the Safe would
// run it, without its owners' signatures: a MultiSendCallOnly batch runs its code in the Safe's
// place (a state override of the Safe's code with MultiSendCallOnly's), so each transfer leaves
// the Safe's balance as it would. It answers the gas the batch's transfers take (what the Safe's
// execTransaction adds to it is its own), ErrBatchReverts with the chain's words when it reverts,
// and the block's gas limit.
func (c *Client) BatchGas(ctx context.Context, safe common.Address, head uint64, tx SafeTx) (gas, blockGas uint64, err error) {
	at := hexutil.EncodeUint64(head)
	msg := map[string]any{"from": safe, "to": tx.To, "value": (*hexutil.Big)(orZero(tx.Value)), "data": hexutil.Bytes(tx.Data)}
	var overrides map[common.Address]map[string]any
	if tx.Operation == 1 {
		var code hexutil.Bytes
		if err := c.batch(ctx, "multisend code", []rpc.BatchElem{{Method: "eth_getCode", Args: []any{tx.To, at}, Result: &code}}); err != nil {
			return 0, 0, err
		}
		if len(code) == 0 {
			return 0, 0, fmt.Errorf("%w: no MultiSendCallOnly at %s", ErrBatchReverts, tx.To)
		}
		msg = map[string]any{"from": common.Address{}, "to": safe, "data": hexutil.Bytes(tx.Data)}
		overrides = map[common.Address]map[string]any{safe: {"code": code}}
	}
	var est hexutil.Uint64
	var block *types.Header
	err = c.roundTrip(ctx, "estimate batch gas", 2, func(ctx context.Context, e *endpoint) error {
		elems := []rpc.BatchElem{
			{Method: "eth_estimateGas", Args: []any{msg, at, overrides}, Result: &est},
			{Method: "eth_getBlockByNumber", Args: []any{at, false}, Result: &block},
		}
		if err := e.rpc.BatchCallContext(ctx, elems); err != nil {
			return err
		}
		if elems[1].Error != nil {
			return elems[1].Error
		}
		if el := elems[0].Error; el != nil {
			if reverted(el) || outOfGas(el) || !transient(el) {
				return &batchRevert{err: c.decodeRevert(el)}
			}
			return el
		}
		return nil
	})
	var br *batchRevert
	if errors.As(err, &br) {
		return 0, 0, fmt.Errorf("%w: %s", ErrBatchReverts, br.err)
	}
	if err != nil {
		return 0, 0, err
	}
	if block == nil {
		return 0, 0, fmt.Errorf("estimate batch gas: no block %d", head)
	}
	return uint64(est), block.GasLimit, nil
}

// batchRevert is a batch's simulation the chain refused, which no retry changes.
type batchRevert struct{ err error }

func (e *batchRevert) Error() string { return e.err.Error() }
