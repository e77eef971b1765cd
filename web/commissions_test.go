package web

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"nodeledger/chain/devchain"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// commissionDoc is a commission as GET /api/admin/commissions answers it.
type commissionDoc struct {
	ID        int64              `json:"id"`
	Payment   string             `json:"payment"`
	Code      string             `json:"code"`
	Referrer  string             `json:"referrer"`
	Role      string             `json:"role"`
	AmountWei string             `json:"amountWei"`
	InToken   *store.TokenAmount `json:"inToken"`
	Status    string             `json:"status"`
	PaidTx    *string            `json:"paidTx"`
}

// referralsDoc is GET /api/me's referrals.
type referralsDoc struct {
	Link    *string           `json:"link"`
	Codes   []referrerCodeDoc `json:"codes"`
	OwedWei string            `json:"owedWei"`
	PaidWei string            `json:"paidWei"`
}

type referrerCodeDoc struct {
	Code      string `json:"code"`
	Uses      int    `json:"uses"`
	VolumeWei string `json:"volumeWei"`
	OwedWei   string `json:"owedWei"`
	PaidWei   string `json:"paidWei"`
}

// commissionBatchDoc is what a commission batch adds to a refund batch's answer.
type commissionBatchDoc struct {
	batchDoc
	Kind        string              `json:"kind"`
	Payouts     []payoutDoc         `json:"payouts"`
	TokenTotals []store.TokenAmount `json:"tokenTotals"`
}

// payoutDoc is one transfer of a commission batch.
type payoutDoc struct {
	To          string             `json:"to"`
	AmountWei   string             `json:"amountWei"`
	InToken     *store.TokenAmount `json:"inToken"`
	Commissions []int64            `json:"commissions"`
	NotPaid     bool               `json:"notPaid"`
}

func (e *refundEnv) commissions(status string) []commissionDoc {
	e.t.Helper()
	rec := e.s.adminDo(e.t, http.MethodGet, "/api/admin/commissions?status="+status, "", adminKey)
	wantStatus(e.t, rec, http.StatusOK)
	return decode[struct {
		Commissions []commissionDoc `json:"commissions"`
	}](e.t, rec).Commissions
}

