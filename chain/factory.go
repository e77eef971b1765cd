package chain

import (
	"bytes"
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"nodeledger/chain/bindings"
)

// erc20 packs and unpacks balanceOf, symbol and decimals, which every ERC-20 has in common with
// the dev token.
var erc20 = bindings.NewTestToken()

// MaxPerWallet reads how many nodes the factory lets one wallet hold in all, at block (nil: the
// head).
func (c *Client) MaxPerWallet(ctx context.Context, block *big.Int) (uint32, error) {
	out, err := c.callFactory(ctx, "maxPerWallet", c.nf.PackMaxPerWallet(), block)
	if err != nil {
		return 0, err
	}
	return c.nf.UnpackMaxPerWallet(out)
}

// Paused reads whether minting is paused.
func (c *Client) Paused(ctx context.Context) (bool, error) { return c.PausedAt(ctx, nil) }

// PausedAt reads whether minting was paused at block (nil: the head).
func (c *Client) PausedAt(ctx context.Context, block *big.Int) (bool, error) {
	out, err := c.callFactory(ctx, "paused", c.nf.PackPaused(), block)
	if err != nil {
		return false, err
	}
	return c.nf.UnpackPaused(out)
}

// TokenBalance reads an ERC-20 balance.
func (c *Client) TokenBalance(ctx context.Context, token, holder common.Address) (*big.Int, error) {
	return c.TokenBalanceAt(ctx, token, holder, nil)
}

// TokenBalanceAt reads an ERC-20 balance at block (nil: the head).
func (c *Client) TokenBalanceAt(ctx context.Context, token, holder common.Address, block *big.Int) (*big.Int, error) {
	var out []byte
	err := c.call(ctx, "balanceOf", func(ctx context.Context, e *endpoint) (err error) {
		out, err = e.eth.CallContract(ctx, ethereum.CallMsg{To: &token, Data: erc20.PackBalanceOf(holder)}, block)
		return err
	})
	if err != nil {
		return nil, err
	}
	return erc20.UnpackBalanceOf(out)
}

// Token is how an ERC-20 token is written for people: its symbol, and the decimals its base
// units are divided by.
type Token struct {
	Address  common.Address
	Symbol   string
	Decimals uint8
}

// TokenInfo reads a token's symbol and decimals, once per token: they never change.
func (c *Client) TokenInfo(ctx context.Context, token common.Address) (Token, error) {
	if t, ok := c.tokens.Load(token); ok {
		return t.(Token), nil
	}
	t := Token{Address: token}
	var sym, dec []byte
	err := c.call(ctx, "token info", func(ctx context.Context, e *endpoint) (err error) {
		if sym, err = e.eth.CallContract(ctx, ethereum.CallMsg{To: &token, Data: erc20.PackSymbol()}, nil); err != nil {
			return err
		}
		dec, err = e.eth.CallContract(ctx, ethereum.CallMsg{To: &token, Data: erc20.PackDecimals()}, nil)
		return err
	})
	if err != nil {
		return Token{}, err
	}
	if t.Symbol, err = erc20.UnpackSymbol(sym); err != nil {
		return Token{}, fmt.Errorf("token %s: symbol: %w", token.Hex(), err)
	}
	if t.Decimals, err = erc20.UnpackDecimals(dec); err != nil {
		return Token{}, fmt.Errorf("token %s: decimals: %w", token.Hex(), err)
	}
	c.tokens.Store(token, t)
	return t, nil
}

// Minted is a NodeMinted event.
type Minted struct {
	ID         *big.Int
	Owner      common.Address
	Tier       uint8
	PaymentRef common.Hash
	TxHash     common.Hash
	Block      uint64
}

// MintsIn returns the factory's NodeMinted events in a receipt, in order, and why each payment
// reference a mintBatch skipped was skipped, as the custom error mint reverts with for it
// (PaymentRefUsed, WalletFull, ZeroAddress).
func (c *Client) MintsIn(r *types.Receipt) (minted []Minted, skipped map[common.Hash]string) {
	skipped = map[common.Hash]string{}
	for _, l := range r.Logs {
		if m, ok := c.minted(l); ok {
			minted = append(minted, m)
			continue
		}
		if !c.isEvent(l, "MintSkipped") {
			continue
		}
		if ev, err := c.nf.UnpackMintSkippedEvent(l); err == nil {
			skipped[ev.PaymentRef] = skipErrors[ev.Reason]
		}
	}
	return minted, skipped
}

