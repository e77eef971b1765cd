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

// NodeFactoryMintOrder is an auto generated low-level Go binding around an user-defined struct.
type NodeFactoryMintOrder struct {
	To         common.Address
	Tier       uint8
	PaymentRef [32]byte
}

// NodeFactoryMetaData contains all meta data concerning the NodeFactory contract.
var NodeFactoryMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"address\",\"name\":\"minter_\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"distributor_\",\"type\":\"address\"},{\"internalType\":\"uint32\",\"name\":\"maxPerWallet_\",\"type\":\"uint32\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[],\"name\":\"AmountTooLarge\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"Insolvent\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InsufficientBalance\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"MintingPaused\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NodeCountChanged\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotDistributor\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotMinter\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotNodeOwner\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotOwner\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"PaymentRefUsed\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"Reentered\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"RoundUsed\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"TransferFailed\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"UnknownNode\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"WalletFull\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"WeightTooLarge\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"WeightsChanged\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroAddress\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"roundId\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"enumNodeFactory.Mode\",\"name\":\"mode\",\"type\":\"uint8\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"nodes\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"total\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"carry\",\"type\":\"uint256\"}],\"name\":\"Distributed\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"uint32\",\"name\":\"maxPerWallet\",\"type\":\"uint32\"}],\"name\":\"MaxPerWalletChanged\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"paymentRef\",\"type\":\"bytes32\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint8\",\"name\":\"tier\",\"type\":\"uint8\"},{\"indexed\":false,\"internalType\":\"enumNodeFactory.Skip\",\"name\":\"reason\",\"type\":\"uint8\"}],\"name\":\"MintSkipped\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"id\",\"type\":\"uint256\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint8\",\"name\":\"tier\",\"type\":\"uint8\"},{\"indexed\":false,\"internalType\":\"bytes32\",\"name\":\"paymentRef\",\"type\":\"bytes32\"}],\"name\":\"NodeMinted\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"bool\",\"name\":\"paused\",\"type\":\"bool\"}],\"name\":\"Paused\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"minter\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"distributor\",\"type\":\"address\"}],\"name\":\"RolesChanged\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint8\",\"name\":\"tier\",\"type\":\"uint8\"},{\"indexed\":false,\"internalType\":\"uint32\",\"name\":\"weightBps\",\"type\":\"uint32\"},{\"indexed\":false,\"internalType\":\"uint40\",\"name\":\"weightsVersion\",\"type\":\"uint40\"}],\"name\":\"TierWeightChanged\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"id\",\"type\":\"uint256\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"}],\"name\":\"Transferred\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"id\",\"type\":\"uint256\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"Withdrawn\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"MAX_WEIGHT_BPS\",\"outputs\":[{\"internalType\":\"uint32\",\"name\":\"\",\"type\":\"uint32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"roundId\",\"type\":\"uint256\"},{\"internalType\":\"enumNodeFactory.Mode\",\"name\":\"mode\",\"type\":\"uint8\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"nodes\",\"type\":\"uint256\"},{\"internalType\":\"uint64\",\"name\":\"version\",\"type\":\"uint64\"}],\"name\":\"distribute\",\"outputs\":[],\"stateMutability\":\"payable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"distributor\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"isSolvent\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"maxPerWallet\",\"outputs\":[{\"internalType\":\"uint32\",\"name\":\"\",\"type\":\"uint32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint8\",\"name\":\"tier\",\"type\":\"uint8\"},{\"internalType\":\"bytes32\",\"name\":\"paymentRef\",\"type\":\"bytes32\"}],\"name\":\"mint\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"id\",\"type\":\"uint256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"components\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint8\",\"name\":\"tier\",\"type\":\"uint8\"},{\"internalType\":\"bytes32\",\"name\":\"paymentRef\",\"type\":\"bytes32\"}],\"internalType\":\"structNodeFactory.MintOrder[]\",\"name\":\"orders\",\"type\":\"tuple[]\"}],\"name\":\"mintBatch\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"firstId\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"minted\",\"type\":\"uint256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"minter\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"nodeCount\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"id\",\"type\":\"uint256\"}],\"name\":\"nodeInfo\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"nodeOwner\",\"type\":\"address\"},{\"internalType\":\"uint8\",\"name\":\"tier\",\"type\":\"uint8\"},{\"internalType\":\"uint256\",\"name\":\"balance\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"credited\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"withdrawn\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"wallet\",\"type\":\"address\"}],\"name\":\"nodesOf\",\"outputs\":[{\"internalType\":\"uint256[]\",\"name\":\"\",\"type\":\"uint256[]\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"owner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"paused\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"name\":\"paymentRefUsed\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"poolCarry\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"name\":\"roundUsed\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint32\",\"name\":\"maxPerWallet_\",\"type\":\"uint32\"}],\"name\":\"setMaxPerWallet\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bool\",\"name\":\"paused_\",\"type\":\"bool\"}],\"name\":\"setPaused\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"owner_\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"minter_\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"distributor_\",\"type\":\"address\"}],\"name\":\"setRoles\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint8\",\"name\":\"tier\",\"type\":\"uint8\"},{\"internalType\":\"uint32\",\"name\":\"weightBps\",\"type\":\"uint32\"}],\"name\":\"setTierWeight\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"tierList\",\"outputs\":[{\"internalType\":\"uint8[]\",\"name\":\"list\",\"type\":\"uint8[]\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"name\":\"tiers\",\"outputs\":[{\"internalType\":\"uint88\",\"name\":\"perNode\",\"type\":\"uint88\"},{\"internalType\":\"uint64\",\"name\":\"nodes\",\"type\":\"uint64\"},{\"internalType\":\"uint32\",\"name\":\"weightBps\",\"type\":\"uint32\"},{\"internalType\":\"uint16\",\"name\":\"next\",\"type\":\"uint16\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"totalOutstanding\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"id\",\"type\":\"uint256\"}],\"name\":\"totalWithdrawnByNode\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"id\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"}],\"name\":\"transfer\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"weightsVersion\",\"outputs\":[{\"internalType\":\"uint40\",\"name\":\"\",\"type\":\"uint40\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"id\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"withdraw\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"stateMutability\":\"payable\",\"type\":\"receive\"}]",
	ID:  "NodeFactory",
	Bin: "0x608060405234801561000f575f5ffd5b5060405161291538038061291583398101604081905261002e9161015a565b6001600160a01b038316158061004b57506001600160a01b038216155b156100695760405163d92e233d60e01b815260040160405180910390fd5b5f8054336001600160a01b03199182168117909255600180549091166001600160a01b0386811691821790925560028054928616600164ffffffff0160a01b03199093168317600160a81b63ffffffff8716021790556040805193845260208401919091528201527fbc8e5cec22009cb45324162584d043c03d372a645fa7c9dea262f45e52a278009060600160405180910390a160405163ffffffff821681527f08ec00e2241007915379cd7a50cee9c2aecdfd35c59c2aaf301383c4c6e149d59060200160405180910390a15050506101a6565b80516001600160a01b0381168114610155575f5ffd5b919050565b5f5f5f6060848603121561016c575f5ffd5b6101758461013f565b92506101836020850161013f565b9150604084015163ffffffff8116811461019b575f5ffd5b809150509250925092565b612762806101b35f395ff3fe6080604052600436106101a7575f3560e01c806389886b32116100e7578063b6d7d16411610087578063cd52c13611610062578063cd52c1361461058e578063d1d79974146105ad578063e63697c814610684578063fbb43599146106a3575f5ffd5b8063b6d7d16414610517578063b7760c8f14610543578063bfe1092814610562575f5ffd5b80638e6320bf116100c25780638e6320bf14610425578063969157f314610446578063b02439ae14610465578063b453eb29146104c5575f5ffd5b806389886b32146103b75780638c54ec69146103cc5780638da5cb5b146103fa575f5ffd5b8063453c2310116101525780635c975abb1161012d5780635c975abb1461033b5780635ce239501461036c5780636da49b8314610383578063836de49614610398575f5ffd5b8063453c2310146102d4578063526b80fb1461030957806354841e941461031c575f5ffd5b806316c38b3c1161018257806316c38b3c14610256578063266c33c7146102775780633006b543146102b5575f5ffd5b806303acaa99146101b257806307546172146101e257806316078d0414610233575f5ffd5b366101ae57005b5f5ffd5b3480156101bd575f5ffd5b506101c8620186a081565b60405163ffffffff90911681526020015b60405180910390f35b3480156101ed575f5ffd5b5060015461020e9073ffffffffffffffffffffffffffffffffffffffff1681565b60405173ffffffffffffffffffffffffffffffffffffffff90911681526020016101d9565b34801561023e575f5ffd5b5061024860045481565b6040519081526020016101d9565b348015610261575f5ffd5b506102756102703660046121c1565b6106d7565b005b348015610282575f5ffd5b506102a56102913660046121e0565b60096020525f908152604090205460ff1681565b60405190151581526020016101d9565b3480156102c0575f5ffd5b506102756102cf36600461220f565b6107ab565b3480156102df575f5ffd5b506002546101c8907501000000000000000000000000000000000000000000900463ffffffff1681565b610275610317366004612228565b610879565b348015610327575f5ffd5b506102756103363660046122ac565b610d93565b348015610346575f5ffd5b506002546102a59074010000000000000000000000000000000000000000900460ff1681565b348015610377575f5ffd5b506004544710156102a5565b34801561038e575f5ffd5b5061024860035481565b3480156103a3575f5ffd5b506102486103b23660046121e0565b610f18565b3480156103c2575f5ffd5b50610248600b5481565b3480156103d7575f5ffd5b506102a56103e63660046121e0565b60086020525f908152604090205460ff1681565b348015610405575f5ffd5b505f5461020e9073ffffffffffffffffffffffffffffffffffffffff1681565b348015610430575f5ffd5b50610439610f70565b6040516101d991906122ec565b348015610451575f5ffd5b50610248610460366004612341565b6110ed565b348015610470575f5ffd5b5061048461047f3660046121e0565b6112bf565b6040805173ffffffffffffffffffffffffffffffffffffffff909616865260ff9094166020860152928401919091526060830152608082015260a0016101d9565b3480156104d0575f5ffd5b50600254610501907b01000000000000000000000000000000000000000000000000000000900464ffffffffff1681565b60405164ffffffffff90911681526020016101d9565b348015610522575f5ffd5b5061053661053136600461237b565b6113cb565b6040516101d99190612394565b34801561054e575f5ffd5b5061027561055d3660046123cb565b611441565b34801561056d575f5ffd5b5060025461020e9073ffffffffffffffffffffffffffffffffffffffff1681565b348015610599575f5ffd5b506102756105a83660046123f5565b6116f7565b3480156105b8575f5ffd5b5061063e6105c736600461241d565b600a6020525f90815260409020546affffffffffffffffffffff8116906b010000000000000000000000810467ffffffffffffffff1690730100000000000000000000000000000000000000810463ffffffff169077010000000000000000000000000000000000000000000000900461ffff1684565b604080516affffffffffffffffffffff909516855267ffffffffffffffff909316602085015263ffffffff9091169183019190915261ffff1660608201526080016101d9565b34801561068f575f5ffd5b5061027561069e366004612436565b6118b0565b3480156106ae575f5ffd5b506106c26106bd366004612458565b611c11565b604080519283526020830191909152016101d9565b5f5473ffffffffffffffffffffffffffffffffffffffff163314610727576040517f30cd747100000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b6002805482151574010000000000000000000000000000000000000000027fffffffffffffffffffffff00ffffffffffffffffffffffffffffffffffffffff9091161790556040517f0e2fb031ee032dc02d8011dc50b816eb450cf856abd8261680dac74f72165bd2906107a090831515815260200190565b60405180910390a150565b5f5473ffffffffffffffffffffffffffffffffffffffff1633146107fb576040517f30cd747100000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b600280547fffffffffffffff00000000ffffffffffffffffffffffffffffffffffffffffff16750100000000000000000000000000000000000000000063ffffffff8416908102919091179091556040519081527f08ec00e2241007915379cd7a50cee9c2aecdfd35c59c2aaf301383c4c6e149d5906020016107a0565b60025473ffffffffffffffffffffffffffffffffffffffff1633146108ca576040517f385296d500000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f8581526009602052604090205460ff1615610912576040517f0b3d339f00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b600354821461094d576040517f57827b4300000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b6002547b01000000000000000000000000000000000000000000000000000000900464ffffffffff1667ffffffffffffffff8216146109b8576040517f18423b7b00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b6fffffffffffffffffffffffffffffffff831115610a02576040517f0625040100000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f858152600960205260408120805460017fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff009091168117909155600254600b5479010000000000000000000000000000000000000000000000000090910461ffff169291876001811115610a7857610a786124c9565b03610b60575f835b8015610b21575f600a81610a95600185612523565b60ff16815260208101919091526040015f208054909150610aec90730100000000000000000000000000000000000000810463ffffffff16906b010000000000000000000000900467ffffffffffffffff16612536565b610af6908461254d565b905490925077010000000000000000000000000000000000000000000000900461ffff169050610a80565b505f610b2d838961254d565b90508115610b4257610b3f8282612560565b93505b610b4c8285612536565b610b569082612523565b600b819055925050505b5f835b8015610cf4575f600a81610b78600185612523565b60ff16815260208101919091526040015f9081208054909250730100000000000000000000000000000000000000900463ffffffff1690808c6001811115610bc257610bc26124c9565b14610bdc57610bd763ffffffff831688612536565b610bf9565b612710610bef63ffffffff84168d612536565b610bf99190612560565b90508015610ccb5782545f90610c1d9083906affffffffffffffffffffff1661254d565b90506affffffffffffffffffffff811115610c64576040517f0625040100000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b83547fffffffffffffffffffffffffffffffffffffffffff0000000000000000000000166affffffffffffffffffffff821617808555610cbd906b010000000000000000000000900467ffffffffffffffff1683612536565b610cc7908761254d565b9550505b50505477010000000000000000000000000000000000000000000000900461ffff169050610b63565b505f81600454610d04919061254d565b905080471015610d40576040517ffc22003800000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b80600481905550897fbbf6935171c6ce027db21d1bdf654d5ed2e83c6966409d4bf75434eb6b8d6b5f8a8a8a8688604051610d7f959493929190612598565b60405180910390a250505050505050505050565b5f5473ffffffffffffffffffffffffffffffffffffffff163314610de3576040517f30cd747100000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b73ffffffffffffffffffffffffffffffffffffffff83161580610e1a575073ffffffffffffffffffffffffffffffffffffffff8216155b80610e39575073ffffffffffffffffffffffffffffffffffffffff8116155b15610e70576040517fd92e233d00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f805473ffffffffffffffffffffffffffffffffffffffff8581167fffffffffffffffffffffffff0000000000000000000000000000000000000000928316811790935560018054868316908416811790915560028054928616929093168217909255604080519384526020840192909252908201527fbc8e5cec22009cb45324162584d043c03d372a645fa7c9dea262f45e52a278009060600160405180910390a1505050565b5f811580610f27575060035482115b15610f5e576040517f8b7114df00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b505f9081526005602052604090205490565b6002546060905f90790100000000000000000000000000000000000000000000000000900461ffff165b8015610ff257610fa9826125cd565b9150600a5f610fb9600184612523565b60ff16815260208101919091526040015f205477010000000000000000000000000000000000000000000000900461ffff169050610f9a565b508067ffffffffffffffff81111561100c5761100c612604565b604051908082528060200260200182016040528015611035578160200160208202803683370190505b506002549092505f9150790100000000000000000000000000000000000000000000000000900461ffff165b80156110e857611072600182612523565b838361107d816125cd565b94508151811061108f5761108f612631565b60ff90921660209283029190910190910152600a5f6110af600184612523565b60ff16815260208101919091526040015f205477010000000000000000000000000000000000000000000000900461ffff169050611061565b505090565b6001545f9073ffffffffffffffffffffffffffffffffffffffff163314611140576040517ff8d2906c00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b60025474010000000000000000000000000000000000000000900460ff1615611195576040517feb56075600000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f6111b38584600260159054906101000a900463ffffffff16611e2c565b905060018160038111156111c9576111c96124c9565b03611200576040517fd92e233d00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b6002816003811115611214576112146124c9565b0361124b576040517f15a8123200000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b600381600381111561125f5761125f6124c9565b03611296576040517f163faaa100000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b60035f81546112a4906125cd565b918290555091506112b782868686611eb1565b509392505050565b5f808080808515806112d2575060035486115b15611309576040517f8b7114df00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f8681526006602090815260408083208151606081018352905473ffffffffffffffffffffffffffffffffffffffff8116825274010000000000000000000000000000000000000000810460ff169382019390935275010000000000000000000000000000000000000000009092046affffffffffffffffffffff16908201529061139382612050565b5f89815260056020908152604090912054845191850151929350916113b88385612523565b919b909a50909850919650945092505050565b73ffffffffffffffffffffffffffffffffffffffff81165f9081526007602090815260409182902080548351818402810184019094528084526060939283018282801561143557602002820191905f5260205f20905b815481526020019060010190808311611421575b50505050509050919050565b81158061144f575060035482115b15611486576040517f8b7114df00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f828152600660205260409020805473ffffffffffffffffffffffffffffffffffffffff1633146114e3576040517fd08a05d500000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b73ffffffffffffffffffffffffffffffffffffffff8216611530576040517fd92e233d00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b73ffffffffffffffffffffffffffffffffffffffff82165f9081526007602052604090206002548154750100000000000000000000000000000000000000000090910463ffffffff16116115b0576040517f163faaa100000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b335f90815260076020526040812080549091906115cf90600190612523565b90505f5b81811161166c57868382815481106115ed576115ed612631565b905f5260205f2001540361165c5782828154811061160d5761160d612631565b905f5260205f20015483828154811061162857611628612631565b905f5260205f200181905550828054806116445761164461265e565b600190038181905f5260205f20015f9055905561166c565b611665816125cd565b90506115d3565b5082546001810184555f8481526020812090910187905584547fffffffffffffffffffffffff00000000000000000000000000000000000000001673ffffffffffffffffffffffffffffffffffffffff871690811786556040519091339189917f0ea8df787dde63a7bdc34d17097adf25749a3521f660e92dabdff8d6ee91d18a91a4505050505050565b5f5473ffffffffffffffffffffffffffffffffffffffff163314611747576040517f30cd747100000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b620186a063ffffffff8216111561178a576040517fe5f127cc00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b60ff82165f908152600a6020526040812080547fffffffffffffffffff00000000ffffffffffffffffffffffffffffffffffffff1673010000000000000000000000000000000000000063ffffffff851602179055600254611813907b01000000000000000000000000000000000000000000000000000000900464ffffffffff16600161268b565b600280547affffffffffffffffffffffffffffffffffffffffffffffffffffff167b0100000000000000000000000000000000000000000000000000000064ffffffffff8416908102919091179091556040805163ffffffff86168152602081019290925291925060ff8516917fee1f35cfca53a670436572e2d921fe17f5b0c19a481eaba34f028f496ebdc1da910160405180910390a2505050565b60ff5f5c16156118ec576040517fb5dfd9e500000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b60015f805c7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff00168217905d50821580611926575060035483115b1561195d576040517f8b7114df00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f838152600660209081526040918290208251606081018452905473ffffffffffffffffffffffffffffffffffffffff811680835274010000000000000000000000000000000000000000820460ff1693830193909352750100000000000000000000000000000000000000000090046affffffffffffffffffffff1692810192909252338114611a1a576040517fd08a05d500000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b73ffffffffffffffffffffffffffffffffffffffff8416611a67576040517fd92e233d00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f8581526005602052604090205480611a7f84612050565b611a899190612523565b841115611ac2576040517ff4d678b800000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b611acc848261254d565b5f8781526005602052604081209190915560048054869290611aef908490612523565b90915550506040805173ffffffffffffffffffffffffffffffffffffffff87811682526020820187905284169188917fe5df19de43c8c04fd192bc68e484b2593570925fbb6ad8c07ccafbc2aa5c37a1910160405180910390a35f8573ffffffffffffffffffffffffffffffffffffffff16856040515f6040518083038185875af1925050503d805f8114611b9f576040519150601f19603f3d011682016040523d82523d5f602084013e611ba4565b606091505b5050905080611bdf576040517f90b8ec1800000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b505f92505050805c7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff0016815d50505050565b6001545f90819073ffffffffffffffffffffffffffffffffffffffff163314611c66576040517ff8d2906c00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b60025474010000000000000000000000000000000000000000900460ff1615611cbb576040517feb56075600000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b6003546002547501000000000000000000000000000000000000000000900463ffffffff16611ceb82600161254d565b93505f5b85811015611e035736878783818110611d0a57611d0a612631565b6060029190910191505f9050611d31611d26602084018461237b565b836040013586611e2c565b90505f816003811115611d4657611d466124c9565b14611dc257611d58602083018361237b565b73ffffffffffffffffffffffffffffffffffffffff16604083018035907fdc1a1b4abcc6fe27fa6a694dcf0daf6c1c686c83e3a1692c309e948ff1130f8890611da4906020870161241d565b84604051611db39291906126a8565b60405180910390a35050611dfb565b611df8611dce866125cd565b955085611dde602085018561237b565b611dee604086016020870161241d565b8560400135611eb1565b50505b600101611cef565b5083611e1083600161254d565b611e1a9190612523565b92508160038190555050509250929050565b5f73ffffffffffffffffffffffffffffffffffffffff8416611e5057506001611eaa565b5f8381526008602052604090205460ff1615611e6e57506002611eaa565b73ffffffffffffffffffffffffffffffffffffffff84165f9081526007602052604090205463ffffffff831611611ea757506003611eaa565b505f5b9392505050565b5f8181526008602090815260409182902080547fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff00166001908117909155825160608101845273ffffffffffffffffffffffffffffffffffffffff8716815260ff8616928101929092529091820190611f2a908590612096565b6affffffffffffffffffffff9081169091525f86815260066020908152604080832085518154878501519784015173ffffffffffffffffffffffffffffffffffffffff9283167fffffffffffffffffffffff000000000000000000000000000000000000000000909216919091177401000000000000000000000000000000000000000060ff998a16021774ffffffffffffffffffffffffffffffffffffffffff1675010000000000000000000000000000000000000000009190971602959095179055928716808352600782528383208054600181018255908452928290209092018890558251938616845283018490529186917fe0246eb77c0b519c6b2b3c944f062143b56003b0f9bd5dd1d7a03ccf84544c1a910160405180910390a350505050565b60408082015160208084015160ff165f908152600a9091529182205461208391906affffffffffffffffffffff166126cf565b6affffffffffffffffffffff1692915050565b60ff82165f908152600a6020526040812080546b010000000000000000000000900467ffffffffffffffff1682036121595760025481547fffffffffffffff0000ffffffffffffffffffffffffffffffffffffffffffffff1679010000000000000000000000000000000000000000000000000090910461ffff16770100000000000000000000000000000000000000000000000217815561213c60ff851660016126f2565b600260196101000a81548161ffff021916908361ffff1602179055505b805483908290600b906121869084906b010000000000000000000000900467ffffffffffffffff1661270c565b825467ffffffffffffffff9182166101009390930a928302919092021990911617905550546affffffffffffffffffffff1690505b92915050565b5f602082840312156121d1575f5ffd5b81358015158114611eaa575f5ffd5b5f602082840312156121f0575f5ffd5b5035919050565b803563ffffffff8116811461220a575f5ffd5b919050565b5f6020828403121561221f575f5ffd5b611eaa826121f7565b5f5f5f5f5f60a0868803121561223c575f5ffd5b85359450602086013560028110612251575f5ffd5b93506040860135925060608601359150608086013567ffffffffffffffff8116811461227b575f5ffd5b809150509295509295909350565b803573ffffffffffffffffffffffffffffffffffffffff8116811461220a575f5ffd5b5f5f5f606084860312156122be575f5ffd5b6122c784612289565b92506122d560208501612289565b91506122e360408501612289565b90509250925092565b602080825282518282018190525f918401906040840190835b8181101561232657835160ff16835260209384019390920191600101612305565b509095945050505050565b803560ff8116811461220a575f5ffd5b5f5f5f60608486031215612353575f5ffd5b61235c84612289565b925061236a60208501612331565b929592945050506040919091013590565b5f6020828403121561238b575f5ffd5b611eaa82612289565b602080825282518282018190525f918401906040840190835b818110156123265783518352602093840193909201916001016123ad565b5f5f604083850312156123dc575f5ffd5b823591506123ec60208401612289565b90509250929050565b5f5f60408385031215612406575f5ffd5b61240f83612331565b91506123ec602084016121f7565b5f6020828403121561242d575f5ffd5b611eaa82612331565b5f5f5f60608486031215612448575f5ffd5b8335925061236a60208501612289565b5f5f60208385031215612469575f5ffd5b823567ffffffffffffffff81111561247f575f5ffd5b8301601f8101851361248f575f5ffd5b803567ffffffffffffffff8111156124a5575f5ffd5b8560206060830284010111156124b9575f5ffd5b6020919091019590945092505050565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52602160045260245ffd5b7f4e487b71000000000000000000000000000000000000000000000000000000005f52601160045260245ffd5b818103818111156121bb576121bb6124f6565b80820281158282048414176121bb576121bb6124f6565b808201808211156121bb576121bb6124f6565b5f82612593577f4e487b71000000000000000000000000000000000000000000000000000000005f52601260045260245ffd5b500490565b60a08101600287106125ac576125ac6124c9565b95815260208101949094526040840192909252606083015260809091015290565b5f7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff82036125fd576125fd6124f6565b5060010190565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52604160045260245ffd5b7f4e487b71000000000000000000000000000000000000000000000000000000005f52603260045260245ffd5b7f4e487b71000000000000000000000000000000000000000000000000000000005f52603160045260245ffd5b64ffffffffff81811683821601908111156121bb576121bb6124f6565b60ff8316815260408101600483106126c2576126c26124c9565b8260208301529392505050565b6affffffffffffffffffffff82811682821603908111156121bb576121bb6124f6565b61ffff81811683821601908111156121bb576121bb6124f6565b67ffffffffffffffff81811683821601908111156121bb576121bb6124f656fea264697066735822122097a8542b67672d00445b0eb845c1e70c65fb9e2b81a2a121490b3c5d0701e04a64736f6c63430008250033",
}

