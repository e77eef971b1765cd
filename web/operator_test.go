package web

import (
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/ethereum/go-ethereum/common"

	"nodeledger/handlers"
	"nodeledger/jobs"
	"nodeledger/store/storetest"
)

// form posts a form from b, with the given extra header name, value pairs.
func (b *browser) form(target string, values url.Values, header ...string) *httptest.ResponseRecorder {
	b.t.Helper()
	req := httptest.NewRequest(http.MethodPost, target, strings.NewReader(values.Encode()))
	header = append([]string{"Content-Type", "application/x-www-form-urlencoded"}, header...)
	return b.send(req, header...).ResponseRecorder
}

// operatorPage is GET /operator as b sees it.
func (b *browser) operatorPage() *goquery.Document {
	b.t.Helper()
	rec := b.do(http.MethodGet, "/operator", nil)
	wantStatus(b.t, rec, http.StatusOK)
	return page(b.t, rec.Body)
}

// driftCheck is GET /operator/drift as b sees it: the partial the operator page loads.
func (b *browser) driftCheck() *goquery.Document {
	b.t.Helper()
	rec := b.do(http.MethodGet, "/operator/drift", nil, "HX-Request", "true")
	wantStatus(b.t, rec, http.StatusOK)
	if strings.Contains(rec.Body.String(), "<html") {
		b.t.Fatalf("the drift check answers a whole page: %s", rec.Body)
	}
	return page(b.t, rec.Body)
}

// wantRedirect checks that an operator form answered Post/Redirect/Get: a 303 to /operator.
func wantRedirect(t *testing.T, rec *httptest.ResponseRecorder) {
	t.Helper()
	wantStatus(t, rec, http.StatusSeeOther)
	if loc := rec.Header().Get("Location"); loc != "/operator" {
		t.Fatalf("redirected to %q", loc)
	}
}

// signedInOperator is a browser signed in as the operator of s.
func signedInOperator(t *testing.T, s *testServer) *browser {
	t.Helper()
	b := newBrowser(t, s, "192.0.2.250")
	wantRedirect(t, b.form("/operator/login", url.Values{"key": {adminKey}}))
	return b
}

