package web

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"nodeledger/chain"
	"nodeledger/chain/devchain"
	"nodeledger/handlers"
	"nodeledger/jobs"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// TestTrackerNotFound follows hashes the chain does not know on the tracker: "Sent…" at first,
// "not found" once views.NotFoundAfter has passed since the page first asked (?since=, which the
// page carries in its polls), and a transaction that shows up after that still proceeds.
func TestTrackerNotFound(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	storetest.Tier(t, db, 1, "Standard", "100000000000000000", true)
	dc, err := devchain.Start(t.Context(), devchain.Options{ManualMining: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dc.Close() })
	c := chain.New(dc.RPC(), chain.Config{Factory: dc.Factory, PriceFeed: dc.PriceFeed})
	j := jobs.New(db, c, chain.LocalSigner(dc.Minter.Key), chain.LocalSigner(dc.Distributor.Key), jobs.Config{ChainID: dc.ChainID(),
		PaymentAddress: dc.Payments, Confirmations: 1}, slog.New(slog.DiscardHandler))
	// The handlers' caches run on a clock the test moves ahead of the wall clock.
	var ahead atomic.Int64
	clock := func() time.Time { return time.Now().Add(time.Duration(ahead.Load())) }
	s := newChainServer(t, db, c, j, handlers.Config{ChainID: 1337, PaymentAddress: strings.ToLower(dc.Payments.Hex()), Now: clock})
	now := time.Now()
	long := strconv.FormatInt(now.Add(-3*time.Minute).Unix(), 10) // longer ago than NotFoundAfter
	short := strconv.FormatInt(now.Add(-time.Minute).Unix(), 10)

	// tracker reads the page at target and the partial it polls, which must agree.
	tracker := func(t *testing.T, target string) (status, message, poll, every string) {
		t.Helper()
		rec := s.get(t, target)
		wantStatus(t, rec, http.StatusOK)
		doc := page(t, rec.Body)
		sel := doc.Find(`[data-testid=payment-status]`)
		status, poll, every = sel.AttrOr("data-status", ""), sel.AttrOr("hx-get", ""), sel.AttrOr("hx-trigger", "")
		if poll != "" {
			partial := page(t, s.get(t, poll).Body).Find(`[data-testid=payment-status]`)
			if again := partial.AttrOr("data-status", ""); again != status {
				t.Fatalf("page %q, partial %q", status, again)
			}
			if again := partial.AttrOr("hx-get", ""); again != poll {
				t.Fatalf("the partial polls %q, the page %q: the start must carry over", again, poll)
			}
		}
		return status, text(doc, "payment-message"), poll, every
	}
	unknown := storetest.TxHash("a mistyped hash")

	t.Run("a hash nobody knows is not seen yet at first, never sent, and the page carries when it started", func(t *testing.T) {
		for _, target := range []string{"/payment/" + unknown, "/payment/" + unknown + "?since=" + short,
			"/payment/" + unknown + "?since=" + strconv.FormatInt(now.Add(time.Hour).Unix(), 10), // the future: from now
			"/payment/" + unknown + "?since=yesterday", "/payment/" + unknown + "?since=-5"} {
			st, msg, poll, every := tracker(t, target)
			if st != "not-seen" || !strings.HasPrefix(msg, "Not seen yet. No transaction with this hash has been seen on Dev chain") ||
				!strings.Contains(msg, "appears here within seconds") || !strings.Contains(msg, "check the hash") || every != "every 2s" {
				t.Fatalf("%s: %q %q %q", target, st, msg, every)
			}
			since, err := strconv.ParseInt(strings.TrimPrefix(poll, "/partials/payment/"+unknown+"?since="), 10, 64)
			if err != nil || since > time.Now().Unix() || since < now.Add(-2*time.Minute).Unix() {
				t.Fatalf("%s polls %q", target, poll)
			}
		}
	})
	t.Run("a hash nobody knows offers a box to paste another; the Pay button's own hash reads as sent, without", func(t *testing.T) {
		doc := page(t, s.get(t, "/payment/"+unknown).Body)
		if form := doc.Find(`[data-testid=track-another] form[action="/payment"] input[name=tx]`); form.Length() != 1 {
			t.Fatal("no box to paste another hash")
		}
		if first := strings.TrimSpace(doc.Find(`.steps li`).First().Text()); first != "Not seen yet" {
			t.Fatalf("the first step reads %q", first)
		}
		// The box is outside what the page polls: a poll must not wipe what is being typed.
		if doc.Find(`[data-testid=payment-status] [data-testid=track-form]`).Length() != 0 {
			t.Fatal("the paste box is inside the polled status")
		}
		st, msg, poll, every := tracker(t, "/payment/"+unknown+"?sent=1")
		if st != "sent" || !strings.HasPrefix(msg, "Sent from your wallet.") || every != "every 2s" || !strings.HasSuffix(poll, "&sent=1") {
			t.Fatalf("sent: %q %q %q %q", st, msg, poll, every)
		}
		doc = page(t, s.get(t, "/payment/"+unknown+"?sent=1").Body)
		if first := strings.TrimSpace(doc.Find(`.steps li`).First().Text()); first != "Sent" {
			t.Fatalf("sent: the first step reads %q", first)
		}
		if doc.Find(`[data-testid=track-another]`).Length() != 0 || doc.Find(`[data-testid=check-hint]`).Length() != 0 ||
			strings.Contains(doc.Text(), "If you pasted") {
			t.Fatal("right after Pay the page doubts the hash")
		}
		if st, _, _, _ := tracker(t, "/payment/"+unknown+"?sent=1&since="+long); st != "not-found" {
			t.Fatalf("sent, three minutes unknown: %q", st)
		}
		if page(t, s.get(t, "/payment/"+unknown+"?since="+long).Body).Find(`[data-testid=track-another] [data-testid=track-form]`).Length() != 1 {
			t.Fatal("not found: no box to paste another hash")
		}
	})
	t.Run("what is not a hash is the 400 page, with what a hash looks like and the box holding what was typed", func(t *testing.T) {
		for target, typed := range map[string]string{"/payment/0x12": "0x12", "/payment?tx=0xabc+def": "0xabc def", "/payment?tx=": ""} {
			rec := s.get(t, target)
			wantStatus(t, rec, http.StatusBadRequest)
			doc := page(t, rec.Body)
			if !strings.Contains(text(doc, "error"), "not a transaction hash") ||
				!strings.Contains(text(doc, "hash-shape"), "0x followed by 64 characters") {
				t.Fatalf("%s: %q", target, text(doc, "error"))
			}
			if got, ok := doc.Find(`[data-testid=error] [data-testid=track-form] input[name=tx]`).Attr("value"); !ok || got != typed {
				t.Fatalf("%s: the box holds %q", target, got)
			}
		}
		if rec := s.get(t, "/partials/payment/0x12"); rec.Code != http.StatusBadRequest {
			t.Fatalf("partial: %d", rec.Code)
		}
	})
	t.Run("after two minutes it says not found on the network, with what to check, and keeps looking", func(t *testing.T) {
		st, msg, poll, every := tracker(t, "/payment/"+unknown+"?since="+long)
		if st != "not-found" || every != "every 10s" || poll != "/partials/payment/"+unknown+"?since="+long {
			t.Fatalf("%q %q %q", st, poll, every)
		}
		for _, want := range []string{"Not found.", "No transaction with this hash is on Dev chain", "looked for 3 minutes",
			"0x and 64 characters", "on Dev chain when it sent", "new hash", "keeps looking"} {
			if !strings.Contains(msg, want) {
				t.Fatalf("message %q lacks %q", msg, want)
			}
		}
		if body := s.get(t, "/payment/"+unknown+"?since="+long).Body.String(); !strings.Contains(body,
			`<meta http-equiv="refresh" content="5; url=/payment/`+unknown+"?since="+long+`">`) {
			t.Fatalf("without JavaScript the page does not refresh from its start: %s", body)
		}
		// The API does not change: a payment not seen yet is a 404 with the same sentence.
		rec := s.get(t, "/api/payments/"+unknown)
		wantStatus(t, rec, http.StatusNotFound)
		if got := errorMessage(t, rec); got != "No payment with this transaction has been seen yet." {
			t.Fatalf("api: %q", got)
		}
	})
	t.Run("a transaction waiting in the pool is never not found, and proceeds once mined", func(t *testing.T) {
		eth := ethclient.NewClient(dc.RPC())
		buyer := dc.Buyers[0]
		nonce, err := eth.PendingNonceAt(t.Context(), buyer.Address)
		if err != nil {
			t.Fatal(err)
		}
		tip := big.NewInt(1_000_000_000)
		tx, err := types.SignNewTx(buyer.Key, types.LatestSignerForChainID(dc.ChainID()), &types.DynamicFeeTx{ChainID: dc.ChainID(),
			Nonce: nonce, GasTipCap: tip, GasFeeCap: big.NewInt(100_000_000_000), Gas: 21000, To: &dc.Payments,
			Value: big.NewInt(100_000_000_000_000_000)})
		if err != nil {
			t.Fatal(err)
		}
		if err := eth.SendTransaction(t.Context(), tx); err != nil {
			t.Fatal(err)
		}
		hash := strings.ToLower(tx.Hash().Hex())
		// The chain tells a pasted hash's tracker; the buyer's own page just sent it, and says so
		// without asking the chain.
		for target, want := range map[string]string{"/payment/" + hash + "?since=" + long: "Sent. Waiting for the transaction to be included in a block.",
			"/payment/" + hash + "?sent=1": "Sent from your wallet. Waiting for a block: this takes a few seconds."} {
			if st, msg, _, _ := tracker(t, target); st != "sent" || msg != want {
				t.Fatalf("pending %s: %q %q", target, st, msg)
			}
			if doc := page(t, s.get(t, target).Body); doc.Find(`[data-testid=check-hint]`).Length() != 0 ||
				doc.Find(`[data-testid=track-another]`).Length() != 0 {
				t.Fatalf("pending %s: a transaction in the pool is no typo, yet the page asks to check it", target)
			}
		}
		dc.Commit()
		// No pass has seen it at the head: the chain is asked again once what it said of the
		// transaction in the pool has expired (15 s).
		ahead.Add(int64(16 * time.Second))
		if st, _, _, _ := tracker(t, "/payment/"+hash+"?since="+long); st != "confirming" {
			t.Fatalf("mined: %q", st)
		}
	})
	t.Run("a mined transfer elsewhere is known to the chain: not found is only for unknown hashes", func(t *testing.T) {
		done := make(chan *types.Receipt, 1)
		go func() {
			elsewhere := dc.Buyers[1].Address
			r, err := c.NewSender(chain.LocalSigner(dc.Buyers[0].Key), dc.ChainID()).Transact(t.Context(), &elsewhere, nil, big.NewInt(1))
			if err != nil {
				t.Error(err)
			}
			done <- r
		}()
		var r *types.Receipt
		for r == nil {
			dc.Commit()
			select {
			case r = <-done:
			case <-time.After(100 * time.Millisecond):
			}
		}
		if r == nil {
			t.FailNow()
		}
		hash := strings.ToLower(r.TxHash.Hex())
		if st, msg, _, _ := tracker(t, "/payment/"+hash+"?since="+long); st != "sent" || !strings.HasPrefix(msg, "In a block. No payment from it has been seen yet") {
			t.Fatalf("elsewhere: %q %q", st, msg)
		}
		// A pasted hash that stays no payment gets the hint and the box; the Pay button's own does not.
		if doc := page(t, s.get(t, "/payment/"+hash).Body); !strings.Contains(text(doc, "check-hint"), "If you pasted this hash") ||
			doc.Find(`[data-testid=track-another] [data-testid=track-form]`).Length() != 1 {
			t.Fatal("a pasted transfer elsewhere: no hint or no box to paste another")
		}
		if doc := page(t, s.get(t, "/payment/"+hash+"?sent=1").Body); doc.Find(`[data-testid=check-hint]`).Length() != 0 {
			t.Fatal("right after Pay the page asks the buyer to check the hash")
		}
	})
}

