package chain

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"nodeledger/chain/bindings"
)

// safeABI is the Safe singleton's ABI (1.4.1, as Safe publishes it): every Safe proxy answers it.
var safeABI = bindings.NewSafe()

// SafeVersion is the Safe contracts' version the treasury is built for: its EIP-712 domain and
// signature encoding are this version's.
const SafeVersion = "1.4.1"

// ErrNotASafe is an address that does not answer as a Safe of SafeVersion on this chain.
var ErrNotASafe = errors.New("not a Safe " + SafeVersion + " on this chain")

// Safe is a Safe as the chain holds it now: who may approve its transactions, how many must, the
// nonce its next transaction takes, and what it holds.
type Safe struct {
	Address   common.Address
	Owners    []common.Address
	Threshold uint64
	Nonce     *big.Int
	Balance   *big.Int // wei
}

// Safe reads the Safe at addr, every figure at one block in one round trip after the head's:
// ErrNotASafe when it has no code, or does not answer as a Safe of SafeVersion.
func (c *Client) Safe(ctx context.Context, addr common.Address) (Safe, error) {
	var code, version, owners, threshold, nonce hexutil.Bytes
	var balance hexutil.Big
	_, err := c.readAtHead(ctx, "safe", func(at string) []rpc.BatchElem {
		call := func(data []byte, out *hexutil.Bytes) rpc.BatchElem { return callElem(addr, data, at, out) }
		return []rpc.BatchElem{
			{Method: "eth_getCode", Args: []any{addr, at}, Result: &code},
			{Method: "eth_getBalance", Args: []any{addr, at}, Result: &balance},
			call(safeABI.PackVERSION(), &version),
			call(safeABI.PackGetOwners(), &owners),
			call(safeABI.PackGetThreshold(), &threshold),
			call(safeABI.PackNonce(), &nonce),
		}
	})
	if err != nil && reverted(err) { // a contract that is not a Safe reverts
		return Safe{}, ErrNotASafe
	}
	if err != nil {
		return Safe{}, err
	}
	if len(code) == 0 || len(version) == 0 {
		return Safe{}, ErrNotASafe
	}
	if v, err := safeABI.UnpackVERSION(version); err != nil || v != SafeVersion {
		return Safe{}, fmt.Errorf("%w (it says version %q)", ErrNotASafe, v)
	}
	s := Safe{Address: addr, Balance: balance.ToInt()}
	if s.Owners, err = safeABI.UnpackGetOwners(owners); err != nil {
		return Safe{}, fmt.Errorf("%w: getOwners: %v", ErrNotASafe, err)
	}
	t, err := safeABI.UnpackGetThreshold(threshold)
	if err != nil || !t.IsUint64() {
		return Safe{}, fmt.Errorf("%w: getThreshold", ErrNotASafe)
	}
	s.Threshold = t.Uint64()
	if s.Nonce, err = safeABI.UnpackNonce(nonce); err != nil {
		return Safe{}, fmt.Errorf("%w: nonce: %v", ErrNotASafe, err)
	}
	return s, nil
}

// SafeTx is a Safe transaction, the struct its owners sign (EIP-712 SafeTx). Operation 0 is a
// call, 1 a delegatecall (a MultiSendCallOnly batch).
type SafeTx struct {
	To             common.Address
	Value          *big.Int
	Data           []byte
	Operation      uint8
	SafeTxGas      *big.Int
	BaseGas        *big.Int
	GasPrice       *big.Int
	GasToken       common.Address
	RefundReceiver common.Address
	Nonce          *big.Int
}

// The EIP-712 types of Safe 1.4.1 (SafeMessage aside), as its type hashes name them: its domain
// carries the chain id and the Safe's address, and no name or version. A wallet asked to sign a
// SafeTx (eth_signTypedData_v4) must be given these very fields, in this order.
const (
	SafeDomainType = "EIP712Domain(uint256 chainId,address verifyingContract)"
	SafeTxType     = "SafeTx(address to,uint256 value,bytes data,uint8 operation,uint256 safeTxGas," +
		"uint256 baseGas,uint256 gasPrice,address gasToken,address refundReceiver,uint256 nonce)"
)

