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

// SafeProxyFactoryMetaData contains all meta data concerning the SafeProxyFactory contract.
var SafeProxyFactoryMetaData = bind.MetaData{
	ABI: "[{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"contractSafeProxy\",\"name\":\"proxy\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"singleton\",\"type\":\"address\"}],\"name\":\"ProxyCreation\",\"type\":\"event\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"_singleton\",\"type\":\"address\"},{\"internalType\":\"bytes\",\"name\":\"initializer\",\"type\":\"bytes\"},{\"internalType\":\"uint256\",\"name\":\"saltNonce\",\"type\":\"uint256\"}],\"name\":\"createChainSpecificProxyWithNonce\",\"outputs\":[{\"internalType\":\"contractSafeProxy\",\"name\":\"proxy\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"_singleton\",\"type\":\"address\"},{\"internalType\":\"bytes\",\"name\":\"initializer\",\"type\":\"bytes\"},{\"internalType\":\"uint256\",\"name\":\"saltNonce\",\"type\":\"uint256\"},{\"internalType\":\"contractIProxyCreationCallback\",\"name\":\"callback\",\"type\":\"address\"}],\"name\":\"createProxyWithCallback\",\"outputs\":[{\"internalType\":\"contractSafeProxy\",\"name\":\"proxy\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"_singleton\",\"type\":\"address\"},{\"internalType\":\"bytes\",\"name\":\"initializer\",\"type\":\"bytes\"},{\"internalType\":\"uint256\",\"name\":\"saltNonce\",\"type\":\"uint256\"}],\"name\":\"createProxyWithNonce\",\"outputs\":[{\"internalType\":\"contractSafeProxy\",\"name\":\"proxy\",\"type\":\"address\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"getChainId\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"proxyCreationCode\",\"outputs\":[{\"internalType\":\"bytes\",\"name\":\"\",\"type\":\"bytes\"}],\"stateMutability\":\"pure\",\"type\":\"function\"}]",
	ID:  "SafeProxyFactory",
	Bin: "0x608060405234801561001057600080fd5b50610bee806100206000396000f3fe608060405234801561001057600080fd5b50600436106100575760003560e01c80631688f0b91461005c5780633408e4701461016b57806353e5d93514610189578063d18af54d1461020c578063ec9e80bb1461033b575b600080fd5b61013f6004803603606081101561007257600080fd5b81019080803573ffffffffffffffffffffffffffffffffffffffff169060200190929190803590602001906401000000008111156100af57600080fd5b8201836020820111156100c157600080fd5b803590602001918460018302840111640100000000831117156100e357600080fd5b91908080601f016020809104026020016040519081016040528093929190818152602001838380828437600081840152601f19601f8201169050808301925050505050505091929192908035906020019092919050505061044a565b604051808273ffffffffffffffffffffffffffffffffffffffff16815260200191505060405180910390f35b6101736104fe565b6040518082815260200191505060405180910390f35b61019161050b565b6040518080602001828103825283818151815260200191508051906020019080838360005b838110156101d15780820151818401526020810190506101b6565b50505050905090810190601f1680156101fe5780820380516001836020036101000a031916815260200191505b509250505060405180910390f35b61030f6004803603608081101561022257600080fd5b81019080803573ffffffffffffffffffffffffffffffffffffffff1690602001909291908035906020019064010000000081111561025f57600080fd5b82018360208201111561027157600080fd5b8035906020019184600183028401116401000000008311171561029357600080fd5b91908080601f016020809104026020016040519081016040528093929190818152602001838380828437600081840152601f19601f82011690508083019250505050505050919291929080359060200190929190803573ffffffffffffffffffffffffffffffffffffffff169060200190929190505050610536565b604051808273ffffffffffffffffffffffffffffffffffffffff16815260200191505060405180910390f35b61041e6004803603606081101561035157600080fd5b81019080803573ffffffffffffffffffffffffffffffffffffffff1690602001909291908035906020019064010000000081111561038e57600080fd5b8201836020820111156103a057600080fd5b803590602001918460018302840111640100000000831117156103c257600080fd5b91908080601f016020809104026020016040519081016040528093929190818152602001838380828437600081840152601f19601f820116905080830192505050505050509192919290803590602001909291905050506106e5565b604051808273ffffffffffffffffffffffffffffffffffffffff16815260200191505060405180910390f35b60008083805190602001208360405160200180838152602001828152602001925050506040516020818303038152906040528051906020012090506104908585836107a8565b91508173ffffffffffffffffffffffffffffffffffffffff167f4f51faf6c4561ff95f067657e43439f0f856d97c04d9ec9070a6199ad418e23586604051808273ffffffffffffffffffffffffffffffffffffffff16815260200191505060405180910390a2509392505050565b6000804690508091505090565b60606040518060200161051d906109c5565b6020820181038252601f19601f82011660405250905090565b6000808383604051602001808381526020018273ffffffffffffffffffffffffffffffffffffffff1660601b8152601401925050506040516020818303038152906040528051906020012060001c905061059186868361044a565b9150600073ffffffffffffffffffffffffffffffffffffffff168373ffffffffffffffffffffffffffffffffffffffff16146106dc578273ffffffffffffffffffffffffffffffffffffffff16631e52b518838888886040518563ffffffff1660e01b8152600401808573ffffffffffffffffffffffffffffffffffffffff1681526020018473ffffffffffffffffffffffffffffffffffffffff16815260200180602001838152602001828103825284818151815260200191508051906020019080838360005b83811015610674578082015181840152602081019050610659565b50505050905090810190601f1680156106a15780820380516001836020036101000a031916815260200191505b5095505050505050600060405180830381600087803b1580156106c357600080fd5b505af11580156106d7573d6000803e3d6000fd5b505050505b50949350505050565b6000808380519060200120836106f96104fe565b60405160200180848152602001838152602001828152602001935050505060405160208183030381529060405280519060200120905061073a8585836107a8565b91508173ffffffffffffffffffffffffffffffffffffffff167f4f51faf6c4561ff95f067657e43439f0f856d97c04d9ec9070a6199ad418e23586604051808273ffffffffffffffffffffffffffffffffffffffff16815260200191505060405180910390a2509392505050565b60006107b3846109b2565b610825576040517f08c379a000000000000000000000000000000000000000000000000000000000815260040180806020018281038252601f8152602001807f53696e676c65746f6e20636f6e7472616374206e6f74206465706c6f7965640081525060200191505060405180910390fd5b600060405180602001610837906109c5565b6020820181038252601f19601f820116604052508573ffffffffffffffffffffffffffffffffffffffff166040516020018083805190602001908083835b602083106108985780518252602082019150602081019050602083039250610875565b6001836020036101000a038019825116818451168082178552505050505050905001828152602001925050506040516020818303038152906040529050828151826020016000f59150600073ffffffffffffffffffffffffffffffffffffffff168273ffffffffffffffffffffffffffffffffffffffff161415610984576040517f08c379a00000000000000000000000000000000000000000000000000000000081526004018080602001828103825260138152602001807f437265617465322063616c6c206661696c65640000000000000000000000000081525060200191505060405180910390fd5b6000845111156109aa5760008060008651602088016000875af114156109a957600080fd5b5b509392505050565b600080823b905060008111915050919050565b6101e6806109d38339019056fe608060405234801561001057600080fd5b506040516101e63803806101e68339818101604052602081101561003357600080fd5b8101908080519060200190929190505050600073ffffffffffffffffffffffffffffffffffffffff168173ffffffffffffffffffffffffffffffffffffffff1614156100ca576040517f08c379a00000000000000000000000000000000000000000000000000000000081526004018080602001828103825260228152602001806101c46022913960400191505060405180910390fd5b806000806101000a81548173ffffffffffffffffffffffffffffffffffffffff021916908373ffffffffffffffffffffffffffffffffffffffff1602179055505060ab806101196000396000f3fe608060405273ffffffffffffffffffffffffffffffffffffffff600054167fa619486e0000000000000000000000000000000000000000000000000000000060003514156050578060005260206000f35b3660008037600080366000845af43d6000803e60008114156070573d6000fd5b3d6000f3fea264697066735822122003d1488ee65e08fa41e58e888a9865554c535f2c77126a82cb4c0f917f31441364736f6c63430007060033496e76616c69642073696e676c65746f6e20616464726573732070726f7669646564a26469706673582212200fd975ca8e62d9bf08aa3d09c74b9bdc9d7acba7621835be4187989ddd0e54b164736f6c63430007060033",
}

