package web

import (
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"nodeledger/chain/devchain"
	"nodeledger/store"
)

// refundedByHandEnv is two wrong payments in a refund batch that two owners signed (ready, its
// execTransaction calldata in hand), and then the first refunded by hand from the payments wallet
// and seen by the payments pass: where issue 48 §1 paid the buyer twice.
type refundedByHandEnv struct {
	*refundEnv
	wrong    []string
	values   []int64
	batch    refundBatchDoc
	execData []byte // what an owner kept of the ready batch
	handTx   string
	handAt   int64
}

func newRefundedByHand(t *testing.T) *refundedByHandEnv {
	e := &refundedByHandEnv{refundEnv: newRefundEnv(t), values: []int64{150_000_000_000_000_000, 250_000_000_000_000_000}}
	for i, v := range e.values {
		e.wrong = append(e.wrong, e.pay(i, v))
	}
	if sum := e.pass(); sum.Rejected != 2 {
		t.Fatalf("pass %+v", sum)
	}
	rec := e.s.adminDo(t, http.MethodPost, "/api/admin/refund-batches", `{"payments": "all"}`, adminKey)
	wantStatus(t, rec, http.StatusCreated)
	e.batch = decode[refundBatchDoc](t, rec)
	e.approve(e.batch.ID, e.sign(7, e.batch.SafeTxHash))
	ready := e.approve(e.batch.ID, e.sign(devchain.OwnerIndex, e.batch.SafeTxHash))
	if ready == nil || ready.ExecData == nil {
		t.Fatalf("after two owners: %+v", ready)
	}
	e.execData = common.FromHex(*ready.ExecData)

	// The operator refunds the first by hand from the payments wallet, as the page without a
	// treasury does.
	r := e.send(e.dc.Accounts[devchain.PaymentsIndex].Key, e.dc.Buyers[0].Address, nil, big.NewInt(e.values[0]))
	e.handTx, e.handAt = strings.ToLower(r.TxHash.Hex()), r.BlockNumber.Int64()
	if sum := e.pass(); sum.Refunded != 1 {
		t.Fatalf("pass %+v: want the refund by hand matched", sum)
	}
	return e
}

