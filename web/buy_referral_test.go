package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"nodeledger/handlers"
	"nodeledger/jobs/sale"
	"nodeledger/store/storetest"
)

// TestBuyPageReferral: /buy?ref= shows the code's discount and each tier's discounted price, and
// its Pay button binds the code and asks for that price; the code is remembered for the visit (a
// session cookie). A code that gives nothing now, or none at all, says why, and the page then
// offers the full price only.
func TestBuyPageReferral(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	storetest.Tier(t, db, 1, "Standard", "100000000000000000", true)
	s := newServer(t, db, handlers.Config{ChainID: 1337, PaymentAddress: payTo, AdminKey: adminKey})
	for _, body := range []string{
		`{"code": "Pal5", "owner": "` + alice + `", "discountBps": 500, "commissionBps": 250, "expiresAt": "2099-01-01T00:00:00Z"}`,
		`{"code": "Old05", "owner": "` + alice + `", "discountBps": 500, "commissionBps": 250, "expiresAt": "2020-01-01T00:00:00Z"}`,
		`{"code": "Off05", "owner": "` + alice + `", "discountBps": 500, "commissionBps": 250, "enabled": false}`,
	} {
		wantStatus(t, s.adminDo(t, http.MethodPost, "/api/admin/referral-codes", body, adminKey), http.StatusCreated)
	}

	b := newBrowser(t, s, "203.0.113.40")
	rec := b.do(http.MethodGet, "/buy?ref=pal5", nil)
	wantStatus(t, rec, http.StatusOK)
	var remembered *http.Cookie
	for _, c := range rec.Result().Cookies() {
		if c.Name == "nl_ref" {
			remembered = c
		}
	}
	if remembered == nil || remembered.Value != "pal5" || remembered.MaxAge != 0 || !remembered.Expires.IsZero() || !remembered.HttpOnly {
		t.Fatalf("the code is remembered as %+v, want a session cookie", remembered)
	}
	// Back on /buy without the link's ?ref=, the visit keeps its code.
	for _, target := range []string{"/buy?ref=pal5", "/buy"} {
		doc := page(t, b.do(http.MethodGet, target, nil).Body)
		pay := doc.Find("[data-wallet=pay]")
		if got := text(doc, "referral"); !strings.HasPrefix(got, "Code Pal5: 5 % off until 2099-01-01 00:00:00 UTC. Whichever Pay button you press (ETH or a token) links it") {
			t.Errorf("%s: the code says %q", target, got)
		}
		if text(doc, "amount") != "0.1 ETH" || text(doc, "discounted") != "0.095 ETH with code Pal5" ||
			pay.AttrOr("data-value", "") != "100000000000000000" || pay.AttrOr("data-pay", "") != "95000000000000000" ||
			pay.AttrOr("data-ref", "") != "Pal5" || strings.TrimSpace(pay.Text()) != "Pay 0.095 ETH" {
			t.Errorf("%s: the tier %q, its Pay button %q %s %s", target, doc.Find("[data-testid=buy-tier]").Text(), pay.Text(),
				pay.AttrOr("data-pay", ""), pay.AttrOr("data-ref", ""))
		}
		// The box for other wallets keeps the full price, and says the discount is not theirs.
		if text(doc, "pay-eth") != "0.1 ETH" || !strings.Contains(text(doc, "referral-elsewhere"),
			"applies only to payments from a wallet that linked the code on this page") {
			t.Errorf("%s: pay from elsewhere says %q", target, doc.Find("[data-testid=quote]").Text())
		}
	}

	for ref, want := range map[string]string{
		"old05":  "The code Old05 is not valid: it expired 2020-01-01 00:00:00 UTC.",
		"OFF05":  "The code Off05 is not valid: it is switched off",
		"Nobody": "The code Nobody is not valid: no referral code has this name.",
		// Text of no code's shape is not repeated beside the prices: a link could make the page say
		// anything (up to ~900 KB of it).
		"<b>x</b>":                       "This link's code is not valid.",
		strings.Repeat("Send ETH ", 500): "This link's code is not valid.",
		bob:                              "The code " + bob + " is not valid: that wallet holds no node",
	} {
		doc := page(t, newBrowser(t, s, "203.0.113.41").do(http.MethodGet, "/buy?ref="+url.QueryEscape(ref), nil).Body)
		pay := doc.Find("[data-wallet=pay]")
		if got := text(doc, "referral"); !strings.HasPrefix(got, want) || !strings.HasSuffix(got, "The prices below are the full prices.") {
			t.Errorf("%s: the code says %q, want %q", ref, got, want)
		}
		if !sale.MayBeCode(ref) && strings.Contains(doc.Find("main").Text(), strings.TrimSpace(ref)) {
			t.Errorf("the page repeats the link's text %q", ref)
		}
		if count(doc, "[data-testid=discounted]") != 0 || count(doc, "[data-testid=referral-elsewhere]") != 0 ||
			pay.AttrOr("data-pay", "") != "100000000000000000" || pay.AttrOr("data-ref", "") != "" || strings.TrimSpace(pay.Text()) != "Pay 0.1 ETH" {
			t.Errorf("%s: a discount is offered: %q", ref, doc.Find("main").Text())
		}
	}

	// What is no code is not remembered, and leaves the visit's code as it was.
	rec = b.do(http.MethodGet, "/buy?ref=%3Cb%3E", nil)
	for _, c := range rec.Result().Cookies() {
		if c.Name == "nl_ref" {
			t.Errorf("remembered %q", c.Value)
		}
	}
	if got := text(page(t, b.do(http.MethodGet, "/buy", nil).Body), "referral"); !strings.HasPrefix(got, "Code Pal5: 5 % off") {
		t.Errorf("after a bad link the visit's code says %q", got)
	}
	if count(page(t, newBrowser(t, s, "203.0.113.42").do(http.MethodGet, "/buy", nil).Body), "[data-testid=referral]") != 0 {
		t.Error("a visit without a code shows one")
	}
}
