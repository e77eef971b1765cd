// Code generated via abigen V2 - DO NOT EDIT.
// This file is a generated binding and any manual changes will be lost.

package bindings

import (
	"bytes"
	"errors"
	"math/big"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// Reference imports to suppress errors if they are not otherwise used.
var (
	_ = bytes.Equal
	_ = errors.New
	_ = big.NewInt
	_ = common.Big1
	_ = types.BloomLookup
	_ = abi.ConvertType
)

// TokenBatchMetaData contains all meta data concerning the TokenBatch contract.
var TokenBatchMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[],\"name\":\"Failed\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"contractIERC20\",\"name\":\"token\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256[]\",\"name\":\"amounts\",\"type\":\"uint256[]\"}],\"name\":\"pay\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "TokenBatch",
	Bin: "0x6080604052348015600e575f5ffd5b506102a18061001c5f395ff3fe608060405234801561000f575f5ffd5b5060043610610029575f3560e01c80636a7811861461002d575b5f5ffd5b61004061003b366004610187565b610042565b005b5f5b8181101561015c578473ffffffffffffffffffffffffffffffffffffffff166323b872dd338686868681811061007c5761007c610218565b6040517fffffffff0000000000000000000000000000000000000000000000000000000060e088901b16815273ffffffffffffffffffffffffffffffffffffffff9586166004820152949093166024850152506020909102013560448201526064016020604051808303815f875af11580156100fa573d5f5f3e3d5ffd5b505050506040513d601f19601f8201168201806040525081019061011e9190610245565b610154576040517f625a40e600000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b600101610044565b5050505050565b73ffffffffffffffffffffffffffffffffffffffff81168114610184575f5ffd5b50565b5f5f5f5f6060858703121561019a575f5ffd5b84356101a581610163565b935060208501356101b581610163565b9250604085013567ffffffffffffffff8111156101d0575f5ffd5b8501601f810187136101e0575f5ffd5b803567ffffffffffffffff8111156101f6575f5ffd5b8760208260051b840101111561020a575f5ffd5b949793965060200194505050565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52603260045260245ffd5b5f60208284031215610255575f5ffd5b81518015158114610264575f5ffd5b939250505056fea26469706673582212204516af417cf55130f8be77274478d800e8399d940082510b1dbe3354635a6a8064736f6c63430008250033",
}

// TokenBatch is an auto generated Go binding around an Ethereum contract.
type TokenBatch struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *TokenBatch) GetABI() abi.ABI {
	return c.abi
}

// NewTokenBatch creates a new instance of TokenBatch.
func NewTokenBatch() *TokenBatch {
	parsed, err := TokenBatchMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &TokenBatch{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *TokenBatch) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackPay is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6a781186.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function pay(address token, address to, uint256[] amounts) returns()
func (tokenBatch *TokenBatch) PackPay(token common.Address, to common.Address, amounts []*big.Int) []byte {
	enc, err := tokenBatch.abi.Pack("pay", token, to, amounts)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPay is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6a781186.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function pay(address token, address to, uint256[] amounts) returns()
func (tokenBatch *TokenBatch) TryPackPay(token common.Address, to common.Address, amounts []*big.Int) ([]byte, error) {
	return tokenBatch.abi.Pack("pay", token, to, amounts)
}

// UnpackError attempts to decode the provided error data using user-defined
// error definitions.
func (tokenBatch *TokenBatch) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], tokenBatch.abi.Errors["Failed"].ID.Bytes()[:4]) {
		return tokenBatch.UnpackFailedError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// TokenBatchFailed represents a Failed error raised by the TokenBatch contract.
type TokenBatchFailed struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error Failed()
func TokenBatchFailedErrorID() common.Hash {
	return common.HexToHash("0x625a40e68d9554793bf647bf32e4885e7f15bd1bfac262906cc7d26f376f20a2")
}

// UnpackFailedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error Failed()
func (tokenBatch *TokenBatch) UnpackFailedError(raw []byte) (*TokenBatchFailed, error) {
	out := new(TokenBatchFailed)
	if err := tokenBatch.abi.UnpackIntoInterface(out, "Failed", raw); err != nil {
		return nil, err
	}
	return out, nil
}