// TestRefundByHandVoidsItsBatch: a batch whose payment is refunded by hand before it executes is
// void, says which payment and where, takes no approval (409) and shows no execution; the page
// proposes the rest again in one click, at the treasury's nonce, and that batch pays the second
// buyer once: the first buyer is paid back once, by hand, and nothing is unexplained.
func TestRefundByHandVoidsItsBatch(t *testing.T) {
	e := newRefundedByHand(t)
	b := e.get(e.batch.ID)
	if b.Status != "void" || b.ExecData != nil || b.Ready {
		t.Fatalf("after the refund by hand the batch is %+v", b)
	}
	rec := e.s.adminDo(t, http.MethodGet, fmt.Sprintf("/api/admin/refund-batches/%d", b.ID), "", adminKey)
	why := decode[struct {
		Code   *string `json:"voidReasonCode"`
		Reason *string `json:"voidReason"`
	}](t, rec)
	if why.Code == nil || *why.Code != "refunded_elsewhere" || why.Reason == nil || !strings.Contains(*why.Reason, e.wrong[0]) ||
		!strings.Contains(*why.Reason, e.handTx) || !strings.Contains(*why.Reason, fmt.Sprintf("block %d", e.handAt)) {
		t.Fatalf("void because %+v", why)
	}
	if p := e.paymentDoc(e.wrong[0]); p.Status != store.BuyerRefunded || p.RefundTxHash == nil || *p.RefundTxHash != e.handTx {
		t.Fatalf("the first payment %+v", p)
	}
	if p := e.paymentDoc(e.wrong[1]); p.Status != store.BuyerRejected || p.Refund != nil {
		t.Fatalf("the second payment is owed again, not in a batch: %+v (refund %+v)", p, p.Refund)
	}
	rec = e.s.adminDo(t, http.MethodPost, fmt.Sprintf("/api/admin/refund-batches/%d/approvals", b.ID), `{"signature": "`+e.sign(8, b.SafeTxHash)+`"}`, adminKey)
	wantStatus(t, rec, http.StatusConflict)
	if msg := errorMessage(t, rec); !strings.Contains(msg, e.wrong[0]) || !strings.Contains(msg, "void") {
		t.Fatalf("approval of a void batch: %q", msg)
	}
	if rs, err := db.AuditLog(t.Context(), 5); err != nil || !auditHas(rs, store.OutcomeRefundBatchVoidRefunded, b.ID) {
		t.Fatalf("the audit %+v (%v), want the batch void for the refund by hand", rs, err)
	}

	op := signedInAs(t, e.s, addOperator(t, "operator"))
	loc := fmt.Sprintf("/operator/refund-batches/%d", b.ID)
	rec = op.do(http.MethodGet, loc, nil)
	wantStatus(t, rec, http.StatusOK)
	doc := page(t, rec.Body)
	if got := text(doc, "void-why"); !strings.Contains(got, e.wrong[0]) || !strings.Contains(got, e.handTx) {
		t.Fatalf("the page says %q", got)
	}
	if doc.Find(`[data-testid=execute-batch]`).Length()+doc.Find(`[data-testid=sign-batch]`).Length() != 0 {
		t.Fatal("a void batch's page offers to sign or execute it")
	}
	rest := doc.Find(`[data-testid=propose-rest] input[name=payment]`)
	if rest.Length() != 1 || rest.AttrOr("value", "") != e.wrong[1] {
		t.Fatalf("the rest to propose: %d inputs, first %q", rest.Length(), rest.AttrOr("value", ""))
	}

	// One click: the form posts the rest as the operator page's batch form does.
	rec = op.form("/operator/refund-batches", url.Values{"payment": {e.wrong[1]}})
	wantStatus(t, rec, http.StatusSeeOther)
	var again int64
	fmt.Sscanf(strings.TrimPrefix(rec.Header().Get("Location"), "/operator/refund-batches/"), "%d", &again)
	next := e.get(again)
	if next.SafeTx.Nonce != b.SafeTx.Nonce || len(next.Refunds) != 1 || next.Refunds[0].TxHash != e.wrong[1] {
		t.Fatalf("the rest proposed again: %+v", next)
	}
	e.approve(again, e.sign(7, next.SafeTxHash))
	ready := e.approve(again, e.sign(devchain.OwnerIndex, next.SafeTxHash))
	if ready == nil || ready.ExecData == nil {
		t.Fatalf("the rest after two owners: %+v", ready)
	}
	if r := e.send(e.dc.Buyers[4].Key, e.dc.Treasury, common.FromHex(*ready.ExecData), nil); r.Status != types.ReceiptStatusSuccessful {
		t.Fatal("the rest's batch reverted")
	}
	// The void batch's signatures were for the same nonce: the treasury refuses them now.
	if r := e.send(e.dc.Buyers[4].Key, e.dc.Treasury, e.execData, nil); r.Status != types.ReceiptStatusFailed {
		t.Fatal("the void batch executed after the rest took its nonce")
	}
	e.pass()
	e.pass()
	if got := e.get(again); got.Status != "executed" {
		t.Fatalf("the rest's batch %+v", got)
	}
	if got := e.get(b.ID); got.Status != "void" {
		t.Fatalf("the void batch became %q", got.Status)
	}
	if p := e.paymentDoc(e.wrong[1]); p.Status != store.BuyerRefunded {
		t.Fatalf("the second payment %+v", p)
	}
	if out, err := db.UnexplainedOutflows(t.Context(), 10); err != nil || len(out) != 0 {
		t.Fatalf("unexplained outflows %+v (%v), want none", out, err)
	}
}

