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

// MockAggregatorMetaData contains all meta data concerning the MockAggregator contract.
var MockAggregatorMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"uint8\",\"name\":\"decimals_\",\"type\":\"uint8\"},{\"internalType\":\"string\",\"name\":\"description_\",\"type\":\"string\"},{\"internalType\":\"int256\",\"name\":\"answer_\",\"type\":\"int256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[],\"name\":\"NotOwner\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"decimals\",\"outputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"description\",\"outputs\":[{\"internalType\":\"string\",\"name\":\"\",\"type\":\"string\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"latestRoundData\",\"outputs\":[{\"internalType\":\"uint80\",\"name\":\"roundId\",\"type\":\"uint80\"},{\"internalType\":\"int256\",\"name\":\"answer_\",\"type\":\"int256\"},{\"internalType\":\"uint256\",\"name\":\"startedAt\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"updatedAt_\",\"type\":\"uint256\"},{\"internalType\":\"uint80\",\"name\":\"answeredInRound\",\"type\":\"uint80\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"owner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"int256\",\"name\":\"answer_\",\"type\":\"int256\"}],\"name\":\"setAnswer\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"}]",
	ID:  "MockAggregator",
	Bin: "0x60c060405234801561000f575f5ffd5b5060405161071b38038061071b83398101604081905261002e916100ae565b60ff83166080525f6100408382610211565b503360a05261004e81610056565b505050610306565b600180546001600160501b0316905f61006e836102cf565b82546001600160501b039182166101009390930a92830291909202199091161790555060025542600355565b634e487b7160e01b5f52604160045260245ffd5b5f5f5f606084860312156100c0575f5ffd5b835160ff811681146100d0575f5ffd5b60208501519093506001600160401b038111156100eb575f5ffd5b8401601f810186136100fb575f5ffd5b80516001600160401b038111156101145761011461009a565b604051601f8201601f19908116603f011681016001600160401b03811182821017156101425761014261009a565b604052818152828201602001881015610159575f5ffd5b8160208401602083015e5f91810160200191909152604095909501519396949550929392505050565b600181811c9082168061019657607f821691505b6020821081036101b457634e487b7160e01b5f52602260045260245ffd5b50919050565b601f82111561020c578282111561020c57805f5260205f20601f840160051c60208510156101e557505f5b90810190601f840160051c035f5b81811015610208575f838201556001016101f3565b5050505b505050565b81516001600160401b0381111561022a5761022a61009a565b61023e816102388454610182565b846101ba565b6020601f821160018114610270575f83156102595750848201515b5f19600385901b1c1916600184901b1784556102c8565b5f84815260208120601f198516915b8281101561029f578785015182556020948501946001909201910161027f565b50848210156102bc57868401515f19600387901b60f8161c191681555b505060018360011b0184555b5050505050565b5f6001600160501b0382166002600160501b031981016102fd57634e487b7160e01b5f52601160045260245ffd5b60010192915050565b60805160a0516103ef61032c5f395f818160c001526101fc01525f606d01526103ef5ff3fe608060405234801561000f575f5ffd5b5060043610610064575f3560e01c80638da5cb5b1161004d5780638da5cb5b146100bb57806399213cd814610107578063feaf968c1461011c575f5ffd5b8063313ce567146100685780637284e416146100a6575b5f5ffd5b61008f7f000000000000000000000000000000000000000000000000000000000000000081565b60405160ff90911681526020015b60405180910390f35b6100ae610159565b60405161009d91906102a9565b6100e27f000000000000000000000000000000000000000000000000000000000000000081565b60405173ffffffffffffffffffffffffffffffffffffffff909116815260200161009d565b61011a6101153660046102fc565b6101e4565b005b6001546002546003546040805169ffffffffffffffffffff909416808552602085019390935283018190526060830152608082015260a00161009d565b5f805461016590610313565b80601f016020809104026020016040519081016040528092919081815260200182805461019190610313565b80156101dc5780601f106101b3576101008083540402835291602001916101dc565b820191905f5260205f20905b8154815290600101906020018083116101bf57829003601f168201915b505050505081565b3373ffffffffffffffffffffffffffffffffffffffff7f00000000000000000000000000000000000000000000000000000000000000001614610253576040517f30cd747100000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b61025c8161025f565b50565b6001805469ffffffffffffffffffff16905f61027a83610364565b825469ffffffffffffffffffff9182166101009390930a92830291909202199091161790555060025542600355565b602081525f82518060208401528060208501604085015e5f6040828501015260407fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0601f83011684010191505092915050565b5f6020828403121561030c575f5ffd5b5035919050565b600181811c9082168061032757607f821691505b60208210810361035e577f4e487b71000000000000000000000000000000000000000000000000000000005f52602260045260245ffd5b50919050565b5f69ffffffffffffffffffff821669ffffffffffffffffffff81036103b0577f4e487b71000000000000000000000000000000000000000000000000000000005f52601160045260245ffd5b6001019291505056fea264697066735822122088cb199e7f7bee7e2a676cb61bfc5ab581a35e73bcea02ff4f105da3cc5dfe8b64736f6c63430008250033",
}

// MockAggregator is an auto generated Go binding around an Ethereum contract.
type MockAggregator struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *MockAggregator) GetABI() abi.ABI {
	return c.abi
}

