package web

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"nodeledger/handlers"
	"nodeledger/jobs"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// saleTier is a tier as GET /api/tiers answers it, with the sale's fields.
type saleTier struct {
	ID              string  `json:"id"`
	OnSale          bool    `json:"onSale"`
	Enabled         bool    `json:"enabled"`
	Supply          *int    `json:"supply"`
	Sold            int     `json:"sold"`
	Remaining       *int    `json:"remaining"`
	StartsAt        *string `json:"startsAt"`
	EndsAt          *string `json:"endsAt"`
	AllowlistUntil  *string `json:"allowlistUntil"`
	OpensAfterTier  *string `json:"opensAfterTier"`
	Phase           string  `json:"phase"`
	OpensAt         *string `json:"opensAt"`
	HoldingSymbol   *string `json:"holdingSymbol"`
	HoldingDecimals *int    `json:"holdingDecimals"`
}

func (s *testServer) saleTiers(t *testing.T) map[string]saleTier {
	t.Helper()
	rec := s.get(t, "/api/tiers")
	wantStatus(t, rec, http.StatusOK)
	out := map[string]saleTier{}
	for _, x := range decode[struct{ Tiers []saleTier }](t, rec).Tiers {
		out[x.ID] = x
	}
	return out
}

// iso is t as the API writes times.
func iso(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// TestTierSale: the sale's fields of a tier, written by PUT /api/admin/tiers/{id} and read back
// with where each tier stands (phase, onSale computed, opensAt), and the PUT's refusals.
func TestTierSale(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	s := newServer(t, db, handlers.Config{AdminKey: adminKey})
	put := func(id, fields string) *httptest.ResponseRecorder {
		t.Helper()
		return s.adminDo(t, http.MethodPut, "/api/admin/tiers/"+id,
			`{"label":"T`+id+`","priceWei":"1000","maxPerWallet":2`+fields+`}`, adminKey)
	}
	now := time.Now().UTC().Truncate(time.Second)
	hour, day := now.Add(time.Hour), now.Add(24*time.Hour)
	q := func(t time.Time) string { return `"` + t.Format(time.RFC3339) + `"` }
	for i, fields := range []string{
		`,"enabled":false`,
		`,"enabled":true,"supply":100,"startsAt":` + q(hour) + `,"endsAt":` + q(day),
		`,"enabled":true,"supply":0`,
		`,"enabled":true,"allowlistUntil":` + q(hour) + `,"endsAt":` + q(day),
		`,"enabled":true,"endsAt":` + q(now.Add(-time.Hour)),
		`,"enabled":true,"supply":10`,
		`,"enabled":true,"opensAfterTier":"6"`,
		`,"enabled":true,"opensAfterTier":3`, // a number is read too; tier 3 sold out: open
	} {
		wantStatus(t, put(fmt.Sprint(i+1), fields), http.StatusOK)
	}
	tiers := s.saleTiers(t)
	for id, want := range map[string]string{
		"1": "off false false",
		"2": "scheduled false true",
		"3": "sold_out false true",
		"4": "allowlist true true",
		"5": "ended false true",
		"6": "public true true",
		"7": "scheduled false true",
		"8": "public true true",
	} {
		x := tiers[id]
		if got := fmt.Sprint(x.Phase, " ", x.OnSale, " ", x.Enabled); got != want {
			t.Errorf("tier %s: phase, onSale, enabled %s, want %s", id, got, want)
		}
	}
	two := tiers["2"]
	if two.Supply == nil || *two.Supply != 100 || two.Sold != 0 || two.Remaining == nil || *two.Remaining != 100 ||
		two.StartsAt == nil || *two.StartsAt != iso(hour) || two.EndsAt == nil || *two.EndsAt != iso(day) ||
		two.OpensAt == nil || *two.OpensAt != iso(hour) || two.AllowlistUntil != nil || two.OpensAfterTier != nil {
		t.Errorf("tier 2: %+v", two)
	}
	if x := tiers["7"]; x.OpensAt != nil || x.OpensAfterTier == nil || *x.OpensAfterTier != "6" || x.Supply != nil || x.Remaining != nil {
		t.Errorf("tier 7 waits for tier 6: %+v", x)
	}
	if x := tiers["1"]; x.HoldingSymbol != nil || x.HoldingDecimals != nil {
		t.Errorf("tier 1 has no holding token: %+v", x)
	}

	t.Run("a tier read and sent back keeps its switch", func(t *testing.T) {
		var two string
		for _, raw := range decode[struct{ Tiers []json.RawMessage }](t, s.get(t, "/api/tiers")).Tiers {
			if strings.HasPrefix(string(raw), `{"id":"2"`) {
				two = string(raw)
			}
		}
		wantStatus(t, s.adminDo(t, http.MethodPut, "/api/admin/tiers/2", two, adminKey), http.StatusOK)
		if x := s.saleTiers(t)["2"]; !x.Enabled || x.Phase != "scheduled" || x.Supply == nil || *x.Supply != 100 {
			t.Fatalf("after the round trip: %+v", x)
		}
		// onSale is read-only (whether the tier sells now): a script that sends it, say the false
		// of a sold-out or scheduled tier, without enabled never switches the tier off, and a
		// tier sent without enabled keeps the switch it has.
		wantStatus(t, put("6", `,"onSale":false,"supply":10`), http.StatusOK)
		if x := s.saleTiers(t)["6"]; !x.Enabled || x.Phase != "public" {
			t.Fatalf("onSale false sent without enabled: %+v", x)
		}
		wantStatus(t, put("3", `,"onSale":false,"supply":0`), http.StatusOK)
		if x := s.saleTiers(t)["3"]; !x.Enabled || x.Phase != "sold_out" {
			t.Fatalf("a sold-out tier's fields sent back: %+v", x)
		}
		wantStatus(t, put("9", `,"onSale":true`), http.StatusOK)
		if x := s.saleTiers(t)["9"]; x.Enabled || x.Phase != "off" {
			t.Fatalf("a new tier sent with onSale only: %+v, want it off until enabled", x)
		}
	})

	t.Run("refusals", func(t *testing.T) {
		for _, tc := range []struct {
			name, id, fields string
			status           int
			sentence         string
		}{
			{"an end before the start", "2", `,"startsAt":` + q(day) + `,"endsAt":` + q(hour), 400, "The sale must end after it starts."},
			{"an allowlist phase past the end", "4", `,"allowlistUntil":` + q(day) + `,"endsAt":` + q(hour), 400, "The allowlist phase must end before the sale does."},
			{"a time without its offset", "2", `,"startsAt":"2026-12-01 12:00"`, 400,
				"startsAt must be a time in ISO 8601 with its offset, such as 2026-12-01T12:00:00Z, or null."},
			{"a negative supply", "2", `,"supply":-1`, 400, "supply must be a whole number from 0 to 1000000000, or null for no limit."},
			{"after itself", "2", `,"opensAfterTier":"2"`, 400, "A tier cannot open after itself."},
			{"after no tier", "2", `,"opensAfterTier":"99"`, 400, "Tier 2 cannot open after tier 99: there is no tier 99."},
			{"after a tier without a supply", "2", `,"opensAfterTier":"1"`, 400,
				"Tier 2 cannot open after tier 1: tier 1 has no supply, so it never sells out. Give it a supply first."},
			{"after a tier without a supply that waits for this one", "6", `,"supply":10,"opensAfterTier":"7"`, 400,
				"Tier 6 cannot open after tier 7: tier 7 has no supply, so it never sells out. Give it a supply first."},
			{"removing the supply a step waits for", "6", `,"supply":null`, 400,
				"Tier 6 needs a supply: tier 7 opens once it sells out, and without a supply it never would."},
			{"a supply change by more than half", "2", `,"enabled":true,"supply":1000,"startsAt":` + q(hour) + `,"endsAt":` + q(day), 409,
				`The supply changes from 100 to 1,000 (10×): send "confirm": true to confirm.`},
		} {
			t.Run(tc.name, func(t *testing.T) {
				rec := put(tc.id, tc.fields)
				wantStatus(t, rec, tc.status)
				if got := errorMessage(t, rec); got != tc.sentence {
					t.Errorf("%q", got)
				}
			})
		}
		// A real cycle: tier 6 waits for tier 9, which waits for tier 6.
		wantStatus(t, put("9", `,"enabled":true,"supply":3,"opensAfterTier":"6"`), http.StatusOK)
		rec := put("6", `,"supply":10,"opensAfterTier":"9"`)
		wantStatus(t, rec, http.StatusBadRequest)
		if got := errorMessage(t, rec); got != "Tier 6 cannot open after tier 9: tier 9 already waits for tier 6 to sell out, so neither would ever open." {
			t.Errorf("a cycle: %q", got)
		}
	})

	t.Run("a supply below what the tier sold", func(t *testing.T) {
		for i := range 3 {
			mustExec(t, db, `INSERT INTO nodes (id, tier, owner, mint_tx) VALUES ($1, 6, $2, $3)`, i+1,
				"0x00000000000000000000000000000000000b0b01", storetest.TxHash(fmt.Sprint("sold", i)))
		}
		rec := put("6", `,"supply":2,"confirm":true`)
		wantStatus(t, rec, http.StatusConflict)
		if got := errorMessage(t, rec); got != "Tier 6 has sold 3 nodes already: its supply cannot be less than 3." {
			t.Errorf("%q", got)
		}
		wantStatus(t, put("6", `,"enabled":true,"supply":3,"confirm":true`), http.StatusOK)
		if x := s.saleTiers(t)["6"]; x.Sold != 3 || *x.Remaining != 0 || x.Phase != "sold_out" || s.saleTiers(t)["7"].Phase != "public" {
			t.Fatalf("tier 6 sold out, tier 7 open: %+v, %+v", x, s.saleTiers(t)["7"])
		}
	})
}

// adminCSV sends an allowlist upload.
func (s *testServer) adminCSV(t *testing.T, target, contentType, body string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodPut, target, strings.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("X-Admin-Key", adminKey)
	rec := httptest.NewRecorder()
	s.e.ServeHTTP(rec, req)
	checkAgainstOpenAPI(t, req, rec)
	return rec
}

// TestAllowlist: an upload replaces a tier's allowlist, or is refused whole with the line that
// is wrong; the admin list and the public lookup read it.
func TestAllowlist(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	storetest.Tier(t, db, 1, "Standard", "100000000000000000", true)
	s := newServer(t, db, handlers.Config{AdminKey: adminKey})
	const a, b = "0x00000000000000000000000000000000000000AA", "0x00000000000000000000000000000000000000bb"
	upload := func(body string) *httptest.ResponseRecorder {
		t.Helper()
		return s.adminCSV(t, "/api/admin/tiers/1/allowlist", "text/csv", body)
	}
	for _, tc := range []struct{ name, csv, sentence string }{
		{"a bad address", "address,allocation\n" + a + ",2\n\n" + b + ",1\n\n\n0x12,1\n", `Line 7: "0x12" is not an address.`},
		{"a bad allocation", a + ",two\n", `Line 1: "two" is not an allocation: a whole number of nodes from 1 to 1,000,000.`},
		{"a duplicate", a + ",2\n" + b + ",1\n" + strings.ToLower(a) + ",1\n", "Line 3: " + strings.ToLower(a) + " is on line 1 already; each address may be listed once."},
		{"a line of three values", a + ",2,x\n", "Line 1: expected an address and an allocation separated by a comma, such as 0x…,2."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := upload(tc.csv)
			wantStatus(t, rec, http.StatusBadRequest)
			if got := errorMessage(t, rec); got != tc.sentence {
				t.Errorf("%q", got)
			}
		})
	}
	list := func() map[string]any {
		t.Helper()
		rec := s.adminDo(t, http.MethodGet, "/api/admin/tiers/1/allowlist", "", adminKey)
		wantStatus(t, rec, http.StatusOK)
		return decode[map[string]any](t, rec)
	}
	if l := list(); l["rows"] != 0.0 || l["effectiveAt"] != nil || fmt.Sprint(l["entries"]) != "[]" {
		t.Fatalf("no allowlist uploaded, nothing refused stored: %v", l)
	}

	rec := upload("address,allocation\n" + a + ",2\r\n" + b + ",1\n")
	wantStatus(t, rec, http.StatusOK)
	got := decode[map[string]any](t, rec)
	if got["tier"] != "1" || got["rows"] != 2.0 || got["totalAllocation"] != 3.0 || got["effectiveAt"] == nil {
		t.Fatalf("upload answer %v", got)
	}
	mustExec(t, db, `INSERT INTO nodes (id, tier, owner, mint_tx) VALUES (1, 1, $1, $2)`, strings.ToLower(a), storetest.TxHash("n1"))
	l := list()
	if fmt.Sprint(l["entries"]) != fmt.Sprintf("[map[address:%s allocation:2 used:1] map[address:%s allocation:1 used:0]]", strings.ToLower(a), b) ||
		l["rows"] != 2.0 || l["totalAllocation"] != 3.0 {
		t.Fatalf("the list: %v", l)
	}
	lookup := func(path string) map[string]any {
		t.Helper()
		rec := s.get(t, path)
		wantStatus(t, rec, http.StatusOK)
		if rec.Header().Get("x-ratelimit-limit") != "60" {
			t.Errorf("rate limit %q, want 60", rec.Header().Get("x-ratelimit-limit"))
		}
		return decode[map[string]any](t, rec)
	}
	if got := lookup("/api/tiers/1/allowlist/" + a); fmt.Sprint(got) != "map[allocation:2 listed:true used:1]" {
		t.Errorf("a listed wallet, any case: %v", got)
	}
	if got := lookup("/api/tiers/1/allowlist/0x00000000000000000000000000000000000000cc"); fmt.Sprint(got) != "map[allocation:0 listed:false used:0]" {
		t.Errorf("a wallet not listed: %v", got)
	}
	wantStatus(t, s.get(t, "/api/tiers/1/allowlist/0x12"), http.StatusBadRequest)
	wantStatus(t, s.get(t, "/api/tiers/2/allowlist/"+a), http.StatusNotFound)
	wantStatus(t, s.get(t, "/api/tiers/x/allowlist/"+a), http.StatusBadRequest)

	t.Run("audited", func(t *testing.T) {
		rec := s.adminDo(t, http.MethodGet, "/api/admin/audit?limit=1", "", adminKey)
		if body := rec.Body.String(); !strings.Contains(body, `"action":"tier.allowlist"`) ||
			!strings.Contains(body, "Tier 1's allowlist is now 2 wallets, with 3 nodes in all.") {
			t.Fatalf("audit %s", body)
		}
	})
	t.Run("an empty upload clears it only when confirmed", func(t *testing.T) {
		for _, body := range []string{"", "address,allocation\n"} { // a missing file, a header only
			rec := upload(body)
			wantStatus(t, rec, http.StatusConflict)
			if got, want := errorMessage(t, rec), "Tier 1's allowlist lists 2 wallets and this upload lists none: it would shut every one of them out. "+
				"To empty the list, send it again with ?confirm=true."; got != want {
				t.Errorf("%q, want %q", got, want)
			}
			if l := list(); l["rows"] != 2.0 {
				t.Fatalf("after a refused empty upload: %v", l)
			}
		}
		wantStatus(t, s.adminCSV(t, "/api/admin/tiers/1/allowlist?confirm=false", "text/csv", ""), http.StatusConflict)
		wantStatus(t, s.adminCSV(t, "/api/admin/tiers/1/allowlist?confirm=true", "text/csv", ""), http.StatusOK)
		if got := lookup("/api/tiers/1/allowlist/" + a); got["listed"] != false {
			t.Errorf("after clearing: %v", got)
		}
		if l := list(); l["rows"] != 0.0 {
			t.Fatalf("after a confirmed empty upload: %v", l)
		}
		// An empty list emptied again takes no confirmation: no wallet is shut out.
		wantStatus(t, upload(""), http.StatusOK)
	})
	t.Run("refused", func(t *testing.T) {
		wantStatus(t, s.adminCSV(t, "/api/admin/tiers/1/allowlist", "application/json", a+",1"), http.StatusUnsupportedMediaType)
		wantStatus(t, s.adminCSV(t, "/api/admin/tiers/9/allowlist", "text/csv", a+",1"), http.StatusNotFound)
		wantStatus(t, s.adminCSV(t, "/api/admin/tiers/1/allowlist", "text/csv", strings.Repeat(" ", handlers.MaxListBody+1)), http.StatusRequestEntityTooLarge)
	})
	t.Run("the longest list fits", func(t *testing.T) {
		var sb strings.Builder
		for i := range store.MaxAllowlist { // 5.2 MB, far over the 64 KB other routes take
			fmt.Fprintf(&sb, "0x%040x,%d\r\n", i+1, store.MaxAllocation)
		}
		rec := upload(sb.String())
		wantStatus(t, rec, http.StatusOK)
		if got := decode[map[string]any](t, rec); got["rows"] != float64(store.MaxAllowlist) ||
			got["totalAllocation"] != float64(store.MaxAllowlist)*store.MaxAllocation {
			t.Fatalf("answer %v", got)
		}
		// The 64 KB limit still holds everywhere else under /api/admin.
		wantStatus(t, s.adminDo(t, http.MethodPut, "/api/admin/tiers/1", `{"label":"`+strings.Repeat("x", 70<<10)+`"}`, adminKey),
			http.StatusRequestEntityTooLarge)
	})
}

