package web

import (
	"crypto/ecdsa"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/params"
	"github.com/holiman/uint256"

	"nodeledger/chain"
	"nodeledger/chain/bindings"
	"nodeledger/chain/devchain"
	"nodeledger/jobs"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// refundedByHandEnv is two wrong payments in a refund batch that two owners signed (ready, its
// execTransaction calldata in hand), and then the first refunded by hand from the payments wallet
// and seen by the payments pass: where issue 48 §1 paid the buyer twice.
type refundedByHandEnv struct {
	*refundEnv
	wrong    []string
	values   []int64
	batch    batchDoc
	execData []byte // what an owner kept of the ready batch
	handTx   string
	handAt   int64
}

func newRefundedByHand(t *testing.T, db *store.Store) *refundedByHandEnv {
	e := &refundedByHandEnv{refundEnv: newRefundEnv(t, db), values: []int64{150_000_000_000_000_000, 250_000_000_000_000_000}}
	for i, v := range e.values {
		e.wrong = append(e.wrong, e.pay(i, v))
	}
	if sum := e.pass(); sum.Rejected != 2 {
		t.Fatalf("pass %+v", sum)
	}
	rec := e.s.adminDo(t, http.MethodPost, "/api/admin/refund-batches", `{"payments": "all"}`, adminKey)
	wantStatus(t, rec, http.StatusCreated)
	e.batch = decode[batchDoc](t, rec)
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
	// Until the pass confirms that refund, the batch is still ready, but held: no execData, and
	// the page offers no Execute, since executed now it would pay the first buyer twice.
	held := e.get(e.batch.ID)
	if held.Status != "ready" || held.ExecData != nil || held.HeldBy == nil || held.HeldBy.Payment != e.wrong[0] ||
		held.HeldBy.RefundTx != e.handTx || held.HeldBy.BlockNumber != e.handAt {
		t.Fatalf("with the refund by hand at the head, the batch is %+v (held by %+v)", held, held.HeldBy)
	}
	op := signedInAs(t, e.s, addOperator(t, db, "operator"))
	doc := page(t, op.do(http.MethodGet, fmt.Sprintf("/operator/refund-batches/%d", e.batch.ID), nil).Body)
	if got := text(doc, "batch-held"); !strings.Contains(got, e.wrong[0]) || !strings.Contains(got, "would pay it twice") ||
		doc.Find(`[data-testid=execute-batch]`).Length() != 0 {
		t.Fatalf("the held batch's page says %q", got)
	}
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
	t.Parallel()
	db := storetest.New(t)
	e := newRefundedByHand(t, db)
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
	if rs, err := db.AuditLog(t.Context(), 5); err != nil || !auditHas(rs, store.OutcomeBatchVoidRefunded, b.ID) {
		t.Fatalf("the audit %+v (%v), want the batch void for the refund by hand", rs, err)
	}

	op := signedInAs(t, e.s, addOperator(t, db, "operator"))
	loc := fmt.Sprintf("/operator/treasury-batches/%d", b.ID)
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
	rec = op.form("/operator/treasury-batches", url.Values{"kind": {"refunds"}, "payment": {e.wrong[1]}})
	wantStatus(t, rec, http.StatusSeeOther)
	var again int64
	fmt.Sscanf(strings.TrimPrefix(rec.Header().Get("Location"), "/operator/treasury-batches/"), "%d", &again)
	next := e.get(again)
	if next.SafeTx.Nonce != b.SafeTx.Nonce || len(next.Refunds) != 1 || next.Refunds[0].TxHash != e.wrong[1] {
		t.Fatalf("the rest proposed again: %+v", next)
	}
	if r := e.execute(again, next.SafeTxHash); r.Status != types.ReceiptStatusSuccessful {
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
	t.Parallel()
	db := storetest.New(t)
	e := newRefundedByHand(t, db)
	rec := e.s.adminDo(t, http.MethodPost, "/api/admin/refund-batches", `{"payments": ["`+e.wrong[1]+`"]}`, adminKey)
	wantStatus(t, rec, http.StatusCreated)
	rest := decode[batchDoc](t, rec)

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
	if o := out[0]; o.Source != store.WalletTreasury || o.Payment == nil || *o.Payment != e.wrong[0] || o.ValueWei.Int64() != e.values[0] ||
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
	doc := signedInAs(t, e.s, addOperator(t, db, "viewer")).operatorPage()
	if got := text(doc, "second-refund"); !strings.Contains(got, "second refund of payment") {
		t.Fatalf("the operator page says %q", got)
	}

	// A reorg below the execution, and above the refund by hand, opens the batch again: holding a
	// payment refunded by hand, it is void again at once, not ready to pay that buyer once more.
	below := exec.BlockNumber.Int64() - 1
	header, err := ethclient.NewClient(e.dc.RPC()).HeaderByNumber(t.Context(), big.NewInt(below))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.RewindScan(t.Context(), store.PaymentsScanner, below, strings.ToLower(header.Hash().Hex())); err != nil {
		t.Fatal(err)
	}
	var after struct {
		Status string  `db:"status"`
		Reason *string `db:"void_reason"`
	}
	if err := db.DB().Get(&after, `SELECT status, void_reason FROM treasury_batches WHERE id = $1`, e.batch.ID); err != nil {
		t.Fatal(err)
	}
	if after.Status != "void" || after.Reason == nil || *after.Reason != "refunded_elsewhere" {
		t.Fatalf("after a reorg below its execution the batch is %+v", after)
	}
}

// TestUnmatchedTransferOutIsUnexplained: ETH out of the payments wallet that refunds no payment
// and is no sweep is listed as unexplained.
func TestUnmatchedTransferOutIsUnexplained(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	e := newRefundEnv(t, db)
	r := e.send(e.dc.Accounts[devchain.PaymentsIndex].Key, e.dc.Buyers[3].Address, nil, big.NewInt(12345))
	e.pass()
	out, err := db.UnexplainedOutflows(t.Context(), 10)
	if err != nil || len(out) != 1 || out[0].Source != store.WalletPayments || out[0].TxHash != strings.ToLower(r.TxHash.Hex()) ||
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

// leftOutDoc is a transfer a batch left out, as the admin API answers it.
type leftOutDoc struct {
	Payment    *string `json:"payment"`
	To         string  `json:"to"`
	AmountWei  string  `json:"amountWei"`
	ReasonCode string  `json:"reasonCode"`
	Reason     string  `json:"reason"`
	ChainSays  string  `json:"chainSays"`
}

// sendTx signs the transaction build makes at key's next nonce, sends it, and returns its
// receipt, or fails the test when it reverts.
func (e *refundEnv) sendTx(key *ecdsa.PrivateKey, build func(nonce uint64) types.TxData) *types.Receipt {
	e.t.Helper()
	ec := ethclient.NewClient(e.dc.RPC())
	nonce, err := ec.PendingNonceAt(e.t.Context(), crypto.PubkeyToAddress(key.PublicKey))
	if err != nil {
		e.t.Fatal(err)
	}
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(e.dc.ChainID()), build(nonce))
	if err != nil {
		e.t.Fatal(err)
	}
	if err := ec.SendTransaction(e.t.Context(), tx); err != nil {
		e.t.Fatal(err)
	}
	r := e.mined(tx.Hash())
	if r.Status != types.ReceiptStatusSuccessful {
		e.t.Fatalf("transaction %s reverted", tx.Hash())
	}
	return r
}

// deploy sends code's creation from key and returns the contract's address.
func (e *refundEnv) deploy(key *ecdsa.PrivateKey, code []byte) common.Address {
	e.t.Helper()
	return e.sendTx(key, func(nonce uint64) types.TxData {
		return &types.DynamicFeeTx{ChainID: e.dc.ChainID(), Nonce: nonce, GasTipCap: big.NewInt(params.GWei),
			GasFeeCap: big.NewInt(100 * params.GWei), Gas: 1_000_000, Data: code}
	}).ContractAddress
}

// delegate makes key's account run the contract at `to` as its own code (EIP-7702): a wallet
// that can still send, but now refuses whatever that contract refuses.
func (e *refundEnv) delegate(key *ecdsa.PrivateKey, to common.Address) {
	e.t.Helper()
	chainID := uint256.MustFromBig(e.dc.ChainID())
	e.sendTx(key, func(nonce uint64) types.TxData {
		// The sender authorises itself: the authorisation is checked after the transaction takes its nonce.
		auth, err := types.SignSetCode(key, types.SetCodeAuthorization{ChainID: *chainID, Address: to, Nonce: nonce + 1})
		if err != nil {
			e.t.Fatal(err)
		}
		return &types.SetCodeTx{ChainID: chainID, Nonce: nonce, GasTipCap: uint256.NewInt(params.GWei),
			GasFeeCap: uint256.NewInt(100 * params.GWei), Gas: 100_000, Value: uint256.NewInt(0), AuthList: []types.SetCodeAuthorization{auth}}
	})
}

// execute has two of the treasury's owners approve batch id (of Safe transaction hash) and a
// buyer send its execution, and returns the execution's receipt, whatever its status.
func (e *refundEnv) execute(id int64, hash string) *types.Receipt {
	e.t.Helper()
	e.approve(id, e.sign(7, hash))
	ready := e.approve(id, e.sign(devchain.OwnerIndex, hash))
	if ready == nil || ready.ExecData == nil {
		e.t.Fatalf("after two owners: %+v", ready)
	}
	return e.send(e.dc.Buyers[4].Key, e.dc.Treasury, common.FromHex(*ready.ExecData), nil)
}

// TestRefundAllLeavesOutARefuser: a stranger pays 1 wei, then makes their wallet refuse ETH (an
// EIP-7702 delegation to a contract that reverts on receiving): "Refund all owed" simulates each
// transfer first, leaves theirs out with why, and the batch of the others executes; without the
// simulation the whole Safe transaction reverted (GS013) on every batch that held it.
func TestRefundAllLeavesOutARefuser(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	e := newRefundEnv(t, db)
	dc := e.dc
	good := []string{e.pay(0, 150_000_000_000_000_000), e.pay(1, 250_000_000_000_000_000)}
	stranger := e.pay(2, 1)
	rejecter := e.deploy(dc.Buyers[5].Key, common.FromHex(bindings.RejecterMetaData.Bin))
	e.delegate(dc.Buyers[2].Key, rejecter)
	if sum := e.pass(); sum.Rejected != 3 {
		t.Fatalf("pass %+v", sum)
	}
	// Each ETH payment is booked at the feed's price of its block (the dev feed's $3,000).
	var unbooked int
	if err := db.DB().Get(&unbooked, `SELECT count(*) FROM payments WHERE usd_per_eth IS DISTINCT FROM 3000`); err != nil || unbooked != 0 {
		t.Fatalf("%d payments without the feed's price at their block (%v)", unbooked, err)
	}
	if _, err := ethclient.NewClient(dc.RPC()).CallContract(t.Context(), ethereum.CallMsg{From: dc.Treasury, To: &dc.Buyers[2].Address,
		Value: big.NewInt(1)}, nil); err == nil {
		t.Fatal("the stranger's wallet takes ETH: the attack is not set up")
	}

	rec := e.s.adminDo(t, http.MethodPost, "/api/admin/refund-batches", `{"payments": "all"}`, adminKey)
	wantStatus(t, rec, http.StatusCreated)
	b := decode[struct {
		batchDoc
		LeftOut   []leftOutDoc `json:"leftOut"`
		Remaining int          `json:"remaining"`
	}](t, rec)
	if len(b.Refunds) != 2 || b.Refunds[0].TxHash != good[0] || b.Refunds[1].TxHash != good[1] || b.Remaining != 0 {
		t.Fatalf("the batch %+v", b.batchDoc)
	}
	payer := strings.ToLower(dc.Buyers[2].Address.Hex())
	if len(b.LeftOut) != 1 || b.LeftOut[0].Payment == nil || *b.LeftOut[0].Payment != stranger || b.LeftOut[0].To != payer ||
		b.LeftOut[0].AmountWei != "1" || b.LeftOut[0].ReasonCode != "cannot_receive_eth" || b.LeftOut[0].ChainSays != "no" ||
		!strings.Contains(b.LeftOut[0].Reason, "cannot receive ETH") || !strings.Contains(b.LeftOut[0].Reason, "by hand") {
		t.Fatalf("left out %+v", b.LeftOut)
	}
	if r := e.execute(b.ID, b.SafeTxHash); r.Status != types.ReceiptStatusSuccessful {
		t.Fatal("the batch reverted")
	}
	e.pass()
	e.pass()
	for _, h := range good {
		if p := e.paymentDoc(h); p.Status != store.BuyerRefunded {
			t.Fatalf("payment %s: %+v", h, p)
		}
	}
	if p := e.paymentDoc(stranger); p.Status != store.BuyerRejected {
		t.Fatalf("the stranger's payment %+v", p)
	}
	op := signedInAs(t, e.s, addOperator(t, db, "viewer"))
	rec = op.do(http.MethodGet, fmt.Sprintf("/operator/refund-batches/%d", b.ID), nil)
	wantStatus(t, rec, http.StatusOK)
	if got := text(page(t, rec.Body), "left-out"); !strings.Contains(got, stranger) || !strings.Contains(got, "cannot receive ETH") {
		t.Fatalf("the page says %q", got)
	}
	// Alone, it is no batch at all.
	rec = e.s.adminDo(t, http.MethodPost, "/api/admin/refund-batches", `{"payments": "all"}`, adminKey)
	wantStatus(t, rec, http.StatusConflict)
	if msg := errorMessage(t, rec); !strings.Contains(msg, stranger) || !strings.Contains(msg, "no batch was proposed") {
		t.Fatalf("%q", msg)
	}
}

// TestRefundAllBeyondTheGas: with more transfers owed than one transaction's gas allows
// (TREASURY_BATCH_MAX_GAS, here small), "all" proposes the first that fit, says how many remain,
// and executes.
func TestRefundAllBeyondTheGas(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	e := newRefundEnvWith(t, db, false, func(c *jobs.Config) { c.BatchMaxGas = 220_000 })
	var wrong []string
	for i := range 6 {
		wrong = append(wrong, e.pay(i%5, int64(100_000_000_000_000_001+i)))
	}
	if sum := e.pass(); sum.Rejected != 6 {
		t.Fatalf("pass %+v", sum)
	}
	rec := e.s.adminDo(t, http.MethodPost, "/api/admin/refund-batches", `{"payments": "all"}`, adminKey)
	wantStatus(t, rec, http.StatusCreated)
	b := decode[struct {
		batchDoc
		Remaining int `json:"remaining"`
	}](t, rec)
	n := len(b.Refunds)
	if n == 0 || n == 6 || b.Remaining != 6-n {
		t.Fatalf("%d refunds in the batch, %d remaining: want some, and the rest remaining", n, b.Remaining)
	}
	for i, r := range b.Refunds {
		if r.TxHash != wrong[i] {
			t.Fatalf("refund %d is %s, want the oldest first (%s)", i, r.TxHash, wrong[i])
		}
	}
	r := e.execute(b.ID, b.SafeTxHash)
	if r.Status != types.ReceiptStatusSuccessful || r.GasUsed > 220_000 {
		t.Fatalf("the batch's execution: status %d, %d gas (limit 220,000)", r.Status, r.GasUsed)
	}
}

// TestTreasuryOwnerSignsIn: an owner of the treasury who is not on the operator list signs in
// from a batch's link (signed out, the link is the sign-in, and comes back to the batch) as a
// signer: they see and sign the batch, and see nothing else, do nothing else; a wallet that is
// neither on the list nor an owner is refused.
func TestTreasuryOwnerSignsIn(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	e := newRefundEnv(t, db)
	e.pay(0, 150_000_000_000_000_000)
	e.pass()
	rec := e.s.adminDo(t, http.MethodPost, "/api/admin/refund-batches", `{"payments": "all"}`, adminKey)
	wantStatus(t, rec, http.StatusCreated)
	b := decode[batchDoc](t, rec)
	loc := fmt.Sprintf("/operator/treasury-batches/%d", b.ID)

	owner := newBrowser(t, e.s, "198.51.100.201")
	rec = owner.do(http.MethodGet, loc, nil)
	wantStatus(t, rec, http.StatusOK)
	signIn := page(t, rec.Body).Find(`[data-testid=operator-signin]`)
	if signIn.Length() != 1 || signIn.AttrOr("data-next", "") != loc {
		t.Fatalf("signed out, the batch's link shows %s", rec.Body)
	}

	stranger := newBrowser(t, e.s, "198.51.100.202")
	rec = stranger.operatorSignIn(e.dc.Buyers[3].Key)
	wantStatus(t, rec, http.StatusForbidden)
	if msg := errorMessage(t, rec); !strings.Contains(msg, "nor an owner of the treasury") {
		t.Fatalf("a stranger's sign-in: %q", msg)
	}

	rec = owner.operatorSignIn(e.dc.Accounts[8].Key)
	wantStatus(t, rec, http.StatusOK)
	if got := decode[struct {
		Role string `json:"role"`
	}](t, rec); got.Role != "signer" {
		t.Fatalf("the owner signed in as %q", got.Role)
	}
	doc := page(t, owner.do(http.MethodGet, loc, nil).Body)
	sign := doc.Find(`[data-testid=sign-batch]`)
	owner.csrf = sign.AttrOr("data-csrf", "")
	if sign.Length() != 1 || owner.csrf == "" || doc.Find(`[data-testid=not-an-owner]`).Length() != 0 {
		t.Fatalf("the owner's batch page: sign %d, csrf %q", sign.Length(), owner.csrf)
	}
	body := `{"signature": "` + e.sign(8, b.SafeTxHash) + `"}`
	rec = owner.send(httptest.NewRequest(http.MethodPost, loc+"/approvals", strings.NewReader(body)),
		"Content-Type", "application/json", "Accept", "application/json", "X-CSRF-Token", owner.csrf).ResponseRecorder
	wantStatus(t, rec, http.StatusOK)
	if got := e.get(b.ID); len(got.Approvals) != 1 || got.Approvals[0] != strings.ToLower(e.dc.Accounts[8].Address.Hex()) {
		t.Fatalf("approvals %v", got.Approvals)
	}

	// Nothing else: the operator page is the open batches, and every other route refuses.
	doc = page(t, owner.do(http.MethodGet, "/operator", nil).Body)
	if doc.Find(`[data-testid=signer-note]`).Length() != 1 || doc.Find(`[data-testid=open-batch]`).Length() != 1 ||
		doc.Find(`[data-testid=operator-tiers]`).Length()+doc.Find(`input[name=csrf]`).Length() != 0 {
		t.Fatalf("a signer's operator page: %s", doc.Find("main").Text())
	}
	for _, target := range []string{"/operator/live", "/operator/drift", "/operator/exports/payments.csv"} {
		if rec := owner.do(http.MethodGet, target, nil); rec.Code != http.StatusForbidden {
			t.Errorf("GET %s as a signer: %d", target, rec.Code)
		}
	}
	for _, target := range []string{"/operator/treasury-batches", "/operator/refund-batches", "/operator/passes/payments", "/operator/minting", "/operator/commission-batches"} {
		rec := owner.send(httptest.NewRequest(http.MethodPost, target, strings.NewReader("csrf="+owner.csrf)),
			"Content-Type", "application/x-www-form-urlencoded")
		if rec.Code != http.StatusForbidden {
			t.Errorf("POST %s as a signer: %d", target, rec.Code)
		}
	}
	if rs, err := db.AuditLog(t.Context(), 10); err != nil || !slices.ContainsFunc(rs, func(r store.AuditRecord) bool {
		return r.Outcome.Code == store.OutcomeSignedIn && r.Outcome.Args.Role == store.RoleSigner
	}) {
		t.Fatalf("the audit %+v (%v), want the signer's sign-in", rs, err)
	}
}

// TestRemovedOwnerSignatureDropped: two owners sign a batch, which is ready; then one of them is
// removed from the Safe by a module (a removal through the Safe's own transaction would take the
// batch's nonce and void it). The removed owner's signature no longer counts: the batch is no
// longer ready, its execData is withheld, the page marks the signature, and once a current owner
// signs, the execution carries the current owners' signatures alone and goes through. Executed
// with the removed owner's signature, the Safe refuses it (GS026).
func TestRemovedOwnerSignatureDropped(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	e := newRefundEnv(t, db)
	dc := e.dc
	safe := bindings.NewSafe()
	module := dc.Buyers[3]
	owner := func(i int) common.Address { return dc.Accounts[i].Address }

	// Before the batch: the Safe enables a module (an EOA here), at its nonce 0, signed by two owners.
	nonce, err := e.c.Safe(t.Context(), dc.Treasury)
	if err != nil {
		t.Fatal(err)
	}
	enable := chain.SafeTx{To: dc.Treasury, Value: new(big.Int), Data: safe.PackEnableModule(module.Address), SafeTxGas: new(big.Int),
		BaseGas: new(big.Int), GasPrice: new(big.Int), Nonce: nonce.Nonce}
	hash := enable.Hash(dc.ChainID(), dc.Treasury)
	sigs := map[common.Address][]byte{}
	for _, i := range []int{devchain.OwnerIndex, 7} {
		sigs[owner(i)] = common.FromHex(e.sign(i, hash.Hex()))
	}
	if r := e.send(dc.Buyers[5].Key, dc.Treasury, chain.ExecData(enable, sigs), nil); r.Status != types.ReceiptStatusSuccessful {
		t.Fatal("enabling the module reverted")
	}

	wrong := e.pay(0, 123)
	e.pass()
	rec := e.s.adminDo(t, http.MethodPost, "/api/admin/refund-batches", `{"payments": "all"}`, adminKey)
	wantStatus(t, rec, http.StatusCreated)
	b := decode[batchDoc](t, rec)
	e.approve(b.ID, e.sign(7, b.SafeTxHash))
	ready := e.approve(b.ID, e.sign(devchain.OwnerIndex, b.SafeTxHash))
	if ready == nil || !ready.Ready || ready.ExecData == nil {
		t.Fatalf("after two owners: %+v", ready)
	}
	kept := common.FromHex(*ready.ExecData)

	// The module removes owner 7 (its previous owner in the Safe's list is owner 0), threshold 2.
	owners, err := e.c.Safe(t.Context(), dc.Treasury)
	if err != nil {
		t.Fatal(err)
	}
	prev := common.HexToAddress("0x1") // the list's sentinel
	for i, o := range owners.Owners {
		if o == owner(7) && i > 0 {
			prev = owners.Owners[i-1]
		}
	}
	remove := safe.PackExecTransactionFromModule(dc.Treasury, new(big.Int), safe.PackRemoveOwner(prev, owner(7), big.NewInt(2)), 0)
	if r := e.send(module.Key, dc.Treasury, remove, nil); r.Status != types.ReceiptStatusSuccessful {
		t.Fatal("the module's removal reverted")
	}

	// The payments pass counts the approvals against the owners now, as every read does.
	e.pass()
	var status string
	if err := db.DB().Get(&status, `SELECT status FROM treasury_batches WHERE id = $1`, b.ID); err != nil || status != "proposed" {
		t.Fatalf("after the pass, the batch is %q (%v), want proposed", status, err)
	}
	// Read, the batch counts owner 0's signature alone: not ready, no execData.
	got := e.get(b.ID)
	removed := strings.ToLower(owner(7).Hex())
	if got.Ready || got.Status != "proposed" || got.ExecData != nil || len(got.Approvals) != 1 ||
		len(got.Dropped) != 1 || got.Dropped[0] != removed {
		t.Fatalf("after the owner's removal: %+v", got)
	}
	op := signedInAs(t, e.s, addOperator(t, db, "viewer"))
	doc := page(t, op.do(http.MethodGet, fmt.Sprintf("/operator/refund-batches/%d", b.ID), nil).Body)
	if got := text(doc, "owner-dropped"); !strings.Contains(got, removed) || !strings.Contains(got, "not counted") {
		t.Errorf("the batch page says %q of the removed owner", got)
	}
	if got := text(doc, "batch-approvals"); got != "1 of 2" {
		t.Errorf("the batch page counts %q", got)
	}
	// What an owner kept from when it was ready is refused by the Safe: the removed owner's
	// signature is not an owner's.
	if r := e.send(dc.Buyers[4].Key, dc.Treasury, kept, nil); r.Status != types.ReceiptStatusFailed {
		t.Fatal("the Safe took a removed owner's signature")
	}

	// A current owner signs: ready again, and the execution carries owners 0 and 8.
	again := e.approve(b.ID, e.sign(8, b.SafeTxHash))
	if again == nil || !again.Ready || again.ExecData == nil {
		t.Fatalf("after owner 8: %+v", again)
	}
	if r := e.send(dc.Buyers[4].Key, dc.Treasury, common.FromHex(*again.ExecData), nil); r.Status != types.ReceiptStatusSuccessful {
		t.Fatal("the execution with the current owners' signatures reverted")
	}
	e.pass()
	e.pass()
	if p := e.paymentDoc(wrong); p.Status != store.BuyerRefunded {
		t.Fatalf("the payment: %s", p.Status)
	}
	doc = page(t, op.do(http.MethodGet, fmt.Sprintf("/operator/refund-batches/%d", b.ID), nil).Body)
	if got := text(doc, "batch-receipt"); !strings.HasPrefix(got, "Paid. Executed in") || !strings.Contains(got, "1 refund") {
		t.Errorf("the executed batch's receipt %q", got)
	}
	if doc.Find("details[data-testid=batch-details] [data-testid=batch-transfers]").Length() != 1 {
		t.Error("the executed batch's transfers are not folded under its receipt")
	}
}
