package web

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"nodeledger/handlers"
	"nodeledger/store/storetest"
)

// form posts a form from b, with the given extra header name, value pairs.
func (b *browser) form(target string, values url.Values, header ...string) *httptest.ResponseRecorder {
	b.t.Helper()
	req := httptest.NewRequest(http.MethodPost, target, strings.NewReader(values.Encode()))
	header = append([]string{"Content-Type", "application/x-www-form-urlencoded"}, header...)
	return b.send(req, header...).ResponseRecorder
}

func TestOperatorPage(t *testing.T) {
	storetest.Reset(t, db)
	storetest.Tier(t, db, 1, "Standard", "100000000000000000", true)
	mustExec(t, `INSERT INTO payments (tx_hash, payment_ref, from_address, value_wei, block_number, block_hash, status, reason)
		VALUES ($1, $1, $2, 7, 3, $1, 'rejected', 'minting is paused')`, storetest.TxHash("r"), alice)

	t.Run("404 without an admin key", func(t *testing.T) {
		wantStatus(t, newServer(t, handlers.Config{}).get(t, "/operator"), http.StatusNotFound)
	})
	p, cfg := passesOn(t)
	cfg.AdminKey, cfg.SessionSecret = adminKey, sessionSecret
	s := p.server(t, cfg)
	b := newBrowser(t, s, "192.0.2.250")

	doc := page(t, b.do(http.MethodGet, "/operator", nil).Body)
	if doc.Find(`[data-testid=operator-login]`).Length() != 1 {
		t.Fatal("no sign-in form")
	}
	rec := b.form("/operator/passes/payments", nil)
	wantStatus(t, rec, http.StatusUnauthorized) // not signed in

	rec = b.form("/operator/login", url.Values{"key": {"wrong-key-wrong-key"}})
	wantStatus(t, rec, http.StatusUnauthorized)
	if !strings.Contains(text(page(t, rec.Body), "operator-problem"), "not the operator's") {
		t.Fatal("a wrong key is not said")
	}
	wantStatus(t, b.form("/operator/login", url.Values{"key": {adminKey}}, "Origin", "https://evil.example"), http.StatusForbidden)
	rec = b.form("/operator/login", url.Values{"key": {adminKey}})
	wantStatus(t, rec, http.StatusSeeOther)
	if b.cookies["nl_operator"] == nil || !b.cookies["nl_operator"].HttpOnly {
		t.Fatal("no operator session")
	}

	doc = page(t, b.do(http.MethodGet, "/operator", nil).Body)
	if rows := doc.Find(`[data-testid=refunds] tbody tr`); rows.Length() != 1 || !strings.Contains(rows.Text(), "minting is paused") {
		t.Fatalf("refunds %q", rows.Text())
	}
	if doc.Find(`[data-testid=no-drift]`).Length() != 1 {
		t.Fatalf("drift %q", doc.Find("main").Text())
	}

	t.Run("a pass from htmx answers a fragment, from a plain form the page", func(t *testing.T) {
		rec := b.form("/operator/passes/payments", nil, "HX-Request", "true")
		wantStatus(t, rec, http.StatusOK)
		if body := rec.Body.String(); strings.Contains(body, "<html") || !strings.Contains(body, `Payments pass: {&#34;ran&#34;:true`) {
			t.Fatalf("fragment %s", body)
		}
		rec = b.form("/operator/passes/credit", nil)
		wantStatus(t, rec, http.StatusOK)
		if got := text(page(t, rec.Body), "outcome"); !strings.HasPrefix(got, "Credit pass: {") {
			t.Fatalf("outcome %q", got)
		}
	})
	t.Run("tiers on and off sale, minting held", func(t *testing.T) {
		wantStatus(t, b.form("/operator/tiers/1/sale", url.Values{"onSale": {"false"}}), http.StatusOK)
		tiers, _ := db.Tiers(t.Context())
		if tiers[0].OnSale {
			t.Fatal("the tier is still on sale")
		}
		wantStatus(t, b.form("/operator/minting", url.Values{"held": {"true"}}), http.StatusOK)
		if held, _ := db.MintingHeld(t.Context()); !held {
			t.Fatal("minting is not held")
		}
	})
	t.Run("sign out", func(t *testing.T) {
		wantStatus(t, b.form("/operator/logout", nil), http.StatusSeeOther)
		wantStatus(t, b.form("/operator/passes/payments", nil), http.StatusUnauthorized)
	})
}