var (
	safeDomainTypeHash = crypto.Keccak256Hash([]byte(SafeDomainType))
	safeTxTypeHash     = crypto.Keccak256Hash([]byte(SafeTxType))
)

// Hash is the hash the Safe at safe on chain chainID asks its owners to sign for tx, as its
// getTransactionHash answers it: computed here, so a batch is known before it is proposed.
func (tx SafeTx) Hash(chainID *big.Int, safe common.Address) common.Hash {
	word := func(x *big.Int) []byte { return common.LeftPadBytes(orZero(x).Bytes(), 32) }
	domain := crypto.Keccak256(safeDomainTypeHash[:], word(chainID), common.LeftPadBytes(safe[:], 32))
	body := crypto.Keccak256(safeTxTypeHash[:], common.LeftPadBytes(tx.To[:], 32), word(tx.Value),
		crypto.Keccak256(tx.Data), word(big.NewInt(int64(tx.Operation))), word(tx.SafeTxGas), word(tx.BaseGas),
		word(tx.GasPrice), common.LeftPadBytes(tx.GasToken[:], 32), common.LeftPadBytes(tx.RefundReceiver[:], 32), word(tx.Nonce))
	return crypto.Keccak256Hash([]byte{0x19, 0x01}, domain, body)
}

// reverted tells a call the contract refused from one that did not reach it.
func reverted(err error) bool {
	var de rpc.DataError
	return errors.As(err, &de) || strings.Contains(err.Error(), "execution reverted")
}

func orZero(x *big.Int) *big.Int {
	if x == nil {
		return new(big.Int)
	}
	return x
}

// Payout is a transfer from the treasury, one entry of a batch: Value wei to To, or with Token
// set, Value of the token's base units (its transfer(To, Value)).
type Payout struct {
	To    common.Address
	Value *big.Int
	Token common.Address // zero: ETH
}

// call is the call that makes p: to, value and data.
func (p Payout) call() (common.Address, *big.Int, []byte) {
	if p.Token != (common.Address{}) {
		return p.Token, new(big.Int), TokenTransferData(p.To, orZero(p.Value))
	}
	return p.To, orZero(p.Value), nil
}

// multiSendABI is MultiSendCallOnly's ABI, whose multiSend a batch delegatecalls.
var multiSendABI = bindings.NewMultiSendCallOnly()

// Batch is the Safe transaction that makes transfers in one go, at the Safe's nonce: a
// delegatecall (operation 1) of MultiSendCallOnly's multiSend with each transfer packed as it
// reads them (operation 0, to, value, data length, data: none for ETH, a token's transfer call),
// the form the Safe app uses. With one transfer it is a plain call, which costs less.
func Batch(multiSend common.Address, nonce *big.Int, transfers []Payout) SafeTx {
	zero := new(big.Int)
	tx := SafeTx{SafeTxGas: zero, BaseGas: zero, GasPrice: zero, Nonce: nonce}
	if len(transfers) == 1 {
		tx.To, tx.Value, tx.Data = transfers[0].call()
		return tx
	}
	var packed []byte
	for _, t := range transfers {
		to, value, data := t.call()
		packed = append(packed, 0)
		packed = append(packed, to[:]...)
		packed = append(packed, common.LeftPadBytes(value.Bytes(), 32)...)
		packed = append(packed, common.LeftPadBytes(big.NewInt(int64(len(data))).Bytes(), 32)...)
		packed = append(packed, data...)
	}
	tx.To, tx.Value, tx.Data, tx.Operation = multiSend, zero, multiSendABI.PackMultiSend(packed), 1
	return tx
}

// ErrNotAnOwner is a signature that does not recover to one of the Safe's owners.
var ErrNotAnOwner = errors.New("the signature is not one of the Safe's owners'")

