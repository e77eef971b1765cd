package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

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
	off := newServer(t, handlers.Config{})
	for _, path := range []string{"/api/admin/tiers", "/api/admin/refunds", "/api/admin/nope"} {
		wantStatus(t, off.adminDo(t, http.MethodGet, path, "", adminKey), http.StatusNotFound)
	}
	s := newServer(t, handlers.Config{AdminKey: adminKey})
	for _, key := range []string{"", "operator-secret-kez", "short"} {
		rec := s.adminDo(t, http.MethodGet, "/api/admin/tiers", "", key)
		wantStatus(t, rec, http.StatusUnauthorized)
	}
	wantStatus(t, s.adminDo(t, http.MethodGet, "/api/admin/nope", "", adminKey), http.StatusNotFound)
}

func TestAdminTiers(t *testing.T) {
	storetest.Reset(t, db)
	s := newServer(t, handlers.Config{AdminKey: adminKey})
	put := func(id, body string) *httptest.ResponseRecorder {
		return s.adminDo(t, http.MethodPut, "/api/admin/tiers/"+id, body, adminKey)
	}
	rec := put("4", `{"label":"Gold","priceWei":"2000000000000000000","maxPerWallet":2,"payoutBps":15000,
		"holdingWei":"5","holdingToken":"0x00000000000000000000000000000000000000AA","onSale":true}`)
	wantStatus(t, rec, http.StatusOK)
	tiers := decode[struct {
		Tiers []map[string]any `json:"tiers"`
	}](t, s.get(t, "/api/tiers")).Tiers
	if len(tiers) != 1 || tiers[0]["id"] != "4" || tiers[0]["priceWei"] != "2000000000000000000" || tiers[0]["onSale"] != true ||
		tiers[0]["holdingToken"] != "0x00000000000000000000000000000000000000aa" || tiers[0]["payoutBps"] != float64(15000) {
		t.Fatalf("tiers %v", tiers)
	}

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
	} {
		t.Run("400 for "+name, func(t *testing.T) {
			wantStatus(t, put("5", body), http.StatusBadRequest)
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
	storetest.Reset(t, db)
	// A reason recorded before reason codes, whose words are kept (migration 0012), a payment
	// that minted, and a reason with a code.
	mustExec(t, `INSERT INTO payments (tx_hash, payment_ref, from_address, value_wei, block_number, block_hash, status,
			reason_code, reason_args)
		VALUES ($1, $1, $2, 7, 3, $1, 'rejected', 'other', '{"text": "minting is paused"}'),
			($3, $3, $2, 8, 4, $3, 'minted', NULL, NULL),
			($4, $4, $2, 9, 5, $4, 'rejected', 'wallet_limit', '{"tier": 1, "tierLabel": "Standard", "maxPerWallet": 2}')`,
		storetest.TxHash("a"), alice, storetest.TxHash("b"), storetest.TxHash("c"))
	s := newServer(t, handlers.Config{AdminKey: adminKey})
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
	storetest.Reset(t, db)
	p, cfg := passesOn(t)
	cfg.AdminKey = adminKey
	s := p.server(t, cfg)
	rec := s.adminDo(t, http.MethodGet, "/api/admin/drift?limit=10", "", adminKey)
	wantStatus(t, rec, http.StatusOK)
	rep := decode[map[string]any](t, rec)
	if rep["checked"] != float64(0) || rep["nodes"] == nil || rep["payments"] == nil || rep["unattributedInflows"] != float64(0) {
		t.Fatalf("report %v", rep)
	}
	mustExec(t, `INSERT INTO unattributed_inflows (block_number, block_hash, amount_wei) VALUES (7, $1, 1), (9, $2, 2)`,
		storetest.TxHash("b7"), storetest.TxHash("b9"))
	rec = s.adminDo(t, http.MethodGet, "/api/admin/drift", "", adminKey)
	wantStatus(t, rec, http.StatusOK)
	if rep := decode[map[string]any](t, rec); rep["unattributedInflows"] != float64(2) {
		t.Fatalf("report %v: want the two unattributed inflows counted", rep)
	}
	wantStatus(t, s.adminDo(t, http.MethodGet, "/api/admin/drift?after=-1", "", adminKey), http.StatusBadRequest)
}

func TestAdminMintingHold(t *testing.T) {
	storetest.Reset(t, db)
	s := newServer(t, handlers.Config{AdminKey: adminKey})
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
