package web

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	"nodeledger/handlers"
	"nodeledger/jobs"
	"nodeledger/jobs/sale"
	"nodeledger/store"
	"nodeledger/store/storetest"
	"nodeledger/views"

	"github.com/PuerkitoBio/goquery"
)

// TestTierFields holds every surface of a tier to sale.TierFields, the one list of its settings:
// the store's columns, the OpenAPI document, the operator's form, and the API's bodies in and out
// (and so the audit, which records the tier as the API writes it). Each setting is sent alone in
// a PUT: it changes that setting, every other one stays as it was (a field left out keeps the
// tier's setting), and GET, the audit and the ledger say so.
func TestTierFields(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	usdc := store.Token{Address: "0x00000000000000000000000000000000000000c0", Symbol: "USDC", Decimals: 6}
	if err := db.PutTokens(t.Context(), []store.Token{usdc}); err != nil {
		t.Fatal(err)
	}
	c := unreachableChain(t)
	j := jobs.New(db, c, nil, nil, jobs.Config{PaymentTokens: []store.Token{usdc}}, slog.New(slog.DiscardHandler))
	s := newChainServer(t, db, c, j, handlers.Config{AdminKey: adminKey, SessionSecret: sessionSecret,
		PaymentAddress: "0x00000000000000000000000000000000000000aa"})

	// A value for each setting, unlike the tier's below: a setting added to TierFields without
	// one here fails the test.
	value := map[string]any{
		"label": "Renamed", "priceWei": "200000000000000000", "maxPerWallet": 4, "enabled": true, "supply": 50,
		"tokenPrices":  []map[string]string{{"token": usdc.Address, "amount": "300000000"}},
		"holdingToken": "0x00000000000000000000000000000000000000d7", "holdingWei": "5",
		"startsAt": "2030-01-01T00:00:00.000Z", "endsAt": "2030-02-01T00:00:00.000Z", "allowlistUntil": "2030-01-02T00:00:00.000Z",
		"opensAfterTier": "2", "note": "Opens to DHT holders on 1 December", "kycRequired": true,
	}
	put := func(id string, body map[string]any) {
		t.Helper()
		body["confirm"] = true
		b, _ := json.Marshal(body)
		rec := s.adminDo(t, http.MethodPut, "/api/admin/tiers/"+id, string(b), adminKey)
		wantStatus(t, rec, http.StatusOK)
	}
	tier := func() map[string]json.RawMessage {
		t.Helper()
		var got struct{ Tiers []map[string]json.RawMessage }
		rec := s.adminDo(t, http.MethodGet, "/api/admin/tiers", "", adminKey)
		wantStatus(t, rec, http.StatusOK)
		if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		for _, tr := range got.Tiers {
			if string(tr["id"]) == `"1"` {
				return tr
			}
		}
		t.Fatal("no tier 1")
		return nil
	}
	put("2", map[string]any{"label": "Before", "priceWei": "1", "maxPerWallet": 1, "supply": 10})
	put("1", map[string]any{"label": "Standard", "priceWei": "100000000000000000", "maxPerWallet": 3})

	var operatorForm []string
	b := signedInOperator(t, s)
	b.operatorPage().Find(`#tier-form [name]`).Each(func(_ int, sel *goquery.Selection) {
		operatorForm = append(operatorForm, sel.AttrOr("name", ""))
	})
	spec := openAPITier(t)
	columns := []string{"id"}
	for _, f := range sale.TierFields {
		t.Run(f.JSON, func(t *testing.T) {
			columns = append(columns, f.Column)
			v, ok := value[f.JSON]
			if !ok {
				t.Fatalf("no value for %s here: give it one", f.JSON)
			}
			if !slices.Contains(spec.required, f.JSON) || !spec.documented[f.JSON] {
				t.Errorf("the OpenAPI document's Tier does not list %s as a required property", f.JSON)
			}
			input := f.Name
			if f.Name == "tokenPrices" {
				input = views.TokenPriceInput(usdc.Address) // one input a token
			}
			if !slices.Contains(operatorForm, input) {
				t.Errorf("the operator's tier form has no input %q (it has %v)", input, operatorForm)
			}

			before := tier()
			put("1", map[string]any{f.JSON: v})
			after := tier()
			want, _ := json.Marshal(v)
			if f.JSON == "tokenPrices" {
				want = []byte(`[{"token":"` + usdc.Address + `","symbol":"USDC","decimals":6,"amount":"300000000"}]`)
			}
			if string(after[f.JSON]) != string(want) {
				t.Errorf("%s is %s after the PUT, want %s", f.JSON, after[f.JSON], want)
			}
			for name, was := range before {
				if name != f.JSON && !derived[name] && string(after[name]) != string(was) {
					t.Errorf("%s moved from %s to %s when only %s was sent", name, was, after[name], f.JSON)
				}
			}
			var audited json.RawMessage
			if err := db.DB().Get(&audited, `SELECT after -> $1 FROM operator_audit WHERE action = 'tier.put' ORDER BY id DESC LIMIT 1`, f.JSON); err != nil {
				t.Fatal(err)
			}
			if !jsonEqual(audited, after[f.JSON]) {
				t.Errorf("the audit recorded %s = %s, the API says %s", f.JSON, audited, after[f.JSON])
			}
		})
	}
	// The note is on the tier's card, for buyers, on / and /buy (of a tier that sells now: tier 1
	// waits for tier 2).
	put("3", map[string]any{"label": "Open", "priceWei": "3", "maxPerWallet": 1, "enabled": true, "note": value["note"]})
	for _, path := range []string{"/", "/buy"} {
		if got := strings.TrimSpace(page(t, s.get(t, path).Body).Find(`[data-tier="3"] [data-testid="tier-note"]`).Text()); got != value["note"] {
			t.Errorf("%s shows the note %q, want %q", path, got, value["note"])
		}
	}
	slices.Sort(columns)
	stored := slices.Sorted(slices.Values(store.TierColumns))
	if !slices.Equal(columns, stored) {
		t.Errorf("the tiers' columns %v, the settings' %v (and id)", stored, columns)
	}
}

// derived are the fields of GET /api/tiers that follow from the settings (and the clock): a
// setting sent alone may move them.
var derived = map[string]bool{"onSale": true, "phase": true, "opensAt": true, "remaining": true, "holdingSymbol": true,
	"holdingDecimals": true}

// openAPITier is what the OpenAPI document says of a Tier: its required fields and those it
// documents.
func openAPITier(t *testing.T) (out struct {
	required   []string
	documented map[string]bool
}) {
	t.Helper()
	raw, err := os.ReadFile("openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas struct {
				Tier struct {
					Required   []string                   `json:"required"`
					Properties map[string]json.RawMessage `json:"properties"`
				} `json:"Tier"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	out.required, out.documented = doc.Components.Schemas.Tier.Required, map[string]bool{}
	for name := range doc.Components.Schemas.Tier.Properties {
		out.documented[name] = true
	}
	return out
}

// jsonEqual is whether a and b are the same JSON value.
func jsonEqual(a, b []byte) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && strings.EqualFold(mustJSON(x), mustJSON(y))
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
