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

// SanctionsListMetaData contains all meta data concerning the SanctionsList contract.
var SanctionsListMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[],\"name\":\"NotOwner\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"address[]\",\"name\":\"addrs\",\"type\":\"address[]\"}],\"name\":\"SanctionedAddressesAdded\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"address[]\",\"name\":\"addrs\",\"type\":\"address[]\"}],\"name\":\"SanctionedAddressesRemoved\",\"type\":\"event\"},{\"inputs\":[{\"internalType\":\"address[]\",\"name\":\"addrs\",\"type\":\"address[]\"}],\"name\":\"addToSanctionsList\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"addr\",\"type\":\"address\"}],\"name\":\"isSanctioned\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"owner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address[]\",\"name\":\"addrs\",\"type\":\"address[]\"}],\"name\":\"removeFromSanctionsList\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "SanctionsList",
	Bin: "0x60a0604052348015600e575f5ffd5b50336080526080516104ed6100385f395f8181605301528181610127015261026301526104ed5ff3fe608060405234801561000f575f5ffd5b506004361061004a575f3560e01c80638da5cb5b1461004e578063b972dfcc1461009f578063df592f7d146100b4578063ef782431146100fc575b5f5ffd5b6100757f000000000000000000000000000000000000000000000000000000000000000081565b60405173ffffffffffffffffffffffffffffffffffffffff90911681526020015b60405180910390f35b6100b26100ad36600461037a565b61010f565b005b6100ec6100c2366004610413565b73ffffffffffffffffffffffffffffffffffffffff165f9081526020819052604090205460ff1690565b6040519015158152602001610096565b6100b261010a36600461037a565b61024b565b3373ffffffffffffffffffffffffffffffffffffffff7f0000000000000000000000000000000000000000000000000000000000000000161461017e576040517f30cd747100000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f5b8181101561020d5760015f5f85858581811061019e5761019e610433565b90506020020160208101906101b39190610413565b73ffffffffffffffffffffffffffffffffffffffff16815260208101919091526040015f2080547fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff0016911515919091179055600101610180565b507f2596d7dd6966c5673f9c06ddb0564c4f0e6d8d206ea075b83ad9ddd71a4fb927828260405161023f929190610460565b60405180910390a15050565b3373ffffffffffffffffffffffffffffffffffffffff7f000000000000000000000000000000000000000000000000000000000000000016146102ba576040517f30cd747100000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f5b81811015610348575f5f5f8585858181106102d9576102d9610433565b90506020020160208101906102ee9190610413565b73ffffffffffffffffffffffffffffffffffffffff16815260208101919091526040015f2080547fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff00169115159190911790556001016102bc565b507f32aab684eee99db715515d1a9987a8fe33bb6341b0e35e60db7eab48a08f9a3a828260405161023f929190610460565b5f5f6020838503121561038b575f5ffd5b823567ffffffffffffffff8111156103a1575f5ffd5b8301601f810185136103b1575f5ffd5b803567ffffffffffffffff8111156103c7575f5ffd5b8560208260051b84010111156103db575f5ffd5b6020919091019590945092505050565b803573ffffffffffffffffffffffffffffffffffffffff8116811461040e575f5ffd5b919050565b5f60208284031215610423575f5ffd5b61042c826103eb565b9392505050565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52603260045260245ffd5b602080825281018290525f8360408301825b858110156104ad5773ffffffffffffffffffffffffffffffffffffffff610498846103eb565b16825260209283019290910190600101610472565b509594505050505056fea26469706673582212202aadb1db6ddc1207ebf327286f72eee7f3b74a669371eedf9ace27d3ab57b8fa64736f6c63430008250033",
}

// SanctionsList is an auto generated Go binding around an Ethereum contract.
type SanctionsList struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *SanctionsList) GetABI() abi.ABI {
	return c.abi
}

