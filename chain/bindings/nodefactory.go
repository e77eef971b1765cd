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
	ABI: "[{\"inputs\":[{\"internalType\":\"address\",\"name\":\"minter_\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"distributor_\",\"type\":\"address\"},{\"internalType\":\"uint32\",\"name\":\"maxPerWallet_\",\"type\":\"uint32\"}],\"stateMutability\":\"nonpayable\",\"type\":\"constructor\"},{\"inputs\":[],\"name\":\"AmountTooLarge\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"Insolvent\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"InsufficientBalance\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"MintingPaused\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NodeCountChanged\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotDistributor\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotMinter\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotNodeOwner\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"NotOwner\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"PaymentRefUsed\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"Reentered\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"RoundUsed\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"TransferFailed\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"UnknownNode\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"WalletFull\",\"type\":\"error\"},{\"inputs\":[],\"name\":\"ZeroAddress\",\"type\":\"error\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"roundId\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"enumNodeFactory.Mode\",\"name\":\"mode\",\"type\":\"uint8\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"nodes\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"total\",\"type\":\"uint256\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"carry\",\"type\":\"uint256\"}],\"name\":\"Distributed\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"uint32\",\"name\":\"maxPerWallet\",\"type\":\"uint32\"}],\"name\":\"MaxPerWalletChanged\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"id\",\"type\":\"uint256\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint8\",\"name\":\"tier\",\"type\":\"uint8\"},{\"indexed\":false,\"internalType\":\"bytes32\",\"name\":\"paymentRef\",\"type\":\"bytes32\"}],\"name\":\"NodeMinted\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"bool\",\"name\":\"paused\",\"type\":\"bool\"}],\"name\":\"Paused\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":false,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"minter\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"distributor\",\"type\":\"address\"}],\"name\":\"RolesChanged\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"id\",\"type\":\"uint256\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"from\",\"type\":\"address\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"}],\"name\":\"Transferred\",\"type\":\"event\"},{\"anonymous\":false,\"inputs\":[{\"indexed\":true,\"internalType\":\"uint256\",\"name\":\"id\",\"type\":\"uint256\"},{\"indexed\":true,\"internalType\":\"address\",\"name\":\"owner\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"indexed\":false,\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"Withdrawn\",\"type\":\"event\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"roundId\",\"type\":\"uint256\"},{\"internalType\":\"enumNodeFactory.Mode\",\"name\":\"mode\",\"type\":\"uint8\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"nodes\",\"type\":\"uint256\"},{\"internalType\":\"uint32[]\",\"name\":\"weights\",\"type\":\"uint32[]\"}],\"name\":\"distribute\",\"outputs\":[],\"stateMutability\":\"payable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"distributor\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"isSolvent\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"maxPerWallet\",\"outputs\":[{\"internalType\":\"uint32\",\"name\":\"\",\"type\":\"uint32\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint8\",\"name\":\"tier\",\"type\":\"uint8\"},{\"internalType\":\"bytes32\",\"name\":\"paymentRef\",\"type\":\"bytes32\"}],\"name\":\"mint\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"id\",\"type\":\"uint256\"}],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"minter\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"nodeCount\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"id\",\"type\":\"uint256\"}],\"name\":\"nodeInfo\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"nodeOwner\",\"type\":\"address\"},{\"internalType\":\"uint8\",\"name\":\"tier\",\"type\":\"uint8\"},{\"internalType\":\"uint256\",\"name\":\"balance\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"credited\",\"type\":\"uint256\"},{\"internalType\":\"uint256\",\"name\":\"withdrawn\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"wallet\",\"type\":\"address\"}],\"name\":\"nodesOf\",\"outputs\":[{\"internalType\":\"uint256[]\",\"name\":\"\",\"type\":\"uint256[]\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"owner\",\"outputs\":[{\"internalType\":\"address\",\"name\":\"\",\"type\":\"address\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"paused\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bytes32\",\"name\":\"\",\"type\":\"bytes32\"}],\"name\":\"paymentRefUsed\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"poolCarry\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"name\":\"roundUsed\",\"outputs\":[{\"internalType\":\"bool\",\"name\":\"\",\"type\":\"bool\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint32\",\"name\":\"maxPerWallet_\",\"type\":\"uint32\"}],\"name\":\"setMaxPerWallet\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"bool\",\"name\":\"paused_\",\"type\":\"bool\"}],\"name\":\"setPaused\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"address\",\"name\":\"owner_\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"minter_\",\"type\":\"address\"},{\"internalType\":\"address\",\"name\":\"distributor_\",\"type\":\"address\"}],\"name\":\"setRoles\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"tierList\",\"outputs\":[{\"internalType\":\"uint8[]\",\"name\":\"list\",\"type\":\"uint8[]\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint8\",\"name\":\"\",\"type\":\"uint8\"}],\"name\":\"tiers\",\"outputs\":[{\"internalType\":\"uint88\",\"name\":\"perNode\",\"type\":\"uint88\"},{\"internalType\":\"uint64\",\"name\":\"nodes\",\"type\":\"uint64\"},{\"internalType\":\"uint32\",\"name\":\"weightBps\",\"type\":\"uint32\"},{\"internalType\":\"uint16\",\"name\":\"next\",\"type\":\"uint16\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[],\"name\":\"totalOutstanding\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"id\",\"type\":\"uint256\"}],\"name\":\"totalWithdrawnByNode\",\"outputs\":[{\"internalType\":\"uint256\",\"name\":\"\",\"type\":\"uint256\"}],\"stateMutability\":\"view\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"id\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"}],\"name\":\"transfer\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"inputs\":[{\"internalType\":\"uint256\",\"name\":\"id\",\"type\":\"uint256\"},{\"internalType\":\"address\",\"name\":\"to\",\"type\":\"address\"},{\"internalType\":\"uint256\",\"name\":\"amount\",\"type\":\"uint256\"}],\"name\":\"withdraw\",\"outputs\":[],\"stateMutability\":\"nonpayable\",\"type\":\"function\"},{\"stateMutability\":\"payable\",\"type\":\"receive\"}]",
	ID:  "NodeFactory",
	Bin: "0x608060405234801561000f575f5ffd5b5060405161235f38038061235f83398101604081905261002e9161015a565b6001600160a01b038316158061004b57506001600160a01b038216155b156100695760405163d92e233d60e01b815260040160405180910390fd5b5f8054336001600160a01b03199182168117909255600180549091166001600160a01b0386811691821790925560028054928616600164ffffffff0160a01b03199093168317600160a81b63ffffffff8716021790556040805193845260208401919091528201527fbc8e5cec22009cb45324162584d043c03d372a645fa7c9dea262f45e52a278009060600160405180910390a160405163ffffffff821681527f08ec00e2241007915379cd7a50cee9c2aecdfd35c59c2aaf301383c4c6e149d59060200160405180910390a15050506101a6565b80516001600160a01b0381168114610155575f5ffd5b919050565b5f5f5f6060848603121561016c575f5ffd5b6101758461013f565b92506101836020850161013f565b9150604084015163ffffffff8116811461019b575f5ffd5b809150509250925092565b6121ac806101b35f395ff3fe60806040526004361061017b575f3560e01c806389886b32116100d1578063b6d7d1641161007c578063c41c16eb11610057578063c41c16eb146104e7578063d1d79974146104fa578063e63697c8146105d1575f5ffd5b8063b6d7d16414610470578063b7760c8f1461049c578063bfe10928146104bb575f5ffd5b80638e6320bf116100ac5780638e6320bf146103d0578063969157f3146103f1578063b02439ae14610410575f5ffd5b806389886b32146103625780638c54ec69146103775780638da5cb5b146103a5575f5ffd5b8063453c2310116101315780635ce239501161010c5780635ce23950146103175780636da49b831461032e578063836de49614610343575f5ffd5b8063453c23101461027d57806354841e94146102c75780635c975abb146102e6575f5ffd5b806316c38b3c1161016157806316c38b3c146101ff578063266c33c7146102205780633006b5431461025e575f5ffd5b8063075461721461018657806316078d04146101dc575f5ffd5b3661018257005b5f5ffd5b348015610191575f5ffd5b506001546101b29073ffffffffffffffffffffffffffffffffffffffff1681565b60405173ffffffffffffffffffffffffffffffffffffffff90911681526020015b60405180910390f35b3480156101e7575f5ffd5b506101f160045481565b6040519081526020016101d3565b34801561020a575f5ffd5b5061021e610219366004611c84565b6105f0565b005b34801561022b575f5ffd5b5061024e61023a366004611caa565b60096020525f908152604090205460ff1681565b60405190151581526020016101d3565b348015610269575f5ffd5b5061021e610278366004611cc1565b6106c4565b348015610288575f5ffd5b506002546102b2907501000000000000000000000000000000000000000000900463ffffffff1681565b60405163ffffffff90911681526020016101d3565b3480156102d2575f5ffd5b5061021e6102e1366004611d0c565b610792565b3480156102f1575f5ffd5b5060025461024e9074010000000000000000000000000000000000000000900460ff1681565b348015610322575f5ffd5b5060045447101561024e565b348015610339575f5ffd5b506101f160035481565b34801561034e575f5ffd5b506101f161035d366004611caa565b610917565b34801561036d575f5ffd5b506101f1600b5481565b348015610382575f5ffd5b5061024e610391366004611caa565b60086020525f908152604090205460ff1681565b3480156103b0575f5ffd5b505f546101b29073ffffffffffffffffffffffffffffffffffffffff1681565b3480156103db575f5ffd5b506103e461096f565b6040516101d39190611d4c565b3480156103fc575f5ffd5b506101f161040b366004611da1565b610aec565b34801561041b575f5ffd5b5061042f61042a366004611caa565b610e50565b6040805173ffffffffffffffffffffffffffffffffffffffff909616865260ff9094166020860152928401919091526060830152608082015260a0016101d3565b34801561047b575f5ffd5b5061048f61048a366004611ddb565b610f5c565b6040516101d39190611df4565b3480156104a7575f5ffd5b5061021e6104b6366004611e2b565b610fd2565b3480156104c6575f5ffd5b506002546101b29073ffffffffffffffffffffffffffffffffffffffff1681565b61021e6104f5366004611e55565b611288565b348015610505575f5ffd5b5061058b610514366004611ef7565b600a6020525f90815260409020546affffffffffffffffffffff8116906b010000000000000000000000810467ffffffffffffffff1690730100000000000000000000000000000000000000810463ffffffff169077010000000000000000000000000000000000000000000000900461ffff1684565b604080516affffffffffffffffffffff909516855267ffffffffffffffff909316602085015263ffffffff9091169183019190915261ffff1660608201526080016101d3565b3480156105dc575f5ffd5b5061021e6105eb366004611f10565b611775565b5f5473ffffffffffffffffffffffffffffffffffffffff163314610640576040517f30cd747100000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b6002805482151574010000000000000000000000000000000000000000027fffffffffffffffffffffff00ffffffffffffffffffffffffffffffffffffffff9091161790556040517f0e2fb031ee032dc02d8011dc50b816eb450cf856abd8261680dac74f72165bd2906106b990831515815260200190565b60405180910390a150565b5f5473ffffffffffffffffffffffffffffffffffffffff163314610714576040517f30cd747100000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b600280547fffffffffffffff00000000ffffffffffffffffffffffffffffffffffffffffff16750100000000000000000000000000000000000000000063ffffffff8416908102919091179091556040519081527f08ec00e2241007915379cd7a50cee9c2aecdfd35c59c2aaf301383c4c6e149d5906020016106b9565b5f5473ffffffffffffffffffffffffffffffffffffffff1633146107e2576040517f30cd747100000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b73ffffffffffffffffffffffffffffffffffffffff83161580610819575073ffffffffffffffffffffffffffffffffffffffff8216155b80610838575073ffffffffffffffffffffffffffffffffffffffff8116155b1561086f576040517fd92e233d00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f805473ffffffffffffffffffffffffffffffffffffffff8581167fffffffffffffffffffffffff0000000000000000000000000000000000000000928316811790935560018054868316908416811790915560028054928616929093168217909255604080519384526020840192909252908201527fbc8e5cec22009cb45324162584d043c03d372a645fa7c9dea262f45e52a278009060600160405180910390a1505050565b5f811580610926575060035482115b1561095d576040517f8b7114df00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b505f9081526005602052604090205490565b6002546060905f90790100000000000000000000000000000000000000000000000000900461ffff165b80156109f1576109a882611f5f565b9150600a5f6109b8600184611f96565b60ff16815260208101919091526040015f205477010000000000000000000000000000000000000000000000900461ffff169050610999565b508067ffffffffffffffff811115610a0b57610a0b611fa9565b604051908082528060200260200182016040528015610a34578160200160208202803683370190505b506002549092505f9150790100000000000000000000000000000000000000000000000000900461ffff165b8015610ae757610a71600182611f96565b8383610a7c81611f5f565b945081518110610a8e57610a8e611fd6565b60ff90921660209283029190910190910152600a5f610aae600184611f96565b60ff16815260208101919091526040015f205477010000000000000000000000000000000000000000000000900461ffff169050610a60565b505090565b6001545f9073ffffffffffffffffffffffffffffffffffffffff163314610b3f576040517ff8d2906c00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b60025474010000000000000000000000000000000000000000900460ff1615610b94576040517feb56075600000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b73ffffffffffffffffffffffffffffffffffffffff8416610be1576040517fd92e233d00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f8281526008602052604090205460ff1615610c29576040517f15a8123200000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b73ffffffffffffffffffffffffffffffffffffffff84165f9081526007602052604090206002548154750100000000000000000000000000000000000000000090910463ffffffff1611610ca9576040517f163faaa100000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f83815260086020526040812080547fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff0016600117905560038054909190610cef90611f5f565b919050819055915060405180606001604052808673ffffffffffffffffffffffffffffffffffffffff1681526020018560ff168152602001610d32866001611ad6565b6affffffffffffffffffffff9081169091525f84815260066020908152604080832085518154878501519784015173ffffffffffffffffffffffffffffffffffffffff9283167fffffffffffffffffffffff000000000000000000000000000000000000000000909216919091177401000000000000000000000000000000000000000060ff998a16021774ffffffffffffffffffffffffffffffffffffffffff16750100000000000000000000000000000000000000000091909716029590951790558554600181018755868452928290209092018690558151938816845283018690529087169184917fe0246eb77c0b519c6b2b3c944f062143b56003b0f9bd5dd1d7a03ccf84544c1a910160405180910390a3509392505050565b5f80808080851580610e63575060035486115b15610e9a576040517f8b7114df00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f8681526006602090815260408083208151606081018352905473ffffffffffffffffffffffffffffffffffffffff8116825274010000000000000000000000000000000000000000810460ff169382019390935275010000000000000000000000000000000000000000009092046affffffffffffffffffffff169082015290610f2482611c01565b5f8981526005602090815260409091205484519185015192935091610f498385611f96565b919b909a50909850919650945092505050565b73ffffffffffffffffffffffffffffffffffffffff81165f90815260076020908152604091829020805483518184028101840190945280845260609392830182828015610fc657602002820191905f5260205f20905b815481526020019060010190808311610fb2575b50505050509050919050565b811580610fe0575060035482115b15611017576040517f8b7114df00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f828152600660205260409020805473ffffffffffffffffffffffffffffffffffffffff163314611074576040517fd08a05d500000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b73ffffffffffffffffffffffffffffffffffffffff82166110c1576040517fd92e233d00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b73ffffffffffffffffffffffffffffffffffffffff82165f9081526007602052604090206002548154750100000000000000000000000000000000000000000090910463ffffffff1611611141576040517f163faaa100000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b335f908152600760205260408120805490919061116090600190611f96565b90505f5b8181116111fd578683828154811061117e5761117e611fd6565b905f5260205f200154036111ed5782828154811061119e5761119e611fd6565b905f5260205f2001548382815481106111b9576111b9611fd6565b905f5260205f200181905550828054806111d5576111d5612003565b600190038181905f5260205f20015f905590556111fd565b6111f681611f5f565b9050611164565b5082546001810184555f8481526020812090910187905584547fffffffffffffffffffffffff00000000000000000000000000000000000000001673ffffffffffffffffffffffffffffffffffffffff871690811786556040519091339189917f0ea8df787dde63a7bdc34d17097adf25749a3521f660e92dabdff8d6ee91d18a91a4505050505050565b60025473ffffffffffffffffffffffffffffffffffffffff1633146112d9576040517f385296d500000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f8681526009602052604090205460ff1615611321576040517f0b3d339f00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b600354831461135c576040517f57827b4300000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b6fffffffffffffffffffffffffffffffff8411156113a6576040517f0625040100000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f868152600960205260408120805460017fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff009091168117909155600254600b5479010000000000000000000000000000000000000000000000000090910461ffff16929188600181111561141c5761141c612030565b03611501575f835b80156114c2575f600a81611439600185611f96565b60ff16815260208101919091526040015f209050611462888861145d600186611f96565b611c47565b815461148d9163ffffffff16906b010000000000000000000000900467ffffffffffffffff1661205d565b6114979084612074565b905490925077010000000000000000000000000000000000000000000000900461ffff169050611424565b505f6114ce838a612074565b905081156114e3576114e08282612087565b93505b6114ed828561205d565b6114f79082611f96565b600b819055925050505b5f835b80156116d5575f600a81611519600185611f96565b60ff16815260208101919091526040015f908120915061153f898961145d600187611f96565b90505f808d600181111561155557611555612030565b1461156f5761156a63ffffffff83168861205d565b61158c565b61271061158263ffffffff84168e61205d565b61158c9190612087565b90505f8111806115bd5750825463ffffffff8381167301000000000000000000000000000000000000009092041614155b156116ac5782545f906115de9083906affffffffffffffffffffff16612074565b90506affffffffffffffffffffff811115611625576040517f0625040100000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b83546affffffffffffffffffffff82167fffffffffffffffffff00000000ffffffffffffffff00000000000000000000009091161773010000000000000000000000000000000000000063ffffffff8516021780855561169e906b010000000000000000000000900467ffffffffffffffff168361205d565b6116a89087612074565b9550505b50505477010000000000000000000000000000000000000000000000900461ffff169050611504565b505f816004546116e59190612074565b905080471015611721576040517ffc22003800000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b806004819055508a7fbbf6935171c6ce027db21d1bdf654d5ed2e83c6966409d4bf75434eb6b8d6b5f8b8b8b86886040516117609594939291906120bf565b60405180910390a25050505050505050505050565b60ff5f5c16156117b1576040517fb5dfd9e500000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b60015f805c7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff00168217905d508215806117eb575060035483115b15611822576040517f8b7114df00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f838152600660209081526040918290208251606081018452905473ffffffffffffffffffffffffffffffffffffffff811680835274010000000000000000000000000000000000000000820460ff1693830193909352750100000000000000000000000000000000000000000090046affffffffffffffffffffff16928101929092523381146118df576040517fd08a05d500000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b73ffffffffffffffffffffffffffffffffffffffff841661192c576040517fd92e233d00000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b5f858152600560205260409020548061194484611c01565b61194e9190611f96565b841115611987576040517ff4d678b800000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b6119918482612074565b5f87815260056020526040812091909155600480548692906119b4908490611f96565b90915550506040805173ffffffffffffffffffffffffffffffffffffffff87811682526020820187905284169188917fe5df19de43c8c04fd192bc68e484b2593570925fbb6ad8c07ccafbc2aa5c37a1910160405180910390a35f8573ffffffffffffffffffffffffffffffffffffffff16856040515f6040518083038185875af1925050503d805f8114611a64576040519150601f19603f3d011682016040523d82523d5f602084013e611a69565b606091505b5050905080611aa4576040517f90b8ec1800000000000000000000000000000000000000000000000000000000815260040160405180910390fd5b505f92505050805c7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff0016815d50505050565b60ff82165f908152600a6020526040812080546b010000000000000000000000900467ffffffffffffffff168203611b995760025481547fffffffffffffff0000ffffffffffffffffffffffffffffffffffffffffffffff1679010000000000000000000000000000000000000000000000000090910461ffff167701000000000000000000000000000000000000000000000002178155611b7c60ff85166001612119565b600260196101000a81548161ffff021916908361ffff1602179055505b805483908290600b90611bc69084906b010000000000000000000000900467ffffffffffffffff16612133565b825467ffffffffffffffff9182166101009390930a928302919092021990911617905550546affffffffffffffffffffff1690505b92915050565b60408082015160208084015160ff165f908152600a90915291822054611c3491906affffffffffffffffffffff16612153565b6affffffffffffffffffffff1692915050565b5f828210611c55575f611c7c565b838383818110611c6757611c67611fd6565b9050602002016020810190611c7c9190611cc1565b949350505050565b5f60208284031215611c94575f5ffd5b81358015158114611ca3575f5ffd5b9392505050565b5f60208284031215611cba575f5ffd5b5035919050565b5f60208284031215611cd1575f5ffd5b813563ffffffff81168114611ca3575f5ffd5b803573ffffffffffffffffffffffffffffffffffffffff81168114611d07575f5ffd5b919050565b5f5f5f60608486031215611d1e575f5ffd5b611d2784611ce4565b9250611d3560208501611ce4565b9150611d4360408501611ce4565b90509250925092565b602080825282518282018190525f918401906040840190835b81811015611d8657835160ff16835260209384019390920191600101611d65565b509095945050505050565b803560ff81168114611d07575f5ffd5b5f5f5f60608486031215611db3575f5ffd5b611dbc84611ce4565b9250611dca60208501611d91565b929592945050506040919091013590565b5f60208284031215611deb575f5ffd5b611ca382611ce4565b602080825282518282018190525f918401906040840190835b81811015611d86578351835260209384019390920191600101611e0d565b5f5f60408385031215611e3c575f5ffd5b82359150611e4c60208401611ce4565b90509250929050565b5f5f5f5f5f5f60a08789031215611e6a575f5ffd5b86359550602087013560028110611e7f575f5ffd5b94506040870135935060608701359250608087013567ffffffffffffffff811115611ea8575f5ffd5b8701601f81018913611eb8575f5ffd5b803567ffffffffffffffff811115611ece575f5ffd5b8960208260051b8401011115611ee2575f5ffd5b60208201935080925050509295509295509295565b5f60208284031215611f07575f5ffd5b611ca382611d91565b5f5f5f60608486031215611f22575f5ffd5b83359250611dca60208501611ce4565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52601160045260245ffd5b5f7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff8203611f8f57611f8f611f32565b5060010190565b81810381811115611bfb57611bfb611f32565b7f4e487b71000000000000000000000000000000000000000000000000000000005f52604160045260245ffd5b7f4e487b71000000000000000000000000000000000000000000000000000000005f52603260045260245ffd5b7f4e487b71000000000000000000000000000000000000000000000000000000005f52603160045260245ffd5b7f4e487b71000000000000000000000000000000000000000000000000000000005f52602160045260245ffd5b8082028115828204841417611bfb57611bfb611f32565b80820180821115611bfb57611bfb611f32565b5f826120ba577f4e487b71000000000000000000000000000000000000000000000000000000005f52601260045260245ffd5b500490565b60a08101600287106120f8577f4e487b71000000000000000000000000000000000000000000000000000000005f52602160045260245ffd5b95815260208101949094526040840192909252606083015260809091015290565b61ffff8181168382160190811115611bfb57611bfb611f32565b67ffffffffffffffff8181168382160190811115611bfb57611bfb611f32565b6affffffffffffffffffffff8281168282160390811115611bfb57611bfb611f3256fea26469706673582212208b8b525e2f0fa4c7c44b67d8fbc72b371fed7d4a866c30f3b3ad9309914ecfd664736f6c63430008250033",
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

// PackDistribute is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc41c16eb.  This method will panic if any
// invalid/nil inputs are passed.
//
// Solidity: function distribute(uint256 roundId, uint8 mode, uint256 amount, uint256 nodes, uint32[] weights) payable returns()
func (nodeFactory *NodeFactory) PackDistribute(roundId *big.Int, mode uint8, amount *big.Int, nodes *big.Int, weights []uint32) []byte {
	enc, err := nodeFactory.abi.Pack("distribute", roundId, mode, amount, nodes, weights)
	if err != nil {
		panic(err)
	}
	return enc
}

// TryPackDistribute is the Go binding used to pack the parameters required for calling
// the contract method with ID 0xc41c16eb.  This method will return an error
// if any inputs are invalid/nil.
//
// Solidity: function distribute(uint256 roundId, uint8 mode, uint256 amount, uint256 nodes, uint32[] weights) payable returns()
func (nodeFactory *NodeFactory) TryPackDistribute(roundId *big.Int, mode uint8, amount *big.Int, nodes *big.Int, weights []uint32) ([]byte, error) {
	return nodeFactory.abi.Pack("distribute", roundId, mode, amount, nodes, weights)
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
