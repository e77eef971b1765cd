package web

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"nodeledger/chain"
	"nodeledger/handlers"
	"nodeledger/jobs"
	"nodeledger/store"
	"nodeledger/store/storetest"
	"nodeledger/views"
	"nodeledger/views/words"
)

// form posts a form from b, with the operator page's CSRF token when b has one, and the given
// extra header name, value pairs.
func (b *browser) form(target string, values url.Values, header ...string) *httptest.ResponseRecorder {
	b.t.Helper()
	v := url.Values{}
	for k, vs := range values {
		v[k] = vs
	}
	if b.csrf != "" && !v.Has("csrf") {
		v.Set("csrf", b.csrf)
	}
	req := httptest.NewRequest(http.MethodPost, target, strings.NewReader(v.Encode()))
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

// operatorIPs numbers the operator browsers' addresses, so that no test runs into another's
// sign-in rate limit.
var operatorIPs atomic.Int32

// addOperator puts a fresh wallet on the operator list with role, and returns its key.
func addOperator(t *testing.T, db *store.Store, role string) *ecdsa.PrivateKey {
	t.Helper()
	key, _ := crypto.GenerateKey()
	mustExec(t, db, `INSERT INTO operators (address, role) VALUES ($1, $2)`, addrOf(key), role)
	return key
}

// operatorSignIn runs the operator's wallet sign-in of key in b: the buyers' nonce, the message
// signed, and POST /operator/login. It returns the answer.
func (b *browser) operatorSignIn(key *ecdsa.PrivateKey) *httptest.ResponseRecorder {
	b.t.Helper()
	ch := decode[challenge](b.t, b.do(http.MethodGet, "/api/auth/nonce?address="+addrOf(key), nil))
	body := fmt.Sprintf(`{"address": %q, "signature": %q}`, addrOf(key), hexutil.Encode(personalSign(b.t, key, ch.Message)))
	rec := b.send(httptest.NewRequest(http.MethodPost, "/operator/login", strings.NewReader(body)),
		"Content-Type", "application/json", "Accept", "application/json").ResponseRecorder
	if rec.Code >= 400 {
		checkEnvelope(b.t, rec) // the wallet script reads the sentence from {error}
	}
	return rec
}

// signedInOperator is a browser signed in on the operator page of s as a fresh operator with
// role (admin when not given), holding the page's CSRF token.
func signedInOperator(t *testing.T, s *testServer, role ...string) *browser {
	t.Helper()
	return signedInAs(t, s, addOperator(t, s.db, append(role, "admin")[0]))
}

// signedInAs is a browser signed in on the operator page of s with key, an operator's.
func signedInAs(t *testing.T, s *testServer, key *ecdsa.PrivateKey) *browser {
	t.Helper()
	b := newBrowser(t, s, fmt.Sprintf("198.51.100.%d", operatorIPs.Add(1)%250+1))
	wantStatus(t, b.operatorSignIn(key), http.StatusOK)
	b.csrf = b.operatorPage().Find(`input[name=csrf]`).First().AttrOr("value", "")
	if b.csrf == "" {
		t.Fatal("the operator page has no CSRF token")
	}
	return b
}

func TestOperatorPage(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	storetest.Tier(t, db, 1, "Standard", "100000000000000000", true)
	mustExec(t, db, `INSERT INTO payments (tx_hash, payment_ref, from_address, value_wei, block_number, block_hash, status,
			reason_code, reason_args)
		VALUES ($1, $1, $2, 150000000000000000, 3, $1, 'rejected', 'other', '{"text": "minting is paused"}')`, storetest.TxHash("r"), alice)

	// Changed deliberately with issue 22: operators sign in with their wallets, so the page no
	// longer hangs on ADMIN_KEY (which now gates /api/admin only).
	t.Run("the wallet sign-in without an admin key", func(t *testing.T) {
		doc := page(t, newServer(t, db, handlers.Config{}).get(t, "/operator").Body)
		if doc.Find(`[data-testid=operator-login] button[data-wallet=signin][data-verify="/operator/login"]`).Length() != 1 {
			t.Fatalf("no wallet sign-in: %s", htmlOf(doc.Find("main")))
		}
	})
	p, cfg := passesOn(t, db)
	const payments = "0xa0ee7a142d267c1f36714e4a8f75612f20a79720"
	cfg.AdminKey, cfg.SessionSecret, cfg.PaymentAddress = adminKey, sessionSecret, payments
	s := p.server(t, cfg)
	b := newBrowser(t, s, "192.0.2.250")

	doc := page(t, b.do(http.MethodGet, "/operator", nil).Body)
	if doc.Find(`[data-testid=operator-login]`).Length() != 1 || doc.Find(`input[name=key]`).Length() != 0 {
		t.Fatal("no wallet sign-in, or still the shared key's form")
	}
	rec := b.form("/operator/passes/payments", nil)
	wantStatus(t, rec, http.StatusUnauthorized) // not signed in
	wantStatus(t, b.form("/operator/tiers", url.Values{"id": {"2"}, "label": {"x"}}), http.StatusUnauthorized)

	key := addOperator(t, db, "admin")
	if rec := b.form("/operator/login", url.Values{"key": {adminKey}}); rec.Code < 400 {
		t.Fatalf("the shared key still signs in: %d", rec.Code)
	}
	rec = b.operatorSignIn(key)
	wantStatus(t, rec, http.StatusOK)
	cookie := b.cookies["nl_operator"]
	if cookie == nil || !cookie.HttpOnly || cookie.SameSite != http.SameSiteStrictMode || cookie.Path != "/" || cookie.Secure {
		t.Fatalf("operator session cookie %+v", cookie)
	}
	b.csrf = b.operatorPage().Find(`input[name=csrf]`).First().AttrOr("value", "")

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
		mustExec(t, db, `INSERT INTO unattributed_inflows (block_number, block_hash, amount_wei) VALUES (7, $1, 150000000000000000)`,
			storetest.TxHash("b7"))
		defer mustExec(t, db, `DELETE FROM unattributed_inflows`)
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
		if tiers[0].Enabled {
			t.Fatal("the tier is still on sale")
		}
		if got := text(b.operatorPage(), "outcome"); got != "Tier 1 is now off sale." {
			t.Fatalf("outcome %q", got)
		}
		wantStatus(t, b.form("/operator/tiers/9/sale", url.Values{"onSale": {"true"}}), http.StatusNotFound)
		wantRedirect(t, b.form("/operator/tiers/1/sale", url.Values{"onSale": {"true"}}))
		if got := text(b.operatorPage(), "outcome"); got != "Tier 1 is now switched on: it sells while its times and supply allow." {
			t.Fatalf("outcome %q", got)
		}
	})
	t.Run("sign out", func(t *testing.T) {
		wantRedirect(t, b.form("/operator/logout", nil))
		if b.cookies["nl_operator"] != nil {
			t.Fatal("the cookie outlives the sign-out")
		}
		wantStatus(t, b.form("/operator/passes/payments", nil), http.StatusUnauthorized)
	})
}

