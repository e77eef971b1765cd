// Package devchain runs the embedded development chain that `make run` uses when no ETH_RPC_URL is
// configured: an in-memory go-ethereum chain sealed by its simulated beacon, whose ten accounts of
// the well-known test mnemonic hold 10,000 ETH each, with the node factory, a holding token and an
// ETH/USD price feed already deployed, blocks mined as soon as transactions arrive, and JSON-RPC
// served over HTTP for wallets and scripts. It imports nothing of ours but the generated contract
// bindings.
package devchain

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/eth"
	"github.com/ethereum/go-ethereum/eth/catalyst"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/eth/filters"
	"github.com/ethereum/go-ethereum/eth/tracers"
	_ "github.com/ethereum/go-ethereum/eth/tracers/native" // registers callTracer
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/p2p"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"
)

// TreasuryOwnerIndexes are the accounts that own the dev treasury Safe: the factory's owner and
// the last two buyers, so a test approves with wallets that are not the service's.
var TreasuryOwnerIndexes = []int{OwnerIndex, 7, 8}

// Roles of the dev accounts, as indexes into Chain.Accounts (and DevAccounts).
const (
	// OwnerIndex deploys, and so owns, every contract.
	OwnerIndex = 0
	// MinterIndex is the factory's minter: the service signs mints with it.
	MinterIndex = 1
	// DistributorIndex is the factory's distributor: the service signs credits with it.
	DistributorIndex = 2
	// FirstBuyerIndex and LastBuyerIndex bound the accounts left to play buyers.
	FirstBuyerIndex = 3
	// LastBuyerIndex is the last buyer, inclusive.
	LastBuyerIndex = 8
	// TreasuryThreshold is how many of the treasury's owners (TreasuryOwnerIndexes) approve each
	// of its transactions.
	TreasuryThreshold = 2
	// PaymentsIndex is the wallet buyers pay into.
	PaymentsIndex = 9
)

// MaxPerWallet is the factory's cap on nodes per wallet on the dev chain, low enough that the
// limit is easy to reach by hand.
const MaxPerWallet uint32 = 5

// AccountBalanceETH is what each dev account holds at genesis, in whole ether.
const AccountBalanceETH = 10_000

// BuyerTokens is how many whole holding tokens (18 decimals) each of the first three buyers
// starts with, so that both sides of a holding threshold can be tried without setup.
const BuyerTokens = 1_000

// TokenHolders is how many buyers, from FirstBuyerIndex on, get BuyerTokens.
const TokenHolders = 3

// The dev USDC: a payment token with Circle's 6 decimals, of which every buyer holds BuyerUSDC.
const (
	USDCDecimals = 6
	BuyerUSDC    = 100_000
)

// Price feed parameters: a Chainlink-style ETH/USD aggregator with 8 decimals, at $3,000.
const (
	// PriceFeedDecimals is the aggregator's decimals().
	PriceFeedDecimals = 8
	// PriceFeedDescription is the aggregator's description().
	PriceFeedDescription = "ETH / USD"
	// PriceFeedAnswer is the aggregator's latest answer: 3000 USD with PriceFeedDecimals decimals.
	PriceFeedAnswer int64 = 3000_00000000
)

const (
	// minerPoll is how often the miner looks at the pool when no new transaction woke it: a
	// transaction that becomes executable without an event (a nonce gap filled by a block) waits
	// at most this long.
	minerPoll = 200 * time.Millisecond
	// DefaultEmptyBlockInterval keeps time and confirmation counts moving while nothing is sent,
	// so code that waits for N confirmations or a later timestamp does not wait forever.
	DefaultEmptyBlockInterval = 3 * time.Second
	// startupTimeout bounds each step of Start on top of the caller's context.
	startupTimeout = 30 * time.Second
)

// Options configures Start.
type Options struct {
	// RPCAddr is the host:port on which JSON-RPC is served over HTTP, e.g. "127.0.0.1:8545". An
	// empty host listens on all interfaces, port 0 picks a free port, and "" serves no HTTP at all.
	RPCAddr string
	// Log receives the chain's own messages; nil discards them.
	Log *slog.Logger
	// ManualMining leaves out the miner: blocks are sealed only by Commit, for tests that decide
	// what goes in which block (reorgs, confirmations).
	ManualMining bool
	// TierWeights are the payoutBps the owner sets on the factory at deploy, tier by tier; nil
	// means the dev tiers' (TierWeights).
	TierWeights map[uint8]uint32
	// EmptyBlockInterval is how often the miner seals a block while nothing is sent;
	// zero means DefaultEmptyBlockInterval. Tests that wait for confirmations shorten it.
	EmptyBlockInterval time.Duration
	// DataDir is where the chain keeps its database; "" keeps it in memory. A chain of more than
	// about 30,000 blocks needs one: go-ethereum's freezer, moving each finalized block out of an
	// in-memory database, walks every key of it for each block, under the lock the next block's
	// write waits for.
	DataDir string
}

