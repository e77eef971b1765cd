package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"nodeledger/chain/devchain"
	"nodeledger/handlers"
	"nodeledger/store/storetest"
)

const adminKey = "operator-secret-key"

// adminDo sends an admin request with a JSON body.
func (s *testServer) adminDo(t *testing.T, method, target, body string, key string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("X-Admin-Key", key)
	}
	rec := httptest.NewRecorder()
	s.e.ServeHTTP(rec, req)
	checkAgainstOpenAPI(t, req, rec)
	return rec
}

func TestAdminGate(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	off := newServer(t, db, handlers.Config{})
	for _, path := range []string{"/api/admin/tiers", "/api/admin/refunds", "/api/admin/nope"} {
		wantStatus(t, off.adminDo(t, http.MethodGet, path, "", adminKey), http.StatusNotFound)
	}
	s := newServer(t, db, handlers.Config{AdminKey: adminKey})
	for _, key := range []string{"", "operator-secret-kez", "short"} {
		rec := s.adminDo(t, http.MethodGet, "/api/admin/tiers", "", key)
		wantStatus(t, rec, http.StatusUnauthorized)
	}
	wantStatus(t, s.adminDo(t, http.MethodGet, "/api/admin/nope", "", adminKey), http.StatusNotFound)
}

func TestAdminTiers(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	s := newServer(t, db, handlers.Config{AdminKey: adminKey})
	put := func(id, body string) *httptest.ResponseRecorder {
		return s.adminDo(t, http.MethodPut, "/api/admin/tiers/"+id, body, adminKey)
	}
	const gold = `"label":"Gold","maxPerWallet":2,"holdingWei":"5","holdingToken":"0x00000000000000000000000000000000000000AA","enabled":true`
	rec := put("4", `{"priceWei":"2000000000000000000",`+gold+`}`)
	wantStatus(t, rec, http.StatusOK)
	// The answer is the tier as GET /api/tiers shows it, with where its sale stands.
	if got := decode[map[string]any](t, rec); got["enabled"] != true || got["onSale"] != true || got["phase"] != "public" ||
		got["sold"] != 0.0 || got["supply"] != nil || got["remaining"] != nil {
		t.Fatalf("PUT answer %v", got)
	}
	tiers := decode[struct {
		Tiers []map[string]any `json:"tiers"`
	}](t, s.get(t, "/api/tiers")).Tiers
	if len(tiers) != 1 || tiers[0]["id"] != "4" || tiers[0]["priceWei"] != "2000000000000000000" || tiers[0]["onSale"] != true ||
		tiers[0]["holdingToken"] != "0x00000000000000000000000000000000000000aa" || tiers[0]["payoutBps"] != nil {
		t.Fatalf("tiers %v", tiers) // payoutBps is the factory's: null, since this chain cannot be read
	}
	// A payoutBps cannot be checked against the factory's when the chain cannot be read.
	wantStatus(t, put("4", `{"priceWei":"2000000000000000000","payoutBps":10000,`+gold+`}`), http.StatusConflict)

	t.Run("a price or allowance change by more than half is confirmed first", func(t *testing.T) {
		for body, sentence := range map[string]string{
			`{"priceWei":"20000000000000000000",` + gold + `}`:                                                            `The price changes from 2 ETH to 20 ETH (10×): send "confirm": true to confirm.`,
			`{"priceWei":"900000000000000000",` + gold + `}`:                                                              `The price changes from 2 ETH to 0.9 ETH (0.45×): send "confirm": true to confirm.`,
			`{"priceWei":"2000000000000000000",` + strings.Replace(gold, `"maxPerWallet":2`, `"maxPerWallet":4`, 1) + `}`: `The allowance per wallet changes from 2 to 4 (2×): send "confirm": true to confirm.`,
		} {
			rec := put("4", body)
			wantStatus(t, rec, http.StatusConflict)
			if got := errorMessage(t, rec); got != sentence {
				t.Errorf("%s: %q", body, got)
			}
		}
		// Within half either way, no question; confirmed, the change is made.
		wantStatus(t, put("4", `{"priceWei":"3000000000000000000",`+gold+`}`), http.StatusOK)
		wantStatus(t, put("4", `{"priceWei":"1500000000000000000",`+gold+`}`), http.StatusOK)
		wantStatus(t, put("4", `{"priceWei":"15000000000000000000","confirm":true,`+gold+`}`), http.StatusOK)
		tiers, err := db.Tiers(t.Context())
		if err != nil || tiers[0].PriceWei.String() != "15000000000000000000" {
			t.Fatalf("tiers %+v, err %v", tiers, err)
		}
	})

	wantStatus(t, s.adminDo(t, http.MethodPost, "/api/admin/tiers/4/off-sale", "", adminKey), http.StatusOK)
	if tiers := decode[struct {
		Tiers []map[string]any `json:"tiers"`
	}](t, s.get(t, "/api/tiers")).Tiers; tiers[0]["onSale"] != false {
		t.Fatalf("after off-sale: %v", tiers)
	}
	wantStatus(t, s.adminDo(t, http.MethodPost, "/api/admin/tiers/9/on-sale", "", adminKey), http.StatusNotFound)

	for name, body := range map[string]string{
		"not JSON":             `label=Gold`,
		"an array":             `[{"label":"x"}]`,
		"an unknown field":     `{"label":"x","priceWei":"1","maxPerWallet":1,"payoutBps":1,"color":"gold"}`,
		"two objects":          `{"label":"x","priceWei":"1","maxPerWallet":1,"payoutBps":1}{}`,
		"no label":             `{"priceWei":"1","maxPerWallet":1,"payoutBps":1}`,
		"a numeric price":      `{"label":"x","priceWei":1,"maxPerWallet":1,"payoutBps":1}`,
		"a zero price":         `{"label":"x","priceWei":"0","maxPerWallet":1,"payoutBps":1}`,
		"a negative allowance": `{"label":"x","priceWei":"1","maxPerWallet":-1,"payoutBps":1}`,
		"a bad token":          `{"label":"x","priceWei":"1","maxPerWallet":1,"payoutBps":1,"holdingToken":"0x12"}`,
		"a price over uint256": `{"label":"x","priceWei":"` + strings.Repeat("9", 80) + `","maxPerWallet":1,"payoutBps":1}`,
		"a NUL in the label":   `{"label":"Go\u0000ld","priceWei":"1","maxPerWallet":1}`,
		"a line break in it":   `{"label":"Go\nld","priceWei":"1","maxPerWallet":1}`,
	} {
		t.Run("400 for "+name, func(t *testing.T) {
			rec := put("5", body)
			wantStatus(t, rec, http.StatusBadRequest)
			if name == "a NUL in the label" || name == "a line break in it" {
				if got := errorMessage(t, rec); !strings.Contains(got, "control characters") {
					t.Fatalf("%q", got)
				}
			}
		})
	}
	wantStatus(t, put("256", `{"label":"x","priceWei":"1","maxPerWallet":1,"payoutBps":1}`), http.StatusBadRequest)
}