// NewMockAggregator creates a new instance of MockAggregator.
func NewMockAggregator() *MockAggregator {
	parsed, err := MockAggregatorMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &MockAggregator{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *MockAggregator) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(uint8 decimals_, string description_, int256 answer_) returns()
func (mockAggregator *MockAggregator) PackConstructor(decimals_ uint8, description_ string, answer_ *big.Int) []byte {
	enc, err := mockAggregator.abi.Pack("", decimals_, description_, answer_)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x313ce567.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function decimals() view returns(uint8)
func (mockAggregator *MockAggregator) PackDecimals() []byte {
	enc, err := mockAggregator.abi.Pack("decimals")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDecimals is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x313ce567.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function decimals() view returns(uint8)
func (mockAggregator *MockAggregator) TryPackDecimals() ([]byte, error) {
	return mockAggregator.abi.Pack("decimals")
}

// UnpackDecimals is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x313ce567.
//
// Solidity: function decimals() view returns(uint8)
func (mockAggregator *MockAggregator) UnpackDecimals(data []byte) (uint8, error) {
	out, err := mockAggregator.abi.Unpack("decimals", data)
	if err != nil {
		return *new(uint8), err
	}
	out0 := *abi.ConvertType(out[0], new(uint8)).(*uint8)
	return out0, nil
}

// PackDescription is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7284e416.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function description() view returns(string)
func (mockAggregator *MockAggregator) PackDescription() []byte {
	enc, err := mockAggregator.abi.Pack("description")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDescription is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x7284e416.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function description() view returns(string)
func (mockAggregator *MockAggregator) TryPackDescription() ([]byte, error) {
	return mockAggregator.abi.Pack("description")
}

// UnpackDescription is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x7284e416.
//
// Solidity: function description() view returns(string)
func (mockAggregator *MockAggregator) UnpackDescription(data []byte) (string, error) {
	out, err := mockAggregator.abi.Unpack("description", data)
	if err != nil {
		return *new(string), err
	}
	out0 := *abi.ConvertType(out[0], new(string)).(*string)
	return out0, nil
}

// PackLatestRoundData is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xfeaf968c.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function latestRoundData() view returns(uint80 roundId, int256 answer_, uint256 startedAt, uint256 updatedAt_, uint80 answeredInRound)
func (mockAggregator *MockAggregator) PackLatestRoundData() []byte {
	enc, err := mockAggregator.abi.Pack("latestRoundData")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackLatestRoundData is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xfeaf968c.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function latestRoundData() view returns(uint80 roundId, int256 answer_, uint256 startedAt, uint256 updatedAt_, uint80 answeredInRound)
func (mockAggregator *MockAggregator) TryPackLatestRoundData() ([]byte, error) {
	return mockAggregator.abi.Pack("latestRoundData")
}

// LatestRoundDataOutput serves as a container for the return parameters of contract
// method LatestRoundData.
type LatestRoundDataOutput struct {
	RoundId         *big.Int
	Answer          *big.Int
	StartedAt       *big.Int
	UpdatedAt       *big.Int
	AnsweredInRound *big.Int
}

// UnpackLatestRoundData is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xfeaf968c.
//
// Solidity: function latestRoundData() view returns(uint80 roundId, int256 answer_, uint256 startedAt, uint256 updatedAt_, uint80 answeredInRound)
func (mockAggregator *MockAggregator) UnpackLatestRoundData(data []byte) (LatestRoundDataOutput, error) {
	out, err := mockAggregator.abi.Unpack("latestRoundData", data)
	outstruct := new(LatestRoundDataOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.RoundId = abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	outstruct.Answer = abi.ConvertType(out[1], new(big.Int)).(*big.Int)
	outstruct.StartedAt = abi.ConvertType(out[2], new(big.Int)).(*big.Int)
	outstruct.UpdatedAt = abi.ConvertType(out[3], new(big.Int)).(*big.Int)
	outstruct.AnsweredInRound = abi.ConvertType(out[4], new(big.Int)).(*big.Int)
	return *outstruct, nil
}

// PackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function owner() view returns(address)
func (mockAggregator *MockAggregator) PackOwner() []byte {
	enc, err := mockAggregator.abi.Pack("owner")
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
func (mockAggregator *MockAggregator) TryPackOwner() ([]byte, error) {
	return mockAggregator.abi.Pack("owner")
}

// UnpackOwner is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (mockAggregator *MockAggregator) UnpackOwner(data []byte) (common.Address, error) {
	out, err := mockAggregator.abi.Unpack("owner", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackSetAnswer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x99213cd8.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setAnswer(int256 answer_) returns()
func (mockAggregator *MockAggregator) PackSetAnswer(answer *big.Int) []byte {
	enc, err := mockAggregator.abi.Pack("setAnswer", answer)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetAnswer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x99213cd8.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setAnswer(int256 answer_) returns()
func (mockAggregator *MockAggregator) TryPackSetAnswer(answer *big.Int) ([]byte, error) {
	return mockAggregator.abi.Pack("setAnswer", answer)
}

// UnpackError attempts to decode the provided error data using user-defined
// error definitions.
func (mockAggregator *MockAggregator) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], mockAggregator.abi.Errors["NotOwner"].ID.Bytes()[:4]) {
		return mockAggregator.UnpackNotOwnerError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// MockAggregatorNotOwner represents a NotOwner error raised by the MockAggregator contract.
type MockAggregatorNotOwner struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotOwner()
func MockAggregatorNotOwnerErrorID() common.Hash {
	return common.HexToHash("0x30cd74712f59d478562d48e2d35de830db72c60a63dd08ae59199eec990b5bc4")
}

// UnpackNotOwnerError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotOwner()
func (mockAggregator *MockAggregator) UnpackNotOwnerError(raw []byte) (*MockAggregatorNotOwner, error) {
	out := new(MockAggregatorNotOwner)
	if err := mockAggregator.abi.UnpackIntoInterface(out, "NotOwner", raw); err != nil {
		return nil, err
	}
	return out, nil
}