// TestCheckPayment: the pre-check answers what the payments pass would do with a payment of the
// tier's price from a wallet, made now, with the pass's own reasons.
func TestCheckPayment(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	dc, c := startDevChain(t)
	payTo := strings.ToLower(dc.Payments.Hex())
	j := jobs.New(db, c, nil, nil, jobs.Config{ChainID: dc.ChainID(), PaymentAddress: dc.Payments}, slog.New(slog.DiscardHandler))
	s := newChainServer(t, db, c, j, handlers.Config{PaymentAddress: payTo, AdminKey: adminKey})
	token := strings.ToLower(dc.Token.Hex())
	hour := time.Now().UTC().Add(time.Hour).Truncate(time.Minute)
	for id, body := range map[string]string{
		"1": `{"label":"Standard","priceWei":"100000000000000000","maxPerWallet":5,"enabled":true}`,
		"2": `{"label":"Pro","priceWei":"1000000000000000000","maxPerWallet":2,"enabled":true,"holdingToken":"` + token + `","holdingWei":"1000000000000000000000"}`,
		"3": `{"label":"Gone","priceWei":"300000000000000000","maxPerWallet":2,"enabled":true,"supply":0}`,
		"4": `{"label":"Later","priceWei":"400000000000000000","maxPerWallet":2,"enabled":true,"startsAt":"` + hour.Format(time.RFC3339) + `"}`,
		"5": `{"label":"Friends","priceWei":"500000000000000000","maxPerWallet":2,"enabled":true,"allowlistUntil":"` + hour.Format(time.RFC3339) + `"}`,
	} {
		wantStatus(t, s.adminDo(t, http.MethodPut, "/api/admin/tiers/"+id, body, adminKey), http.StatusOK)
	}
	rich := strings.ToLower(dc.Buyers[0].Address.Hex()) // the dev buyers hold DHT
	noTokens := strings.ToLower(dc.Accounts[0].Address.Hex())
	type answer struct {
		OK             bool    `json:"ok"`
		PriceWei       string  `json:"priceWei"`
		PaymentAddress string  `json:"paymentAddress"`
		Tier           *string `json:"tier"`
		ReasonCode     *string `json:"reasonCode"`
		Reason         *string `json:"reason"`
		Held           bool    `json:"held"`
	}
	check := func(t *testing.T, tier, wallet string) answer {
		t.Helper()
		rec := s.get(t, "/api/tiers/"+tier+"/check/"+wallet)
		wantStatus(t, rec, http.StatusOK)
		return decode[answer](t, rec)
	}
	a := check(t, "1", rich)
	if !a.OK || a.Tier == nil || *a.Tier != "1" || a.PriceWei != "100000000000000000" || a.PaymentAddress != payTo || a.Reason != nil || a.Held {
		t.Errorf("tier 1: %+v", a)
	}
	if a := check(t, "2", rich); !a.OK {
		t.Errorf("tier 2 for a holder: %+v", a)
	}
	bal, err := c.TokenBalance(t.Context(), dc.Token, dc.Accounts[0].Address)
	if err != nil || bal.Sign() != 0 {
		t.Fatalf("account 0's DHT: %v, %v", bal, err)
	}
	for _, tc := range []struct{ tier, wallet, code, reason string }{
		{"2", noTokens, "holding_too_low", "The Pro tier asks the wallet to hold 1,000 DHT; it holds 0 DHT."},
		{"3", rich, "sold_out", "The Gone tier is sold out (0 of 0)."},
		{"4", rich, "not_open", "The Later tier opens at " + hour.Format("2006-01-02 15:04") + " UTC."},
		{"5", rich, "not_allowlisted", "Until " + hour.Format("2006-01-02 15:04") + " UTC only the wallets on the Friends tier's allowlist may buy it, and this wallet is not on it."},
	} {
		a := check(t, tc.tier, tc.wallet)
		if a.OK || a.Tier != nil || a.ReasonCode == nil || *a.ReasonCode != tc.code || a.Reason == nil || *a.Reason != tc.reason {
			t.Errorf("tier %s: %+v %s: %s, want %s: %s", tc.tier, a, deref(a.ReasonCode), deref(a.Reason), tc.code, tc.reason)
		}
	}
	t.Run("held minting waits, it is not refused", func(t *testing.T) {
		wantStatus(t, s.adminDo(t, http.MethodPost, "/api/admin/minting/pause", "", adminKey), http.StatusOK)
		defer s.adminDo(t, http.MethodPost, "/api/admin/minting/resume", "", adminKey)
		if a := check(t, "1", rich); !a.OK || !a.Held {
			t.Errorf("held: %+v", a)
		}
	})
	wantStatus(t, s.get(t, "/api/tiers/9/check/"+rich), http.StatusNotFound)
	wantStatus(t, s.get(t, "/api/tiers/1/check/0x12"), http.StatusBadRequest)
	wantStatus(t, s.get(t, "/api/tiers/256/check/"+rich), http.StatusBadRequest)
	if rec := s.get(t, "/api/tiers/1/check/"+rich); rec.Header().Get("x-ratelimit-limit") != "60" {
		t.Errorf("rate limit %q, want 60", rec.Header().Get("x-ratelimit-limit"))
	}
	unpaid := newChainServer(t, db, c, j, handlers.Config{})
	wantStatus(t, unpaid.get(t, "/api/tiers/1/check/"+rich), http.StatusServiceUnavailable)

	t.Run("a contract wallet at the contract's limit", func(t *testing.T) {
		max, err := c.MaxPerWallet(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range int(max) {
			transact(t, dc, c, dc.Minter.Key, &dc.Factory, c.MintData(dc.Accounts[0].Address, 1, common.Hash{byte(i + 1)}), nil)
		}
		if a := check(t, "1", noTokens); a.OK || *a.ReasonCode != "contract_wallet_limit" {
			t.Errorf("a full wallet: %+v", a)
		}
	})
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}