// TestRefundPromise pays a wrong amount on the dev chain: the tracker and the payments list of
// the wallet's page show the one refund promise, with the operator's policy and support link;
// a wallet without a rejected payment is promised nothing.
func TestRefundPromise(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	storetest.Tier(t, db, 1, "Standard", "100000000000000000", true)
	dc, c := startDevChain(t)
	j := jobs.New(db, c, chain.LocalSigner(dc.Minter.Key), chain.LocalSigner(dc.Distributor.Key), jobs.Config{ChainID: dc.ChainID(),
		PaymentAddress: dc.Payments, Confirmations: 0}, slog.New(slog.DiscardHandler))
	s := newChainServer(t, db, c, j, handlers.Config{ChainID: 1337, PaymentAddress: strings.ToLower(dc.Payments.Hex()),
		RefundPolicy: "within 2 working days", SupportURL: "mailto:help@example.com"})
	buyer, good := dc.Buyers[2], dc.Buyers[3]
	wrong := strings.ToLower(transact(t, dc, c, buyer.Key, &dc.Payments, nil, big.NewInt(150_000_000_000_000_000)).TxHash.Hex())
	right := strings.ToLower(transact(t, dc, c, good.Key, &dc.Payments, nil, big.NewInt(100_000_000_000_000_000)).TxHash.Hex())
	dc.Commit()
	if sum, err := j.Payments(t.Context()); err != nil || sum.Rejected != 1 {
		t.Fatalf("pass %+v %v", sum, err)
	}
	promise := func(t *testing.T, target string) string {
		t.Helper()
		rec := s.get(t, target)
		wantStatus(t, rec, http.StatusOK)
		doc := page(t, rec.Body)
		if n := doc.Find(`[data-testid=refund-promise]`).Length(); n > 1 {
			t.Fatalf("%s: %d promises", target, n)
		}
		if p := doc.Find(`[data-testid=refund-promise]`); p.Length() == 1 && p.Find(`a[data-testid=support-link]`).AttrOr("href", "") != "mailto:help@example.com" {
			t.Fatalf("%s: the promise links to %q", target, p.Find("a").AttrOr("href", ""))
		}
		return strings.Join(strings.Fields(text(doc, "refund-promise")), " ")
	}
	want := "refunded in full, to the address it came from, by the operator within 2 working days."
	t.Run("the rejected payment's tracker", func(t *testing.T) {
		if got := promise(t, "/payment/"+wrong); !strings.Contains(got, want) {
			t.Fatalf("promise %q", got)
		}
		doc := page(t, s.get(t, "/payment/"+wrong).Body)
		if got := text(doc, "owed-back"); !strings.HasPrefix(strings.Join(strings.Fields(got), " "), "Owed back: 0.15 ETH to") {
			t.Fatalf("owed back %q", got)
		}
	})
	t.Run("the wallet's payments list", func(t *testing.T) {
		if got := promise(t, "/wallet/"+strings.ToLower(buyer.Address.Hex())); !strings.Contains(got, want) {
			t.Fatalf("promise %q", got)
		}
	})
	t.Run("nothing owed, nothing promised", func(t *testing.T) {
		if got := promise(t, "/wallet/"+strings.ToLower(good.Address.Hex())); got != "" {
			t.Fatalf("a wallet owed nothing is promised %q", got)
		}
		if got := promise(t, "/payment/"+right); got != "" {
			t.Fatalf("a good payment is promised %q", got)
		}
	})
}