func TestOperatorPage(t *testing.T) {
	storetest.Reset(t, db)
	storetest.Tier(t, db, 1, "Standard", "100000000000000000", true)
	mustExec(t, `INSERT INTO payments (tx_hash, payment_ref, from_address, value_wei, block_number, block_hash, status,
			reason_code, reason_args)
		VALUES ($1, $1, $2, 150000000000000000, 3, $1, 'rejected', 'other', '{"text": "minting is paused"}')`, storetest.TxHash("r"), alice)

	t.Run("404 without an admin key", func(t *testing.T) {
		wantStatus(t, newServer(t, handlers.Config{}).get(t, "/operator"), http.StatusNotFound)
	})
	p, cfg := passesOn(t)
	const payments = "0xa0ee7a142d267c1f36714e4a8f75612f20a79720"
	cfg.AdminKey, cfg.SessionSecret, cfg.PaymentAddress = adminKey, sessionSecret, payments
	s := p.server(t, cfg)
	b := newBrowser(t, s, "192.0.2.250")

	doc := page(t, b.do(http.MethodGet, "/operator", nil).Body)
	if doc.Find(`[data-testid=operator-login]`).Length() != 1 {
		t.Fatal("no sign-in form")
	}
	rec := b.form("/operator/passes/payments", nil)
	wantStatus(t, rec, http.StatusUnauthorized) // not signed in
	wantStatus(t, b.form("/operator/tiers", url.Values{"id": {"2"}, "label": {"x"}}), http.StatusUnauthorized)

	rec = b.form("/operator/login", url.Values{"key": {"wrong-key-wrong-key"}})
	wantStatus(t, rec, http.StatusUnauthorized)
	if !strings.Contains(text(page(t, rec.Body), "operator-problem"), "not the operator's") {
		t.Fatal("a wrong key is not said")
	}
	wantStatus(t, b.form("/operator/login", url.Values{"key": {adminKey}}, "Origin", "https://evil.example"), http.StatusForbidden)
	wantRedirect(t, b.form("/operator/login", url.Values{"key": {adminKey}}))
	if b.cookies["nl_operator"] == nil || !b.cookies["nl_operator"].HttpOnly {
		t.Fatal("no operator session")
	}

	doc = b.operatorPage()
	rows := doc.Find(`[data-testid=refunds] tbody tr`)
	if rows.Length() != 1 || !strings.Contains(rows.Text(), "minting is paused") || !strings.Contains(rows.Text(), "0.15") {
		t.Fatalf("refunds %q", rows.Text())
	}
	t.Run("a refund button for the wallet script", func(t *testing.T) {
		btn := rows.Find(`[data-wallet-scope] button[data-wallet=refund]`)
		want := map[string]string{"type": "button", "data-to": alice, "data-value": "150000000000000000", "data-payments": payments}
		for attr, v := range want {
			if got, _ := btn.Attr(attr); got != v {
				t.Errorf("%s = %q, want %q", attr, got, v)
			}
		}
		if got := strings.TrimSpace(btn.Text()); got != "Refund 0.15 ETH" {
			t.Errorf("button says %q", got)
		}
		if rows.Find(`[data-wallet-scope] div[data-wallet-out]`).Length() != 1 {
			t.Error("no place for the wallet's answer")
		}
		if from, _ := rows.Find(`td[data-label=From]`).Attr("title"); from != alice {
			t.Errorf("the sender's full address is not in the title: %q", from)
		}
		if !strings.Contains(doc.Find("main").Text(), "recorded when the") {
			t.Error("no sentence on how a refund is recorded")
		}
	})
	t.Run("the drift check is loaded on its own", func(t *testing.T) {
		slot := doc.Find(`[data-testid=drift-check]`)
		if slot.AttrOr("hx-get", "") != "/operator/drift" || slot.AttrOr("hx-trigger", "") != "load" || slot.Find(`[data-testid=no-drift]`).Length() != 0 {
			t.Fatalf("drift slot %s", htmlOf(slot))
		}
		if slot.AttrOr("action", "") != "/operator/drift" {
			t.Fatalf("without JavaScript the drift check cannot be opened: %s", htmlOf(slot))
		}
		if doc := page(t, b.do(http.MethodGet, "/operator/drift", nil).Body); doc.Find(`h1`).Length() != 1 || doc.Find(`[data-testid=no-drift]`).Length() != 1 {
			t.Fatalf("the drift check as a page: %q", doc.Text())
		}
		b := newBrowser(t, s, "192.0.2.251")
		wantStatus(t, b.do(http.MethodGet, "/operator/drift", nil, "HX-Request", "true"), http.StatusUnauthorized) // not signed in
	})
	if b.driftCheck().Find(`[data-testid=no-drift]`).Length() != 1 || doc.Find(`[data-testid=unattributed]`).Length() != 0 {
		t.Fatalf("drift %q, page %q", b.driftCheck().Text(), doc.Find("main").Text())
	}
	t.Run("ETH no transaction explains is listed, linked to the explorer's block", func(t *testing.T) {
		mustExec(t, `INSERT INTO unattributed_inflows (block_number, block_hash, amount_wei) VALUES (7, $1, 150000000000000000)`,
			storetest.TxHash("b7"))
		defer mustExec(t, `DELETE FROM unattributed_inflows`)
		doc := b.operatorPage()
		got := strings.Join(strings.Fields(text(doc, "unattributed")), " ")
		if got != "0.15 ETH arrived in block 7 that no transaction explains — look it up on the explorer." {
			t.Fatalf("unattributed inflows %q", got)
		}
		if b.driftCheck().Find(`[data-testid=no-drift]`).Length() != 0 {
			t.Fatal("the ledger is said to agree with the chain")
		}
		linked := cfg
		linked.Explorer = "https://explorer.example"
		doc = signedInOperator(t, p.server(t, linked)).operatorPage()
		if a := doc.Find(`[data-testid=unattributed] a[data-explorer-link]`); a.AttrOr("href", "") != "https://explorer.example/block/7" || a.Text() != "7" {
			t.Fatalf("block link %s", htmlOf(a))
		}
	})

	t.Run("transactions waiting to be mined are said", func(t *testing.T) {
		if b.operatorPage().Find(`[data-testid=outbox-note]`).Length() != 0 {
			t.Fatal("a note while nothing waits")
		}
		storetest.MintingPayment(t, db, "waits", alice, storetest.SentTx("mint", 7), storetest.SentTx("mint, higher fees", 7))
		got := strings.Join(strings.Fields(text(b.operatorPage(), "outbox-note")), " ")
		if got != "1 transaction waits to be mined; the oldest was sent just now. Their fees rise every few blocks until they are. 1 fee bump so far." {
			t.Fatalf("outbox note %q", got)
		}
	})
	t.Run("a pass from htmx answers a fragment with a sentence", func(t *testing.T) {
		rec := b.form("/operator/passes/payments", nil, "HX-Request", "true")
		wantStatus(t, rec, http.StatusOK)
		body := rec.Body.String()
		if strings.Contains(body, "<html") || !strings.Contains(body, "Nothing new: a payment is read as soon as it is in a block (block ") {
			t.Fatalf("fragment %s", body)
		}
	})
	t.Run("a plain form post redirects and the next page shows the outcome once", func(t *testing.T) {
		wantRedirect(t, b.form("/operator/passes/credit", nil))
		if got := text(b.operatorPage(), "outcome"); got != "The credit pass did not run: distribution is switched off (DIST_ENABLED=false)." {
			t.Fatalf("outcome %q", got)
		}
		if got := text(b.operatorPage(), "outcome"); got != "" {
			t.Fatalf("the outcome shows again on a refresh: %q", got)
		}
	})
	t.Run("the outcome cookie cannot be forged", func(t *testing.T) {
		b.cookies["nl_operator_flash"] = &http.Cookie{Name: "nl_operator_flash", Value: "PHNjcmlwdD4="}
		if got := text(b.operatorPage(), "outcome"); got != "" {
			t.Fatalf("an unsigned outcome shows: %q", got)
		}
	})
	t.Run("tiers on and off sale", func(t *testing.T) {
		wantRedirect(t, b.form("/operator/tiers/1/sale", url.Values{"onSale": {"false"}}))
		tiers, _ := db.Tiers(t.Context())
		if tiers[0].OnSale {
			t.Fatal("the tier is still on sale")
		}
		if got := text(b.operatorPage(), "outcome"); got != "Tier 1 is now off sale." {
			t.Fatalf("outcome %q", got)
		}
		wantStatus(t, b.form("/operator/tiers/9/sale", url.Values{"onSale": {"true"}}), http.StatusNotFound)
	})
	t.Run("sign out", func(t *testing.T) {
		wantRedirect(t, b.form("/operator/logout", nil))
		wantStatus(t, b.form("/operator/passes/payments", nil), http.StatusUnauthorized)
	})
}