// TestOperatorDriftUnreadable checks the drift check over a chain that cannot be read: the page
// is served without it, and the partial says so in a sentence, with none of the error's text.
func TestOperatorDriftUnreadable(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	s := newServer(t, db, handlers.Config{AdminKey: adminKey, SessionSecret: sessionSecret})
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
	t.Parallel()
	db := storetest.New(t)
	s := newServer(t, db, handlers.Config{AdminKey: adminKey, SessionSecret: sessionSecret})
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
	t.Parallel()
	db := storetest.New(t)
	storetest.Tier(t, db, 0, "Starter", "1", false)
	dc, c := startDevChain(t)
	s := newChainServer(t, db, c, nil, handlers.Config{AdminKey: adminKey, SessionSecret: sessionSecret})
	b := signedInOperator(t, s)
	// The dev chain's holding token (DHT, 18 decimals), its address as checksummed; the amount in its units.
	token := strings.ToLower(dc.Token.Hex())
	good := url.Values{"id": {"4"}, "label": {" Gold "}, "price": {"0.25"}, "maxPerWallet": {"2"},
		"holdingToken": {dc.Token.Hex()}, "holdingAmount": {"5"}, "enabled": {"true"}}

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
			gold.HoldingWei.String() != "5000000000000000000" || !gold.Enabled {
			t.Fatalf("stored %+v", gold)
		}
		doc := b.operatorPage()
		if got := text(doc, "outcome"); got != "Saved tier 4, Gold: 0.25 ETH, 2 per wallet, for holders of 5 DHT (the token "+token+"), switched on." {
			t.Fatalf("outcome %q", got)
		}
		row := doc.Find(`[data-testid=tier-4]`).Text()
		// The payout is the factory's, which has no weight for a tier its owner never set.
		if !strings.Contains(row, "0.25") || strings.TrimSpace(doc.Find(`[data-testid=tier-4] [data-testid=tier-payout]`).Text()) != "0×" {
			t.Fatalf("tier row %q", row)
		}
	})
	t.Run("Edit fills the form with the tier in ETH", func(t *testing.T) {
		doc := page(t, b.do(http.MethodGet, "/operator?edit=4", nil).Body)
		form := doc.Find(`#tier-form`)
		for name, want := range map[string]string{"id": "4", "editing": "true", "label": "Gold", "price": "0.25", "maxPerWallet": "2",
			"holdingToken": token, "holdingAmount": "5"} {
			if got, _ := form.Find(`input[name=` + name + `]`).Attr("value"); got != want {
				t.Errorf("%s = %q, want %q", name, got, want)
			}
		}
		if _, checked := form.Find(`input[name=enabled]`).Attr("checked"); !checked {
			t.Error("enabled is not checked")
		}
		if got := strings.Join(strings.Fields(form.Find(`input[name=holdingAmount]`).Parent().Text()), " "); got != "Holding amount (DHT)" {
			t.Errorf("the holding amount's label %q", got)
		}
		if doc.Find(`[data-testid=tier-4] [data-testid=edit-tier]`).Length() != 1 {
			t.Error("no Edit link in the tier's row")
		}
		// The payout is the factory's: the form shows its weight, which the page compares with what
		// is typed to send a change from the owner's wallet (operator-deadends.test.mjs).
		if got := form.Find(`input[name=payout]`).AttrOr("value", "?"); got != "0" || form.AttrOr("data-chain-bps", "") != "0" {
			t.Errorf("payout %q, the factory's %q", got, form.AttrOr("data-chain-bps", ""))
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
		if gold := tiers[len(tiers)-1]; gold.PriceWei.String() != "1000000000000000000" || gold.HoldingToken != nil || gold.Enabled {
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
		{"a holding amount in words", "holdingAmount", "lots", "The holding amount must be an amount of the token, in its own units, such as 2.5."},
		{"a holding amount finer than the token", "holdingAmount", "1.0000000000000000001", "The holding amount has more than 18 decimals, the token's."},
		{"a token that cannot be read", "holdingToken", "0x00000000000000000000000000000000000000aa",
			"The token's decimals cannot be read from the chain now, so the amount cannot be read in its units: try again in a little while."},
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
			field := tc.field
			if tc.name == "a token that cannot be read" {
				field = "holdingAmount" // the amount is what cannot be read without it
			}
			if got := text(doc, "problem-"+field); got != tc.sentence {
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
	t.Parallel()
	db := storetest.New(t)
	storetest.Tier(t, db, 1, "Standard", "100000000000000000", true)
	dc, c := startDevChain(t)
	j := jobs.New(db, c, chain.LocalSigner(dc.Minter.Key), chain.LocalSigner(dc.Distributor.Key), jobs.Config{ChainID: dc.ChainID(), PaymentAddress: dc.Payments,
		Confirmations: 2, DistEnabled: true, DistMode: "fixed", DistPeriod: time.Millisecond, DistBaseWei: big.NewInt(1000)},
		slog.New(slog.DiscardHandler))
	s := newChainServer(t, db, c, j, handlers.Config{AdminKey: adminKey, SessionSecret: sessionSecret, DistMode: "fixed"})
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
		"maxPerWallet": {"1"}, "enabled": {"true"}, "confirm": {"true"}}))
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

// auditRow is an item of GET /api/admin/audit.
type auditRow struct {
	At      string          `json:"at"`
	Actor   string          `json:"actor"`
	IP      string          `json:"ip"`
	Action  string          `json:"action"`
	Target  string          `json:"target"`
	Before  json.RawMessage `json:"before"`
	After   json.RawMessage `json:"after"`
	Outcome string          `json:"outcome"`
}

// audit is the audit as the admin API gives it, newest first.
func (s *testServer) audit(t *testing.T) []auditRow {
	t.Helper()
	rec := s.adminDo(t, http.MethodGet, "/api/admin/audit?limit=1000", "", adminKey)
	wantStatus(t, rec, http.StatusOK)
	return decode[[]auditRow](t, rec)
}

// actions lists the audit's actions, oldest first, as "action target".
func actions(rows []auditRow) []string {
	var out []string
	for i := len(rows) - 1; i >= 0; i-- {
		out = append(out, strings.TrimSpace(rows[i].Action+" "+rows[i].Target))
	}
	return out
}

func TestOperatorSignIn(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	s := newServer(t, db, handlers.Config{AdminKey: adminKey, SessionSecret: sessionSecret})

	t.Run("a wallet not on the list cannot sign in", func(t *testing.T) {
		key, _ := crypto.GenerateKey()
		b := newBrowser(t, s, "198.51.100.251")
		rec := b.operatorSignIn(key)
		wantStatus(t, rec, http.StatusForbidden)
		if got := errorMessage(t, rec); got != "This wallet is not on the operator list: an admin of this service can add it." {
			t.Fatalf("sentence %q", got)
		}
		if b.cookies["nl_operator"] != nil {
			t.Fatal("a session for a stranger")
		}
		if b.operatorPage().Find(`[data-testid=operator-login]`).Length() != 1 {
			t.Fatal("the stranger sees more than the sign-in")
		}
	})
	t.Run("an operator signs in, and it is audited", func(t *testing.T) {
		key := addOperator(t, db, "viewer")
		b := signedInAs(t, s, key)
		if got := text(b.operatorPage(), "operator-role"); got != "viewer" {
			t.Fatalf("role %q", got)
		}
		got := s.audit(t)[0]
		if got.Action != "operator.sign-in" || got.Actor != addrOf(key) || got.Target != addrOf(key) || !strings.HasPrefix(got.IP, "198.51.100.") ||
			got.Outcome != "Signed in as viewer." {
			t.Fatalf("audit %+v", got)
		}
	})
	t.Run("in dev mode the page names the owner, an admin", func(t *testing.T) {
		const owner = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"
		s := newServer(t, db, handlers.Config{AdminKey: adminKey, SessionSecret: sessionSecret, DevAdmin: owner})
		got := strings.Join(strings.Fields(text(page(t, s.get(t, "/operator").Body), "dev-admin")), " ")
		if got != "Dev mode: the factory's owner, dev account 0 (0xf39f…2266), is an admin. Import its key into your wallet to sign in with it." {
			t.Fatalf("banner %q", got)
		}
		if page(t, newServer(t, db, handlers.Config{}).get(t, "/operator").Body).Find(`[data-testid=dev-admin]`).Length() != 0 {
			t.Fatal("a dev banner outside dev mode")
		}
	})
	t.Run("over https the cookie is __Host- and Secure", func(t *testing.T) {
		s := newServer(t, db, handlers.Config{AdminKey: adminKey, SessionSecret: sessionSecret, PublicURL: &url.URL{Scheme: "https", Host: "ledger.example"}})
		b := newBrowser(t, s, "198.51.100.253")
		wantStatus(t, b.operatorSignIn(addOperator(t, db, "viewer")), http.StatusOK)
		c := b.cookies["__Host-nl_operator"]
		if c == nil || !c.Secure || !c.HttpOnly || c.Path != "/" || c.Domain != "" || b.cookies["nl_operator"] != nil {
			t.Fatalf("cookie %+v", c)
		}
	})
}

func TestOperatorRoles(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	storetest.Tier(t, db, 1, "Standard", "100000000000000000", true)
	mustExec(t, db, `INSERT INTO payments (tx_hash, payment_ref, from_address, value_wei, block_number, block_hash, status,
			reason_code, reason_args)
		VALUES ($1, $1, $2, 150000000000000000, 3, $1, 'rejected', 'other', '{"text": "minting is paused"}')`, storetest.TxHash("r"), alice)
	s := newServer(t, db, handlers.Config{AdminKey: adminKey, SessionSecret: sessionSecret, PaymentAddress: "0xa0ee7a142d267c1f36714e4a8f75612f20a79720"})
	// Doubling the price is a change to confirm (the confirm step of the tier form).
	tier := url.Values{"editing": {"true"}, "id": {"1"}, "label": {"Standard"}, "price": {"0.2"}, "maxPerWallet": {"1"}, "confirm": {"true"}}

	t.Run("a viewer sees everything and can change nothing", func(t *testing.T) {
		b := signedInOperator(t, s, "viewer")
		doc := b.operatorPage()
		if count(doc, `[data-testid=refunds] tbody tr`) != 1 || count(doc, `[data-testid=operator-tiers] tbody tr`) != 1 ||
			count(doc, `[data-testid=operators]`) != 1 || count(doc, `[data-testid=audit]`) != 1 || count(doc, `[data-testid=drift-check]`) != 1 {
			t.Fatalf("the viewer misses part of the page: %s", htmlOf(doc.Find("main")))
		}
		for _, sel := range []string{`button[data-wallet=refund]`, `[data-testid=hold-minting]`, `[data-testid=run-payments]`, `[data-testid=tier-form]`,
			`[data-testid=edit-tier]`, `form[action$="/sale"]`, `[data-testid=add-operator]`, `[data-testid=remove-operator]`} {
			if count(doc, sel) != 0 {
				t.Errorf("a viewer is offered %s", sel)
			}
		}
		for path, sentence := range map[string]string{
			"/operator/minting":          "Your role (viewer) cannot hold or resume minting.",
			"/operator/passes/payments":  "Your role (viewer) cannot run the passes.",
			"/operator/tiers/1/sale":     "Your role (viewer) cannot put a tier on or off sale.",
			"/operator/tiers":            "Your role (viewer) cannot change a tier's settings.",
			"/operator/operators":        "Your role (viewer) cannot change the operator list.",
			"/operator/operators/remove": "Your role (viewer) cannot change the operator list.",
		} {
			rec := b.form(path, url.Values{"held": {"true"}, "onSale": {"false"}, "address": {alice}, "role": {"admin"}})
			wantStatus(t, rec, http.StatusForbidden)
			if got := text(page(t, rec.Body), "error"); !strings.Contains(got, sentence) {
				t.Errorf("%s: %q", path, got)
			}
		}
		if held, _ := db.MintingHeld(t.Context()); held {
			t.Fatal("a viewer held minting")
		}
	})
	t.Run("an operator holds minting and refunds, but cannot edit a tier", func(t *testing.T) {
		b := signedInOperator(t, s, "operator")
		doc := b.operatorPage()
		if count(doc, `button[data-wallet=refund]`) != 1 || count(doc, `[data-testid=hold-minting]`) != 1 || count(doc, `form[action$="/sale"]`) != 1 {
			t.Fatalf("the operator misses a button: %s", htmlOf(doc.Find("main")))
		}
		if count(doc, `[data-testid=tier-form]`)+count(doc, `[data-testid=edit-tier]`)+count(doc, `[data-testid=add-operator]`) != 0 {
			t.Fatal("an operator is offered the tier form or the operator list's")
		}
		wantRedirect(t, b.form("/operator/minting", url.Values{"held": {"true"}}))
		if held, _ := db.MintingHeld(t.Context()); !held {
			t.Fatal("the operator could not hold minting")
		}
		rec := b.form("/operator/tiers", tier)
		wantStatus(t, rec, http.StatusForbidden)
		if got := text(page(t, rec.Body), "error"); !strings.Contains(got, "Your role (operator) cannot change a tier's settings.") {
			t.Fatalf("sentence %q", got)
		}
		if tiers, _ := db.Tiers(t.Context()); tiers[0].PriceWei.String() != "100000000000000000" {
			t.Fatal("an operator changed a tier")
		}
	})
	t.Run("an admin edits a tier and sees the operator list's forms", func(t *testing.T) {
		b := signedInOperator(t, s)
		doc := b.operatorPage()
		if count(doc, `[data-testid=tier-form]`) != 1 || count(doc, `[data-testid=add-operator]`) != 1 {
			t.Fatal("the admin misses a form")
		}
		wantRedirect(t, b.form("/operator/tiers", tier))
		if tiers, _ := db.Tiers(t.Context()); tiers[0].PriceWei.String() != "200000000000000000" {
			t.Fatal("the admin could not change the tier")
		}
	})
}

func TestOperatorList(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	s := newServer(t, db, handlers.Config{AdminKey: adminKey, SessionSecret: sessionSecret})
	admin := signedInOperator(t, s)
	role := func(address string) string {
		var r string
		if err := db.DB().Get(&r, `SELECT role FROM operators WHERE address = $1`, address); err != nil {
			return "none"
		}
		return r
	}

	key, _ := crypto.GenerateKey()
	addr := addrOf(key)
	wantRedirect(t, admin.form("/operator/operators", url.Values{"address": {common.HexToAddress(addr).Hex()}, "role": {"viewer"}}))
	if role(addr) != "viewer" {
		t.Fatalf("role %s", role(addr))
	}
	if got := text(admin.operatorPage(), "outcome"); got != "Added "+addr+" as viewer: it can sign in now." {
		t.Fatalf("outcome %q", got)
	}

	t.Run("changing a role ends the operator's live session", func(t *testing.T) {
		b := signedInAs(t, s, key)
		wantStatus(t, b.do(http.MethodGet, "/operator/drift", nil, "HX-Request", "true"), http.StatusOK)
		wantRedirect(t, admin.form("/operator/operators", url.Values{"address": {addr}, "role": {"operator"}}))
		if role(addr) != "operator" {
			t.Fatalf("role %s", role(addr))
		}
		wantStatus(t, b.do(http.MethodGet, "/operator/drift", nil, "HX-Request", "true"), http.StatusUnauthorized)
		if b.operatorPage().Find(`[data-testid=operator-login]`).Length() != 1 {
			t.Fatal("the old session still shows the dashboard")
		}
		if got := signedInAs(t, s, key); text(got.operatorPage(), "operator-role") != "operator" {
			t.Fatal("a new sign-in does not get the new role")
		}
	})
	t.Run("removing an operator ends their live session", func(t *testing.T) {
		b := signedInAs(t, s, key)
		wantRedirect(t, admin.form("/operator/operators/remove", url.Values{"address": {addr}}))
		if role(addr) != "none" {
			t.Fatal("still on the list")
		}
		wantStatus(t, b.form("/operator/minting", url.Values{"held": {"true"}}), http.StatusUnauthorized)
		wantStatus(t, b.operatorSignIn(key), http.StatusForbidden)
	})
	t.Run("an admin cannot change themselves, nor give a role that is none", func(t *testing.T) {
		var self string
		db.DB().Get(&self, `SELECT address FROM operators WHERE role = 'admin' LIMIT 1`)
		rec := admin.form("/operator/operators", url.Values{"address": {self}, "role": {"viewer"}})
		wantStatus(t, rec, http.StatusConflict)
		wantStatus(t, admin.form("/operator/operators/remove", url.Values{"address": {self}}), http.StatusConflict)
		wantStatus(t, admin.form("/operator/operators", url.Values{"address": {alice}, "role": {"root"}}), http.StatusBadRequest)
		wantStatus(t, admin.form("/operator/operators", url.Values{"address": {"0x12"}, "role": {"viewer"}}), http.StatusBadRequest)
		wantStatus(t, admin.form("/operator/operators/remove", url.Values{"address": {alice}}), http.StatusNotFound)
		if role(self) != "admin" || role(alice) != "none" {
			t.Fatal("a refused change was made")
		}
	})
	t.Run("every change is audited with before and after", func(t *testing.T) {
		var got []string
		for _, r := range s.audit(t) {
			if strings.HasPrefix(r.Action, "operator.put") || r.Action == "operator.remove" {
				got = append([]string{r.Action + " " + string(r.Before) + " -> " + string(r.After)}, got...)
			}
		}
		// As jsonb keeps them: shorter keys first.
		viewer, operator := `{"role":"viewer","address":"`+addr+`"}`, `{"role":"operator","address":"`+addr+`"}`
		want := []string{
			`operator.put null -> ` + viewer,
			`operator.put ` + viewer + ` -> ` + operator,
			`operator.remove ` + operator + ` -> null`,
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("audit\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
}

func TestOperatorSessions(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	s := newServer(t, db, handlers.Config{AdminKey: adminKey, SessionSecret: sessionSecret})
	signedOut := func(t *testing.T, b *browser) {
		t.Helper()
		wantStatus(t, b.form("/operator/minting", url.Values{"held": {"true"}}), http.StatusUnauthorized)
		if b.operatorPage().Find(`[data-testid=operator-login]`).Length() != 1 {
			t.Fatal("the page still shows the dashboard")
		}
	}

	t.Run("a copied cookie after sign-out is signed out", func(t *testing.T) {
		b := signedInOperator(t, s, "operator")
		thief := newBrowser(t, s, "203.0.113.99")
		thief.cookies["nl_operator"], thief.csrf = b.cookies["nl_operator"], b.csrf
		wantRedirect(t, thief.form("/operator/minting", url.Values{"held": {"false"}})) // the copy works while the session lives
		wantRedirect(t, b.form("/operator/logout", nil))
		signedOut(t, thief)
		signedOut(t, b)
		if got := s.audit(t)[0]; got.Action != "operator.sign-out" || got.Outcome != "Signed out." {
			t.Fatalf("audit %+v", got)
		}
	})
	t.Run("a session idle for 30 minutes is over", func(t *testing.T) {
		b := signedInOperator(t, s, "operator")
		mustExec(t, db, `UPDATE operator_sessions SET last_seen_at = now() - interval '29 minutes'`)
		wantStatus(t, b.do(http.MethodGet, "/operator/drift", nil, "HX-Request", "true"), http.StatusOK) // and seen now
		mustExec(t, db, `UPDATE operator_sessions SET last_seen_at = now() - interval '31 minutes'`)
		signedOut(t, b)
	})
	t.Run("a session is over after 12 hours, however busy", func(t *testing.T) {
		b := signedInOperator(t, s, "operator")
		var hours float64
		db.DB().Get(&hours, `SELECT extract(epoch FROM expires_at - created_at) / 3600 FROM operator_sessions ORDER BY created_at DESC LIMIT 1`)
		if hours != 12 {
			t.Fatalf("a session lasts %v h", hours)
		}
		if c := b.cookies["nl_operator"]; c.MaxAge != 12*3600 {
			t.Fatalf("cookie max age %d", c.MaxAge)
		}
		mustExec(t, db, `UPDATE operator_sessions SET expires_at = now() - interval '1 second'`)
		signedOut(t, b)
	})
	t.Run("the cookie holds an id, the table only its hash", func(t *testing.T) {
		b := signedInOperator(t, s, "viewer")
		var n int
		db.DB().Get(&n, `SELECT count(*) FROM operator_sessions WHERE id_hash = convert_to($1, 'UTF8')`, b.cookies["nl_operator"].Value)
		if n != 0 {
			t.Fatal("the session id is stored as it is")
		}
	})
}

func TestOperatorCSRF(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	s := newServer(t, db, handlers.Config{AdminKey: adminKey, SessionSecret: sessionSecret})
	b := signedInOperator(t, s, "operator")
	other := signedInOperator(t, s, "operator")
	const sentence = "This form did not come from your operator page, or it is out of date: reload the page and try again."
	held := func() bool { h, _ := db.MintingHeld(t.Context()); return h }

	doc := b.operatorPage()
	doc.Find(`main form[method=post]`).Each(func(_ int, f *goquery.Selection) {
		if f.Find(`input[name=csrf]`).AttrOr("value", "") != b.csrf {
			t.Errorf("a form without the token: %s", htmlOf(f))
		}
	})
	doc.Find(`[hx-post]`).Each(func(_ int, f *goquery.Selection) {
		if h := f.AttrOr("hx-headers", ""); h != `{"X-CSRF-Token": "`+b.csrf+`"}` {
			t.Errorf("an htmx post without the token: %s", htmlOf(f))
		}
	})
	for name, v := range map[string]url.Values{
		"without a token":          {"held": {"true"}, "csrf": {""}},
		"with a wrong token":       {"held": {"true"}, "csrf": {"wrong"}},
		"with another's token":     {"held": {"true"}, "csrf": {other.csrf}},
		"with the token elsewhere": {"held": {"true"}, "csrf": {""}, "token": {b.csrf}},
	} {
		t.Run("403 "+name, func(t *testing.T) {
			rec := b.form("/operator/minting", v)
			wantStatus(t, rec, http.StatusForbidden)
			if got := text(page(t, rec.Body), "error"); !strings.Contains(got, sentence) {
				t.Fatalf("sentence %q", got)
			}
			if held() {
				t.Fatal("minting was held")
			}
		})
	}
	t.Run("htmx sends it as a header", func(t *testing.T) {
		rec := b.form("/operator/minting", url.Values{"held": {"true"}, "csrf": {""}}, "HX-Request", "true", "X-CSRF-Token", b.csrf)
		wantStatus(t, rec, http.StatusOK)
		if !held() {
			t.Fatal("minting is not held")
		}
	})
	t.Run("403 for sign-out without it", func(t *testing.T) {
		wantStatus(t, b.form("/operator/logout", url.Values{"csrf": {"x"}}), http.StatusForbidden)
		wantStatus(t, b.do(http.MethodGet, "/operator/drift", nil, "HX-Request", "true"), http.StatusOK)
	})
}

func TestOperatorAudit(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	storetest.Tier(t, db, 1, "Standard", "100000000000000000", true)
	s := newServer(t, db, handlers.Config{AdminKey: adminKey, SessionSecret: sessionSecret})
	key := addOperator(t, db, "admin")
	b := signedInAs(t, s, key)
	me := addrOf(key)
	sum := sha256.Sum256([]byte(adminKey))
	byKey := "admin key " + hex.EncodeToString(sum[:4])

	wantRedirect(t, b.form("/operator/minting", url.Values{"held": {"true"}}))
	wantRedirect(t, b.form("/operator/tiers/1/sale", url.Values{"onSale": {"false"}}))
	wantRedirect(t, b.form("/operator/tiers", url.Values{"editing": {"true"}, "id": {"1"}, "label": {"Standard"}, "price": {"0.2"}, "maxPerWallet": {"1"}, "confirm": {"true"}}))
	rec := b.form("/operator/passes/credit", nil, "HX-Request", "true")
	wantStatus(t, rec, http.StatusOK)
	wantStatus(t, s.adminDo(t, http.MethodPost, "/api/admin/minting/resume", "", adminKey), http.StatusOK)
	wantStatus(t, s.adminDo(t, http.MethodPost, "/api/admin/tiers/1/on-sale", "", adminKey), http.StatusOK)
	wantStatus(t, s.adminDo(t, http.MethodPut, "/api/admin/tiers/2", `{"label":"Gold","priceWei":"5","maxPerWallet":1}`, adminKey), http.StatusOK)

	t.Run("each action, who, from where, before and after", func(t *testing.T) {
		rows := s.audit(t)
		want := []string{"operator.sign-in " + me, "minting.hold", "tier.off-sale 1", "tier.put 1", "pass.credit", "minting.resume", "tier.on-sale 1", "tier.put 2"}
		if got := actions(rows); strings.Join(got, ", ") != strings.Join(want, ", ") {
			t.Fatalf("actions %v, want %v", got, want)
		}
		hold, resume := rows[6], rows[2]
		if hold.Actor != me || !strings.HasPrefix(hold.IP, "198.51.100.") || string(hold.Before) != `{"held":false}` || string(hold.After) != `{"held":true}` ||
			hold.Outcome != "Minting is held: payments are recorded and wait." {
			t.Fatalf("hold %+v", hold)
		}
		if resume.Actor != byKey || resume.IP != "192.0.2.1" || string(resume.Before) != `{"held":true}` || string(resume.After) != `{"held":false}` {
			t.Fatalf("resume by key %+v", resume)
		}
		put := rows[4]
		if !strings.Contains(string(put.Before), `"priceWei":"100000000000000000"`) || !strings.Contains(string(put.After), `"priceWei":"200000000000000000"`) ||
			!strings.HasPrefix(put.Outcome, "Saved tier 1, Standard: 0.2 ETH") {
			t.Fatalf("tier put %+v", put)
		}
		if rows[0].Before != nil && string(rows[0].Before) != "null" {
			t.Fatalf("a new tier had a before: %s", rows[0].Before)
		}
		if pass := rows[3]; pass.Outcome != "The credit pass did not run: distribution is switched off (DIST_ENABLED=false)." {
			t.Fatalf("pass %+v", pass)
		}
		if _, err := time.Parse(time.RFC3339, rows[0].At); err != nil {
			t.Fatalf("at %q", rows[0].At)
		}
	})
	t.Run("the page lists the audit, newest first", func(t *testing.T) {
		rows := b.operatorPage().Find(`[data-testid=audit] tbody tr`)
		first, last := rows.First().Find(`[data-testid=audit-told]`), rows.Last().Find(`[data-testid=audit-told]`)
		if rows.Length() != 8 || !strings.HasPrefix(first.AttrOr("title", ""), "tier.put") || !strings.HasPrefix(last.AttrOr("title", ""), "operator.sign-in") ||
			!strings.HasPrefix(last.Text(), "Signed in as ") || rows.First().Find(`[data-testid=audit-actor]`).Text() == "" {
			t.Fatalf("audit list %q", rows.Text())
		}
	})
	t.Run("a change that fails leaves no entry", func(t *testing.T) {
		before := len(s.audit(t))
		wantStatus(t, b.form("/operator/tiers/9/sale", url.Values{"onSale": {"true"}}), http.StatusNotFound)
		wantStatus(t, s.adminDo(t, http.MethodPost, "/api/admin/tiers/9/off-sale", "", adminKey), http.StatusNotFound)
		if after := len(s.audit(t)); after != before {
			t.Fatalf("%d entries, was %d", after, before)
		}
	})
	t.Run("an entry that cannot be written undoes its change", func(t *testing.T) {
		mustExec(t, db, `CREATE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit unavailable'; END $$`)
		mustExec(t, db, `CREATE TRIGGER refuse_audit BEFORE INSERT ON operator_audit FOR EACH ROW EXECUTE FUNCTION refuse_audit()`)
		defer mustExec(t, db, `DROP FUNCTION refuse_audit() CASCADE`)
		rec := s.adminDo(t, http.MethodPost, "/api/admin/minting/pause", "", adminKey)
		wantStatus(t, rec, http.StatusInternalServerError)
		if strings.Contains(rec.Body.String(), "audit") {
			t.Fatalf("the failure leaks: %s", rec.Body)
		}
		if held, _ := db.MintingHeld(t.Context()); held {
			t.Fatal("minting is held without its audit entry")
		}
		wantStatus(t, b.form("/operator/tiers/1/sale", url.Values{"onSale": {"false"}}), http.StatusInternalServerError)
		if tiers, _ := db.Tiers(t.Context()); !tiers[0].Enabled {
			t.Fatal("the tier went off sale without its audit entry")
		}
	})
	t.Run("the audit refuses UPDATE and DELETE", func(t *testing.T) {
		for _, q := range []string{`UPDATE operator_audit SET actor = 'someone else'`, `DELETE FROM operator_audit`} {
			if _, err := db.DB().Exec(q); err == nil || !strings.Contains(err.Error(), "append-only") {
				t.Errorf("%s: %v", q, err)
			}
		}
		if n := len(s.audit(t)); n != 8 {
			t.Fatalf("%d entries", n)
		}
	})
	t.Run("GET /api/admin/audit limits", func(t *testing.T) {
		for _, limit := range []string{"0", "1001", "-1", "ten", ""} {
			rec := s.adminDo(t, http.MethodGet, "/api/admin/audit?limit="+limit, "", adminKey)
			wantStatus(t, rec, http.StatusBadRequest)
			if got := errorMessage(t, rec); got != "limit must be a whole number from 1 to 1000." {
				t.Fatalf("limit %q: %q", limit, got)
			}
		}
		rec := s.adminDo(t, http.MethodGet, "/api/admin/audit?limit=2", "", adminKey)
		wantStatus(t, rec, http.StatusOK)
		var items []map[string]any
		json.Unmarshal(rec.Body.Bytes(), &items)
		if len(items) != 2 || items[0]["action"] != "tier.put" {
			t.Fatalf("items %s", rec.Body)
		}
		for _, k := range []string{"at", "actor", "ip", "action", "target", "before", "after", "outcome"} {
			if _, ok := items[0][k]; !ok {
				t.Errorf("no %s in %s", k, rec.Body)
			}
		}
		mustExec(t, db, `INSERT INTO operator_audit (actor, ip, action, target, outcome_code, outcome_args) SELECT 'x', '', 'filler', '', 'other', '{}' FROM generate_series(1, 120)`)
		if n := len(decode[[]auditRow](t, s.adminDo(t, http.MethodGet, "/api/admin/audit", "", adminKey))); n != 100 {
			t.Fatalf("default limit gave %d", n)
		}
		wantStatus(t, s.adminDo(t, http.MethodGet, "/api/admin/audit", "", "wrong"), http.StatusUnauthorized)
	})
}

// TestOperatorRevenue: each tier's revenue is what its minted payments paid, in each currency
// (ETH, USDC) and in US dollars: as booked, each ETH payment at the feed's price of its block and
// a USDC at a dollar, once every payment has its price, else an estimate at the feed's price now
// (none when there is no feed); and the holding threshold is written in the token's own units and
// symbol, read from the token, never in base units as if tokens. A sale that took 0.2 ETH and
// 300 USDC is not 0.2 ETH of revenue (issue 48 §6).
func TestOperatorRevenue(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	dc, c := startDevChain(t)
	storetest.Tier(t, db, 1, "Standard", "100000000000000000", true)
	storetest.Tier(t, db, 2, "Pro", "1000000000000000000", true)
	storetest.Tier(t, db, 3, "Unsold", "1000000000000000000", true)
	usdc := store.Token{Address: strings.ToLower(dc.USDC.Hex()), Symbol: "USDC", Decimals: 6}
	if err := db.PutTokens(t.Context(), []store.Token{usdc}); err != nil {
		t.Fatal(err)
	}
	mustExec(t, db, `UPDATE tiers SET holding_token = $1, holding_wei = 2500000000000000000 WHERE id = 2`, strings.ToLower(dc.Token.Hex()))
	for i, p := range []struct {
		tier          int
		value, status string
		token, amount any
		usdPerETH     any
	}{
		{1, "100000000000000000", "minted", nil, nil, nil}, {1, "100000000000000000", "minted", nil, nil, nil},
		{1, "100000000000000000", "pending", nil, nil, nil}, {1, "0", "minted", usdc.Address, "300000000", nil},
		{2, "1000000000000000000", "minted", nil, nil, "2500.5"}, {2, "0", "minted", usdc.Address, "1000000000", nil},
	} {
		mustExec(t, db, `INSERT INTO payments (tx_hash, payment_ref, from_address, value_wei, block_number, block_hash, status, tier, token, amount, log_index, usd_per_eth)
			VALUES ($1, $1, $2, $3, 1, $1, $4, $5, $6::text, $7::numeric, CASE WHEN $6::text IS NULL THEN NULL ELSE 0 END, $8::numeric)`,
			storetest.TxHash(fmt.Sprint("revenue", i)), alice, p.value, p.status, p.tier, p.token, p.amount, p.usdPerETH)
	}
	cfg := handlers.Config{AdminKey: adminKey, SessionSecret: sessionSecret, Price: c}
	doc := signedInOperator(t, newChainServer(t, db, c, nil, cfg)).operatorPage()
	cell := func(tier int, testid string) string {
		return strings.Join(strings.Fields(doc.Find(fmt.Sprintf(`[data-testid=tier-%d] [data-testid=%s]`, tier, testid)).Text()), " ")
	}
	// The revenue cell's lines, one a currency and the dollars.
	lines := func(tier int) string {
		return strings.Join(doc.Find(fmt.Sprintf(`[data-testid=tier-%d] [data-testid=tier-revenue] div`, tier)).Map(func(_ int, s *goquery.Selection) string {
			return strings.Join(strings.Fields(s.Text()), " ")
		}), " | ")
	}
	// Two minted payments of 0.1 ETH with no price kept, at the dev feed's $3,000 now, and 300
	// USDC; the one not checked yet is not revenue.
	if got := lines(1); got != "0.2 ETH | 300 USDC | ≈ $900.00" {
		t.Fatalf("Standard's revenue %q", got)
	}
	// 1 ETH booked at $2,500.50 and 1,000 USDC.
	if got := cell(2, "revenue-usd"); got != "$3,500.50 as booked" {
		t.Fatalf("Pro's revenue in USD %q", got)
	}
	if got := lines(3); got != "0 ETH | ≈ $0.00" {
		t.Fatalf("Unsold's revenue %q", got)
	}
	live := doc.Find(`[data-testid=live-revenue]`).Text()
	if !strings.Contains(live, "1.2 ETH") || !strings.Contains(live, "1,300 USDC") || !strings.Contains(live, "≈ $4,900.00") {
		t.Fatalf("the live card's revenue %q", live)
	}
	if got := cell(2, "tier-holding"); got != "holding 2.5 DHT of "+views.Short(strings.ToLower(dc.Token.Hex())) {
		t.Fatalf("Pro's holding %q", got)
	}
	if got := cell(1, "tier-holding"); got != "no holding token" {
		t.Fatalf("Standard's holding %q", got)
	}

	t.Run("without a price feed or a readable token", func(t *testing.T) {
		b := signedInOperator(t, newServer(t, db, handlers.Config{AdminKey: adminKey, SessionSecret: sessionSecret}))
		doc := b.operatorPage()
		if got := strings.Join(strings.Fields(doc.Find(`[data-testid=tier-1] [data-testid=tier-revenue]`).Text()), " "); got != "0.2 ETH300 USDC" ||
			doc.Find(`[data-testid=tier-1] [data-testid=revenue-usd]`).Length() != 0 {
			t.Fatalf("Standard's revenue %q", got)
		}
		got := strings.Join(strings.Fields(doc.Find(`[data-testid=tier-2] [data-testid=tier-holding]`).Text()), " ")
		if !strings.HasPrefix(got, "holding 2500000000000000000 base units of ") || !strings.Contains(got, "cannot be read now") {
			t.Fatalf("Pro's holding, token unreadable: %q", got)
		}
	})
}

// upload posts a form from b as multipart/form-data, as a file input sends it: fields, with the
// page's CSRF token when b has one, and the file (field csv) when file is not nil.
func (b *browser) upload(target string, fields url.Values, file []byte) *httptest.ResponseRecorder {
	b.t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	if b.csrf != "" && !fields.Has("csrf") {
		_ = w.WriteField("csrf", b.csrf)
	}
	for k, vs := range fields {
		for _, v := range vs {
			_ = w.WriteField(k, v)
		}
	}
	if file != nil {
		part, _ := w.CreateFormFile("csv", "allowlist.csv")
		_, _ = part.Write(file)
	}
	_ = w.Close()
	req := httptest.NewRequest(http.MethodPost, target, &body)
	return b.send(req, "Content-Type", w.FormDataContentType()).ResponseRecorder
}

// saveForm is the Save form of an allowlist preview, as the browser would post it back.
func saveForm(t *testing.T, doc *goquery.Document) url.Values {
	t.Helper()
	form := doc.Find(`[data-testid=allowlist-preview] form[action="/operator/allowlist"]`)
	if form.AttrOr("enctype", "") != "multipart/form-data" || form.Find(`[data-testid=save-allowlist]`).Length() != 1 {
		t.Fatalf("no Save form in the preview: %s", htmlOf(doc.Find(`#allowlists`).Parent()))
	}
	v := url.Values{}
	form.Find(`input[type=hidden]`).Each(func(_ int, in *goquery.Selection) {
		v.Set(in.AttrOr("name", ""), in.AttrOr("value", ""))
	})
	return v
}

// TestOperatorAllowlistUpload: the operator page previews an allowlist file with the admin API's
// parser (the line that refuses it, or how many wallets and nodes and the first wallets), saves
// nothing before Save, and saves, audited, exactly the list the preview showed: a list changed
// since, or previewed in another session, is refused; a viewer can do neither.
func TestOperatorAllowlistUpload(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	storetest.Tier(t, db, 31, "Gold", "1000000000000000000", true)
	s := newServer(t, db, handlers.Config{AdminKey: adminKey, SessionSecret: sessionSecret})
	b := signedInOperator(t, s, "operator")
	const (
		a1 = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8"
		a2 = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc"
		a3 = "0x90f79bf6eb2c4f870365e785982e1f101e93b906"
	)
	tier := url.Values{"tier": {"31"}}
	saved := func() (store.AllowlistVersion, bool) {
		t.Helper()
		lists, err := db.AllowlistsAt(t.Context(), time.Now())
		if err != nil {
			t.Fatal(err)
		}
		v, ok := lists[31]
		return v, ok
	}

	doc := b.operatorPage()
	if doc.Find(`form[data-testid=allowlist-upload][enctype="multipart/form-data"] input[type=file][name=csv]`).Length() != 1 {
		t.Fatalf("no upload form: %s", htmlOf(doc.Find(`#allowlists`).Parent()))
	}
	if got := text(doc, "tier-allowlist"); !strings.HasPrefix(got, "none") {
		t.Fatalf("allowlist before any upload %q", got)
	}

	for _, tc := range []struct{ name, file, problem string }{
		{"a bad address", "address,allocation\n" + a1 + ",2\n0x12,1\n", `Line 3: "0x12" is not an address.`},
		{"a bad allocation", a1 + ",0\n", `Line 1: "0" is not an allocation: a whole number of nodes from 1 to 1,000,000.`},
		{"a duplicate, in another case", a1 + ",2\n\n0x" + strings.ToUpper(a1[2:]) + ",1\n",
			"Line 3: " + a1 + " is on line 1 already; each address may be listed once."},
		{"three columns", a1 + ",2,3\n", "Line 1: expected an address and an allocation separated by a comma, such as 0x…,2."},
	} {
		t.Run("refused: "+tc.name, func(t *testing.T) {
			rec := b.upload("/operator/allowlist/preview", tier, []byte(tc.file))
			wantStatus(t, rec, http.StatusUnprocessableEntity)
			doc := page(t, rec.Body)
			if got := text(doc, "allowlist-problem"); got != "Nothing was saved: the file is refused. "+tc.problem {
				t.Fatalf("problem %q", got)
			}
			if doc.Find(`[data-testid=allowlist-preview]`).Length() != 0 {
				t.Fatal("a refused file has a preview to save")
			}
			if sel := doc.Find(`[data-testid=allowlist-upload] select[name=tier] option[selected]`); sel.AttrOr("value", "") != "31" {
				t.Fatalf("the form forgets the tier: %s", htmlOf(sel))
			}
			if _, ok := saved(); ok {
				t.Fatal("a refused file was saved")
			}
		})
	}

	// A spreadsheet's export: byte order mark, header, CRLF, mixed case, a blank line.
	file := "\ufeffAddress,Allocation\r\n" + a1 + ",2\r\n" + strings.ToUpper(a2) + ", 4\r\n\r\n" + a3 + ",1\r\n"
	rec := b.upload("/operator/allowlist/preview", tier, []byte(strings.Replace(file, "0X", "0x", 1)))
	wantStatus(t, rec, http.StatusOK)
	doc = page(t, rec.Body)
	if got := strings.Join(strings.Fields(text(doc, "allowlist-summary")), " "); got != "3 wallets, 7 nodes in all." {
		t.Fatalf("preview %q", got)
	}
	first := doc.Find(`[data-testid=allowlist-first] tbody tr`)
	if first.Length() != 3 || first.Eq(1).Find(`td`).First().Text() != a2 || strings.TrimSpace(first.Eq(1).Find(`td`).Last().Text()) != "4" {
		t.Fatalf("first rows %q", first.Text())
	}
	if _, ok := saved(); ok {
		t.Fatal("saved at the preview")
	}
	form := saveForm(t, doc)

	t.Run("a list changed since the preview is refused", func(t *testing.T) {
		changed := url.Values{}
		for k, v := range form {
			changed[k] = v
		}
		changed.Set("csv", strings.Replace(form.Get("csv"), ",1\n", ",100\n", 1))
		rec := b.upload("/operator/allowlist", changed, nil)
		wantStatus(t, rec, http.StatusConflict)
		if got := text(page(t, rec.Body), "error"); !strings.Contains(got, "not the allowlist the preview showed") {
			t.Fatalf("refusal %q", got)
		}
		changed = url.Values{}
		for k, v := range form {
			changed[k] = v
		}
		changed.Set("tier", "30")
		wantStatus(t, b.upload("/operator/allowlist", changed, nil), http.StatusConflict)
		if _, ok := saved(); ok {
			t.Fatal("saved")
		}
	})
	t.Run("a preview of another session is refused", func(t *testing.T) {
		other := signedInOperator(t, s, "operator")
		wantStatus(t, other.upload("/operator/allowlist", form, nil), http.StatusForbidden) // its CSRF token is not this one's
		form := url.Values{"tier": form["tier"], "csv": form["csv"], "mac": form["mac"]}
		wantStatus(t, other.upload("/operator/allowlist", form, nil), http.StatusConflict)
	})
	t.Run("a viewer can neither preview nor save", func(t *testing.T) {
		viewer := signedInOperator(t, s, "viewer")
		if viewer.operatorPage().Find(`[data-testid=allowlist-upload], [data-testid=upload-allowlist]`).Length() != 0 {
			t.Fatal("a viewer is offered the upload")
		}
		for _, target := range []string{"/operator/allowlist/preview", "/operator/allowlist"} {
			rec := viewer.upload(target, url.Values{"tier": {"31"}, "csv": form["csv"], "mac": form["mac"]}, nil)
			wantStatus(t, rec, http.StatusForbidden)
			if got := text(page(t, rec.Body), "error"); !strings.Contains(got, "Your role (viewer) cannot upload a tier's allowlist.") {
				t.Errorf("%s: %q", target, got)
			}
		}
		if _, ok := saved(); ok {
			t.Fatal("saved")
		}
	})
	t.Run("a stranger's or a viewer's upload is refused unread", func(t *testing.T) {
		// 5 MB that the server must not read: who is asking is known from the cookie alone.
		for name, who := range map[string]*browser{"stranger": newBrowser(t, s, "192.0.2.77"), "viewer": signedInOperator(t, s, "viewer")} {
			body := &countingReader{r: strings.NewReader("--x\r\n" + strings.Repeat("a", 5<<20))}
			req := httptest.NewRequest(http.MethodPost, "/operator/allowlist/preview", body)
			rec := who.send(req, "Content-Type", "multipart/form-data; boundary=x").ResponseRecorder
			if rec.Code != http.StatusUnauthorized && rec.Code != http.StatusForbidden {
				t.Errorf("%s: %d", name, rec.Code)
			}
			if body.n > 0 {
				t.Errorf("%s: the server read %d bytes of the upload", name, body.n)
			}
		}
	})
	t.Run("only multipart, on these routes only", func(t *testing.T) {
		wantStatus(t, b.form("/operator/allowlist", form), http.StatusUnsupportedMediaType)
		wantStatus(t, b.upload("/operator/minting", url.Values{"held": {"true"}}, nil), http.StatusUnsupportedMediaType)
	})

	// As a browser sends it: the form's line breaks as CRLF.
	form.Set("csv", strings.ReplaceAll(form.Get("csv"), "\n", "\r\n"))
	wantRedirect(t, b.upload("/operator/allowlist", form, nil))
	v, ok := saved()
	if !ok || v.Rows != 3 || v.TotalAllocation != 7 {
		t.Fatalf("saved %+v, %v", v, ok)
	}
	if n, err := db.Allocation(t.Context(), 31, a2, time.Now()); err != nil || n != 4 {
		t.Fatalf("%s's allocation %d, %v", a2, n, err)
	}
	doc = b.operatorPage()
	want := "Saved tier 31's allowlist: 3 wallets, 7 nodes in all, in force from " + words.MinuteUTC(v.EffectiveAt) + "."
	if got := text(doc, "outcome"); got != want {
		t.Fatalf("outcome %q, want %q", got, want)
	}
	if got := text(doc, "tier-allowlist"); !strings.HasPrefix(got, "3 wallets, 7 nodes") || !strings.Contains(got, "since "+views.UTC(v.EffectiveAt)[:16]) {
		t.Fatalf("the tier's allowlist %q", got)
	}
	rows := s.audit(t)
	if rows[0].Action != "tier.allowlist" || rows[0].Target != "31" || !strings.Contains(rows[0].Outcome, "3 wallets") ||
		!strings.EqualFold(rows[0].Actor, doc.Find(`[data-testid=operator-me] .addr`).AttrOr("title", "")) {
		t.Fatalf("audit %+v", rows[0])
	}

	t.Run("an empty file clears the list only when confirmed", func(t *testing.T) {
		rec := b.upload("/operator/allowlist/preview", tier, []byte("address,allocation\n"))
		wantStatus(t, rec, http.StatusOK)
		doc := page(t, rec.Body)
		if got := strings.Join(strings.Fields(text(doc, "allowlist-summary")), " "); got !=
			"The file lists no wallet: saving it empties the tier's allowlist of 3 wallets, and none of them can buy while only listed wallets may." {
			t.Fatalf("preview %q", got)
		}
		confirm := doc.Find(`[data-testid=confirm-empty-allowlist] input[type=checkbox][name=confirm][value=true][required]`)
		if confirm.Length() != 1 {
			t.Fatalf("no confirm box in the preview: %s", htmlOf(doc.Find(`[data-testid=allowlist-preview]`)))
		}
		form := saveForm(t, doc) // its hidden fields: the box is not ticked
		rec = b.upload("/operator/allowlist", form, nil)
		wantStatus(t, rec, http.StatusConflict)
		doc = page(t, rec.Body)
		if doc.Find(`[data-testid=allowlist-unconfirmed]`).Length() != 1 || doc.Find(`[data-testid=confirm-empty-allowlist] input[required]`).Length() != 1 {
			t.Fatalf("the refused save does not ask again: %s", htmlOf(doc.Find(`[data-testid=allowlist-preview]`)))
		}
		if v, ok := saved(); !ok || v.Rows != 3 {
			t.Fatalf("after an unconfirmed save %+v", v)
		}
		form = saveForm(t, doc)
		form.Set("confirm", "true")
		wantRedirect(t, b.upload("/operator/allowlist", form, nil))
		if v, ok := saved(); !ok || v.Rows != 0 {
			t.Fatalf("after clearing %+v", v)
		}
		// Over an empty list an empty file takes no confirmation.
		rec = b.upload("/operator/allowlist/preview", tier, []byte("address,allocation\n"))
		doc = page(t, rec.Body)
		if got := text(doc, "allowlist-summary"); got != "The file lists no wallet: saving it clears the tier's allowlist." {
			t.Fatalf("preview over an empty list %q", got)
		}
		wantRedirect(t, b.upload("/operator/allowlist", saveForm(t, doc), nil))
	})
	t.Run("a file larger than the admin API takes is refused unread", func(t *testing.T) {
		line := a1 + ",1\n"
		rec := b.upload("/operator/allowlist/preview", tier, []byte(strings.Repeat(line, (handlers.MaxListBody+maxBody)/len(line)+1)))
		wantStatus(t, rec, http.StatusRequestEntityTooLarge)
		if got := text(page(t, rec.Body), "error"); !strings.Contains(got, "The list is too large") {
			t.Fatalf("413 %q", got)
		}
	})
}

// TestOperatorSaleForm: the tier form takes the sale's settings (supply, times in UTC, allowlist
// phase, the tier it opens after, the Enabled switch) with the admin API's check and rules, and
// the tiers table says per tier what sold, the phase and what opens next.
func TestOperatorSaleForm(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	storetest.Tier(t, db, 30, "Standard", "100000000000000000", true)
	mustExec(t, db, `UPDATE tiers SET supply = 2 WHERE id = 30`)
	s := newServer(t, db, handlers.Config{AdminKey: adminKey, SessionSecret: sessionSecret})
	b := signedInOperator(t, s)
	good := url.Values{"id": {"32"}, "label": {"Founders"}, "price": {"0.2"}, "maxPerWallet": {"3"}, "enabled": {"true"},
		"supply": {"5,000"}, "startsAt": {"2099-12-01 12:00"}, "endsAt": {"2099-12-31T18:30:15Z"}, "allowlistUntil": {"2099-12-02 12:00 UTC"}}

	doc := b.operatorPage()
	if got := text(doc, "utc-note"); !strings.Contains(got, "Times are in UTC") {
		t.Fatalf("the form does not say its times are UTC: %q", got)
	}
	for _, name := range []string{"supply", "startsAt", "endsAt", "allowlistUntil"} {
		if doc.Find(`#tier-form input[name=`+name+`]`).Length() != 1 {
			t.Errorf("no %s field", name)
		}
	}
	if doc.Find(`#tier-form select[name=opensAfterTier] option[value="30"]`).Length() != 1 || doc.Find(`#tier-form input[name=enabled]`).Length() != 1 {
		t.Fatalf("no opens-after choice or Enabled switch: %s", htmlOf(doc.Find(`#tier-form`)))
	}

	wantRedirect(t, b.form("/operator/tiers", good))
	tier := func(id int) store.Tier {
		t.Helper()
		tiers, _ := db.Tiers(t.Context())
		for _, x := range tiers {
			if x.ID == id {
				return x
			}
		}
		t.Fatalf("no tier %d", id)
		return store.Tier{}
	}
	f := tier(32)
	at := func(s string) time.Time { v, _ := time.Parse(time.RFC3339, s); return v }
	if f.Supply == nil || *f.Supply != 5000 || f.StartsAt == nil || !f.StartsAt.Equal(at("2099-12-01T12:00:00Z")) ||
		f.EndsAt == nil || !f.EndsAt.Equal(at("2099-12-31T18:30:15Z")) || f.AllowlistUntil == nil || !f.AllowlistUntil.Equal(at("2099-12-02T12:00:00Z")) ||
		f.OpensAfterTier != nil || !f.Enabled {
		t.Fatalf("stored %+v", f)
	}
	doc = b.operatorPage()
	if got := text(doc, "outcome"); got != "Saved tier 32, Founders: 0.2 ETH, 3 per wallet, 5000 nodes in all, from 2099-12-01 12:00 UTC, "+
		"until 2099-12-31 18:30:15 UTC, allowlist only until 2099-12-02 12:00 UTC, switched on." {
		t.Fatalf("outcome %q", got)
	}
	row := func(id int, testid string) string {
		return strings.Join(strings.Fields(doc.Find(fmt.Sprintf(`[data-testid=tier-%d] [data-testid=%s]`, id, testid)).Text()), " ")
	}
	if got := row(32, "tier-sold"); got != "0 / 5,000 5,000 left" {
		t.Fatalf("sold %q", got)
	}
	if got, next := row(32, "tier-phase"), row(32, "tier-next"); got != "scheduled" || next != "opens 2099-12-01 12:00 UTC; ends 2099-12-31 18:30:15 UTC" {
		t.Fatalf("phase %q, next %q", got, next)
	}
	if got, next := row(30, "tier-phase"), row(30, "tier-next"); got != "public sale" || next != "" {
		t.Fatalf("Standard: phase %q, next %q", got, next)
	}

	t.Run("Edit fills the sale's fields in UTC", func(t *testing.T) {
		form := page(t, b.do(http.MethodGet, "/operator?edit=32", nil).Body).Find(`#tier-form`)
		for name, want := range map[string]string{"supply": "5000", "startsAt": "2099-12-01 12:00", "endsAt": "2099-12-31 18:30:15",
			"allowlistUntil": "2099-12-02 12:00"} {
			if got := form.Find(`input[name=`+name+`]`).AttrOr("value", ""); got != want {
				t.Errorf("%s = %q, want %q", name, got, want)
			}
		}
		if form.Find(`select[name=opensAfterTier] option[value="32"]`).Length() != 0 {
			t.Error("a tier is offered to open after itself")
		}
	})
	t.Run("a price step opens when the tier before sells out", func(t *testing.T) {
		step := url.Values{"id": {"33"}, "label": {"Standard II"}, "price": {"0.12"}, "maxPerWallet": {"3"}, "enabled": {"true"}, "opensAfterTier": {"30"}}
		wantRedirect(t, b.form("/operator/tiers", step))
		if got := tier(33).OpensAfterTier; got == nil || *got != 30 {
			t.Fatalf("opens after %v", got)
		}
		doc = b.operatorPage()
		if got, next := row(33, "tier-phase"), row(33, "tier-next"); got != "scheduled" || next != "opens when Standard sells out" {
			t.Fatalf("phase %q, next %q", got, next)
		}
		if next := row(30, "tier-next"); next != "Standard II opens when it sells out" {
			t.Fatalf("Standard's next %q", next)
		}
		if sel := page(t, b.do(http.MethodGet, "/operator?edit=33", nil).Body).Find(`select[name=opensAfterTier] option[selected]`); sel.AttrOr("value", "") != "30" {
			t.Fatalf("edit: %s", htmlOf(sel))
		}
	})
	t.Run("a supply change by more than half is confirmed first", func(t *testing.T) {
		edited := url.Values{"editing": {"true"}}
		for k, v := range good {
			edited[k] = v
		}
		edited.Set("supply", "100")
		rec := b.form("/operator/tiers", edited)
		wantStatus(t, rec, http.StatusConflict)
		if got := text(page(t, rec.Body), "tier-confirm"); !strings.Contains(got, "The supply changes from 5,000 to 100 (0.02×).") {
			t.Fatalf("confirm step %q", got)
		}
		if *tier(32).Supply != 5000 {
			t.Fatal("stored before it was confirmed")
		}
	})

	for _, tc := range []struct {
		name, field, value, sentence string
		status                       int
		also                         url.Values
	}{
		{"a supply in words", "supply", "lots", "The supply must be a whole number of nodes, such as 5000, or empty for no limit.", 422, nil},
		{"a negative supply", "supply", "-5", "The supply must be a whole number of nodes, such as 5000, or empty for no limit.", 422, nil},
		{"a start in words", "startsAt", "tomorrow", "The start must be a date and time in UTC, such as 2026-12-01 12:00, or empty for none.", 422, nil},
		{"a start with an offset", "startsAt", "2099-12-01T12:00+02:00", "The start must be a date and time in UTC, such as 2026-12-01 12:00, or empty for none.", 422, nil},
		{"an end before the start", "endsAt", "2099-11-30 12:00", "The sale must end after it starts.", 422, url.Values{"allowlistUntil": {""}}},
		{"an allowlist phase past the end", "allowlistUntil", "2100-01-01 00:00", "The allowlist phase must end before the sale does.", 422, nil},
		{"opening after a tier without supply", "opensAfterTier", "33",
			"Tier 32 cannot open after tier 33: tier 33 has no supply, so it never sells out. Give it a supply first.", 400, nil},
	} {
		t.Run(fmt.Sprintf("%d for %s", tc.status, tc.name), func(t *testing.T) {
			v := url.Values{}
			for k, vs := range good {
				v[k] = vs
			}
			v.Set(tc.field, tc.value)
			for k, vs := range tc.also {
				v[k] = vs
			}
			rec := b.form("/operator/tiers", v)
			wantStatus(t, rec, tc.status)
			doc := page(t, rec.Body)
			if got := text(doc, "problem-"+tc.field); got != tc.sentence {
				t.Fatalf("sentence %q, want %q", got, tc.sentence)
			}
			if n := doc.Find(`[data-testid^=problem-]`).Length(); n != 1 {
				t.Fatalf("%d problems shown", n)
			}
			if got := doc.Find(`#tier-form input[name=`+tc.field+`], #tier-form select[name=`+tc.field+`] option[selected]`).AttrOr("value", ""); got != tc.value {
				t.Fatalf("what was typed is lost: %q", got)
			}
		})
	}
	t.Run("409 for a supply below what the tier sold", func(t *testing.T) {
		storetest.Node(t, db, "1", alice, time.Now())
		mustExec(t, db, `UPDATE nodes SET tier = 30`)
		storetest.Node(t, db, "2", alice, time.Now())
		mustExec(t, db, `UPDATE nodes SET tier = 30`)
		v := url.Values{"editing": {"true"}, "id": {"30"}, "label": {"Standard"}, "price": {"0.1"}, "maxPerWallet": {"5"}, "enabled": {"true"},
			"supply": {"1"}, "confirm": {"true"}}
		rec := b.form("/operator/tiers", v)
		wantStatus(t, rec, http.StatusConflict)
		if got := text(page(t, rec.Body), "problem-supply"); got != "Tier 30 has sold 2 nodes already: its supply cannot be less than 2." {
			t.Fatalf("sentence %q", got)
		}
		doc = b.operatorPage()
		if got, phase := row(30, "tier-sold"), row(30, "tier-phase"); got != "2 / 2 0 left" || phase != "sold out" {
			t.Fatalf("Standard: sold %q, phase %q", got, phase)
		}
		if next := row(30, "tier-next"); next != "Standard II opened when it sold out" {
			t.Fatalf("Standard's next %q", next)
		}
		if got, next := row(33, "tier-phase"), row(33, "tier-next"); got != "public sale" || next != "" {
			t.Fatalf("the step: phase %q, next %q", got, next)
		}
	})
}

// countingReader counts what is read of r.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// TestOperatorLive checks the operator page's live view of a sale against a ledger built for it:
// payments at known minutes of the last hour and before it, rejections of known reasons, payments
// waiting to be checked and a mint in flight with a fee bump, nodes and revenue; who may see it;
// and that the page polls it in place.
func TestOperatorLive(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	storetest.Tier(t, db, 1, "Standard", "100000000000000000", true)
	m0 := time.Now().UTC().Truncate(time.Minute)
	// at is ten seconds into the minute minutesAgo minutes before the current one: well inside the
	// last hour even if the request below starts a minute later.
	at := func(minutesAgo int) time.Time { return m0.Add(-time.Duration(minutesAgo)*time.Minute + 10*time.Second) }
	n := 0
	pay := func(when time.Time, status, wei string, reason string) {
		n++
		hash := storetest.TxHash(fmt.Sprintf("live-%d", n))
		var code, args, mint *string
		var tier *int
		if reason != "" {
			code, args = &reason, ptr("{}")
		}
		if status == "minted" {
			mint, tier = &hash, ptr(1)
		}
		mustExec(t, db, `INSERT INTO payments (tx_hash, payment_ref, from_address, value_wei, block_number, block_hash, block_time,
				status, tier, reason_code, reason_args, mint_tx)
			VALUES ($1, $1, $2, $3, $4, $1, $5, $6, $7, $8, $9, $10)`,
			hash, alice, wei, n, when, status, tier, code, args, mint)
	}
	const tenth, more = "100000000000000000", "150000000000000000"
	pay(at(5), "minted", tenth, "")
	pay(at(5), "minted", tenth, "")
	pay(at(5), "rejected", more, "wrong_amount")
	pay(at(30), "rejected", more, "wrong_amount")
	pay(at(2), "pending", tenth, "")
	pay(at(30), "pending", tenth, "")
	pay(m0.Add(5*time.Minute), "pending", tenth, "")         // its block stamped ahead of our clock: the minute under way
	pay(m0.Add(-3*time.Hour), "rejected", tenth, "sold_out") // before the last hour
	pay(m0.Add(-2*time.Hour), "minted", tenth, "")
	// A mint in flight, signed again at its nonce with a higher fee: one bump.
	storetest.MintingPayment(t, db, "live-minting", alice, storetest.SentTx("live-v1", 7), storetest.SentTx("live-v2", 7))
	storetest.Node(t, db, "1", alice, time.Now().Add(-10*time.Minute))
	storetest.Node(t, db, "2", alice, time.Now().Add(-20*time.Minute))
	storetest.Node(t, db, "3", alice, time.Now().Add(-48*time.Hour))

	p, cfg := passesOn(t, db)
	cfg.SessionSecret = sessionSecret
	s := p.server(t, cfg)
	b := signedInOperator(t, s, "viewer")

	t.Run("the figures", func(t *testing.T) {
		rec := b.do(http.MethodGet, "/operator/live", nil, "HX-Request", "true")
		wantStatus(t, rec, http.StatusOK)
		if strings.Contains(rec.Body.String(), "<html") {
			t.Fatalf("the live view answers htmx a whole page")
		}
		doc := page(t, rec.Body)
		live := doc.Find(`[data-testid=live]`)
		text := func(sel string) string { return strings.Join(strings.Fields(live.Find(sel).Text()), " ") }
		minute := func(m int) string { return at(m).Format("15:04") }
		if got, want := text(`[data-testid=live-summary]`), "7 payments in the last hour; the busiest minute, "+minute(5)+" UTC, had 3."; got != want {
			t.Errorf("summary %q, want %q", got, want)
		}
		// Each minute's bar says its count; the wide chart and the phone's draw the same minutes.
		for _, chart := range []string{"live-chart", "live-chart-phone"} {
			bars := map[string]string{}
			live.Find(`svg[data-testid=` + chart + `] g title`).Each(func(_ int, s *goquery.Selection) {
				m, count, _ := strings.Cut(s.Text(), " UTC: ")
				bars[m] = count
			})
			if len(bars) != store.LiveMinutes || bars[minute(5)] != "3 payments" || bars[minute(30)] != "2 payments" ||
				bars[minute(2)] != "1 payment" || bars[minute(4)] != "0 payments" {
				t.Errorf("%s: %d bars, %v", chart, len(bars), bars)
			}
			if svg := live.Find(`svg[data-testid=` + chart + `]`); svg.AttrOr("role", "") != "img" || svg.AttrOr("aria-describedby", "") != "live-summary" {
				t.Errorf("%s is not described for screen readers: %s", chart, htmlOf(svg))
			}
		}
		for sel, want := range map[string]string{
			`[data-testid=live-nodes-total]`:                              "3",
			`[data-testid=live-minted-hour]`:                              "2",
			`[data-testid=live-pending]`:                                  "3",
			`[data-testid=live-waiting]`:                                  "4 waiting",
			`[data-testid=live-minting]`:                                  "1",
			`[data-testid=live-bumps]`:                                    "1 fee bump on the mints in flight",
			`[data-testid=live-refunds] .value`:                           "3",
			`[data-testid=live-refunds] .muted`:                           "0.4 ETH in all",
			`[data-testid=live-revenue] .value`:                           "0.3 ETH",
			`[data-testid=reason-wrong_amount] [data-testid=reason-hour]`: "2",
			`[data-testid=reason-wrong_amount] [data-testid=reason-all]`:  "2",
			`[data-testid=reason-sold_out] td:first-child`:                "Sold out",
			`[data-testid=reason-sold_out] [data-testid=reason-hour]`:     "0",
			`[data-testid=reason-sold_out] [data-testid=reason-all]`:      "1",
		} {
			if got := text(sel); got != want {
				t.Errorf("%s: %q, want %q", sel, got, want)
			}
		}
		// Paid ten seconds into the minute 30 minutes before the one the test started in.
		if got := text(`[data-testid=live-oldest]`); !regexp.MustCompile(`^the oldest paid (29|30|31) min \d+ s ago$`).MatchString(got) {
			t.Errorf("oldest waiting: %q", got)
		}
		if got := live.Find(`[data-testid=live-rejections] tbody tr`).Length(); got != 2 {
			t.Errorf("%d reasons, want wrong_amount and sold_out", got)
		}
		if live.Find(`[data-testid=live-minter]`).Length() != 1 || live.Find(`[data-testid=live-distributor] .eth`).Length() != 1 {
			t.Errorf("no signer balances: %s", htmlOf(live))
		}
	})

	t.Run("the page polls it in place, and shows it current without JavaScript", func(t *testing.T) {
		live := b.operatorPage().Find(`[data-testid=live]`)
		if live.AttrOr("hx-get", "") != "/operator/live" || live.AttrOr("hx-trigger", "") != "every 5s" ||
			live.AttrOr("hx-swap", "") != "outerHTML" || live.AttrOr("id", "") != "live" {
			t.Fatalf("live section %s", htmlOf(live))
		}
		if got := live.Find(`[data-testid=live-pending]`).Text(); got != "3" {
			t.Errorf("the page's own live view: %q pending", got)
		}
		doc := page(t, b.do(http.MethodGet, "/operator/live", nil).Body)
		if doc.Find(`h1`).Length() != 1 || doc.Find(`[data-testid=live-pending]`).Text() != "3" {
			t.Errorf("the live view as a page: %q", doc.Find("main").Text())
		}
	})

	t.Run("a stranger gets the sign-in", func(t *testing.T) {
		stranger := newBrowser(t, s, "192.0.2.251")
		doc := page(t, stranger.do(http.MethodGet, "/operator/live", nil).Body)
		if doc.Find(`[data-testid=operator-login]`).Length() != 1 || doc.Find(`[data-testid=live]`).Length() != 0 {
			t.Fatalf("a stranger sees %q", doc.Find("main").Text())
		}
		rec := stranger.do(http.MethodGet, "/operator/live", nil, "HX-Request", "true")
		wantStatus(t, rec, http.StatusUnauthorized)
		if rec.Header().Get("HX-Redirect") != "/operator" || strings.Contains(rec.Body.String(), "data-testid=\"live\"") {
			t.Fatalf("htmx polling for a stranger: %v %s", rec.Header(), rec.Body)
		}
	})
}

func ptr[T any](v T) *T { return &v }
