package web

import (
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"nodeledger/handlers"
	"nodeledger/jobs"
	"nodeledger/store/storetest"
	"nodeledger/views"
	"nodeledger/views/words"
)

// TestBuyNoDeadEnds: /buy's pay-from-elsewhere box never gives the address and amount of a tier
// the page's wallet would be refused (it says why, in the pre-check's own sentence), nor of a
// tier not open yet (it says when it opens, in words and in UTC); without a wallet it says what
// it cannot check; and a wallet sees its place on an allowlist before the allowlist phase opens.
func TestBuyNoDeadEnds(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	dc, c := startDevChain(t)
	payTo := strings.ToLower(dc.Payments.Hex())
	j := jobs.New(db, c, nil, nil, jobs.Config{ChainID: dc.ChainID(), PaymentAddress: dc.Payments}, slog.New(slog.DiscardHandler))
	s := newChainServer(t, db, c, j, handlers.Config{PaymentAddress: payTo, AdminKey: adminKey})
	token := strings.ToLower(dc.Token.Hex())
	now := time.Now().UTC()
	// Whole minutes, 90 and 150 minutes ahead: "in 1 hour" and "in 2 hours" in words.
	opens, listedUntil := now.Add(90*time.Minute).Truncate(time.Minute), now.Add(150*time.Minute).Truncate(time.Minute)
	q := func(at time.Time) string { return `"` + at.Format(time.RFC3339) + `"` }
	for i, body := range []string{ // in order: tier 7 opens after tier 4
		`{"label":"Standard","priceWei":"100000000000000000","maxPerWallet":1,"enabled":true}`,
		`{"label":"Pro","priceWei":"1000000000000000000","maxPerWallet":2,"enabled":true,"holdingToken":"` + token + `","holdingWei":"1000000000000000000000"}`,
		`{"label":"Gone","priceWei":"300000000000000000","maxPerWallet":2,"enabled":true,"supply":0}`,
		`{"label":"Later","priceWei":"400000000000000000","maxPerWallet":2,"enabled":true,"supply":100,"startsAt":` + q(opens) + `}`,
		`{"label":"Friends","priceWei":"500000000000000000","maxPerWallet":2,"enabled":true,"allowlistUntil":` + q(listedUntil) + `}`,
		`{"label":"Launch","priceWei":"600000000000000000","maxPerWallet":4,"enabled":true,"startsAt":` + q(opens) + `,"allowlistUntil":` + q(listedUntil) + `}`,
		`{"label":"Step","priceWei":"700000000000000000","maxPerWallet":2,"enabled":true,"opensAfterTier":"4"}`,
		`{"label":"Off","priceWei":"800000000000000000","maxPerWallet":2,"enabled":false}`,
	} {
		wantStatus(t, s.adminDo(t, http.MethodPut, fmt.Sprint("/api/admin/tiers/", i+1), body, adminKey), http.StatusOK)
	}
	listed := strings.ToLower(dc.Buyers[1].Address.Hex())     // holds DHT, on tier 6's allowlist
	noTokens := strings.ToLower(dc.Accounts[0].Address.Hex()) // no DHT, on no list, at tier 1's limit
	rec := s.adminCSV(t, "/api/admin/tiers/6/allowlist", "text/csv", "address,allocation\n"+listed+",3\n")
	wantStatus(t, rec, http.StatusOK)
	storetest.Node(t, db, "1", noTokens, now)

	buy := func(t *testing.T, wallet string) *goquery.Document {
		t.Helper()
		rec := s.get(t, "/buy?wallet="+wallet)
		wantStatus(t, rec, http.StatusOK)
		return page(t, rec.Body)
	}
	option := func(doc *goquery.Document, tier string) *goquery.Selection {
		return doc.Find(`[data-testid=pay-option][data-tier="` + tier + `"]`)
	}
	// precheck is the Pay button's sentence for a payment of tier from wallet.
	precheck := func(t *testing.T, tier, wallet string) string {
		t.Helper()
		rec := s.get(t, "/api/tiers/"+tier+"/check/"+wallet)
		wantStatus(t, rec, http.StatusOK)
		a := decode[struct {
			OK     bool    `json:"ok"`
			Reason *string `json:"reason"`
		}](t, rec)
		if a.OK || a.Reason == nil {
			t.Fatalf("tier %s from %s: the pre-check accepts it", tier, wallet)
		}
		return *a.Reason
	}
	opensWords := func(at time.Time, in string) string {
		return "opens " + in + ", at " + views.UTC(at) + "."
	}
	squash := regexp.MustCompile(`\s+`)
	say := func(sel *goquery.Selection) string {
		return strings.TrimSpace(squash.ReplaceAllString(sel.Text(), " "))
	}

	t.Run("a wallet refused every open tier is offered no address, and told why in the pre-check's sentences", func(t *testing.T) {
		doc := buy(t, noTokens)
		if count(doc, "[data-testid=quote] [data-testid=payment-address]") != 0 || count(doc, "[data-testid=pay-link]") != 0 ||
			!strings.HasPrefix(text(doc, "nothing-payable"), "Nothing can be paid for right now from wallet "+views.Short(noTokens)+".") {
			t.Fatalf("box %q", say(doc.Find("[data-testid=quote]")))
		}
		for _, tier := range []string{"1", "2", "5"} {
			o := option(doc, tier)
			sentence := precheck(t, tier, noTokens)
			if o.AttrOr("data-offer", "") != "refused" || say(o.Find("[data-testid=pay-refused]")) != sentence+" A payment from it would be refunded." ||
				o.Find("[data-testid=exact-wei], [data-testid=pay-eth], svg").Length() != 0 {
				t.Errorf("tier %s: %q, want the pre-check's %q", tier, say(o), sentence)
			}
			// The card and the box say it alike.
			if card := doc.Find(`[data-testid=buy-tier][data-tier="` + tier + `"] [data-testid=blocked]`); say(card) != say(o.Find("[data-testid=pay-refused]")) {
				t.Errorf("tier %s: the card says %q", tier, say(card))
			}
		}
		if got := say(option(doc, "5").Find(".muted")); got != "The public sale "+opensWords(listedUntil, "in 2 hours") {
			t.Errorf("tier 5 for a wallet not on its list: %q", got)
		}
		for _, tier := range []string{"3", "8"} { // sold out, switched off
			if option(doc, tier).Length() != 0 {
				t.Errorf("tier %s is offered: %q", tier, say(option(doc, tier)))
			}
		}
	})

	t.Run("a tier not open yet says when it opens, instead of an address and amount", func(t *testing.T) {
		doc := buy(t, noTokens)
		for tier, want := range map[string]string{
			"4": "Not open yet: " + opensWords(opens, "in 1 hour"),
			"6": "Not open to this wallet yet: " + opensWords(listedUntil, "in 2 hours"),
			"7": "Not open yet: opens once Later sells out.",
		} {
			o := option(doc, tier)
			if got := say(o.Find("[data-testid=pay-not-open]")); o.AttrOr("data-offer", "") != "not-open" ||
				!strings.HasPrefix(got, want+" A payment before then is refunded") || o.Find("[data-testid=exact-wei], svg").Length() != 0 {
				t.Errorf("tier %s: %q, want %q", tier, got, want)
			}
			if n := count(doc, `[data-testid=buy-tier][data-tier="`+tier+`"] [data-wallet=pay]`); n != 0 {
				t.Errorf("tier %s has a Pay button", tier)
			}
		}
		if got := say(option(doc, "4").Find("time[data-countdown]")); got != "in 1 hour" {
			t.Errorf("the countdown %q", got)
		}
	})

	t.Run("an allowlisted wallet sees its place before the phase opens", func(t *testing.T) {
		doc := buy(t, listed)
		want := fmt.Sprintf("This wallet is on the allowlist: it may buy 3 nodes in the allowlist phase, which opens %s, in 1 hour, and lasts until %s.",
			views.UTC(opens), views.UTC(listedUntil))
		if got := say(doc.Find(`[data-testid=buy-tier][data-tier="6"] [data-testid=allocation]`)); got != want {
			t.Errorf("tier 6's card: %q, want %q", got, want)
		}
		o := option(doc, "6")
		if got := say(o.Find("[data-testid=pay-not-open]")); !strings.HasPrefix(got, "Not open yet: "+opensWords(opens, "in 1 hour")) ||
			say(o.Find("[data-testid=pay-allocation]")) != "This wallet is on its allowlist: it may buy 3 nodes once it opens." {
			t.Errorf("tier 6 in the box: %q", say(o))
		}
		// The wallet holds DHT and no node: tiers 1 and 2 are its to pay; 5 is not (not on its list).
		for tier, offer := range map[string]string{"1": "pay", "2": "pay", "5": "refused"} {
			if got := option(doc, tier).AttrOr("data-offer", ""); got != offer {
				t.Errorf("tier %s: %s, want %s: %q", tier, got, offer, say(option(doc, tier)))
			}
		}
		if text(doc, "payment-address") != payTo || option(doc, "1").Find("[data-testid=pay-unchecked]").Length() != 0 {
			t.Errorf("box %q", say(doc.Find("[data-testid=quote]")))
		}
		// Not on the list: told so before the phase, with when it can buy.
		doc = buy(t, noTokens)
		want = fmt.Sprintf("This wallet is not on the allowlist as it stands now: it can buy once the public sale opens, %s, in 2 hours.", views.UTC(listedUntil))
		if got := say(doc.Find(`[data-testid=buy-tier][data-tier="6"] [data-testid=allocation]`)); got != want {
			t.Errorf("tier 6's card for a wallet not listed: %q, want %q", got, want)
		}
	})

	t.Run("without a wallet the box stays and says what it cannot check", func(t *testing.T) {
		rec := s.get(t, "/buy")
		wantStatus(t, rec, http.StatusOK)
		doc := page(t, rec.Body)
		if text(doc, "payment-address") != payTo || count(doc, "[data-testid=pay-refused]") != 0 {
			t.Fatalf("box %q", say(doc.Find("[data-testid=quote]")))
		}
		for tier, want := range map[string]string{
			"1": "the paying wallet must not hold a Standard node already.",
			"2": "the paying wallet must have fewer than 2 Pro nodes and hold 1,000 DHT.",
			"5": "the paying wallet must be on its allowlist, with nodes left of its allocation (only listed wallets buy until " + words.MinuteUTC(listedUntil) + ").",
		} {
			o := option(doc, tier)
			got := say(o.Find("[data-testid=pay-unchecked]"))
			if o.AttrOr("data-offer", "") != "pay" || o.Find("[data-testid=pay-link]").Length() != 1 ||
				!strings.HasPrefix(got, "No wallet is connected, so this page cannot check that yours may buy it: ") || !strings.Contains(got, want) {
				t.Errorf("tier %s: %q, want %q", tier, got, want)
			}
		}
		if got := say(option(doc, "4").Find("[data-testid=pay-not-open]")); !strings.HasPrefix(got, "Not open yet: "+opensWords(opens, "in 1 hour")) {
			t.Errorf("tier 4: %q", got)
		}
	})

	t.Run("no tier open: the box says when they open", func(t *testing.T) {
		for _, id := range []string{"1", "2", "5"} {
			wantStatus(t, s.adminDo(t, http.MethodPost, "/api/admin/tiers/"+id+"/off-sale", "", adminKey), http.StatusOK)
		}
		rec := s.get(t, "/buy")
		wantStatus(t, rec, http.StatusOK)
		doc := page(t, rec.Body)
		if count(doc, "[data-testid=payment-address]") != 0 || !strings.Contains(text(doc, "nothing-payable"), "Nothing can be paid for right now.") ||
			option(doc, "4").AttrOr("data-offer", "") != "not-open" || count(doc, "[data-wallet=pay]") != 0 {
			t.Fatalf("box %q", say(doc.Find("[data-testid=quote]")))
		}
	})
}