// SafeProxyFactory is an auto generated Go binding around an Ethereum contract.
type SafeProxyFactory struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *SafeProxyFactory) GetABI() abi.ABI {
	return c.abi
}

// NewSafeProxyFactory creates a new instance of SafeProxyFactory.
func NewSafeProxyFactory() *SafeProxyFactory {
	parsed, err := SafeProxyFactoryMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &SafeProxyFactory{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *SafeProxyFactory) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackCreateChainSpecificProxyWithNonce is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xec9e80bb.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function createChainSpecificProxyWithNonce(address _singleton, bytes initializer, uint256 saltNonce) returns(address proxy)
func (safeProxyFactory *SafeProxyFactory) PackCreateChainSpecificProxyWithNonce(singleton common.Address, initializer []byte, saltNonce *big.Int) []byte {
	enc, err := safeProxyFactory.abi.Pack("createChainSpecificProxyWithNonce", singleton, initializer, saltNonce)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackCreateChainSpecificProxyWithNonce is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xec9e80bb.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function createChainSpecificProxyWithNonce(address _singleton, bytes initializer, uint256 saltNonce) returns(address proxy)
func (safeProxyFactory *SafeProxyFactory) TryPackCreateChainSpecificProxyWithNonce(singleton common.Address, initializer []byte, saltNonce *big.Int) ([]byte, error) {
	return safeProxyFactory.abi.Pack("createChainSpecificProxyWithNonce", singleton, initializer, saltNonce)
}

// UnpackCreateChainSpecificProxyWithNonce is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xec9e80bb.
//
// Solidity: function createChainSpecificProxyWithNonce(address _singleton, bytes initializer, uint256 saltNonce) returns(address proxy)
func (safeProxyFactory *SafeProxyFactory) UnpackCreateChainSpecificProxyWithNonce(data []byte) (common.Address, error) {
	out, err := safeProxyFactory.abi.Unpack("createChainSpecificProxyWithNonce", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackCreateProxyWithCallback is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd18af54d.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function createProxyWithCallback(address _singleton, bytes initializer, uint256 saltNonce, address callback) returns(address proxy)
func (safeProxyFactory *SafeProxyFactory) PackCreateProxyWithCallback(singleton common.Address, initializer []byte, saltNonce *big.Int, callback common.Address) []byte {
	enc, err := safeProxyFactory.abi.Pack("createProxyWithCallback", singleton, initializer, saltNonce, callback)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackCreateProxyWithCallback is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd18af54d.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function createProxyWithCallback(address _singleton, bytes initializer, uint256 saltNonce, address callback) returns(address proxy)
func (safeProxyFactory *SafeProxyFactory) TryPackCreateProxyWithCallback(singleton common.Address, initializer []byte, saltNonce *big.Int, callback common.Address) ([]byte, error) {
	return safeProxyFactory.abi.Pack("createProxyWithCallback", singleton, initializer, saltNonce, callback)
}

// UnpackCreateProxyWithCallback is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xd18af54d.
//
// Solidity: function createProxyWithCallback(address _singleton, bytes initializer, uint256 saltNonce, address callback) returns(address proxy)
func (safeProxyFactory *SafeProxyFactory) UnpackCreateProxyWithCallback(data []byte) (common.Address, error) {
	out, err := safeProxyFactory.abi.Unpack("createProxyWithCallback", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackCreateProxyWithNonce is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1688f0b9.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function createProxyWithNonce(address _singleton, bytes initializer, uint256 saltNonce) returns(address proxy)
func (safeProxyFactory *SafeProxyFactory) PackCreateProxyWithNonce(singleton common.Address, initializer []byte, saltNonce *big.Int) []byte {
	enc, err := safeProxyFactory.abi.Pack("createProxyWithNonce", singleton, initializer, saltNonce)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackCreateProxyWithNonce is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x1688f0b9.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function createProxyWithNonce(address _singleton, bytes initializer, uint256 saltNonce) returns(address proxy)
func (safeProxyFactory *SafeProxyFactory) TryPackCreateProxyWithNonce(singleton common.Address, initializer []byte, saltNonce *big.Int) ([]byte, error) {
	return safeProxyFactory.abi.Pack("createProxyWithNonce", singleton, initializer, saltNonce)
}

// UnpackCreateProxyWithNonce is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x1688f0b9.
//
// Solidity: function createProxyWithNonce(address _singleton, bytes initializer, uint256 saltNonce) returns(address proxy)
func (safeProxyFactory *SafeProxyFactory) UnpackCreateProxyWithNonce(data []byte) (common.Address, error) {
	out, err := safeProxyFactory.abi.Unpack("createProxyWithNonce", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackGetChainId is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3408e470.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function getChainId() view returns(uint256)
func (safeProxyFactory *SafeProxyFactory) PackGetChainId() []byte {
	enc, err := safeProxyFactory.abi.Pack("getChainId")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackGetChainId is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3408e470.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function getChainId() view returns(uint256)
func (safeProxyFactory *SafeProxyFactory) TryPackGetChainId() ([]byte, error) {
	return safeProxyFactory.abi.Pack("getChainId")
}

// UnpackGetChainId is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x3408e470.
//
// Solidity: function getChainId() view returns(uint256)
func (safeProxyFactory *SafeProxyFactory) UnpackGetChainId(data []byte) (*big.Int, error) {
	out, err := safeProxyFactory.abi.Unpack("getChainId", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackProxyCreationCode is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x53e5d935.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function proxyCreationCode() pure returns(bytes)
func (safeProxyFactory *SafeProxyFactory) PackProxyCreationCode() []byte {
	enc, err := safeProxyFactory.abi.Pack("proxyCreationCode")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackProxyCreationCode is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x53e5d935.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function proxyCreationCode() pure returns(bytes)
func (safeProxyFactory *SafeProxyFactory) TryPackProxyCreationCode() ([]byte, error) {
	return safeProxyFactory.abi.Pack("proxyCreationCode")
}

// UnpackProxyCreationCode is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x53e5d935.
//
// Solidity: function proxyCreationCode() pure returns(bytes)
func (safeProxyFactory *SafeProxyFactory) UnpackProxyCreationCode(data []byte) ([]byte, error) {
	out, err := safeProxyFactory.abi.Unpack("proxyCreationCode", data)
	if err != nil {
		return *new([]byte), err
	}
	out0 := *abi.ConvertType(out[0], new([]byte)).(*[]byte)
	return out0, nil
}

// SafeProxyFactoryProxyCreation represents a ProxyCreation event raised by the SafeProxyFactory contract.
type SafeProxyFactoryProxyCreation struct {
	Proxy     common.Address
	Singleton common.Address
	Raw       *types.Log // Blockchain specific contextual infos
}

const SafeProxyFactoryProxyCreationEventName = "ProxyCreation"

// ContractEventName returns the user-defined event name.
func (SafeProxyFactoryProxyCreation) ContractEventName() string {
	return SafeProxyFactoryProxyCreationEventName
}

// UnpackProxyCreationEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event ProxyCreation(address indexed proxy, address singleton)
func (safeProxyFactory *SafeProxyFactory) UnpackProxyCreationEvent(log *types.Log) (*SafeProxyFactoryProxyCreation, error) {
	event := "ProxyCreation"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != safeProxyFactory.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(SafeProxyFactoryProxyCreation)
	if len(log.Data) > 0 {
		if err := safeProxyFactory.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range safeProxyFactory.abi.Events[event].Inputs {
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