// SafeSigner is the owner whose signature sig (65 bytes: r, s, v with v 27 or 28, an EIP-712
// signature as a wallet's eth_signTypedData_v4 gives it) of the Safe transaction hash is, checked
// against owners: ErrNotAnOwner otherwise.
func SafeSigner(hash common.Hash, sig []byte, owners []common.Address) (common.Address, error) {
	if len(sig) != 65 || (sig[64] != 27 && sig[64] != 28) {
		return common.Address{}, fmt.Errorf("%w: a signature is 65 bytes ending in 27 or 28", ErrNotAnOwner)
	}
	rsv := append([]byte{}, sig...)
	rsv[64] -= 27
	pub, err := crypto.SigToPub(hash[:], rsv)
	if err != nil {
		return common.Address{}, fmt.Errorf("%w: %v", ErrNotAnOwner, err)
	}
	signer := crypto.PubkeyToAddress(*pub)
	for _, o := range owners {
		if o == signer {
			return signer, nil
		}
	}
	return common.Address{}, ErrNotAnOwner
}

// ExecData is the calldata of execTransaction for tx with sigs, each owner's signature by
// owner: concatenated in ascending order of owner address, as the Safe checks them.
func ExecData(tx SafeTx, sigs map[common.Address][]byte) []byte {
	owners := make([]common.Address, 0, len(sigs))
	for o := range sigs {
		owners = append(owners, o)
	}
	slices.SortFunc(owners, func(a, b common.Address) int { return bytes.Compare(a[:], b[:]) })
	var joined []byte
	for _, o := range owners {
		joined = append(joined, sigs[o]...)
	}
	return safeABI.PackExecTransaction(tx.To, orZero(tx.Value), tx.Data, tx.Operation, orZero(tx.SafeTxGas), orZero(tx.BaseGas),
		orZero(tx.GasPrice), tx.GasToken, tx.RefundReceiver, joined)
}

// SafeExecution is a Safe transaction a Safe executed, as its ExecutionSuccess or
// ExecutionFailure log says: the Safe transaction's hash, and the transaction and block that
// executed it, and who sent that transaction (the audit names them).
type SafeExecution struct {
	SafeTxHash  common.Hash
	Success     bool
	TxHash      common.Hash
	From        common.Address
	BlockNumber uint64
	BlockHash   common.Hash
	// TokensOut are the tokens a successful execution moved out of the Safe, as its receipt's
	// Transfer logs say: a token that answers false to a transfer moves nothing and logs nothing,
	// though the execution succeeds.
	TokensOut []TokenTransfer
	// Call is the Safe transaction executed, as the calldata of the transaction that called the
	// Safe's execTransaction says it (nil when the transaction called another contract), its
	// Nonce unset (SafeTxNonce finds it); Signatures how many owners' signatures it carried.
	Call       *SafeTx
	Signatures int
	// Payment is what the Safe paid for the execution's gas, as its log says (a Safe transaction
	// with a gasPrice refunds whoever executes it, in ETH or in its GasToken): 0 for the
	// service's batches, whose gasPrice is 0.
	Payment *big.Int
}

// ETHOut is the ETH e moved out of the Safe: what its Safe transaction sends when it succeeded,
// and the gas payment in ETH (to RefundReceiver, or to whoever sent the transaction). ok is false
// when that cannot be read from the chain (an execution through another contract, a delegatecall
// to another contract than a multiSend).
func (e SafeExecution) ETHOut() (out []Payout, ok bool) {
	paid := e.Payment != nil && e.Payment.Sign() > 0
	if e.Call == nil {
		return nil, !e.Success && !paid
	}
	if e.Success {
		if out, ok = e.Call.ETHOut(); !ok {
			return nil, false
		}
	}
	if paid && e.Call.GasToken == (common.Address{}) {
		to := e.Call.RefundReceiver
		if to == (common.Address{}) {
			to = e.From // tx.origin: the execution is a call of the Safe's, so its sender
		}
		out = append(out, Payout{To: to, Value: e.Payment})
	}
	return out, true
}