// NewSanctionsList creates a new instance of SanctionsList.
func NewSanctionsList() *SanctionsList {
	parsed, err := SanctionsListMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &SanctionsList{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *SanctionsList) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackAddToSanctionsList is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb972dfcc.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function addToSanctionsList(address[] addrs) returns()
func (sanctionsList *SanctionsList) PackAddToSanctionsList(addrs []common.Address) []byte {
	enc, err := sanctionsList.abi.Pack("addToSanctionsList", addrs)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackAddToSanctionsList is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb972dfcc.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function addToSanctionsList(address[] addrs) returns()
func (sanctionsList *SanctionsList) TryPackAddToSanctionsList(addrs []common.Address) ([]byte, error) {
	return sanctionsList.abi.Pack("addToSanctionsList", addrs)
}

// PackIsSanctioned is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xdf592f7d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function isSanctioned(address addr) view returns(bool)
func (sanctionsList *SanctionsList) PackIsSanctioned(addr common.Address) []byte {
	enc, err := sanctionsList.abi.Pack("isSanctioned", addr)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackIsSanctioned is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xdf592f7d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function isSanctioned(address addr) view returns(bool)
func (sanctionsList *SanctionsList) TryPackIsSanctioned(addr common.Address) ([]byte, error) {
	return sanctionsList.abi.Pack("isSanctioned", addr)
}

// UnpackIsSanctioned is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xdf592f7d.
//
// Solidity: function isSanctioned(address addr) view returns(bool)
func (sanctionsList *SanctionsList) UnpackIsSanctioned(data []byte) (bool, error) {
	out, err := sanctionsList.abi.Unpack("isSanctioned", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function owner() view returns(address)
func (sanctionsList *SanctionsList) PackOwner() []byte {
	enc, err := sanctionsList.abi.Pack("owner")
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
func (sanctionsList *SanctionsList) TryPackOwner() ([]byte, error) {
	return sanctionsList.abi.Pack("owner")
}

// UnpackOwner is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (sanctionsList *SanctionsList) UnpackOwner(data []byte) (common.Address, error) {
	out, err := sanctionsList.abi.Unpack("owner", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackRemoveFromSanctionsList is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xef782431.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function removeFromSanctionsList(address[] addrs) returns()
func (sanctionsList *SanctionsList) PackRemoveFromSanctionsList(addrs []common.Address) []byte {
	enc, err := sanctionsList.abi.Pack("removeFromSanctionsList", addrs)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRemoveFromSanctionsList is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xef782431.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function removeFromSanctionsList(address[] addrs) returns()
func (sanctionsList *SanctionsList) TryPackRemoveFromSanctionsList(addrs []common.Address) ([]byte, error) {
	return sanctionsList.abi.Pack("removeFromSanctionsList", addrs)
}

// SanctionsListSanctionedAddressesAdded represents a SanctionedAddressesAdded event raised by the SanctionsList contract.
type SanctionsListSanctionedAddressesAdded struct {
	Addrs []common.Address
	Raw   *types.Log // Blockchain specific contextual infos
}

const SanctionsListSanctionedAddressesAddedEventName = "SanctionedAddressesAdded"

// ContractEventName returns the user-defined event name.
func (SanctionsListSanctionedAddressesAdded) ContractEventName() string {
	return SanctionsListSanctionedAddressesAddedEventName
}

// UnpackSanctionedAddressesAddedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event SanctionedAddressesAdded(address[] addrs)
func (sanctionsList *SanctionsList) UnpackSanctionedAddressesAddedEvent(log *types.Log) (*SanctionsListSanctionedAddressesAdded, error) {
	event := "SanctionedAddressesAdded"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != sanctionsList.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(SanctionsListSanctionedAddressesAdded)
	if len(log.Data) > 0 {
		if err := sanctionsList.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range sanctionsList.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// SanctionsListSanctionedAddressesRemoved represents a SanctionedAddressesRemoved event raised by the SanctionsList contract.
type SanctionsListSanctionedAddressesRemoved struct {
	Addrs []common.Address
	Raw   *types.Log // Blockchain specific contextual infos
}

const SanctionsListSanctionedAddressesRemovedEventName = "SanctionedAddressesRemoved"

// ContractEventName returns the user-defined event name.
func (SanctionsListSanctionedAddressesRemoved) ContractEventName() string {
	return SanctionsListSanctionedAddressesRemovedEventName
}

// UnpackSanctionedAddressesRemovedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event SanctionedAddressesRemoved(address[] addrs)
func (sanctionsList *SanctionsList) UnpackSanctionedAddressesRemovedEvent(log *types.Log) (*SanctionsListSanctionedAddressesRemoved, error) {
	event := "SanctionedAddressesRemoved"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != sanctionsList.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(SanctionsListSanctionedAddressesRemoved)
	if len(log.Data) > 0 {
		if err := sanctionsList.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range sanctionsList.abi.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, log.Topics[1:]); err != nil {
		return nil, err
	}
	out.Raw = log
	return out, nil
}

// UnpackError attempts to decode the provided error data using user-defined
// error definitions.
func (sanctionsList *SanctionsList) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], sanctionsList.abi.Errors["NotOwner"].ID.Bytes()[:4]) {
		return sanctionsList.UnpackNotOwnerError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// SanctionsListNotOwner represents a NotOwner error raised by the SanctionsList contract.
type SanctionsListNotOwner struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotOwner()
func SanctionsListNotOwnerErrorID() common.Hash {
	return common.HexToHash("0x30cd74712f59d478562d48e2d35de830db72c60a63dd08ae59199eec990b5bc4")
}

// UnpackNotOwnerError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotOwner()
func (sanctionsList *SanctionsList) UnpackNotOwnerError(raw []byte) (*SanctionsListNotOwner, error) {
	out := new(SanctionsListNotOwner)
	if err := sanctionsList.abi.UnpackIntoInterface(out, "NotOwner", raw); err != nil {
		return nil, err
	}
	return out, nil
}
