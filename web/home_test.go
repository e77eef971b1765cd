package web

import (
	"bytes"
	"math/big"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/ethereum/go-ethereum/crypto"

	"nodeledger/handlers"
	"nodeledger/store"
	"nodeledger/store/storetest"
	"nodeledger/views"
)

// dailyFixed pays 0.001 ETH a round to a 1× node, a round a day.
func dailyFixed(cfg handlers.Config) handlers.Config {
	cfg.DistEnabled, cfg.DistMode, cfg.DistPeriod, cfg.DistBaseWei = true, store.DistFixed, 24*time.Hour, big.NewInt(1e15)
	return cfg
}

func TestOverviewEarnings(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	storetest.Tier(t, db, 1, "Standard", "100000000000000000", true)
	storetest.Tier(t, db, 2, "Pro", "1000000000000000000", false)
	storetest.Tier(t, db, 3, "Later", "200000000000000000", true)
	mustExec(t, db, `UPDATE tiers SET starts_at = '2099-01-01T00:00:00Z' WHERE id = 3`)
	mustExec(t, db, `UPDATE tiers SET supply = 1500 WHERE id = 1`)
	_, c := startDevChain(t)
	doc := page(t, newChainServer(t, db, c, nil, dailyFixed(handlers.Config{Price: c})).get(t, "/").Body)

	if h1 := strings.TrimSpace(doc.Find("h1").Text()); h1 == "Overview" || h1 == "" {
		t.Errorf("heading %q", h1)
	}
	standard := doc.Find(`[data-testid=tier][data-tier="1"]`)
	day, month := standard.Find(`[data-testid=earns-day] [data-wei]`), standard.Find(`[data-testid=earns-30d] [data-wei]`)
	if day.AttrOr("data-wei", "") != "1000000000000000" || month.AttrOr("data-wei", "") != "30000000000000000" {
		t.Fatalf("earnings of a Standard node: a day %q, 30 days %q", day.AttrOr("data-wei", ""), month.AttrOr("data-wei", ""))
	}
	for testid, want := range map[string]string{"earns-day": "0.001 ETH ≈ $3.00", "earns-30d": "0.03 ETH ≈ $90.00"} {
		if got := squash(standard.Find(`[data-testid=` + testid + `]`).Text()); got != want {
			t.Errorf("%s %q, want %q", testid, got, want)
		}
	}
	if got := squash(standard.Find(`[data-testid=tier-price-usd]`).Text()); got != "≈ $300.00" {
		t.Errorf("price in dollars %q", got)
	}
	if got := text(doc, "price"); got != "$3,000.00" {
		t.Errorf("ETH price %q", got)
	}
	if standard.Find(`[data-testid=tier-why]`).Length() != 0 {
		t.Error("a tier on sale says why it is not")
	}
	// What is left of its supply, as /buy says it.
	if got := squash(standard.Find(`[data-testid=tier-left]`).Text()); got != "1,500 of 1,500 left" {
		t.Errorf("left %q", got)
	}
	if doc.Find(`[data-testid=tier][data-tier="2"] [data-testid=tier-left]`).Length() != 0 {
		t.Error("a tier without a supply says what is left")
	}
	// A tier that sells nothing says why, in the sale's words.
	for id, want := range map[string]string{"2": "The Pro tier is not on sale.", "3": "The Later tier opens at 2099-01-01 00:00 UTC."} {
		if got := squash(doc.Find(`[data-testid=tier][data-tier="` + id + `"] [data-testid=tier-why]`).Text()); got != want {
			t.Errorf("tier %s: why %q, want %q", id, got, want)
		}
	}
	if got := text(doc, "earnings-basis"); !strings.Contains(got, "paid every day") || !strings.Contains(got, "$3,000.00") {
		t.Errorf("basis %q", got)
	}
	// No cards of zeros before the first sale: what will appear there.
	if doc.Find(`[data-testid=total-nodes]`).Length() != 0 || !strings.Contains(text(doc, "stats-empty"), "No node sold yet") {
		t.Errorf("stats before the first node %q", text(doc, "stats"))
	}
}

