package chain

import (
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"math/big"
	"slices"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
)

// transferTopic is ERC-20's Transfer(address indexed from, address indexed to, uint256 value).
var transferTopic = crypto.Keccak256Hash([]byte("Transfer(address,address,uint256)"))

// TokenTransfer is a Transfer log of an ERC-20 token: what arrived (Value, which is what the
// recipient got even from a token that takes a fee on transfer), from whom, where in the chain.
type TokenTransfer struct {
	Token     common.Address
	From      common.Address
	To        common.Address
	Value     *big.Int
	TxHash    common.Hash
	TxIndex   uint
	LogIndex  uint // the log's place in its block
	Block     uint64
	BlockHash common.Hash
	BlockTime uint64
}

// Payment tells whether t is a payment to recipient: a transfer to it from anyone but itself and
// the zero address (a mint to it was paid by nobody). Whether its token is accepted is the
// sale's to say.
func (t TokenTransfer) Payment(recipient common.Address) bool {
	return t.To == recipient && t.From != recipient && t.From != (common.Address{})
}

// Ref is what the factory's mint names a token payment by: the transaction hash and the log's
// index, hashed with a tag so it is never the Ref of an internal transfer of the same transaction.
func (t TokenTransfer) Ref() common.Hash {
	var idx [4]byte
	binary.BigEndian.PutUint32(idx[:], uint32(t.LogIndex))
	return crypto.Keccak256Hash(t.TxHash[:], []byte("log"), idx[:])
}

// tokenTransfer reads log l as an ERC-20 Transfer of something; false for any other log, a
// removed one, or a transfer of nothing.
func tokenTransfer(l types.Log) (TokenTransfer, bool) {
	// An ERC-721 Transfer has the same topic with the id indexed (4 topics, no data).
	if l.Removed || len(l.Topics) != 3 || l.Topics[0] != transferTopic || len(l.Data) != 32 {
		return TokenTransfer{}, false
	}
	t := TokenTransfer{Token: l.Address, From: common.BytesToAddress(l.Topics[1][:]), To: common.BytesToAddress(l.Topics[2][:]),
		Value: new(big.Int).SetBytes(l.Data), TxHash: l.TxHash, TxIndex: l.TxIndex, LogIndex: l.Index,
		Block: l.BlockNumber, BlockHash: l.BlockHash, BlockTime: l.BlockTimestamp}
	return t, t.Value.Sign() > 0
}

// TokenTransfers returns the Transfer logs of tokens to any of the wallets `to` from block from to block
// toBlock inclusive, in chain order: one eth_getLogs per range a provider allows (halved while it
// refuses one for its number of logs), however many blocks, tokens or payments the range holds.
// Only tokens' logs are asked for: anyone can emit a Transfer log from a contract of their own,
// so the logs of every contract would let a stranger flood the answer past a provider's cap. A
// reverted transfer logs nothing, so it is never among them.
func (c *Client) TokenTransfers(ctx context.Context, tokens []common.Address, to []common.Address, from, toBlock uint64) ([]TokenTransfer, error) {
	if len(tokens) == 0 || len(to) == 0 {
		return nil, nil
	}
	recipients := make([]common.Hash, len(to))
	for i, a := range to {
		recipients[i] = common.BytesToHash(a[:])
	}
	logs, err := c.logs(ctx, tokens, from, toBlock, []common.Hash{transferTopic}, nil, recipients)
	if err != nil {
		return nil, err
	}
	var out []TokenTransfer
	missing := map[uint64]common.Hash{} // blocks whose time the node did not give with their logs
	for _, l := range logs {
		t, ok := tokenTransfer(l)
		if !ok {
			continue
		}
		if t.BlockTime == 0 {
			missing[t.Block] = t.BlockHash
		}
		out = append(out, t)
	}
	if len(missing) > 0 {
		// Nodes older than the log's blockTimestamp field (2025) leave it out: the block tells.
		times := map[uint64]uint64{}
		for n, hash := range missing {
			b, err := c.Blocks(ctx, n, n)
			if err != nil {
				return nil, err
			}
			if b[0].Hash != hash {
				return nil, fmt.Errorf("token transfers: block %d changed while it was read", n)
			}
			times[n] = b[0].Time
		}
		for i := range out {
			if out[i].BlockTime == 0 {
				out[i].BlockTime = times[out[i].Block]
			}
		}
	}
	slices.SortFunc(out, func(a, b TokenTransfer) int {
		return cmp.Or(cmp.Compare(a.Block, b.Block), cmp.Compare(a.LogIndex, b.LogIndex))
	})
	return out, nil
}

// TokenTransferData is the calldata of an ERC-20 transfer(to, amount).
func TokenTransferData(to common.Address, amount *big.Int) []byte {
	return erc20.PackTransfer(to, amount)
}

// DecodeTokenTransfer reads the recipient and amount of calldata input of an ERC-20
// transfer(to, amount); ok is false for any other call.
func DecodeTokenTransfer(input []byte) (to common.Address, amount *big.Int, ok bool) {
	var call struct {
		To    common.Address
		Value *big.Int
	}
	ok = decodeCall(erc20.GetABI().Methods["transfer"], input, &call)
	return call.To, call.Value, ok
}

// TokenTransferGas is the gas limit from signs token.transfer(to, amount) with: the node's
// estimate plus the margin Sign adds. It fails when the transfer would revert (a blocked address,
// too small a balance).
func (c *Client) TokenTransferGas(ctx context.Context, from, token, to common.Address, amount *big.Int) (uint64, error) {
	var gas uint64
	err := c.call(ctx, "estimate token transfer gas", func(ctx context.Context, e *endpoint) (err error) {
		gas, err = e.eth.EstimateGas(ctx, ethereum.CallMsg{From: from, To: &token, Data: TokenTransferData(to, amount)})
		return err
	})
	return gas + gas*gasMargin/100, err
}
