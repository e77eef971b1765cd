package web

import (
	"context"
	"fmt"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"

	"nodeledger/chain"
	"nodeledger/chain/devchain"
	"nodeledger/handlers"
	"nodeledger/jobs"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// confirmationsOf says a payment's confirmations for a failure message.
func confirmationsOf(p paymentBody) string {
	if p.Confirmations == nil {
		return "confirmations absent"
	}
	return fmt.Sprintf("confirmations %d", *p.Confirmations)
}

// paymentBody is a payment as the API shows it.
type paymentBody struct {
	TxHash              string  `json:"txHash"`
	CallIndex           int     `json:"callIndex"`
	From                string  `json:"from"`
	ValueWei            string  `json:"valueWei"`
	BlockNumber         int64   `json:"blockNumber"`
	Status              string  `json:"status"`
	Reason              *string `json:"reason"`
	ReasonCode          *string `json:"reasonCode"`
	Confirmations       *uint64 `json:"confirmations"`
	ConfirmationsNeeded uint64  `json:"confirmationsNeeded"`
	Tier                *string `json:"tier"`
	NodeID              *int64  `json:"nodeId"`
	ChainNodeID         *string `json:"chainNodeId"`
	MintTx              *string `json:"mintTx"`
	RefundTxHash        *string `json:"refundTxHash"`
	CreatedAt           *string `json:"createdAt"`
	UpdatedAt           *string `json:"updatedAt"`
}

// confirmations is what the payments tests' passes wait for (paymentsServer).
const confirmations = 2

// paymentsServer is a fresh ledger with tier 1 on sale at 0.1 ETH, a dev chain, its passes
// (confirmations) and a server whose caches run on clock (nil: the wall clock).
func paymentsServer(t *testing.T, db *store.Store, clock func() time.Time) (*devchain.Chain, *chain.Client, *jobs.Jobs, *testServer) {
	t.Helper()
	storetest.Tier(t, db, 1, "Standard", "100000000000000000", true)
	dc, c := startDevChain(t)
	j := jobs.New(db, c, chain.LocalSigner(dc.Minter.Key), chain.LocalSigner(dc.Distributor.Key), jobs.Config{ChainID: dc.ChainID(),
		PaymentAddress: dc.Payments, Confirmations: confirmations}, slog.New(slog.DiscardHandler))
	return dc, c, j, newChainServer(t, db, c, j, handlers.Config{PaymentAddress: strings.ToLower(dc.Payments.Hex()), Now: clock})
}

// TestPaymentStatus follows payments on the dev chain through every status of
// GET /api/payments/{txHash}, and a wallet's list of them.
func TestPaymentStatus(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	// The handlers' caches run on a clock the test moves ahead of the wall clock.
	var ahead atomic.Int64
	clock := func() time.Time { return time.Now().Add(time.Duration(ahead.Load())) }
	dc, c, j, s := paymentsServer(t, db, clock)
	price := big.NewInt(100_000_000_000_000_000)
	buyer, payments := dc.Buyers[0], dc.Accounts[devchain.PaymentsIndex]
	pay := func(t *testing.T, from devchain.Account, to common.Address, wei *big.Int) string {
		t.Helper()
		return strings.ToLower(transact(t, dc, c, from.Key, &to, nil, wei).TxHash.Hex())
	}
	status := func(t *testing.T, hash string) paymentBody {
		t.Helper()
		rec := s.get(t, "/api/payments/"+hash)
		wantStatus(t, rec, http.StatusOK)
		return decode[paymentBody](t, rec)
	}
	// pass runs a payments pass once the chain is confirmations blocks past the last payment.
	pass := func(t *testing.T) jobs.PaymentsSummary {
		t.Helper()
		for range confirmations {
			dc.Commit()
		}
		sum, err := j.Payments(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		return sum
	}

	// tracker reads the tracker page of hash and its polled partial, which must agree: the
	// status it shows, its message, and whether it still polls.
	tracker := func(t *testing.T, hash string) (status, message string, polls bool) {
		t.Helper()
		rec := s.get(t, "/payment/"+hash)
		wantStatus(t, rec, http.StatusOK)
		doc := page(t, rec.Body)
		sel := doc.Find(`[data-testid=payment-status]`)
		status, _ = sel.Attr("data-status")
		_, polls = sel.Attr("hx-get")
		partial := page(t, s.get(t, "/partials/payment/"+hash).Body).Find(`[data-testid=payment-status]`)
		if again, _ := partial.Attr("data-status"); again != status {
			t.Fatalf("page %q, partial %q", status, again)
		}
		return status, text(doc, "payment-message"), polls
	}

	t.Run("400 on what is not a transaction hash", func(t *testing.T) {
		for _, bad := range []string{"0x12", "abc", "0x" + strings.Repeat("a", 63), "0x" + strings.Repeat("a", 65),
			strings.Repeat("a", 66), "0x" + strings.Repeat("g", 64), ""} {
			rec := s.get(t, "/api/payments/"+bad)
			wantStatus(t, rec, http.StatusBadRequest)
			if !strings.Contains(errorMessage(t, rec), "transaction hash") {
				t.Fatalf("%q: %s", bad, rec.Body)
			}
		}
	})
	t.Run("the tracker of a payment not seen yet waits for it", func(t *testing.T) {
		if st, msg, polls := tracker(t, storetest.TxHash("not mined yet")); st != "not-seen" || !polls || !strings.HasPrefix(msg, "Not seen yet.") {
			t.Fatalf("tracker %q %q %v", st, msg, polls)
		}
		rec := s.get(t, "/payment/0x12")
		wantStatus(t, rec, http.StatusBadRequest)
		if !strings.Contains(rec.Body.String(), "not a transaction hash") {
			t.Fatalf("bad hash page: %s", rec.Body)
		}
		hash := storetest.TxHash("pasted")
		rec = s.get(t, "/payment?tx=+"+hash[:2]+strings.ToUpper(hash[2:])+"+") // the track form's target
		if wantStatus(t, rec, http.StatusSeeOther); rec.Header().Get("Location") != "/payment/"+hash {
			t.Fatalf("redirected to %q", rec.Header().Get("Location"))
		}
	})
	t.Run("404 on an unknown transaction and on a transfer elsewhere", func(t *testing.T) {
		elsewhere := pay(t, buyer, dc.Buyers[1].Address, price)
		for _, hash := range []string{storetest.TxHash("nobody sent this"), elsewhere} {
			rec := s.get(t, "/api/payments/"+hash)
			wantStatus(t, rec, http.StatusNotFound)
			if got := errorMessage(t, rec); got != "No payment with this transaction has been seen yet." {
				t.Fatalf("%s: %q", hash, got)
			}
		}
	})

	minted := pay(t, buyer, dc.Payments, price)
	t.Run("confirming, read from the chain before the scan sees it", func(t *testing.T) {
		p := status(t, minted[:2]+strings.ToUpper(minted[2:])) // any case
		if p.Status != "confirming" || p.Confirmations == nil || *p.Confirmations != 1 || p.ConfirmationsNeeded != confirmations+1 ||
			p.TxHash != minted || p.From != strings.ToLower(buyer.Address.Hex()) || p.ValueWei != price.String() ||
			p.Reason != nil || p.ReasonCode != nil || p.NodeID != nil || p.ChainNodeID != nil || p.MintTx != nil || p.CreatedAt != nil {
			t.Fatalf("%+v", p)
		}
		if st, msg, polls := tracker(t, minted); st != "confirming" || !polls || !strings.Contains(msg, "once 3 blocks confirm it") {
			t.Fatalf("tracker %q %q %v", st, msg, polls)
		}
		// Its tracker's next polls read the mined transfer from memory, and at most the chain's
		// head, which every tracker shares once a second: not the three requests of a fresh read.
		ctx, calls := chain.CountCalls(t.Context())
		for range 5 {
			rec := httptest.NewRecorder()
			s.e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/partials/payment/"+minted, nil).WithContext(ctx))
			wantStatus(t, rec, http.StatusOK)
		}
		if n := calls.N(); n > 2 {
			t.Fatalf("5 polls of a mined payment cost %d RPC requests", n)
		}
		dc.Commit()
		// The head it counts from is at most a second old (handlers' headTTL): a second on, the
		// next block counts.
		ahead.Add(int64(time.Second))
		if p := status(t, minted); p.Confirmations == nil || *p.Confirmations != 2 {
			t.Fatalf("a second after one more block: %s, want 2", confirmationsOf(p))
		}
	})
	t.Run("minted", func(t *testing.T) {
		if sum := pass(t); sum.Minted != 1 {
			t.Fatalf("pass %+v", sum)
		}
		p := status(t, minted)
		if p.Status != "minted" || p.NodeID == nil || *p.NodeID != 1 || p.ChainNodeID == nil || *p.ChainNodeID != "1" ||
			p.MintTx == nil || p.Tier == nil || *p.Tier != "1" || p.Reason != nil || p.ReasonCode != nil || p.Confirmations != nil ||
			p.RefundTxHash != nil || p.CreatedAt == nil || p.UpdatedAt == nil {
			t.Fatalf("%+v", p)
		}
		rec := s.get(t, "/payment/"+minted)
		if href, _ := page(t, rec.Body).Find(`[data-testid=node-link]`).Attr("href"); href != "/node/1" {
			t.Fatalf("the tracker links to %q", href)
		}
		if st, msg, polls := tracker(t, minted); st != "minted" || polls || !strings.HasPrefix(msg, "Your node 1 is minted.") {
			t.Fatalf("tracker %q %q %v", st, msg, polls)
		}
	})
	t.Run("the minted tracker is a receipt: when, what was paid, the node, its first credit and what next", func(t *testing.T) {
		var mintedAt time.Time
		if err := db.DB().GetContext(t.Context(), &mintedAt, `SELECT created_at FROM nodes WHERE id = 1`); err != nil {
			t.Fatal(err)
		}
		doc := page(t, s.get(t, "/payment/"+minted).Body)
		for id, want := range map[string]string{
			"minted-at": mintedAt.UTC().Format("2006-01-02 15:04"), "paid": "0.1 ETH", "receipt-node": "Node 1, Standard tier",
			"first-credit": "None while payouts are off",
		} {
			if got := text(doc, id); !strings.Contains(got, want) || (id == "minted-at" && !strings.HasSuffix(got, " UTC")) {
				t.Fatalf("%s: %q, want %q", id, got, want)
			}
		}
		for id, href := range map[string]string{"node-link": "/node/1", "me-link": "/me", "withdraw-link": "/node/1#withdraw"} {
			if got := doc.Find(`[data-testid=next-steps] [data-testid=`+id+`]`).AttrOr("href", ""); got != href {
				t.Fatalf("%s links to %q", id, got)
			}
		}
		if doc.Find(`[data-testid=check-hint]`).Length() != 0 || doc.Find(`[data-testid=track-another]`).Length() != 0 {
			t.Fatal("the receipt doubts the hash")
		}
		// With payouts on, the first credit is the next round's time, in words and in UTC.
		paying := newChainServer(t, db, c, j, handlers.Config{PaymentAddress: strings.ToLower(dc.Payments.Hex()), Now: clock,
			DistEnabled: true, DistMode: store.DistFixed, DistPeriod: time.Hour, DistBaseWei: big.NewInt(1_000_000_000_000_000)})
		next := time.Now().Add(90 * time.Minute).Truncate(time.Minute)
		storetest.Due(t, db, next)
		doc = page(t, paying.get(t, "/payment/"+minted).Body)
		if got := text(doc, "first-credit"); got != "At the next round, in 1 hour ("+next.UTC().Format("2006-01-02 15:04")+" UTC)." {
			t.Fatalf("first credit %q", got)
		}
		if !strings.Contains(text(doc, "earnings"), "ETH a round (every hour)") {
			t.Fatalf("earnings %q", text(doc, "earnings"))
		}
	})

	over := new(big.Int).Add(price, big.NewInt(50_000_000_000_000_000))
	first, second := pay(t, buyer, dc.Payments, over), pay(t, buyer, dc.Payments, over)
	t.Run("rejected, with a reason in ETH", func(t *testing.T) {
		if sum := pass(t); sum.Rejected != 2 {
			t.Fatalf("pass %+v", sum)
		}
		for _, hash := range []string{first, second} {
			p := status(t, hash)
			want := "0.15 ETH is not the price of any tier on sale; the Standard tier costs 0.1 ETH."
			if p.Status != "rejected" || p.Reason == nil || *p.Reason != want || p.ReasonCode == nil || *p.ReasonCode != "wrong_amount" ||
				p.NodeID != nil || p.RefundTxHash != nil {
				t.Fatalf("%+v", p)
			}
			if st, msg, polls := tracker(t, hash); st != "rejected" || !polls || !strings.Contains(msg, want) || !strings.Contains(msg, "Owed back: 0.15 ETH") ||
				!strings.Contains(msg, "refunded in full") {
				t.Fatalf("tracker %q %q %v", st, msg, polls)
			}
		}
	})
	t.Run("refunded by a plain transfer back from the payments wallet, once", func(t *testing.T) {
		pay(t, payments, buyer.Address, price)          // the wrong value: refunds nothing
		pay(t, payments, dc.Buyers[1].Address, over)    // the wrong wallet: refunds nothing
		refund := pay(t, payments, buyer.Address, over) // the oldest of the two
		if sum := pass(t); sum.Refunded != 1 {
			t.Fatalf("pass %+v", sum)
		}
		if p := status(t, first); p.Status != "refunded" || p.RefundTxHash == nil || *p.RefundTxHash != refund || *p.Reason == "" ||
			p.ReasonCode == nil || *p.ReasonCode != "wrong_amount" {
			t.Fatalf("first: %+v", p)
		}
		if p := status(t, second); p.Status != "rejected" || p.RefundTxHash != nil {
			t.Fatalf("second, not refunded yet: %+v", p)
		}
		if st, msg, polls := tracker(t, first); st != "refunded" || polls || !strings.Contains(msg, "it was refunded: 0.15 ETH went back") {
			t.Fatalf("tracker %q %q %v", st, msg, polls)
		}
		if sum := pass(t); sum.Refunded != 0 {
			t.Fatalf("a refund counted twice: %+v", sum)
		}
		again := pay(t, payments, buyer.Address, over)
		pass(t)
		if p := status(t, second); p.Status != "refunded" || *p.RefundTxHash != again {
			t.Fatalf("second: %+v", p)
		}
	})
	t.Run("held while the operator holds minting, minted once released", func(t *testing.T) {
		if err := db.HoldMinting(t.Context(), true); err != nil {
			t.Fatal(err)
		}
		hash := pay(t, dc.Buyers[1], dc.Payments, price)
		pass(t)
		if p := status(t, hash); p.Status != "held" || p.NodeID != nil {
			t.Fatalf("%+v", p)
		}
		if st, msg, _ := tracker(t, hash); st != "held" || !strings.Contains(msg, "paused minting for now") {
			t.Fatalf("tracker %q %q", st, msg)
		}
		if err := db.HoldMinting(t.Context(), false); err != nil {
			t.Fatal(err)
		}
		pass(t)
		if p := status(t, hash); p.Status != "minted" {
			t.Fatalf("%+v", p)
		}
	})
	t.Run("minting while its mint transaction is on its way", func(t *testing.T) {
		hash := storetest.TxHash("minting")
		mustExec(t, db, `INSERT INTO payments (tx_hash, payment_ref, from_address, value_wei, block_number, block_hash, status, tier, mint_tx)
			VALUES ($1, $1, $2, $3, 1, $1, 'minting', 1, $1)`, hash, strings.ToLower(dc.Buyers[2].Address.Hex()), price.String())
		if p := status(t, hash); p.Status != "minting" || p.MintTx == nil || *p.MintTx != hash || p.NodeID != nil {
			t.Fatalf("%+v", p)
		}
	})

	t.Run("a wallet's payments, newest first", func(t *testing.T) {
		rec := s.get(t, "/api/payments?from="+strings.ToUpper(buyer.Address.Hex()[2:3])+buyer.Address.Hex()[3:]) // no 0x: bad
		wantStatus(t, rec, http.StatusBadRequest)
		rec = s.get(t, "/api/payments?from="+buyer.Address.Hex())
		wantStatus(t, rec, http.StatusOK)
		if rec.Header().Get("Cache-Control") != cacheNodes || rec.Header().Get("X-Ratelimit-Limit") != "60" {
			t.Fatalf("headers %v", rec.Header())
		}
		list := decode[[]paymentBody](t, rec)
		var got []string
		for _, p := range list {
			code := "-"
			if p.ReasonCode != nil {
				code = *p.ReasonCode
			}
			got = append(got, p.Status+" "+code)
		}
		if fmt.Sprint(got) != "[refunded wrong_amount refunded wrong_amount minted -]" || list[0].TxHash != second || list[2].TxHash != minted {
			t.Fatalf("statuses %v", got)
		}
		// The wallet's page lists the same, a refunded payment with its reason.
		doc := page(t, s.get(t, "/wallet/"+strings.ToLower(buyer.Address.Hex())).Body)
		var rows []string
		doc.Find(`[data-testid=payments] tbody tr`).Each(func(_ int, tr *goquery.Selection) {
			rows = append(rows, tr.AttrOr("data-status", ""))
		})
		if fmt.Sprint(rows) != "[refunded refunded minted]" || !strings.Contains(text(doc, "payments"), "not the price of any tier") {
			t.Fatalf("wallet page payments %v: %q", rows, text(doc, "payments"))
		}
		if one := decode[[]paymentBody](t, s.get(t, "/api/payments?limit=1&from="+buyer.Address.Hex())); len(one) != 1 || one[0].TxHash != second {
			t.Fatalf("limit=1: %+v", one)
		}
		if none := s.get(t, "/api/payments?from="+dc.Buyers[5].Address.Hex()); none.Body.String() != "[]\n" {
			t.Fatalf("a wallet with no payment: %q", none.Body)
		}
		for _, q := range []string{"", "?from=", "?from=0x12", "?from=" + buyer.Address.Hex() + "&limit=0",
			"?from=" + buyer.Address.Hex() + "&limit=101", "?from=" + buyer.Address.Hex() + "&limit=x"} {
			wantStatus(t, s.get(t, "/api/payments"+q), http.StatusBadRequest)
		}
	})
}

// TestPaymentStatusChainDown: a payment the ledger has not seen needs the chain; when it cannot
// be read the answer is 503, never a 404 that would tell a tracker the payment does not exist.
func TestPaymentStatusChainDown(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	s := newServer(t, db, handlers.Config{PaymentAddress: strings.ToLower(alice)})
	rec := s.get(t, "/api/payments/"+storetest.TxHash("unseen"))
	wantStatus(t, rec, http.StatusServiceUnavailable)
}

// TestTrackerReadsTheHeadNotTheChain: once a payments pass has seen a payment at the head, its
// tracker and GET /api/payments/{txHash} answer from the ledger while it confirms, its
// confirmations counted from the head the service follows, without a request to the chain for
// the payment, however many poll; before that, the chain is asked once a while per transaction.
func TestTrackerReadsTheHeadNotTheChain(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	// The handlers' head memo runs on a clock the test moves ahead of the wall clock.
	var ahead atomic.Int64
	dc, c, j, s := paymentsServer(t, db, func() time.Time { return time.Now().Add(time.Duration(ahead.Load())) })
	price := big.NewInt(100_000_000_000_000_000)
	buyer := dc.Buyers[0]
	receipt := transact(t, dc, c, buyer.Key, &dc.Payments, nil, price)
	hash := strings.ToLower(receipt.TxHash.Hex())
	if sum, err := j.Payments(t.Context()); err != nil || sum.Seen != 0 {
		t.Fatalf("pass %+v %v: want the payment seen at the head only", sum, err)
	}

	ctx, calls := chain.CountCalls(t.Context())
	for _, path := range []string{"/api/payments/", "/partials/payment/", "/api/payments/", "/partials/payment/", "/api/payments/"} {
		rec := httptest.NewRecorder()
		s.e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path+hash, nil).WithContext(ctx))
		wantStatus(t, rec, http.StatusOK)
		if path != "/api/payments/" {
			continue
		}
		p := decode[paymentBody](t, rec)
		if p.Status != "confirming" || p.Confirmations == nil || *p.Confirmations != 1 || p.ConfirmationsNeeded != confirmations+1 ||
			p.TxHash != hash || p.From != strings.ToLower(buyer.Address.Hex()) || p.ValueWei != price.String() || p.NodeID != nil {
			t.Fatalf("%+v", p)
		}
	}
	// At most the head, which every reader shares once a second: a read of the payment from the
	// chain is three requests.
	if n := calls.N(); n > 1 {
		t.Fatalf("5 polls of a payment seen at the head cost %d RPC requests", n)
	}
	// A scan that lags is no reason to ask the chain: blocks go by past the payment's
	// confirmations while the pass follows the head (here: told it saw the head) but the scan
	// has not reached the payment, and its tracker still counts them from the head.
	polls := func(want uint64) int64 {
		t.Helper()
		ahead.Add(int64(11 * time.Second)) // past the head memo and a mined transaction's read
		ctx, calls := chain.CountCalls(t.Context())
		for range 5 {
			rec := httptest.NewRecorder()
			s.e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/payments/"+hash, nil).WithContext(ctx))
			wantStatus(t, rec, http.StatusOK)
			if p := decode[paymentBody](t, rec); p.Status != "confirming" || p.Confirmations == nil || *p.Confirmations != want {
				t.Fatalf("%+v, want confirming with %d confirmations", p, want)
			}
		}
		return calls.N()
	}
	followHead := func() {
		t.Helper()
		h, err := ethclient.NewClient(dc.RPC()).HeaderByNumber(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := db.RecordHead(t.Context(), []store.ScannedBlock{{Number: h.Number.Int64(), Hash: strings.ToLower(h.Hash().Hex())}}, nil); err != nil {
			t.Fatal(err)
		}
	}
	for range confirmations + 3 {
		dc.Commit()
	}
	followHead()
	if n := polls(confirmations + 4); n > 1 {
		t.Fatalf("5 polls of a payment the lagging scan has not reached cost %d RPC requests, want 1 at most", n)
	}
	// Once the scan has passed its block without taking it (here: told it read the block), the
	// chain tells what became of it.
	scanned, err := db.Cursor(t.Context(), store.PaymentsScanner)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.RecordScan(t.Context(), store.PaymentsScanner, store.Scan{Blocks: []store.ScannedBlock{
		{Number: receipt.BlockNumber.Int64(), Hash: strings.ToLower(receipt.BlockHash.Hex())}}}); err != nil {
		t.Fatal(err)
	}
	if n := polls(confirmations + 4); n < 2 {
		t.Fatalf("5 polls of a payment the scan passed by cost %d RPC requests: the chain was not asked", n)
	}
	if _, err := db.RewindScan(t.Context(), store.PaymentsScanner, scanned.Number, scanned.Hash); err != nil {
		t.Fatal(err)
	}
	// And so it does, past the payment's confirmations, once the passes no longer follow the
	// head: they are what would take back a reorg's payment.
	for range confirmations + 2 {
		dc.Commit()
	}
	if n := polls(2*confirmations + 6); n < 2 {
		t.Fatalf("5 polls of a payment no pass follows cost %d RPC requests: the chain was not asked", n)
	}
	// A transaction no pass has seen is asked of the chain: one request while the node has no
	// block for it (unknown here; waiting in the pool alike), whoever polls it within 2 s.
	ctx, calls = chain.CountCalls(t.Context())
	for range 5 {
		rec := httptest.NewRecorder()
		s.e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/payments/"+storetest.TxHash("never sent"), nil).WithContext(ctx))
		wantStatus(t, rec, http.StatusNotFound)
	}
	if n := calls.N(); n != 1 {
		t.Fatalf("5 polls of an unknown transaction cost %d RPC requests, want 1", n)
	}
	// Minted, its tracker shows the node's tier with its payout weight, read with the tier list
	// (kept a second), not once a poll: a thousand buyers watching cost what one does.
	for range confirmations {
		dc.Commit()
	}
	if sum, err := j.Payments(t.Context()); err != nil || sum.Minted != 1 {
		t.Fatalf("pass %+v %v", sum, err)
	}
	poll := func(ctx context.Context) {
		rec := httptest.NewRecorder()
		s.e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/partials/payment/"+hash, nil).WithContext(ctx))
		wantStatus(t, rec, http.StatusOK)
		if !strings.Contains(rec.Body.String(), "Standard") {
			t.Fatalf("the minted tracker does not name the tier: %s", rec.Body.String())
		}
	}
	poll(t.Context()) // the first reads the tiers' weights whole
	ctx, calls = chain.CountCalls(t.Context())
	for range 5 {
		poll(ctx)
	}
	// At most one reload of the tier list (the weights' version) if a second went by.
	if n := calls.N(); n > 1 {
		t.Fatalf("5 polls of a minted payment cost %d RPC requests, want 1 at most", n)
	}
}

// TestTrackersShareTheChain: the instances behind a load balancer ask the chain once for a
// transaction their trackers follow before a pass sees it, not once each (tx_reads); and a
// tracker the buyer's own page opened (?sent=1) costs the chain nothing until then.
func TestTrackersShareTheChain(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	dc, c, j, first := paymentsServer(t, db, nil)
	// A second instance: its own chain client and its own memory, the same ledger.
	second := newChainServer(t, db, chain.New(dc.RPC(), chain.Config{Factory: dc.Factory}), j,
		handlers.Config{PaymentAddress: strings.ToLower(dc.Payments.Hex())})
	ask := func(s *testServer, path string, status int) int64 {
		t.Helper()
		ctx, calls := chain.CountCalls(t.Context())
		rec := httptest.NewRecorder()
		s.e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil).WithContext(ctx))
		wantStatus(t, rec, status)
		return calls.N()
	}

	// A hash the node does not know, and a payment mined that no pass has seen yet.
	unknown := "/api/payments/" + storetest.TxHash("never sent")
	if n := ask(first, unknown, http.StatusNotFound); n != 1 {
		t.Fatalf("the first instance asked the chain %d times, want once", n)
	}
	if n := ask(second, unknown, http.StatusNotFound); n != 0 {
		t.Fatalf("the second instance asked the chain %d times for what the first read", n)
	}
	receipt := transact(t, dc, c, dc.Buyers[0].Key, &dc.Payments, nil, big.NewInt(100_000_000_000_000_000))
	mined := "/api/payments/" + strings.ToLower(receipt.TxHash.Hex())
	if n := ask(first, mined, http.StatusOK); n < 2 {
		t.Fatalf("the first instance asked the chain %d times: the transfer was not read", n)
	}
	if n := ask(second, mined, http.StatusOK); n > 1 { // its own head, which all its readers share
		t.Fatalf("the second instance asked the chain %d times for what the first read", n)
	}

	// The buyer's own tracker, opened by Pay: nothing asked until the passes see the payment.
	sent := "/partials/payment/" + storetest.TxHash("just sent") + "?sent=1&since=" + strconv.FormatInt(time.Now().Unix(), 10)
	for range 3 {
		if n := ask(first, sent, http.StatusOK); n != 0 {
			t.Fatalf("a tracker the buyer's page opened asked the chain %d times", n)
		}
	}
	if got := text(page(t, first.get(t, sent).Body), "payment-message"); got != "Sent from your wallet. Waiting for a block: this takes a few seconds." {
		t.Fatalf("the sent tracker says %q", got)
	}
}

