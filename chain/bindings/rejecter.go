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

// RejecterMetaData contains all meta data concerning the Rejecter contract.
var RejecterMetaData = bind.MetaData{
	ABI: "[{\"stateMutability\":\"payable\",\"type\":\"receive\"}]",
	ID:  "Rejecter",
	Bin: "0x6080604052348015600e575f5ffd5b5060a880601a5f395ff3fe608060405236606e576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152600260248201527f6e6f000000000000000000000000000000000000000000000000000000000000604482015260640160405180910390fd5b5f5ffdfea264697066735822122083b4e054e4310583454f08f7cda32ae3ee5ae541fd2054e2f6568b358a4c691364736f6c63430008250033",
}

// Rejecter is an auto generated Go binding around an Ethereum contract.
type Rejecter struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *Rejecter) GetABI() abi.ABI {
	return c.abi
}

// NewRejecter creates a new instance of Rejecter.
func NewRejecter() *Rejecter {
	parsed, err := RejecterMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &Rejecter{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *Rejecter) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}
