package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/params"

	"nodeledger/chain"
	"nodeledger/chain/devchain"
	"nodeledger/store"
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
	cfg.ChainID = dc.ChainID().Int64()
	cfg.FactoryAddress = dc.Factory
	if cfg.PriceFeed == ([20]byte{}) {
		cfg.PriceFeed = dc.PriceFeed
	}
	if cfg.PaymentAddress == "" {
		cfg.PaymentAddress = strings.ToLower(dc.Payments.Hex())
	}
	if cfg.MinterKey == nil {
		cfg.MinterKey = dc.Minter.Key
	}
	if cfg.DistributorKey == nil {
		cfg.DistributorKey = dc.Distributor.Key
	}
	// The operator page and the cron routes need keys; dev mode makes them and says them.
	if cfg.AdminKey == "" {
		cfg.AdminKey = randomKey()
	}
	if cfg.CronKey == "" {
		cfg.CronKey = randomKey()
	}
	log.Info("dev chain", "rpc", dc.RPCURL(), "chain_id", cfg.ChainID, "factory", dc.Factory,
		"payments", dc.Payments, "price_feed", dc.PriceFeed, "token", dc.Token)
	log.Info("dev mode keys", "operator_page", cfg.PublicURL.String()+"/operator", "admin_key", cfg.AdminKey, "cron_key", cfg.CronKey)
	return &devEnv{
		chain:  dc,
		client: chain.New(dc.RPC(), chain.Config{Factory: dc.Factory, PriceFeed: cfg.PriceFeed}),
	}, nil
}

// randomKey is a fresh key for a dev-mode route.
func randomKey() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// Close stops the dev chain.
func (d *devEnv) Close() { d.chain.Close() }

// seedTiers writes the dev price list: a small tier on sale, and a larger one, off sale, for
// holders of the dev token.
func (d *devEnv) seedTiers(ctx context.Context, db *store.Store) error {
	token := strings.ToLower(d.chain.Token.Hex())
	ether := func(tenths int64) store.Uint256 {
		return store.Uint256{Int: new(big.Int).Mul(big.NewInt(tenths), big.NewInt(params.Ether/10))}
	}
	for _, t := range []store.Tier{
		{ID: 1, Label: "Standard", PriceWei: ether(1), MaxPerWallet: 5, HoldingWei: ether(0), PayoutBps: 10000, OnSale: true},
		{ID: 2, Label: "Pro", PriceWei: ether(10), MaxPerWallet: 2, HoldingWei: ether(1000), HoldingToken: &token, PayoutBps: 12500},
	} {
		if err := db.PutTier(ctx, t); err != nil {
			return err
		}
	}
	return nil
}
