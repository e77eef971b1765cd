package web

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"nodeledger/handlers"
	"nodeledger/store/storetest"
)

// TestPageExplorerLinks renders every page that shows a hash or an address with EXPLORER_URL
// set and checks each links to the explorer, and with it unset that none does.
func TestPageExplorerLinks(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	row := storetest.Node(t, db, "5", alice, t0)
	now := time.Now()
	next := now.Add(3*time.Hour + 30*time.Minute)
	mustExec(t, db, `UPDATE nodes SET next_credit_at = $2 WHERE id = $1`, row, next)
	round := storetest.Distribution(t, db, "1234567123456700000000000", "confirmed", now, &now)
	roundTx := storetest.TxHash("round")
	mustExec(t, db, `UPDATE distributions SET tx_hash = $2 WHERE id = $1`, round, roundTx)
	storetest.Credit(t, db, round, row, "1000000000000000", now)
	storetest.Withdrawal(t, db, row, "3", bob, now)
	var withdrawTx string
	if err := db.DB().Get(&withdrawTx, `SELECT tx_hash FROM withdrawals WHERE node_id = $1`, row); err != nil {
		t.Fatal(err)
	}
	const explorer = "https://explorer.example"
	factory := "0x000000000000000000000000000000000000fac7" // unreachableChain's
	withLinks := newServer(t, db, handlers.Config{Explorer: explorer + "/", DistEnabled: true})

	get := func(t *testing.T, s *testServer, path string) *goquery.Document {
		t.Helper()
		rec := s.get(t, path)
		wantStatus(t, rec, http.StatusOK)
		return page(t, rec.Body)
	}
	// link finds the explorer's link to href and checks it opens apart and shows the value short.
	link := func(t *testing.T, doc *goquery.Document, href string) *goquery.Selection {
		t.Helper()
		a := doc.Find(`a[data-explorer-link][href="` + href + `"]`)
		if a.Length() == 0 {
			t.Fatalf("no link to %s in %s", href, htmlOf(doc.Find("main")))
		}
		if a.AttrOr("target", "") != "_blank" || !strings.Contains(a.AttrOr("rel", ""), "noopener") {
			t.Fatalf("the explorer link %s does not open apart", htmlOf(a))
		}
		return a
	}

	t.Run("node", func(t *testing.T) {
		doc := get(t, withLinks, "/node/5")
		mint := storetest.TxHash("5")
		if a := link(t, doc, explorer+"/tx/"+mint); a.Text() != mint[:6]+"…"+mint[62:] || a.AttrOr("title", "") != mint {
			t.Fatalf("mint link %s", htmlOf(a))
		}
		link(t, doc, explorer+"/tx/"+withdrawTx)
		link(t, doc, explorer+"/address/"+bob)
		to := doc.Find(`[data-testid="withdrawals"] a[href="/wallet/` + bob + `"]`)
		if to.Length() != 1 || to.AttrOr("title", "") != bob {
			t.Fatalf("the withdrawal's recipient does not lead to its wallet: %s", htmlOf(doc.Find(`[data-testid="withdrawals"]`)))
		}
		if got := text(doc, "next-credit"); got != "in 3 hours" {
			t.Fatalf("next credit %q", got)
		}
	})
	t.Run("distributions", func(t *testing.T) {
		doc := get(t, withLinks, "/distributions")
		link(t, doc, explorer+"/tx/"+roundTx)
		row := doc.Find("tr#round-" + strconv.FormatInt(round, 10))
		amount := row.Find(".eth")
		if amount.Text() != "1,234,567.123457" || amount.AttrOr("title", "") != "1234567.1234567 ETH" {
			t.Fatalf("round total %s", htmlOf(amount))
		}
	})
	t.Run("overview and health: the contract", func(t *testing.T) {
		for _, path := range []string{"/", "/health"} {
			link(t, get(t, withLinks, path), explorer+"/address/"+factory)
		}
	})
	t.Run("wallet", func(t *testing.T) {
		link(t, get(t, withLinks, "/wallet/"+alice), explorer+"/address/"+alice)
	})
	t.Run("no explorer, no links", func(t *testing.T) {
		without := newServer(t, db, handlers.Config{})
		for _, path := range []string{"/", "/health", "/node/5", "/distributions", "/wallet/" + alice} {
			doc := get(t, without, path)
			if n := doc.Find("[data-explorer-link], [href*='explorer']").Length(); n != 0 {
				t.Errorf("%s: %d explorer links", path, n)
			}
		}
		// Hashes still show short, whole in their title.
		doc := get(t, without, "/node/5")
		if n := doc.Find(`.hash[title="` + withdrawTx + `"]`).Length(); n != 1 {
			t.Errorf("the withdrawal's transaction: %s", htmlOf(doc.Find(`[data-testid="withdrawals"]`)))
		}
	})
}
