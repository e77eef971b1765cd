package e2e

import (
	"math/big"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"nodeledger/chain"
	"nodeledger/chain/clefdev"
	"nodeledger/chain/gethdev"
	"nodeledger/store/storetest"
)

// TestEndToEndClef runs the real binary with the minter's key in clef and nowhere else: deploy
// takes the minter's account from MINTER_SIGNER, and a payment becomes a node minted through clef.
func TestEndToEndClef(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds the binary and runs geth and clef")
	}
	geth := gethdev.Start(t)
	bin := buildBinary(t)
	deployerKey, deployer := hexKey(t)
	minterKey, minter := hexKey(t)
	distributorKey, _ := hexKey(t)
	geth.Fund(deployer, 10)
	geth.Fund(minter, 5)

	// deploy reads only the minter's account from MINTER_SIGNER; clef's rules need the factory's
	// address, so clef starts after it.
	env := []string{"PATH=" + os.Getenv("PATH"), "ETH_RPC_URL=" + geth.URL(), "CHAIN_ID=1337", "REFUND_POLICY=within 2 working days",
		"DEPLOYER_KEY=" + deployerKey, "MINTER_SIGNER=http://127.0.0.1:8550#" + minter, "DISTRIBUTOR_KEY=" + distributorKey}
	factory := deployFactory(t, bin, env)
	clef := clefdev.Start(t, mustKey(t, minterKey), 1337, clefdev.Rules(common.HexToAddress(factory)))

	_, payments := hexKey(t)
	env = append(env, "MINTER_SIGNER="+clef+"#"+minter, "FACTORY_ADDRESS="+factory, "DATABASE_URL="+storetest.EmptyDatabase(t),
		"PAYMENT_ADDRESS="+payments, "CRON_KEY="+cronKey, "ADMIN_KEY="+adminKey, "CONFIRMATIONS=1", "TICK_SEC=3600",
		"PUBLIC_URL=http://127.0.0.1", "SESSION_SECRET=e2e-session-secret-0123456789abcdef") // the last of a name wins
	s := startServer(t, bin, env)
	price := "10000000000000000" // 0.01 ETH
	if status, body := s.send(t, http.MethodPut, "/api/admin/tiers/1", "X-Admin-Key", adminKey,
		`{"label":"Standard","priceWei":"`+price+`","maxPerWallet":5,"enabled":true}`); status != 200 {
		t.Fatalf("putting tier 1: %d %v", status, body)
	}
	buyerKey, buyer := hexKey(t)
	geth.Fund(buyer, 1)
	c, err := chain.Dial(t.Context(), geth.URL(), chain.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	value, _ := new(big.Int).SetString(price, 10)
	payTo := common.HexToAddress(payments)
	transact(t, c.NewSender(chain.LocalSigner(mustKey(t, buyerKey)), big.NewInt(1337)), &payTo, nil, value)

	// geth --dev mines a block a second: passes run until the payment is a node.
	for deadline := time.Now().Add(30 * time.Second); s.nodes(t, buyer) != 1; time.Sleep(500 * time.Millisecond) {
		_, sum := s.send(t, http.MethodPost, "/api/cron/payments", "X-Cron-Key", cronKey, "")
		if time.Now().After(deadline) {
			t.Fatalf("no node for the buyer; last pass %v\n%s", sum, s.out)
		}
	}
}
