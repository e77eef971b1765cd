package web

import (
	"bytes"
	"math/big"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/labstack/echo/v4"

	"nodeledger/handlers"
	"nodeledger/static"
	"nodeledger/store"
	"nodeledger/store/storetest"
	"nodeledger/views"
)

// page parses an HTML answer.
// templCall is a component call templ took for text: written after text on the same line, it
// is printed as is ("Transaction @TxLink(t.TxHash)").
var templCall = regexp.MustCompile(`@[A-Z][A-Za-z]*\(`)

func page(t *testing.T, body *bytes.Buffer) *goquery.Document {
	t.Helper()
	if call := templCall.Find(body.Bytes()); call != nil {
		t.Fatalf("the page prints a component call as text: %q", call)
	}
	doc, err := goquery.NewDocumentFromReader(body)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// htmlOf is sel's HTML, for a failure's message.
func htmlOf(sel *goquery.Selection) string {
	h, _ := goquery.OuterHtml(sel)
	return h
}

func bps(n int) *int { return &n }

func text(doc *goquery.Document, testid string) string {
	return strings.TrimSpace(doc.Find(`[data-testid="` + testid + `"]`).Text())
}

// count is how many elements of doc sel matches.
func count(doc *goquery.Document, sel string) int { return doc.Find(sel).Length() }

func TestOverviewComponent(t *testing.T) {
	t.Parallel()
	usd := 3141.5
	wei := func(s string) *big.Int { x, _ := new(big.Int).SetString(s, 10); return x }
	ledgerWei := func(s string) store.Uint256 { return store.Uint256{Int: wei(s)} }
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	o := views.Overview{
		Stats:    store.Stats{TotalNodes: 12, Operators: 3, TotalDistributedWei: ledgerWei("1500000000000000001"), Distributed24hWei: ledgerWei("0")},
		Cover:    &views.Cover{Balance: wei("2000000000000000000"), Outstanding: wei("500000000000000000"), Covered: true, Paused: true},
		Contract: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
		USD:      &usd,
		Tiers: []views.OverviewTier{
			{Tier: store.Tier{ID: 1, Label: "Standard", PriceWei: ledgerWei("100000000000000000"), MaxPerWallet: 5, PayoutBps: bps(10000), Enabled: true},
				Phase: store.PhasePublic},
			{Tier: store.Tier{ID: 2, Label: "Pro", PriceWei: ledgerWei("1000000000000000000"), MaxPerWallet: 2, PayoutBps: bps(12500)},
				Phase: store.PhaseOff}},
		Rounds: []store.Distribution{{ID: 7, TotalWei: ledgerWei("250000000000000000"), NodeCount: 4, Status: "confirmed", CreatedAt: now.Add(-3 * time.Hour)}},
		Now:    now,
	}
	var buf bytes.Buffer
	if err := views.OverviewPage(o).Render(t.Context(), &buf); err != nil {
		t.Fatal(err)
	}
	doc := page(t, &buf)
	if got := text(doc, "total-nodes"); got != "12" {
		t.Errorf("total nodes %q", got)
	}
	if got := text(doc, "price"); got != "$3,141.50" {
		t.Errorf("price %q", got)
	}
	cover := text(doc, "cover")
	for _, want := range []string{"covered", "minting paused", "holds 2 ETH, owes 0.5 ETH", "0x5fbd…0aa3"} {
		if !strings.Contains(cover, want) {
			t.Errorf("cover %q lacks %q", cover, want)
		}
	}
	// Amounts read rounded, with the exact value in their title.
	if got, title := text(doc, "distributed"), doc.Find(`[data-testid="distributed"] .eth`).AttrOr("title", ""); got != "1.5" || title != "1.500000000000000001 ETH" {
		t.Errorf("distributed total %q, title %q", got, title)
	}
	if got := text(doc, "intro"); !strings.Contains(got, "A node is bought with one ETH transfer") || !strings.Contains(got, "payout multiplier") {
		t.Errorf("the landing page does not say what a node is: %q", got)
	}
	if doc.Find(`a[data-testid="buy-link"]`).AttrOr("href", "") != "/buy" {
		t.Error("no Buy button")
	}
	if got := text(doc, "chart-empty"); got != "No distribution in these days." {
		t.Errorf("chart empty state %q", got)
	}
	rows := doc.Find(`[data-testid="tiers"] tbody tr`)
	if rows.Length() != 2 || !strings.Contains(rows.Eq(0).Text(), "0.1") || !strings.Contains(rows.Eq(0).Text(), "public sale") ||
		!strings.Contains(rows.Eq(1).Text(), "switched off") ||
		!strings.Contains(rows.Eq(1).Text(), "1.25×") {
		t.Errorf("tiers %q", rows.Text())
	}
	round := doc.Find(`[data-testid="rounds"] tbody tr`)
	if round.Length() != 1 || !strings.Contains(round.Text(), "0.25") || !strings.Contains(round.Text(), "3 hours ago") {
		t.Errorf("rounds %q", round.Text())
	}
	if title, _ := round.Find("td[title]").Last().Attr("title"); title != "2026-05-01 09:00:00 UTC" {
		t.Errorf("time tooltip %q", title)
	}
	if sel := doc.Find("section#stats"); sel.AttrOr("hx-get", "") != "/partials/stats" || sel.AttrOr("hx-trigger", "") != "every 10s" {
		t.Error("the stats do not refresh themselves")
	}
}

func TestOverviewPage(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	storetest.Tier(t, db, 1, "Standard", "100000000000000000", true)
	storetest.Node(t, db, "1", alice, t0)

	t.Run("without a chain", func(t *testing.T) {
		s := newServer(t, db, handlers.Config{})
		rec := s.get(t, "/")
		wantStatus(t, rec, http.StatusOK)
		if ct := rec.Header().Get("Content-Type"); ct != echo.MIMETextHTMLCharsetUTF8 {
			t.Fatalf("Content-Type %q", ct)
		}
		if csp := rec.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe") {
			t.Fatalf("CSP %q", csp)
		}
		doc := page(t, rec.Body)
		if text(doc, "total-nodes") != "1" || text(doc, "no-rounds") == "" || !strings.Contains(text(doc, "cover"), "chain unreadable") ||
			!strings.Contains(text(doc, "price"), "no quote") {
			t.Fatalf("page %q", doc.Find("main").Text())
		}
		// Every script and stylesheet is ours.
		doc.Find("script, link[rel=stylesheet]").Each(func(_ int, sel *goquery.Selection) {
			src := sel.AttrOr("src", sel.AttrOr("href", ""))
			if !strings.HasPrefix(src, "/static/") {
				t.Errorf("foreign asset %q", src)
			}
		})
	})
	t.Run("with the dev chain", func(t *testing.T) {
		_, c := startDevChain(t)
		doc := page(t, newChainServer(t, db, c, nil, handlers.Config{Price: c}).get(t, "/").Body)
		if cover := text(doc, "cover"); !strings.Contains(cover, "covered") || strings.Contains(cover, "unreadable") {
			t.Fatalf("cover %q", cover)
		}
	})
	t.Run("the stats partial is a fragment", func(t *testing.T) {
		rec := newServer(t, db, handlers.Config{}).get(t, "/partials/stats")
		wantStatus(t, rec, http.StatusOK)
		body := rec.Body.String()
		if strings.Contains(body, "<html") || !strings.Contains(body, `data-testid="stats"`) {
			t.Fatalf("partial %s", body)
		}
	})
}