// TestCommissionBatch: the commissions of three referrers (a partner code's owner and the partner
// above it, and another code's owner) are paid in one treasury transaction two owners approve:
// one transfer per referrer of the sum it is owed, to the wei, and the ledger marks each
// commission paid with that transaction. A commission in a batch cannot go in another.
func TestCommissionBatch(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	e := newRefundEnv(t, db)
	ctx := t.Context()
	dc := e.dc
	addr := func(i int) string { return strings.ToLower(dc.Buyers[i].Address.Hex()) }
	for _, body := range []string{
		`{"code": "Duo", "owner": "` + addr(3) + `", "discountBps": 500, "commissionBps": 300, "parent": "` + addr(4) + `", "parentBps": 100}`,
		`{"code": "Solo", "owner": "` + addr(5) + `", "discountBps": 0, "commissionBps": 1000}`,
	} {
		wantStatus(t, e.s.adminDo(t, http.MethodPost, "/api/admin/referral-codes", body, adminKey), http.StatusCreated)
	}
	addWebhook(t, db, store.EventReferralEarned, store.EventReferralPaid)
	for i, code := range []string{"Duo", "Duo", "Solo"} {
		if _, _, err := e.j.Sale().Bind(ctx, addr(i), code, store.SignIn{}); err != nil {
			t.Fatal(err)
		}
	}
	// Tier 1 costs 0.1 ETH: Duo's buyers pay 0.095, Solo's the full price.
	paid := []string{e.pay(0, 95e15), e.pay(1, 95e15), e.pay(2, 1e17)}
	for range 3 {
		e.pass()
	}
	for _, h := range paid {
		if p := e.paymentDoc(h); p.Status != store.BuyerMinted {
			t.Fatalf("payment %s: %s", h, p.Status)
		}
	}
	owed := e.commissions("owed")
	if len(owed) != 5 || len(e.commissions("paid")) != 0 {
		t.Fatalf("owed %+v", owed)
	}
	// Duo: 3 % and 1 % of 0.095 ETH, twice; Solo: 10 % of 0.1 ETH.
	want := map[string]*big.Int{addr(3): big.NewInt(2 * 2_850_000_000_000_000), addr(4): big.NewInt(2 * 950_000_000_000_000),
		addr(5): big.NewInt(10_000_000_000_000_000)}

	// The owner of Duo reads its part on /me and in GET /api/me: owed until the batch executes.
	owner := newBrowser(t, e.s, "203.0.113.30")
	owner.signIn(dc.Buyers[3].Key)
	referrals := func() referralsDoc {
		t.Helper()
		rec := owner.do(http.MethodGet, "/api/me", nil)
		wantStatus(t, rec, http.StatusOK)
		return decode[struct {
			Referrals referralsDoc `json:"referrals"`
		}](t, rec).Referrals
	}
	if r := referrals(); r.Link == nil || *r.Link != "http://127.0.0.1:8080/buy?ref=Duo" || len(r.Codes) != 1 ||
		r.Codes[0] != (referrerCodeDoc{Code: "Duo", Uses: 2, VolumeWei: "190000000000000000", OwedWei: want[addr(3)].String(), PaidWei: "0"}) ||
		r.OwedWei != want[addr(3)].String() || r.PaidWei != "0" {
		t.Fatalf("the owner's referrals before the batch: %+v", r)
	}
	if got := text(page(t, owner.do(http.MethodGet, "/me", nil).Body), "referral-owed"); got != "0.0057 ETH" {
		t.Errorf("/me says owed %q", got)
	}

	rec := e.s.adminDo(t, http.MethodPost, "/api/admin/commission-batches", `{"commissions": "all"}`, adminKey)
	wantStatus(t, rec, http.StatusCreated)
	b := decode[commissionBatchDoc](t, rec)
	if b.Kind != "commissions" || len(b.Refunds) != 0 || len(b.Payouts) != 3 || b.TotalWei != "17600000000000000" || b.Status != "proposed" {
		t.Fatalf("proposed %+v", b)
	}
	if !slices.IsSortedFunc(b.Payouts, func(x, y payoutDoc) int {
		return strings.Compare(x.To, y.To)
	}) {
		t.Errorf("payouts not in address order: %+v", b.Payouts)
	}
	var inBatch []int64
	for _, p := range b.Payouts {
		if w := want[p.To]; w == nil || p.AmountWei != w.String() {
			t.Errorf("payout %+v, want %v", p, w)
		}
		inBatch = append(inBatch, p.Commissions...)
	}
	if slices.Sort(inBatch); len(inBatch) != 5 || inBatch[0] != owed[0].ID || inBatch[4] != owed[4].ID {
		t.Errorf("the payouts pay commissions %v, want the 5 owed", inBatch)
	}

	viewer := signedInAs(t, e.s, addOperator(t, db, "viewer"))
	batchPage := func() *goquery.Document {
		t.Helper()
		rec := viewer.do(http.MethodGet, fmt.Sprintf("/operator/refund-batches/%d", b.ID), nil)
		wantStatus(t, rec, http.StatusOK)
		return page(t, rec.Body)
	}
	doc := batchPage()
	if got := doc.Find("h1").Text(); got != fmt.Sprintf("Commission batch #%d", b.ID) {
		t.Errorf("the batch page's title %q", got)
	}
	if got := doc.Find(`[data-testid=transfer-to]`).Map(func(_ int, s *goquery.Selection) string { return s.Text() }); len(got) != 3 ||
		got[0] != b.Payouts[0].To || text(doc, "batch-total") != "0.0176" {
		t.Errorf("the batch page's transfers %v, total %q", got, text(doc, "batch-total"))
	}
	if got := text(viewer.operatorPage(), "open-batches"); !strings.Contains(got, fmt.Sprintf("Commission batch #%d: 3 commission payouts", b.ID)) {
		t.Errorf("the operator page's open batches %q", got)
	}

	t.Run("commissions that cannot go in", func(t *testing.T) {
		rec := e.s.adminDo(t, http.MethodPost, "/api/admin/commission-batches", fmt.Sprintf(`{"commissions": [%d]}`, owed[0].ID), adminKey)
		wantStatus(t, rec, http.StatusConflict)
		if msg := errorMessage(t, rec); !strings.Contains(msg, fmt.Sprintf("Commission %d is already in batch %d", owed[0].ID, b.ID)) {
			t.Errorf("%q", msg)
		}
		rec = e.s.adminDo(t, http.MethodPost, "/api/admin/commission-batches", `{"commissions": "all"}`, adminKey)
		wantStatus(t, rec, http.StatusBadRequest)
		wantStatus(t, e.s.adminDo(t, http.MethodPost, "/api/admin/commission-batches", `{"commissions": [99999]}`, adminKey), http.StatusBadRequest)
		wantStatus(t, e.s.adminDo(t, http.MethodPost, "/api/admin/commission-batches", `{"commissions": "some"}`, adminKey), http.StatusBadRequest)
		wantStatus(t, e.s.adminDo(t, http.MethodPost, "/api/admin/commission-batches", `{"commissions": "all"}`, "wrong"), http.StatusUnauthorized)
		wantStatus(t, e.s.adminDo(t, http.MethodGet, "/api/admin/commissions?status=due", "", adminKey), http.StatusBadRequest)
	})

	if one := e.approve(b.ID, e.sign(7, b.SafeTxHash)); one == nil || one.Ready {
		t.Fatalf("after one owner: %+v", one)
	}
	two := e.approve(b.ID, e.sign(devchain.OwnerIndex, b.SafeTxHash))
	if two == nil || !two.Ready || two.ExecData == nil {
		t.Fatalf("after two owners: %+v", two)
	}
	before := map[string]*big.Int{}
	for a := range want {
		bal, err := e.c.Balance(ctx, common.HexToAddress(a))
		if err != nil {
			t.Fatal(err)
		}
		before[a] = bal
	}
	exec := e.send(dc.Buyers[0].Key, dc.Treasury, common.FromHex(*two.ExecData), nil) // anyone may execute
	if exec.Status != types.ReceiptStatusSuccessful {
		t.Fatal("the batch reverted")
	}
	execTx := strings.ToLower(exec.TxHash.Hex())
	for a, w := range want {
		after, err := e.c.Balance(ctx, common.HexToAddress(a))
		if err != nil {
			t.Fatal(err)
		}
		if got := new(big.Int).Sub(after, before[a]); got.Cmp(w) != 0 {
			t.Errorf("%s received %s wei, want %s", a, got, w)
		}
	}
	e.pass()
	e.pass()
	if got := e.get(b.ID); got.Status != "executed" || got.ExecutedTx == nil || *got.ExecutedTx != execTx {
		t.Fatalf("executed: %+v", got)
	}
	if got := text(batchPage(), "batch-next"); !strings.Contains(got, "the treasury paid the 3 commission payouts, and 5 commissions are paid") {
		t.Errorf("the executed batch's page says %q", got)
	}
	paidRows := e.commissions("paid")
	if len(paidRows) != 5 || len(e.commissions("owed")) != 0 {
		t.Fatalf("paid %+v", paidRows)
	}
	for _, c := range paidRows {
		if c.PaidTx == nil || *c.PaidTx != execTx || c.Status != "paid" {
			t.Errorf("commission %+v, want paid by %s", c, execTx)
		}
	}
	if r := referrals(); r.OwedWei != "0" || r.PaidWei != want[addr(3)].String() || r.Codes[0].PaidWei != r.PaidWei {
		t.Errorf("the owner's referrals after the batch: %+v", r)
	}
	// /me lists the transaction that paid it: when, what, and the transaction.
	mePage := page(t, owner.do(http.MethodGet, "/me", nil).Body)
	payout := mePage.Find(`[data-testid=referral-payout]`)
	if got := squash(payout.Text()); payout.Length() != 1 || !regexp.MustCompile(`^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})? UTC: 0\.0057 ETH, in 0x[0-9a-f]{4}…[0-9a-f]{4} \(block \d+\)$`).MatchString(got) ||
		payout.Find(`a[href$="`+execTx+`"], [title="`+execTx+`"]`).Length() == 0 {
		t.Errorf("/me's payouts: %q", got)
	}
	if got := mePage.Find(`[data-testid=copy-referral-link]`).AttrOr("data-copy", ""); got != "http://127.0.0.1:8080/buy?ref=Duo" {
		t.Errorf("the Copy link button copies %q", got)
	}

	// A code that expired is marked so, and the link shares none.
	mustExec(t, db, `UPDATE referral_codes SET expires_at = now() - interval '1 minute' WHERE lower(code) = 'duo'`)
	mePage = page(t, owner.do(http.MethodGet, "/me", nil).Body)
	if got := text(mePage, "code-lapsed"); !strings.HasPrefix(got, "(expired ") {
		t.Errorf("the expired code says %q", got)
	}
	if mePage.Find(`[data-testid=referral-link]`).Length() != 0 {
		t.Error("/me shares the link of an expired code")
	}
	// Holding no node, the wallet reads its referrals above its figures, all zero.
	if html, _ := mePage.Find("main").Html(); strings.Index(html, `data-testid="me-referrals"`) > strings.Index(html, `data-testid="me-balance"`) {
		t.Error("the referrals come after the zero figures")
	}

	// Each commission was told to the webhook twice: earned at its mint, paid by the execution.
	events := map[string][]commissionDoc{}
	var rows []struct {
		Type string `db:"type"`
		Doc  []byte `db:"doc"`
	}
	if err := db.DB().Select(&rows, `SELECT type, data -> 'data' -> 'commission' AS doc FROM webhook_events ORDER BY id`); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		var c commissionDoc
		if err := json.Unmarshal(r.Doc, &c); err != nil {
			t.Fatalf("%s: %s", r.Type, r.Doc)
		}
		events[r.Type] = append(events[r.Type], c)
	}
	if earned, paid := events["referral.earned"], events["referral.paid"]; len(earned) != 5 || len(paid) != 5 || len(events) != 2 {
		t.Fatalf("events %+v", events)
	} else {
		for i := range earned {
			if earned[i].Status != "owed" || earned[i].PaidTx != nil || earned[i].AmountWei != owed[i].AmountWei ||
				paid[i].ID != earned[i].ID || paid[i].Status != "paid" || paid[i].PaidTx == nil || *paid[i].PaidTx != execTx {
				t.Errorf("commission %d: earned %+v, paid %+v", i, earned[i], paid[i])
			}
		}
	}

	rec = e.s.adminDo(t, http.MethodGet, "/api/admin/exports/commissions.csv", "", adminKey)
	wantStatus(t, rec, http.StatusOK)
	csvRows, err := csv.NewReader(rec.Body).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if want := "id,payment_tx,code,referrer,role,amount_eth,amount_wei,status,paid_tx,created_at,token,symbol,decimals,token_amount"; strings.Join(csvRows[0], ",") != want {
		t.Fatalf("header %v", csvRows[0])
	}
	if len(csvRows) != 6 || csvRows[1][2] != "Duo" || csvRows[1][4] != "owner" || csvRows[1][5] != "0.00285" ||
		csvRows[1][7] != "paid" || csvRows[1][8] != execTx || csvRows[1][1] != paid[0] {
		t.Errorf("commissions.csv %v", csvRows)
	}

	t.Run("a reorg below the execution", func(t *testing.T) {
		// The ledger remembers another block where the execution was: the pass rewinds below it,
		// the commissions are owed again (referral.paid reverted), and reading the chain's blocks
		// again pays them anew with the same execution.
		fake := "0x" + strings.Repeat("ab", 32)
		mustExec(t, db, `UPDATE scanned_blocks SET hash = $1 WHERE scanner = 'payments' AND number >= $2`, fake, exec.BlockNumber.Int64())
		mustExec(t, db, `UPDATE chain_cursors SET block_hash = $1 WHERE name = 'payments'`, fake)
		if sum := e.pass(); sum.Rewound == 0 {
			t.Fatalf("pass %+v: want a rewind", sum)
		}
		var types []string
		if err := db.DB().Select(&types, `SELECT type FROM webhook_events WHERE type LIKE 'referral.paid%' ORDER BY id`); err != nil {
			t.Fatal(err)
		}
		if len(types) != 15 || types[5] != "referral.paid.reverted" || types[9] != "referral.paid.reverted" || types[10] != "referral.paid" {
			t.Fatalf("events %v, want 5 paid, 5 reverted, 5 paid again", types)
		}
		if paid := e.commissions("paid"); len(paid) != 5 || *paid[0].PaidTx != execTx {
			t.Fatalf("after the reorg: paid %+v", paid)
		}
	})

	rs, err := db.AuditLog(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	var proposed, executed bool
	for _, r := range rs {
		proposed = proposed || r.Outcome.Code == store.OutcomeBatchProposed && r.Outcome.Args.Referrers == 3 && r.Outcome.Args.Commissions == 5
		executed = executed || r.Outcome.Code == store.OutcomeBatchExecuted && r.Outcome.Args.Kind == store.BatchCommissions
	}
	if !proposed || !executed {
		t.Errorf("the audit: %+v", rs)
	}
}