// SafeReceived is ETH a Safe received, as its SafeReceived log says: every plain transfer of ETH
// to a Safe, a transaction's or a contract's call, logs one.
type SafeReceived struct {
	From        common.Address
	Value       *big.Int
	TxHash      common.Hash
	LogIndex    uint
	BlockNumber uint64
	BlockHash   common.Hash
}

// decodeExec reads the Safe transaction and the number of signatures of input, a call of a
// Safe's execTransaction; ok is false for any other input.
func decodeExec(input []byte) (tx SafeTx, signatures int, ok bool) {
	var call struct {
		To                           common.Address
		Value                        *big.Int
		Data                         []byte
		Operation                    uint8
		SafeTxGas, BaseGas, GasPrice *big.Int
		GasToken, RefundReceiver     common.Address
		Signatures                   []byte
	}
	if !decodeCall(safeABI.GetABI().Methods["execTransaction"], input, &call) {
		return tx, 0, false
	}
	return SafeTx{To: call.To, Value: call.Value, Data: call.Data, Operation: call.Operation, SafeTxGas: call.SafeTxGas,
		BaseGas: call.BaseGas, GasPrice: call.GasPrice, GasToken: call.GasToken, RefundReceiver: call.RefundReceiver}, len(call.Signatures) / 65, true
}

// Payouts are the transfers tx makes, when it is a batch as Batch builds them (a multiSend of
// calls, or one call): ETH with no data, or a token's transfer(to, amount). ok is false for any
// other Safe transaction.
func (tx SafeTx) Payouts() (_ []Payout, ok bool) {
	calls, ok := tx.calls()
	if !ok {
		return nil, false
	}
	out := make([]Payout, len(calls))
	for i, c := range calls {
		if out[i], ok = payoutOf(c.to, c.value, c.data); !ok {
			return nil, false
		}
	}
	return out, len(out) > 0
}

// ETHOut is the ETH tx sends out of the Safe when it succeeds: the value of each of its calls
// (one call, or each call of a multiSend). ok is false when what it sends cannot be read from it
// (a delegatecall to another contract than a multiSend).
func (tx SafeTx) ETHOut() (_ []Payout, ok bool) {
	calls, ok := tx.calls()
	if !ok {
		return nil, false
	}
	var out []Payout
	for _, c := range calls {
		if c.value.Sign() > 0 {
			out = append(out, Payout{To: c.to, Value: c.value})
		}
	}
	return out, true
}

// safeCall is one call a Safe transaction makes.
type safeCall struct {
	to    common.Address
	value *big.Int
	data  []byte
}

// calls are the calls tx makes: itself (operation 0), or those of the multiSend it delegatecalls,
// each a call (operation 0). ok is false for anything else.
func (tx SafeTx) calls() (_ []safeCall, ok bool) {
	if tx.Operation == 0 {
		return []safeCall{{tx.To, orZero(tx.Value), tx.Data}}, true
	}
	var call struct{ Transactions []byte }
	if !decodeCall(multiSendABI.GetABI().Methods["multiSend"], tx.Data, &call) {
		return nil, false
	}
	packed := call.Transactions
	var out []safeCall
	for len(packed) > 0 { // operation (1), to (20), value (32), data length (32), data
		if len(packed) < 85 || packed[0] != 0 {
			return nil, false
		}
		n := new(big.Int).SetBytes(packed[53:85])
		if !n.IsInt64() || int64(len(packed)-85) < n.Int64() {
			return nil, false
		}
		end := 85 + int(n.Int64())
		out = append(out, safeCall{common.BytesToAddress(packed[1:21]), new(big.Int).SetBytes(packed[21:53]), packed[85:end]})
		packed = packed[end:]
	}
	return out, true
}

