package web

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"nodeledger/handlers"
	"nodeledger/store/storetest"
)

// The operator page without dead ends (issue 34): section links to every heading, a tier form
// that takes the payout and says what creating does, questions before Switch off and Hold
// minting, and a live view with one heading, each tier's sold / supply and a countdown.
func TestOperatorDeadEnds(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	storetest.Tier(t, db, 1, "Standard", "100000000000000000", true)
	storetest.Tier(t, db, 2, "Next", "200000000000000000", true)
	opens := time.Now().Add(2 * time.Hour).UTC().Truncate(time.Minute)
	mustExec(t, db, `UPDATE tiers SET supply = 7, starts_at = $1 WHERE id = 2`, opens)
	s := newServer(t, db, handlers.Config{AdminKey: adminKey, SessionSecret: sessionSecret})
	b := signedInOperator(t, s)
	squash := func(s *goquery.Selection) string { return strings.Join(strings.Fields(s.Text()), " ") }

	t.Run("section links lead to headings", func(t *testing.T) {
		doc := b.operatorPage()
		links := doc.Find(`[data-testid=section-nav] a`)
		if links.Length() != 15 {
			t.Fatalf("%d section links: %s", links.Length(), squash(doc.Find(`[data-testid=section-nav]`)))
		}
		links.Each(func(_ int, a *goquery.Selection) {
			id := strings.TrimPrefix(a.AttrOr("href", ""), "#")
			if doc.Find(`#`+id).Length() != 1 {
				t.Errorf("link %q leads nowhere", a.AttrOr("href", ""))
			}
		})
	})

	t.Run("a new tier is on sale by default, with a payout field", func(t *testing.T) {
		form := b.operatorPage().Find(`#tier-form`)
		if _, checked := form.Find(`input[name=enabled]`).Attr("checked"); !checked {
			t.Error("a new tier is off sale by default")
		}
		if got := squash(form.Find(`[data-testid=save-tier]`)); got != "Create tier and put it on sale" {
			t.Errorf("button %q", got)
		}
		if form.Find(`input[name=payout]`).Length() != 1 || form.AttrOr("data-selector", "") == "" || form.AttrOr("data-factory", "") == "" {
			t.Errorf("no payout field or no factory to send it to: %s", htmlOf(form))
		}
	})

	t.Run("a form with a problem keeps the payout and the switch as typed", func(t *testing.T) {
		rec := b.form("/operator/tiers", map[string][]string{"id": {"9"}, "label": {"Nine"}, "price": {"0,1"}, "maxPerWallet": {"1"}, "payout": {"1.5"}})
		wantStatus(t, rec, http.StatusUnprocessableEntity)
		form := page(t, rec.Body).Find(`#tier-form`)
		if got := form.Find(`input[name=payout]`).AttrOr("value", ""); got != "1.5" {
			t.Errorf("payout %q", got)
		}
		if got := squash(form.Find(`[data-testid=save-tier]`)); got != "Create tier (off sale)" {
			t.Errorf("button %q", got)
		}
	})

	t.Run("the script's check before a payout is sent stores nothing", func(t *testing.T) {
		bad := map[string][]string{"id": {"9"}, "label": {"Nine"}, "price": {"0,1"}, "maxPerWallet": {"1"}, "payout": {"1.5"}, "check": {"true"}}
		wantStatus(t, b.form("/operator/tiers", bad), http.StatusUnprocessableEntity)
		good := map[string][]string{"id": {"9"}, "label": {"Nine"}, "price": {"0.1"}, "maxPerWallet": {"1"}, "payout": {"1.5"}, "check": {"true"}}
		wantStatus(t, b.form("/operator/tiers", good), http.StatusNoContent)
		var n int
		if err := db.DB().Get(&n, `SELECT count(*) FROM tiers WHERE id = 9`); err != nil || n != 0 {
			t.Fatalf("a check stored tier 9 (%d rows, %v)", n, err)
		}
	})

	t.Run("Switch off and Hold minting ask first, saying what happens", func(t *testing.T) {
		doc := b.operatorPage()
		q := doc.Find(`[data-testid=tier-1] form:has([data-testid=switch-tier])`).AttrOr("data-confirm", "")
		if q != "Switch off Standard #1? It stops selling at once: a payment for it from now on is rejected and owed a refund." {
			t.Errorf("switch off asks %q", q)
		}
		q = doc.Find(`form:has([data-testid=hold-minting])`).AttrOr("data-confirm", "")
		if !strings.HasPrefix(q, "Hold minting? Payments keep being recorded but no node is minted") {
			t.Errorf("hold asks %q", q)
		}
	})

	t.Run("the live view: one heading, sold / supply, a countdown", func(t *testing.T) {
		check := func(t *testing.T, doc *goquery.Document, heading string) {
			live := doc.Find(`[data-testid=live]`)
			if got := doc.Find(`h1, h2`).FilterFunction(func(_ int, h *goquery.Selection) bool { return squash(h) == "Sale, live" }); got.Length() != 1 || goquery.NodeName(got) != heading {
				t.Errorf("%d headings Sale, live (%s)", got.Length(), goquery.NodeName(got))
			}
			if got := squash(live.Find(`[data-testid=live-tier-2] [data-testid=live-tier-sold]`)); got != "0 / 7" {
				t.Errorf("sold %q", got)
			}
			next := live.Find(`[data-testid=live-opens-next]`)
			if !regexp.MustCompile(`^Next #2 opens in .+, at ` + regexp.QuoteMeta(opens.Format("2006-01-02 15:04")) + ` UTC\.$`).MatchString(squash(next)) {
				t.Errorf("opens next %q", squash(next))
			}
			if next.Find(`time[data-countdown]`).AttrOr("datetime", "") != opens.Format(time.RFC3339) {
				t.Errorf("no countdown: %s", htmlOf(next))
			}
		}
		t.Run("on the operator page", func(t *testing.T) { check(t, b.operatorPage(), "h2") })
		own := page(t, b.do(http.MethodGet, "/operator/live", nil).Body)
		t.Run("on its own page", func(t *testing.T) { check(t, own, "h1") })
		if got := own.Find(`[data-testid=live]`).AttrOr("hx-get", ""); got != "/operator/live?standalone=true" {
			t.Errorf("the page reads %q again", got)
		}
		rec := b.do(http.MethodGet, "/operator/live?standalone=true", nil, "HX-Request", "true")
		t.Run("refreshed on its own page", func(t *testing.T) { check(t, page(t, rec.Body), "h1") })
	})
}