// TestChainReadBudget: one client asking about transaction after transaction makes the instance
// ask the chain no more than CHAIN_READS_PER_SEC allows; past it the API says so (503, a retry)
// and a tracker says it checks again in a moment, while the passes and the probes go on.
func TestChainReadBudget(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	storetest.Tier(t, db, 1, "Standard", "100000000000000000", true)
	dc, c := startDevChain(t)
	j := jobs.New(db, c, chain.LocalSigner(dc.Minter.Key), chain.LocalSigner(dc.Distributor.Key), jobs.Config{ChainID: dc.ChainID(),
		PaymentAddress: dc.Payments, Confirmations: confirmations}, slog.New(slog.DiscardHandler))
	s := newChainServer(t, db, c, j, handlers.Config{PaymentAddress: strings.ToLower(dc.Payments.Hex()), ChainReadsPerSec: 1})

	ctx, calls := chain.CountCalls(t.Context())
	refused := 0
	for i := range 8 { // a second's budget is 1, and a burst of 2
		rec := httptest.NewRecorder()
		s.e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/payments/"+storetest.TxHash(fmt.Sprint("guess ", i)), nil).WithContext(ctx))
		switch rec.Code {
		case http.StatusNotFound:
		case http.StatusServiceUnavailable:
			refused++
			if msg := errorMessage(t, rec); msg != "Many visitors are checking the chain right now; please retry in a few seconds." {
				t.Fatalf("the refusal says %q", msg)
			}
			if rec.Header().Get("Retry-After") == "" {
				t.Fatal("the refusal gives no retry-after")
			}
		default:
			t.Fatalf("guess %d: %d %s", i, rec.Code, rec.Body)
		}
	}
	if n := calls.N(); refused < 5 || n > 3 {
		t.Fatalf("8 guesses in a moment: %d refused, %d requests to the chain", refused, n)
	}
	sent := "/partials/payment/" + storetest.TxHash("pasted") + "?since=" + strconv.FormatInt(time.Now().Unix(), 10)
	if got := text(page(t, s.get(t, sent).Body), "payment-message"); got != "Many payments are being checked right now: this one is checked again in a moment." {
		t.Fatalf("a tracker over the budget says %q", got)
	}
	// The passes and the probes draw on no budget.
	if _, err := j.Payments(t.Context()); err != nil {
		t.Fatalf("the payments pass: %v", err)
	}
	wantStatus(t, s.get(t, "/readyz"), http.StatusOK)
}