// TestRefundPaidTwiceIsUnexplained: a void batch's signatures still execute it while its nonce
// is the treasury's (the Safe knows nothing of the ledger): the chain is right, so the ledger
// records it executed, refunds the payment still owed with it, and shows the second payout to the
// buyer refunded by hand as unexplained, on the operator page and in the drift report. The rest's
// batch, proposed at the same nonce, is void.
func TestRefundPaidTwiceIsUnexplained(t *testing.T) {
	e := newRefundedByHand(t)
	rec := e.s.adminDo(t, http.MethodPost, "/api/admin/refund-batches", `{"payments": ["`+e.wrong[1]+`"]}`, adminKey)
	wantStatus(t, rec, http.StatusCreated)
	rest := decode[refundBatchDoc](t, rec)

	exec := e.send(e.dc.Buyers[4].Key, e.dc.Treasury, e.execData, nil)
	if exec.Status != types.ReceiptStatusSuccessful {
		t.Fatal("the kept signatures did not execute the void batch")
	}
	e.pass()
	e.pass()
	if got := e.get(e.batch.ID); got.Status != "executed" || got.ExecutedTx == nil || *got.ExecutedTx != strings.ToLower(exec.TxHash.Hex()) {
		t.Fatalf("the void batch the chain executed: %+v", got)
	}
	if got := e.get(rest.ID); got.Status != "void" {
		t.Fatalf("the rest's batch at the same nonce: %q", got.Status)
	}
	if p := e.paymentDoc(e.wrong[1]); p.Status != store.BuyerRefunded || p.RefundTxHash == nil || *p.RefundTxHash != strings.ToLower(exec.TxHash.Hex()) {
		t.Fatalf("the second payment %+v", p)
	}
	if p := e.paymentDoc(e.wrong[0]); p.RefundTxHash == nil || *p.RefundTxHash != e.handTx {
		t.Fatalf("the first payment's refund is still the one by hand: %+v", p)
	}
	out, err := db.UnexplainedOutflows(t.Context(), 10)
	if err != nil || len(out) != 1 {
		t.Fatalf("unexplained outflows %+v (%v), want the second payout", out, err)
	}
	if o := out[0]; o.Source != store.OutflowTreasury || o.Payment == nil || *o.Payment != e.wrong[0] || o.ValueWei.Int64() != e.values[0] ||
		o.TxHash != strings.ToLower(exec.TxHash.Hex()) || o.To != strings.ToLower(e.dc.Buyers[0].Address.Hex()) {
		t.Fatalf("the second payout %+v", o)
	}
	rec = e.s.adminDo(t, http.MethodGet, "/api/admin/drift", "", adminKey)
	wantStatus(t, rec, http.StatusOK)
	if d := decode[struct {
		Unexplained int `json:"unexplainedOutflows"`
	}](t, rec); d.Unexplained != 1 {
		t.Fatalf("the drift report counts %d unexplained outflows", d.Unexplained)
	}
	doc := signedInAs(t, e.s, addOperator(t, "viewer")).operatorPage()
	if got := text(doc, "second-refund"); !strings.Contains(got, "second refund of payment") {
		t.Fatalf("the operator page says %q", got)
	}
}

// TestUnmatchedTransferOutIsUnexplained: ETH out of the payments wallet that refunds no payment
// and is no sweep is listed as unexplained.
func TestUnmatchedTransferOutIsUnexplained(t *testing.T) {
	e := newRefundEnv(t)
	r := e.send(e.dc.Accounts[devchain.PaymentsIndex].Key, e.dc.Buyers[3].Address, nil, big.NewInt(12345))
	e.pass()
	out, err := db.UnexplainedOutflows(t.Context(), 10)
	if err != nil || len(out) != 1 || out[0].Source != store.OutflowPaymentsWallet || out[0].TxHash != strings.ToLower(r.TxHash.Hex()) ||
		out[0].ValueWei.Int64() != 12345 || out[0].Payment != nil {
		t.Fatalf("unexplained outflows %+v (%v)", out, err)
	}
}

// auditHas tells whether rs holds an entry of code for batch.
func auditHas(rs []store.AuditRecord, code store.AuditOutcomeCode, batch int64) bool {
	for _, r := range rs {
		if r.Outcome.Code == code && r.Outcome.Args.Batch == batch {
			return true
		}
	}
	return false
}
