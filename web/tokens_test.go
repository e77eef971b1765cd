package web

import (
	"fmt"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"nodeledger/chain"
	"nodeledger/chain/bindings"
	"nodeledger/chain/devchain"
	"nodeledger/handlers"
	"nodeledger/jobs"
	"nodeledger/store"
	"nodeledger/store/storetest"
	"nodeledger/views"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
)

// tokenPaymentBody is what GET /api/payments/{txHash} says of what was paid.
type tokenPaymentBody struct {
	Status   string  `json:"status"`
	From     string  `json:"from"`
	ValueWei string  `json:"valueWei"`
	Token    *string `json:"token"`
	Symbol   string  `json:"symbol"`
	Decimals int     `json:"decimals"`
	Amount   string  `json:"amount"`
}

// TestTokenPrices sets a tier's USDC price through the admin API, pays it in USDC on the dev
// chain and follows the payment from its receipt to its node.
func TestTokenPrices(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	storetest.Tier(t, db, 1, "Standard", "100000000000000000", true)
	dc, c := startDevChain(t)
	usdc := store.Token{Address: strings.ToLower(dc.USDC.Hex()), Symbol: "USDC", Decimals: 6}
	if err := db.PutTokens(t.Context(), []store.Token{usdc}); err != nil {
		t.Fatal(err)
	}
	const confirmations = 2
	j := jobs.New(db, c, chain.LocalSigner(dc.Minter.Key), nil, jobs.Config{ChainID: dc.ChainID(), PaymentAddress: dc.Payments,
		Confirmations: confirmations, PaymentTokens: []store.Token{usdc}, Treasury: dc.Treasury, MultiSend: dc.MultiSend},
		slog.New(slog.DiscardHandler))
	s := newChainServer(t, db, c, j, handlers.Config{PaymentAddress: strings.ToLower(dc.Payments.Hex()), AdminKey: adminKey,
		Treasury: dc.Treasury, ChainID: dc.ChainID().Int64()})
	put := func(tokenPrices string) *httptest.ResponseRecorder {
		return s.adminDo(t, http.MethodPut, "/api/admin/tiers/1", `{"label": "Standard", "priceWei": "100000000000000000",
			"maxPerWallet": 5, "enabled": true, "tokenPrices": `+tokenPrices+`}`, adminKey)
	}

	t.Run("a price in a token not listed, or not a price, is refused", func(t *testing.T) {
		dht := strings.ToLower(dc.Token.Hex())
		for body, want := range map[string]string{
			`[{"token": "` + dht + `", "amount": "300"}]`:                                                          "is not a token the sale accepts",
			`[{"token": "0x12", "amount": "300"}]`:                                                                 "must be a token's address",
			`[{"token": "` + usdc.Address + `", "amount": "0"}]`:                                                   "must be more than 0",
			`[{"token": "` + usdc.Address + `", "amount": "300.5"}]`:                                               "whole number of its base units (6 decimals)",
			`[{"token": "` + usdc.Address + `", "amount": "1"}, {"token": "` + usdc.Address + `", "amount": "2"}]`: "two prices in USDC",
		} {
			rec := put(body)
			wantStatus(t, rec, http.StatusBadRequest)
			if msg := errorMessage(t, rec); !strings.Contains(msg, want) {
				t.Errorf("%s: %q, want it to say %q", body, msg, want)
			}
		}
	})

	t.Run("the tier is priced in USDC beside ETH", func(t *testing.T) {
		rec := put(`[{"token": "` + strings.ToUpper(usdc.Address[:2]) + usdc.Address[2:] + `", "amount": "300000000", "symbol": "ignored"}]`)
		wantStatus(t, rec, http.StatusOK)
		type tier struct {
			ID          string `json:"id"`
			TokenPrices []struct {
				Token, Symbol, Amount string
				Decimals              int
			} `json:"tokenPrices"`
		}
		for _, got := range []tier{decode[tier](t, rec), decode[struct{ Tiers []tier }](t, s.get(t, "/api/tiers")).Tiers[0]} {
			if len(got.TokenPrices) != 1 || got.TokenPrices[0].Token != usdc.Address || got.TokenPrices[0].Symbol != "USDC" ||
				got.TokenPrices[0].Decimals != 6 || got.TokenPrices[0].Amount != "300000000" {
				t.Fatalf("tier %+v, want 300 USDC", got)
			}
		}
	})

	t.Run("the pre-check of a payment in USDC", func(t *testing.T) {
		buyer := strings.ToLower(dc.Buyers[0].Address.Hex())
		rec := s.get(t, "/api/tiers/1/check/"+buyer+"?token="+usdc.Address)
		wantStatus(t, rec, http.StatusOK)
		type checkBody struct {
			OK       bool               `json:"ok"`
			PayToken *store.TokenAmount `json:"payToken"`
		}
		if check := decode[checkBody](t, rec); !check.OK || check.PayToken == nil || check.PayToken.String() != "300 USDC" {
			t.Fatalf("check %+v, want 300 USDC to buy the tier", check)
		}
		if rec := s.get(t, "/api/tiers/1/check/"+buyer); strings.Contains(rec.Body.String(), `"payToken":{`) {
			t.Fatalf("an ETH check names a token: %s", rec.Body)
		}
		for q, want := range map[string]string{
			"?token=" + strings.ToLower(dc.Token.Hex()):     "does not accept the token",
			"?token=%3Cb%3E%00" + strings.Repeat("a", 5000): "token must be a token's address",
		} {
			rec := s.get(t, "/api/tiers/1/check/"+buyer+q)
			wantStatus(t, rec, http.StatusBadRequest)
			if msg := errorMessage(t, rec); !strings.Contains(msg, want) || strings.Contains(msg, "<b>") {
				t.Errorf("%.40s: %q, want %q and nothing of the query echoed", q, msg, want)
			}
		}
	})

	t.Run("a USDC payment, from its receipt to its node", func(t *testing.T) {
		buyer := dc.Buyers[0]
		amount := big.NewInt(300_000_000)
		r := transact(t, dc, c, buyer.Key, &dc.USDC, bindings.NewTestToken().PackTransfer(dc.Payments, amount), nil)
		hash := strings.ToLower(r.TxHash.Hex())
		check := func(want string) {
			t.Helper()
			rec := s.get(t, "/api/payments/"+hash)
			wantStatus(t, rec, http.StatusOK)
			p := decode[tokenPaymentBody](t, rec)
			if p.Status != want || p.From != strings.ToLower(buyer.Address.Hex()) || p.ValueWei != "0" || p.Token == nil ||
				*p.Token != usdc.Address || p.Symbol != "USDC" || p.Decimals != 6 || p.Amount != "300000000" {
				t.Fatalf("payment %+v, want %s, 300 USDC from the buyer", p, want)
			}
		}
		check("confirming") // from the receipt: the scan has not read its block yet
		if got := text(page(t, s.get(t, "/payment/"+hash).Body), "payment-amount"); got != "300 USDC" {
			t.Fatalf("the tracker says it paid %q, want 300 USDC", got)
		}
		for range confirmations {
			dc.Commit()
		}
		if sum, err := j.Payments(t.Context()); err != nil || sum.Minted != 1 {
			t.Fatalf("payments pass: %+v, %v", sum, err)
		}
		check("minted")
		if got := text(page(t, s.get(t, "/payment/"+hash).Body), "paid"); got != "300 USDC" {
			t.Fatalf("the receipt says it paid %q, want 300 USDC", got)
		}
	})

	t.Run("a refund batch of one token payment is the token's transfer back", func(t *testing.T) {
		r := transact(t, dc, c, dc.Buyers[1].Key, &dc.USDC, bindings.NewTestToken().PackTransfer(dc.Payments, big.NewInt(250_000_000)), nil)
		for range confirmations {
			dc.Commit()
		}
		if sum, err := j.Payments(t.Context()); err != nil || sum.Rejected != 1 {
			t.Fatalf("payments pass: %+v, %v", sum, err)
		}
		// A batch is proposed only when the treasury could pay it.
		transact(t, dc, c, dc.Owner.Key, &dc.USDC, bindings.NewTestToken().PackMint(dc.Treasury, big.NewInt(250_000_000)), nil)
		rec := s.adminDo(t, http.MethodPost, "/api/admin/refund-batches", `{"payments": ["`+strings.ToLower(r.TxHash.Hex())+`"]}`, adminKey)
		wantStatus(t, rec, http.StatusCreated)
		b := decode[batchDoc](t, rec)
		want := hexutil.Encode(chain.TokenTransferData(dc.Buyers[1].Address, big.NewInt(250_000_000)))
		if b.SafeTx.To != usdc.Address || b.SafeTx.Value != "0" || b.SafeTx.Operation != 0 || b.SafeTx.Data != want || b.TotalWei != "0" {
			t.Fatalf("the batch's Safe transaction %+v, want USDC's transfer(buyer, 250 USDC)", b.SafeTx)
		}
	})
}