func TestStaticFiles(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	s := newServer(t, db, handlers.Config{})
	for _, name := range []string{"htmx.min.js", "style.css"} {
		rec := s.get(t, static.URL(name))
		wantStatus(t, rec, http.StatusOK)
		if rec.Header().Get("Cache-Control") != "public, max-age=31536000, immutable" || rec.Body.Len() < 1000 {
			t.Fatalf("%s: %v, %d bytes", name, rec.Header(), rec.Body.Len())
		}
	}
	wantStatus(t, s.get(t, "/static/000000000000/htmx.min.js"), http.StatusNotFound)
}

func TestErrorPages(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	s := newServer(t, db, handlers.Config{})
	s.e.GET("/test/panic", func(echo.Context) error { panic("secret page detail") })
	for path, want := range map[string]struct {
		status int
		msg    string
	}{
		"/nope":       {http.StatusNotFound, handlers.StatusMessage(http.StatusNotFound)},
		"/test/panic": {http.StatusInternalServerError, handlers.StatusMessage(http.StatusInternalServerError)},
	} {
		rec := s.get(t, path)
		wantStatus(t, rec, want.status)
		if !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
			t.Fatalf("%s: Content-Type %q", path, rec.Header().Get("Content-Type"))
		}
		doc := page(t, rec.Body)
		got := text(doc, "error")
		if !strings.Contains(got, strconv.Itoa(want.status)) || !strings.Contains(got, want.msg) {
			t.Fatalf("%s: error page %q", path, got)
		}
		if strings.Contains(doc.Text(), "secret") {
			t.Fatalf("%s leaks detail", path)
		}
	}
	// The API keeps its JSON envelope.
	checkEnvelope(t, s.get(t, "/api/nope"))
}

