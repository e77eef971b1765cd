package web

import (
	"fmt"
	"log/slog"
	"math/big"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"nodeledger/chain"
	"nodeledger/handlers"
	"nodeledger/jobs"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// chainPasses is a dev chain, a ledger and the passes over them.
type chainPasses struct {
	chain *chain.Client
	jobs  *jobs.Jobs
	db    *store.Store
}

// server serves the routes over the chain and the passes with cfg.
func (p chainPasses) server(t *testing.T, cfg handlers.Config) *testServer {
	return newChainServer(t, p.db, p.chain, p.jobs, cfg)
}

// passesOn returns passes that hold the dev keys over a fresh dev chain, and a configuration.
func passesOn(t *testing.T, db *store.Store) (chainPasses, handlers.Config) {
	dc, c := startDevChain(t)
	j := jobs.New(db, c, chain.LocalSigner(dc.Minter.Key), chain.LocalSigner(dc.Distributor.Key), jobs.Config{ChainID: dc.ChainID(), PaymentAddress: dc.Payments},
		slog.New(slog.DiscardHandler))
	return chainPasses{c, j, db}, handlers.Config{DistMode: "fixed", TickSec: 60, StaleAfterSec: 300}
}

func TestCronPaymentsRoute(t *testing.T) {
	t.Parallel()
	// The pass scans the fresh chain: a ledger that remembers another chain's blocks would see
	// this one as a reorg of it.
	db := storetest.New(t)
	p, cfg := passesOn(t, db)
	const key = "a-long-enough-cron-key"

	t.Run("404 when no key is configured", func(t *testing.T) {
		s := p.server(t, cfg)
		for _, m := range []string{http.MethodGet, http.MethodPost} {
			wantStatus(t, s.do(t, m, "/api/cron/payments", "", "X-Cron-Key", key), http.StatusNotFound)
		}
		t.Run("whatever the key and wherever it is sent", func(t *testing.T) {
			for _, header := range [][]string{nil, {"Authorization", "Bearer " + key}, {"X-Cron-Key", ""}} {
				wantStatus(t, s.do(t, http.MethodPost, "/api/cron/payments", "", header...), http.StatusNotFound)
			}
		})
	})

	cfg.CronKey = key
	s := p.server(t, cfg)
	for i, tc := range []struct {
		name   string
		header []string
	}{
		{"no key", nil},
		{"wrong key", []string{"X-Cron-Key", "a-long-enough-cron-kex"}},
		{"key of another length", []string{"X-Cron-Key", "short"}},
		{"wrong bearer", []string{"Authorization", "Bearer nope"}},
		{"key without Bearer", []string{"Authorization", key}},
		{"a wrong x-cron-key beside the right bearer", []string{"X-Cron-Key", "wrong", "Authorization", "Bearer " + key}},
	} {
		// Each from its own address: more wrong keys from one lock it out (TestWrongKeys).
		remote := fmt.Sprintf("198.51.100.%d:1", 1+i)
		t.Run("401 for "+tc.name, func(t *testing.T) {
			rec := s.do(t, http.MethodPost, "/api/cron/payments", remote, tc.header...)
			wantStatus(t, rec, http.StatusUnauthorized)
			if msg := errorMessage(t, rec); strings.Contains(strings.ToLower(msg), "key") {
				t.Fatalf("401 says too much: %q", msg)
			}
		})
	}
	for _, header := range [][]string{{"X-Cron-Key", key}, {"Authorization", "Bearer " + key}} {
		t.Run("200 with "+header[0], func(t *testing.T) {
			for _, m := range []string{http.MethodGet, http.MethodPost} {
				rec := s.do(t, m, "/api/cron/payments", "", header...)
				wantStatus(t, rec, http.StatusOK)
				if sum := decode[jobs.PaymentsSummary](t, rec); !sum.Ran {
					t.Fatalf("summary %+v", sum)
				}
				// Nothing reached the payments wallet that its transactions do not explain.
				if h := decode[healthBody](t, s.get(t, "/api/cron/health")); h.InternalTransfers == nil || *h.InternalTransfers != "not needed" {
					t.Fatalf("after a scan on the dev chain, internalTransfers %v", h.InternalTransfers)
				}
				if rec.Header().Get("Cache-Control") != "no-store" {
					t.Fatalf("Cache-Control %q", rec.Header().Get("Cache-Control"))
				}
			}
		})
	}
	t.Run("an overlapping call is 200 with ran false", func(t *testing.T) {
		unlock, ok, err := db.TryLock(t.Context(), store.LockPayments)
		if err != nil || !ok {
			t.Fatalf("lock: %v %v", ok, err)
		}
		defer unlock()
		rec := s.do(t, http.MethodPost, "/api/cron/payments", "", "X-Cron-Key", key)
		wantStatus(t, rec, http.StatusOK)
		if sum := decode[jobs.PaymentsSummary](t, rec); sum.Ran || sum.Reason == "" {
			t.Fatalf("summary %+v", sum)
		}
	})
}

func TestCronCreditRoute(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	dc, c := startDevChain(t)
	newPasses := func(cfg jobs.Config) chainPasses {
		cfg.ChainID, cfg.PaymentAddress = dc.ChainID(), dc.Payments
		return chainPasses{c, jobs.New(db, c, chain.LocalSigner(dc.Minter.Key), chain.LocalSigner(dc.Distributor.Key), cfg, slog.New(slog.DiscardHandler)), db}
	}
	const key = "a-long-enough-cron-key"

	t.Run("401 when no key is configured: it fails closed", func(t *testing.T) {
		s := newPasses(jobs.Config{DistEnabled: true}).server(t, handlers.Config{})
		wantStatus(t, s.do(t, http.MethodPost, "/api/cron/credit", "", "X-Cron-Key", key), http.StatusUnauthorized)
		for _, header := range [][]string{nil, {"X-Cron-Key", ""}, {"Authorization", "Bearer " + key}} {
			wantStatus(t, s.do(t, http.MethodGet, "/api/cron/credit", "", header...), http.StatusUnauthorized)
		}
	})
	s := newPasses(jobs.Config{DistEnabled: true, DistMode: "fixed", DistPeriod: time.Hour, DistBaseWei: big.NewInt(1000)}).
		server(t, handlers.Config{CronKey: key})
	t.Run("x-cron-key only", func(t *testing.T) {
		wantStatus(t, s.do(t, http.MethodPost, "/api/cron/credit", "", "Authorization", "Bearer "+key), http.StatusUnauthorized)
		wantStatus(t, s.do(t, http.MethodPost, "/api/cron/credit", "", "X-Cron-Key", "wrong"), http.StatusUnauthorized)
	})
	t.Run("a 401 says nothing about the key", func(t *testing.T) {
		for _, header := range [][]string{nil, {"X-Cron-Key", "short"}, {"Authorization", "Bearer " + key}} {
			rec := s.do(t, http.MethodPost, "/api/cron/credit", "", header...)
			wantStatus(t, rec, http.StatusUnauthorized)
			if msg := errorMessage(t, rec); strings.Contains(strings.ToLower(msg), "key") || strings.Contains(msg, "Bearer") {
				t.Fatalf("401 says too much: %q", msg)
			}
		}
	})
	t.Run("a round for the due nodes", func(t *testing.T) {
		// A node minted on chain and due for credit.
		tx := transact(t, dc, c, dc.Minter.Key, &dc.Factory, c.MintData(dc.Buyers[0].Address, 1, common.Hash{1}), nil)
		storetest.Tier(t, db, 1, "One", "1", true)
		past := time.Now().Add(-time.Minute)
		if _, _, err := db.InsertNode(t.Context(), store.NewNode{ChainNodeID: big.NewInt(1), Tier: 1, Owner: strings.ToLower(dc.Buyers[0].Address.Hex()),
			PriceWei: big.NewInt(1), MintTx: strings.ToLower(tx.TxHash.Hex()), NextCreditAt: &past}); err != nil {
			t.Fatal(err)
		}
		rec := s.do(t, http.MethodGet, "/api/cron/credit", "", "X-Cron-Key", key)
		wantStatus(t, rec, http.StatusOK)
		sum := decode[map[string]any](t, rec)
		if sum["ran"] != true || sum["nodes"] != float64(1) || sum["totalWei"] != "1000" || sum["status"] != "confirmed" {
			t.Fatalf("summary %v", sum)
		}
		n := decode[nodeDetailBody](t, s.get(t, "/api/node/1"))
		if len(n.Credits) != 1 || n.Credits[0].AmountWei != "1000" || n.BalanceWei != "1000" {
			t.Fatalf("node after the round: %+v", n)
		}
		rounds := decode[[]map[string]any](t, s.get(t, "/api/distributions"))
		if len(rounds) != 1 || rounds[0]["status"] != "confirmed" || rounds[0]["totalWei"] != "1000" || rounds[0]["txHash"] == nil {
			t.Fatalf("rounds %v", rounds)
		}
	})
}
