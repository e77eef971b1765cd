package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"

	"nodeledger/chain"
	"nodeledger/chain/devchain"
	"nodeledger/store"
	"nodeledger/views/words"
)

// devDatabase is the database of dev mode, made fresh at each start: the ledger never outlives
// the dev chain it records, which lives in memory.
const devDatabase = "nodeledger_dev"

// devEnv is what dev mode runs besides the server: the embedded chain and a client of it.
type devEnv struct {
	chain  *devchain.Chain
	client *chain.Client
}

// startDev starts the dev chain and points cfg at it: its factory, price feed, payments wallet,
// minter and distributor keys, for whichever of them the environment did not set.
func startDev(ctx context.Context, cfg *config, log *slog.Logger) (*devEnv, error) {
	dc, err := devchain.Start(ctx, devchain.Options{RPCAddr: cfg.DevRPCAddr, Log: log})
	if err != nil {
		return nil, fmt.Errorf("dev chain (DEV_RPC_ADDR %s): %w", cfg.DevRPCAddr, err)
	}
	cfg.setChainID(dc.ChainID().Int64())
	cfg.Chain.Factory = dc.Factory
	if cfg.Chain.PriceFeed == (common.Address{}) {
		cfg.Chain.PriceFeed = dc.PriceFeed
	}
	if cfg.Chain.SanctionsOracle == (common.Address{}) {
		cfg.Chain.SanctionsOracle = dc.SanctionsOracle
	}
	if cfg.Handlers.PaymentAddress == "" {
		cfg.setPaymentAddress(dc.Payments)
	}
	if cfg.Handlers.Treasury == (common.Address{}) {
		cfg.setTreasury(dc.Treasury)
		cfg.Passes.MultiSend = dc.MultiSend // the dev chain's own deployment of Safe's contracts
	}
	if cfg.Handlers.WalletRPC == "" {
		cfg.Handlers.WalletRPC = dc.RPCURL() // wallets in the browser add the dev chain with it
	}
	if cfg.MinterKey == nil && cfg.MinterSigner.Endpoint == "" {
		cfg.MinterKey = dc.Minter.Key
	}
	if cfg.DistributorKey == nil && cfg.DistributorSigner.Endpoint == "" {
		cfg.DistributorKey = dc.Distributor.Key
	}
	if len(cfg.PaymentTokens) == 0 {
		cfg.PaymentTokens = []common.Address{dc.USDC}
	}
	if cfg.Passes.PaymentAddress == dc.Payments {
		cfg.PaymentsKey = dc.Accounts[devchain.PaymentsIndex].Key // it sweeps to the treasury
	}
	// The operator page and the cron routes need keys; dev mode makes them and says them.
	if cfg.Handlers.AdminKey == "" {
		cfg.Handlers.AdminKey = randomKey()
	}
	if cfg.Handlers.CronKey == "" {
		cfg.Handlers.CronKey = randomKey()
	}
	// The factory's owner, dev account 0, is an admin, unless OPERATORS names it otherwise.
	owner := strings.ToLower(dc.Owner.Address.Hex())
	cfg.Handlers.DevAdmin = owner
	if !slices.ContainsFunc(cfg.Operators, func(o store.Operator) bool { return o.Address == owner }) {
		cfg.Operators = append(cfg.Operators, store.Operator{Address: owner, Role: store.RoleAdmin})
	}
	log.Info("dev chain", "rpc", dc.RPCURL(), "chain_id", dc.ChainID(), "factory", dc.Factory,
		"payments", cfg.Handlers.PaymentAddress, "price_feed", cfg.Chain.PriceFeed, "token", dc.Token, "usdc", dc.USDC,
		"sanctions_oracle", cfg.Chain.SanctionsOracle)
	return &devEnv{chain: dc, client: chain.New(dc.RPC(), cfg.Chain)}, nil
}