// payoutOf is the transfer a call of to with value and data makes: ETH with no data, or a
// token's transfer(to, amount) with no value.
func payoutOf(to common.Address, value *big.Int, data []byte) (Payout, bool) {
	if len(data) == 0 {
		return Payout{To: to, Value: value}, value.Sign() > 0
	}
	recipient, amount, ok := DecodeTokenTransfer(data)
	return Payout{To: recipient, Value: amount, Token: to}, ok && value.Sign() == 0
}

// SafeTxNonce finds the nonce of e's Safe transaction (e.Call): the one, among the nonces the
// Safe at safe took in e's block, for which the transaction hashes to e.SafeTxHash.
func (c *Client) SafeTxNonce(ctx context.Context, safe common.Address, chainID *big.Int, e SafeExecution) (*big.Int, error) {
	after, err := c.SafeNonceAt(ctx, safe, e.BlockHash)
	if err != nil {
		return nil, err
	}
	tx := *e.Call
	for n := new(big.Int).Sub(after, big.NewInt(1)); n.Sign() >= 0 && new(big.Int).Sub(after, n).Int64() <= maxExecsPerBlock; n.Sub(n, big.NewInt(1)) {
		if tx.Nonce = n; tx.Hash(chainID, safe) == e.SafeTxHash {
			return new(big.Int).Set(n), nil
		}
	}
	return nil, fmt.Errorf("safe transaction %s: no nonce the Safe took in block %d gives its hash", e.SafeTxHash, e.BlockNumber)
}

// maxExecsPerBlock bounds the nonces SafeTxNonce tries: a Safe's executions in one block.
const maxExecsPerBlock = 64

// The topics of a Safe's execution logs, and of its receipts of ETH.
var (
	executionSuccess = safeABI.GetABI().Events["ExecutionSuccess"].ID
	executionFailure = safeABI.GetABI().Events["ExecutionFailure"].ID
	safeReceived     = safeABI.GetABI().Events["SafeReceived"].ID
	safeTopics       = []common.Hash{executionSuccess, executionFailure, safeReceived}
)

// SafeExecutions returns the Safe transactions safe executed from block from to block to
// inclusive, in chain order (SafeLogs).
func (c *Client) SafeExecutions(ctx context.Context, safe common.Address, from, to uint64) ([]SafeExecution, error) {
	execs, _, err := c.SafeLogs(ctx, safe, from, to)
	return execs, err
}

// SafeLogs returns the Safe transactions safe executed from block from to block to inclusive,
// and the ETH it received there, each in chain order: one eth_getLogs for the three events (per
// range a provider allows). A transaction that reverts (too few signatures; a transfer that fails
// under safeTxGas 0) logs nothing and takes no nonce: it is not among them.
func (c *Client) SafeLogs(ctx context.Context, safe common.Address, from, to uint64) ([]SafeExecution, []SafeReceived, error) {
	logs, err := c.logs(ctx, []common.Address{safe}, from, to, safeTopics)
	if err != nil {
		return nil, nil, err
	}
	return c.safeEvents(ctx, safe, logs)
}