// TestWithdrawalsPaidOut: a withdrawal that went through reads "paid out" (the API keeps sent),
// and the page the withdraw form sends back with ?paid= confirms what it paid, on the node page
// and on /me.
func TestWithdrawalsPaidOut(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	key, _ := crypto.GenerateKey()
	owner := addrOf(key)
	row := storetest.Node(t, db, "5", owner, t0)
	sent := storetest.Withdrawal(t, db, row, "3000000000000000", bob, t0)
	failed := storetest.Withdrawal(t, db, row, "7", bob, t0.Add(time.Minute))
	mustExec(t, db, `UPDATE withdrawals SET status = 'failed', log_index = NULL WHERE id = $1`, failed)
	var hash string
	if err := db.DB().Get(&hash, `SELECT tx_hash FROM withdrawals WHERE id = $1`, sent); err != nil {
		t.Fatal(err)
	}
	s := authServer(t, db, nil, nil, handlers.Config{})

	t.Run("node page: the status words, and the API's sent", func(t *testing.T) {
		doc := page(t, s.get(t, "/node/5").Body)
		got := doc.Find(`[data-testid=withdrawals] tbody tr [data-label=Status]`).Map(func(_ int, s *goquery.Selection) string { return s.Text() })
		if strings.Join(got, "|") != "failed: nothing moved|paid out" {
			t.Fatalf("statuses %q", got)
		}
		if doc.Find(`[data-testid=paid-out]`).Length() != 0 {
			t.Fatal("a confirmation nobody asked for")
		}
		body := s.get(t, "/api/node/5").Body.String()
		if !strings.Contains(body, `"sent"`) || strings.Contains(body, "paid out") {
			t.Fatalf("api %s", body)
		}
	})
	t.Run("node page back from the withdraw form: the confirmation", func(t *testing.T) {
		doc := page(t, s.get(t, "/node/5?paid="+hash).Body)
		got := strings.Join(strings.Fields(text(doc, "paid-out")), " ")
		if !strings.HasPrefix(got, "Paid out") || !strings.Contains(got, "0.003 ETH from node 5 to 0x0000…0b0b") || !strings.Contains(got, "it is in the receiving wallet") {
			t.Fatalf("confirmation %q", got)
		}
		for _, other := range []string{storetest.TxHash("not a withdrawal"), failedHash(t, db, failed)} {
			if page(t, s.get(t, "/node/5?paid="+other).Body).Find(`[data-testid=paid-out]`).Length() != 0 {
				t.Fatalf("%s confirmed", other)
			}
		}
		wantStatus(t, s.get(t, "/node/5?paid=0x12"), http.StatusBadRequest)
	})
	t.Run("/me: each node has its withdraw form, and the same confirmation", func(t *testing.T) {
		b := newBrowser(t, s, "192.0.2.201")
		b.signIn(key)
		doc := page(t, b.do(http.MethodGet, "/me?paid="+hash, nil).Body)
		form := doc.Find(`[data-testid=me-node][data-node="5"] form[data-testid=withdraw-form]`)
		if form.AttrOr("data-owner", "") != owner || form.AttrOr("data-node", "") != "5" || form.Find(`[data-wallet=withdraw]`).Length() != 1 ||
			form.AttrOr("data-withdrawn", "") != "3" {
			t.Fatalf("form %s", htmlOf(form))
		}
		if got := strings.Join(strings.Fields(text(doc, "paid-out")), " "); !strings.Contains(got, "0.003 ETH from node 5") {
			t.Fatalf("confirmation %q", got)
		}
	})
}