// skipErrors names each of mintBatch's Skip reasons by the custom error mint reverts with for it.
var skipErrors = map[uint8]string{1: "ZeroAddress", 2: "PaymentRefUsed", 3: "WalletFull"}

// isEvent tells whether l is the factory's event name.
func (c *Client) isEvent(l *types.Log, name string) bool {
	return l.Address == c.factory && len(l.Topics) > 0 && l.Topics[0] == c.nf.GetABI().Events[name].ID
}

func (c *Client) minted(l *types.Log) (Minted, bool) {
	if !c.isEvent(l, "NodeMinted") {
		return Minted{}, false
	}
	ev, err := c.nf.UnpackNodeMintedEvent(l)
	if err != nil {
		return Minted{}, false
	}
	return Minted{ID: ev.Id, Owner: ev.Owner, Tier: ev.Tier, PaymentRef: ev.PaymentRef, TxHash: l.TxHash, Block: l.BlockNumber}, true
}

// DistributedIn returns the total a round credited, from the factory's Distributed event in a
// receipt; ok is false when the receipt has none.
func (c *Client) DistributedIn(r *types.Receipt) (total *big.Int, ok bool) {
	for _, l := range r.Logs {
		if !c.isEvent(l, "Distributed") {
			continue
		}
		if ev, err := c.nf.UnpackDistributedEvent(l); err == nil {
			return ev.Total, true
		}
	}
	return nil, false
}

// MintOutcomes looks for what the factory did for paymentRefs from block `from` to the head, in
// one read of the logs: the node a NodeMinted event minted for a reference, or why a mintBatch
// skipped it (MintSkipped, named as MintsIn names it). A reference found in neither is absent.
func (c *Client) MintOutcomes(ctx context.Context, paymentRefs []common.Hash, from uint64) (map[common.Hash]Minted, map[common.Hash]string, error) {
	head, err := c.HeadNumber(ctx)
	if err != nil {
		return nil, nil, err
	}
	events := c.nf.GetABI().Events
	logs, err := c.FactoryLogs(ctx, from, head, []common.Hash{events["NodeMinted"].ID, events["MintSkipped"].ID})
	if err != nil {
		return nil, nil, err
	}
	want := make(map[common.Hash]bool, len(paymentRefs))
	for _, r := range paymentRefs {
		want[r] = true
	}
	minted, skipped := map[common.Hash]Minted{}, map[common.Hash]string{}
	for i := range logs {
		if m, ok := c.minted(&logs[i]); ok && want[m.PaymentRef] {
			minted[m.PaymentRef] = m
			continue
		}
		if !c.isEvent(&logs[i], "MintSkipped") {
			continue
		}
		if ev, err := c.nf.UnpackMintSkippedEvent(&logs[i]); err == nil && want[ev.PaymentRef] {
			skipped[ev.PaymentRef] = skipErrors[ev.Reason]
		}
	}
	return minted, skipped, nil
}

// MintOf finds the NodeMinted event of node id, searching from block `from` to the head; found
// is false when no such node was minted (or its block is not readable yet).
func (c *Client) MintOf(ctx context.Context, id *big.Int, from uint64) (Minted, bool, error) {
	head, err := c.HeadNumber(ctx)
	if err != nil {
		return Minted{}, false, err
	}
	logs, err := c.FactoryLogs(ctx, from, head, []common.Hash{c.nf.GetABI().Events["NodeMinted"].ID}, []common.Hash{common.BigToHash(id)})
	if err != nil {
		return Minted{}, false, err
	}
	for i := range logs {
		if m, ok := c.minted(&logs[i]); ok && m.ID.Cmp(id) == 0 {
			return m, true, nil
		}
	}
	return Minted{}, false, nil
}

// WithdrawCall is the decoded input of a call to factory.withdraw.
type WithdrawCall struct {
	ID     *big.Int `abi:"id"`
	To     common.Address
	Amount *big.Int
}

// DecodeWithdraw decodes input as a call to the factory's withdraw; ok is false for anything else.
func (c *Client) DecodeWithdraw(input []byte) (w WithdrawCall, ok bool) {
	return w, decodeCall(c.nf.GetABI().Methods["withdraw"], input, &w)
}