// TestOperatorDriftUnreadable checks the drift check over a chain that cannot be read: the page
// is served without it, and the partial says so in a sentence, with none of the error's text.
func TestOperatorDriftUnreadable(t *testing.T) {
	storetest.Reset(t, db)
	s := newServer(t, handlers.Config{AdminKey: adminKey, SessionSecret: sessionSecret})
	b := signedInOperator(t, s)
	if slot := b.operatorPage().Find(`[data-testid=drift-check]`); slot.Length() != 1 || slot.Find(`[data-testid]`).Length() != 0 {
		t.Fatalf("the page itself ran the drift check: %s", htmlOf(slot))
	}
	doc := b.driftCheck()
	got := text(doc, "drift-problem")
	if !strings.HasPrefix(got, "The drift check could not read the chain: ") || !strings.Contains(got, "Check again") {
		t.Fatalf("drift problem %q", got)
	}
	if body := doc.Text(); strings.Contains(body, "127.0.0.1") || strings.Contains(body, "dial") || strings.Contains(body, "refused") {
		t.Fatalf("the partial leaks the error: %q", body)
	}
	if doc.Find(`[data-testid=no-drift], [data-testid=drift]`).Length() != 0 {
		t.Fatal("a verdict without a check")
	}
	if !strings.Contains(s.log.String(), "drift check failed") {
		t.Fatalf("the detail is not in the log:\n%s", s.log.String())
	}
}

