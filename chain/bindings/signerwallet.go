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

// SignerWalletMetaData contains all meta data concerning the SignerWallet contract.
var SignerWalletMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"address\",\"name\":\"owner_\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"hash\",\"type\":\"bytes32\"},{\"internalType\":\"bytes\",\"name\":\"signature\",\"type\":\"bytes\"}],\"name\":\"isValidSignature\",\"outputs\":[{\"internalType\":\"bytes4\",\"name\":\"\",\"type\":\"bytes4\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"owner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"}]",
	ID:  "SignerWallet",
	Bin: "0x60a0604052348015600e575f5ffd5b50604051610468380380610468833981016040819052602b91603b565b6001600160a01b03166080526066565b5f60208284031215604a575f5ffd5b81516001600160a01b0381168114605f575f5ffd5b9392505050565b6080516103e46100845f395f8181608601526101a701526103e45ff3fe608060405234801561000f575f5ffd5b5060043610610034575f3560e01c80631626ba7e146100385780638da5cb5b14610081575b5f5ffd5b61004b610046366004610268565b6100cd565b6040517fffffffff0000000000000000000000000000000000000000000000000000000090911681526020015b60405180910390f35b6100a87f000000000000000000000000000000000000000000000000000000000000000081565b60405173ffffffffffffffffffffffffffffffffffffffff9091168152602001610078565b5f604182146100fd57507fffffffff00000000000000000000000000000000000000000000000000000000610261565b5f61010b60208285876102df565b61011491610306565b90505f6101256040602086886102df565b61012e91610306565b90505f8585604081811061014457610144610343565b919091013560f81c915050601b81101561016657610163601b82610370565b90505b604080515f81526020810180835289905260ff831691810191909152606081018490526080810183905273ffffffffffffffffffffffffffffffffffffffff7f0000000000000000000000000000000000000000000000000000000000000000169060019060a0016020604051602081039080840390855afa1580156101ee573d5f5f3e3d5ffd5b5050506020604051035173ffffffffffffffffffffffffffffffffffffffff1614610239577fffffffff0000000000000000000000000000000000000000000000000000000061025b565b7f1626ba7e000000000000000000000000000000000000000000000000000000005b93505050505b9392505050565b5f5f5f6040848603121561027a575f5ffd5b83359250602084013567ffffffffffffffff811115610297575f5ffd5b8401601f810186136102a7575f5ffd5b803567ffffffffffffffff8111156102bd575f5ffd5b8660208284010111156102ce575f5ffd5b939660209190910195509293505050565b5f5f858511156102ed575f5ffd5b838611156102f9575f5ffd5b5050820193919092039150565b8035602083101561033d577fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff602084900360031b1b165b92915050565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52603260045260245ffd5b60ff818116838216019081111561033d577f4e487b71000000000000000000000000000000000000000000000000000000005f52601160045260245ffdfea2646970667358221220f46e468763ba9505afdbb95139ebb66f8075df55a8d35aebcf7fc27cc480b9f764736f6c63430008250033",
}

// SignerWallet is an auto generated Go binding around an Ethereum contract.
type SignerWallet struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *SignerWallet) GetABI() abi.ABI {
	return c.abi
}

// NewSignerWallet creates a new instance of SignerWallet.
func NewSignerWallet() *SignerWallet {
	parsed, err := SignerWalletMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &SignerWallet{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *SignerWallet) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(address owner_) returns()
func (signerWallet *SignerWallet) PackConstructor(owner_ common.Address) []byte {
	enc, err := signerWallet.abi.Pack("", owner_)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackIsValidSignature is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1626ba7e.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function isValidSignature(bytes32 hash, bytes signature) view returns(bytes4)
func (signerWallet *SignerWallet) PackIsValidSignature(hash [32]byte, signature []byte) []byte {
	enc, err := signerWallet.abi.Pack("isValidSignature", hash, signature)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackIsValidSignature is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1626ba7e.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function isValidSignature(bytes32 hash, bytes signature) view returns(bytes4)
func (signerWallet *SignerWallet) TryPackIsValidSignature(hash [32]byte, signature []byte) ([]byte, error) {
	return signerWallet.abi.Pack("isValidSignature", hash, signature)
}

// UnpackIsValidSignature is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x1626ba7e.
//
// Solidity: function isValidSignature(bytes32 hash, bytes signature) view returns(bytes4)
func (signerWallet *SignerWallet) UnpackIsValidSignature(data []byte) ([4]byte, error) {
	out, err := signerWallet.abi.Unpack("isValidSignature", data)
	if err != nil {
		return *new([4]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([4]byte)).(*[4]byte)
	return out0, nil
}

// PackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function owner() view returns(address)
func (signerWallet *SignerWallet) PackOwner() []byte {
	enc, err := signerWallet.abi.Pack("owner")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function owner() view returns(address)
func (signerWallet *SignerWallet) TryPackOwner() ([]byte, error) {
	return signerWallet.abi.Pack("owner")
}

// UnpackOwner is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (signerWallet *SignerWallet) UnpackOwner(data []byte) (common.Address, error) {
	out, err := signerWallet.abi.Unpack("owner", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}