// refundBody is a rejected payment as /api/admin/refunds shows it.
type refundBody struct {
	TxHash     string  `json:"txHash"`
	Reason     string  `json:"reason"`
	ReasonCode *string `json:"reasonCode"`
}

func TestAdminRefunds(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	// A reason recorded before reason codes, whose words are kept (migration 0012), a payment
	// that minted, and a reason with a code.
	mustExec(t, db, `INSERT INTO payments (tx_hash, payment_ref, from_address, value_wei, block_number, block_hash, status,
			reason_code, reason_args)
		VALUES ($1, $1, $2, 7, 3, $1, 'rejected', 'other', '{"text": "minting is paused"}'),
			($3, $3, $2, 8, 4, $3, 'minted', NULL, NULL),
			($4, $4, $2, 9, 5, $4, 'rejected', 'wallet_limit', '{"tier": 1, "tierLabel": "Standard", "maxPerWallet": 2}')`,
		storetest.TxHash("a"), alice, storetest.TxHash("b"), storetest.TxHash("c"))
	s := newServer(t, db, handlers.Config{AdminKey: adminKey})
	rec := s.adminDo(t, http.MethodGet, "/api/admin/refunds", "", adminKey)
	wantStatus(t, rec, http.StatusOK)
	refunds := decode[[]map[string]any](t, rec)
	if len(refunds) != 2 || refunds[1]["reason"] != "minting is paused" || refunds[1]["valueWei"] != "7" || refunds[1]["from"] != alice {
		t.Fatalf("refunds %v", refunds)
	}
	for i, want := range []struct{ code, reason string }{
		{"wallet_limit", "This wallet already holds the 2 Standard nodes a wallet may have."},
		{"other", "minting is paused"},
	} {
		if refunds[i]["reasonCode"] != want.code || refunds[i]["reason"] != want.reason {
			t.Errorf("refund %d: reasonCode %v, reason %v; want %s, %q", i, refunds[i]["reasonCode"], refunds[i]["reason"], want.code, want.reason)
		}
	}
}