// NodeFactory is an auto generated Go binding around an Ethereum contract.
type NodeFactory struct {
	abi abi.ABI
}

// GetABI returns the ABI associated with this contract binding.
func (c *NodeFactory) GetABI() abi.ABI {
	return c.abi
}

// NewNodeFactory creates a new instance of NodeFactory.
func NewNodeFactory() *NodeFactory {
	parsed, err := NodeFactoryMetaData.ParseABI()
	if err != nil {
		panic(errors.New("invalid ABI: " + err.Error()))
	}
	return &NodeFactory{abi: *parsed}
}

// Instance creates a wrapper for a deployed contract instance at the given address.
// Use this to create the instance object passed to abigen v2 library functions Call, Transact, etc.
func (c *NodeFactory) Instance(backend bind.ContractBackend, addr common.Address) *bind.BoundContract {
	return bind.NewBoundContract(addr, c.abi, backend, backend, backend)
}

// PackConstructor is the Go binding used to pack the parameters required for
// contract deployment.
//
// Solidity: constructor(address minter_, address distributor_, uint32 maxPerWallet_) returns()
func (nodeFactory *NodeFactory) PackConstructor(minter_ common.Address, distributor_ common.Address, maxPerWallet_ uint32) []byte {
	enc, err := nodeFactory.abi.Pack("", minter_, distributor_, maxPerWallet_)
	if err != nil {
		panic(err)
	}
	return enc
}

