//go:build long

package e2e

import (
	"context"
	"crypto/ecdsa"
	"math/big"
	"math/rand/v2"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"

	"nodeledger/chain"
	"nodeledger/chain/gethdev"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// deployment is a factory deployed on geth --dev with `nodeledger deploy`, the configuration
// of servers that use it, a ledger database, and funded buyers. Servers are started from it.
type deployment struct {
	geth   *gethdev.Node
	bin    string
	env    []string
	ledger *store.Store
	chain  *chain.Client
	eth    *ethclient.Client
	payTo  common.Address
	wallet *payer // the payments wallet, which refunds
	// treasury is the Safe the payments wallet is swept to (withTreasury); zero: none. Its one
	// owner signs and sends its refund batches (batchStep).
	treasury      common.Address
	treasuryKey   *ecdsa.PrivateKey
	treasuryOwner *chain.Sender
	executed      map[int64]bool // the batches its owner executed
	price         *big.Int       // of tier 1
	buyers        []*payer
}

// newDeployment deploys; env adds to or overrides the servers' configuration.
func newDeployment(t *testing.T, env ...string) *deployment {
	ctx := t.Context()
	geth := gethdev.Start(t)
	d := &deployment{geth: geth, bin: buildBinary(t), price: big.NewInt(10_000_000_000_000_000)} // 0.01 ETH
	deployerKey, deployer := hexKey(t)
	minterKey, minter := hexKey(t)
	distributorKey, distributor := hexKey(t)
	geth.Fund(deployer, 10)
	geth.Fund(minter, 50)
	geth.Fund(distributor, 50)
	d.env = []string{"PATH=" + os.Getenv("PATH"), "ETH_RPC_URL=" + geth.URL(), "CHAIN_ID=1337", "REFUND_POLICY=within 2 working days",
		"DEPLOYER_KEY=" + deployerKey, "MINTER_KEY=" + minterKey, "DISTRIBUTOR_KEY=" + distributorKey}
	factory := deployFactory(t, d.bin, d.env, "-max-per-wallet", "100000")
	paymentsKey, payments := hexKey(t)
	d.payTo = common.HexToAddress(payments)
	d.wallet = &payer{key: mustKey(t, paymentsKey), addr: d.payTo}
	dbURL := storetest.EmptyDatabase(t)
	d.env = append(append(d.env, "FACTORY_ADDRESS="+factory, "DATABASE_URL="+dbURL,
		"PAYMENT_ADDRESS="+payments, "CRON_KEY="+cronKey, "ADMIN_KEY="+adminKey, "CONFIRMATIONS=1",
		"DIST_ENABLED=true", "DIST_BASE_WEI=1000", "PUBLIC_URL=http://127.0.0.1",
		"SESSION_SECRET=long-run-session-secret-0123456789abcdef"), env...) // the last of a name wins
	var err error
	if d.ledger, err = storetest.Open(ctx, dbURL); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.ledger.Close() })
	if d.chain, err = chain.Dial(ctx, geth.URL(), chain.Config{Factory: common.HexToAddress(factory)}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.chain.Close)
	if d.eth, err = ethclient.DialContext(ctx, geth.URL()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.eth.Close)

	// Tier 1's weight is the factory's: its owner, the deployer, sets it to 1×.
	factoryAddr := common.HexToAddress(factory)
	if r, err := d.chain.NewSender(chain.LocalSigner(mustKey(t, deployerKey)), big.NewInt(1337)).Transact(ctx, &factoryAddr, d.chain.SetTierWeightData(1, 10000), nil); err != nil || r.Status != 1 {
		t.Fatalf("setTierWeight: %v", err)
	}
	s := startServer(t, d.bin, d.env)
	if status, body := s.send(t, http.MethodPut, "/api/admin/tiers/1", "X-Admin-Key", adminKey,
		`{"label":"Standard","priceWei":"`+d.price.String()+`","maxPerWallet":100000,"payoutBps":10000,"enabled":true}`); status != 200 {
		t.Fatalf("putting tier 1: %d %v\nserver log:\n%s", status, body, s.out)
	}
	s.kill()
	d.buyers = make([]*payer, 4)
	for i := range d.buyers {
		key, addr := hexKey(t)
		geth.Fund(addr, 50)
		d.buyers[i] = &payer{key: mustKey(t, key), addr: common.HexToAddress(addr)}
	}
	return d
}

// pay sends a payment from a random buyer without waiting for it: three in four pay tier 1's
// price (good), the rest an amount no tier has.
func (d *deployment) pay(t *testing.T, rng *rand.Rand) (tx string, good bool) {
	value, good := d.price, rng.IntN(4) != 0
	if !good {
		value = big.NewInt(12345)
	}
	return d.buyers[rng.IntN(len(d.buyers))].send(t, d.eth, d.payTo, value), good
}

// payer is a funded buyer that sends payments without waiting for each to be mined.
type payer struct {
	key   *ecdsa.PrivateKey
	addr  common.Address
	nonce uint64
	known bool
}

func (p *payer) send(t *testing.T, ec *ethclient.Client, to common.Address, value *big.Int) string {
	return p.call(t, ec, to, value, nil, 21_000)
}

// call sends a transaction with data and a gas limit, without waiting for it.
func (p *payer) call(t *testing.T, ec *ethclient.Client, to common.Address, value *big.Int, data []byte, gas uint64) string {
	t.Helper()
	ctx := t.Context()
	if !p.known {
		n, err := ec.PendingNonceAt(ctx, p.addr)
		if err != nil {
			t.Fatal(err)
		}
		p.nonce, p.known = n, true
	}
	tx, err := types.SignTx(types.NewTx(&types.DynamicFeeTx{
		ChainID: big.NewInt(1337), Nonce: p.nonce, To: &to, Value: value, Data: data, Gas: gas,
		GasTipCap: big.NewInt(1_000_000_000), GasFeeCap: big.NewInt(100_000_000_000),
	}), types.LatestSignerForChainID(big.NewInt(1337)), p.key)
	if err != nil {
		t.Fatal(err)
	}
	if err := ec.SendTransaction(ctx, tx); err != nil {
		t.Fatal(err)
	}
	p.nonce++
	return strings.ToLower(tx.Hash().Hex())
}

// waitConfirmed waits until tx is mined and confirmations more blocks are on top.
func waitConfirmed(t *testing.T, ec *ethclient.Client, tx string, confirmations uint64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	for {
		r, err := ec.TransactionReceipt(ctx, common.HexToHash(tx))
		if err == nil {
			head, err := ec.BlockNumber(ctx)
			if err == nil && head >= r.BlockNumber.Uint64()+confirmations {
				return
			}
		}
		if ctx.Err() != nil {
			t.Fatalf("payment %s not confirmed within 30 s", tx)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// kill ends the server with SIGKILL: no shutdown, no deferred call, as a crash or an OOM kill.
func (s *server) kill() {
	s.cmd.Process.Kill()
	s.cmd.Wait()
}
