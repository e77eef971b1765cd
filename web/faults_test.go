package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"nodeledger/chain"
	"nodeledger/handlers"
	"nodeledger/store/storetest"
)

// faultDeadline is how soon a route must give up on a dependency that fails.
const faultDeadline = 2 * time.Second

// TestDatabaseFaults puts the database behind toxiproxy and makes it slow, silent, resetting and
// gone: every route answers 503 with a retry-after, in the envelope for the API, within two
// seconds, and answers again as soon as the database is back, without a restart.
func TestDatabaseFaults(t *testing.T) {
	t.Parallel()
	proxy, through := storetest.ProxyURL(t, storetest.EmptyDatabase(t))
	st, err := storetest.Open(t.Context(), through)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	storetest.Tier(t, st, 1, "Small", "1", true)
	s := newServerWith(t, st, unreachableChain(t), nil, handlers.Config{ChainID: 1, PaymentAddress: payTo, DistMode: "fixed"}, Options{})

	// The stats, the tiers and the rounds are served from memory for a moment (handlers' memos):
	// they may answer from before the fault, or fail, but never late.
	memos := []string{"/api/stats", "/api/tiers", "/api/distributions"}
	api := []string{"/api/nodes/" + alice, "/api/node/1", "/api/deploy-quote", "/api/cron/health"}
	pages := []string{"/", "/wallet/" + alice, "/node/1", "/distributions", "/health"}
	everything := append(append(slices.Clone(memos), api...), pages...)
	answers := func() (failing string) {
		for _, path := range everything {
			if rec := s.get(t, path); rec.Code >= 500 {
				return fmt.Sprintf("%s: %d %s", path, rec.Code, rec.Body)
			}
		}
		return ""
	}
	if failing := answers(); failing != "" {
		t.Fatalf("before any fault, %s", failing)
	}

	for _, f := range storetest.Faults {
		t.Run(f.Name, func(t *testing.T) {
			proxy.Inject(f)
			// All at once, as clients would come: none may wait for another's timeout.
			var wg sync.WaitGroup
			for _, path := range append(api, pages...) {
				wg.Go(func() {
					start := time.Now()
					rec := s.get(t, path)
					if took := time.Since(start); took > faultDeadline {
						t.Errorf("%s took %v to give up", path, took)
					}
					if rec.Code != http.StatusServiceUnavailable {
						t.Errorf("%s: %d %s", path, rec.Code, rec.Body)
						return
					}
					if rec.Header().Get("Retry-After") != unavailableRetryAfter {
						t.Errorf("%s: retry-after %q", path, rec.Header().Get("Retry-After"))
					}
					body := rec.Body.String()
					if strings.Contains(body, "dial") || strings.Contains(body, "127.0.0.1") || strings.Contains(body, "pq:") {
						t.Errorf("%s leaked connection detail: %s", path, body)
					}
					if !wantsPage(httptest.NewRequest(http.MethodGet, path, nil)) {
						var e errorBody
						if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || !strings.Contains(e.Error, "database cannot be reached") {
							t.Errorf("%s: envelope %s", path, body)
						}
					} else if !strings.Contains(body, "database cannot be reached") {
						t.Errorf("%s: the error page does not say why: %s", path, body)
					}
				})
			}
			wg.Wait()
			for _, path := range memos {
				start := time.Now()
				if rec := s.get(t, path); rec.Code != http.StatusOK && rec.Code != http.StatusServiceUnavailable {
					t.Errorf("%s: %d", path, rec.Code)
				}
				if took := time.Since(start); took > faultDeadline {
					t.Errorf("%s took %v", path, took)
				}
			}
			if rec := s.get(t, "/healthz"); rec.Code != http.StatusOK {
				t.Errorf("liveness depends on the database: %d", rec.Code)
			}

			proxy.Heal(f)
			// A stats load caught by the fault holds its turn until its own timeout.
			healed, failing := time.Now(), answers()
			for failing != "" && time.Since(healed) < memoLoadTimeout+faultDeadline {
				time.Sleep(100 * time.Millisecond)
				failing = answers()
			}
			if failing != "" {
				t.Fatalf("still failing %v after the database came back: %s", time.Since(healed), failing)
			}
			t.Logf("every route answered %v after the database came back", time.Since(healed).Round(time.Millisecond))
		})
	}
}

// memoLoadTimeout is handlers.memoLoadTimeout.
const memoLoadTimeout = 10 * time.Second