func TestOverviewPayoutsOff(t *testing.T) {
	t.Parallel()
	o := views.Overview{Tiers: []views.OverviewTier{{Tier: store.Tier{ID: 1, Label: "Standard", PriceWei: store.Uint256{Int: big.NewInt(1e17)}},
		Phase: store.PhasePublic, Earnings: views.Earnings{Off: true}}}}
	var buf bytes.Buffer
	if err := views.OverviewPage(o).Render(t.Context(), &buf); err != nil {
		t.Fatal(err)
	}
	doc := page(t, &buf)
	if got := text(doc, "earns-day"); got != "nothing while payouts are switched off" {
		t.Errorf("a day %q", got)
	}
	if doc.Find(`[data-testid=earnings-basis]`).Length() != 0 {
		t.Error("a basis for figures that are not there")
	}
}

func TestUSD(t *testing.T) {
	t.Parallel()
	for in, want := range map[float64]string{3000: "$3,000.00", 3141.5: "$3,141.50", 1234567.891: "$1,234,567.89", 0.5: "$0.50",
		0.001: "< $0.01", 0: "$0.00", -1234.5: "-$1,234.50"} {
		if got := views.USD(in); got != want {
			t.Errorf("USD(%v) = %q, want %q", in, got, want)
		}
	}
}

func TestMeHolder(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	storetest.Tier(t, db, 1, "Standard", "100000000000000000", true)
	s := authServer(t, db, nil, nil, dailyFixed(handlers.Config{}))
	b := newBrowser(t, s, "192.0.2.201")
	key, _ := crypto.GenerateKey()
	owner := addrOf(key)
	storetest.Node(t, db, "11", owner, t0)
	storetest.Node(t, db, "12", owner, t0)
	next := time.Now().Add(3*time.Hour + time.Minute).UTC()
	mustExec(t, db, `UPDATE nodes SET next_credit_at = $1`, next)
	b.signIn(key)
	rec := b.do(http.MethodGet, "/me", nil)
	wantStatus(t, rec, http.StatusOK)
	doc := page(t, rec.Body)

	if got := doc.Find(`[data-testid=rate-day]`).AttrOr("data-wei", ""); got != "2000000000000000" {
		t.Errorf("two nodes earn %q wei a day", got)
	}
	if got := doc.Find(`[data-testid=rate-30d]`).AttrOr("data-wei", ""); got != "60000000000000000" {
		t.Errorf("two nodes earn %q wei in 30 days", got)
	}
	if got := squash(text(doc, "me-rate")); !strings.Contains(got, "Your 2 nodes earn about 0.002 ETH a day and 0.06 ETH per 30 days") ||
		!strings.Contains(got, "An estimate, not a promise: the operator may change what a round pays.") {
		t.Errorf("rate %q", got)
	}
	if got, want := squash(text(doc, "next-credit")), "Next credit in 3 hours, at "+views.UTC(next)+"."; got != want {
		t.Errorf("next credit %q, want %q", got, want)
	}
	// The address in full once; the page's own form starts from it as the destination.
	if n := strings.Count(doc.Find("main").Text(), owner); n != 1 {
		t.Errorf("the address is written %d times", n)
	}
	form := doc.Find(`[data-testid=withdraw-all-form]`)
	if form.AttrOr("data-nodes", "") != "11 12" || form.AttrOr("data-owner", "") != owner || form.Find(`input[name=to]`).AttrOr("value", "") != owner {
		t.Errorf("withdraw all form %s", htmlOf(form))
	}
	if !strings.Contains(form.Text(), "Your own wallet, the nodes' owner, unless you change it") {
		t.Errorf("the destination is not explained: %q", form.Text())
	}
	doc.Find(`[data-testid=withdraw-form] input[name=to]`).Each(func(_ int, in *goquery.Selection) {
		if in.AttrOr("value", "") != owner {
			t.Errorf("a node's withdraw form starts from %q", in.AttrOr("value", ""))
		}
	})
}

func squash(s string) string { return strings.Join(strings.Fields(s), " ") }
