package web

import (
	"crypto/ecdsa"
	"log/slog"
	"math/big"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"nodeledger/chain"
	"nodeledger/chain/devchain"
	"nodeledger/handlers"
	"nodeledger/jobs"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// startDevChain runs an in-process dev chain for one test and returns a client of its factory.
func startDevChain(t testing.TB) (*devchain.Chain, *chain.Client) {
	t.Helper()
	return startDevChainWith(t, devchain.Options{})
}

// startDevChainWith is startDevChain with opts.
func startDevChainWith(t testing.TB, opts devchain.Options) (*devchain.Chain, *chain.Client) {
	t.Helper()
	dc, err := devchain.Start(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dc.Close() })
	// Payers are screened against the dev chain's sanctions oracle, as in dev mode.
	return dc, chain.New(dc.RPC(), chain.Config{Factory: dc.Factory, PriceFeed: dc.PriceFeed, SanctionsOracle: dc.SanctionsOracle})
}

// devchainOverHTTP runs a dev chain that serves JSON-RPC over HTTP, for tests that reach it
// through the network.
func devchainOverHTTP(t *testing.T) (*devchain.Chain, error) {
	t.Helper()
	dc, err := devchain.Start(t.Context(), devchain.Options{RPCAddr: "127.0.0.1:0"})
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { dc.Close() })
	return dc, nil
}

// transact sends a transaction from key on the dev chain and fails the test unless it succeeds.
func transact(t *testing.T, dc *devchain.Chain, c *chain.Client, key *ecdsa.PrivateKey, to *common.Address, data []byte, value *big.Int) *types.Receipt {
	t.Helper()
	r, err := c.NewSender(chain.LocalSigner(key), dc.ChainID()).Transact(t.Context(), to, data, value)
	if err != nil || r.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("transaction to %v: %v", to, err)
	}
	return r
}

// fundFactory sends wei from a dev buyer to the factory's receive().
func fundFactory(t *testing.T, dc *devchain.Chain, c *chain.Client, wei int64) {
	t.Helper()
	transact(t, dc, c, dc.Buyers[0].Key, &dc.Factory, nil, big.NewInt(wei))
}

type coverBody struct {
	Contract       string `json:"contract"`
	BalanceWei     string `json:"balanceWei"`
	OutstandingWei string `json:"outstandingWei"`
	Covered        bool   `json:"covered"`
	Paused         bool   `json:"paused"`
	Block          uint64 `json:"block"`
}

func TestCover(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	dc, c := startDevChain(t)
	s := newChainServer(t, db, c, nil, handlers.Config{})

	rec := s.get(t, "/api/cover")
	wantStatus(t, rec, http.StatusOK)
	cv := decode[coverBody](t, rec)
	if cv.Contract != strings.ToLower(dc.Factory.Hex()) || cv.BalanceWei != "0" || cv.OutstandingWei != "0" || !cv.Covered || cv.Paused || cv.Block == 0 {
		t.Fatalf("fresh factory: %+v", cv)
	}
	if got := rec.Header().Get("Cache-Control"); got != "public, max-age=0, s-maxage=5" {
		t.Fatalf("Cache-Control %q", got)
	}

	fundFactory(t, dc, c, 12345)
	if cv := decode[coverBody](t, s.get(t, "/api/cover")); cv.BalanceWei != "12345" || !cv.Covered {
		t.Fatalf("after funding: %+v", cv)
	}

	t.Run("503 without a chain", func(t *testing.T) {
		rec := newServer(t, db, handlers.Config{}).get(t, "/api/cover")
		wantStatus(t, rec, http.StatusServiceUnavailable)
	})
	t.Run("503 when the chain cannot be read, quickly", func(t *testing.T) {
		dead, err := chain.Dial(t.Context(), "http://127.0.0.1:1", chain.Config{Factory: dc.Factory})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		rec := newChainServer(t, db, dead, nil, handlers.Config{}).get(t, "/api/cover")
		wantStatus(t, rec, http.StatusServiceUnavailable)
		if msg := errorMessage(t, rec); !strings.Contains(msg, "chain cannot be read") || strings.Contains(msg, "127.0.0.1") {
			t.Fatalf("message %q", msg)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("took %v", d)
		}
	})
}

