package devchain

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/params"

	"nodeledger/chain/bindings"
)

// TierWeights are the payoutBps the owner sets on the dev factory for the dev tiers (dev.go
// seeds tiers 1 and 2): the weights live in the factory, and only its owner sets them.
var TierWeights = map[uint8]uint32{1: 10_000, 2: 12_500}

// deploy deploys the factory, token and price feed as the owner, mints tokens to the first
// buyers and sets the tiers' weights (weights: tier → payoutBps). It commits the blocks itself
// since the miner is not running yet.
func (c *Chain) deploy(ctx context.Context, weights map[uint8]uint32) error {
	owner := bind.NewKeyedTransactor(c.Owner.Key, c.chainID)
	owner.Context = ctx
	// Nonces are counted here: the pool promotes transactions in the background, so asking it
	// for the next nonce right after a send can hand out the same one twice.
	var nonce uint64

	type deployment struct {
		name  string
		meta  *bind.MetaData
		input []byte
		addr  *common.Address
	}
	deployments := []deployment{
		{"NodeFactory", &bindings.NodeFactoryMetaData,
			bindings.NewNodeFactory().PackConstructor(c.Minter.Address, c.Distributor.Address, MaxPerWallet),
			&c.Factory},
		{"TestToken", &bindings.TestTokenMetaData,
			bindings.NewTestToken().PackConstructor("Dev Holding Token", "DHT", 18),
			&c.Token},
		{"MockAggregator", &bindings.MockAggregatorMetaData,
			bindings.NewMockAggregator().PackConstructor(PriceFeedDecimals, PriceFeedDescription, big.NewInt(PriceFeedAnswer)),
			&c.PriceFeed},
		{"Safe", &bindings.SafeMetaData, nil, &c.Safe},
		{"SafeProxyFactory", &bindings.SafeProxyFactoryMetaData, nil, &c.SafeFactory},
		{"MultiSendCallOnly", &bindings.MultiSendCallOnlyMetaData, nil, &c.MultiSend},
		{"CompatibilityFallbackHandler", &bindings.CompatibilityFallbackHandlerMetaData, nil, &c.FallbackHandler},
	}
	txs := make([]*types.Transaction, len(deployments))
	for i, d := range deployments {
		owner.Nonce = new(big.Int).SetUint64(nonce)
		addr, tx, err := bind.DeployContract(owner, common.FromHex(d.meta.Bin), c.client, d.input)
		if err != nil {
			return fmt.Errorf("deploy %s: %w", d.name, err)
		}
		nonce++
		*d.addr = addr
		txs[i] = tx
	}
	for i, d := range deployments {
		if err := c.mineUntilIncluded(ctx, txs[i]); err != nil {
			return fmt.Errorf("deploy %s: %w", d.name, err)
		}
	}

	if err := c.deployTreasury(ctx, owner, &nonce); err != nil {
		return err
	}

	// Minting waits for the token's block: gas is estimated against the latest state, where a
	// token deployed in the same block does not exist yet.
	token := bindings.NewTestToken()
	tokenContract := token.Instance(c.client, c.Token)
	amount := new(big.Int).Mul(big.NewInt(BuyerTokens), big.NewInt(params.Ether)) // 18 decimals, like ether
	txs = txs[:0]
	for _, buyer := range c.Buyers[:TokenHolders] {
		owner.Nonce = new(big.Int).SetUint64(nonce)
		tx, err := bind.Transact(tokenContract, owner, token.PackMint(buyer.Address, amount))
		if err != nil {
			return fmt.Errorf("mint tokens to %s: %w", buyer.Address, err)
		}
		nonce++
		txs = append(txs, tx)
	}
	for i, tx := range txs {
		if err := c.mineUntilIncluded(ctx, tx); err != nil {
			return fmt.Errorf("mint tokens to %s: %w", c.Buyers[i].Address, err)
		}
	}

	if err := c.deployUSDC(ctx, owner, &nonce); err != nil {
		return err
	}
	if err := c.setWeights(ctx, owner, &nonce, weights); err != nil {
		return err
	}
	// Last, so that every contract before it keeps its address.
	owner.Nonce = new(big.Int).SetUint64(nonce)
	addr, tx, err := bind.DeployContract(owner, common.FromHex(bindings.SanctionsListMetaData.Bin), c.client, nil)
	if err != nil {
		return fmt.Errorf("deploy SanctionsList: %w", err)
	}
	if err := c.mineUntilIncluded(ctx, tx); err != nil {
		return fmt.Errorf("deploy SanctionsList: %w", err)
	}
	c.SanctionsOracle = addr
	return nil
}

// setWeights sets each tier's payoutBps on the factory, as its owner, in tier order, so that
// weightsVersion counts the same each time.
func (c *Chain) setWeights(ctx context.Context, owner *bind.TransactOpts, nonce *uint64, weights map[uint8]uint32) error {
	nf := bindings.NewNodeFactory()
	factory := nf.Instance(c.client, c.Factory)
	var txs []*types.Transaction
	var tiers []uint8
	for tier := range uint8(255) {
		w, ok := weights[tier]
		if !ok {
			continue
		}
		owner.Nonce = new(big.Int).SetUint64(*nonce)
		tx, err := bind.Transact(factory, owner, nf.PackSetTierWeight(tier, w))
		if err != nil {
			return fmt.Errorf("set tier %d's weight: %w", tier, err)
		}
		*nonce++
		txs, tiers = append(txs, tx), append(tiers, tier)
	}
	for i, tx := range txs {
		if err := c.mineUntilIncluded(ctx, tx); err != nil {
			return fmt.Errorf("set tier %d's weight: %w", tiers[i], err)
		}
	}
	return nil
}