func TestOperatorHold(t *testing.T) {
	storetest.Reset(t, db)
	s := newServer(t, handlers.Config{AdminKey: adminKey, SessionSecret: sessionSecret})
	b := signedInOperator(t, s)
	button := func(doc *goquery.Document) string {
		return strings.TrimSpace(doc.Find(`[data-testid=hold-minting]`).Text())
	}

	doc := b.operatorPage()
	if doc.Find(`[data-testid=held-banner]`).Length() != 0 || button(doc) != "Hold minting" {
		t.Fatalf("before a hold: banner %d, button %q", doc.Find(`[data-testid=held-banner]`).Length(), button(doc))
	}
	wantRedirect(t, b.form("/operator/minting", url.Values{"held": {"true"}}))
	if held, _ := db.MintingHeld(t.Context()); !held {
		t.Fatal("minting is not held")
	}
	doc = b.operatorPage()
	if got := text(doc, "held-banner"); got != "Minting is held: payments are recorded and wait. Resume minting to mint them." {
		t.Fatalf("banner %q", got)
	}
	if button(doc) != "Resume minting" || text(doc, "outcome") != "Minting is held: payments are recorded and wait." {
		t.Fatalf("button %q, outcome %q", button(doc), text(doc, "outcome"))
	}
	wantRedirect(t, b.form("/operator/minting", url.Values{"held": {"false"}}))
	doc = b.operatorPage()
	if held, _ := db.MintingHeld(t.Context()); held || doc.Find(`[data-testid=held-banner]`).Length() != 0 || button(doc) != "Hold minting" {
		t.Fatalf("after resuming: held %v, button %q", held, button(doc))
	}
	if got := text(doc, "outcome"); !strings.HasPrefix(got, "Minting resumed") {
		t.Fatalf("outcome %q", got)
	}
}

