package jobs

import (
	"log/slog"
	"math/big"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/params"

	"nodeledger/chain"
	"nodeledger/chain/devchain"
	"nodeledger/chain/faultrpc"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

// Prices of the test tiers.
var (
	ether      = big.NewInt(params.Ether)
	tenth      = new(big.Int).Div(ether, big.NewInt(10))
	priceOne   = tenth                                    // tier 1: 0.1 ETH, on sale, 3 per wallet
	priceTwo   = ether                                    // tier 2: 1 ETH, on sale, needs 100 DHT
	priceOff   = new(big.Int).Div(ether, big.NewInt(2))   // tier 3: 0.5 ETH, off sale
	holdingWei = new(big.Int).Mul(big.NewInt(100), ether) // tier 2's holding threshold
)

// env is a fresh ledger and a fresh dev chain, with the passes over them.
type env struct {
	t   testing.TB
	db  *store.Store
	dc  *devchain.Chain
	c   *chain.Client
	cfg Config
	j   *Jobs
}

// newEnv starts a dev chain, empties the ledger, seeds the test tiers and returns the passes;
// mods adjust the passes' configuration.
func newEnv(t testing.TB, mods ...func(*Config)) *env {
	t.Helper()
	return newEnvOn(t, devchain.Options{}, mods...)
}

// newEnvOn is newEnv on a dev chain started with opts.
func newEnvOn(t testing.TB, opts devchain.Options, mods ...func(*Config)) *env {
	t.Helper()
	return newEnvIn(t, storetest.New(t), opts, mods...)
}

// newEnvBehindProxy is newEnv with the passes reading the chain through a proxy (faultrpc),
// which counts what they ask and can misbehave.
func newEnvBehindProxy(t testing.TB, mods ...func(*Config)) (*env, *faultrpc.Proxy) {
	t.Helper()
	e := newEnvOn(t, devchain.Options{RPCAddr: "127.0.0.1:0"}, mods...)
	proxy := faultrpc.New(t, e.dc.RPCURL())
	c, err := chain.Dial(t.Context(), proxy.URL, chain.Config{Factory: e.dc.Factory})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	e.c = c
	e.j = e.restart()
	return e, proxy
}

// newEnvIn is newEnvOn over db, an empty migrated ledger.
func newEnvIn(t testing.TB, db *store.Store, opts devchain.Options, mods ...func(*Config)) *env {
	t.Helper()
	// The weights are the factory's, set by its owner at deploy: 1×, 2×, 1× (a chain mined by
	// hand keeps the dev deploy's).
	if !opts.ManualMining && opts.TierWeights == nil {
		opts.TierWeights = map[uint8]uint32{1: 10000, 2: 20000, 3: 10000}
	}
	dc, err := devchain.Start(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dc.Close() })
	t.Cleanup(func() { storetest.CheckSold(t, db) })
	e := &env{t: t, db: db, dc: dc, c: chain.New(dc.RPC(), chain.Config{Factory: dc.Factory})}
	e.cfg = Config{
		ChainID:        dc.ChainID(),
		PaymentAddress: dc.Payments,
		DistEnabled:    true,
		DistMode:       "fixed",
		DistPeriod:     time.Hour,
		DistBaseWei:    big.NewInt(1_000_000),
		DistPoolWei:    big.NewInt(9_000_000),
		ReceiptTimeout: 30 * time.Second,
	}
	for _, mod := range mods {
		mod(&e.cfg)
	}
	token := strings.ToLower(dc.Token.Hex())
	for _, tier := range []store.Tier{
		{ID: 1, Label: "One", PriceWei: ledger(priceOne), MaxPerWallet: 3, HoldingWei: ledger(new(big.Int)), Enabled: true},
		{ID: 2, Label: "Two", PriceWei: ledger(priceTwo), MaxPerWallet: 2, HoldingWei: ledger(holdingWei), HoldingToken: &token, Enabled: true},
		{ID: 3, Label: "Off", PriceWei: ledger(priceOff), MaxPerWallet: 5, HoldingWei: ledger(new(big.Int))},
	} {
		if err := e.db.PutTier(t.Context(), tier); err != nil {
			t.Fatal(err)
		}
	}
	e.j = e.restart()
	return e
}

// weightsVersion reads the factory's weightsVersion, which a round names.
func (e *env) weightsVersion() uint64 {
	e.t.Helper()
	st, err := e.c.RoundState(e.t.Context())
	if err != nil {
		e.t.Fatal(err)
	}
	return st.WeightsVersion
}

// setWeight sets a tier's payoutBps on the factory, as its owner.
func (e *env) setWeight(tier uint8, bps uint32) {
	e.t.Helper()
	factory := e.dc.Factory
	r, err := e.c.NewSender(chain.LocalSigner(e.dc.Owner.Key), e.dc.ChainID()).Transact(e.t.Context(), &factory, e.c.SetTierWeightData(tier, bps), nil)
	if err != nil || r.Status != types.ReceiptStatusSuccessful {
		e.t.Fatalf("setTierWeight(%d, %d): %v", tier, bps, err)
	}
}

// restart returns the passes as a new process would have them: nothing in memory (nonces are
// asked of the chain again), the same ledger and chain.
func (e *env) restart() *Jobs {
	return New(e.db, e.c, chain.LocalSigner(e.dc.Minter.Key), chain.LocalSigner(e.dc.Distributor.Key), e.cfg, slog.New(slog.DiscardHandler))
}

// pay sends wei from dev buyer i (0-based among the buyers) to `to` and waits until it is mined.
func (e *env) pay(i int, to common.Address, wei *big.Int) common.Hash {
	e.t.Helper()
	r, err := e.c.NewSender(chain.LocalSigner(e.dc.Buyers[i].Key), e.dc.ChainID()).Transact(e.t.Context(), &to, nil, wei)
	if err != nil || r.Status != types.ReceiptStatusSuccessful {
		e.t.Fatalf("payment from buyer %d: %v", i, err)
	}
	return r.TxHash
}

// buyer is the address of dev buyer i.
func (e *env) buyer(i int) common.Address { return e.dc.Buyers[i].Address }

// ledger is a chain amount as the ledger's tiers hold it.
func ledger(x *big.Int) store.Uint256 { return store.Uint256{Int: x} }
