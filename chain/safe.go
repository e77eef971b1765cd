package chain

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
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

// Safe reads the Safe at addr: ErrNotASafe when it has no code, or does not answer as a Safe
// of SafeVersion.
func (c *Client) Safe(ctx context.Context, addr common.Address) (Safe, error) {
	var code, version, owners, threshold, nonce []byte
	var balance *big.Int
	err := c.call(ctx, "safe", func(ctx context.Context, e *endpoint) (err error) {
		if code, err = e.eth.CodeAt(ctx, addr, nil); err != nil || len(code) == 0 {
			return err
		}
		if balance, err = e.eth.BalanceAt(ctx, addr, nil); err != nil {
			return err
		}
		read := func(data []byte) ([]byte, error) {
			return e.eth.CallContract(ctx, ethereum.CallMsg{To: &addr, Data: data}, nil)
		}
		if version, err = read(safeABI.PackVERSION()); err != nil {
			if reverted(err) {
				return nil // a contract that is not a Safe reverts: told below
			}
			return err
		}
		if owners, err = read(safeABI.PackGetOwners()); err != nil {
			return err
		}
		if threshold, err = read(safeABI.PackGetThreshold()); err != nil {
			return err
		}
		nonce, err = read(safeABI.PackNonce())
		return err
	})
	if err != nil {
		return Safe{}, err
	}
	if len(code) == 0 || len(version) == 0 {
		return Safe{}, ErrNotASafe
	}
	if v, err := safeABI.UnpackVERSION(version); err != nil || v != SafeVersion {
		return Safe{}, fmt.Errorf("%w (it says version %q)", ErrNotASafe, v)
	}
	s := Safe{Address: addr, Balance: balance}
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

// The EIP-712 type hashes of Safe 1.4.1 (SafeMessage aside): its domain carries the chain id and
// the Safe's address, and no name or version.
var (
	safeDomainTypeHash = crypto.Keccak256Hash([]byte("EIP712Domain(uint256 chainId,address verifyingContract)"))
	safeTxTypeHash     = crypto.Keccak256Hash([]byte("SafeTx(address to,uint256 value,bytes data,uint8 operation,uint256 safeTxGas," +
		"uint256 baseGas,uint256 gasPrice,address gasToken,address refundReceiver,uint256 nonce)"))
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