func TestOperatorTierForm(t *testing.T) {
	storetest.Reset(t, db)
	storetest.Tier(t, db, 0, "Starter", "1", false)
	s := newServer(t, handlers.Config{AdminKey: adminKey, SessionSecret: sessionSecret})
	b := signedInOperator(t, s)
	const token = "0x00000000000000000000000000000000000000aa"
	good := url.Values{"id": {"4"}, "label": {" Gold "}, "price": {"0.25"}, "maxPerWallet": {"2"},
		"holdingToken": {"0x00000000000000000000000000000000000000AA"}, "holdingAmount": {"5000000000000000000"}, "onSale": {"true"}}

	t.Run("a new tier numbers itself after the last one", func(t *testing.T) {
		if v, _ := b.operatorPage().Find(`#tier-form input[name=id]`).Attr("value"); v != "1" {
			t.Fatalf("id %q", v)
		}
	})
	t.Run("a good tier is stored in wei and the page says so", func(t *testing.T) {
		wantRedirect(t, b.form("/operator/tiers", good))
		tiers, _ := db.Tiers(t.Context())
		gold := tiers[len(tiers)-1]
		if gold.ID != 4 || gold.Label != "Gold" || gold.PriceWei.String() != "250000000000000000" || gold.MaxPerWallet != 2 ||
			gold.HoldingToken == nil || *gold.HoldingToken != token ||
			gold.HoldingWei.String() != "5000000000000000000" || !gold.OnSale {
			t.Fatalf("stored %+v", gold)
		}
		doc := b.operatorPage()
		if got := text(doc, "outcome"); got != "Saved tier 4, Gold: 0.25 ETH, 2 per wallet, for holders of 5000000000000000000 of the token "+token+", on sale." {
			t.Fatalf("outcome %q", got)
		}
		row := doc.Find(`[data-testid=tier-4]`).Text()
		// The payout is the factory's, and this chain cannot be read: unknown, never a zero.
		if !strings.Contains(row, "0.25") || strings.TrimSpace(doc.Find(`[data-testid=tier-4] [data-testid=tier-payout]`).Text()) != "unknown" {
			t.Fatalf("tier row %q", row)
		}
	})
	t.Run("Edit fills the form with the tier in ETH", func(t *testing.T) {
		doc := page(t, b.do(http.MethodGet, "/operator?edit=4", nil).Body)
		form := doc.Find(`#tier-form`)
		for name, want := range map[string]string{"id": "4", "editing": "true", "label": "Gold", "price": "0.25", "maxPerWallet": "2",
			"holdingToken": token, "holdingAmount": "5000000000000000000"} {
			if got, _ := form.Find(`input[name=` + name + `]`).Attr("value"); got != want {
				t.Errorf("%s = %q, want %q", name, got, want)
			}
		}
		if _, checked := form.Find(`input[name=onSale]`).Attr("checked"); !checked {
			t.Error("on sale is not checked")
		}
		if doc.Find(`[data-testid=tier-4] [data-testid=edit-tier]`).Length() != 1 {
			t.Error("no Edit link in the tier's row")
		}
		if form.Find(`input[name=payout]`).Length() != 0 {
			t.Error("the form edits the payout, which is the factory's")
		}
		// 0.25 to 1 ETH is 4×: the form comes back asking, and only the confirmed form is stored.
		edited := url.Values{"editing": {"true"}, "id": {"4"}, "label": {"Gold"}, "price": {"1"}, "maxPerWallet": {"3"}}
		rec := b.form("/operator/tiers", edited)
		wantStatus(t, rec, http.StatusConflict)
		asked := page(t, rec.Body)
		if got := text(asked, "tier-confirm"); !strings.Contains(got, "The price changes from 0.25 ETH to 1 ETH (4×).") {
			t.Fatalf("confirm step %q", got)
		}
		if asked.Find(`#tier-form input[name=confirm]`).Length() != 1 {
			t.Fatal("no confirm box in the form")
		}
		if tiers, _ := db.Tiers(t.Context()); tiers[len(tiers)-1].PriceWei.String() != "250000000000000000" {
			t.Fatal("stored before it was confirmed")
		}
		edited.Set("confirm", "true")
		wantRedirect(t, b.form("/operator/tiers", edited))
		tiers, _ := db.Tiers(t.Context())
		if gold := tiers[len(tiers)-1]; gold.PriceWei.String() != "1000000000000000000" || gold.HoldingToken != nil || gold.OnSale {
			t.Fatalf("edited %+v", gold)
		}
	})

	for _, tc := range []struct {
		name, field, value, sentence string
	}{
		{"no price", "price", "", "The price is required: an amount in ETH, such as 0.1."},
		{"a price in words", "price", "ten", "The price must be an amount in ETH, such as 0.1."},
		{"a price with a comma", "price", "0,1", "The price must be an amount in ETH, such as 0.1."},
		{"a negative price", "price", "-1", "The price must be an amount in ETH, such as 0.1."},
		{"a price in exponent form", "price", "1e-3", "The price must be an amount in ETH, such as 0.1."},
		{"a zero price", "price", "0.0", "The price must be more than 0."},
		{"19 decimals", "price", "0.0000000000000000001", "The price has more than 18 decimals: the smallest amount is 0.000000000000000001 ETH."},
		{"a price over uint256", "price", strings.Repeat("9", 70), "The price is too large."},
		{"no label", "label", "  ", "A tier needs a label, such as Standard."},
		{"a long label", "label", strings.Repeat("x", 65), "A label has at most 64 characters."},
		{"a tier number over 255", "id", "256", "The tier number must be a whole number from 0 to 255."},
		{"a tier number in words", "id", "four", "The tier number must be a whole number from 0 to 255."},
		{"a fractional allowance", "maxPerWallet", "1.5", "The allowance per wallet must be a whole number, such as 3."},
		{"a negative allowance", "maxPerWallet", "-1", "The allowance per wallet must be a whole number, such as 3."},
		{"a huge allowance", "maxPerWallet", "100000000", "The allowance per wallet must be a whole number from 0 to 1000000."},
		{"a short token", "holdingToken", "0x12", "The holding token must be a token's address: 0x and 40 hexadecimal digits."},
		{"a fractional holding amount", "holdingAmount", "1.5", "The holding amount must be a whole number of the token's smallest unit, such as 1000000000000000000 for 1 token of 18 decimals."},
	} {
		t.Run("422 for "+tc.name, func(t *testing.T) {
			v := url.Values{}
			for k, vs := range good {
				v[k] = vs
			}
			v.Set("id", "7")
			v.Set(tc.field, tc.value)
			rec := b.form("/operator/tiers", v)
			wantStatus(t, rec, http.StatusUnprocessableEntity)
			doc := page(t, rec.Body)
			if got := text(doc, "problem-"+tc.field); got != tc.sentence {
				t.Fatalf("sentence %q, want %q", got, tc.sentence)
			}
			if n := doc.Find(`[data-testid^=problem-]`).Length(); n != 1 {
				t.Fatalf("%d problems shown", n)
			}
			// What was typed stays, so the operator fixes one field.
			if got, _ := doc.Find(`#tier-form input[name=label]`).Attr("value"); tc.field != "label" && got != " Gold " {
				t.Fatalf("label %q", got)
			}
			if tiers, _ := db.Tiers(t.Context()); tiers[len(tiers)-1].ID == 7 {
				t.Fatal("a bad tier was stored")
			}
		})
	}
	t.Run("the admin API and the form share their check", func(t *testing.T) {
		v := url.Values{"id": {"7"}, "label": {"x"}, "price": {"1"}, "maxPerWallet": {"1"}, "holdingAmount": {"5"}}
		rec := b.form("/operator/tiers", v)
		wantStatus(t, rec, http.StatusUnprocessableEntity)
		const sentence = "A holding amount needs the address of the token to hold."
		if got := text(page(t, rec.Body), "problem-holdingAmount"); got != sentence {
			t.Fatalf("form: %q", got)
		}
		rec = s.adminDo(t, http.MethodPut, "/api/admin/tiers/7", `{"label":"x","priceWei":"1","maxPerWallet":1,"payoutBps":1,"holdingWei":"5"}`, adminKey)
		wantStatus(t, rec, http.StatusBadRequest)
		if got := errorMessage(t, rec); got != sentence {
			t.Fatalf("API: %q", got)
		}
	})
}