// Chain is a running dev chain. Its exported fields are set by Start and must not be changed.
type Chain struct {
	// Factory is the NodeFactory contract.
	Factory common.Address
	// Token is the TestToken ("Dev Holding Token", DHT) contract.
	Token common.Address
	// USDC is a TestToken with 6 decimals ("USD Coin (dev)", USDC) the sale accepts in dev mode.
	USDC common.Address
	// PriceFeed is the MockAggregator ETH/USD price feed.
	PriceFeed common.Address
	// SanctionsOracle is a SanctionsList, with the interface of Chainalysis's oracle and its
	// owner's functions (addToSanctionsList, removeFromSanctionsList), owned by Owner; it lists
	// no one until the owner says.
	SanctionsOracle common.Address
	// Payments is the wallet buyers pay into (Accounts[PaymentsIndex]).
	Payments common.Address
	// Treasury is a Safe (SafeVersion 1.4.1, Safe's published bytecode) owned by the accounts of
	// TreasuryOwnerIndexes, TreasuryThreshold of whom approve each of its transactions; Safe is
	// the singleton its proxy runs, SafeFactory the proxy factory, MultiSend the
	// MultiSendCallOnly a batch delegatecalls, FallbackHandler the compatibility fallback handler.
	Treasury, Safe, SafeFactory, MultiSend, FallbackHandler common.Address

	// Accounts are the NumAccounts funded dev accounts, in derivation order.
	Accounts []Account
	// Owner owns the factory, token and price feed (Accounts[OwnerIndex]).
	Owner Account
	// Minter is the factory's minter (Accounts[MinterIndex]).
	Minter Account
	// Distributor is the factory's distributor (Accounts[DistributorIndex]).
	Distributor Account
	// Buyers are the accounts free to buy nodes (Accounts[FirstBuyerIndex..LastBuyerIndex]).
	Buyers []Account

	node    *node.Node
	eth     *eth.Ethereum
	beacon  *catalyst.SimulatedBeacon
	sealMu  sync.Mutex // the simulated beacon's Commit and Fork are not safe to call concurrently
	rpc     *rpc.Client
	client  *ethclient.Client // over rpc, for the contract bindings
	chainID *big.Int
	rpcURL  string
	log     *slog.Logger

	stopMiner context.CancelFunc
	minerDone chan struct{}
	closeOnce sync.Once
	closeErr  error
}

// Start launches a dev chain, deploys the contracts and starts mining. ctx bounds the start-up
// and the miner's life: once it ends no more blocks are produced, but the chain still answers
// reads until Close, which the caller must call whenever Start succeeded.
func Start(ctx context.Context, opts Options) (*Chain, error) {
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	accounts, err := DevAccounts()
	if err != nil {
		return nil, fmt.Errorf("dev accounts: %w", err)
	}
	c := &Chain{
		Accounts:    accounts,
		Owner:       accounts[OwnerIndex],
		Minter:      accounts[MinterIndex],
		Distributor: accounts[DistributorIndex],
		Buyers:      accounts[FirstBuyerIndex : LastBuyerIndex+1],
		Payments:    accounts[PaymentsIndex].Address,
		log:         log,
		minerDone:   make(chan struct{}),
	}
	if err := c.startNode(opts.RPCAddr, opts.DataDir); err != nil {
		return nil, err
	}

	startCtx, cancel := context.WithTimeout(ctx, startupTimeout)
	defer cancel()
	// Read rather than assume the chain id: go-ethereum's dev config fixes it, not us.
	if c.chainID, err = c.client.ChainID(startCtx); err != nil {
		c.closeNode()
		return nil, fmt.Errorf("dev chain id: %w", err)
	}
	weights := opts.TierWeights
	if weights == nil {
		weights = TierWeights
	}
	if err := c.deploy(startCtx, weights); err != nil {
		c.closeNode()
		return nil, err
	}

	minerCtx, stop := context.WithCancel(ctx)
	c.stopMiner = stop
	if opts.ManualMining {
		close(c.minerDone)
	} else {
		every := opts.EmptyBlockInterval
		if every <= 0 {
			every = DefaultEmptyBlockInterval
		}
		go c.mine(minerCtx, every)
	}

	log.Info("dev chain started",
		"rpc", c.rpcURL, "chain_id", c.chainID,
		"factory", c.Factory, "token", c.Token, "price_feed", c.PriceFeed,
		"owner", c.Owner.Address, "minter", c.Minter.Address,
		"distributor", c.Distributor.Address, "payments", c.Payments, "treasury", c.Treasury)
	return c, nil
}