// TestPayCommissionsFromPage: "Pay owed commissions" on the operator page builds the commission
// batch as the admin API does, for an operator; a viewer, or a post without the session's CSRF
// token, builds nothing; with nothing owed outside a batch the button is gone and a post says so.
func TestPayCommissionsFromPage(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	e := newRefundEnv(t, db)
	owner := strings.ToLower(e.dc.Buyers[3].Address.Hex())
	wantStatus(t, e.s.adminDo(t, http.MethodPost, "/api/admin/referral-codes",
		`{"code": "Page1", "owner": "`+owner+`", "discountBps": 0, "commissionBps": 1000}`, adminKey), http.StatusCreated)
	if _, _, err := e.j.Sale().Bind(t.Context(), strings.ToLower(e.dc.Buyers[0].Address.Hex()), "Page1", store.SignIn{}); err != nil {
		t.Fatal(err)
	}
	e.pay(0, 1e17)
	for range 3 {
		e.pass()
	}
	op := signedInAs(t, e.s, addOperator(t, db, "operator"))
	viewer := signedInAs(t, e.s, addOperator(t, db, "viewer"))
	if got := text(op.operatorPage(), "commissions-owed"); got != "Commissions owed: 0.01 ETH." {
		t.Fatalf("the treasury card says %q", got)
	}
	if viewer.operatorPage().Find(`[data-testid=pay-commissions]`).Length() != 0 {
		t.Error("a viewer is offered to pay commissions")
	}
	wantStatus(t, viewer.form("/operator/treasury-batches", url.Values{"kind": {"commissions"}}), http.StatusForbidden)
	wantStatus(t, op.form("/operator/treasury-batches", url.Values{"kind": {"commissions"}, "csrf": {"wrong"}}), http.StatusForbidden)
	if n := len(e.commissions("owed")); n != 1 {
		t.Fatalf("%d owed", n)
	}
	if got, err := db.TreasuryBatches(t.Context(), 10); err != nil || len(got) != 0 {
		t.Fatalf("batches after refused posts: %d %v", len(got), err)
	}

	if op.operatorPage().Find(`[data-testid=pay-commissions] button`).Length() != 1 {
		t.Fatal("no Pay owed commissions button for an operator")
	}
	rec := op.form("/operator/treasury-batches", url.Values{"kind": {"commissions"}})
	wantStatus(t, rec, http.StatusSeeOther)
	loc := rec.Header().Get("Location")
	var id int64
	if _, err := fmt.Sscanf(loc, "/operator/treasury-batches/%d", &id); err != nil {
		t.Fatalf("redirected to %q", loc)
	}
	b := e.get(id)
	if b.TotalWei != "10000000000000000" || b.Status != "proposed" {
		t.Fatalf("the batch %+v", b)
	}
	if got := text(page(t, op.do(http.MethodGet, loc, nil).Body), "batch-transfers"); !strings.Contains(got, owner) {
		t.Errorf("the batch's page lists %q", got)
	}
	rec = op.form("/operator/treasury-batches", url.Values{"kind": {"commissions"}})
	wantStatus(t, rec, http.StatusBadRequest)
	if !strings.Contains(rec.Body.String(), "No commission is owed outside a batch") {
		t.Errorf("a second press: %s", rec.Body)
	}
}