// bodyOf reads an answer's body.
func bodyOf(t *testing.T, res *http.Response) *bytes.Buffer {
	t.Helper()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.NewBuffer(b)
}

// bodyOfWrapped reads a partial made of table rows inside a table, where HTML parses them.
func bodyOfWrapped(t *testing.T, res *http.Response) *bytes.Buffer {
	t.Helper()
	return bytes.NewBufferString("<table><tbody>" + bodyOf(t, res).String() + "</tbody></table>")
}

func failedHash(t *testing.T, db *store.Store, id int64) string {
	t.Helper()
	var hash string
	if err := db.DB().Get(&hash, `SELECT tx_hash FROM withdrawals WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	return hash
}

// TestListsPaged: a node's long credit and withdrawal lists, and /me's nodes, show a first page
// and a row that brings the next (htmx partials, or a page without JavaScript), each row once,
// in order, to the end.
func TestListsPaged(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	key, _ := crypto.GenerateKey()
	owner := addrOf(key)
	row := storetest.Node(t, db, "5", owner, t0)
	var credits, withdrawals []string // newest first
	for i := range 23 {
		d := storetest.Distribution(t, db, "1000", "confirmed", t0.Add(time.Duration(i)*time.Hour), &t0)
		at := t0.Add(time.Duration(i) * time.Hour)
		credits = append([]string{"credit-" + strconv.FormatInt(storetest.Credit(t, db, d, row, strconv.Itoa(i+1), at), 10)}, credits...)
		if i < 12 {
			withdrawals = append([]string{"withdrawal-" + strconv.FormatInt(storetest.Withdrawal(t, db, row, "1", bob, at), 10)}, withdrawals...)
		}
	}
	pending := storetest.Distribution(t, db, "1000", "pending", t0, nil) // not confirmed: never listed
	storetest.Credit(t, db, pending, row, "99", t0.Add(100*time.Hour))
	for i := range 11 {
		storetest.Node(t, db, strconv.Itoa(100+i), owner, t0.Add(time.Duration(i+1)*time.Minute))
	}
	s := authServer(t, db, nil, nil, handlers.Config{})

	// follow reads the list from the page and then every "more" row's partial, as htmx does.
	follow := func(t *testing.T, get func(string) *http.Response, target, table, more string) (ids []string, pages int) {
		t.Helper()
		doc := page(t, bodyOf(t, get(target)))
		sel := doc.Find(`[data-testid=` + table + `] tbody tr`)
		for {
			pages++
			sel.Each(func(_ int, r *goquery.Selection) {
				if id := r.AttrOr("id", r.AttrOr("data-node", "")); id != "" {
					ids = append(ids, id)
				}
			})
			next := sel.Filter(`[data-testid=` + more + `]`)
			if next.Length() == 0 {
				return ids, pages
			}
			a := next.Find("a.button")
			if a.AttrOr("hx-target", "") != "closest tr" || a.AttrOr("hx-swap", "") != "outerHTML" || a.AttrOr("href", "") == "" {
				t.Fatalf("more row %s", htmlOf(next))
			}
			res := get(a.AttrOr("hx-get", ""))
			if res.StatusCode != http.StatusOK {
				t.Fatalf("%s: %d", a.AttrOr("hx-get", ""), res.StatusCode)
			}
			// The partial is rows of the table: parse it as such.
			frag := page(t, bodyOfWrapped(t, res))
			sel = frag.Find("tbody tr")
			if pages > 10 {
				t.Fatal("no end")
			}
		}
	}
	plain := func(target string) *http.Response { return s.get(t, target).Result() }

	t.Run("credits", func(t *testing.T) {
		doc := page(t, s.get(t, "/node/5").Body)
		if n := doc.Find(`[data-testid=credits] tbody tr[id]`).Length(); n != 10 {
			t.Fatalf("first page %d rows", n)
		}
		ids, pages := follow(t, plain, "/node/5", "credits", "credits-more")
		if pages != 3 || strings.Join(ids, " ") != strings.Join(credits, " ") {
			t.Fatalf("%d pages: %v, want %v", pages, ids, credits)
		}
	})
	t.Run("withdrawals", func(t *testing.T) {
		ids, pages := follow(t, plain, "/node/5", "withdrawals", "withdrawals-more")
		if pages != 2 || strings.Join(ids, " ") != strings.Join(withdrawals, " ") {
			t.Fatalf("%d pages: %v, want %v", pages, ids, withdrawals)
		}
		// The API keeps its own paging: the latest limit, 50 by default.
		body := s.get(t, "/api/node/5").Body.String()
		if strings.Count(body, `"distributionId"`) != 23 || strings.Count(body, `"cumulativeSignedWei"`) != 12 {
			t.Fatalf("api %s", body)
		}
	})
	t.Run("without JavaScript the more link opens the next page", func(t *testing.T) {
		doc := page(t, s.get(t, "/node/5").Body)
		href := doc.Find(`[data-testid=credits-more] a`).AttrOr("href", "")
		want := fmt.Sprintf("/node/5?credits_before=%s#credits", strings.TrimPrefix(credits[9], "credit-"))
		if href != want {
			t.Fatalf("href %q, want %q", href, want)
		}
		doc = page(t, s.get(t, strings.TrimSuffix(href, "#credits")).Body)
		first := doc.Find(`[data-testid=credits] tbody tr[id]`).First().AttrOr("id", "")
		if first != credits[10] || doc.Find(`[data-testid=credits-older] a`).AttrOr("href", "") != "/node/5#credits" {
			t.Fatalf("second page starts at %q", first)
		}
		wantStatus(t, s.get(t, "/node/5?credits_before=abc"), http.StatusBadRequest)
		wantStatus(t, s.get(t, "/partials/node/5/credits?before=-1"), http.StatusBadRequest)
		wantStatus(t, s.get(t, "/partials/node/x/withdrawals"), http.StatusBadRequest)
		if n := page(t, bodyOfWrapped(t, s.get(t, "/partials/node/999/credits?before=1").Result())).Find("tbody tr").Length(); n != 0 {
			t.Fatalf("an unknown node has %d rows", n)
		}
	})
	t.Run("/me's nodes", func(t *testing.T) {
		b := newBrowser(t, s, "192.0.2.202")
		b.signIn(key)
		get := func(target string) *http.Response { return b.do(http.MethodGet, target, nil).Result() }
		ids, pages := follow(t, get, "/me", "wallet-nodes", "nodes-more")
		if pages != 2 || len(ids) != 12 || ids[0] != "5" || ids[11] != "110" {
			t.Fatalf("%d pages: %v", pages, ids)
		}
		wantStatus(t, s.get(t, "/partials/me/nodes"), http.StatusUnauthorized)
	})
}