// PackMAXWEIGHTBPS is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x03acaa99.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function MAX_WEIGHT_BPS() view returns(uint32)
func (nodeFactory *NodeFactory) PackMAXWEIGHTBPS() []byte {
	enc, err := nodeFactory.abi.Pack("MAX_WEIGHT_BPS")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMAXWEIGHTBPS is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x03acaa99.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function MAX_WEIGHT_BPS() view returns(uint32)
func (nodeFactory *NodeFactory) TryPackMAXWEIGHTBPS() ([]byte, error) {
	return nodeFactory.abi.Pack("MAX_WEIGHT_BPS")
}

// UnpackMAXWEIGHTBPS is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x03acaa99.
//
// Solidity: function MAX_WEIGHT_BPS() view returns(uint32)
func (nodeFactory *NodeFactory) UnpackMAXWEIGHTBPS(data []byte) (uint32, error) {
	out, err := nodeFactory.abi.Unpack("MAX_WEIGHT_BPS", data)
	if err != nil {
		return *new(uint32), err
	}
	out0 := *abi.ConvertType(out[0], new(uint32)).(*uint32)
	return out0, nil
}

// PackDistribute is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x526b80fb.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function distribute(uint256 roundId, uint8 mode, uint256 amount, uint256 nodes, uint64 version) payable returns()
func (nodeFactory *NodeFactory) PackDistribute(roundId *big.Int, mode uint8, amount *big.Int, nodes *big.Int, version uint64) []byte {
	enc, err := nodeFactory.abi.Pack("distribute", roundId, mode, amount, nodes, version)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDistribute is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x526b80fb.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function distribute(uint256 roundId, uint8 mode, uint256 amount, uint256 nodes, uint64 version) payable returns()
func (nodeFactory *NodeFactory) TryPackDistribute(roundId *big.Int, mode uint8, amount *big.Int, nodes *big.Int, version uint64) ([]byte, error) {
	return nodeFactory.abi.Pack("distribute", roundId, mode, amount, nodes, version)
}

// PackDistributor is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xbfe10928.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function distributor() view returns(address)
func (nodeFactory *NodeFactory) PackDistributor() []byte {
	enc, err := nodeFactory.abi.Pack("distributor")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDistributor is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xbfe10928.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function distributor() view returns(address)
func (nodeFactory *NodeFactory) TryPackDistributor() ([]byte, error) {
	return nodeFactory.abi.Pack("distributor")
}

// UnpackDistributor is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xbfe10928.
//
// Solidity: function distributor() view returns(address)
func (nodeFactory *NodeFactory) UnpackDistributor(data []byte) (common.Address, error) {
	out, err := nodeFactory.abi.Unpack("distributor", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackIsSolvent is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5ce23950.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function isSolvent() view returns(bool)
func (nodeFactory *NodeFactory) PackIsSolvent() []byte {
	enc, err := nodeFactory.abi.Pack("isSolvent")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackIsSolvent is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5ce23950.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function isSolvent() view returns(bool)
func (nodeFactory *NodeFactory) TryPackIsSolvent() ([]byte, error) {
	return nodeFactory.abi.Pack("isSolvent")
}

// UnpackIsSolvent is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x5ce23950.
//
// Solidity: function isSolvent() view returns(bool)
func (nodeFactory *NodeFactory) UnpackIsSolvent(data []byte) (bool, error) {
	out, err := nodeFactory.abi.Unpack("isSolvent", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackMaxPerWallet is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x453c2310.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function maxPerWallet() view returns(uint32)
func (nodeFactory *NodeFactory) PackMaxPerWallet() []byte {
	enc, err := nodeFactory.abi.Pack("maxPerWallet")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMaxPerWallet is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x453c2310.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function maxPerWallet() view returns(uint32)
func (nodeFactory *NodeFactory) TryPackMaxPerWallet() ([]byte, error) {
	return nodeFactory.abi.Pack("maxPerWallet")
}

// UnpackMaxPerWallet is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x453c2310.
//
// Solidity: function maxPerWallet() view returns(uint32)
func (nodeFactory *NodeFactory) UnpackMaxPerWallet(data []byte) (uint32, error) {
	out, err := nodeFactory.abi.Unpack("maxPerWallet", data)
	if err != nil {
		return *new(uint32), err
	}
	out0 := *abi.ConvertType(out[0], new(uint32)).(*uint32)
	return out0, nil
}

// PackMint is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x969157f3.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function mint(address to, uint8 tier, bytes32 paymentRef) returns(uint256 id)
func (nodeFactory *NodeFactory) PackMint(to common.Address, tier uint8, paymentRef [32]byte) []byte {
	enc, err := nodeFactory.abi.Pack("mint", to, tier, paymentRef)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMint is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x969157f3.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function mint(address to, uint8 tier, bytes32 paymentRef) returns(uint256 id)
func (nodeFactory *NodeFactory) TryPackMint(to common.Address, tier uint8, paymentRef [32]byte) ([]byte, error) {
	return nodeFactory.abi.Pack("mint", to, tier, paymentRef)
}

// UnpackMint is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x969157f3.
//
// Solidity: function mint(address to, uint8 tier, bytes32 paymentRef) returns(uint256 id)
func (nodeFactory *NodeFactory) UnpackMint(data []byte) (*big.Int, error) {
	out, err := nodeFactory.abi.Unpack("mint", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackMintBatch is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xfbb43599.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function mintBatch((address,uint8,bytes32)[] orders) returns(uint256 firstId, uint256 minted)
func (nodeFactory *NodeFactory) PackMintBatch(orders []NodeFactoryMintOrder) []byte {
	enc, err := nodeFactory.abi.Pack("mintBatch", orders)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMintBatch is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xfbb43599.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function mintBatch((address,uint8,bytes32)[] orders) returns(uint256 firstId, uint256 minted)
func (nodeFactory *NodeFactory) TryPackMintBatch(orders []NodeFactoryMintOrder) ([]byte, error) {
	return nodeFactory.abi.Pack("mintBatch", orders)
}

// MintBatchOutput serves as a container for the return parameters of contract
// method MintBatch.
type MintBatchOutput struct {
	FirstId *big.Int
	Minted  *big.Int
}

// UnpackMintBatch is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xfbb43599.
//
// Solidity: function mintBatch((address,uint8,bytes32)[] orders) returns(uint256 firstId, uint256 minted)
func (nodeFactory *NodeFactory) UnpackMintBatch(data []byte) (MintBatchOutput, error) {
	out, err := nodeFactory.abi.Unpack("mintBatch", data)
	outstruct := new(MintBatchOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.FirstId = abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	outstruct.Minted = abi.ConvertType(out[1], new(big.Int)).(*big.Int)
	return *outstruct, nil
}

// PackMinter is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x07546172.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function minter() view returns(address)
func (nodeFactory *NodeFactory) PackMinter() []byte {
	enc, err := nodeFactory.abi.Pack("minter")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackMinter is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x07546172.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function minter() view returns(address)
func (nodeFactory *NodeFactory) TryPackMinter() ([]byte, error) {
	return nodeFactory.abi.Pack("minter")
}

// UnpackMinter is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x07546172.
//
// Solidity: function minter() view returns(address)
func (nodeFactory *NodeFactory) UnpackMinter(data []byte) (common.Address, error) {
	out, err := nodeFactory.abi.Unpack("minter", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackNodeCount is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6da49b83.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function nodeCount() view returns(uint256)
func (nodeFactory *NodeFactory) PackNodeCount() []byte {
	enc, err := nodeFactory.abi.Pack("nodeCount")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackNodeCount is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x6da49b83.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function nodeCount() view returns(uint256)
func (nodeFactory *NodeFactory) TryPackNodeCount() ([]byte, error) {
	return nodeFactory.abi.Pack("nodeCount")
}

// UnpackNodeCount is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x6da49b83.
//
// Solidity: function nodeCount() view returns(uint256)
func (nodeFactory *NodeFactory) UnpackNodeCount(data []byte) (*big.Int, error) {
	out, err := nodeFactory.abi.Unpack("nodeCount", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackNodeInfo is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb02439ae.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function nodeInfo(uint256 id) view returns(address nodeOwner, uint8 tier, uint256 balance, uint256 credited, uint256 withdrawn)
func (nodeFactory *NodeFactory) PackNodeInfo(id *big.Int) []byte {
	enc, err := nodeFactory.abi.Pack("nodeInfo", id)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackNodeInfo is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb02439ae.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function nodeInfo(uint256 id) view returns(address nodeOwner, uint8 tier, uint256 balance, uint256 credited, uint256 withdrawn)
func (nodeFactory *NodeFactory) TryPackNodeInfo(id *big.Int) ([]byte, error) {
	return nodeFactory.abi.Pack("nodeInfo", id)
}

// NodeInfoOutput serves as a container for the return parameters of contract
// method NodeInfo.
type NodeInfoOutput struct {
	NodeOwner common.Address
	Tier      uint8
	Balance   *big.Int
	Credited  *big.Int
	Withdrawn *big.Int
}

// UnpackNodeInfo is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xb02439ae.
//
// Solidity: function nodeInfo(uint256 id) view returns(address nodeOwner, uint8 tier, uint256 balance, uint256 credited, uint256 withdrawn)
func (nodeFactory *NodeFactory) UnpackNodeInfo(data []byte) (NodeInfoOutput, error) {
	out, err := nodeFactory.abi.Unpack("nodeInfo", data)
	outstruct := new(NodeInfoOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.NodeOwner = *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	outstruct.Tier = *abi.ConvertType(out[1], new(uint8)).(*uint8)
	outstruct.Balance = abi.ConvertType(out[2], new(big.Int)).(*big.Int)
	outstruct.Credited = abi.ConvertType(out[3], new(big.Int)).(*big.Int)
	outstruct.Withdrawn = abi.ConvertType(out[4], new(big.Int)).(*big.Int)
	return *outstruct, nil
}

// PackNodesOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb6d7d164.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function nodesOf(address wallet) view returns(uint256[])
func (nodeFactory *NodeFactory) PackNodesOf(wallet common.Address) []byte {
	enc, err := nodeFactory.abi.Pack("nodesOf", wallet)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackNodesOf is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb6d7d164.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function nodesOf(address wallet) view returns(uint256[])
func (nodeFactory *NodeFactory) TryPackNodesOf(wallet common.Address) ([]byte, error) {
	return nodeFactory.abi.Pack("nodesOf", wallet)
}

// UnpackNodesOf is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xb6d7d164.
//
// Solidity: function nodesOf(address wallet) view returns(uint256[])
func (nodeFactory *NodeFactory) UnpackNodesOf(data []byte) ([]*big.Int, error) {
	out, err := nodeFactory.abi.Unpack("nodesOf", data)
	if err != nil {
		return *new([]*big.Int), err
	}
	out0 := *abi.ConvertType(out[0], new([]*big.Int)).(*[]*big.Int)
	return out0, nil
}

// PackOwner is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8da5cb5b.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function owner() view returns(address)
func (nodeFactory *NodeFactory) PackOwner() []byte {
	enc, err := nodeFactory.abi.Pack("owner")
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
func (nodeFactory *NodeFactory) TryPackOwner() ([]byte, error) {
	return nodeFactory.abi.Pack("owner")
}

// UnpackOwner is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8da5cb5b.
//
// Solidity: function owner() view returns(address)
func (nodeFactory *NodeFactory) UnpackOwner(data []byte) (common.Address, error) {
	out, err := nodeFactory.abi.Unpack("owner", data)
	if err != nil {
		return *new(common.Address), err
	}
	out0 := *abi.ConvertType(out[0], new(common.Address)).(*common.Address)
	return out0, nil
}

// PackPaused is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5c975abb.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function paused() view returns(bool)
func (nodeFactory *NodeFactory) PackPaused() []byte {
	enc, err := nodeFactory.abi.Pack("paused")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPaused is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x5c975abb.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function paused() view returns(bool)
func (nodeFactory *NodeFactory) TryPackPaused() ([]byte, error) {
	return nodeFactory.abi.Pack("paused")
}

// UnpackPaused is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x5c975abb.
//
// Solidity: function paused() view returns(bool)
func (nodeFactory *NodeFactory) UnpackPaused(data []byte) (bool, error) {
	out, err := nodeFactory.abi.Unpack("paused", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackPaymentRefUsed is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8c54ec69.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function paymentRefUsed(bytes32 ) view returns(bool)
func (nodeFactory *NodeFactory) PackPaymentRefUsed(arg0 [32]byte) []byte {
	enc, err := nodeFactory.abi.Pack("paymentRefUsed", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPaymentRefUsed is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8c54ec69.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function paymentRefUsed(bytes32 ) view returns(bool)
func (nodeFactory *NodeFactory) TryPackPaymentRefUsed(arg0 [32]byte) ([]byte, error) {
	return nodeFactory.abi.Pack("paymentRefUsed", arg0)
}

// UnpackPaymentRefUsed is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8c54ec69.
//
// Solidity: function paymentRefUsed(bytes32 ) view returns(bool)
func (nodeFactory *NodeFactory) UnpackPaymentRefUsed(data []byte) (bool, error) {
	out, err := nodeFactory.abi.Unpack("paymentRefUsed", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackPoolCarry is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x89886b32.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function poolCarry() view returns(uint256)
func (nodeFactory *NodeFactory) PackPoolCarry() []byte {
	enc, err := nodeFactory.abi.Pack("poolCarry")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackPoolCarry is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x89886b32.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function poolCarry() view returns(uint256)
func (nodeFactory *NodeFactory) TryPackPoolCarry() ([]byte, error) {
	return nodeFactory.abi.Pack("poolCarry")
}

// UnpackPoolCarry is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x89886b32.
//
// Solidity: function poolCarry() view returns(uint256)
func (nodeFactory *NodeFactory) UnpackPoolCarry(data []byte) (*big.Int, error) {
	out, err := nodeFactory.abi.Unpack("poolCarry", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackRoundUsed is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x266c33c7.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function roundUsed(uint256 ) view returns(bool)
func (nodeFactory *NodeFactory) PackRoundUsed(arg0 *big.Int) []byte {
	enc, err := nodeFactory.abi.Pack("roundUsed", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackRoundUsed is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x266c33c7.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function roundUsed(uint256 ) view returns(bool)
func (nodeFactory *NodeFactory) TryPackRoundUsed(arg0 *big.Int) ([]byte, error) {
	return nodeFactory.abi.Pack("roundUsed", arg0)
}

// UnpackRoundUsed is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x266c33c7.
//
// Solidity: function roundUsed(uint256 ) view returns(bool)
func (nodeFactory *NodeFactory) UnpackRoundUsed(data []byte) (bool, error) {
	out, err := nodeFactory.abi.Unpack("roundUsed", data)
	if err != nil {
		return *new(bool), err
	}
	out0 := *abi.ConvertType(out[0], new(bool)).(*bool)
	return out0, nil
}

// PackSetMaxPerWallet is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3006b543.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setMaxPerWallet(uint32 maxPerWallet_) returns()
func (nodeFactory *NodeFactory) PackSetMaxPerWallet(maxPerWallet uint32) []byte {
	enc, err := nodeFactory.abi.Pack("setMaxPerWallet", maxPerWallet)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetMaxPerWallet is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x3006b543.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setMaxPerWallet(uint32 maxPerWallet_) returns()
func (nodeFactory *NodeFactory) TryPackSetMaxPerWallet(maxPerWallet uint32) ([]byte, error) {
	return nodeFactory.abi.Pack("setMaxPerWallet", maxPerWallet)
}

// PackSetPaused is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x16c38b3c.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setPaused(bool paused_) returns()
func (nodeFactory *NodeFactory) PackSetPaused(paused bool) []byte {
	enc, err := nodeFactory.abi.Pack("setPaused", paused)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetPaused is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x16c38b3c.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setPaused(bool paused_) returns()
func (nodeFactory *NodeFactory) TryPackSetPaused(paused bool) ([]byte, error) {
	return nodeFactory.abi.Pack("setPaused", paused)
}

// PackSetRoles is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x54841e94.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setRoles(address owner_, address minter_, address distributor_) returns()
func (nodeFactory *NodeFactory) PackSetRoles(owner common.Address, minter common.Address, distributor common.Address) []byte {
	enc, err := nodeFactory.abi.Pack("setRoles", owner, minter, distributor)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetRoles is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x54841e94.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setRoles(address owner_, address minter_, address distributor_) returns()
func (nodeFactory *NodeFactory) TryPackSetRoles(owner common.Address, minter common.Address, distributor common.Address) ([]byte, error) {
	return nodeFactory.abi.Pack("setRoles", owner, minter, distributor)
}

// PackSetTierWeight is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xcd52c136.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function setTierWeight(uint8 tier, uint32 weightBps) returns()
func (nodeFactory *NodeFactory) PackSetTierWeight(tier uint8, weightBps uint32) []byte {
	enc, err := nodeFactory.abi.Pack("setTierWeight", tier, weightBps)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackSetTierWeight is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xcd52c136.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function setTierWeight(uint8 tier, uint32 weightBps) returns()
func (nodeFactory *NodeFactory) TryPackSetTierWeight(tier uint8, weightBps uint32) ([]byte, error) {
	return nodeFactory.abi.Pack("setTierWeight", tier, weightBps)
}

// PackTierList is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8e6320bf.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function tierList() view returns(uint8[] list)
func (nodeFactory *NodeFactory) PackTierList() []byte {
	enc, err := nodeFactory.abi.Pack("tierList")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTierList is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x8e6320bf.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function tierList() view returns(uint8[] list)
func (nodeFactory *NodeFactory) TryPackTierList() ([]byte, error) {
	return nodeFactory.abi.Pack("tierList")
}

// UnpackTierList is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x8e6320bf.
//
// Solidity: function tierList() view returns(uint8[] list)
func (nodeFactory *NodeFactory) UnpackTierList(data []byte) ([]uint8, error) {
	out, err := nodeFactory.abi.Unpack("tierList", data)
	if err != nil {
		return *new([]uint8), err
	}
	out0 := *abi.ConvertType(out[0], new([]uint8)).(*[]uint8)
	return out0, nil
}

// PackTiers is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd1d79974.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function tiers(uint8 ) view returns(uint88 perNode, uint64 nodes, uint32 weightBps, uint16 next)
func (nodeFactory *NodeFactory) PackTiers(arg0 uint8) []byte {
	enc, err := nodeFactory.abi.Pack("tiers", arg0)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTiers is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xd1d79974.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function tiers(uint8 ) view returns(uint88 perNode, uint64 nodes, uint32 weightBps, uint16 next)
func (nodeFactory *NodeFactory) TryPackTiers(arg0 uint8) ([]byte, error) {
	return nodeFactory.abi.Pack("tiers", arg0)
}

// TiersOutput serves as a container for the return parameters of contract
// method Tiers.
type TiersOutput struct {
	PerNode   *big.Int
	Nodes     uint64
	WeightBps uint32
	Next      uint16
}

// UnpackTiers is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xd1d79974.
//
// Solidity: function tiers(uint8 ) view returns(uint88 perNode, uint64 nodes, uint32 weightBps, uint16 next)
func (nodeFactory *NodeFactory) UnpackTiers(data []byte) (TiersOutput, error) {
	out, err := nodeFactory.abi.Unpack("tiers", data)
	outstruct := new(TiersOutput)
	if err != nil {
		return *outstruct, err
	}
	outstruct.PerNode = abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	outstruct.Nodes = *abi.ConvertType(out[1], new(uint64)).(*uint64)
	outstruct.WeightBps = *abi.ConvertType(out[2], new(uint32)).(*uint32)
	outstruct.Next = *abi.ConvertType(out[3], new(uint16)).(*uint16)
	return *outstruct, nil
}

// PackTotalOutstanding is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x16078d04.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function totalOutstanding() view returns(uint256)
func (nodeFactory *NodeFactory) PackTotalOutstanding() []byte {
	enc, err := nodeFactory.abi.Pack("totalOutstanding")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTotalOutstanding is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x16078d04.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function totalOutstanding() view returns(uint256)
func (nodeFactory *NodeFactory) TryPackTotalOutstanding() ([]byte, error) {
	return nodeFactory.abi.Pack("totalOutstanding")
}

// UnpackTotalOutstanding is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x16078d04.
//
// Solidity: function totalOutstanding() view returns(uint256)
func (nodeFactory *NodeFactory) UnpackTotalOutstanding(data []byte) (*big.Int, error) {
	out, err := nodeFactory.abi.Unpack("totalOutstanding", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackTotalWithdrawnByNode is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x836de496.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function totalWithdrawnByNode(uint256 id) view returns(uint256)
func (nodeFactory *NodeFactory) PackTotalWithdrawnByNode(id *big.Int) []byte {
	enc, err := nodeFactory.abi.Pack("totalWithdrawnByNode", id)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTotalWithdrawnByNode is the Go binding used to pack the parameters required for calling
// the contract method with ID 0x836de496.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function totalWithdrawnByNode(uint256 id) view returns(uint256)
func (nodeFactory *NodeFactory) TryPackTotalWithdrawnByNode(id *big.Int) ([]byte, error) {
	return nodeFactory.abi.Pack("totalWithdrawnByNode", id)
}

// UnpackTotalWithdrawnByNode is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0x836de496.
//
// Solidity: function totalWithdrawnByNode(uint256 id) view returns(uint256)
func (nodeFactory *NodeFactory) UnpackTotalWithdrawnByNode(data []byte) (*big.Int, error) {
	out, err := nodeFactory.abi.Unpack("totalWithdrawnByNode", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackTransfer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb7760c8f.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function transfer(uint256 id, address to) returns()
func (nodeFactory *NodeFactory) PackTransfer(id *big.Int, to common.Address) []byte {
	enc, err := nodeFactory.abi.Pack("transfer", id, to)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackTransfer is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb7760c8f.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function transfer(uint256 id, address to) returns()
func (nodeFactory *NodeFactory) TryPackTransfer(id *big.Int, to common.Address) ([]byte, error) {
	return nodeFactory.abi.Pack("transfer", id, to)
}

// PackWeightsVersion is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb453eb29.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function weightsVersion() view returns(uint40)
func (nodeFactory *NodeFactory) PackWeightsVersion() []byte {
	enc, err := nodeFactory.abi.Pack("weightsVersion")
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackWeightsVersion is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xb453eb29.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function weightsVersion() view returns(uint40)
func (nodeFactory *NodeFactory) TryPackWeightsVersion() ([]byte, error) {
	return nodeFactory.abi.Pack("weightsVersion")
}

// UnpackWeightsVersion is the Go binding that unpacks the parameters returned
// from invoking the contract method with ID 0xb453eb29.
//
// Solidity: function weightsVersion() view returns(uint40)
func (nodeFactory *NodeFactory) UnpackWeightsVersion(data []byte) (*big.Int, error) {
	out, err := nodeFactory.abi.Unpack("weightsVersion", data)
	if err != nil {
		return new(big.Int), err
	}
	out0 := abi.ConvertType(out[0], new(big.Int)).(*big.Int)
	return out0, nil
}

// PackWithdraw is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe63697c8.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function withdraw(uint256 id, address to, uint256 amount) returns()
func (nodeFactory *NodeFactory) PackWithdraw(id *big.Int, to common.Address, amount *big.Int) []byte {
	enc, err := nodeFactory.abi.Pack("withdraw", id, to, amount)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackWithdraw is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xe63697c8.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function withdraw(uint256 id, address to, uint256 amount) returns()
func (nodeFactory *NodeFactory) TryPackWithdraw(id *big.Int, to common.Address, amount *big.Int) ([]byte, error) {
	return nodeFactory.abi.Pack("withdraw", id, to, amount)
}

// NodeFactoryDistributed represents a Distributed event raised by the NodeFactory contract.
type NodeFactoryDistributed struct {
	RoundId *big.Int
	Mode    uint8
	Amount  *big.Int
	Nodes   *big.Int
	Total   *big.Int
	Carry   *big.Int
	Raw     *types.Log // Blockchain specific contextual infos
}

const NodeFactoryDistributedEventName = "Distributed"

// ContractEventName returns the user-defined event name.
func (NodeFactoryDistributed) ContractEventName() string {
	return NodeFactoryDistributedEventName
}

// UnpackDistributedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Distributed(uint256 indexed roundId, uint8 mode, uint256 amount, uint256 nodes, uint256 total, uint256 carry)
func (nodeFactory *NodeFactory) UnpackDistributedEvent(log *types.Log) (*NodeFactoryDistributed, error) {
	event := "Distributed"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != nodeFactory.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(NodeFactoryDistributed)
	if len(log.Data) > 0 {
		if err := nodeFactory.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range nodeFactory.abi.Events[event].Inputs {
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

// NodeFactoryMaxPerWalletChanged represents a MaxPerWalletChanged event raised by the NodeFactory contract.
type NodeFactoryMaxPerWalletChanged struct {
	MaxPerWallet uint32
	Raw          *types.Log // Blockchain specific contextual infos
}

const NodeFactoryMaxPerWalletChangedEventName = "MaxPerWalletChanged"

// ContractEventName returns the user-defined event name.
func (NodeFactoryMaxPerWalletChanged) ContractEventName() string {
	return NodeFactoryMaxPerWalletChangedEventName
}

// UnpackMaxPerWalletChangedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event MaxPerWalletChanged(uint32 maxPerWallet)
func (nodeFactory *NodeFactory) UnpackMaxPerWalletChangedEvent(log *types.Log) (*NodeFactoryMaxPerWalletChanged, error) {
	event := "MaxPerWalletChanged"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != nodeFactory.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(NodeFactoryMaxPerWalletChanged)
	if len(log.Data) > 0 {
		if err := nodeFactory.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range nodeFactory.abi.Events[event].Inputs {
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

// NodeFactoryMintSkipped represents a MintSkipped event raised by the NodeFactory contract.
type NodeFactoryMintSkipped struct {
	PaymentRef [32]byte
	Owner      common.Address
	Tier       uint8
	Reason     uint8
	Raw        *types.Log // Blockchain specific contextual infos
}

const NodeFactoryMintSkippedEventName = "MintSkipped"

// ContractEventName returns the user-defined event name.
func (NodeFactoryMintSkipped) ContractEventName() string {
	return NodeFactoryMintSkippedEventName
}

// UnpackMintSkippedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event MintSkipped(bytes32 indexed paymentRef, address indexed owner, uint8 tier, uint8 reason)
func (nodeFactory *NodeFactory) UnpackMintSkippedEvent(log *types.Log) (*NodeFactoryMintSkipped, error) {
	event := "MintSkipped"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != nodeFactory.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(NodeFactoryMintSkipped)
	if len(log.Data) > 0 {
		if err := nodeFactory.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range nodeFactory.abi.Events[event].Inputs {
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

// NodeFactoryNodeMinted represents a NodeMinted event raised by the NodeFactory contract.
type NodeFactoryNodeMinted struct {
	Id         *big.Int
	Owner      common.Address
	Tier       uint8
	PaymentRef [32]byte
	Raw        *types.Log // Blockchain specific contextual infos
}

const NodeFactoryNodeMintedEventName = "NodeMinted"

// ContractEventName returns the user-defined event name.
func (NodeFactoryNodeMinted) ContractEventName() string {
	return NodeFactoryNodeMintedEventName
}

// UnpackNodeMintedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event NodeMinted(uint256 indexed id, address indexed owner, uint8 tier, bytes32 paymentRef)
func (nodeFactory *NodeFactory) UnpackNodeMintedEvent(log *types.Log) (*NodeFactoryNodeMinted, error) {
	event := "NodeMinted"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != nodeFactory.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(NodeFactoryNodeMinted)
	if len(log.Data) > 0 {
		if err := nodeFactory.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range nodeFactory.abi.Events[event].Inputs {
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

// NodeFactoryPaused represents a Paused event raised by the NodeFactory contract.
type NodeFactoryPaused struct {
	Paused bool
	Raw    *types.Log // Blockchain specific contextual infos
}

const NodeFactoryPausedEventName = "Paused"

// ContractEventName returns the user-defined event name.
func (NodeFactoryPaused) ContractEventName() string {
	return NodeFactoryPausedEventName
}

// UnpackPausedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Paused(bool paused)
func (nodeFactory *NodeFactory) UnpackPausedEvent(log *types.Log) (*NodeFactoryPaused, error) {
	event := "Paused"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != nodeFactory.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(NodeFactoryPaused)
	if len(log.Data) > 0 {
		if err := nodeFactory.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range nodeFactory.abi.Events[event].Inputs {
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

// NodeFactoryRolesChanged represents a RolesChanged event raised by the NodeFactory contract.
type NodeFactoryRolesChanged struct {
	Owner       common.Address
	Minter      common.Address
	Distributor common.Address
	Raw         *types.Log // Blockchain specific contextual infos
}

const NodeFactoryRolesChangedEventName = "RolesChanged"

// ContractEventName returns the user-defined event name.
func (NodeFactoryRolesChanged) ContractEventName() string {
	return NodeFactoryRolesChangedEventName
}

// UnpackRolesChangedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event RolesChanged(address owner, address minter, address distributor)
func (nodeFactory *NodeFactory) UnpackRolesChangedEvent(log *types.Log) (*NodeFactoryRolesChanged, error) {
	event := "RolesChanged"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != nodeFactory.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(NodeFactoryRolesChanged)
	if len(log.Data) > 0 {
		if err := nodeFactory.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range nodeFactory.abi.Events[event].Inputs {
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

// NodeFactoryTierWeightChanged represents a TierWeightChanged event raised by the NodeFactory contract.
type NodeFactoryTierWeightChanged struct {
	Tier           uint8
	WeightBps      uint32
	WeightsVersion *big.Int
	Raw            *types.Log // Blockchain specific contextual infos
}

const NodeFactoryTierWeightChangedEventName = "TierWeightChanged"

// ContractEventName returns the user-defined event name.
func (NodeFactoryTierWeightChanged) ContractEventName() string {
	return NodeFactoryTierWeightChangedEventName
}

// UnpackTierWeightChangedEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event TierWeightChanged(uint8 indexed tier, uint32 weightBps, uint40 weightsVersion)
func (nodeFactory *NodeFactory) UnpackTierWeightChangedEvent(log *types.Log) (*NodeFactoryTierWeightChanged, error) {
	event := "TierWeightChanged"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != nodeFactory.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(NodeFactoryTierWeightChanged)
	if len(log.Data) > 0 {
		if err := nodeFactory.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range nodeFactory.abi.Events[event].Inputs {
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

// NodeFactoryTransferred represents a Transferred event raised by the NodeFactory contract.
type NodeFactoryTransferred struct {
	Id   *big.Int
	From common.Address
	To   common.Address
	Raw  *types.Log // Blockchain specific contextual infos
}

const NodeFactoryTransferredEventName = "Transferred"

// ContractEventName returns the user-defined event name.
func (NodeFactoryTransferred) ContractEventName() string {
	return NodeFactoryTransferredEventName
}

// UnpackTransferredEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Transferred(uint256 indexed id, address indexed from, address indexed to)
func (nodeFactory *NodeFactory) UnpackTransferredEvent(log *types.Log) (*NodeFactoryTransferred, error) {
	event := "Transferred"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != nodeFactory.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(NodeFactoryTransferred)
	if len(log.Data) > 0 {
		if err := nodeFactory.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range nodeFactory.abi.Events[event].Inputs {
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

// NodeFactoryWithdrawn represents a Withdrawn event raised by the NodeFactory contract.
type NodeFactoryWithdrawn struct {
	Id     *big.Int
	Owner  common.Address
	To     common.Address
	Amount *big.Int
	Raw    *types.Log // Blockchain specific contextual infos
}

const NodeFactoryWithdrawnEventName = "Withdrawn"

// ContractEventName returns the user-defined event name.
func (NodeFactoryWithdrawn) ContractEventName() string {
	return NodeFactoryWithdrawnEventName
}

// UnpackWithdrawnEvent is the Go binding that unpacks the event data emitted
// by contract.
//
// Solidity: event Withdrawn(uint256 indexed id, address indexed owner, address to, uint256 amount)
func (nodeFactory *NodeFactory) UnpackWithdrawnEvent(log *types.Log) (*NodeFactoryWithdrawn, error) {
	event := "Withdrawn"
	if len(log.Topics) == 0 {
		return nil, bind.ErrNoEventSignature
	}
	if log.Topics[0] != nodeFactory.abi.Events[event].ID {
		return nil, bind.ErrEventSignatureMismatch
	}
	out := new(NodeFactoryWithdrawn)
	if len(log.Data) > 0 {
		if err := nodeFactory.abi.UnpackIntoInterface(out, event, log.Data); err != nil {
			return nil, err
		}
	}
	var indexed abi.Arguments
	for _, arg := range nodeFactory.abi.Events[event].Inputs {
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
func (nodeFactory *NodeFactory) UnpackError(raw []byte) (any, error) {
	if bytes.Equal(raw[:4], nodeFactory.abi.Errors["AmountTooLarge"].ID.Bytes()[:4]) {
		return nodeFactory.UnpackAmountTooLargeError(raw[4:])
	}
	if bytes.Equal(raw[:4], nodeFactory.abi.Errors["Insolvent"].ID.Bytes()[:4]) {
		return nodeFactory.UnpackInsolventError(raw[4:])
	}
	if bytes.Equal(raw[:4], nodeFactory.abi.Errors["InsufficientBalance"].ID.Bytes()[:4]) {
		return nodeFactory.UnpackInsufficientBalanceError(raw[4:])
	}
	if bytes.Equal(raw[:4], nodeFactory.abi.Errors["MintingPaused"].ID.Bytes()[:4]) {
		return nodeFactory.UnpackMintingPausedError(raw[4:])
	}
	if bytes.Equal(raw[:4], nodeFactory.abi.Errors["NodeCountChanged"].ID.Bytes()[:4]) {
		return nodeFactory.UnpackNodeCountChangedError(raw[4:])
	}
	if bytes.Equal(raw[:4], nodeFactory.abi.Errors["NotDistributor"].ID.Bytes()[:4]) {
		return nodeFactory.UnpackNotDistributorError(raw[4:])
	}
	if bytes.Equal(raw[:4], nodeFactory.abi.Errors["NotMinter"].ID.Bytes()[:4]) {
		return nodeFactory.UnpackNotMinterError(raw[4:])
	}
	if bytes.Equal(raw[:4], nodeFactory.abi.Errors["NotNodeOwner"].ID.Bytes()[:4]) {
		return nodeFactory.UnpackNotNodeOwnerError(raw[4:])
	}
	if bytes.Equal(raw[:4], nodeFactory.abi.Errors["NotOwner"].ID.Bytes()[:4]) {
		return nodeFactory.UnpackNotOwnerError(raw[4:])
	}
	if bytes.Equal(raw[:4], nodeFactory.abi.Errors["PaymentRefUsed"].ID.Bytes()[:4]) {
		return nodeFactory.UnpackPaymentRefUsedError(raw[4:])
	}
	if bytes.Equal(raw[:4], nodeFactory.abi.Errors["Reentered"].ID.Bytes()[:4]) {
		return nodeFactory.UnpackReenteredError(raw[4:])
	}
	if bytes.Equal(raw[:4], nodeFactory.abi.Errors["RoundUsed"].ID.Bytes()[:4]) {
		return nodeFactory.UnpackRoundUsedError(raw[4:])
	}
	if bytes.Equal(raw[:4], nodeFactory.abi.Errors["TransferFailed"].ID.Bytes()[:4]) {
		return nodeFactory.UnpackTransferFailedError(raw[4:])
	}
	if bytes.Equal(raw[:4], nodeFactory.abi.Errors["UnknownNode"].ID.Bytes()[:4]) {
		return nodeFactory.UnpackUnknownNodeError(raw[4:])
	}
	if bytes.Equal(raw[:4], nodeFactory.abi.Errors["WalletFull"].ID.Bytes()[:4]) {
		return nodeFactory.UnpackWalletFullError(raw[4:])
	}
	if bytes.Equal(raw[:4], nodeFactory.abi.Errors["WeightTooLarge"].ID.Bytes()[:4]) {
		return nodeFactory.UnpackWeightTooLargeError(raw[4:])
	}
	if bytes.Equal(raw[:4], nodeFactory.abi.Errors["WeightsChanged"].ID.Bytes()[:4]) {
		return nodeFactory.UnpackWeightsChangedError(raw[4:])
	}
	if bytes.Equal(raw[:4], nodeFactory.abi.Errors["ZeroAddress"].ID.Bytes()[:4]) {
		return nodeFactory.UnpackZeroAddressError(raw[4:])
	}
	return nil, errors.New("Unknown error")
}

// NodeFactoryAmountTooLarge represents a AmountTooLarge error raised by the NodeFactory contract.
type NodeFactoryAmountTooLarge struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error AmountTooLarge()
func NodeFactoryAmountTooLargeErrorID() common.Hash {
	return common.HexToHash("0x06250401c072295744520da9e60a3a29ab28ceb9fda5d792222d5242d22e8a44")
}

// UnpackAmountTooLargeError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error AmountTooLarge()
func (nodeFactory *NodeFactory) UnpackAmountTooLargeError(raw []byte) (*NodeFactoryAmountTooLarge, error) {
	out := new(NodeFactoryAmountTooLarge)
	if err := nodeFactory.abi.UnpackIntoInterface(out, "AmountTooLarge", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// NodeFactoryInsolvent represents a Insolvent error raised by the NodeFactory contract.
type NodeFactoryInsolvent struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error Insolvent()
func NodeFactoryInsolventErrorID() common.Hash {
	return common.HexToHash("0xfc220038dd9537de7655560b6afd06dcea02819c57f7ce0a390d00abb0854ca4")
}

// UnpackInsolventError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error Insolvent()
func (nodeFactory *NodeFactory) UnpackInsolventError(raw []byte) (*NodeFactoryInsolvent, error) {
	out := new(NodeFactoryInsolvent)
	if err := nodeFactory.abi.UnpackIntoInterface(out, "Insolvent", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// NodeFactoryInsufficientBalance represents a InsufficientBalance error raised by the NodeFactory contract.
type NodeFactoryInsufficientBalance struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error InsufficientBalance()
func NodeFactoryInsufficientBalanceErrorID() common.Hash {
	return common.HexToHash("0xf4d678b8ce6b5157126b1484a53523762a93571537a7d5ae97d8014a44715c94")
}

// UnpackInsufficientBalanceError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error InsufficientBalance()
func (nodeFactory *NodeFactory) UnpackInsufficientBalanceError(raw []byte) (*NodeFactoryInsufficientBalance, error) {
	out := new(NodeFactoryInsufficientBalance)
	if err := nodeFactory.abi.UnpackIntoInterface(out, "InsufficientBalance", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// NodeFactoryMintingPaused represents a MintingPaused error raised by the NodeFactory contract.
type NodeFactoryMintingPaused struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error MintingPaused()
func NodeFactoryMintingPausedErrorID() common.Hash {
	return common.HexToHash("0xeb560756bd0f0f241c73914ffad902460a345bba8464cc80dc17a58231eed61a")
}

// UnpackMintingPausedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error MintingPaused()
func (nodeFactory *NodeFactory) UnpackMintingPausedError(raw []byte) (*NodeFactoryMintingPaused, error) {
	out := new(NodeFactoryMintingPaused)
	if err := nodeFactory.abi.UnpackIntoInterface(out, "MintingPaused", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// NodeFactoryNodeCountChanged represents a NodeCountChanged error raised by the NodeFactory contract.
type NodeFactoryNodeCountChanged struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NodeCountChanged()
func NodeFactoryNodeCountChangedErrorID() common.Hash {
	return common.HexToHash("0x57827b430a49010d46d53cf96febf65bd17681759f358d6a46203afc14ed82a4")
}

// UnpackNodeCountChangedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NodeCountChanged()
func (nodeFactory *NodeFactory) UnpackNodeCountChangedError(raw []byte) (*NodeFactoryNodeCountChanged, error) {
	out := new(NodeFactoryNodeCountChanged)
	if err := nodeFactory.abi.UnpackIntoInterface(out, "NodeCountChanged", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// NodeFactoryNotDistributor represents a NotDistributor error raised by the NodeFactory contract.
type NodeFactoryNotDistributor struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotDistributor()
func NodeFactoryNotDistributorErrorID() common.Hash {
	return common.HexToHash("0x385296d54bb3b82fd04c7cf3936a7e3459f4d2d0473ec1c99df104a6d1149f8a")
}

// UnpackNotDistributorError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotDistributor()
func (nodeFactory *NodeFactory) UnpackNotDistributorError(raw []byte) (*NodeFactoryNotDistributor, error) {
	out := new(NodeFactoryNotDistributor)
	if err := nodeFactory.abi.UnpackIntoInterface(out, "NotDistributor", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// NodeFactoryNotMinter represents a NotMinter error raised by the NodeFactory contract.
type NodeFactoryNotMinter struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotMinter()
func NodeFactoryNotMinterErrorID() common.Hash {
	return common.HexToHash("0xf8d2906ce84a96639fbeeedc84c13a0873e5d5e48a49a084ea78b44722550223")
}

// UnpackNotMinterError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotMinter()
func (nodeFactory *NodeFactory) UnpackNotMinterError(raw []byte) (*NodeFactoryNotMinter, error) {
	out := new(NodeFactoryNotMinter)
	if err := nodeFactory.abi.UnpackIntoInterface(out, "NotMinter", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// NodeFactoryNotNodeOwner represents a NotNodeOwner error raised by the NodeFactory contract.
type NodeFactoryNotNodeOwner struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotNodeOwner()
func NodeFactoryNotNodeOwnerErrorID() common.Hash {
	return common.HexToHash("0xd08a05d51d303814b99e3aefddb895579ea7b45da6671d00af352a86e327bd6c")
}

// UnpackNotNodeOwnerError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotNodeOwner()
func (nodeFactory *NodeFactory) UnpackNotNodeOwnerError(raw []byte) (*NodeFactoryNotNodeOwner, error) {
	out := new(NodeFactoryNotNodeOwner)
	if err := nodeFactory.abi.UnpackIntoInterface(out, "NotNodeOwner", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// NodeFactoryNotOwner represents a NotOwner error raised by the NodeFactory contract.
type NodeFactoryNotOwner struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error NotOwner()
func NodeFactoryNotOwnerErrorID() common.Hash {
	return common.HexToHash("0x30cd74712f59d478562d48e2d35de830db72c60a63dd08ae59199eec990b5bc4")
}

// UnpackNotOwnerError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error NotOwner()
func (nodeFactory *NodeFactory) UnpackNotOwnerError(raw []byte) (*NodeFactoryNotOwner, error) {
	out := new(NodeFactoryNotOwner)
	if err := nodeFactory.abi.UnpackIntoInterface(out, "NotOwner", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// NodeFactoryPaymentRefUsed represents a PaymentRefUsed error raised by the NodeFactory contract.
type NodeFactoryPaymentRefUsed struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error PaymentRefUsed()
func NodeFactoryPaymentRefUsedErrorID() common.Hash {
	return common.HexToHash("0x15a8123242c29389ee10f87145ab7f15e90b656d9f86c8628379cfbd8f64b085")
}

// UnpackPaymentRefUsedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error PaymentRefUsed()
func (nodeFactory *NodeFactory) UnpackPaymentRefUsedError(raw []byte) (*NodeFactoryPaymentRefUsed, error) {
	out := new(NodeFactoryPaymentRefUsed)
	if err := nodeFactory.abi.UnpackIntoInterface(out, "PaymentRefUsed", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// NodeFactoryReentered represents a Reentered error raised by the NodeFactory contract.
type NodeFactoryReentered struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error Reentered()
func NodeFactoryReenteredErrorID() common.Hash {
	return common.HexToHash("0xb5dfd9e53a10d4d747ca3de749b98baf23546e800cbacdb1dbc28233e586d1ee")
}

// UnpackReenteredError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error Reentered()
func (nodeFactory *NodeFactory) UnpackReenteredError(raw []byte) (*NodeFactoryReentered, error) {
	out := new(NodeFactoryReentered)
	if err := nodeFactory.abi.UnpackIntoInterface(out, "Reentered", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// NodeFactoryRoundUsed represents a RoundUsed error raised by the NodeFactory contract.
type NodeFactoryRoundUsed struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error RoundUsed()
func NodeFactoryRoundUsedErrorID() common.Hash {
	return common.HexToHash("0x0b3d339fa67a4c28151f727545e5aa025d4f89652a457e6b6ab59ac911684aa4")
}

// UnpackRoundUsedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error RoundUsed()
func (nodeFactory *NodeFactory) UnpackRoundUsedError(raw []byte) (*NodeFactoryRoundUsed, error) {
	out := new(NodeFactoryRoundUsed)
	if err := nodeFactory.abi.UnpackIntoInterface(out, "RoundUsed", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// NodeFactoryTransferFailed represents a TransferFailed error raised by the NodeFactory contract.
type NodeFactoryTransferFailed struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error TransferFailed()
func NodeFactoryTransferFailedErrorID() common.Hash {
	return common.HexToHash("0x90b8ec1877afffd816d05d9b13947f3ff18ec5851c38bad15ec2b710f92391b1")
}

// UnpackTransferFailedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error TransferFailed()
func (nodeFactory *NodeFactory) UnpackTransferFailedError(raw []byte) (*NodeFactoryTransferFailed, error) {
	out := new(NodeFactoryTransferFailed)
	if err := nodeFactory.abi.UnpackIntoInterface(out, "TransferFailed", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// NodeFactoryUnknownNode represents a UnknownNode error raised by the NodeFactory contract.
type NodeFactoryUnknownNode struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error UnknownNode()
func NodeFactoryUnknownNodeErrorID() common.Hash {
	return common.HexToHash("0x8b7114df534762bde2d9238443c5e768ab387e51046bc88fe495e2192bff7066")
}

// UnpackUnknownNodeError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error UnknownNode()
func (nodeFactory *NodeFactory) UnpackUnknownNodeError(raw []byte) (*NodeFactoryUnknownNode, error) {
	out := new(NodeFactoryUnknownNode)
	if err := nodeFactory.abi.UnpackIntoInterface(out, "UnknownNode", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// NodeFactoryWalletFull represents a WalletFull error raised by the NodeFactory contract.
type NodeFactoryWalletFull struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error WalletFull()
func NodeFactoryWalletFullErrorID() common.Hash {
	return common.HexToHash("0x163faaa1694a9f5f83b31fadaee0ee55f08f49326e8895e46b4e2b61cba3382f")
}

// UnpackWalletFullError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error WalletFull()
func (nodeFactory *NodeFactory) UnpackWalletFullError(raw []byte) (*NodeFactoryWalletFull, error) {
	out := new(NodeFactoryWalletFull)
	if err := nodeFactory.abi.UnpackIntoInterface(out, "WalletFull", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// NodeFactoryWeightTooLarge represents a WeightTooLarge error raised by the NodeFactory contract.
type NodeFactoryWeightTooLarge struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error WeightTooLarge()
func NodeFactoryWeightTooLargeErrorID() common.Hash {
	return common.HexToHash("0xe5f127ccf5034042c41570d6cca1a2ae4dbf9d58a083b1fa87438c9e9524872f")
}

// UnpackWeightTooLargeError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error WeightTooLarge()
func (nodeFactory *NodeFactory) UnpackWeightTooLargeError(raw []byte) (*NodeFactoryWeightTooLarge, error) {
	out := new(NodeFactoryWeightTooLarge)
	if err := nodeFactory.abi.UnpackIntoInterface(out, "WeightTooLarge", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// NodeFactoryWeightsChanged represents a WeightsChanged error raised by the NodeFactory contract.
type NodeFactoryWeightsChanged struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error WeightsChanged()
func NodeFactoryWeightsChangedErrorID() common.Hash {
	return common.HexToHash("0x18423b7b8c424fb771c089c35e29e438b1c887d942c482b09457815bfa35c08d")
}

// UnpackWeightsChangedError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error WeightsChanged()
func (nodeFactory *NodeFactory) UnpackWeightsChangedError(raw []byte) (*NodeFactoryWeightsChanged, error) {
	out := new(NodeFactoryWeightsChanged)
	if err := nodeFactory.abi.UnpackIntoInterface(out, "WeightsChanged", raw); err != nil {
		return nil, err
	}
	return out, nil
}

// NodeFactoryZeroAddress represents a ZeroAddress error raised by the NodeFactory contract.
type NodeFactoryZeroAddress struct {
}

// ErrorID returns the hash of canonical representation of the error's signature.
//
// Solidity: error ZeroAddress()
func NodeFactoryZeroAddressErrorID() common.Hash {
	return common.HexToHash("0xd92e233df2717d4a40030e20904abd27b68fcbeede117eaaccbbdac9618c8c73")
}

// UnpackZeroAddressError is the Go binding used to decode the provided
// error data into the corresponding Go error struct.
//
// Solidity: error ZeroAddress()
func (nodeFactory *NodeFactory) UnpackZeroAddressError(raw []byte) (*NodeFactoryZeroAddress, error) {
	out := new(NodeFactoryZeroAddress)
	if err := nodeFactory.abi.UnpackIntoInterface(out, "ZeroAddress", raw); err != nil {
		return nil, err
	}
	return out, nil
}
