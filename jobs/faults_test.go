package jobs

import (
	"context"
	"log/slog"
	"math/big"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/core/types"

	"nodeledger/chain"
	"nodeledger/chain/devchain"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// TestPassesThroughNetworkFaults runs the passes with the database and the RPC each behind
// toxiproxy, and injects every fault into each at a random moment of a payments pass and of a
// credit pass. After every faulted pass, the ledger holds no half-done write and the scan
// cursor stands on no block with a payment the ledger has not recorded. Once the fault heals,
// the same passes, not restarted, go through; at the end every payment was minted or rejected
// once and the ledger equals the chain, node by node. NODELEDGER_SEED replays a run, and
// NODELEDGER_FAULT_ROUNDS repeats it (one round is 16 faults).
func TestPassesThroughNetworkFaults(t *testing.T) {
	t.Parallel()
	rng := seededRand(t)
	rounds := 1
	if n, err := strconv.Atoi(os.Getenv("NODELEDGER_FAULT_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}

	e := newEnvOn(t, devchain.Options{RPCAddr: "127.0.0.1:0"}, func(c *Config) {
		c.DistPeriod = time.Millisecond // every node is due at every credit pass
	})
	ctx := t.Context()
	dbProxy, dbURL := storetest.ProxyURL(t, storetest.URL(t, e.db))
	st, err := storetest.Open(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rpcProxy, rpcURL := storetest.ProxyURL(t, e.dc.RPCURL())
	c, err := chain.Dial(ctx, rpcURL, chain.Config{Factory: e.dc.Factory, CallTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	j := New(st, c, chain.LocalSigner(e.dc.Minter.Key), chain.LocalSigner(e.dc.Distributor.Key), e.cfg, slog.New(slog.DiscardHandler))

	prices := []*big.Int{priceOne, priceOne, priceTwo, big.NewInt(12345)} // tier 1, tier 2 (DHT holders only), no tier
	paidIn := map[string]uint64{}                                         // payment tx → its block
	pay := func() {
		b := e.dc.Buyers[rng.IntN(len(e.dc.Buyers))]
		r, err := e.c.NewSender(chain.LocalSigner(b.Key), e.dc.ChainID()).Transact(ctx, &e.dc.Payments, nil, prices[rng.IntN(len(prices))])
		if err != nil || r.Status != types.ReceiptStatusSuccessful {
			t.Fatalf("payment: %v", err)
		}
		paidIn[strings.ToLower(r.TxHash.Hex())] = r.BlockNumber.Uint64()
	}
	passes := map[string]func(context.Context) error{
		"payments": func(ctx context.Context) error { _, err := j.Payments(ctx); return err },
		"credit":   func(ctx context.Context) error { _, err := j.Credit(ctx); return err },
	}

	injected, failed := 0, 0
	for range rounds {
		for _, dep := range []struct {
			name  string
			proxy *storetest.FaultProxy
		}{{"database", dbProxy}, {"rpc", rpcProxy}} {
			for _, f := range storetest.Faults {
				for _, pass := range []string{"payments", "credit"} {
					iterStart := time.Now()
					pay()
					pay()
					passCtx, cancel := context.WithTimeout(ctx, 2*time.Second)
					done := make(chan error, 1)
					go func() { done <- passes[pass](passCtx) }()
					time.Sleep(time.Duration(rng.IntN(200)) * time.Millisecond)
					dep.proxy.Inject(f)
					injected++
					if err := <-done; err != nil {
						failed++
					}
					cancel()
					dep.proxy.Heal(f)
					checkNoHalfWrites(t, e.db, paidIn, dep.name+" "+f.Name+" during "+pass)
					t.Logf("%s %s during the %s pass: over in %v", dep.name, f.Name, pass, time.Since(iterStart).Round(time.Millisecond))

					// Recovery without a restart: the same passes go through now.
					if err := passes[pass](ctx); err != nil {
						t.Fatalf("%s pass after the %s's %q fault healed: %v", pass, dep.name, f.Name, err)
					}
				}
			}
		}
	}
	t.Logf("%d faults injected, %d passes failed by them, %d payments", injected, failed, len(paidIn))

	for range 5 {
		mustPass(t, j)
		if len(payments(t, e.db, "pending"))+len(payments(t, e.db, "minting")) == 0 {
			break
		}
	}
	for range 3 {
		if _, err := j.Credit(ctx); err != nil {
			t.Fatal(err)
		}
	}
	mustReconcile(t, j)
	e.checkAgreement(len(paidIn))
}

// checkNoHalfWrites asserts, reading the ledger directly, that a minted payment has its node and
// only a minted one has, that every node's balance is its credits less its withdrawals, and
// that every payment in a block up to the scan cursor is recorded.
func checkNoHalfWrites(t *testing.T, db *store.Store, paidIn map[string]uint64, after string) {
	t.Helper()
	ctx := t.Context()
	var bad int
	if err := db.DB().GetContext(ctx, &bad, `
		SELECT count(*) FROM payments p
		WHERE (p.status = 'minted') <> EXISTS (SELECT 1 FROM nodes n WHERE n.payment_id = p.id)`); err != nil {
		t.Fatal(err)
	}
	if bad != 0 {
		t.Fatalf("after the %s: %d payments whose status disagrees with their node", after, bad)
	}
	if err := db.DB().GetContext(ctx, &bad, `SELECT count(*) FROM nodes WHERE balance_wei <> cumulative_wei - withdrawn_wei`); err != nil {
		t.Fatal(err)
	}
	if bad != 0 {
		t.Fatalf("after the %s: %d nodes whose balance is not credits less withdrawals", after, bad)
	}

	cur, err := db.Cursor(ctx, store.PaymentsScanner)
	if err == store.ErrNotFound {
		return
	} else if err != nil {
		t.Fatal(err)
	}
	for tx, block := range paidIn {
		if int64(block) > cur.Number {
			continue
		}
		var n int
		if err := db.DB().GetContext(ctx, &n, `SELECT count(*) FROM payments WHERE tx_hash = $1`, tx); err != nil {
			t.Fatal(err)
		}
		if n != 1 {
			t.Fatalf("after the %s: the cursor is on block %d, past payment %s of block %d, which the ledger has %d times",
				after, cur.Number, tx, block, n)
		}
	}
}
