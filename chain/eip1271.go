package chain

import (
	"bytes"
	"context"
	"errors"
	"strings"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
)

// eip1271 is the interface contract wallets verify signatures with.
var eip1271 = func() abi.ABI {
	a, err := abi.JSON(strings.NewReader(`[{"type":"function","name":"isValidSignature","stateMutability":"view",
		"inputs":[{"name":"hash","type":"bytes32"},{"name":"signature","type":"bytes"}],
		"outputs":[{"name":"","type":"bytes4"}]}]`))
	if err != nil {
		panic(err) // a constant: cannot fail
	}
	return a
}()

// eip1271Magic is what isValidSignature answers for a valid signature.
var eip1271Magic = []byte{0x16, 0x26, 0xba, 0x7e}

// HasCode reports whether addr is a contract (a contract wallet, for sign-in).
func (c *Client) HasCode(ctx context.Context, addr common.Address) (bool, error) {
	var code []byte
	err := c.call(ctx, "code", func(ctx context.Context, e *endpoint) (err error) {
		code, err = e.eth.CodeAt(ctx, addr, nil)
		return err
	})
	return len(code) > 0, err
}

// ValidSignature asks the contract wallet whether sig is its signature of hash (EIP-1271). A call
// that fails, or answers anything but the magic value, is a no; only an unreachable chain is an
// error.
func (c *Client) ValidSignature(ctx context.Context, wallet common.Address, hash common.Hash, sig []byte) (bool, error) {
	data, err := eip1271.Pack("isValidSignature", hash, sig)
	if err != nil {
		return false, err
	}
	var out []byte
	err = c.call(ctx, "isValidSignature", func(ctx context.Context, e *endpoint) (err error) {
		out, err = e.eth.CallContract(ctx, ethereum.CallMsg{To: &wallet, Data: data}, nil)
		return err
	})
	if errors.Is(err, ErrUnavailable) {
		return false, err
	}
	if err != nil {
		return false, nil // reverted, or no such function: not a signature of this wallet
	}
	return len(out) >= 4 && bytes.Equal(out[:4], eip1271Magic), nil
}