func TestNodeWalletAndDistributionsPages(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	row := storetest.Node(t, db, "5", alice, t0)
	d := storetest.Distribution(t, db, "250000000000000000", "confirmed", t0, &t0)
	storetest.Credit(t, db, d, row, "1000000000000000", t0)
	storetest.Withdrawal(t, db, row, "3", bob, t0)
	s := newServer(t, db, handlers.Config{})

	t.Run("node", func(t *testing.T) {
		rec := s.get(t, "/node/5")
		wantStatus(t, rec, http.StatusOK)
		doc := page(t, rec.Body)
		if got, title := text(doc, "balance"), doc.Find(`[data-testid="balance"] .eth`).AttrOr("title", ""); got != "< 0.000001" || title != "0.000000000000000007 ETH" {
			t.Fatalf("balance %q, title %q", got, title)
		}
		if got := text(doc, "tier"); got != "Standard" {
			t.Fatalf("tier %q", got)
		}
		if got := text(doc, "next-credit"); got != "payouts are off" {
			t.Fatalf("next credit %q", got)
		}
		if text(doc, "owner") != alice || !strings.Contains(text(doc, "owner-check"), "could not be confirmed on chain just now") {
			t.Fatalf("owner %q: %q", text(doc, "owner"), text(doc, "owner-check"))
		}
		c := doc.Find(`[data-testid="credits"] tbody tr`)
		if c.Length() != 1 || !strings.Contains(c.Text(), "0.001") {
			t.Fatalf("credits %q", c.Text())
		}
		// A credit is linkable, and names its round on the distributions page.
		if id := c.AttrOr("id", ""); id == "" || c.Find(`a[href="#`+id+`"]`).Length() != 1 ||
			c.Find(`a[href="/distributions#round-`+strconv.FormatInt(d, 10)+`"]`).Length() != 1 {
			t.Fatalf("credit row %s", htmlOf(c))
		}
		w := doc.Find(`[data-testid="withdrawals"] tbody tr`)
		if w.Length() != 1 || w.Find(`[data-label=Status]`).Text() != "paid out" {
			t.Fatalf("withdrawals %q", w.Text())
		}
		if id := w.AttrOr("id", ""); !strings.HasPrefix(id, "withdrawal-") || w.Find(`a[href="#`+id+`"]`).Length() != 1 {
			t.Fatalf("withdrawal row %s", htmlOf(w))
		}
		wantStatus(t, s.get(t, "/node/999"), http.StatusNotFound)
		wantStatus(t, s.get(t, "/node/abc"), http.StatusBadRequest)
	})
	t.Run("wallet, and the search form without JavaScript", func(t *testing.T) {
		rec := s.get(t, "/wallet?address="+strings.ToUpper(alice[2:]))
		wantStatus(t, rec, http.StatusBadRequest) // no 0x: not an address
		rec = s.get(t, "/wallet?address=0x"+strings.ToUpper(alice[2:]))
		wantStatus(t, rec, http.StatusSeeOther)
		if loc := rec.Header().Get("Location"); loc != "/wallet/"+alice {
			t.Fatalf("Location %q", loc)
		}
		doc := page(t, s.get(t, "/wallet/"+alice).Body)
		if rows := doc.Find(`[data-testid="wallet-nodes"] tbody tr`); rows.Length() != 1 || rows.Find("a").AttrOr("href", "") != "/node/5" {
			t.Fatalf("wallet nodes %q", rows.Text())
		}
		if text(page(t, s.get(t, "/wallet/"+bob).Body), "no-nodes") == "" {
			t.Fatal("an empty wallet says nothing")
		}
	})
	t.Run("distributions", func(t *testing.T) {
		doc := page(t, s.get(t, "/distributions").Body)
		rows := doc.Find(`[data-testid="rounds"] tbody tr`)
		if rows.Length() != 1 || !strings.Contains(rows.Text(), "0.25") || rows.AttrOr("id", "") != "round-"+strconv.FormatInt(d, 10) {
			t.Fatalf("rounds %s", htmlOf(rows))
		}
		doc = page(t, s.get(t, "/distributions?limit=1").Body)
		if doc.Find(`[data-testid="more"]`).AttrOr("href", "") != "/distributions?limit=2" {
			t.Fatal("no way to widen the page")
		}
		wantStatus(t, s.get(t, "/distributions?limit=0"), http.StatusBadRequest)
	})
}

