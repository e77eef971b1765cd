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

// ForwarderMetaData contains all meta data concerning the Forwarder contract.
var ForwarderMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[],\"name\":\"Failed\",\"type\":\"error\"},{\"inputs\":[{\"internalType\":\"addresspayable\",\"name\":\"to\",\"type\":\"address\"}],\"name\":\"pay\",\"outputs\":[],\"stateMutability\":\"payable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"addresspayable\",\"name\":\"to\",\"type\":\"address\"}],\"name\":\"payInFailedCall\",\"outputs\":[],\"stateMutability\":\"payable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"addresspayable\",\"name\":\"to\",\"type\":\"address\"}],\"name\":\"payThenRevert\",\"outputs\":[],\"stateMutability\":\"payable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"addresspayable\",\"name\":\"to\",\"type\":\"address\"}],\"name\":\"payTwice\",\"outputs\":[],\"stateMutability\":\"payable\",\"type\":\"function\"},{\"stateMutability\":\"payable\",\"type\":\"receive\"}]",
	ID:  "Forwarder",
	Bin: "0x6080604052348015600e575f5ffd5b506104408061001c5f395ff3fe608060405260043610610041575f3560e01c80630c11dedd1461004c5780635200b4e1146100615780637d413ad714610074578063e0044bcd14610087575f5ffd5b3661004857005b5f5ffd5b61005f61005a36600461035a565b61009a565b005b61005f61006f36600461035a565b610134565b61005f61008236600461035a565b610251565b61005f61009536600461035a565b6102c9565b5f8173ffffffffffffffffffffffffffffffffffffffff16346040515f6040518083038185875af1925050503d805f81146100f0576040519150601f19603f3d011682016040523d82523d5f602084013e6100f5565b606091505b5050905080610130576040517f625a40e600000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5050565b5f73ffffffffffffffffffffffffffffffffffffffff8216610157600234610394565b6040515f81818185875af1925050503d805f8114610190576040519150601f19603f3d011682016040523d82523d5f602084013e610195565b606091505b505090505f8273ffffffffffffffffffffffffffffffffffffffff166002346101be9190610394565b6101c890346103cc565b6040515f81818185875af1925050503d805f8114610201576040519150601f19603f3d011682016040523d82523d5f602084013e610206565b606091505b50509050811580610215575080155b1561024c576040517f625a40e600000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b505050565b6040517fe0044bcd00000000000000000000000000000000000000000000000000000000815273ffffffffffffffffffffffffffffffffffffffff82166004820152309063e0044bcd9034906024015f604051808303818588803b1580156102b7575f5ffd5b505af193505050508015610130575050565b5f8173ffffffffffffffffffffffffffffffffffffffff16346040515f6040518083038185875af1925050503d805f811461031f576040519150601f19603f3d011682016040523d82523d5f602084013e610324565b606091505b505090506040517f625a40e600000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f6020828403121561036a575f5ffd5b813573ffffffffffffffffffffffffffffffffffffffff8116811461038d575f5ffd5b9392505050565b5f826103c7577f4e487b71000000000000000000000000000000000000000000000000000000005f52601260045260245ffd5b500490565b81810381811115610404577f4e487b71000000000000000000000000000000000000000000000000000000005f52601160045260245ffd5b9291505056fea26469706673582212205f6a02aacc73f8116cae899d8aadf1b6cc4b5a4aad8a4237a3516532e4f0804664736f6c63430008250033",
}

// Forwarder is an auto generated Go binding around an Ethereum contract.
type Forwarder struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *Forwarder) GetABI() abi.ABI {
	return c.abi
}

// NewForwarder creates a new instance of Forwarder.
func NewForwarder() *Forwarder {
	parsed, err := ForwarderMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &Forwarder{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *Forwarder) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackPay is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0c11dedd.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function pay(address to) payable returns()
func (forwarder *Forwarder) PackPay(to common.Address) []byte {
	enc, err := forwarder.abi.Pack("pay", to)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPay is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x0c11dedd.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function pay(address to) payable returns()
func (forwarder *Forwarder) TryPackPay(to common.Address) ([]byte, error) {
	return forwarder.abi.Pack("pay", to)
}

// PackPayInFailedCall is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7d413ad7.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function payInFailedCall(address to) payable returns()
func (forwarder *Forwarder) PackPayInFailedCall(to common.Address) []byte {
	enc, err := forwarder.abi.Pack("payInFailedCall", to)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPayInFailedCall is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7d413ad7.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function payInFailedCall(address to) payable returns()
func (forwarder *Forwarder) TryPackPayInFailedCall(to common.Address) ([]byte, error) {
	return forwarder.abi.Pack("payInFailedCall", to)
}

// PackPayThenRevert is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe0044bcd.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function payThenRevert(address to) payable returns()
func (forwarder *Forwarder) PackPayThenRevert(to common.Address) []byte {
	enc, err := forwarder.abi.Pack("payThenRevert", to)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPayThenRevert is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe0044bcd.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function payThenRevert(address to) payable returns()
func (forwarder *Forwarder) TryPackPayThenRevert(to common.Address) ([]byte, error) {
	return forwarder.abi.Pack("payThenRevert", to)
}

// PackPayTwice is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5200b4e1.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function payTwice(address to) payable returns()
func (forwarder *Forwarder) PackPayTwice(to common.Address) []byte {
	enc, err := forwarder.abi.Pack("payTwice", to)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPayTwice is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5200b4e1.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function payTwice(address to) payable returns()
func (forwarder *Forwarder) TryPackPayTwice(to common.Address) ([]byte, error) {
	return forwarder.abi.Pack("payTwice", to)
}

// UnpackError attempts to decode the provided error data using user-defined
// error definitions.
func (forwarder *Forwarder) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], forwarder.abi.Errors["Failed"].ID.Bytes()[:4]) {
		return forwarder.UnpackFailedError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// ForwarderFailed represents a Failed error raised by the Forwarder contract.
type ForwarderFailed struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error Failed()
func ForwarderFailedErrorID() common.Hash {
	return common.HexToHash("0x625a40e68d9554793bf647bf32e4885e7f15bd1bfac262906cc7d26f376f20a2")
}

// UnpackFailedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error Failed()
func (forwarder *Forwarder) UnpackFailedError(raw []byte) (*ForwarderFailed, error) {
	out := new(ForwarderFailed)
	if err := forwarder.abi.UnpackIntoInterface(out, "Failed", raw); err != nil {
		return nil, err
	}
	return out, nil
}
