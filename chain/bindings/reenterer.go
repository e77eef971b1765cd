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

// ReentererMetaData contains all meta data concerning the Reenterer contract.
var ReentererMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"contractIWithdraw\",\"name\":\"factory_\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[],\"name\":\"factory\",\"outputs\":[{\"internalType\":\"contractIWithdraw\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"reentries\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"reentryFailed\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"id\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"withdraw\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"stateMutability\":\"payable\",\"type\":\"receive\"}]",
	ID:  "Reenterer",
	Bin: "0x60a0604052348015600e575f5ffd5b506040516103f13803806103f1833981016040819052602b91603b565b6001600160a01b03166080526066565b5f60208284031215604a575f5ffd5b81516001600160a01b0381168114605f575f5ffd5b9392505050565b60805161036661008b5f395f818160a001528181610193015261024401526103665ff3fe608060405260043610610041575f3560e01c8063441a3e701461013c5780636578986d1461015b578063c45a015514610182578063c7021981146101da575f5ffd5b36610138575f545f03610136575f8054908061005c836102b4565b90915550506002546040517fe63697c800000000000000000000000000000000000000000000000000000000815260048101919091523060248201523460448201527f000000000000000000000000000000000000000000000000000000000000000073ffffffffffffffffffffffffffffffffffffffff169063e63697c8906064015f604051808303815f87803b1580156100f6575f5ffd5b505af1925050508015610107575060015b61013657600180547fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff0016811790555b005b5f5ffd5b348015610147575f5ffd5b50610136610156366004610310565b610203565b348015610166575f5ffd5b5061016f5f5481565b6040519081526020015b60405180910390f35b34801561018d575f5ffd5b506101b57f000000000000000000000000000000000000000000000000000000000000000081565b60405173ffffffffffffffffffffffffffffffffffffffff9091168152602001610179565b3480156101e5575f5ffd5b506001546101f39060ff1681565b6040519015158152602001610179565b60028290556040517fe63697c800000000000000000000000000000000000000000000000000000000815260048101839052306024820152604481018290527f000000000000000000000000000000000000000000000000000000000000000073ffffffffffffffffffffffffffffffffffffffff169063e63697c8906064015f604051808303815f87803b15801561029a575f5ffd5b505af11580156102ac573d5f5f3e3d5ffd5b505050505050565b5f7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff8203610309577f4e487b71000000000000000000000000000000000000000000000000000000005f52601160045260245ffd5b5060010190565b5f5f60408385031215610321575f5ffd5b5050803592602090910135915056fea2646970667358221220ea272b459e970cccdd9ee2653a8657822f4eb864a45fa4eb1ab0658fe6f5430364736f6c63430008250033",
}

// Reenterer is an auto generated Go binding around an Ethereum contract.
type Reenterer struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *Reenterer) GetABI() abi.ABI {
	return c.abi
}

// NewReenterer creates a new instance of Reenterer.
func NewReenterer() *Reenterer {
	parsed, err := ReentererMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &Reenterer{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *Reenterer) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(address factory_) returns()
func (reenterer *Reenterer) PackConstructor(factory_ common.Address) []byte {
	enc, err := reenterer.abi.Pack("", factory_)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackFactory is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc45a0155.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function factory() view returns(address)
func (reenterer *Reenterer) PackFactory() []byte {
	enc, err := reenterer.abi.Pack("factory")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackFactory is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc45a0155.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function factory() view returns(address)
func (reenterer *Reenterer) TryPackFactory() ([]byte, error) {
	return reenterer.abi.Pack("factory")
}

// UnpackFactory is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xc45a0155.
//
// Solidity: function factory() view returns(address)
func (reenterer *Reenterer) UnpackFactory(data []byte) (common.Address, error) {
	out, err := reenterer.abi.Unpack("factory", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackReentries is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6578986d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function reentries() view returns(uint256)
func (reenterer *Reenterer) PackReentries() []byte {
	enc, err := reenterer.abi.Pack("reentries")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackReentries is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6578986d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function reentries() view returns(uint256)
func (reenterer *Reenterer) TryPackReentries() ([]byte, error) {
	return reenterer.abi.Pack("reentries")
}

// UnpackReentries is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x6578986d.
//
// Solidity: function reentries() view returns(uint256)
func (reenterer *Reenterer) UnpackReentries(data []byte) (*big.Int, error) {
	out, err := reenterer.abi.Unpack("reentries", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackReentryFailed is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc7021981.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function reentryFailed() view returns(bool)
func (reenterer *Reenterer) PackReentryFailed() []byte {
	enc, err := reenterer.abi.Pack("reentryFailed")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackReentryFailed is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc7021981.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function reentryFailed() view returns(bool)
func (reenterer *Reenterer) TryPackReentryFailed() ([]byte, error) {
	return reenterer.abi.Pack("reentryFailed")
}

// UnpackReentryFailed is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xc7021981.
//
// Solidity: function reentryFailed() view returns(bool)
func (reenterer *Reenterer) UnpackReentryFailed(data []byte) (bool, error) {
	out, err := reenterer.abi.Unpack("reentryFailed", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackWithdraw is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x441a3e70.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function withdraw(uint256 id, uint256 amount) returns()
func (reenterer *Reenterer) PackWithdraw(id *big.Int, amount *big.Int) []byte {
	enc, err := reenterer.abi.Pack("withdraw", id, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackWithdraw is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x441a3e70.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function withdraw(uint256 id, uint256 amount) returns()
func (reenterer *Reenterer) TryPackWithdraw(id *big.Int, amount *big.Int) ([]byte, error) {
	return reenterer.abi.Pack("withdraw", id, amount)
}