// decodeCall copies the arguments of input, calldata of method m, into v, a pointer to a struct
// with a field of each argument's name (in CamelCase, or tagged abi:"name"); false for calldata
// of any other method, or that does not decode.
func decodeCall(m abi.Method, input []byte, v any) bool {
	if len(input) < 4 || !bytes.Equal(input[:4], m.ID) {
		return false
	}
	args, err := m.Inputs.Unpack(input[4:])
	return err == nil && m.Inputs.Copy(v, args) == nil
}

// Why re-runs a reverted transaction's call at the latest block and returns the revert, naming
// the factory's custom error when it is one; nil when the call would now succeed.
func (c *Client) Why(ctx context.Context, from common.Address, tx *types.Transaction) error {
	return c.call(ctx, "why", func(ctx context.Context, e *endpoint) error {
		_, err := e.eth.CallContract(ctx, ethereum.CallMsg{From: from, To: tx.To(), Data: tx.Data(), Value: tx.Value()}, nil)
		return err
	})
}

// Withdrawal is a Withdrawn event.
type Withdrawal struct {
	ID       *big.Int
	Owner    common.Address
	To       common.Address
	Amount   *big.Int
	TxHash   common.Hash
	LogIndex uint
	Block    uint64
	Time     uint64 // the block's timestamp
}

// FactoryEvents are the NodeMinted, Withdrawn and Transferred events of a block range, in chain
// order.
type FactoryEvents struct {
	Minted      []Minted
	Withdrawn   []Withdrawal
	Transferred []*big.Int // ids of the nodes that changed hands
	Distributed []Distribution
	// Blocks are the hashes of the blocks that hold the events, by number, as their logs say.
	Blocks map[uint64]common.Hash
}

// Distribution is a round the factory credited: its Distributed event.
type Distribution struct {
	RoundID *big.Int
	Mode    uint8 // RoundFixed or RoundPool
	// Amount is the call's: the base per node (fixed) or the pool (pool); Nodes the nodeCount
	// it credited; Total what it credited in all; Carry the poolCarry it left.
	Amount, Nodes, Total, Carry *big.Int
	TxHash                      common.Hash
	Block                       uint64
	Time                        uint64
}

// Events reads the factory's NodeMinted, Withdrawn, Transferred and Distributed events from block
// from to block to.
func (c *Client) Events(ctx context.Context, from, to uint64) (FactoryEvents, error) {
	logs, err := c.FactoryLogs(ctx, from, to, c.eventTopics())
	if err != nil {
		return FactoryEvents{}, err
	}
	return c.factoryEvents(logs), nil
}

// eventTopics are the topics of the events Events reads.
func (c *Client) eventTopics() []common.Hash {
	events := c.nf.GetABI().Events
	return []common.Hash{events["NodeMinted"].ID, events["Withdrawn"].ID, events["Transferred"].ID, events["Distributed"].ID}
}

// factoryEvents reads the events of Events from logs, the factory's.
func (c *Client) factoryEvents(logs []types.Log) FactoryEvents {
	events := c.nf.GetABI().Events
	out := FactoryEvents{Blocks: map[uint64]common.Hash{}}
	for i := range logs {
		l := &logs[i]
		out.Blocks[l.BlockNumber] = l.BlockHash
		if m, ok := c.minted(l); ok {
			out.Minted = append(out.Minted, m)
			continue
		}
		if l.Topics[0] == events["Transferred"].ID {
			if ev, err := c.nf.UnpackTransferredEvent(l); err == nil {
				out.Transferred = append(out.Transferred, ev.Id)
			}
			continue
		}
		if l.Topics[0] == events["Distributed"].ID {
			if ev, err := c.nf.UnpackDistributedEvent(l); err == nil {
				out.Distributed = append(out.Distributed, Distribution{RoundID: ev.RoundId, Mode: ev.Mode, Amount: ev.Amount,
					Nodes: ev.Nodes, Total: ev.Total, Carry: ev.Carry, TxHash: l.TxHash, Block: l.BlockNumber, Time: l.BlockTimestamp})
			}
			continue
		}
		if ev, err := c.nf.UnpackWithdrawnEvent(l); err == nil {
			out.Withdrawn = append(out.Withdrawn, Withdrawal{ID: ev.Id, Owner: ev.Owner, To: ev.To, Amount: ev.Amount,
				TxHash: l.TxHash, LogIndex: l.Index, Block: l.BlockNumber, Time: l.BlockTimestamp})
		}
	}
	return out
}