// TestOperatorTierFormTokenPrices prices a tier in USDC on the operator page: a field for each
// listed token, in its own units, checked as the API checks it, and kept when the tier is edited.
func TestOperatorTierFormTokenPrices(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	dc, c := startDevChain(t)
	usdc := store.Token{Address: strings.ToLower(dc.USDC.Hex()), Symbol: "USDC", Decimals: 6}
	if err := db.PutTokens(t.Context(), []store.Token{usdc}); err != nil {
		t.Fatal(err)
	}
	j := jobs.New(db, c, nil, nil, jobs.Config{PaymentTokens: []store.Token{usdc}}, slog.New(slog.DiscardHandler))
	s := newChainServer(t, db, c, j, handlers.Config{AdminKey: adminKey, SessionSecret: sessionSecret})
	b := signedInOperator(t, s)
	field := views.TokenPriceInput(usdc.Address)
	tier := url.Values{"id": {"1"}, "label": {"Standard"}, "price": {"0.1"}, "maxPerWallet": {"5"}, "enabled": {"true"}}

	if got := strings.Join(strings.Fields(b.operatorPage().Find(`#tier-form input[name="`+field+`"]`).Parent().Text()), " "); got != "Price (USDC, optional)" {
		t.Fatalf("the USDC price's label %q", got)
	}
	tier.Set(field, "300.1234567")
	rec := b.form("/operator/tiers", tier)
	wantStatus(t, rec, http.StatusUnprocessableEntity)
	if got := text(page(t, rec.Body), "problem-tokenPrices"); got != "The price in USDC has more than 6 decimals, the token's." {
		t.Fatalf("problem %q", got)
	}
	tier.Set(field, "1,300.5")
	wantRedirect(t, b.form("/operator/tiers", tier))
	tiers, err := db.Tiers(t.Context())
	if err != nil || len(tiers) != 1 || tiers[0].TokenPrices[usdc.Address].String() != "1300500000" {
		t.Fatalf("stored %+v, %v: want 1300.5 USDC", tiers, err)
	}
	if got := text(b.operatorPage(), "outcome"); got != "Saved tier 1, Standard: 0.1 ETH or 1,300.5 USDC, 5 per wallet, switched on." {
		t.Fatalf("outcome %q", got)
	}
	edit := page(t, b.do(http.MethodGet, "/operator?edit=1", nil).Body)
	if got := edit.Find(`#tier-form input[name="`+field+`"]`).AttrOr("value", "?"); got != "1300.5" {
		t.Fatalf("the edit form's USDC price %q", got)
	}
	// Emptied, the tier is no longer sold for USDC.
	tier.Set("editing", "true")
	tier.Set(field, "")
	wantRedirect(t, b.form("/operator/tiers", tier))
	if tiers, _ := db.Tiers(t.Context()); len(tiers[0].TokenPrices) != 0 {
		t.Fatalf("token prices %v after the field was emptied", tiers[0].TokenPrices)
	}
}

