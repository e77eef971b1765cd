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

// MultiSendCallOnlyMetaData contains all meta data concerning the MultiSendCallOnly contract.
var MultiSendCallOnlyMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"bytes\",\"name\":\"transactions\",\"type\":\"bytes\"}],\"name\":\"multiSend\",\"outputs\":[],\"stateMutability\":\"payable\",\"type\":\"function\"}]",
	ID:  "MultiSendCallOnly",
	Bin: "0x608060405234801561001057600080fd5b5061019a806100206000396000f3fe60806040526004361061001e5760003560e01c80638d80ff0a14610023575b600080fd5b6100dc6004803603602081101561003957600080fd5b810190808035906020019064010000000081111561005657600080fd5b82018360208201111561006857600080fd5b8035906020019184600183028401116401000000008311171561008a57600080fd5b91908080601f016020809104026020016040519081016040528093929190818152602001838380828437600081840152601f19601f8201169050808301925050505050505091929192905050506100de565b005b805160205b8181101561015f578083015160f81c6001820184015160601c60158301850151603584018601516055850187016000856000811461012857600181146101385761013d565b6000808585888a5af1915061013d565b600080fd5b50600081141561014c57600080fd5b82605501870196505050505050506100e3565b50505056fea26469706673582212208d297bb003abee230b5dfb38774688f37a6fbb97a82a21728e8049b2acb9b73564736f6c63430007060033",
}

// MultiSendCallOnly is an auto generated Go binding around an Ethereum contract.
type MultiSendCallOnly struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *MultiSendCallOnly) GetABI() abi.ABI {
	return c.abi
}

// NewMultiSendCallOnly creates a new instance of MultiSendCallOnly.
func NewMultiSendCallOnly() *MultiSendCallOnly {
	parsed, err := MultiSendCallOnlyMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &MultiSendCallOnly{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *MultiSendCallOnly) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackMultiSend is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8d80ff0a.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function multiSend(bytes transactions) payable returns()
func (multiSendCallOnly *MultiSendCallOnly) PackMultiSend(transactions []byte) []byte {
	enc, err := multiSendCallOnly.abi.Pack("multiSend", transactions)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMultiSend is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8d80ff0a.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function multiSend(bytes transactions) payable returns()
func (multiSendCallOnly *MultiSendCallOnly) TryPackMultiSend(transactions []byte) ([]byte, error) {
	return multiSendCallOnly.abi.Pack("multiSend", transactions)
}