// safeEvents reads the executions and receipts of SafeLogs from logs, the Safe's.
func (c *Client) safeEvents(ctx context.Context, safe common.Address, logs []types.Log) ([]SafeExecution, []SafeReceived, error) {
	var out []SafeExecution
	var received []SafeReceived
	for _, l := range logs {
		if l.Removed || len(l.Topics) != 2 || len(l.Data) != 32 {
			continue
		}
		value := new(big.Int).SetBytes(l.Data)
		if l.Topics[0] == safeReceived {
			received = append(received, SafeReceived{From: common.BytesToAddress(l.Topics[1][:]), Value: value, TxHash: l.TxHash,
				LogIndex: l.Index, BlockNumber: l.BlockNumber, BlockHash: l.BlockHash})
			continue
		}
		out = append(out, SafeExecution{SafeTxHash: l.Topics[1], Success: l.Topics[0] == executionSuccess, TxHash: l.TxHash,
			BlockNumber: l.BlockNumber, BlockHash: l.BlockHash, Payment: value})
	}
	if len(out) == 0 {
		return nil, received, nil
	}
	// Who sent each, and what tokens a successful one moved out of the Safe: executions are rare,
	// and one batch reads them all.
	txs := make([]struct {
		From  common.Address  `json:"from"`
		To    *common.Address `json:"to"`
		Input hexutil.Bytes   `json:"input"`
	}, len(out))
	receipts := make([]*types.Receipt, len(out))
	var elems []rpc.BatchElem
	for i, e := range out {
		elems = append(elems, rpc.BatchElem{Method: "eth_getTransactionByHash", Args: []any{e.TxHash}, Result: &txs[i]})
		if e.Success {
			elems = append(elems, rpc.BatchElem{Method: "eth_getTransactionReceipt", Args: []any{e.TxHash}, Result: &receipts[i]})
		}
	}
	if err := c.batch(ctx, "safe executions' senders", elems); err != nil {
		return nil, nil, err
	}
	for i := range out {
		out[i].From = txs[i].From
		if txs[i].To != nil && *txs[i].To == safe {
			if call, sigs, ok := decodeExec(txs[i].Input); ok {
				out[i].Call, out[i].Signatures = &call, sigs
			}
		}
		if receipts[i] == nil {
			continue
		}
		for _, l := range receipts[i].Logs {
			if t, ok := tokenTransfer(*l); ok && t.From == safe {
				out[i].TokensOut = append(out[i].TokensOut, t)
			}
		}
	}
	return out, received, nil
}

// SafeNonceAt is the nonce of the Safe at safe as of the block with hash block (a block the
// caller has read, never another at its height): the nonce its next transaction takes.
func (c *Client) SafeNonceAt(ctx context.Context, safe common.Address, block common.Hash) (*big.Int, error) {
	var out []byte
	err := c.call(ctx, "safe nonce", func(ctx context.Context, e *endpoint) (err error) {
		out, err = e.eth.CallContractAtHash(ctx, ethereum.CallMsg{To: &safe, Data: safeABI.PackNonce()}, block)
		return err
	})
	if err != nil {
		return nil, err
	}
	n, err := safeABI.UnpackNonce(out)
	if err != nil {
		return nil, fmt.Errorf("%w: nonce: %v", ErrNotASafe, err)
	}
	return n, nil
}

// SafeAttempt is a transaction sent to a Safe's execTransaction and what the chain made of it so
// far. One that reverts (too few signatures, a transfer the Safe could not make) logs nothing
// and takes no nonce: only the transaction itself tells that it was tried, and why it failed.
type SafeAttempt struct {
	TxHash common.Hash
	From   common.Address
	// Call is the Safe transaction it executes, its nonce unset: the Safe takes its nonce then.
	Call        SafeTx
	Mined       bool
	Success     bool
	BlockNumber uint64
	// Reverted: why, as the Safe says it (its error code, such as "GS020"), "out of gas", or ""
	// when running the call again in the block before tells nothing.
	Error string
}

// ErrNotAnExecution is a transaction that does not call the Safe's execTransaction.
var ErrNotAnExecution = errors.New("the transaction does not call the Safe's execTransaction")

