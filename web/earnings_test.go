package web

import (
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/ethereum/go-ethereum/common"

	"nodeledger/chain"
	"nodeledger/handlers"
	"nodeledger/store/storetest"
)

// TestEarningsAgainstTheContract checks what /buy and the node page say a node earns against
// what factory.distribute then credits it on the dev chain, to the wei: a fixed round at an odd
// base (every weight rounds down), and pool rounds, where a node bought now shares the pool.
func TestEarningsAgainstTheContract(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	dc, c := startDevChain(t)
	storetest.Tier(t, db, 1, "Standard", "100000000000000000", true)
	storetest.Tier(t, db, 2, "Pro", "1000000000000000000", true)
	owner := strings.ToLower(dc.Buyers[0].Address.Hex())
	storetest.Node(t, db, "1", owner, t0)
	transact(t, dc, c, dc.Owner.Key, &dc.Factory, c.SetTierWeightData(1, 12345), nil)
	transact(t, dc, c, dc.Owner.Key, &dc.Factory, c.SetTierWeightData(2, 30001), nil)
	refs := byte(0)
	mint := func(t *testing.T, tier uint8) { // five nodes a wallet, as the dev factory allows
		refs++
		to := dc.Buyers[int(refs-1)/5].Address
		transact(t, dc, c, dc.Minter.Key, &dc.Factory, c.MintData(to, tier, common.Hash{refs}), nil)
	}
	for _, tier := range []uint8{1, 1, 1, 2, 2} { // node 1 is tier 1
		mint(t, tier)
	}
	rounds := int64(0)
	// distribute runs a round on chain as the credit pass would, and answers what it credited
	// each of nodes.
	distribute := func(t *testing.T, mode uint8, amount *big.Int, nodes ...int64) []*big.Int {
		t.Helper()
		st, err := c.RoundState(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		before := make([]*big.Int, len(nodes))
		for i, n := range nodes {
			before[i] = nodeInfo(t, c, n).Credited
		}
		rounds++
		value := amount
		if mode == chain.RoundFixed {
			value = big.NewInt(1e18) // more than the round credits: the rest stays in the contract
		}
		transact(t, dc, c, dc.Distributor.Key, &dc.Factory, c.DistributeData(big.NewInt(rounds), mode, amount, st.Nodes, st.WeightsVersion), value)
		for i, n := range nodes {
			before[i] = new(big.Int).Sub(nodeInfo(t, c, n).Credited, before[i])
		}
		return before
	}
	figure := func(t *testing.T, doc *goquery.Document, scope, testid string) string {
		t.Helper()
		v, ok := doc.Find(scope + ` [data-testid="` + testid + `"]`).Attr("data-wei")
		if !ok {
			t.Fatalf("no %s in %s: %q", testid, scope, doc.Find("main").Text())
		}
		return v
	}
	base, pool := big.NewInt(1_000_000_007), big.NewInt(99_999_999_999)
	cfg := handlers.Config{ChainID: 1337, PaymentAddress: payTo, DistEnabled: true, DistPeriod: 8 * time.Hour, DistBaseWei: base, DistPoolWei: pool}

	t.Run("fixed: the base at each tier's weight, rounded down as the contract does", func(t *testing.T) {
		cfg := cfg
		cfg.DistMode = "fixed"
		s := newChainServer(t, db, c, nil, cfg)
		buy := page(t, s.get(t, "/buy").Body)
		standard, pro := figure(t, buy, `[data-tier="1"]`, "earnings-round"), figure(t, buy, `[data-tier="2"]`, "earnings-round")
		node := page(t, s.get(t, "/node/1").Body)
		credited := distribute(t, chain.RoundFixed, base, 1, 4)
		if standard != "1234500008" || credited[0].String() != standard || figure(t, node, "main", "earnings-round") != standard ||
			pro != "3000100021" || credited[1].String() != pro {
			t.Fatalf("page says %s and %s (node page %s), the contract credited %s and %s", standard, pro, figure(t, node, "main", "earnings-round"), credited[0], credited[1])
		}
		if got := figure(t, buy, `[data-tier="1"]`, "earnings-30d"); got != "111105000720" { // 90 rounds of 8 hours
			t.Fatalf("per 30 days %s", got)
		}
		if !strings.Contains(text(buy, "earnings"), "at today's settings") {
			t.Fatalf("earnings %q", text(buy, "earnings"))
		}
		// Every figure of what a node earns says it is an estimate the operator may change.
		home := page(t, s.get(t, "/").Body)
		for name, doc := range map[string]*goquery.Document{"/buy": buy, "/node/1": node} {
			if got := doc.Find(`[data-testid=earnings-estimate]`).First().Text(); got != "An estimate, not a promise: the operator may change what a round pays." {
				t.Errorf("%s: %q", name, got)
			}
		}
		if got := text(home, "earnings-basis"); !strings.HasSuffix(got, "An estimate, not a promise: the operator may change what a round pays.") {
			t.Errorf("/: %q", got)
		}
	})
	t.Run("pool: today's pool and carry over today's weight; a node bought now counts", func(t *testing.T) {
		cfg := cfg
		cfg.DistMode = "pool"
		s := newChainServer(t, db, c, nil, cfg)
		// The node page: node 1 among the nodes the chain has.
		node := page(t, s.get(t, "/node/1").Body)
		credited := distribute(t, chain.RoundPool, pool, 1)
		if got := figure(t, node, "main", "earnings-round"); got != credited[0].String() {
			t.Fatalf("node page says %s, the contract credited %s", got, credited[0])
		}
		// /buy: a Pro node bought now, counted in the pool, with the carry the round left.
		buy := page(t, s.get(t, "/buy").Body)
		said := figure(t, buy, `[data-tier="2"]`, "earnings-round")
		mint(t, 2) // node 6
		credited = distribute(t, chain.RoundPool, pool, 6)
		if said != credited[0].String() {
			t.Fatalf("/buy says %s, the contract credited the new node %s", said, credited[0])
		}
		if !strings.Contains(text(buy, "earnings"), "changes as nodes are sold") {
			t.Fatalf("earnings %q", text(buy, "earnings"))
		}
	})
	t.Run("payouts off: no figure, and the page says so", func(t *testing.T) {
		cfg := cfg
		cfg.DistEnabled = false
		s := newChainServer(t, db, c, nil, cfg)
		for _, path := range []string{"/buy", "/node/1"} {
			doc := page(t, s.get(t, path).Body)
			if doc.Find(`[data-testid="earnings-round"]`).Length() != 0 || !strings.Contains(text(doc, "earnings-off"), "Payouts are switched off") {
				t.Fatalf("%s: %q", path, doc.Find("main").Text())
			}
		}
	})
}

func nodeInfo(t *testing.T, c *chain.Client, id int64) chain.NodeInfo {
	t.Helper()
	info, err := c.NodeInfo(t.Context(), big.NewInt(id))
	if err != nil {
		t.Fatal(err)
	}
	return info
}