// startNode assembles the chain as ethclient/simulated.NewBackend does (an in-memory node on the
// all-forks dev config, driven by a simulated beacon that seals a block on Commit) but by hand,
// because NewBackend panics when it cannot listen, never says which port it got, and hides both
// the node and the RPC client behind its Client interface.
func (c *Chain) startNode(rpcAddr, dataDir string) error {
	nodeConf := node.DefaultConfig
	nodeConf.DataDir = dataDir
	nodeConf.P2P = p2p.Config{NoDiscovery: true}
	if rpcAddr != "" {
		host, port, err := splitRPCAddr(rpcAddr)
		if err != nil {
			return err
		}
		nodeConf.HTTPHost = host
		nodeConf.HTTPPort = port
		nodeConf.HTTPModules = []string{"eth", "net", "web3", "txpool", "debug"}
		// geth only admits Host: localhost (or an IP) by default, which turns away a container or
		// VM reaching the chain by name; where it listens is what keeps it private.
		nodeConf.HTTPVirtualHosts = []string{"*"}
		// Browser dapps and scripts served from another origin call it too.
		nodeConf.HTTPCors = []string{"*"}
	}

	balance := new(big.Int).Mul(big.NewInt(AccountBalanceETH), big.NewInt(params.Ether))
	// Every fork is active from genesis, so the system contracts they call into must be there.
	alloc := core.SystemContractAllocs()
	for _, a := range c.Accounts {
		alloc[a.Address] = types.Account{Balance: new(big.Int).Set(balance)}
	}
	ethConf := ethconfig.Defaults
	ethConf.Genesis = &core.Genesis{
		Config: params.AllDevChainProtocolChanges,
		// A genesis in 1970 makes gas estimates against it too low for code that stores
		// block.timestamp (the price feed does): writing 0 into an empty slot is nearly free.
		Timestamp: uint64(time.Now().Unix()),
		GasLimit:  ethconfig.Defaults.Miner.GasCeil,
		Alloc:     alloc,
	}
	ethConf.SyncMode = ethconfig.FullSync
	// An archive, as hosted RPCs are: the payments scan reads the payments wallet's balance at
	// every block it scans, which a pruning node forgets 128 blocks behind its head.
	ethConf.NoPruning, ethConf.StateScheme = true, rawdb.HashScheme
	ethConf.TxPool.NoLocals = true
	// As in ethclient/simulated: no background log indexer to lag behind the head; eth_getLogs
	// scans the blocks instead, which is instant at a dev chain's size.
	ethConf.LogNoHistory = true

	stack, err := node.New(&nodeConf)
	if err != nil {
		return fmt.Errorf("dev chain node: %w", err)
	}
	backend, err := eth.New(stack, &ethConf)
	if err != nil {
		stack.Close()
		return fmt.Errorf("dev chain eth service: %w", err)
	}
	// eth.New leaves out the filter API (eth_getLogs, eth_newFilter), which wallets rely on, and
	// the tracers (debug_traceBlockByNumber), which find payments made by contract wallets.
	stack.RegisterAPIs([]rpc.API{{
		Namespace: "eth",
		Service:   filters.NewFilterAPI(filters.NewFilterSystem(backend.APIBackend, filters.Config{})),
	}})
	stack.RegisterAPIs(tracers.APIs(backend.APIBackend))
	if err := stack.Start(); err != nil {
		// A failed Start has already closed the node.
		return fmt.Errorf("start dev chain node: %w", err)
	}
	beacon, err := catalyst.NewSimulatedBeacon(0, common.Address{}, backend)
	if err != nil {
		stack.Close()
		return fmt.Errorf("dev chain beacon: %w", err)
	}

	c.node, c.eth, c.beacon = stack, backend, beacon
	c.rpc = stack.Attach()
	c.client = ethclient.NewClient(c.rpc)
	if rpcAddr != "" {
		c.rpcURL = httpURL(nodeConf.HTTPHost, stack.HTTPEndpoint())
	}
	return nil
}

// closeNode stops the beacon and the node and closes the in-process client.
func (c *Chain) closeNode() error {
	c.client.Close()
	return errors.Join(c.beacon.Stop(), c.node.Close())
}

// ChainID is the chain id transactions must be signed for: 1337, go-ethereum's dev chain id.
func (c *Chain) ChainID() *big.Int { return new(big.Int).Set(c.chainID) }

// RPCURL is the HTTP JSON-RPC endpoint, e.g. "http://127.0.0.1:8545", or "" when not served.
func (c *Chain) RPCURL() string { return c.rpcURL }