// TestChainFaults does the same to the chain's RPC: the cover is 503, the health reading keeps
// its database half and shows null for what it could not read, both within two seconds, and
// both are whole again once the RPC is back.
func TestChainFaults(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	dc, err := devchainOverHTTP(t)
	if err != nil {
		t.Fatal(err)
	}
	proxy, through := storetest.ProxyURL(t, dc.RPCURL())
	c, err := chain.Dial(t.Context(), through, chain.Config{Factory: dc.Factory, PriceFeed: dc.PriceFeed})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s := newChainServer(t, db, c, nil, handlers.Config{DistMode: "fixed"})

	// Node 1 is the buyer's on chain and in the ledger; node 2 is the second buyer's on chain but
	// the ledger still says alice's; node 3 is only in the ledger.
	buyer, second := strings.ToLower(dc.Buyers[0].Address.Hex()), strings.ToLower(dc.Buyers[1].Address.Hex())
	transact(t, dc, c, dc.Minter.Key, &dc.Factory, c.MintData(dc.Buyers[0].Address, 1, common.Hash{1}), nil)
	transact(t, dc, c, dc.Minter.Key, &dc.Factory, c.MintData(dc.Buyers[1].Address, 1, common.Hash{2}), nil)
	storetest.Node(t, db, "1", buyer, t0)
	storetest.Node(t, db, "2", alice, t0)
	storetest.Node(t, db, "3", alice, t0)
	owner := func(id string) (shown, check string) {
		t.Helper()
		rec := s.get(t, "/node/"+id)
		wantStatus(t, rec, http.StatusOK)
		if !strings.HasSuffix(strings.TrimSpace(rec.Body.String()), "</html>") {
			t.Errorf("node %s: the page was cut short", id) // templ stops at an ended context
		}
		doc := page(t, rec.Body)
		return text(doc, "owner"), text(doc, "owner-check")
	}
	t.Run("the node page's owner", func(t *testing.T) {
		for _, tc := range []struct{ id, shown, check string }{
			{"1", buyer, "Confirmed on chain"},
			{"2", second, "The ledger still records " + alice[:6]},
			{"3", alice, "the chain does not show this node yet"},
		} {
			if shown, check := owner(tc.id); shown != tc.shown || !strings.Contains(check, tc.check) {
				t.Errorf("node %s: owner %q (%s), want %q (%s)", tc.id, shown, check, tc.shown, tc.check)
			}
		}
	})

	whole := func(when string) {
		t.Helper()
		wantStatus(t, s.get(t, "/api/cover"), http.StatusOK)
		h := decode[map[string]any](t, s.get(t, "/api/cron/health"))
		for _, k := range []string{"paused", "isSolvent", "contractBalanceWei", "outstandingWei", "distributorBalanceWei"} {
			if h[k] == nil {
				t.Fatalf("health %s: %s is null: %v", when, k, h)
			}
		}
	}
	whole("before any fault")

	for _, f := range storetest.Faults {
		t.Run(f.Name, func(t *testing.T) {
			proxy.Inject(f)
			start := time.Now()
			rec := s.get(t, "/api/cover")
			if took := time.Since(start); took > faultDeadline {
				t.Errorf("cover took %v to give up", took)
			}
			wantStatus(t, rec, http.StatusServiceUnavailable)
			if msg := errorMessage(t, rec); !strings.Contains(msg, "chain cannot be read") {
				t.Errorf("cover: message %q", msg)
			}

			start = time.Now()
			rec = s.get(t, "/api/cron/health")
			if took := time.Since(start); took > faultDeadline {
				t.Errorf("health took %v", took)
			}
			wantStatus(t, rec, http.StatusOK)
			h := decode[map[string]any](t, rec)
			for _, k := range []string{"paused", "isSolvent", "contractBalanceWei", "outstandingWei", "distributorBalanceWei"} {
				if v, ok := h[k]; !ok || v != nil {
					t.Errorf("health: %s is %v, want null", k, v)
				}
			}
			if h["dueNodes"] == nil || h["stale"] == nil {
				t.Errorf("health lost its database half: %v", h)
			}

			// The node page still names the owner, the ledger's, and says it is unconfirmed.
			start = time.Now()
			shown, check := owner("1")
			if took := time.Since(start); took > faultDeadline {
				t.Errorf("node page took %v", took)
			}
			if shown != buyer || !strings.Contains(check, "could not be confirmed on chain just now") {
				t.Errorf("node page: owner %q (%s)", shown, check)
			}
			proxy.Heal(f)
			whole("once the RPC is back")
		})
	}
}