// TestHealthPage: the status page gives the contract's funds and leaves the service's own parts
// to the operator page's Service section: the worker's last tick (never, stale, fresh) and the
// tracing of contract wallets' payments.
func TestHealthPage(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	cfg := handlers.Config{TickSec: 60, StaleAfterSec: 300, DistEnabled: true, DistMode: "fixed", AdminKey: adminKey, SessionSecret: sessionSecret}
	s := newServer(t, db, cfg)
	b := signedInOperator(t, s)
	lastTick := func() *goquery.Selection { return b.operatorPage().Find(`[data-testid="last-tick"] .value`) }
	if v := lastTick(); !v.HasClass("bad") || !strings.Contains(v.Text(), "never ticked") {
		t.Fatalf("never ticked: %q", v.Text())
	}
	mustExec(t, db, `INSERT INTO scheduler_ticks (started_at) VALUES (now() - interval '1 hour')`)
	if v := lastTick(); !v.HasClass("bad") || !strings.Contains(v.Text(), "stale") {
		t.Fatalf("an hour-old tick: %q", v.Text())
	}
	mustExec(t, db, `INSERT INTO scheduler_ticks (started_at) VALUES (now())`)
	if v := lastTick(); !v.HasClass("good") || strings.Contains(v.Text(), "stale") {
		t.Fatalf("a fresh tick: %q", v.Text())
	}
	if got := text(b.operatorPage(), "internal-transfers"); !strings.Contains(got, "not scanned yet") {
		t.Fatalf("the operator's tracing card: %q", got)
	}
	doc := page(t, s.get(t, "/health").Body)
	if !strings.Contains(text(doc, "solvency"), "chain unreadable") || !strings.Contains(text(doc, "rpc"), "cannot be read") {
		t.Fatalf("health page %q", doc.Find("main").Text())
	}
	if svc := doc.Find(`[data-testid=service], [data-testid=last-tick], [data-testid=internal-transfers]`); svc.Length() != 0 {
		t.Fatalf("the status page shows the operators' cards: %s", htmlOf(svc))
	}
}

func TestBuyAndMePages(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	storetest.Tier(t, db, 1, "Standard", "100000000000000000", true)

	t.Run("buy without a payments address says nodes are not on sale", func(t *testing.T) {
		rec := newServer(t, db, handlers.Config{ChainID: 1337}).get(t, "/buy")
		wantStatus(t, rec, http.StatusOK)
		doc := page(t, rec.Body)
		if !strings.Contains(text(doc, "sales-closed"), "not on sale right now") || doc.Find("[data-wallet=pay]").Length() != 0 {
			t.Fatalf("buy page %q", doc.Find("main").Text())
		}
	})
	s := newServer(t, db, handlers.Config{ChainID: 1337, PaymentAddress: payTo})
	t.Run("buy", func(t *testing.T) {
		doc := page(t, s.get(t, "/buy").Body)
		pay := doc.Find("[data-wallet=pay]")
		if text(doc, "amount") != "0.1 ETH" || text(doc, "payment-address") != payTo || text(doc, "chain-id") != "1337" ||
			pay.AttrOr("data-value", "") != "100000000000000000" || pay.AttrOr("data-to", "") != payTo ||
			doc.Find("[data-wallet=copy]").AttrOr("data-copy", "") != payTo || doc.Find("[data-testid=sales-closed]").Length() != 0 ||
			!strings.Contains(doc.Find("main").Text(), "Dev chain") || doc.Find("[data-testid=track-form]").Length() != 1 {
			t.Fatalf("buy page %q", doc.Find("main").Text())
		}
	})
	t.Run("buy for a wallet at its allowance: no pay button, and why", func(t *testing.T) {
		mustExec(t, db, `UPDATE tiers SET max_per_wallet = 1 WHERE id = 1`)
		storetest.Node(t, db, "77", bob, t0)
		// The page judges the wallet's payment by the payments pass's rules, which read the chain.
		_, c := startDevChain(t)
		s := newChainServer(t, db, c, nil, handlers.Config{ChainID: 1337, PaymentAddress: payTo})
		doc := page(t, s.get(t, "/buy?wallet="+bob[:2]+strings.ToUpper(bob[2:])).Body)
		if text(doc, "holds") != "· this wallet holds 1" || !strings.Contains(text(doc, "blocked"), "already holds the 1 Standard node a wallet may have") ||
			doc.Find("[data-wallet=pay]").Length() != 0 {
			t.Fatalf("buy page %q", doc.Find("main").Text())
		}
		wantStatus(t, s.get(t, "/buy?wallet=0x12"), http.StatusBadRequest)
	})
	t.Run("buy while minting is held: sales paused, no pay button", func(t *testing.T) {
		if err := db.HoldMinting(t.Context(), true); err != nil {
			t.Fatal(err)
		}
		defer db.HoldMinting(t.Context(), false)
		doc := page(t, s.get(t, "/buy").Body)
		if !strings.Contains(text(doc, "sales-closed"), "Sales are paused") || doc.Find("[data-wallet=pay]").Length() != 0 {
			t.Fatalf("buy page %q", doc.Find("main").Text())
		}
	})
	t.Run("me: a visitor gets the sign-in button, a signed-in wallet its nodes", func(t *testing.T) {
		s := authServer(t, db, nil, nil, handlers.Config{})
		b := newBrowser(t, s, "192.0.2.200")
		rec := b.do(http.MethodGet, "/me", nil)
		wantStatus(t, rec, http.StatusOK)
		if page(t, rec.Body).Find("[data-wallet=signin]").Length() != 1 || rec.Header().Get("Cache-Control") != "private, no-store" {
			t.Fatal("no sign-in button for a visitor, or a cacheable page")
		}
		key, _ := crypto.GenerateKey()
		storetest.Node(t, db, "9", addrOf(key), t0)
		b.signIn(key)
		doc := page(t, b.do(http.MethodGet, "/me", nil).Body)
		if text(doc, "me-address") != addrOf(key) || text(doc, "me-balance") != "< 0.000001" ||
			doc.Find(`[data-testid="wallet-nodes"] tbody tr[data-testid=me-node]`).Length() != 1 {
			t.Fatalf("me page %q", doc.Find("main").Text())
		}
	})
}