func TestPriceFromFeed(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	_, c := startDevChain(t)
	rec := newServer(t, db, handlers.Config{Price: c}).get(t, "/api/price")
	if got := strings.TrimSpace(rec.Body.String()); got != `{"usd":3000}` {
		t.Fatalf("got %s", got)
	}
}

type healthBody struct {
	LastTickAt            *string `json:"lastTickAt"`
	SecondsSinceLastTick  *int64  `json:"secondsSinceLastTick"`
	Stale                 bool    `json:"stale"`
	StaleAfterSec         int     `json:"staleAfterSec"`
	TickSec               int     `json:"tickSec"`
	DistEnabled           bool    `json:"distEnabled"`
	DistMode              string  `json:"distMode"`
	Paused                *bool   `json:"paused"`
	DueNodes              int64   `json:"dueNodes"`
	ScheduledNodes        int64   `json:"scheduledNodes"`
	DistributorBalanceWei *string `json:"distributorBalanceWei"`
	ContractBalanceWei    *string `json:"contractBalanceWei"`
	OutstandingWei        *string `json:"outstandingWei"`
	IsSolvent             *bool   `json:"isSolvent"`
	InternalTransfers     *string `json:"internalTransfers"`
	Outbox                *struct {
		Waiting          int     `json:"waiting"`
		OldestWaitingSec *int64  `json:"oldestWaitingSec"`
		Replacements     int64   `json:"replacements"`
		AtFeeCap         int     `json:"atFeeCap"`
		MaxFeeWei        *string `json:"maxFeeWei"`
	} `json:"outbox"`
}