// TestTokenRefundBatch: a rejected USDC payment and a rejected ETH payment are paid back in one
// treasury transaction that two owners approve: the USDC with the token's transfer, the ETH as
// ever; the buyers get exactly what they paid, and both payments are refunded.
func TestTokenRefundBatch(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	e := newRefundEnvOf(t, db, true)
	ctx, dc := t.Context(), e.dc
	erc20 := bindings.NewTestToken()
	usdcOf := func(a common.Address) *big.Int {
		t.Helper()
		b, err := e.c.TokenBalance(ctx, dc.USDC, a)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	ethOf := func(a common.Address) *big.Int {
		t.Helper()
		b, err := e.c.Balance(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	inUSDC := strings.ToLower(e.send(dc.Buyers[0].Key, dc.USDC, erc20.PackTransfer(dc.Payments, big.NewInt(250_000_000)), nil).TxHash.Hex())
	inETH := e.pay(1, 150_000_000_000_000_000)
	if sum := e.pass(); sum.Rejected != 2 {
		t.Fatalf("pass %+v", sum)
	}
	// The treasury holds USDC, as the sweeps leave it (TestTokenSweep).
	e.send(dc.Owner.Key, dc.USDC, erc20.PackMint(dc.Treasury, big.NewInt(1_000_000_000)), nil)

	// The treasury says what it and the payments wallet hold of USDC.
	type holding struct {
		Token, Symbol, Treasury string
		PaymentsWallet          *string
	}
	tr := decode[struct{ Tokens []holding }](t, e.s.adminDo(t, http.MethodGet, "/api/admin/treasury", "", adminKey))
	if len(tr.Tokens) != 1 || tr.Tokens[0].Symbol != "USDC" || tr.Tokens[0].Treasury != "1000000000" ||
		tr.Tokens[0].PaymentsWallet == nil || *tr.Tokens[0].PaymentsWallet != "250000000" {
		t.Fatalf("treasury tokens %+v, want 1000 USDC in the treasury and 250 in the payments wallet", tr.Tokens)
	}

	rec := e.s.adminDo(t, http.MethodPost, "/api/admin/refund-batches", `{"payments": "all"}`, adminKey)
	wantStatus(t, rec, http.StatusCreated)
	b := decode[batchDoc](t, rec)
	if len(b.Refunds) != 2 || b.TotalWei != "150000000000000000" || b.SafeTx.To != strings.ToLower(dc.MultiSend.Hex()) {
		t.Fatalf("proposed %+v", b)
	}
	if r := b.Refunds[0]; r.TxHash != inUSDC || r.AmountWei != "0" || r.InToken == nil || r.InToken.String() != "250 USDC" ||
		r.To != strings.ToLower(dc.Buyers[0].Address.Hex()) {
		t.Fatalf("the USDC refund %+v", r)
	}
	if r := b.Refunds[1]; r.TxHash != inETH || r.AmountWei != "150000000000000000" || r.InToken != nil {
		t.Fatalf("the ETH refund %+v", r)
	}
	if rs, err := db.AuditLog(ctx, 1); err != nil || len(rs) != 1 || rs[0].Outcome.Args.AmountWei.String() != "150000000000000000" ||
		len(rs[0].Outcome.Args.Tokens) != 1 || rs[0].Outcome.Args.Tokens[0].String() != "250 USDC" {
		t.Fatalf("audit %+v, %v: want 0.15 ETH and 250 USDC", rs, err)
	}

	e.approve(b.ID, e.sign(7, b.SafeTxHash))
	ready := e.approve(b.ID, e.sign(devchain.OwnerIndex, b.SafeTxHash))
	if ready == nil || !ready.Ready || ready.ExecData == nil {
		t.Fatalf("after two owners: %+v", ready)
	}
	usdcBefore, ethBefore := usdcOf(dc.Buyers[0].Address), ethOf(dc.Buyers[1].Address)
	if exec := e.send(dc.Buyers[4].Key, dc.Treasury, common.FromHex(*ready.ExecData), nil); exec.Status != types.ReceiptStatusSuccessful {
		t.Fatal("the batch reverted")
	}
	if got := new(big.Int).Sub(usdcOf(dc.Buyers[0].Address), usdcBefore); got.Cmp(big.NewInt(250_000_000)) != 0 {
		t.Fatalf("the USDC buyer got %s units back, want 250000000", got)
	}
	if got := new(big.Int).Sub(ethOf(dc.Buyers[1].Address), ethBefore); got.Cmp(big.NewInt(150_000_000_000_000_000)) != 0 {
		t.Fatalf("the ETH buyer got %s wei back", got)
	}
	e.pass()
	e.pass()
	for _, hash := range []string{inUSDC, inETH} {
		if p := e.paymentDoc(hash); p.Status != store.BuyerRefunded {
			t.Fatalf("payment %s: %s after the batch executed", hash, p.Status)
		}
	}
}

// TestTokenRefundRefused: a refund the token refuses (the payer is on USDC's blocklist) is left
// out of a batch when it is proposed; once the payer is blocked after the batch is proposed, it
// makes the whole batch revert: the treasury pays nothing, the batch stays open, and the operator
// reads why.
func TestTokenRefundRefused(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	e := newRefundEnvOf(t, db, true)
	dc := e.dc
	erc20 := bindings.NewTestToken()
	inUSDC := strings.ToLower(e.send(dc.Buyers[0].Key, dc.USDC, erc20.PackTransfer(dc.Payments, big.NewInt(250_000_000)), nil).TxHash.Hex())
	if sum := e.pass(); sum.Rejected != 1 {
		t.Fatalf("pass %+v", sum)
	}
	e.send(dc.Owner.Key, dc.USDC, erc20.PackMint(dc.Treasury, big.NewInt(1_000_000_000)), nil)
	e.send(dc.Owner.Key, dc.USDC, erc20.PackSetBlocked(dc.Buyers[0].Address, true), nil)
	rec := e.s.adminDo(t, http.MethodPost, "/api/admin/refund-batches", `{"payments": ["`+inUSDC+`"]}`, adminKey)
	wantStatus(t, rec, http.StatusConflict)
	if msg := errorMessage(t, rec); !strings.Contains(msg, inUSDC) || !strings.Contains(msg, "the token USDC refuses that transfer") {
		t.Fatalf("a refund to a blocked payer: %q", msg)
	}

	e.send(dc.Owner.Key, dc.USDC, erc20.PackSetBlocked(dc.Buyers[0].Address, false), nil)
	rec = e.s.adminDo(t, http.MethodPost, "/api/admin/refund-batches", `{"payments": ["`+inUSDC+`"]}`, adminKey)
	wantStatus(t, rec, http.StatusCreated)
	b := decode[batchDoc](t, rec)
	e.send(dc.Owner.Key, dc.USDC, erc20.PackSetBlocked(dc.Buyers[0].Address, true), nil)
	e.approve(b.ID, e.sign(7, b.SafeTxHash))
	ready := e.approve(b.ID, e.sign(devchain.OwnerIndex, b.SafeTxHash))
	if ready == nil || ready.ExecData == nil {
		t.Fatalf("after two owners: %+v", ready)
	}
	exec := e.send(dc.Buyers[4].Key, dc.Treasury, common.FromHex(*ready.ExecData), nil)
	if exec.Status != types.ReceiptStatusFailed {
		t.Fatal("the batch went through though the token refuses its payer")
	}
	wantStatus(t, e.report(b.ID, strings.ToLower(exec.TxHash.Hex())), http.StatusOK)
	e.pass()
	got := e.get(b.ID)
	if got.Status != "ready" || len(got.Attempts) != 1 {
		t.Fatalf("after the revert: %+v", got)
	}
	payer := strings.ToLower(dc.Buyers[0].Address.Hex())
	if a := got.Attempts[0]; a.Status != "reverted" || a.Error == nil || *a.Error != "GS013" || a.Reason == nil ||
		!strings.Contains(*a.Reason, "no token refuses a payer") || a.RefusedTo == nil || *a.RefusedTo != payer ||
		!strings.Contains(*a.Reason, "The transfer to "+payer+" failed") {
		t.Fatalf("the attempt %+v, want GS013, why, and the transfer that failed", a)
	}
	if p := e.paymentDoc(inUSDC); p.Status != store.BuyerRejected {
		t.Fatalf("the payment reads %s after a refund that reverted", p.Status)
	}
}

// TestTokenRefundAnsweredFalse: a token that answers false to a transfer instead of reverting
// moves nothing, and the Safe's batch still executes (MultiSendCallOnly reads no answer): the
// payment it was to refund is not recorded refunded, but owed again, and the batch's page says
// the transfer was not paid. A new batch leaves it out, with the token's answer.
func TestTokenRefundAnsweredFalse(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	e := newRefundEnvOf(t, db, true)
	dc := e.dc
	erc20 := bindings.NewTestToken()
	inUSDC := strings.ToLower(e.send(dc.Buyers[0].Key, dc.USDC, erc20.PackTransfer(dc.Payments, big.NewInt(250_000_000)), nil).TxHash.Hex())
	inETH := e.pay(1, 150_000_000_000_000_000)
	if sum := e.pass(); sum.Rejected != 2 {
		t.Fatalf("pass %+v", sum)
	}
	e.send(dc.Owner.Key, dc.USDC, erc20.PackMint(dc.Treasury, big.NewInt(1_000_000_000)), nil)
	rec := e.s.adminDo(t, http.MethodPost, "/api/admin/refund-batches", `{"payments": "all"}`, adminKey)
	wantStatus(t, rec, http.StatusCreated)
	b := decode[batchDoc](t, rec)
	// After the batch is proposed, the token starts answering false for the payer.
	e.send(dc.Owner.Key, dc.USDC, erc20.PackSetQuiet(true), nil)
	e.send(dc.Owner.Key, dc.USDC, erc20.PackSetBlocked(dc.Buyers[0].Address, true), nil)
	if exec := e.execute(b.ID, b.SafeTxHash); exec.Status != types.ReceiptStatusSuccessful {
		t.Fatal("the batch reverted: the token should have answered false")
	}
	e.pass()
	e.pass()
	if got := e.get(b.ID); got.Status != "executed" {
		t.Fatalf("the batch %+v", got)
	}
	if p := e.paymentDoc(inETH); p.Status != store.BuyerRefunded {
		t.Fatalf("the ETH payment %s", p.Status)
	}
	if p := e.paymentDoc(inUSDC); p.Status != store.BuyerRejected || p.RefundTxHash != nil {
		t.Fatalf("the USDC payment the token did not move reads %s (refund %v)", p.Status, p.RefundTxHash)
	}
	if out, err := db.UnexplainedOutflows(t.Context(), 10); err != nil || len(out) != 0 {
		t.Fatalf("unexplained outflows %+v (%v)", out, err)
	}
	op := signedInAs(t, e.s, addOperator(t, db, "viewer"))
	rec = op.do(http.MethodGet, fmt.Sprintf("/operator/refund-batches/%d", b.ID), nil)
	wantStatus(t, rec, http.StatusOK)
	doc := page(t, rec.Body)
	if got := text(doc, "not-paid"); !strings.Contains(got, "answered false") {
		t.Fatalf("the batch page says %q", got)
	}
	if head := doc.Find("[data-testid=batch-transfers] thead").Text(); !strings.Contains(head, "Amount") || strings.Contains(head, "(ETH)") {
		t.Fatalf("the transfers' head %q, want a currency-neutral Amount", head)
	}

	rec = e.s.adminDo(t, http.MethodPost, "/api/admin/refund-batches", `{"payments": "all"}`, adminKey)
	wantStatus(t, rec, http.StatusConflict)
	if msg := errorMessage(t, rec); !strings.Contains(msg, inUSDC) || !strings.Contains(msg, "returned false") {
		t.Fatalf("the payment owed again: %q", msg)
	}
}

// TestTierPriceSpread: a tier's ETH price raised while its USDC price stays (0.1 → 0.12 ETH at
// the feed's $3,000 against 300 USDC: USDC buyers would pay 17 % less) is a 409 naming both
// prices in dollars until confirmed; a script that sends back only the fields it knows leaves
// the token prices as they are, and [] clears them.
func TestTierPriceSpread(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	dc, c := startDevChain(t)
	usdc := store.Token{Address: strings.ToLower(dc.USDC.Hex()), Symbol: "USDC", Decimals: 6}
	if err := db.PutTokens(t.Context(), []store.Token{usdc}); err != nil {
		t.Fatal(err)
	}
	j := jobs.New(db, c, nil, nil, jobs.Config{ChainID: dc.ChainID(), PaymentAddress: dc.Payments, PaymentTokens: []store.Token{usdc},
		PriceSpreadBps: 300}, slog.New(slog.DiscardHandler))
	s := newChainServer(t, db, c, j, handlers.Config{PaymentAddress: strings.ToLower(dc.Payments.Hex()), AdminKey: adminKey, ChainID: dc.ChainID().Int64(),
		Price: c})
	put := func(body string) *httptest.ResponseRecorder {
		return s.adminDo(t, http.MethodPut, "/api/admin/tiers/1", body, adminKey)
	}
	prices := func() string {
		rec := s.get(t, "/api/tiers")
		wantStatus(t, rec, http.StatusOK)
		got := decode[struct {
			Tiers []struct {
				PriceWei    string `json:"priceWei"`
				TokenPrices []struct {
					Amount string `json:"amount"`
				} `json:"tokenPrices"`
			} `json:"tiers"`
		}](t, rec)
		out := got.Tiers[0].PriceWei
		for _, p := range got.Tiers[0].TokenPrices {
			out += " " + p.Amount
		}
		return out
	}
	usdc300 := `[{"token": "` + usdc.Address + `", "amount": "300000000"}]`
	wantStatus(t, put(`{"label": "Standard", "priceWei": "100000000000000000", "maxPerWallet": 5, "enabled": true, "tokenPrices": `+usdc300+`}`), http.StatusOK)

	raised := `{"label": "Standard", "priceWei": "120000000000000000", "maxPerWallet": 5, "enabled": true, "tokenPrices": ` + usdc300
	rec := put(raised + `}`)
	wantStatus(t, rec, http.StatusConflict)
	msg := errorMessage(t, rec)
	for _, want := range []string{"16.67 %", "0.12 ETH is $360.00", "the feed's $3,000.00", "300 USDC is $300.00", `"confirm": true`} {
		if !strings.Contains(msg, want) {
			t.Errorf("the 409 says %q, want %q in it", msg, want)
		}
	}
	if got := prices(); got != "100000000000000000 300000000" {
		t.Fatalf("unconfirmed, the prices are %s", got)
	}
	wantStatus(t, put(raised+`, "confirm": true}`), http.StatusOK)
	// Both moved together: no question.
	wantStatus(t, put(`{"label": "Standard", "priceWei": "100000000000000000", "maxPerWallet": 5, "enabled": true, "tokenPrices": `+
		`[{"token": "`+usdc.Address+`", "amount": "310000000"}]}`), http.StatusOK)
	// The operator page shows how far apart they are, flagged beyond PRICE_SPREAD_BPS.
	spread := signedInAs(t, s, addOperator(t, db, "viewer")).operatorPage().Find(`[data-testid=tier-1] [data-testid=tier-spread]`)
	if got := strings.Join(strings.Fields(spread.Text()), " "); got != "310 USDC ($310.00): 3.23 % from ETH's $300.00" || !spread.HasClass("bad") {
		t.Fatalf("the tier's spread reads %q (class %q)", got, spread.AttrOr("class", ""))
	}

	// A script that knows the fields before tokens changes the label and sends back what it knows.
	wantStatus(t, put(`{"label": "Standard+", "priceWei": "100000000000000000", "maxPerWallet": 5}`), http.StatusOK)
	if got := prices(); got != "100000000000000000 310000000" {
		t.Fatalf("after a PUT without tokenPrices the prices are %s", got)
	}
	wantStatus(t, put(`{"label": "Standard", "priceWei": "100000000000000000", "maxPerWallet": 5, "tokenPrices": []}`), http.StatusOK)
	if got := prices(); got != "100000000000000000" {
		t.Fatalf("after tokenPrices [] the prices are %s", got)
	}
}

// TestReferralCodeOnUSDC: a wallet bound to a code pays a tier's USDC price less the code's
// discount and gets its node; the code's owner and the partner above are owed their part in USDC,
// to the base unit, beside the ETH part of another buyer's ETH payment; the commission batch pays
// each currency in it, the USDC with the token's transfer. A USDC payout the token answers false
// to pays nothing: its commission is owed again, and the next batch pays it.
func TestReferralCodeOnUSDC(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	e := newRefundEnvOf(t, db, true)
	ctx, dc := t.Context(), e.dc
	erc20 := bindings.NewTestToken()
	usdc := strings.ToLower(dc.USDC.Hex())
	tiers, err := db.Tiers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// 300.000001 USDC: 5 % off is 15.00000005, kept as 15 USDC off; the commissions floor too.
	tiers[0].TokenPrices = store.TokenPrices{usdc: store.Uint256{Int: big.NewInt(300_000_001)}}
	if err := db.PutTier(ctx, tiers[0]); err != nil {
		t.Fatal(err)
	}
	addr := func(i int) string { return strings.ToLower(dc.Buyers[i].Address.Hex()) }
	owner, parent := addr(3), addr(4)
	wantStatus(t, e.s.adminDo(t, http.MethodPost, "/api/admin/referral-codes",
		`{"code": "Dollar5", "owner": "`+owner+`", "discountBps": 500, "commissionBps": 300, "parent": "`+parent+`", "parentBps": 100}`,
		adminKey), http.StatusCreated)
	for i := range 2 {
		if _, _, err := e.j.Sale().Bind(ctx, addr(i), "dollar5", store.SignIn{}); err != nil {
			t.Fatal(err)
		}
	}
	// The buy pre-check names the discounted USDC amount to send.
	check := decode[struct {
		OK            bool               `json:"ok"`
		PriceToken    *store.TokenAmount `json:"priceToken"`
		PayToken      *store.TokenAmount `json:"payToken"`
		DiscountToken *store.TokenAmount `json:"discountToken"`
		ReferralCode  *string            `json:"referralCode"`
	}](t, e.s.get(t, "/api/tiers/1/check/"+addr(0)+"?token="+usdc))
	if !check.OK || check.PriceToken == nil || check.PriceToken.Amount.Int64() != 300_000_001 || check.PayToken == nil ||
		check.PayToken.Amount.Int64() != 285_000_001 || check.DiscountToken == nil || check.DiscountToken.Amount.Int64() != 15_000_000 ||
		check.ReferralCode == nil || *check.ReferralCode != "Dollar5" {
		t.Fatalf("the pre-check of a bound wallet's USDC payment: %+v", check)
	}

	inUSDC := strings.ToLower(e.send(dc.Buyers[0].Key, dc.USDC, erc20.PackTransfer(dc.Payments, big.NewInt(285_000_001)), nil).TxHash.Hex())
	inETH := e.pay(1, 95_000_000_000_000_000)
	// Unbound, the discounted amount is no price.
	stranger := strings.ToLower(e.send(dc.Buyers[2].Key, dc.USDC, erc20.PackTransfer(dc.Payments, big.NewInt(285_000_001)), nil).TxHash.Hex())
	for range 3 {
		e.pass()
	}
	if p := e.paymentDoc(inUSDC); p.Status != store.BuyerMinted || p.ReferralCode == nil || *p.ReferralCode != "Dollar5" ||
		p.Discount.String() != "15000000" || p.DiscountWei.String() != "0" {
		t.Fatalf("the bound wallet's USDC payment: %s, code %v, discount %s (wei %s)", p.Status, p.ReferralCode, p.Discount, p.DiscountWei)
	}
	if p := e.paymentDoc(inETH); p.Status != store.BuyerMinted {
		t.Fatalf("the bound wallet's ETH payment: %s", p.Status)
	}
	if p := e.paymentDoc(stranger); p.Status != store.BuyerRejected {
		t.Fatalf("an unbound wallet's discounted USDC payment: %s", p.Status)
	}

	// 3 % and 1 % of 285.000001 USDC: 8.55 and 2.85 USDC (floored); of 0.095 ETH, 0.00285 and 0.00095.
	type owed struct{ wei, units string }
	want := map[[2]string]owed{
		{owner, "eth"}: {"2850000000000000", ""}, {parent, "eth"}: {"950000000000000", ""},
		{owner, "usdc"}: {"0", "8550000"}, {parent, "usdc"}: {"0", "2850000"},
	}
	cs := e.commissions("owed")
	if len(cs) != 4 {
		t.Fatalf("owed %+v", cs)
	}
	for _, c := range cs {
		cur, units := "eth", ""
		if c.InToken != nil {
			cur, units = "usdc", c.InToken.Amount.String()
			if c.InToken.Address != usdc || c.InToken.Symbol != "USDC" || c.Payment != inUSDC {
				t.Errorf("commission %+v", c)
			}
		}
		if w := want[[2]string{c.Referrer, cur}]; c.AmountWei != w.wei || units != w.units {
			t.Errorf("commission %+v, want %+v", c, w)
		}
	}
	codes := decode[struct {
		Codes []struct {
			Code        string              `json:"code"`
			OwedWei     string              `json:"owedWei"`
			OwedTokens  []store.TokenAmount `json:"owedTokens"`
			VolumeWei   string              `json:"volumeWei"`
			VolumeToken []store.TokenAmount `json:"volumeTokens"`
		} `json:"codes"`
	}](t, e.s.adminDo(t, http.MethodGet, "/api/admin/referral-codes", "", adminKey)).Codes
	if len(codes) != 1 || codes[0].OwedWei != "3800000000000000" || len(codes[0].OwedTokens) != 1 ||
		codes[0].OwedTokens[0].String() != "11.4 USDC" || codes[0].VolumeWei != "95000000000000000" ||
		len(codes[0].VolumeToken) != 1 || codes[0].VolumeToken[0].Amount.Int64() != 285_000_001 {
		t.Fatalf("the code's figures %+v", codes)
	}
	op := signedInAs(t, e.s, addOperator(t, db, "viewer"))
	if got := text(op.operatorPage(), "commissions-owed"); got != "Commissions owed: 0.0038 ETH and 11.4 USDC." {
		t.Errorf("the treasury card says %q", got)
	}

	// The treasury holds USDC, as the sweeps leave it. The partner's USDC payout will move nothing:
	// the token answers false for it.
	e.send(dc.Owner.Key, dc.USDC, erc20.PackMint(dc.Treasury, big.NewInt(1_000_000_000)), nil)
	rec := e.s.adminDo(t, http.MethodPost, "/api/admin/commission-batches", `{"commissions": "all"}`, adminKey)
	wantStatus(t, rec, http.StatusCreated)
	b := decode[commissionBatchDoc](t, rec)
	if len(b.Payouts) != 4 || b.TotalWei != "3800000000000000" || len(b.TokenTotals) != 1 || b.TokenTotals[0].String() != "11.4 USDC" {
		t.Fatalf("proposed %+v", b)
	}
	e.send(dc.Owner.Key, dc.USDC, erc20.PackSetQuiet(true), nil)
	e.send(dc.Owner.Key, dc.USDC, erc20.PackSetBlocked(dc.Buyers[4].Address, true), nil)
	usdcOf := func(a string) *big.Int {
		t.Helper()
		bal, err := e.c.TokenBalance(ctx, dc.USDC, common.HexToAddress(a))
		if err != nil {
			t.Fatal(err)
		}
		return bal
	}
	ownerBefore, parentBefore := usdcOf(owner), usdcOf(parent)
	if exec := e.execute(b.ID, b.SafeTxHash); exec.Status != types.ReceiptStatusSuccessful {
		t.Fatal("the batch reverted: the token should have answered false")
	}
	if got := new(big.Int).Sub(usdcOf(owner), ownerBefore); got.Int64() != 8_550_000 {
		t.Errorf("the owner received %s USDC units, want 8550000", got)
	}
	if got := new(big.Int).Sub(usdcOf(parent), parentBefore); got.Sign() != 0 {
		t.Errorf("the blocked partner received %s USDC units", got)
	}
	e.pass()
	e.pass()
	got := decode[commissionBatchDoc](t, e.s.adminDo(t, http.MethodGet, fmt.Sprintf("/api/admin/refund-batches/%d", b.ID), "", adminKey))
	if got.Status != "executed" {
		t.Fatalf("the batch %+v", got)
	}
	for _, p := range got.Payouts {
		if unpaid := p.To == parent && p.InToken != nil; p.NotPaid != unpaid {
			t.Errorf("payout %+v: notPaid %v, want %v", p, p.NotPaid, unpaid)
		}
	}
	stillOwed := e.commissions("owed")
	if len(stillOwed) != 1 || stillOwed[0].Referrer != parent || stillOwed[0].InToken == nil || len(e.commissions("paid")) != 3 {
		t.Fatalf("after the batch: owed %+v", stillOwed)
	}
	if got := text(page(t, op.do(http.MethodGet, fmt.Sprintf("/operator/refund-batches/%d", b.ID), nil).Body), "not-paid"); !strings.Contains(got, "owed again") {
		t.Errorf("the batch page says %q", got)
	}

	// Once the token pays the partner again, the next batch pays what it is still owed.
	e.send(dc.Owner.Key, dc.USDC, erc20.PackSetBlocked(dc.Buyers[4].Address, false), nil)
	e.send(dc.Owner.Key, dc.USDC, erc20.PackSetQuiet(false), nil)
	rec = e.s.adminDo(t, http.MethodPost, "/api/admin/commission-batches", `{"commissions": "all"}`, adminKey)
	wantStatus(t, rec, http.StatusCreated)
	again := decode[commissionBatchDoc](t, rec)
	if len(again.Payouts) != 1 || again.Payouts[0].To != parent || again.Payouts[0].InToken == nil ||
		again.Payouts[0].InToken.Amount.Int64() != 2_850_000 {
		t.Fatalf("the second batch %+v", again.Payouts)
	}
	if exec := e.execute(again.ID, again.SafeTxHash); exec.Status != types.ReceiptStatusSuccessful {
		t.Fatal("the second batch reverted")
	}
	e.pass()
	e.pass()
	if got := new(big.Int).Sub(usdcOf(parent), parentBefore); got.Int64() != 2_850_000 {
		t.Errorf("the partner received %s USDC units in all, want 2850000", got)
	}
	if owed := e.commissions("owed"); len(owed) != 0 || len(e.commissions("paid")) != 4 {
		t.Fatalf("owed %+v after the second batch", owed)
	}
	if out, err := db.UnexplainedOutflows(ctx, 10); err != nil || len(out) != 0 {
		t.Fatalf("unexplained outflows %+v (%v)", out, err)
	}
}