// LedgerLogs are what the factory, the treasury and the sanctions oracle logged over a block
// range: the reads of the reconciler (Factory) and of the payments scan (the rest).
type LedgerLogs struct {
	Factory    FactoryEvents
	Executions []SafeExecution
	Received   []SafeReceived
	// Sanctions are the oracle's changes to its list (none without SANCTIONS_ORACLE).
	Sanctions []SanctionsChange
}

// LedgerLogs reads the factory's events and, unless safe is zero, the treasury Safe's executions
// and receipts of ETH, and the sanctions oracle's changes when one is set, from block from to
// block to, in one eth_getLogs for the three contracts (per range a provider allows): what a
// provider bills is the request, and a pass that needs them all pays for one.
func (c *Client) LedgerLogs(ctx context.Context, safe common.Address, from, to uint64) (LedgerLogs, error) {
	addrs, topics := []common.Address{c.factory}, c.eventTopics()
	if safe != (common.Address{}) {
		addrs, topics = append(addrs, safe), append(topics, safeTopics...)
	}
	if c.oracle != (common.Address{}) {
		addrs, topics = append(addrs, c.oracle), append(topics, sanctionsTopics...)
	}
	logs, err := c.logs(ctx, addrs, from, to, topics)
	if err != nil {
		return LedgerLogs{}, err
	}
	var factory, treasury, oracle []types.Log
	for _, l := range logs {
		switch l.Address {
		case c.factory:
			factory = append(factory, l)
		case c.oracle:
			oracle = append(oracle, l)
		default:
			treasury = append(treasury, l)
		}
	}
	out := LedgerLogs{Factory: c.factoryEvents(factory)}
	if out.Sanctions, err = sanctionsChanges(oracle); err != nil {
		return LedgerLogs{}, err
	}
	out.Executions, out.Received, err = c.safeEvents(ctx, safe, treasury)
	return out, err
}

// WithdrawSelector is the 4-byte selector of withdraw(uint256,address,uint256), 0x-prefixed, for
// a page whose script asks the owner's wallet to call it.
func (c *Client) WithdrawSelector() string {
	return "0x" + common.Bytes2Hex(c.nf.GetABI().Methods["withdraw"].ID)
}

// MintData is the calldata of factory.mint(to, tier, paymentRef).
func (c *Client) MintData(to common.Address, tier uint8, paymentRef common.Hash) []byte {
	return c.nf.PackMint(to, tier, paymentRef)
}

// MintOrder is a node a mint transaction asks for: of Tier, to To, for the payment PaymentRef.
type MintOrder = bindings.NodeFactoryMintOrder

// MintsData is the calldata of a mint transaction for orders: factory.mint for one order (a
// revert says why it minted nothing), mintBatch for more (a MintSkipped event says why an order
// minted nothing, and the others mint).
func (c *Client) MintsData(orders []MintOrder) []byte {
	if len(orders) == 1 {
		o := orders[0]
		return c.MintData(o.To, o.Tier, o.PaymentRef)
	}
	return c.nf.PackMintBatch(orders)
}

// Round modes, as factory.distribute takes them.
const (
	RoundFixed uint8 = 0 // amount is the base per node, times each tier's weight / 10000
	RoundPool  uint8 = 1 // amount is a pool, split pro rata weight
)

// DistributeData is the calldata of factory.distribute(roundID, mode, amount, nodes, version):
// one round for the nodes nodeCount says, credited with the tiers' weights of weightsVersion
// version (the contract refuses it once either moved).
func (c *Client) DistributeData(roundID *big.Int, mode uint8, amount *big.Int, nodes int64, version uint64) []byte {
	return c.nf.PackDistribute(roundID, mode, amount, big.NewInt(nodes), version)
}

// SetTierWeightSelector is the 4-byte selector of setTierWeight(uint8,uint32), 0x-prefixed, for
// the operator page, whose script asks the owner's wallet to call it.
func (c *Client) SetTierWeightSelector() string {
	return "0x" + common.Bytes2Hex(c.nf.GetABI().Methods["setTierWeight"].ID)
}

// SetTierWeightData is the calldata of factory.setTierWeight(tier, bps), which only the owner may
// send.
func (c *Client) SetTierWeightData(tier uint8, bps uint32) []byte {
	return c.nf.PackSetTierWeight(tier, bps)
}
