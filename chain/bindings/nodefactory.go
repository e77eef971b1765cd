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

// NodeFactoryMetaData contains all meta data concerning the NodeFactory contract.
var NodeFactoryMetaData = bind.MetaData{
	ABI: "[{\"inputs\":[{\"internalType\":\"address\",\"name\":\"minter_\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"distributor_\",\"type\":\"address\"},{\"internalType\":\"uint32\",\"name\":\"maxPerWallet_\",\"type\":\"uint32\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[],\"name\":\"AmountTooLarge\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"Insolvent\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InsufficientBalance\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"MintingPaused\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NodeCountChanged\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotDistributor\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotMinter\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotNodeOwner\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotOwner\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"PaymentRefUsed\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"Reentered\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"RoundUsed\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"TransferFailed\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"UnknownNode\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"WalletFull\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"WeightTooLarge\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"WeightsChanged\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroAddress\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"roundId\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"enumNodeFactory.Mode\",\"name\":\"mode\",\"type\":\"uint8\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"nodes\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"total\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"carry\",\"type\":\"uint256\"}],\"name\":\"Distributed\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"uint32\",\"name\":\"maxPerWallet\",\"type\":\"uint32\"}],\"name\":\"MaxPerWalletChanged\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"id\",\"type\":\"uint256\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint8\",\"name\":\"tier\",\"type\":\"uint8\"},{\"indexed\":false,\"internalType\":\"bytes32\",\"name\":\"paymentRef\",\"type\":\"bytes32\"}],\"name\":\"NodeMinted\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"bool\",\"name\":\"paused\",\"type\":\"bool\"}],\"name\":\"Paused\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"minter\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"distributor\",\"type\":\"address\"}],\"name\":\"RolesChanged\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint8\",\"name\":\"tier\",\"type\":\"uint8\"},{\"indexed\":false,\"internalType\":\"uint32\",\"name\":\"weightBps\",\"type\":\"uint32\"},{\"indexed\":false,\"internalType\":\"uint40\",\"name\":\"weightsVersion\",\"type\":\"uint40\"}],\"name\":\"TierWeightChanged\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"id\",\"type\":\"uint256\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"}],\"name\":\"Transferred\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"id\",\"type\":\"uint256\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"Withdrawn\",\"type\":\"event\"},{\"inputs\":[],\"name\":\"MAX_WEIGHT_BPS\",\"outputs\":[{\"internalType\":\"uint32\",\"name\":\"\",\"type\":\"uint32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"roundId\",\"type\":\"uint256\"},{\"internalType\":\"enumNodeFactory.Mode\",\"name\":\"mode\",\"type\":\"uint8\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"nodes\",\"type\":\"uint256\"},{\"internalType\":\"uint64\",\"name\":\"version\",\"type\":\"uint64\"}],\"name\":\"distribute\",\"outputs\":[],\"stateMutability\":\"payable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"distributor\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"isSolvent\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"maxPerWallet\",\"outputs\":[{\"internalType\":\"uint32\",\"name\":\"\",\"type\":\"uint32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint8\",\"name\":\"tier\",\"type\":\"uint8\"},{\"internalType\":\"bytes32\",\"name\":\"paymentRef\",\"type\":\"bytes32\"}],\"name\":\"mint\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"id\",\"type\":\"uint256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"minter\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"nodeCount\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"id\",\"type\":\"uint256\"}],\"name\":\"nodeInfo\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"nodeOwner\",\"type\":\"address\"},{\"internalType\":\"uint8\",\"name\":\"tier\",\"type\":\"uint8\"},{\"internalType\":\"uint256\",\"name\":\"balance\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"credited\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"withdrawn\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"wallet\",\"type\":\"address\"}],\"name\":\"nodesOf\",\"outputs\":[{\"internalType\":\"uint256[]\",\"name\":\"\",\"type\":\"uint256[]\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"owner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"paused\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"name\":\"paymentRefUsed\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"poolCarry\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"name\":\"roundUsed\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint32\",\"name\":\"maxPerWallet_\",\"type\":\"uint32\"}],\"name\":\"setMaxPerWallet\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bool\",\"name\":\"paused_\",\"type\":\"bool\"}],\"name\":\"setPaused\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"owner_\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"minter_\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"distributor_\",\"type\":\"address\"}],\"name\":\"setRoles\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint8\",\"name\":\"tier\",\"type\":\"uint8\"},{\"internalType\":\"uint32\",\"name\":\"weightBps\",\"type\":\"uint32\"}],\"name\":\"setTierWeight\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"tierList\",\"outputs\":[{\"internalType\":\"uint8[]\",\"name\":\"list\",\"type\":\"uint8[]\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"name\":\"tiers\",\"outputs\":[{\"internalType\":\"uint88\",\"name\":\"perNode\",\"type\":\"uint88\"},{\"internalType\":\"uint64\",\"name\":\"nodes\",\"type\":\"uint64\"},{\"internalType\":\"uint32\",\"name\":\"weightBps\",\"type\":\"uint32\"},{\"internalType\":\"uint16\",\"name\":\"next\",\"type\":\"uint16\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"totalOutstanding\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"id\",\"type\":\"uint256\"}],\"name\":\"totalWithdrawnByNode\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"id\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"}],\"name\":\"transfer\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"weightsVersion\",\"outputs\":[{\"internalType\":\"uint40\",\"name\":\"\",\"type\":\"uint40\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"id\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"withdraw\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"stateMutability\":\"payable\",\"type\":\"receive\"}]",
	ID:  "NodeFactory",
	Bin: "0x608060405234801561000f575f5ffd5b506040516125bd3803806125bd83398101604081905261002e9161015a565b6001600160a01b038316158061004b57506001600160a01b038216155b156100695760405163d92e233d60e01b815260040160405180910390fd5b5f8054336001600160a01b03199182168117909255600180549091166001600160a01b0386811691821790925560028054928616600164ffffffff0160a01b03199093168317600160a81b63ffffffff8716021790556040805193845260208401919091528201527fbc8e5cec22009cb45324162584d043c03d372a645fa7c9dea262f45e52a278009060600160405180910390a160405163ffffffff821681527f08ec00e2241007915379cd7a50cee9c2aecdfd35c59c2aaf301383c4c6e149d59060200160405180910390a15050506101a6565b80516001600160a01b0381168114610155575f5ffd5b919050565b5f5f5f6060848603121561016c575f5ffd5b6101758461013f565b92506101836020850161013f565b9150604084015163ffffffff8116811461019b575f5ffd5b809150509250925092565b61240a806101b35f395ff3fe60806040526004361061019c575f3560e01c806389886b32116100dc578063b453eb2911610087578063bfe1092811610062578063bfe1092814610557578063cd52c13614610583578063d1d79974146105a2578063e63697c814610679575f5ffd5b8063b453eb29146104ba578063b6d7d1641461050c578063b7760c8f14610538575f5ffd5b80638e6320bf116100b75780638e6320bf1461041a578063969157f31461043b578063b02439ae1461045a575f5ffd5b806389886b32146103ac5780638c54ec69146103c15780638da5cb5b146103ef575f5ffd5b8063453c2310116101475780635c975abb116101225780635c975abb146103305780635ce23950146103615780636da49b8314610378578063836de4961461038d575f5ffd5b8063453c2310146102c9578063526b80fb146102fe57806354841e9414610311575f5ffd5b806316c38b3c1161017757806316c38b3c1461024b578063266c33c71461026c5780633006b543146102aa575f5ffd5b806303acaa99146101a757806307546172146101d757806316078d0414610228575f5ffd5b366101a357005b5f5ffd5b3480156101b2575f5ffd5b506101bd620186a081565b60405163ffffffff90911681526020015b60405180910390f35b3480156101e2575f5ffd5b506001546102039073ffffffffffffffffffffffffffffffffffffffff1681565b60405173ffffffffffffffffffffffffffffffffffffffff90911681526020016101ce565b348015610233575f5ffd5b5061023d60045481565b6040519081526020016101ce565b348015610256575f5ffd5b5061026a610265366004611ed5565b610698565b005b348015610277575f5ffd5b5061029a610286366004611efb565b60096020525f908152604090205460ff1681565b60405190151581526020016101ce565b3480156102b5575f5ffd5b5061026a6102c4366004611f2a565b61076c565b3480156102d4575f5ffd5b506002546101bd907501000000000000000000000000000000000000000000900463ffffffff1681565b61026a61030c366004611f43565b61083a565b34801561031c575f5ffd5b5061026a61032b366004611fc7565b610d54565b34801561033b575f5ffd5b5060025461029a9074010000000000000000000000000000000000000000900460ff1681565b34801561036c575f5ffd5b5060045447101561029a565b348015610383575f5ffd5b5061023d60035481565b348015610398575f5ffd5b5061023d6103a7366004611efb565b610ed9565b3480156103b7575f5ffd5b5061023d600b5481565b3480156103cc575f5ffd5b5061029a6103db366004611efb565b60086020525f908152604090205460ff1681565b3480156103fa575f5ffd5b505f546102039073ffffffffffffffffffffffffffffffffffffffff1681565b348015610425575f5ffd5b5061042e610f31565b6040516101ce9190612007565b348015610446575f5ffd5b5061023d61045536600461205c565b6110ae565b348015610465575f5ffd5b50610479610474366004611efb565b611412565b6040805173ffffffffffffffffffffffffffffffffffffffff909616865260ff9094166020860152928401919091526060830152608082015260a0016101ce565b3480156104c5575f5ffd5b506002546104f6907b01000000000000000000000000000000000000000000000000000000900464ffffffffff1681565b60405164ffffffffff90911681526020016101ce565b348015610517575f5ffd5b5061052b610526366004612096565b61151e565b6040516101ce91906120af565b348015610543575f5ffd5b5061026a6105523660046120e6565b611594565b348015610562575f5ffd5b506002546102039073ffffffffffffffffffffffffffffffffffffffff1681565b34801561058e575f5ffd5b5061026a61059d366004612110565b61184a565b3480156105ad575f5ffd5b506106336105bc366004612138565b600a6020525f90815260409020546affffffffffffffffffffff8116906b010000000000000000000000810467ffffffffffffffff1690730100000000000000000000000000000000000000810463ffffffff169077010000000000000000000000000000000000000000000000900461ffff1684565b604080516affffffffffffffffffffff909516855267ffffffffffffffff909316602085015263ffffffff9091169183019190915261ffff1660608201526080016101ce565b348015610684575f5ffd5b5061026a610693366004612151565b611a03565b5f5473ffffffffffffffffffffffffffffffffffffffff1633146106e8576040517f30cd747100000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b6002805482151574010000000000000000000000000000000000000000027fffffffffffffffffffffff00ffffffffffffffffffffffffffffffffffffffff9091161790556040517f0e2fb031ee032dc02d8011dc50b816eb450cf856abd8261680dac74f72165bd29061076190831515815260200190565b60405180910390a150565b5f5473ffffffffffffffffffffffffffffffffffffffff1633146107bc576040517f30cd747100000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b600280547fffffffffffffff00000000ffffffffffffffffffffffffffffffffffffffffff16750100000000000000000000000000000000000000000063ffffffff8416908102919091179091556040519081527f08ec00e2241007915379cd7a50cee9c2aecdfd35c59c2aaf301383c4c6e149d590602001610761565b60025473ffffffffffffffffffffffffffffffffffffffff16331461088b576040517f385296d500000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f8581526009602052604090205460ff16156108d3576040517f0b3d339f00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b600354821461090e576040517f57827b4300000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b6002547b01000000000000000000000000000000000000000000000000000000900464ffffffffff1667ffffffffffffffff821614610979576040517f18423b7b00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b6fffffffffffffffffffffffffffffffff8311156109c3576040517f0625040100000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f858152600960205260408120805460017fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff009091168117909155600254600b5479010000000000000000000000000000000000000000000000000090910461ffff169291876001811115610a3957610a39612173565b03610b21575f835b8015610ae2575f600a81610a566001856121cd565b60ff16815260208101919091526040015f208054909150610aad90730100000000000000000000000000000000000000810463ffffffff16906b010000000000000000000000900467ffffffffffffffff166121e0565b610ab790846121f7565b905490925077010000000000000000000000000000000000000000000000900461ffff169050610a41565b505f610aee83896121f7565b90508115610b0357610b00828261220a565b93505b610b0d82856121e0565b610b1790826121cd565b600b819055925050505b5f835b8015610cb5575f600a81610b396001856121cd565b60ff16815260208101919091526040015f9081208054909250730100000000000000000000000000000000000000900463ffffffff1690808c6001811115610b8357610b83612173565b14610b9d57610b9863ffffffff8316886121e0565b610bba565b612710610bb063ffffffff84168d6121e0565b610bba919061220a565b90508015610c8c5782545f90610bde9083906affffffffffffffffffffff166121f7565b90506affffffffffffffffffffff811115610c25576040517f0625040100000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b83547fffffffffffffffffffffffffffffffffffffffffff0000000000000000000000166affffffffffffffffffffff821617808555610c7e906b010000000000000000000000900467ffffffffffffffff16836121e0565b610c8890876121f7565b9550505b50505477010000000000000000000000000000000000000000000000900461ffff169050610b24565b505f81600454610cc591906121f7565b905080471015610d01576040517ffc22003800000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b80600481905550897fbbf6935171c6ce027db21d1bdf654d5ed2e83c6966409d4bf75434eb6b8d6b5f8a8a8a8688604051610d40959493929190612242565b60405180910390a250505050505050505050565b5f5473ffffffffffffffffffffffffffffffffffffffff163314610da4576040517f30cd747100000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b73ffffffffffffffffffffffffffffffffffffffff83161580610ddb575073ffffffffffffffffffffffffffffffffffffffff8216155b80610dfa575073ffffffffffffffffffffffffffffffffffffffff8116155b15610e31576040517fd92e233d00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f805473ffffffffffffffffffffffffffffffffffffffff8581167fffffffffffffffffffffffff0000000000000000000000000000000000000000928316811790935560018054868316908416811790915560028054928616929093168217909255604080519384526020840192909252908201527fbc8e5cec22009cb45324162584d043c03d372a645fa7c9dea262f45e52a278009060600160405180910390a1505050565b5f811580610ee8575060035482115b15610f1f576040517f8b7114df00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b505f9081526005602052604090205490565b6002546060905f90790100000000000000000000000000000000000000000000000000900461ffff165b8015610fb357610f6a8261229c565b9150600a5f610f7a6001846121cd565b60ff16815260208101919091526040015f205477010000000000000000000000000000000000000000000000900461ffff169050610f5b565b508067ffffffffffffffff811115610fcd57610fcd6122d3565b604051908082528060200260200182016040528015610ff6578160200160208202803683370190505b506002549092505f9150790100000000000000000000000000000000000000000000000000900461ffff165b80156110a9576110336001826121cd565b838361103e8161229c565b94508151811061105057611050612300565b60ff90921660209283029190910190910152600a5f6110706001846121cd565b60ff16815260208101919091526040015f205477010000000000000000000000000000000000000000000000900461ffff169050611022565b505090565b6001545f9073ffffffffffffffffffffffffffffffffffffffff163314611101576040517ff8d2906c00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b60025474010000000000000000000000000000000000000000900460ff1615611156576040517feb56075600000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b73ffffffffffffffffffffffffffffffffffffffff84166111a3576040517fd92e233d00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f8281526008602052604090205460ff16156111eb576040517f15a8123200000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b73ffffffffffffffffffffffffffffffffffffffff84165f9081526007602052604090206002548154750100000000000000000000000000000000000000000090910463ffffffff161161126b576040517f163faaa100000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f83815260086020526040812080547fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff00166001179055600380549091906112b19061229c565b919050819055915060405180606001604052808673ffffffffffffffffffffffffffffffffffffffff1681526020018560ff1681526020016112f4866001611d64565b6affffffffffffffffffffff9081169091525f84815260066020908152604080832085518154878501519784015173ffffffffffffffffffffffffffffffffffffffff9283167fffffffffffffffffffffff000000000000000000000000000000000000000000909216919091177401000000000000000000000000000000000000000060ff998a16021774ffffffffffffffffffffffffffffffffffffffffff16750100000000000000000000000000000000000000000091909716029590951790558554600181018755868452928290209092018690558151938816845283018690529087169184917fe0246eb77c0b519c6b2b3c944f062143b56003b0f9bd5dd1d7a03ccf84544c1a910160405180910390a3509392505050565b5f80808080851580611425575060035486115b1561145c576040517f8b7114df00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f8681526006602090815260408083208151606081018352905473ffffffffffffffffffffffffffffffffffffffff8116825274010000000000000000000000000000000000000000810460ff169382019390935275010000000000000000000000000000000000000000009092046affffffffffffffffffffff1690820152906114e682611e8f565b5f898152600560209081526040909120548451918501519293509161150b83856121cd565b919b909a50909850919650945092505050565b73ffffffffffffffffffffffffffffffffffffffff81165f9081526007602090815260409182902080548351818402810184019094528084526060939283018282801561158857602002820191905f5260205f20905b815481526020019060010190808311611574575b50505050509050919050565b8115806115a2575060035482115b156115d9576040517f8b7114df00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f828152600660205260409020805473ffffffffffffffffffffffffffffffffffffffff163314611636576040517fd08a05d500000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b73ffffffffffffffffffffffffffffffffffffffff8216611683576040517fd92e233d00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b73ffffffffffffffffffffffffffffffffffffffff82165f9081526007602052604090206002548154750100000000000000000000000000000000000000000090910463ffffffff1611611703576040517f163faaa100000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b335f9081526007602052604081208054909190611722906001906121cd565b90505f5b8181116117bf578683828154811061174057611740612300565b905f5260205f200154036117af5782828154811061176057611760612300565b905f5260205f20015483828154811061177b5761177b612300565b905f5260205f200181905550828054806117975761179761232d565b600190038181905f5260205f20015f905590556117bf565b6117b88161229c565b9050611726565b5082546001810184555f8481526020812090910187905584547fffffffffffffffffffffffff00000000000000000000000000000000000000001673ffffffffffffffffffffffffffffffffffffffff871690811786556040519091339189917f0ea8df787dde63a7bdc34d17097adf25749a3521f660e92dabdff8d6ee91d18a91a4505050505050565b5f5473ffffffffffffffffffffffffffffffffffffffff16331461189a576040517f30cd747100000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b620186a063ffffffff821611156118dd576040517fe5f127cc00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b60ff82165f908152600a6020526040812080547fffffffffffffffffff00000000ffffffffffffffffffffffffffffffffffffff1673010000000000000000000000000000000000000063ffffffff851602179055600254611966907b01000000000000000000000000000000000000000000000000000000900464ffffffffff16600161235a565b600280547affffffffffffffffffffffffffffffffffffffffffffffffffffff167b0100000000000000000000000000000000000000000000000000000064ffffffffff8416908102919091179091556040805163ffffffff86168152602081019290925291925060ff8516917fee1f35cfca53a670436572e2d921fe17f5b0c19a481eaba34f028f496ebdc1da910160405180910390a2505050565b60ff5f5c1615611a3f576040517fb5dfd9e500000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b60015f805c7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff00168217905d50821580611a79575060035483115b15611ab0576040517f8b7114df00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f838152600660209081526040918290208251606081018452905473ffffffffffffffffffffffffffffffffffffffff811680835274010000000000000000000000000000000000000000820460ff1693830193909352750100000000000000000000000000000000000000000090046affffffffffffffffffffff1692810192909252338114611b6d576040517fd08a05d500000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b73ffffffffffffffffffffffffffffffffffffffff8416611bba576040517fd92e233d00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f8581526005602052604090205480611bd284611e8f565b611bdc91906121cd565b841115611c15576040517ff4d678b800000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b611c1f84826121f7565b5f8781526005602052604081209190915560048054869290611c429084906121cd565b90915550506040805173ffffffffffffffffffffffffffffffffffffffff87811682526020820187905284169188917fe5df19de43c8c04fd192bc68e484b2593570925fbb6ad8c07ccafbc2aa5c37a1910160405180910390a35f8573ffffffffffffffffffffffffffffffffffffffff16856040515f6040518083038185875af1925050503d805f8114611cf2576040519150601f19603f3d011682016040523d82523d5f602084013e611cf7565b606091505b5050905080611d32576040517f90b8ec1800000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b505f92505050805c7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff0016815d50505050565b60ff82165f908152600a6020526040812080546b010000000000000000000000900467ffffffffffffffff168203611e275760025481547fffffffffffffff0000ffffffffffffffffffffffffffffffffffffffffffffff1679010000000000000000000000000000000000000000000000000090910461ffff167701000000000000000000000000000000000000000000000002178155611e0a60ff85166001612377565b600260196101000a81548161ffff021916908361ffff1602179055505b805483908290600b90611e549084906b010000000000000000000000900467ffffffffffffffff16612391565b825467ffffffffffffffff9182166101009390930a928302919092021990911617905550546affffffffffffffffffffff1690505b92915050565b60408082015160208084015160ff165f908152600a90915291822054611ec291906affffffffffffffffffffff166123b1565b6affffffffffffffffffffff1692915050565b5f60208284031215611ee5575f5ffd5b81358015158114611ef4575f5ffd5b9392505050565b5f60208284031215611f0b575f5ffd5b5035919050565b803563ffffffff81168114611f25575f5ffd5b919050565b5f60208284031215611f3a575f5ffd5b611ef482611f12565b5f5f5f5f5f60a08688031215611f57575f5ffd5b85359450602086013560028110611f6c575f5ffd5b93506040860135925060608601359150608086013567ffffffffffffffff81168114611f96575f5ffd5b809150509295509295909350565b803573ffffffffffffffffffffffffffffffffffffffff81168114611f25575f5ffd5b5f5f5f60608486031215611fd9575f5ffd5b611fe284611fa4565b9250611ff060208501611fa4565b9150611ffe60408501611fa4565b90509250925092565b602080825282518282018190525f918401906040840190835b8181101561204157835160ff16835260209384019390920191600101612020565b509095945050505050565b803560ff81168114611f25575f5ffd5b5f5f5f6060848603121561206e575f5ffd5b61207784611fa4565b92506120856020850161204c565b929592945050506040919091013590565b5f602082840312156120a6575f5ffd5b611ef482611fa4565b602080825282518282018190525f918401906040840190835b818110156120415783518352602093840193909201916001016120c8565b5f5f604083850312156120f7575f5ffd5b8235915061210760208401611fa4565b90509250929050565b5f5f60408385031215612121575f5ffd5b61212a8361204c565b915061210760208401611f12565b5f60208284031215612148575f5ffd5b611ef48261204c565b5f5f5f60608486031215612163575f5ffd5b8335925061208560208501611fa4565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52602160045260245ffd5b7f4e487b71000000000000000000000000000000000000000000000000000000005f52601160045260245ffd5b81810381811115611e8957611e896121a0565b8082028115828204841417611e8957611e896121a0565b80820180821115611e8957611e896121a0565b5f8261223d577f4e487b71000000000000000000000000000000000000000000000000000000005f52601260045260245ffd5b500490565b60a081016002871061227b577f4e487b71000000000000000000000000000000000000000000000000000000005f52602160045260245ffd5b95815260208101949094526040840192909252606083015260809091015290565b5f7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff82036122cc576122cc6121a0565b5060010190565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52604160045260245ffd5b7f4e487b71000000000000000000000000000000000000000000000000000000005f52603260045260245ffd5b7f4e487b71000000000000000000000000000000000000000000000000000000005f52603160045260245ffd5b64ffffffffff8181168382160190811115611e8957611e896121a0565b61ffff8181168382160190811115611e8957611e896121a0565b67ffffffffffffffff8181168382160190811115611e8957611e896121a0565b6affffffffffffffffffffff8281168282160390811115611e8957611e896121a056fea26469706673582212207e60ac4581d72da91d5da919dfe065a0acd0dd124fe63460f92aec23d994863c64736f6c63430008250033",
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
