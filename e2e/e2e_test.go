package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"nodeledger/chain"
	"nodeledger/chain/bindings"
	"nodeledger/chain/gethdev"
	"nodeledger/store/storetest"
)

// TestEndToEndGeth runs the real binary against geth --dev: it deploys the factory with
// `nodeledger deploy`, serves /api/cover from it, and rides out geth stopping and starting again.
func TestEndToEndGeth(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds the binary and runs geth")
	}
	geth := gethdev.Start(t)
	bin := buildBinary(t)
	deployerKey, deployer := hexKey(t)
	minterKey, _ := hexKey(t)
	distributorKey, distributor := hexKey(t)
	geth.Fund(deployer, 10)
	geth.Fund(distributor, 3)

	env := []string{"PATH=" + os.Getenv("PATH"), "ETH_RPC_URL=" + geth.URL(), "CHAIN_ID=1337", "REFUND_POLICY=within 2 working days",
		"DEPLOYER_KEY=" + deployerKey, "MINTER_KEY=" + minterKey, "DISTRIBUTOR_KEY=" + distributorKey}
	factory := deployFactory(t, bin, env)

	_, payments := hexKey(t)
	env = append(env, "FACTORY_ADDRESS="+factory, "DATABASE_URL="+storetest.EmptyDatabase(t),
		"PAYMENT_ADDRESS="+payments, "CRON_KEY="+cronKey, "ADMIN_KEY="+adminKey, "CONFIRMATIONS=1",
		"DIST_ENABLED=true", "DIST_PERIOD_SEC=1", "DIST_BASE_WEI=1000", "TICK_SEC=3600",
		"PUBLIC_URL=http://127.0.0.1", "SESSION_SECRET=e2e-session-secret-0123456789abcdef")
	s := startServer(t, bin, env)

	status, cover := s.get(t, "/api/cover")
	if status != 200 || cover["covered"] != true || cover["paused"] != false || cover["contract"] != strings.ToLower(factory) ||
		cover["balanceWei"] != "0" || cover["outstandingWei"] != "0" {
		t.Fatalf("cover: %d %v", status, cover)
	}
	status, health := s.get(t, "/api/cron/health")
	if status != 200 || health["distributorBalanceWei"] != "3000000000000000000" || health["isSolvent"] != true || health["paused"] != false {
		t.Fatalf("health: %d %v", status, health)
	}

	geth.Stop()
	status, cover = s.get(t, "/api/cover")
	if status != http.StatusServiceUnavailable || !strings.Contains(fmt.Sprint(cover["error"]), "chain cannot be read") || len(cover) != 1 {
		t.Fatalf("cover with geth down: %d %v", status, cover)
	}
	status, health = s.get(t, "/api/cron/health")
	for _, k := range []string{"paused", "isSolvent", "contractBalanceWei", "outstandingWei", "distributorBalanceWei"} {
		if v, present := health[k]; status != 200 || !present || v != nil {
			t.Fatalf("health with geth down: %s = %v (status %d), want null", k, v, status)
		}
	}

	geth.Start()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for {
		if status, cover = s.get(t, "/api/cover"); status == 200 {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("cover after geth came back: %d %v\nserver log:\n%s", status, cover, s.out)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if cover["covered"] != true || cover["contract"] != strings.ToLower(factory) {
		t.Fatalf("cover after recovery: %v", cover)
	}

	t.Run("payments, from a wallet and from a contract wallet, become nodes that get credited", func(t *testing.T) {
		minterAddr := strings.ToLower(crypto.PubkeyToAddress(mustKey(t, minterKey).PublicKey).Hex())
		geth.Fund(minterAddr, 5)
		buyerKey, buyer := hexKey(t)
		geth.Fund(buyer, 5)

		c, err := chain.Dial(t.Context(), geth.URL(), chain.Config{Factory: common.HexToAddress(factory)})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		// Tier 1's weight is the factory's: its owner, the deployer, sets it to 1×.
		factoryAddr := common.HexToAddress(factory)
		transact(t, c.NewSender(chain.LocalSigner(mustKey(t, deployerKey)), big.NewInt(1337)), &factoryAddr, c.SetTierWeightData(1, 10000), nil)
		price := "10000000000000000" // 0.01 ETH
		if status, body := s.send(t, http.MethodPut, "/api/admin/tiers/1", "X-Admin-Key", adminKey,
			`{"label":"Standard","priceWei":"`+price+`","maxPerWallet":5,"payoutBps":10000,"enabled":true}`); status != 200 {
			t.Fatalf("putting tier 1: %d %v", status, body)
		}
		sender := c.NewSender(chain.LocalSigner(mustKey(t, buyerKey)), big.NewInt(1337))
		value, _ := new(big.Int).SetString(price, 10)
		payTo := common.HexToAddress(payments)
		transact(t, sender, &payTo, nil, value)
		r := transact(t, sender, nil, common.FromHex(bindings.ForwarderMetaData.Bin), nil)
		wallet := r.ContractAddress
		transact(t, sender, &wallet, bindings.NewForwarder().PackPay(payTo), value)

		// geth --dev mines a block a second: passes run until both payments are a node.
		deadline := time.Now().Add(30 * time.Second)
		for {
			_, sum := s.send(t, http.MethodPost, "/api/cron/payments", "X-Cron-Key", cronKey, "")
			n1, n2 := s.nodes(t, buyer), s.nodes(t, strings.ToLower(wallet.Hex()))
			if n1 == 1 && n2 == 1 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("nodes of the wallet %d, of the contract wallet %d; last pass %v\n%s", n1, n2, sum, s.out)
			}
			time.Sleep(500 * time.Millisecond)
		}
		if _, health := s.get(t, "/api/cron/health"); health["internalTransfers"] != "traced" {
			t.Fatalf("geth serves the tracer, health says %v", health["internalTransfers"])
		}

		time.Sleep(1100 * time.Millisecond) // DIST_PERIOD_SEC=1: both nodes are due
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(500 * time.Millisecond) {
			status, sum := s.send(t, http.MethodPost, "/api/cron/credit", "X-Cron-Key", cronKey, "")
			if status == 200 && sum["ran"] == true && sum["status"] == "confirmed" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("credit pass: %d %v", status, sum)
			}
		}
		for _, id := range []string{"1", "2"} {
			_, node := s.get(t, "/api/node/"+id)
			if node["balanceWei"] != "1000" || len(node["credits"].([]any)) != 1 {
				t.Fatalf("node %s after a round: %v", id, node)
			}
		}
		status, cover := s.get(t, "/api/cover")
		if status != 200 || cover["outstandingWei"] != "2000" || cover["covered"] != true {
			t.Fatalf("cover after a round: %d %v", status, cover)
		}
	})
}

// transact signs, sends and waits for a transaction that must succeed.
func transact(t *testing.T, s *chain.Sender, to *common.Address, data []byte, value *big.Int) *types.Receipt {
	t.Helper()
	r, err := s.Transact(t.Context(), to, data, value)
	if err != nil || r.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("transaction to %v: %v", to, err)
	}
	return r
}

// nodes counts the nodes /api/nodes/{addr} shows.
func (s *server) nodes(t *testing.T, addr string) int {
	t.Helper()
	resp, err := http.Get(s.base + "/api/nodes/" + addr)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var nodes []any
	json.NewDecoder(resp.Body).Decode(&nodes)
	return len(nodes)
}