// banner tells the person who ran `make run` what to open and what to import, in words rather
// than JSON lines: the pages, the operator's keys, the network and the dev accounts.
func (d *devEnv) banner(w io.Writer, cfg config, url string) {
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	line("")
	line("  nodeledger is running in dev mode (an in-memory chain and a fresh ledger)")
	line("")
	line("  Open            %s", url)
	line("  Buy a node      %s/buy", url)
	line("  Operator page   %s/operator   sign in with dev account 0, the factory's owner, an admin:", url)
	line("                  %s  key 0x%x", d.chain.Owner.Address.Hex(), crypto.FromECDSA(d.chain.Owner.Key))
	if cfg.Handlers.Treasury == d.chain.Treasury {
		line("  Treasury        %s  a Safe 1.4.1: %d of dev accounts %s approve each transaction",
			d.chain.Treasury.Hex(), devchain.TreasuryThreshold, treasuryOwners())
	}
	line("  Dev USDC        %s  %d decimals, accepted as payment: add it to a wallet as a token", d.chain.USDC.Hex(), devchain.USDCDecimals)
	if cfg.Chain.SanctionsOracle == d.chain.SanctionsOracle {
		line("  Sanctions list  %s  payers it lists are held; dev account 0 lists with addToSanctionsList(address[])", d.chain.SanctionsOracle.Hex())
	}
	if k := cfg.Handlers.KYC; k.Dev {
		line("  Identity checks %s/dev/kyc  stands in for Sumsub's form: a tier marked \"identity check required\" links buyers there", url)
	}
	line("  Admin API       x-admin-key: %s", cfg.Handlers.AdminKey)
	line("  Cron routes     x-cron-key: %s", cfg.Handlers.CronKey)
	line("  API             %s/api/openapi.json", url)
	line("")
	line("  Wallet network  RPC %s, chain id %s, currency ETH", d.chain.RPCURL(), d.chain.ChainID())
	line("  Accounts to import (10,000 ETH and %s USDC each; dev keys, never use them elsewhere):", words.Thousands(devchain.BuyerUSDC))
	for i, a := range d.chain.Buyers {
		holds := ""
		if i < devchain.TokenHolders {
			holds = fmt.Sprintf("  (holds %d DHT, the Pro tier's token)", devchain.BuyerTokens)
		}
		line("    %s  key 0x%x%s", a.Address.Hex(), crypto.FromECDSA(a.Key), holds)
	}
	line("")
	line("  Logs follow as JSON lines. Ctrl-C stops the server, the chain and the database.")
	line("")
	io.WriteString(w, b.String())
}

// treasuryOwners names the dev treasury's owners as the banner lists accounts: "0, 7 and 8".
func treasuryOwners() string {
	s := ""
	for i, a := range devchain.TreasuryOwnerIndexes {
		switch {
		case i == 0:
		case i == len(devchain.TreasuryOwnerIndexes)-1:
			s += " and "
		default:
			s += ", "
		}
		s += fmt.Sprint(a)
	}
	return s
}

// randomKey is a fresh key for a dev-mode route.
func randomKey() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// Close stops the dev chain.
func (d *devEnv) Close() { d.chain.Close() }

// seedTiers writes the dev price list: a small tier on sale, with a supply of devSupply so the
// buy page shows what is left, priced in ETH and in the dev USDC (devUSDCPrice), and a larger
// one, off sale, for holders of the dev token. Their weights are the factory's, set by the owner
// at deploy (devchain.TierWeights).
// devSupply is the supply of the dev tier on sale.
const devSupply = 5000

// devUSDCPrice is the dev tier's price in the dev USDC, in whole USDC.
const devUSDCPrice = 300

func (d *devEnv) seedTiers(ctx context.Context, db *store.Store) error {
	token := strings.ToLower(d.chain.Token.Hex())
	ether := func(tenths int64) store.Uint256 {
		return store.Uint256{Int: new(big.Int).Mul(big.NewInt(tenths), big.NewInt(params.Ether/10))}
	}
	supply := devSupply
	usdcPrice := new(big.Int).Mul(big.NewInt(devUSDCPrice), new(big.Int).Exp(big.NewInt(10), big.NewInt(devchain.USDCDecimals), nil))
	usdc := store.TokenPrices{strings.ToLower(d.chain.USDC.Hex()): store.Uint256{Int: usdcPrice}}
	for _, t := range []store.Tier{
		{ID: 1, Label: "Standard", PriceWei: ether(1), MaxPerWallet: 5, HoldingWei: ether(0), Enabled: true, Supply: &supply, TokenPrices: usdc},
		{ID: 2, Label: "Pro", PriceWei: ether(10), MaxPerWallet: 2, HoldingWei: ether(1000), HoldingToken: &token},
	} {
		if err := db.PutTier(ctx, t); err != nil {
			return err
		}
	}
	return nil
}