func TestAdminDrift(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	p, cfg := passesOn(t, db)
	cfg.AdminKey = adminKey
	s := p.server(t, cfg)
	rec := s.adminDo(t, http.MethodGet, "/api/admin/drift?limit=10", "", adminKey)
	wantStatus(t, rec, http.StatusOK)
	rep := decode[map[string]any](t, rec)
	if rep["checked"] != float64(0) || rep["nodes"] == nil || rep["payments"] == nil || rep["unattributedInflows"] != float64(0) {
		t.Fatalf("report %v", rep)
	}
	mustExec(t, db, `INSERT INTO unattributed_inflows (block_number, block_hash, amount_wei) VALUES (7, $1, 1), (9, $2, 2)`,
		storetest.TxHash("b7"), storetest.TxHash("b9"))
	rec = s.adminDo(t, http.MethodGet, "/api/admin/drift", "", adminKey)
	wantStatus(t, rec, http.StatusOK)
	if rep := decode[map[string]any](t, rec); rep["unattributedInflows"] != float64(2) {
		t.Fatalf("report %v: want the two unattributed inflows counted", rep)
	}
	wantStatus(t, s.adminDo(t, http.MethodGet, "/api/admin/drift?after=-1", "", adminKey), http.StatusBadRequest)
}

func TestAdminMintingHold(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	s := newServer(t, db, handlers.Config{AdminKey: adminKey})
	held := func() any {
		rec := s.adminDo(t, http.MethodGet, "/api/admin/minting", "", adminKey)
		wantStatus(t, rec, http.StatusOK)
		return decode[map[string]any](t, rec)["held"]
	}
	if held() != false {
		t.Fatal("minting held on a fresh ledger")
	}
	wantStatus(t, s.adminDo(t, http.MethodPost, "/api/admin/minting/pause", "", adminKey), http.StatusOK)
	if held() != true {
		t.Fatal("pause did not hold minting")
	}
	wantStatus(t, s.adminDo(t, http.MethodPost, "/api/admin/minting/resume", "", adminKey), http.StatusOK)
	if held() != false {
		t.Fatal("resume did not let minting go on")
	}
	wantStatus(t, s.adminDo(t, http.MethodPost, "/api/admin/minting/pause", "", "wrong"), http.StatusUnauthorized)
}

// TestAdminPayoutIsTheFactorys: a tier's payoutBps is the factory's. The admin API refuses another
// (the review's 100×) with a sentence saying how it is changed, and changes nothing; only the
// owner's setTierWeight changes what /api/tiers says (and so what rounds pay: jobs' credit tests).
func TestAdminPayoutIsTheFactorys(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	dc, c := startDevChain(t)
	storetest.Tier(t, db, 1, "Standard", "100000000000000000", true)
	s := newChainServer(t, db, c, nil, handlers.Config{AdminKey: adminKey})
	put := func(body string) *httptest.ResponseRecorder {
		return s.adminDo(t, http.MethodPut, "/api/admin/tiers/1", body, adminKey)
	}
	payout := func() any {
		t.Helper()
		return decode[struct {
			Tiers []map[string]any `json:"tiers"`
		}](t, s.get(t, "/api/tiers")).Tiers[0]["payoutBps"]
	}
	const tier = `"label":"Standard","priceWei":"100000000000000000","maxPerWallet":5,"enabled":true`
	if got := payout(); got != float64(devchain.TierWeights[1]) {
		t.Fatalf("payoutBps %v, want the dev factory's %d", got, devchain.TierWeights[1])
	}

	rec := put(`{` + tier + `,"payoutBps":1000000}`)
	wantStatus(t, rec, http.StatusConflict)
	const sentence = "Tier 1's payout weight is 10000 bps on the factory, not 1000000: it is set on the factory by its owner, " +
		"with the owner's wallet on the operator page (Change payout) or setTierWeight(1, bps) sent from the owner's wallet. " +
		"Leave payoutBps out, or send the factory's value."
	if got := errorMessage(t, rec); got != sentence {
		t.Fatalf("409 says %q", got)
	}
	if got := payout(); got != float64(10000) {
		t.Fatalf("payoutBps %v after a refused change", got)
	}
	// The factory's own value, or none, is accepted.
	for _, body := range []string{`{` + tier + `,"payoutBps":10000}`, `{` + tier + `}`} {
		rec := put(body)
		wantStatus(t, rec, http.StatusOK)
		if got := decode[map[string]any](t, rec)["payoutBps"]; got != float64(10000) {
			t.Fatalf("PUT answered payoutBps %v", got)
		}
	}

	// The owner changes it on the factory: the API follows, and the old value is now the wrong one.
	transact(t, dc, c, dc.Owner.Key, &dc.Factory, c.SetTierWeightData(1, 15000), nil)
	if got := payout(); got != float64(15000) {
		t.Fatalf("payoutBps %v after the owner's change", got)
	}
	wantStatus(t, put(`{`+tier+`,"payoutBps":10000}`), http.StatusConflict)
}
