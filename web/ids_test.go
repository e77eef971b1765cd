package web

import (
	"fmt"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"nodeledger/chain"
	"nodeledger/handlers"
	"nodeledger/jobs"
	"nodeledger/store/storetest"
)

// TestNodeIDsUnderRacingRecorders records mints through the three recorders at once (the
// payments pass, the reconciler and /api/nodes/sync, which race to record the same mint), then
// follows, for every wallet, each id /api/nodes/{address} gives to /api/node/{id} and
// /node/{id}: each must answer that very node (spec §2: id is "used as the :id of
// /api/node/:id"), however the race went.
func TestNodeIDsUnderRacingRecorders(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	storetest.Tier(t, db, 1, "One", "1", true)
	dc, c := startDevChain(t)
	sc := syncChain{t: t, dc: dc, c: c}
	j := jobs.New(db, c, chain.LocalSigner(dc.Minter.Key), chain.LocalSigner(dc.Distributor.Key), jobs.Config{ChainID: dc.ChainID(), PaymentAddress: dc.Payments},
		slog.New(slog.DiscardHandler))
	// Bench lifts the rate limits: the syncs below retry far more often than a wallet would.
	s := newServerWith(t, db, c, j, handlers.Config{SessionSecret: sessionSecret, ChainID: 1337,
		PaymentAddress: strings.ToLower(dc.Payments.Hex())}, Options{Bench: true})
	buyers := dc.Buyers[:4]

	// Nodes 1-4: minted straight by the minter, no payment: the reconciler and sync find them.
	for i, b := range buyers {
		sc.mint(b.Address, byte(100+i))
	}
	// Nodes 5-8: one payment each, which the payments pass mints.
	for _, b := range buyers {
		transact(t, dc, c, b.Key, &dc.Payments, nil, big.NewInt(1))
	}
	const want = 8
	recorded := func() int {
		var n int
		if err := db.DB().Get(&n, `SELECT count(*) FROM nodes`); err != nil {
			t.Error(err)
		}
		return n
	}

	// The session cookies of each buyer, for syncs sent from many goroutines at once.
	sessions := make([][]*http.Cookie, len(buyers))
	for i, b := range buyers {
		br := newBrowser(t, s, fmt.Sprintf("192.0.2.%d", 10+i))
		br.signIn(b.Key)
		for _, ck := range br.cookies {
			sessions[i] = append(sessions[i], ck)
		}
	}

	deadline := time.Now().Add(90 * time.Second)
	done := func() bool { return recorded() >= want || time.Now().After(deadline) }
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	wg.Go(func() {
		for !done() {
			if _, err := j.Payments(t.Context()); err != nil {
				errs <- fmt.Errorf("payments pass: %w", err)
				return
			}
		}
	})
	wg.Go(func() {
		for !done() {
			if _, err := j.Reconcile(t.Context()); err != nil {
				errs <- fmt.Errorf("reconciler: %w", err)
				return
			}
		}
	})
	// Each buyer asks for every node, its own or not, from two goroutines: another wallet's
	// node answers 403, one not minted yet 404, and its own 200, recorded or already there.
	for i := range buyers {
		for range 2 {
			wg.Go(func() {
				for !done() {
					for id := 1; id <= want; id++ {
						body := strings.NewReader(fmt.Sprintf(`{"nodeId": %d}`, id))
						req := httptest.NewRequest(http.MethodPost, "/api/nodes/sync", body)
						req.Header.Set("Content-Type", "application/json")
						req.RemoteAddr = fmt.Sprintf("192.0.2.%d:1234", 10+i)
						for _, ck := range sessions[i] {
							req.AddCookie(ck)
						}
						rec := httptest.NewRecorder()
						s.e.ServeHTTP(rec, req)
						switch rec.Code {
						case http.StatusOK, http.StatusForbidden, http.StatusNotFound:
						default:
							errs <- fmt.Errorf("sync of node %d: %d %s", id, rec.Code, rec.Body)
							return
						}
					}
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := recorded(); n != want {
		t.Fatalf("%d nodes recorded, want %d", n, want)
	}

	type node struct {
		ID          int64  `json:"id"`
		ChainNodeID string `json:"chainNodeId"`
		Owner       string `json:"owner"`
		PriceWei    string `json:"priceWei"`
		MintTx      string `json:"mintTx"`
	}
	seen := map[string]bool{}
	for _, b := range buyers {
		owner := strings.ToLower(b.Address.Hex())
		rec := s.get(t, "/api/nodes/"+owner)
		wantStatus(t, rec, http.StatusOK)
		list := decode[[]node](t, rec)
		if len(list) != 2 {
			t.Fatalf("%s: %d nodes, want 2: %+v", owner, len(list), list)
		}
		for _, n := range list {
			seen[n.ChainNodeID] = true
			rec := s.get(t, fmt.Sprintf("/api/node/%d", n.ID))
			wantStatus(t, rec, http.StatusOK)
			got := decode[node](t, rec)
			if got.ID != n.ID || got.ChainNodeID != n.ChainNodeID || got.Owner != owner || got.MintTx != n.MintTx {
				t.Errorf("%s lists node %+v; /api/node/%d answers %+v", owner, n, n.ID, got)
			}
			if fmt.Sprint(n.ID) != n.ChainNodeID {
				t.Errorf("node %s has the ledger id %d", n.ChainNodeID, n.ID)
			}
			page := s.get(t, fmt.Sprintf("/node/%d", n.ID))
			wantStatus(t, page, http.StatusOK)
			if !strings.Contains(page.Body.String(), owner) {
				t.Errorf("/node/%d does not name its owner %s", n.ID, owner)
			}
		}
	}
	if len(seen) != want {
		t.Errorf("the wallets list %d distinct nodes, want %d", len(seen), want)
	}

	// The paid nodes carry their payment, whoever recorded them first.
	var paid []struct {
		Node  int64  `db:"id"`
		Price string `db:"price_wei"`
		Ref   string `db:"payment_ref"`
	}
	if err := db.DB().Select(&paid, `SELECT n.id, n.price_wei, p.payment_ref FROM nodes n JOIN payments p ON p.id = n.payment_id ORDER BY n.id`); err != nil {
		t.Fatal(err)
	}
	if len(paid) != 4 {
		t.Fatalf("%d nodes linked to their payment, want 4: %+v", len(paid), paid)
	}
	for _, p := range paid {
		if p.Node < 5 || p.Price != "1" {
			t.Errorf("paid node %+v", p)
		}
	}
}