// SafeAttempt reads transaction hash, sent to the Safe at safe, with its receipt in one round
// trip; a reverted one is run again as a call in the block before, to read why. ErrUnknownTx when
// the node knows nothing of it, ErrNotAnExecution when it calls anything but safe's
// execTransaction directly.
func (c *Client) SafeAttempt(ctx context.Context, safe common.Address, hash common.Hash) (SafeAttempt, error) {
	var tx *struct {
		From  common.Address  `json:"from"`
		To    *common.Address `json:"to"`
		Input hexutil.Bytes   `json:"input"`
		Gas   hexutil.Uint64  `json:"gas"`
		Value *hexutil.Big    `json:"value"`
	}
	var r *struct {
		Status      hexutil.Uint64 `json:"status"`
		BlockNumber hexutil.Uint64 `json:"blockNumber"`
	}
	err := c.batch(ctx, "safe execution", []rpc.BatchElem{
		{Method: "eth_getTransactionByHash", Args: []any{hash}, Result: &tx},
		{Method: "eth_getTransactionReceipt", Args: []any{hash}, Result: &r},
	})
	if err != nil && !stillIndexing(err) {
		return SafeAttempt{}, err
	}
	if tx == nil {
		return SafeAttempt{}, ErrUnknownTx
	}
	call, ok := execCall(tx.Input)
	if tx.To == nil || *tx.To != safe || !ok {
		return SafeAttempt{}, ErrNotAnExecution
	}
	a := SafeAttempt{TxHash: hash, From: tx.From, Call: call}
	if r == nil {
		return a, nil
	}
	a.Mined, a.Success, a.BlockNumber = true, uint64(r.Status) == types.ReceiptStatusSuccessful, uint64(r.BlockNumber)
	if a.Success || a.BlockNumber == 0 {
		return a, nil
	}
	msg := ethereum.CallMsg{From: tx.From, To: tx.To, Gas: uint64(tx.Gas), Value: tx.Value.ToInt(), Data: tx.Input}
	err = c.call(ctx, "safe execution replay", func(ctx context.Context, e *endpoint) error {
		_, err := e.eth.CallContract(ctx, msg, new(big.Int).SetUint64(a.BlockNumber-1))
		return err
	})
	a.Error = revertReason(err)
	return a, nil
}

// execCall reads the Safe transaction of execTransaction calldata.
func execCall(input []byte) (SafeTx, bool) {
	m := safeABI.GetABI().Methods["execTransaction"]
	if len(input) < 4 || !bytes.Equal(input[:4], m.ID) {
		return SafeTx{}, false
	}
	args, err := m.Inputs.Unpack(input[4:])
	if err != nil || len(args) != 10 {
		return SafeTx{}, false
	}
	var tx SafeTx
	var ok [9]bool
	tx.To, ok[0] = args[0].(common.Address)
	tx.Value, ok[1] = args[1].(*big.Int)
	tx.Data, ok[2] = args[2].([]byte)
	tx.Operation, ok[3] = args[3].(uint8)
	tx.SafeTxGas, ok[4] = args[4].(*big.Int)
	tx.BaseGas, ok[5] = args[5].(*big.Int)
	tx.GasPrice, ok[6] = args[6].(*big.Int)
	tx.GasToken, ok[7] = args[7].(common.Address)
	tx.RefundReceiver, ok[8] = args[8].(common.Address)
	return tx, !slices.Contains(ok[:], false)
}

// SameCall tells whether tx and o are one Safe transaction but for their nonces.
func (tx SafeTx) SameCall(o SafeTx) bool {
	eq := func(a, b *big.Int) bool { return orZero(a).Cmp(orZero(b)) == 0 }
	return tx.To == o.To && eq(tx.Value, o.Value) && bytes.Equal(tx.Data, o.Data) && tx.Operation == o.Operation &&
		eq(tx.SafeTxGas, o.SafeTxGas) && eq(tx.BaseGas, o.BaseGas) && eq(tx.GasPrice, o.GasPrice) &&
		tx.GasToken == o.GasToken && tx.RefundReceiver == o.RefundReceiver
}

// revertReason is what a call's error says of why it reverted: the reason string of its revert
// data (the Safe's "GS0xx" codes), "out of gas", or "" for anything else, a call that did not
// revert (nil) among them.
func revertReason(err error) string {
	if err == nil {
		return ""
	}
	var re *RevertError // what the client makes of a revert's data
	if errors.As(err, &re) {
		if reason, uerr := abi.UnpackRevert(re.Data); uerr == nil {
			return reason
		}
	}
	if strings.Contains(err.Error(), "out of gas") {
		return "out of gas"
	}
	return ""
}