// deployUSDC deploys the dev USDC (USDCDecimals, like Circle's) after every other contract, so
// the others keep their addresses, and gives each buyer BuyerUSDC of it.
func (c *Chain) deployUSDC(ctx context.Context, owner *bind.TransactOpts, nonce *uint64) error {
	token := bindings.NewTestToken()
	owner.Nonce = new(big.Int).SetUint64(*nonce)
	addr, tx, err := bind.DeployContract(owner, common.FromHex(bindings.TestTokenMetaData.Bin), c.client,
		token.PackConstructor("USD Coin (dev)", "USDC", USDCDecimals))
	if err != nil {
		return fmt.Errorf("deploy USDC: %w", err)
	}
	*nonce++
	if err := c.mineUntilIncluded(ctx, tx); err != nil {
		return fmt.Errorf("deploy USDC: %w", err)
	}
	c.USDC = addr
	usdc := token.Instance(c.client, addr)
	amount := new(big.Int).Mul(big.NewInt(BuyerUSDC), new(big.Int).Exp(big.NewInt(10), big.NewInt(USDCDecimals), nil))
	txs := make([]*types.Transaction, len(c.Buyers))
	for i, buyer := range c.Buyers {
		owner.Nonce = new(big.Int).SetUint64(*nonce)
		if txs[i], err = bind.Transact(usdc, owner, token.PackMint(buyer.Address, amount)); err != nil {
			return fmt.Errorf("mint USDC to %s: %w", buyer.Address, err)
		}
		*nonce++
	}
	for i, tx := range txs {
		if err := c.mineUntilIncluded(ctx, tx); err != nil {
			return fmt.Errorf("mint USDC to %s: %w", c.Buyers[i].Address, err)
		}
	}
	return nil
}

// deployTreasury makes the treasury: a proxy of the Safe singleton, set up with its owners and
// threshold and the fallback handler, through the proxy factory, as the Safe app does.
func (c *Chain) deployTreasury(ctx context.Context, owner *bind.TransactOpts, nonce *uint64) error {
	owners := make([]common.Address, len(TreasuryOwnerIndexes))
	for i, a := range TreasuryOwnerIndexes {
		owners[i] = c.Accounts[a].Address
	}
	setup := bindings.NewSafe().PackSetup(owners, big.NewInt(TreasuryThreshold), common.Address{}, nil, c.FallbackHandler,
		common.Address{}, new(big.Int), common.Address{})
	pf := bindings.NewSafeProxyFactory()
	create := pf.PackCreateProxyWithNonce(c.Safe, setup, new(big.Int))
	// The proxy's address is what the call answers before the transaction makes it.
	out, err := c.client.CallContract(ctx, ethereum.CallMsg{From: owner.From, To: &c.SafeFactory, Data: create}, nil)
	if err != nil {
		return fmt.Errorf("deploy the treasury: %w", err)
	}
	if c.Treasury, err = pf.UnpackCreateProxyWithNonce(out); err != nil {
		return fmt.Errorf("deploy the treasury: %w", err)
	}
	owner.Nonce = new(big.Int).SetUint64(*nonce)
	tx, err := bind.Transact(pf.Instance(c.client, c.SafeFactory), owner, create)
	if err != nil {
		return fmt.Errorf("deploy the treasury: %w", err)
	}
	*nonce++
	if err := c.mineUntilIncluded(ctx, tx); err != nil {
		return fmt.Errorf("deploy the treasury: %w", err)
	}
	return nil
}

// includeTimeout bounds how long deployment waits for one transaction to be mined.
const includeTimeout = 10 * time.Second

// mineUntilIncluded commits blocks until tx has a receipt, and checks it succeeded. One Commit
// right after sending is not enough: the pool promotes a sent transaction in the background, and
// a block built before that leaves it out.
func (c *Chain) mineUntilIncluded(ctx context.Context, tx *types.Transaction) error {
	deadline := time.Now().Add(includeTimeout)
	for {
		receipt, err := c.client.TransactionReceipt(ctx, tx.Hash())
		switch {
		case err == nil && receipt.Status != types.ReceiptStatusSuccessful:
			return fmt.Errorf("transaction %s reverted (gas limit %d, used %d)", tx.Hash(), tx.Gas(), receipt.GasUsed)
		case err == nil:
			return nil
		// Not found, or the node is still indexing: not mined yet, as far as anyone can tell.
		case !errors.Is(err, ethereum.NotFound) && !strings.Contains(err.Error(), "indexing is in progress"):
			return fmt.Errorf("receipt of %s: %w", tx.Hash(), err)
		case time.Now().After(deadline):
			return fmt.Errorf("transaction %s was not mined within %v", tx.Hash(), includeTimeout)
		}
		c.Commit()
		time.Sleep(5 * time.Millisecond)
	}
}