func TestSchedulerHealth(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	dc, c := startDevChain(t)
	cfg := handlers.Config{TickSec: 60, StaleAfterSec: 300, DistEnabled: true, DistMode: "pool"}

	t.Run("never ticked", func(t *testing.T) {
		rec := newChainServer(t, db, c, nil, cfg).get(t, "/api/cron/health")
		wantStatus(t, rec, http.StatusOK)
		h := decode[healthBody](t, rec)
		if h.LastTickAt != nil || h.SecondsSinceLastTick != nil || !h.Stale || h.TickSec != 60 || h.StaleAfterSec != 300 ||
			!h.DistEnabled || h.DistMode != "pool" {
			t.Fatalf("got %+v", h)
		}
		if h.Paused == nil || *h.Paused || h.IsSolvent == nil || !*h.IsSolvent || h.ContractBalanceWei == nil || *h.ContractBalanceWei != "0" ||
			h.OutstandingWei == nil || *h.OutstandingWei != "0" || h.DistributorBalanceWei == nil || *h.DistributorBalanceWei != "10000000000000000000000" {
			t.Fatalf("chain readings %+v", h)
		}
		if rec.Header().Get("Cache-Control") != "no-store" {
			t.Fatalf("Cache-Control %q", rec.Header().Get("Cache-Control"))
		}
		// No account address of the operator's keys in the body.
		body := strings.ToLower(rec.Body.String())
		for _, a := range []common.Address{dc.Distributor.Address, dc.Minter.Address, dc.Owner.Address, dc.Payments} {
			if strings.Contains(body, strings.ToLower(a.Hex()[2:])) {
				t.Fatalf("body names account %s: %s", a, body)
			}
		}
	})

	t.Run("ticks and due nodes", func(t *testing.T) {
		now := time.Now()
		// Two scheduled nodes and one not: a round credits every node, so the scheduled nodes
		// share the next round's time and fall due together.
		n1 := storetest.Node(t, db, "1", alice, t0)
		n2 := storetest.Node(t, db, "2", alice, t0)
		storetest.Node(t, db, "3", bob, t0)
		schedule := func(at time.Time) {
			mustExec(t, db, `UPDATE nodes SET next_credit_at = $1 WHERE id IN ($2, $3)`, at, n1, n2)
		}
		schedule(now.Add(time.Hour))
		mustExec(t, db, `INSERT INTO scheduler_ticks (started_at) VALUES ($1), ($2)`, now.Add(-time.Hour), now.Add(-42*time.Second))
		h := decode[healthBody](t, newChainServer(t, db, c, nil, cfg).get(t, "/api/cron/health"))
		if h.LastTickAt == nil || h.SecondsSinceLastTick == nil || *h.SecondsSinceLastTick < 41 || *h.SecondsSinceLastTick > 60 || h.Stale {
			t.Fatalf("recent tick: %+v", h)
		}
		if h.DueNodes != 0 || h.ScheduledNodes != 2 {
			t.Fatalf("the next round in an hour: due %d scheduled %d, want 0 and 2", h.DueNodes, h.ScheduledNodes)
		}
		schedule(now.Add(-time.Minute))
		h = decode[healthBody](t, newChainServer(t, db, c, nil, cfg).get(t, "/api/cron/health"))
		if h.DueNodes != 2 || h.ScheduledNodes != 2 {
			t.Fatalf("the next round due: due %d scheduled %d, want 2 and 2", h.DueNodes, h.ScheduledNodes)
		}
		mustExec(t, db, `DELETE FROM scheduler_ticks WHERE started_at > $1`, now.Add(-time.Minute))
		if h := decode[healthBody](t, newChainServer(t, db, c, nil, cfg).get(t, "/api/cron/health")); !h.Stale || *h.SecondsSinceLastTick < 3599 {
			t.Fatalf("an hour-old tick: %+v", h)
		}
	})

	t.Run("transactions waiting, replaced, at the fee cap", func(t *testing.T) {
		h := decode[healthBody](t, newChainServer(t, db, c, nil, cfg).get(t, "/api/cron/health"))
		if ob := h.Outbox; ob == nil || ob.Waiting != 0 || ob.OldestWaitingSec != nil || ob.Replacements != 0 || ob.MaxFeeWei != nil {
			t.Fatalf("nothing sent yet: outbox %+v", ob)
		}
		first, second := storetest.SentTx("mint", 7), storetest.SentTx("mint, higher fees", 7)
		second.FeeCapWei = store.Uint256{Int: big.NewInt(50)}
		storetest.MintingPayment(t, db, "paid", alice, first, second)
		j := jobs.New(db, c, nil, nil, jobs.Config{MaxFeeWei: big.NewInt(50)}, slog.New(slog.DiscardHandler))
		h = decode[healthBody](t, newChainServer(t, db, c, j, cfg).get(t, "/api/cron/health"))
		if ob := h.Outbox; ob == nil || ob.Waiting != 1 || ob.OldestWaitingSec == nil || *ob.OldestWaitingSec > 60 ||
			ob.Replacements != 1 || ob.AtFeeCap != 1 || ob.MaxFeeWei == nil || *ob.MaxFeeWei != "50" {
			t.Fatalf("outbox %+v", ob)
		}
	})

	t.Run("chain readings are null, never zero, when the chain cannot be read", func(t *testing.T) {
		dead, _ := chain.Dial(t.Context(), "http://127.0.0.1:1", chain.Config{Factory: dc.Factory})
		rec := newChainServer(t, db, dead, nil, cfg).get(t, "/api/cron/health")
		wantStatus(t, rec, http.StatusOK)
		h := decode[healthBody](t, rec)
		if h.Paused != nil || h.IsSolvent != nil || h.ContractBalanceWei != nil || h.OutstandingWei != nil || h.DistributorBalanceWei != nil {
			t.Fatalf("got %+v", h)
		}
		for _, k := range []string{`"paused":null`, `"isSolvent":null`, `"distributorBalanceWei":null`} {
			if !strings.Contains(rec.Body.String(), k) {
				t.Fatalf("body lacks %s: %s", k, rec.Body)
			}
		}
	})
}

func mustExec(t *testing.T, db *store.Store, query string, args ...any) {
	t.Helper()
	if _, err := db.DB().Exec(query, args...); err != nil {
		t.Fatal(err)
	}
}