func TestDistributionChart(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	now := time.Now().UTC()
	yesterday := now.Add(-24 * time.Hour)
	storetest.Distribution(t, db, "1000000000000000000", "confirmed", now, &now)
	storetest.Distribution(t, db, "500000000000000000", "confirmed", now, &now)
	storetest.Distribution(t, db, "250000000000000000", "confirmed", yesterday, &yesterday)
	storetest.Distribution(t, db, "999", "pending", now, nil)

	days, err := db.DistributedPerDay(t.Context(), 14)
	if err != nil {
		t.Fatal(err)
	}
	if len(days) != 14 || days[13].TotalWei.String() != "1500000000000000000" || days[12].TotalWei.String() != "250000000000000000" ||
		days[0].TotalWei.Sign() != 0 || days[13].Day.Format("2006-01-02") != now.Format("2006-01-02") {
		t.Fatalf("days %v", days)
	}

	doc := page(t, newServer(t, db, handlers.Config{}).get(t, "/").Body)
	bars := doc.Find(`[data-testid=chart] g`)
	if bars.Length() != 14 {
		t.Fatalf("%d bars", bars.Length())
	}
	// A phone's chart is the last week's, on the same axis.
	week := doc.Find(`[data-testid=chart-week] g`)
	if week.Length() != 7 || week.Last().Find("title").Text() != bars.Last().Find("title").Text() ||
		doc.Find(`[data-testid=chart-week] text.tick`).Text() != "012" {
		t.Fatalf("the week's chart %s", htmlOf(doc.Find(`[data-testid=chart-week]`)))
	}
	today := bars.Last()
	if title := today.Find("title").Text(); title != now.Format("2 Jan 2006")+": 1.5 ETH" {
		t.Fatalf("today's bar %q", title)
	}
	// The ETH axis goes to 2 in steps of 1, over 208 units.
	if got := doc.Find(`[data-testid=chart] text.tick`).Text(); got != "012" {
		t.Fatalf("axis labels %q", got)
	}
	if h := today.Find("rect").AttrOr("height", ""); h != "156" {
		t.Fatalf("the largest day's bar is %s high, want 208 × 1.5/2 = 156", h)
	}
	if v := today.Find("text.value").Text(); v != "1.5" {
		t.Fatalf("today's value label %q", v)
	}
	if h := bars.Eq(12).Find("rect").AttrOr("height", ""); h != "26" {
		t.Fatalf("yesterday's bar is %s high, want 208 × 0.25/2 = 26", h)
	}
	if bars.Eq(0).Find("text.value").Length() != 0 {
		t.Fatal("a day without a round has a value label")
	}
	if text(doc, "chart-empty") != "" {
		t.Fatal("the chart says it is empty")
	}
}

// TestTiersRedirect: /tiers, where people look for the tiers, leads to the buy page.
func TestTiersRedirect(t *testing.T) {
	t.Parallel()
	s := newServer(t, storetest.New(t), handlers.Config{})
	rec := s.get(t, "/tiers")
	wantStatus(t, rec, http.StatusMovedPermanently)
	if loc := rec.Header().Get("Location"); loc != "/buy" {
		t.Fatalf("/tiers leads to %q", loc)
	}
}
