package jobs

import (
	"math/big"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"nodeledger/store"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// TestLedgerAgreesWithChainAfterARandomRun drives random payments (good and bad), credit rounds,
// withdrawals (some too large, which revert) and passes, then checks
// that for every node the ledger's owner, balance, credited and withdrawn equal nodeInfo, that
// the ledger has every node the chain minted, and that every payment was minted or rejected.
// NODELEDGER_SEED replays a run.
func TestLedgerAgreesWithChainAfterARandomRun(t *testing.T) {
	t.Parallel()
	rng := seededRand(t)
	e := newEnv(t, func(c *Config) {
		c.DistPeriod = time.Millisecond // every node is due again at once
	})
	ctx := t.Context()
	owners := map[common.Address]int{} // address -> buyer index
	for i, b := range e.dc.Buyers {
		owners[b.Address] = i
	}
	prices := []*big.Int{priceOne, priceOne, priceOne, priceTwo, priceOff, big.NewInt(12345)}

	payments := 0
	for range 40 {
		switch rng.IntN(5) {
		case 0, 1:
			e.pay(rng.IntN(len(e.dc.Buyers)), e.dc.Payments, prices[rng.IntN(len(prices))])
			payments++
		case 2:
			mustPass(t, e.j)
		case 3:
			if _, err := e.j.Credit(ctx); err != nil {
				t.Fatalf("credit pass: %v", err)
			}
		case 4:
			nodes, err := e.db.NodesFrom(ctx, 0, 1000)
			if err != nil || len(nodes) == 0 {
				continue
			}
			n := nodes[rng.IntN(len(nodes))]
			info, err := e.c.NodeInfo(ctx, n.ChainNodeID.Int)
			if err != nil {
				t.Fatal(err)
			}
			// Up to the balance, sometimes more (a revert, recorded as a failed withdrawal); the
			// balances of this run are far below 2^63.
			amount := big.NewInt(rng.Int64N(info.Balance.Int64() + 2))
			call := factoryABI.PackWithdraw(n.ChainNodeID.Int, e.buyer(rng.IntN(len(e.dc.Buyers))), amount)
			r := e.send(e.dc.Buyers[owners[info.Owner]].Key, e.dc.Factory, call, 200_000)
			if amount.Cmp(info.Balance) > 0 && r.Status == types.ReceiptStatusSuccessful {
				t.Fatalf("withdrawing %s of a balance of %s succeeded", amount, info.Balance)
			}
		}
		if rng.IntN(4) == 0 {
			mustReconcile(t, e.j)
		}
	}
	// Let everything settle: payments, the last round, the reconciler.
	e.settle()
	for range 3 {
		if _, err := e.j.Credit(ctx); err != nil {
			t.Fatal(err)
		}
	}
	mustReconcile(t, e.j)
	nodes := e.checkAgreement(payments)
	t.Logf("%d payments, %d nodes", payments, len(nodes))
}

// seededRand is the random source of a randomized test: seeded from the clock, or from
// NODELEDGER_SEED to replay a run; the seed is logged.
func seededRand(t *testing.T) *rand.Rand {
	t.Helper()
	seed := uint64(time.Now().UnixNano())
	if s, err := strconv.ParseUint(os.Getenv("NODELEDGER_SEED"), 10, 64); err == nil {
		seed = s
	}
	t.Logf("NODELEDGER_SEED=%d", seed)
	return rand.New(rand.NewPCG(seed, seed))
}

// checkAgreement asserts that the chain has exactly the ledger's nodes (so no payment was minted
// twice), that every node's owner, balance, credited and withdrawn in the ledger equal nodeInfo
// (so no round credited a node twice), and that all of the payments were minted or rejected.
func (e *env) checkAgreement(payments int) []store.Node {
	t, ctx := e.t, e.t.Context()
	nodes, err := e.db.NodesFrom(ctx, 0, 10_000)
	if err != nil {
		t.Fatal(err)
	}
	onChain := 0
	for _, b := range e.dc.Buyers {
		ids, err := e.c.NodesOf(ctx, b.Address)
		if err != nil {
			t.Fatal(err)
		}
		onChain += len(ids)
	}
	if len(nodes) != onChain {
		t.Fatalf("the ledger has %d nodes, the chain %d", len(nodes), onChain)
	}
	for _, n := range nodes {
		info, err := e.c.NodeInfo(ctx, n.ChainNodeID.Int)
		if err != nil {
			t.Fatal(err)
		}
		if n.Owner != strings.ToLower(info.Owner.Hex()) || n.BalanceWei.Cmp(info.Balance) != 0 ||
			n.CumulativeWei.Cmp(info.Credited) != 0 || n.WithdrawnWei.Cmp(info.Withdrawn) != 0 {
			t.Fatalf("node %s: ledger owner %s balance %s credited %s withdrawn %s; chain %+v",
				n.ChainNodeID, n.Owner, n.BalanceWei, n.CumulativeWei, n.WithdrawnWei, info)
		}
	}
	var settled int
	if err := e.db.DB().Get(&settled, `SELECT count(*) FROM payments WHERE status IN ('minted', 'rejected')`); err != nil {
		t.Fatal(err)
	}
	if settled != payments {
		t.Fatalf("%d of %d payments minted or rejected", settled, payments)
	}
	return nodes
}