// RPC is an in-process RPC client to the chain, usable with or without HTTP. It belongs to the
// chain: Close closes it, and callers must not.
func (c *Chain) RPC() *rpc.Client { return c.rpc }

// Close stops the miner and the chain, and frees the HTTP port. Calls after the first return the
// first one's result.
func (c *Chain) Close() error {
	c.closeOnce.Do(func() {
		c.stopMiner()
		<-c.minerDone
		if err := c.closeNode(); err != nil {
			c.closeErr = fmt.Errorf("close dev chain: %w", err)
		}
	})
	return c.closeErr
}

// mine commits a block as soon as the pool holds executable transactions (woken by the pool's
// event, and by a poll for those that become executable without one), and an empty block every
// emptyEvery; the simulated beacon itself only seals when told to.
func (c *Chain) mine(ctx context.Context, emptyEvery time.Duration) {
	defer close(c.minerDone)
	added := make(chan core.NewTxsEvent, 16)
	sub := c.eth.TxPool().SubscribeTransactions(added, false)
	defer sub.Unsubscribe()
	ticker := time.NewTicker(min(minerPoll, emptyEvery))
	defer ticker.Stop()
	last := time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case <-sub.Err():
			return
		case <-added:
		case <-ticker.C:
		}
		// Queued transactions (nonce gaps) cannot be mined, so only executable ones count.
		pending, _ := c.eth.TxPool().Stats()
		if pending == 0 && time.Since(last) < emptyEvery {
			continue
		}
		hash := c.Commit()
		last = time.Now()
		if pending > 0 {
			c.log.Debug("dev chain: mined", "block", hash, "transactions", pending)
		}
	}
}

// Commit seals a block with the executable transactions of the pool, and returns its hash. Tests
// call it while the miner runs, so every seal goes through here, one at a time. It returns once
// the pool has caught up with the block: until then the pool still counts the transactions just
// mined as pending, and a miner that looked would seal a second, empty block after every one.
func (c *Chain) Commit() common.Hash {
	c.sealMu.Lock()
	defer c.sealMu.Unlock()
	hash := c.beacon.Commit()
	if err := c.eth.TxPool().Sync(); err != nil {
		c.log.Debug("dev chain: the pool did not catch up with the block", "block", hash, "err", err)
	}
	return hash
}

// Pending counts the executable transactions waiting in the pool: a transaction just sent may
// take a moment to get there, and a block sealed before that leaves it out.
func (c *Chain) Pending() int {
	pending, _ := c.eth.TxPool().Stats()
	return pending
}

// Fork makes block parent the head again: the next Commit builds on it, replacing the blocks
// that followed, as a reorg does. It returns once the transaction pool has caught up with the
// new head, so that a transaction sent next is judged against it. The seal lock is held until
// then: the pool answers one Sync at a time, and a miner's Commit that asked between would leave
// this one waiting for ever.
func (c *Chain) Fork(parent common.Hash) error {
	c.sealMu.Lock()
	defer c.sealMu.Unlock()
	if err := c.beacon.Fork(parent); err != nil {
		return err
	}
	return c.eth.TxPool().Sync()
}

// splitRPCAddr splits addr into the node's HTTP host and port, and checks the port is free.
func splitRPCAddr(addr string) (host string, port int, err error) {
	host, portText, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, fmt.Errorf("dev chain rpc address %q: %w", addr, err)
	}
	port, err = strconv.Atoi(portText)
	if err != nil || port < 0 || port > 65535 {
		return "", 0, fmt.Errorf("dev chain rpc address %q: bad port", addr)
	}
	// geth reads an empty host as "no HTTP"; Go reads it as every interface, which is what a
	// caller writing ":8545" means.
	if host == "" {
		host = "0.0.0.0"
	}
	// Try the address before building the chain: when the node fails to listen, go-ethereum
	// closes it but leaves the goroutines of its unstarted eth service running for good.
	if port != 0 {
		ln, err := net.Listen("tcp", net.JoinHostPort(host, portText))
		if err != nil {
			return "", 0, fmt.Errorf("dev chain rpc address %q: %w", addr, err)
		}
		if err := ln.Close(); err != nil {
			return "", 0, fmt.Errorf("dev chain rpc address %q: %w", addr, err)
		}
	}
	return host, port, nil
}

// httpURL is the URL clients use for a node listening on host, at the endpoint it reports (which
// carries the real port when 0 was asked for). A wildcard host is reached through loopback.
func httpURL(host, endpoint string) string {
	_, port, err := net.SplitHostPort(strings.TrimPrefix(endpoint, "http://"))
	if err != nil {
		return endpoint
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port)
}