func TestOperatorPassOutcomes(t *testing.T) {
	storetest.Reset(t, db)
	storetest.Tier(t, db, 1, "Standard", "100000000000000000", true)
	dc, c := startDevChain(t)
	j := jobs.New(db, c, dc.Minter.Key, dc.Distributor.Key, jobs.Config{ChainID: dc.ChainID(), PaymentAddress: dc.Payments,
		Confirmations: 2, DistEnabled: true, DistMode: "fixed", DistPeriod: time.Millisecond, DistBaseWei: big.NewInt(1000)},
		slog.New(slog.DiscardHandler))
	s := newChainServer(t, c, j, handlers.Config{AdminKey: adminKey, SessionSecret: sessionSecret, DistMode: "fixed"})
	b := signedInOperator(t, s)
	run := func(pass string) string {
		t.Helper()
		rec := b.form("/operator/passes/"+pass, nil, "HX-Request", "true")
		wantStatus(t, rec, http.StatusOK)
		out := text(page(t, rec.Body), "outcome")
		t.Logf("%s pass: %s", pass, out)
		return out
	}
	// The reasons of the rejected payments, newest first, as /api/admin/refunds says them.
	refundReasons := func() []string {
		t.Helper()
		rec := s.adminDo(t, http.MethodGet, "/api/admin/refunds", "", adminKey)
		wantStatus(t, rec, http.StatusOK)
		var reasons []string
		for _, r := range decode[[]refundBody](t, rec) {
			reasons = append(reasons, r.Reason)
		}
		return reasons
	}
	buyer := dc.Buyers[0]
	pay := func(eth string) {
		t.Helper()
		wei, _ := new(big.Int).SetString(eth, 10)
		transact(t, dc, c, buyer.Key, &dc.Payments, nil, wei)
	}
	// another block: a transfer that is no payment
	block := func() {
		t.Helper()
		to := common.HexToAddress("0x000000000000000000000000000000000000dEaD")
		transact(t, dc, c, dc.Buyers[1].Key, &to, nil, big.NewInt(1))
	}

	// The allowance, set from the form (5 to 1, confirmed), is what the second payment runs into.
	wantRedirect(t, b.form("/operator/tiers", url.Values{"editing": {"true"}, "id": {"1"}, "label": {"Standard"}, "price": {"0.1"},
		"maxPerWallet": {"1"}, "onSale": {"true"}, "confirm": {"true"}}))
	run("payments")
	pay("100000000000000000")
	pay("100000000000000000")
	got := run("payments")
	if ok, _ := regexp.MatchString(`^Nothing new: a payment waits for 2 confirmations \(block \d+ is the last one read; the chain is at \d+(; next block in about \d+ s|; the last block was made \d+ s ago)?\)\.$`, got); !ok {
		t.Fatalf("right after a payment: %q", got)
	}
	block()
	block()
	got = run("payments")
	refunds := refundReasons()
	if len(refunds) != 1 || refunds[0] == "" {
		t.Fatalf("refunds %+v", refunds)
	}
	if want := "Minted 1 node, rejected 1: " + strings.TrimSuffix(refunds[0], ".") + "."; !strings.EqualFold(got, want) {
		t.Fatalf("outcome %q, want %q", got, want)
	}
	if strings.Contains(got, "{") {
		t.Fatalf("JSON in the outcome: %q", got)
	}

	got = run("credit")
	if ok, _ := regexp.MatchString(`^Credited 1 node 0\.000000000000001 ETH in round \d+\.$`, got); !ok {
		t.Fatalf("credit: %q", got)
	}

	pay("150000000000000000")
	block()
	block()
	got = run("payments")
	if refunds = refundReasons(); len(refunds) != 2 || refunds[0] == "" {
		t.Fatalf("refunds %+v", refunds)
	}
	if want := "Rejected 1 payment: " + strings.TrimSuffix(refunds[0], ".") + "."; !strings.EqualFold(got, want) {
		t.Fatalf("outcome %q, want %q", got, want)
	}

	wantRedirect(t, b.form("/operator/minting", url.Values{"held": {"true"}}))
	pay("100000000000000000")
	block()
	block()
	if got := run("payments"); got != "Recorded 1 new payment. Minting is held by the operator: payments are recorded and wait." {
		t.Fatalf("held: %q", got)
	}
}
