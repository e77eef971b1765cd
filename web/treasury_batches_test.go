package web

import (
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/params"

	"nodeledger/chain"
	"nodeledger/chain/bindings"
	"nodeledger/chain/devchain"
	"nodeledger/handlers"
	"nodeledger/jobs"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// batchDoc is a treasury batch as the admin API answers it.
type batchDoc struct {
	ID     int64  `json:"id"`
	Kind   string `json:"kind"`
	Safe   string `json:"safe"`
	SafeTx struct {
		To             string `json:"to"`
		Value          string `json:"value"`
		Data           string `json:"data"`
		Operation      uint8  `json:"operation"`
		SafeTxGas      string `json:"safeTxGas"`
		BaseGas        string `json:"baseGas"`
		GasPrice       string `json:"gasPrice"`
		GasToken       string `json:"gasToken"`
		RefundReceiver string `json:"refundReceiver"`
		Nonce          string `json:"nonce"`
	} `json:"safeTx"`
	SafeTxHash string   `json:"safeTxHash"`
	Threshold  int      `json:"threshold"`
	Approvals  []string `json:"approvals"`
	Ready      bool     `json:"ready"`
	Status     string   `json:"status"`
	Refunds    []struct {
		TxHash    string             `json:"txHash"`
		To        string             `json:"to"`
		AmountWei string             `json:"amountWei"`
		InToken   *store.TokenAmount `json:"inToken"` // a token payment's refund
	} `json:"refunds"`
	TotalWei   string   `json:"totalWei"`
	ExecData   *string  `json:"execData"`
	SentTx     *string  `json:"sentTx"`
	ExecutedTx *string  `json:"executedTx"`
	Dropped    []string `json:"droppedApprovals"`
	HeldBy     *struct {
		Code        string   `json:"code"`
		Payment     string   `json:"payment"`
		RefundTx    string   `json:"refundTx"`
		BlockNumber int64    `json:"blockNumber"`
		Sanctioned  []string `json:"sanctioned"`
		Reason      string   `json:"reason"`
	} `json:"heldBy"`
	Attempts []struct {
		TxHash      string  `json:"txHash"`
		From        string  `json:"from"`
		Status      string  `json:"status"`
		BlockNumber *int64  `json:"blockNumber"`
		Error       *string `json:"error"`
		Reason      *string `json:"reason"`
		RefusedTo   *string `json:"refusedTo"`
		ReportedBy  string  `json:"reportedBy"`
	} `json:"attempts"`
}

// refundEnv is a sale on the dev chain with its treasury Safe (real Safe 1.4.1 contracts, owned
// by dev accounts 0, 7 and 8, threshold 2), the payments pass following it one block behind the
// head, and the admin API.
type refundEnv struct {
	t  *testing.T
	dc *devchain.Chain
	c  *chain.Client
	j  *jobs.Jobs
	s  *testServer
}

func newRefundEnv(t *testing.T, db *store.Store) *refundEnv { return newRefundEnvOf(t, db, false) }

// newRefundEnvOf is newRefundEnv, with the dev USDC listed as a payment token when usdc is set.
func newRefundEnvOf(t *testing.T, db *store.Store, usdc bool) *refundEnv {
	return newRefundEnvWith(t, db, usdc, nil)
}

// newRefundEnvWith is newRefundEnvOf with the passes' configuration changed by set (nil: as is).
func newRefundEnvWith(t *testing.T, db *store.Store, usdc bool, set func(*jobs.Config)) *refundEnv {
	storetest.Tier(t, db, 1, "Standard", "100000000000000000", true)
	// No empty blocks: a block comes with a transaction, or when a pass commits one (e.pass), so a
	// test reads the head as it left it however slow the machine.
	dc, c := startDevChainWith(t, devchain.Options{EmptyBlockInterval: time.Hour})
	var tokens []store.Token
	if usdc {
		tokens = []store.Token{{Address: strings.ToLower(dc.USDC.Hex()), Symbol: "USDC", Decimals: devchain.USDCDecimals}}
		if err := db.PutTokens(t.Context(), tokens); err != nil {
			t.Fatal(err)
		}
	}
	jcfg := jobs.Config{ChainID: dc.ChainID(), PaymentAddress: dc.Payments, Confirmations: 1, Treasury: dc.Treasury,
		MultiSend: dc.MultiSend, PaymentTokens: tokens}
	if set != nil {
		set(&jcfg)
	}
	j := jobs.New(db, c, chain.LocalSigner(dc.Minter.Key), chain.LocalSigner(dc.Distributor.Key), jcfg, slog.New(slog.DiscardHandler))
	s := newChainServer(t, db, c, j, handlers.Config{ChainID: dc.ChainID().Int64(), AdminKey: adminKey, Treasury: dc.Treasury,
		SessionSecret: sessionSecret, PaymentAddress: strings.ToLower(dc.Payments.Hex())})
	e := &refundEnv{t: t, dc: dc, c: c, j: j, s: s}
	e.send(dc.Buyers[5].Key, dc.Treasury, nil, new(big.Int).Mul(big.NewInt(10), big.NewInt(params.Ether))) // the sweeps' work
	return e
}

// pass runs the payments pass once a block follows everything sent (Confirmations 1).
func (e *refundEnv) pass() jobs.PaymentsSummary {
	e.t.Helper()
	e.dc.Commit()
	sum, err := e.j.Payments(e.t.Context())
	if err != nil {
		e.t.Fatal(err)
	}
	return sum
}

// send signs and sends a transaction with room for a revert, and returns its receipt whatever its
// status.
func (e *refundEnv) send(key *ecdsa.PrivateKey, to common.Address, data []byte, value *big.Int) *types.Receipt {
	e.t.Helper()
	return e.mined(e.submit(key, to, data, value, 0))
}

// submit signs and sends a transaction skip nonces past the sender's next one (a transaction
// sent with a gap waits in the pool until the gap is filled), and returns its hash.
func (e *refundEnv) submit(key *ecdsa.PrivateKey, to common.Address, data []byte, value *big.Int, skip uint64) common.Hash {
	e.t.Helper()
	ec := ethclient.NewClient(e.dc.RPC())
	nonce, err := ec.PendingNonceAt(e.t.Context(), crypto.PubkeyToAddress(key.PublicKey))
	if err != nil {
		e.t.Fatal(err)
	}
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(e.dc.ChainID()), &types.DynamicFeeTx{ChainID: e.dc.ChainID(),
		Nonce: nonce + skip, GasTipCap: big.NewInt(params.GWei), GasFeeCap: big.NewInt(100 * params.GWei), Gas: 600_000, To: &to,
		Value: value, Data: data})
	if err != nil {
		e.t.Fatal(err)
	}
	if err := ec.SendTransaction(e.t.Context(), tx); err != nil {
		e.t.Fatal(err)
	}
	return tx.Hash()
}

// mined waits for transaction hash's receipt.
func (e *refundEnv) mined(hash common.Hash) *types.Receipt {
	e.t.Helper()
	r, err := bind.WaitMined(e.t.Context(), ethclient.NewClient(e.dc.RPC()), hash)
	if err != nil {
		e.t.Fatal(err)
	}
	return r
}

// report tells the admin API that transaction hash was sent to execute batch id.
func (e *refundEnv) report(id int64, hash string) *httptest.ResponseRecorder {
	e.t.Helper()
	return e.s.adminDo(e.t, http.MethodPost, fmt.Sprintf("/api/admin/refund-batches/%d/executions", id), `{"txHash": "`+hash+`"}`, adminKey)
}

// pay sends a payment of wei from buyer i and returns its transaction hash.
func (e *refundEnv) pay(i int, wei int64) string {
	e.t.Helper()
	return strings.ToLower(e.send(e.dc.Buyers[i].Key, e.dc.Payments, nil, big.NewInt(wei)).TxHash.Hex())
}

// sign is dev account i's EIP-712 signature of a Safe transaction hash, as a wallet gives it.
func (e *refundEnv) sign(i int, hash string) string {
	e.t.Helper()
	sig, err := crypto.Sign(common.HexToHash(hash).Bytes(), e.dc.Accounts[i].Key)
	if err != nil {
		e.t.Fatal(err)
	}
	sig[64] += 27
	return hexutil.Encode(sig)
}

func (e *refundEnv) approve(id int64, sig string) *batchDoc {
	e.t.Helper()
	rec := e.s.adminDo(e.t, http.MethodPost, fmt.Sprintf("/api/admin/refund-batches/%d/approvals", id), `{"signature": "`+sig+`"}`, adminKey)
	if rec.Code != http.StatusOK {
		e.t.Logf("approval: %d %s\n%s", rec.Code, rec.Body, e.s.log)
		return nil
	}
	b := decode[batchDoc](e.t, rec)
	return &b
}

func (e *refundEnv) get(id int64) batchDoc {
	e.t.Helper()
	rec := e.s.adminDo(e.t, http.MethodGet, fmt.Sprintf("/api/admin/refund-batches/%d", id), "", adminKey)
	wantStatus(e.t, rec, http.StatusOK)
	return decode[batchDoc](e.t, rec)
}

// paymentDoc is GET /api/payments/{tx}.
func (e *refundEnv) paymentDoc(hash string) store.PaymentDoc {
	e.t.Helper()
	rec := e.s.get(e.t, "/api/payments/"+hash)
	wantStatus(e.t, rec, http.StatusOK)
	return decode[store.PaymentDoc](e.t, rec)
}

// TestRefundBatches: three wrong payments are refunded in one Safe transaction of the treasury
// that two of its owners approve: the admin key proposes and carries the signatures, a stranger's
// signature is refused, the transaction sent with one signature reverts and changes nothing,
// and with two it pays each buyer exactly back; the ledger marks the three refunded with that
// one transaction (the trackers and payment.refunded webhooks say so), and a reorg below it takes
// that back until the chain's blocks are read again.
func TestRefundBatches(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	e := newRefundEnv(t, db)
	ctx := t.Context()
	dc := e.dc
	values := []int64{150_000_000_000_000_000, 200_000_000_000_000_000, 250_000_000_000_000_000}
	var wrong []string
	for i, v := range values {
		wrong = append(wrong, e.pay(i, v))
	}
	if sum := e.pass(); sum.Rejected != 3 {
		t.Fatalf("pass %+v", sum)
	}
	addWebhook(t, db, store.EventPaymentRefunded)

	rec := e.s.adminDo(t, http.MethodPost, "/api/admin/refund-batches", `{"payments": ["`+strings.Join(wrong, `", "`)+`"]}`, adminKey)
	wantStatus(t, rec, http.StatusCreated)
	b := decode[batchDoc](t, rec)
	if b.Safe != strings.ToLower(dc.Treasury.Hex()) || b.SafeTx.To != strings.ToLower(dc.MultiSend.Hex()) || b.SafeTx.Operation != 1 ||
		b.SafeTx.Nonce != "0" || b.SafeTx.Value != "0" || b.SafeTx.SafeTxGas != "0" || b.Threshold != devchain.TreasuryThreshold ||
		len(b.Approvals) != 0 || b.Ready || b.Status != "proposed" || b.ExecData != nil || len(b.Refunds) != 3 || b.TotalWei != "600000000000000000" {
		t.Fatalf("proposed %+v", b)
	}
	for i, r := range b.Refunds {
		if r.TxHash != wrong[i] || r.To != strings.ToLower(dc.Buyers[i].Address.Hex()) || r.AmountWei != fmt.Sprint(values[i]) {
			t.Fatalf("refund %d: %+v", i, r)
		}
	}
	// The hash the owners sign is the Safe's own for the transaction the API shows.
	safe := bindings.NewSafe()
	data := common.FromHex(b.SafeTx.Data)
	out, err := ethclient.NewClient(dc.RPC()).CallContract(ctx, ethereum.CallMsg{To: &dc.Treasury, Data: safe.PackGetTransactionHash(
		common.HexToAddress(b.SafeTx.To), new(big.Int), data, b.SafeTx.Operation, new(big.Int), new(big.Int), new(big.Int),
		common.Address{}, common.Address{}, new(big.Int))}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if onChain, err := safe.UnpackGetTransactionHash(out); err != nil || hexutil.Encode(onChain[:]) != b.SafeTxHash {
		t.Fatalf("the Safe's hash %x, the API's %s", onChain, b.SafeTxHash)
	}

	t.Run("payments that cannot go in", func(t *testing.T) {
		rec := e.s.adminDo(t, http.MethodPost, "/api/admin/refund-batches", `{"payments": ["`+wrong[1]+`"]}`, adminKey)
		wantStatus(t, rec, http.StatusConflict)
		if msg := errorMessage(t, rec); !strings.Contains(msg, wrong[1]) || !strings.Contains(msg, fmt.Sprint("batch ", b.ID)) {
			t.Fatalf("%q", msg)
		}
		stranger := storetest.TxHash("no such payment")
		rec = e.s.adminDo(t, http.MethodPost, "/api/admin/refund-batches", `{"payments": ["`+stranger+`"]}`, adminKey)
		wantStatus(t, rec, http.StatusBadRequest)
		if msg := errorMessage(t, rec); !strings.Contains(msg, stranger) {
			t.Fatalf("%q", msg)
		}
		rec = e.s.adminDo(t, http.MethodPost, "/api/admin/refund-batches", `{"payments": "all"}`, adminKey)
		wantStatus(t, rec, http.StatusBadRequest)
		if msg := errorMessage(t, rec); !strings.Contains(msg, "nothing to refund") {
			t.Fatalf("%q", msg)
		}
		wantStatus(t, e.s.adminDo(t, http.MethodPost, "/api/admin/refund-batches", `{"payments": "some"}`, adminKey), http.StatusBadRequest)
		wantStatus(t, e.s.adminDo(t, http.MethodPost, "/api/admin/refund-batches", `{"payments": []}`, adminKey), http.StatusBadRequest)
		wantStatus(t, e.s.adminDo(t, http.MethodPost, "/api/admin/refund-batches", `{"payments": "all"}`, "wrong"), http.StatusUnauthorized)
	})
	t.Run("a stranger's signature", func(t *testing.T) {
		rec := e.s.adminDo(t, http.MethodPost, fmt.Sprintf("/api/admin/refund-batches/%d/approvals", b.ID),
			`{"signature": "`+e.sign(3, b.SafeTxHash)+`"}`, adminKey)
		wantStatus(t, rec, http.StatusBadRequest)
		if msg := errorMessage(t, rec); !strings.Contains(msg, "not one of the treasury's owners' signatures") {
			t.Fatalf("%q", msg)
		}
		// An owner's signature of another hash recovers to a stranger too.
		rec = e.s.adminDo(t, http.MethodPost, fmt.Sprintf("/api/admin/refund-batches/%d/approvals", b.ID),
			`{"signature": "`+e.sign(7, storetest.TxHash("another"))+`"}`, adminKey)
		wantStatus(t, rec, http.StatusBadRequest)
		wantStatus(t, e.s.adminDo(t, http.MethodPost, fmt.Sprintf("/api/admin/refund-batches/%d/approvals", b.ID),
			`{"signature": "0x1234"}`, adminKey), http.StatusBadRequest)
		if got := e.get(b.ID); len(got.Approvals) != 0 {
			t.Fatalf("approvals %v", got.Approvals)
		}
	})

	one := e.approve(b.ID, e.sign(7, b.SafeTxHash))
	owner7 := strings.ToLower(dc.Accounts[7].Address.Hex())
	if one == nil || !slices.Equal(one.Approvals, []string{owner7}) || one.Ready || one.Status != "proposed" || one.ExecData != nil {
		t.Fatalf("after one owner: %+v", one)
	}
	if again := e.approve(b.ID, e.sign(7, b.SafeTxHash)); again == nil || len(again.Approvals) != 1 {
		t.Fatalf("the same owner again: %+v", again)
	}
	if p := e.paymentDoc(wrong[0]); p.Status != store.BuyerRejected || p.Refund == nil || p.Refund.Status != store.RefundApproving ||
		p.Refund.Approvals != 1 || p.Refund.Threshold != 2 || p.Refund.TxHash != nil {
		t.Fatalf("the buyer reads %+v (refund %+v)", p, p.Refund)
	}
	tracker := page(t, e.s.get(t, "/payment/"+wrong[0]).Body)
	if got := text(tracker, "refund-progress"); !strings.Contains(got, "Your refund is being prepared: 1 of 2 approvals") {
		t.Fatalf("the tracker says %q", got)
	}
	if got := squash(text(tracker, "payment-reference")); got != "Reference: "+wrong[0]+" (quote it to support)" {
		t.Fatalf("the tracker's reference: %q", got)
	}

	t.Run("sent with too few signatures", func(t *testing.T) {
		sig := common.FromHex(e.sign(7, b.SafeTxHash))
		tx := chain.SafeTx{To: common.HexToAddress(b.SafeTx.To), Value: new(big.Int), Data: data, Operation: b.SafeTx.Operation, Nonce: new(big.Int)}
		calldata := chain.ExecData(tx, map[common.Address][]byte{dc.Accounts[7].Address: sig})
		_, err := ethclient.NewClient(dc.RPC()).CallContract(ctx, ethereum.CallMsg{From: dc.Buyers[4].Address, To: &dc.Treasury, Data: calldata}, nil)
		if err == nil || !strings.Contains(err.Error(), "GS020") {
			t.Fatalf("the Safe answers %v, want GS020 (signatures too short)", err)
		}
		// Sent one nonce ahead, it waits in the pool: reported, it is sent, and the pass follows it.
		hash := e.submit(dc.Buyers[4].Key, dc.Treasury, calldata, nil, 1)
		attempt := strings.ToLower(hash.Hex())
		rec := e.report(b.ID, attempt)
		wantStatus(t, rec, http.StatusOK)
		executor := strings.ToLower(dc.Buyers[4].Address.Hex())
		if got := decode[batchDoc](t, rec).Attempts; len(got) != 1 || got[0].TxHash != attempt || got[0].Status != "sent" ||
			got[0].From != executor || got[0].Error != nil || !strings.HasPrefix(got[0].ReportedBy, "admin key ") {
			t.Fatalf("reported: %+v", got)
		}
		e.send(dc.Buyers[4].Key, dc.Buyers[4].Address, nil, big.NewInt(1)) // fills the gap
		if r := e.mined(hash); r.Status != types.ReceiptStatusFailed {
			t.Fatal("one signature of a threshold of 2 executed the batch")
		}
		e.pass()
		// A revert takes no nonce and logs nothing: the batch stays open for the signatures it
		// lacks, and says what was tried and why it failed.
		got := e.get(b.ID)
		if got.Status != "proposed" || got.ExecutedTx != nil || got.SentTx != nil || len(got.Attempts) != 1 {
			t.Fatalf("after the revert: %+v", got)
		}
		if a := got.Attempts[0]; a.Status != "reverted" || a.Error == nil || *a.Error != "GS020" || a.BlockNumber == nil ||
			a.Reason == nil || !strings.Contains(*a.Reason, "fewer owners' signatures than the treasury's threshold") {
			t.Fatalf("the attempt after the revert: %+v", a)
		}
		if rs, err := db.AuditLog(ctx, 1); err != nil || len(rs) != 1 || rs[0].Actor != executor ||
			rs[0].Outcome.Code != store.OutcomeBatchReverted || rs[0].Outcome.Args.SafeError != "GS020" || rs[0].Outcome.Args.TxHash != attempt {
			t.Fatalf("the audit's newest entry %+v (%v), want the revert by its sender", rs, err)
		}
		// Reported again, it changes nothing and is audited once.
		wantStatus(t, e.report(b.ID, attempt), http.StatusOK)
		if rs, err := db.AuditLog(ctx, 2); err != nil || rs[1].Outcome.Code == store.OutcomeBatchReverted {
			t.Fatalf("the audit after a second report %+v (%v)", rs, err)
		}

		other := chain.SafeTx{To: dc.Buyers[5].Address, Value: big.NewInt(1), Nonce: new(big.Int)}
		otherHash := e.send(dc.Buyers[4].Key, dc.Treasury, chain.ExecData(other, map[common.Address][]byte{dc.Accounts[7].Address: sig}), nil).TxHash
		for _, c := range []struct{ hash, want string }{
			{"0x1234", "must be the hash of the transaction"},
			{"0x" + strings.Repeat("0", 64), "knows no transaction"},
			{wrong[0], "does not call the treasury's execTransaction"},
			{strings.ToLower(otherHash.Hex()), "executes another Safe transaction than treasury batch"},
		} {
			rec := e.report(b.ID, c.hash)
			wantStatus(t, rec, http.StatusBadRequest)
			if msg := errorMessage(t, rec); !strings.Contains(msg, c.want) {
				t.Fatalf("reporting %s: %q, want %q", c.hash, msg, c.want)
			}
		}
		wantStatus(t, e.report(b.ID+100, attempt), http.StatusNotFound)
		if got := e.get(b.ID); len(got.Attempts) != 1 {
			t.Fatalf("attempts after bad reports: %+v", got.Attempts)
		}
		if p := e.paymentDoc(wrong[0]); p.Status != store.BuyerRejected || p.Refund.Status != store.RefundApproving {
			t.Fatalf("after the revert the buyer reads %+v", p)
		}
	})

	two := e.approve(b.ID, e.sign(devchain.OwnerIndex, b.SafeTxHash))
	if two == nil || len(two.Approvals) != 2 || !two.Ready || two.Status != "ready" || two.ExecData == nil {
		t.Fatalf("after two owners: %+v", two)
	}
	before := make([]*big.Int, 3)
	for i := range before {
		if before[i], err = e.c.Balance(ctx, dc.Buyers[i].Address); err != nil {
			t.Fatal(err)
		}
	}
	exec := e.send(dc.Buyers[4].Key, dc.Treasury, common.FromHex(*two.ExecData), nil) // anyone may execute
	if exec.Status != types.ReceiptStatusSuccessful {
		t.Fatal("the batch reverted")
	}
	execTx := strings.ToLower(exec.TxHash.Hex())
	wantStatus(t, e.report(b.ID, execTx), http.StatusOK)
	for i := range before {
		after, err := e.c.Balance(ctx, dc.Buyers[i].Address)
		if err != nil {
			t.Fatal(err)
		}
		if got := new(big.Int).Sub(after, before[i]); got.Cmp(big.NewInt(values[i])) != 0 {
			t.Fatalf("buyer %d got %s wei back, want %d", i, got, values[i])
		}
	}

	// The execution's block is the head: the pass (one block behind) sees it sent, not yet refunded.
	if _, err := e.j.Payments(ctx); err != nil {
		t.Fatal(err)
	}
	if got := e.get(b.ID); got.Status != "ready" || got.SentTx == nil || *got.SentTx != execTx {
		t.Fatalf("sent, unconfirmed: %+v", got)
	}
	if p := e.paymentDoc(wrong[1]); p.Status != store.BuyerRejected || p.Refund.Status != store.RefundSent || *p.Refund.TxHash != execTx {
		t.Fatalf("sent: the buyer reads %+v", p.Refund)
	}
	if got := text(page(t, e.s.get(t, "/payment/"+wrong[1]).Body), "refund-progress"); !strings.Contains(got, "Refund sent") ||
		!strings.Contains(got, execTx[:6]+"…"+execTx[len(execTx)-4:]) {
		t.Fatalf("the tracker says %q", got)
	}

	e.pass()
	refunded := func(t *testing.T) {
		t.Helper()
		got := e.get(b.ID)
		if got.Status != "executed" || got.ExecutedTx == nil || *got.ExecutedTx != execTx || got.Ready || got.ExecData != nil {
			t.Fatalf("executed: %+v", got)
		}
		if n := len(got.Attempts); n != 2 || got.Attempts[1].TxHash != execTx || got.Attempts[1].Status != "mined" || got.Attempts[1].Error != nil {
			t.Fatalf("attempts: %+v", got.Attempts)
		}
		for _, h := range wrong {
			p := e.paymentDoc(h)
			if p.Status != store.BuyerRefunded || p.RefundTxHash == nil || *p.RefundTxHash != execTx || p.Refund == nil ||
				p.Refund.Status != store.RefundRefunded || *p.Refund.TxHash != execTx {
				t.Fatalf("payment %s: %+v (refund %+v)", h, p, p.Refund)
			}
		}
		if got := text(page(t, e.s.get(t, "/payment/"+wrong[2]).Body), "refund-progress"); !strings.Contains(got, "Refunded on ") ||
			!strings.Contains(got, "UTC") {
			t.Fatalf("the tracker says %q", got)
		}
	}
	refunded(t)
	events := refundEvents(t, db)
	if len(events) != 3 {
		t.Fatalf("payment.refunded events %v, want the three payments'", events)
	}
	for _, ev := range events {
		if ev.typ != "payment.refunded" || ev.refundTx != execTx || ev.refund != "refunded" {
			t.Fatalf("event %+v", ev)
		}
	}
	t.Run("audited with who did it", func(t *testing.T) {
		rs, err := db.AuditLog(ctx, 20)
		if err != nil {
			t.Fatal(err)
		}
		var actions []string
		for _, r := range rs {
			if !strings.HasPrefix(string(r.Action), "treasury-batch.") {
				continue
			}
			actions = append(actions, string(r.Action))
			// The executions are the executor's, as the chain says; the rest the admin key's.
			executor := strings.ToLower(dc.Buyers[4].Address.Hex())
			executed := r.Outcome.Code == store.OutcomeBatchExecuted && r.Outcome.Args.TxHash == execTx
			reverted := r.Outcome.Code == store.OutcomeBatchReverted && r.Outcome.Args.SafeError == "GS020"
			if r.Action == store.ActionBatchExecute && (r.Actor != executor || !executed && !reverted) ||
				r.Action != store.ActionBatchExecute && !strings.HasPrefix(r.Actor, "admin key ") {
				t.Fatalf("%s by %q: %+v", r.Action, r.Actor, r.Outcome)
			}
		}
		// Newest first: the execution, the second owner's approval, the attempt with one
		// signature, the first owner's approvals (the same owner twice is kept once, and logged
		// as carried), and the proposal.
		if len(actions) < 5 || actions[len(actions)-1] != string(store.ActionBatchPropose) || actions[0] != string(store.ActionBatchExecute) ||
			actions[1] != string(store.ActionBatchApprove) || actions[2] != string(store.ActionBatchExecute) {
			t.Fatalf("audit %v", actions)
		}
	})
	t.Run("decided batches take no approval", func(t *testing.T) {
		rec := e.s.adminDo(t, http.MethodPost, fmt.Sprintf("/api/admin/refund-batches/%d/approvals", b.ID),
			`{"signature": "`+e.sign(8, b.SafeTxHash)+`"}`, adminKey)
		wantStatus(t, rec, http.StatusConflict)
	})

	t.Run("a reorg below the execution", func(t *testing.T) {
		// The ledger remembers another block where the execution was, as if the chain had
		// replaced it: the pass rewinds below it, takes the refunds back (their events are
		// reverted), and reads the chain's blocks again, where the execution still is.
		fake := "0x" + strings.Repeat("ab", 32)
		mustExec(t, db, `UPDATE scanned_blocks SET hash = $1 WHERE scanner = 'payments' AND number >= $2`, fake, exec.BlockNumber.Int64())
		mustExec(t, db, `UPDATE chain_cursors SET block_hash = $1 WHERE name = 'payments'`, fake)
		if sum := e.pass(); sum.Rewound == 0 {
			t.Fatalf("pass %+v: want a rewind", sum)
		}
		evs := refundEvents(t, db)
		var types []string
		for _, ev := range evs {
			types = append(types, ev.typ)
		}
		want := []string{"payment.refunded", "payment.refunded", "payment.refunded", "payment.refunded.reverted", "payment.refunded.reverted",
			"payment.refunded.reverted", "payment.refunded", "payment.refunded", "payment.refunded"}
		if !slices.Equal(types, want) {
			t.Fatalf("events %v, want %v", types, want)
		}
		refunded(t)
	})
}

// addWebhook subscribes https://example.com/hook to events, as an operator would (audited).
func addWebhook(t *testing.T, db *store.Store, events ...store.EventType) {
	t.Helper()
	if err := db.Audited(t.Context(), store.AuditEntry{Actor: store.Actor{Who: "test"}, Action: store.ActionWebhookAdd,
		Outcome: store.AuditOutcome{Code: store.OutcomeWebhookAdded}}, func(tx store.Tx, _ *store.AuditEntry) error {
		_, err := tx.AddWebhook(t.Context(), store.NewWebhook{URL: "https://example.com/hook", Events: events, Secret: "whsec_test", CreatedBy: "test"})
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

type refundEvent struct{ typ, refundTx, refund string }

// refundEvents are the payment.refunded events written, oldest first.
func refundEvents(t *testing.T, db *store.Store) []refundEvent {
	t.Helper()
	var rows []struct {
		Type     string  `db:"type"`
		RefundTx *string `db:"refund_tx"`
		Refund   *string `db:"refund"`
	}
	if err := db.DB().Select(&rows, `SELECT type, data #>> '{data,payment,refundTxHash}' AS refund_tx,
		data #>> '{data,payment,refund,status}' AS refund FROM webhook_events WHERE type LIKE 'payment.refunded%' ORDER BY id`); err != nil {
		t.Fatal(err)
	}
	var out []refundEvent
	for _, r := range rows {
		ev := refundEvent{typ: r.Type}
		if r.RefundTx != nil {
			ev.refundTx = *r.RefundTx
		}
		if r.Refund != nil {
			ev.refund = *r.Refund
		}
		out = append(out, ev)
	}
	return out
}

// TestRefundBatchVoid: a batch whose nonce another Safe transaction takes can never execute: the
// pass marks it void once the treasury's nonce has passed it, its payment is owed again, and a new
// batch takes it at the next nonce.
func TestRefundBatchVoid(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	e := newRefundEnv(t, db)
	dc := e.dc
	wrong := e.pay(0, 150_000_000_000_000_000)
	if sum := e.pass(); sum.Rejected != 1 {
		t.Fatalf("pass %+v", sum)
	}
	rec := e.s.adminDo(t, http.MethodPost, "/api/admin/refund-batches", `{"payments": "all"}`, adminKey)
	wantStatus(t, rec, http.StatusCreated)
	b := decode[batchDoc](t, rec)
	if len(b.Refunds) != 1 || b.Refunds[0].TxHash != wrong || b.SafeTx.Nonce != "0" || b.SafeTx.Operation != 0 {
		t.Fatalf("proposed %+v", b)
	}
	if e.approve(b.ID, e.sign(7, b.SafeTxHash)) == nil {
		t.Fatal("an owner's approval was refused")
	}

	// Two owners sign and execute another transaction at nonce 0: 1 wei to someone else.
	other := chain.SafeTx{To: dc.Buyers[5].Address, Value: big.NewInt(1), Nonce: new(big.Int)}
	hash := other.Hash(dc.ChainID(), dc.Treasury)
	sigs := map[common.Address][]byte{}
	for _, i := range []int{7, 8} {
		sigs[dc.Accounts[i].Address] = common.FromHex(e.sign(i, hash.Hex()))
	}
	if r := e.send(dc.Buyers[4].Key, dc.Treasury, chain.ExecData(other, sigs), nil); r.Status != types.ReceiptStatusSuccessful {
		t.Fatal("the other transaction reverted")
	}
	e.pass()
	if got := e.get(b.ID); got.Status != "void" || got.ExecutedTx != nil {
		t.Fatalf("after another transaction took its nonce: %+v", got)
	}
	if rs, err := db.AuditLog(t.Context(), 1); err != nil || len(rs) != 1 || rs[0].Action != store.ActionBatchExecute ||
		rs[0].Outcome.Code != store.OutcomeBatchVoid || rs[0].Outcome.Args.Batch != b.ID {
		t.Fatalf("the audit's newest entry %+v (%v), want the batch void", rs, err)
	}
	if p := e.paymentDoc(wrong); p.Status != store.BuyerRejected || p.Refund != nil {
		t.Fatalf("the buyer reads %+v (refund %+v)", p, p.Refund)
	}
	rec = e.s.adminDo(t, http.MethodPost, fmt.Sprintf("/api/admin/refund-batches/%d/approvals", b.ID), `{"signature": "`+e.sign(8, b.SafeTxHash)+`"}`, adminKey)
	wantStatus(t, rec, http.StatusConflict)

	rec = e.s.adminDo(t, http.MethodPost, "/api/admin/refund-batches", `{"payments": ["`+wrong+`"]}`, adminKey)
	wantStatus(t, rec, http.StatusCreated)
	if again := decode[batchDoc](t, rec); again.SafeTx.Nonce != "1" || again.ID == b.ID || again.Status != "proposed" {
		t.Fatalf("the payment's new batch %+v", again)
	}
	rec = e.s.adminDo(t, http.MethodGet, "/api/admin/refund-batches", "", adminKey)
	wantStatus(t, rec, http.StatusOK)
	if list := decode[[]batchDoc](t, rec); len(list) != 2 || list[0].ID <= list[1].ID || list[1].Status != "void" {
		t.Fatalf("list %+v", list)
	}
}

// TestTreasuryBatchPaths: a batch is proposed under /api/admin/treasury-batches with the kind
// its proposer gives, and the paths before treasury batches answer as aliases of their kind: the
// same batch under either path, a kind refused where it does not belong, and the operator page's
// form and its old path alike.
func TestTreasuryBatchPaths(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	e := newRefundEnv(t, db)
	wrong := []string{e.pay(0, 150_000_000_000_000_000), e.pay(1, 250_000_000_000_000_000)}
	if sum := e.pass(); sum.Rejected != 2 {
		t.Fatalf("pass %+v", sum)
	}
	for body, want := range map[string]string{
		`{"payments": "all"}`:                           `"kind" must be`,
		`{"kind": "sweeps", "payments": "all"}`:         `"kind" must be`,
		`{"kind": "refunds", "commissions": "all"}`:     `"kind" must be`,
		`{"kind": "commissions", "payments": "all"}`:    `"kind" must be`,
		`{"kind": "refunds", "payments": "some"}`:       `"payments" must be`,
		`{"kind": "commissions", "commissions": "x"}`:   `"commissions" must be`,
		`{"kind": "refunds", "payments": "all", "x":1}`: "only the documented fields",
	} {
		rec := e.s.adminDo(t, http.MethodPost, "/api/admin/treasury-batches", body, adminKey)
		wantStatus(t, rec, http.StatusBadRequest)
		if msg := errorMessage(t, rec); !strings.Contains(msg, want) {
			t.Errorf("%s: %q, want %q", body, msg, want)
		}
	}
	for path, body := range map[string]string{
		"/api/admin/refund-batches":     `{"kind": "commissions", "commissions": "all"}`,
		"/api/admin/commission-batches": `{"kind": "refunds", "payments": "all"}`,
	} {
		rec := e.s.adminDo(t, http.MethodPost, path, body, adminKey)
		wantStatus(t, rec, http.StatusBadRequest)
		if msg := errorMessage(t, rec); !strings.Contains(msg, "This path proposes batches of kind") {
			t.Errorf("%s %s: %q", path, body, msg)
		}
	}

	rec := e.s.adminDo(t, http.MethodPost, "/api/admin/treasury-batches", `{"kind": "refunds", "payments": ["`+wrong[0]+`"]}`, adminKey)
	wantStatus(t, rec, http.StatusCreated)
	first := decode[batchDoc](t, rec)
	if first.Kind != "refunds" || len(first.Refunds) != 1 || first.Refunds[0].TxHash != wrong[0] {
		t.Fatalf("proposed %+v", first)
	}
	for _, path := range []string{"/api/admin/treasury-batches/", "/api/admin/refund-batches/"} {
		rec := e.s.adminDo(t, http.MethodGet, path+fmt.Sprint(first.ID), "", adminKey)
		wantStatus(t, rec, http.StatusOK)
		if got := decode[batchDoc](t, rec); got.ID != first.ID || got.SafeTxHash != first.SafeTxHash || got.Kind != "refunds" {
			t.Errorf("%s%d: %+v", path, first.ID, got)
		}
		rec = e.s.adminDo(t, http.MethodGet, strings.TrimSuffix(path, "/"), "", adminKey)
		wantStatus(t, rec, http.StatusOK)
		if list := decode[[]batchDoc](t, rec); len(list) != 1 || list[0].ID != first.ID {
			t.Errorf("%s: %+v", path, list)
		}
	}
	if got := e.approve(first.ID, e.sign(8, first.SafeTxHash)); len(got.Approvals) != 1 {
		t.Fatalf("approved under the new path: %+v", got)
	}
	var audited []string
	if err := db.DB().Select(&audited, `SELECT action || ' ' || outcome_code || ' ' || (outcome_args->>'kind') FROM operator_audit ORDER BY id`); err != nil {
		t.Fatal(err)
	}
	if want := []string{"treasury-batch.propose treasury_batch_proposed refunds", "treasury-batch.approve treasury_batch_approved refunds"}; !slices.Equal(audited, want) {
		t.Errorf("the audit %q, want %q", audited, want)
	}

	// The operator page's form names its kind; the old path implies it.
	op := signedInAs(t, e.s, addOperator(t, db, "operator"))
	if kind := op.operatorPage().Find(`[data-testid=refunds-owed] input[name=kind]`).AttrOr("value", ""); kind != "refunds" {
		t.Fatalf("the refund form's kind %q", kind)
	}
	if bad := op.form("/operator/treasury-batches", url.Values{"payment": {wrong[1]}}); bad.Code != http.StatusBadRequest {
		t.Fatalf("a form with no kind: %d %s", bad.Code, bad.Body)
	}
	rec = op.form("/operator/refund-batches", url.Values{"payment": {wrong[1]}})
	wantStatus(t, rec, http.StatusSeeOther)
	var second int64
	if _, err := fmt.Sscanf(rec.Header().Get("Location"), "/operator/treasury-batches/%d", &second); err != nil || e.get(second).Refunds[0].TxHash != wrong[1] {
		t.Fatalf("the old path's batch: %q (%v)", rec.Header().Get("Location"), err)
	}
	for _, path := range []string{"/operator/treasury-batches/", "/operator/refund-batches/"} {
		if got := text(page(t, op.do(http.MethodGet, path+fmt.Sprint(second), nil).Body), "batch-transfers"); !strings.Contains(got, wrong[1][:10]) {
			t.Errorf("%s%d shows %q", path, second, got)
		}
	}
}

// TestRefundBatchWithoutTreasury: with no TREASURY_ADDRESS the routes say what to set.
func TestRefundBatchWithoutTreasury(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	s := newServer(t, db, handlers.Config{AdminKey: adminKey})
	for _, path := range []string{"/api/admin/treasury-batches", "/api/admin/treasury-batches/1/approvals", "/api/admin/treasury-batches/1/executions",
		"/api/admin/refund-batches", "/api/admin/refund-batches/1/approvals", "/api/admin/refund-batches/1/executions", "/api/admin/commission-batches"} {
		rec := s.adminDo(t, http.MethodPost, path, `{"payments": "all"}`, adminKey)
		wantStatus(t, rec, http.StatusNotFound)
		if msg := errorMessage(t, rec); !strings.Contains(msg, "TREASURY_ADDRESS") {
			t.Fatalf("%s: %q", path, msg)
		}
	}
}

// TestOperatorRefundBatches: the operator page builds a batch of the payments ticked, as the
// admin API does, proposed by the signed-in operator; its page shows every transfer in full and
// the Safe transaction before anyone signs; an owner's signature carried by the page counts, a
// stranger's is refused with a sentence; a viewer may carry a signature but not build a batch.
func TestOperatorRefundBatches(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	e := newRefundEnv(t, db)
	dc := e.dc
	values := []int64{150_000_000_000_000_000, 250_000_000_000_000_000}
	var wrong []string
	for i, v := range values {
		wrong = append(wrong, e.pay(i, v))
	}
	if sum := e.pass(); sum.Rejected != 2 {
		t.Fatalf("pass %+v", sum)
	}
	opKey, viewerKey := addOperator(t, db, "operator"), addOperator(t, db, "viewer")
	op := signedInAs(t, e.s, opKey)
	doc := op.operatorPage()
	if n := doc.Find(`[data-testid=refunds-owed] input[name=payment]`).Length(); n != 2 {
		t.Fatalf("%d payments to tick, want 2", n)
	}
	if got := text(doc, "refund-all"); !strings.Contains(got, "(2)") {
		t.Fatalf("the all button says %q", got)
	}

	viewer := signedInAs(t, e.s, viewerKey)
	wantStatus(t, viewer.form("/operator/treasury-batches", url.Values{"kind": {"refunds"}, "payment": {wrong[0]}}), http.StatusForbidden)
	if bad := op.form("/operator/treasury-batches", url.Values{"kind": {"refunds"}}); bad.Code != http.StatusBadRequest || !strings.Contains(bad.Body.String(), "Tick the payments") {
		t.Fatalf("nothing ticked: %d %s", bad.Code, bad.Body)
	}

	rec := op.form("/operator/treasury-batches", url.Values{"kind": {"refunds"}, "payment": {wrong[1]}})
	wantStatus(t, rec, http.StatusSeeOther)
	loc := rec.Header().Get("Location")
	if !strings.HasPrefix(loc, "/operator/treasury-batches/") {
		t.Fatalf("redirected to %q", loc)
	}
	var id int64
	fmt.Sscanf(strings.TrimPrefix(loc, "/operator/treasury-batches/"), "%d", &id)
	b := e.get(id)
	if len(b.Refunds) != 1 || b.Refunds[0].TxHash != wrong[1] {
		t.Fatalf("the batch %+v", b)
	}
	doc = op.operatorPage()
	if n := doc.Find(`[data-testid=refunds-owed] input[name=payment]`).Length(); n != 1 {
		t.Fatalf("%d payments to tick once one is in a batch, want 1", n)
	}
	if got := text(doc, "open-batches"); !strings.Contains(got, fmt.Sprintf("Refund batch #%d", id)) || !strings.Contains(got, "0 of 2 signatures") {
		t.Fatalf("open batches %q", got)
	}

	batchPage := func(b *browser) *goquery.Document {
		t.Helper()
		rec := b.do(http.MethodGet, loc, nil)
		wantStatus(t, rec, http.StatusOK)
		return page(t, rec.Body)
	}
	doc = batchPage(op)
	payer := strings.ToLower(dc.Buyers[1].Address.Hex())
	if got := text(doc, "transfer-to"); got != payer {
		t.Fatalf("the transfer goes to %q, want %s in full", got, payer)
	}
	if got := doc.Find(`[data-testid=transfer-amount]`).AttrOr("title", ""); got != "250000000000000000 wei" || text(doc, "transfer-amount") != "0.25" {
		t.Fatalf("amount %q (%q)", text(doc, "transfer-amount"), got)
	}
	if text(doc, "safe-tx-hash") != b.SafeTxHash || !strings.HasPrefix(text(doc, "batch-nonce"), "0") ||
		!strings.Contains(text(doc, "batch-approvals"), "0 of 2") || !strings.Contains(text(doc, "batch-next"), "2 more owners' signatures") {
		t.Fatalf("the batch page: hash %q nonce %q approvals %q next %q", text(doc, "safe-tx-hash"), text(doc, "batch-nonce"),
			text(doc, "batch-approvals"), text(doc, "batch-next"))
	}
	if text(doc, "not-an-owner") == "" || doc.Find(`[data-testid=execute-batch]`).Length() != 0 {
		t.Fatal("a stranger's page should say they are not an owner, and offer no execution before the threshold")
	}
	sign := doc.Find(`[data-testid=sign-batch]`)
	var safeTx struct {
		Nonce string `json:"nonce"`
		To    string `json:"to"`
	}
	if err := json.Unmarshal([]byte(sign.AttrOr("data-safe-tx", "")), &safeTx); err != nil || safeTx.To != payer || safeTx.Nonce != "0" {
		t.Fatalf("the SafeTx the wallet signs: %+v (%v)", safeTx, err)
	}

	// As the page's script posts a signature (the route answers JSON, like the sign-in, and is
	// not in the public API's document).
	approve := func(b *browser, sig string, header ...string) *httptest.ResponseRecorder {
		t.Helper()
		body := `{"signature": "` + sig + `"}`
		header = append([]string{"Content-Type", "application/json", "Accept", "application/json", "X-CSRF-Token", b.csrf}, header...)
		rec := b.send(httptest.NewRequest(http.MethodPost, loc+"/approvals", strings.NewReader(body)), header...).ResponseRecorder
		if rec.Code >= 400 {
			checkEnvelope(t, rec) // the script shows the sentence of {error}
		}
		return rec
	}
	t.Run("a stranger's signature", func(t *testing.T) {
		rec := approve(op, e.sign(3, b.SafeTxHash))
		wantStatus(t, rec, http.StatusBadRequest)
		if msg := errorMessage(t, rec); !strings.Contains(msg, "not one of the treasury's owners' signatures") {
			t.Fatalf("%q", msg)
		}
	})
	t.Run("without the page's token", func(t *testing.T) {
		wantStatus(t, approve(op, e.sign(7, b.SafeTxHash), "X-CSRF-Token", "stale"), http.StatusForbidden)
	})
	// A viewer carries an owner's signature: the signature is what counts.
	wantStatus(t, approve(viewer, e.sign(7, b.SafeTxHash)), http.StatusOK)
	doc = batchPage(op)
	if !strings.Contains(text(doc, "batch-approvals"), "1 of 2") || doc.Find(`[data-testid=owner-signed]`).Length() != 1 ||
		!strings.Contains(text(doc, "batch-next"), "1 more owner's signature") {
		t.Fatalf("after one: %q %q", text(doc, "batch-approvals"), text(doc, "batch-next"))
	}
	wantStatus(t, approve(op, e.sign(devchain.OwnerIndex, b.SafeTxHash)), http.StatusOK)
	// The part the page polls, from a page loaded before: ready, and the Execute button swapped in
	// out of band (no reload); the next poll says it showed ready, and brings the button no more.
	rec = op.do(http.MethodGet, loc+"?shown=proposed", nil, "HX-Request", "true")
	wantStatus(t, rec, http.StatusOK)
	part := page(t, rec.Body)
	if strings.Contains(rec.Body.String(), "<html") || part.Find(`[data-status=ready]`).Length() != 1 ||
		part.Find(`#batch-execute-slot[hx-swap-oob=true] [data-testid=execute-batch]`).Length() != 1 ||
		!strings.HasSuffix(part.Find(`[data-testid=batch-status]`).AttrOr("hx-get", ""), "?shown=ready") {
		t.Fatalf("the polled status: %s", rec.Body)
	}
	rec = op.do(http.MethodGet, loc+"?shown=ready", nil, "HX-Request", "true")
	wantStatus(t, rec, http.StatusOK)
	if page(t, rec.Body).Find(`[data-testid=execute-batch]`).Length() != 0 {
		t.Fatalf("polled again, the status brings the button again: %s", rec.Body)
	}
	if viewerPart := page(t, viewer.do(http.MethodGet, loc+"?shown=proposed", nil, "HX-Request", "true").Body); viewerPart.Find(`[data-testid=execute-batch]`).Length() != 0 {
		t.Fatal("a viewer's polled status brings an Execute button")
	}
	doc = batchPage(op)
	exec := doc.Find(`[data-testid=execute-batch]`)
	if ready := e.get(id); exec.AttrOr("data-exec", "") != *ready.ExecData || exec.AttrOr("data-safe", "") != strings.ToLower(dc.Treasury.Hex()) {
		t.Fatalf("the Execute button sends %q to %q", exec.AttrOr("data-exec", ""), exec.AttrOr("data-safe", ""))
	}
	if viewerDoc := batchPage(viewer); viewerDoc.Find(`[data-testid=execute-batch]`).Length() != 0 {
		t.Fatal("a viewer is offered to execute")
	}

	t.Run("an execution the page reports", func(t *testing.T) {
		// One signature short of the threshold: the Safe refuses it, and only the report tells.
		one := chain.SafeTx{To: common.HexToAddress(b.SafeTx.To), Value: big.NewInt(values[1]), Nonce: new(big.Int)} // a plain transfer
		calldata := chain.ExecData(one, map[common.Address][]byte{dc.Accounts[7].Address: common.FromHex(e.sign(7, b.SafeTxHash))})
		r := e.send(dc.Buyers[4].Key, dc.Treasury, calldata, nil)
		if r.Status != types.ReceiptStatusFailed {
			t.Fatal("one signature executed the batch")
		}
		report := func(b *browser, header ...string) *httptest.ResponseRecorder {
			t.Helper()
			body := `{"txHash": "` + strings.ToLower(r.TxHash.Hex()) + `"}`
			header = append([]string{"Content-Type", "application/json", "Accept", "application/json", "X-CSRF-Token", b.csrf}, header...)
			return b.send(httptest.NewRequest(http.MethodPost, loc+"/executions", strings.NewReader(body)), header...).ResponseRecorder
		}
		wantStatus(t, report(viewer, "X-CSRF-Token", "stale"), http.StatusForbidden)
		wantStatus(t, report(viewer), http.StatusOK)
		doc := batchPage(op)
		attempt := doc.Find(`[data-testid=batch-attempt]`)
		if got := strings.Join(strings.Fields(attempt.Text()), " "); attempt.Length() != 1 || attempt.AttrOr("data-status", "") != "reverted" ||
			!strings.Contains(got, fmt.Sprintf("reverted in block %d, so the treasury paid nothing. It carried fewer owners' signatures than the treasury's threshold (GS020).", r.BlockNumber)) {
			t.Fatalf("the page lists the attempt as %q", got)
		}
		if got := e.get(id); got.Status != "ready" || len(got.Attempts) != 1 || got.Attempts[0].ReportedBy != addrOf(viewerKey) {
			t.Fatalf("after the revert: %+v", got)
		}
	})
	t.Run("refund all owed", func(t *testing.T) {
		rec := op.form("/operator/treasury-batches", url.Values{"kind": {"refunds"}, "all": {"true"}})
		wantStatus(t, rec, http.StatusSeeOther)
		var other int64
		fmt.Sscanf(strings.TrimPrefix(rec.Header().Get("Location"), "/operator/treasury-batches/"), "%d", &other)
		if got := e.get(other); len(got.Refunds) != 1 || got.Refunds[0].TxHash != wrong[0] {
			t.Fatalf("all owed: %+v", got)
		}
		if doc := op.operatorPage(); text(doc, "no-refunds") == "" {
			t.Fatal("the page still lists payments owed")
		}
	})
	t.Run("audited with who did it", func(t *testing.T) {
		rs, err := db.AuditLog(t.Context(), 20)
		if err != nil {
			t.Fatal(err)
		}
		var who []string
		for _, r := range rs {
			if strings.HasPrefix(string(r.Action), "treasury-batch.") {
				who = append(who, string(r.Action)+" "+r.Actor)
			}
		}
		// Newest first: the batch of all owed, the execution that reverted (its sender's), the two
		// approvals, the first batch.
		want := []string{"treasury-batch.propose " + addrOf(opKey), "treasury-batch.execute " + strings.ToLower(dc.Buyers[4].Address.Hex()),
			"treasury-batch.approve " + addrOf(opKey), "treasury-batch.approve " + addrOf(viewerKey), "treasury-batch.propose " + addrOf(opKey)}
		if !slices.Equal(who, want) {
			t.Fatalf("audit %v, want %v", who, want)
		}
	})
}

// TestOperatorAttention: the operator page opens on what waits: the refunds owed with their sum
// and a button that batches them all (an operator's, not a viewer's), the batches waiting for
// signatures, the payments the screening holds, what the treasury holds; the section links carry
// the counts; with nothing owed it says nothing waits.
func TestOperatorAttention(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	e := newRefundEnv(t, db)
	opKey, viewerKey := addOperator(t, db, "operator"), addOperator(t, db, "viewer")
	op, viewer := signedInAs(t, e.s, opKey), signedInAs(t, e.s, viewerKey)
	strip := func(doc *goquery.Document, testid string) string {
		t.Helper()
		return squash(doc.Find(`[data-testid=attention] [data-testid=` + testid + `]`).Text())
	}

	doc := op.operatorPage()
	if got := strip(doc, "attention-none"); !strings.HasPrefix(got, "Nothing waits for you") {
		t.Fatalf("nothing owed: %q", squash(text(doc, "attention")))
	}
	if got := strip(doc, "attention-treasury"); !strings.HasPrefix(got, "Treasury: 10 ETH.") {
		t.Fatalf("the treasury: %q", got)
	}

	for i, v := range []int64{150_000_000_000_000_000, 250_000_000_000_000_000} {
		e.pay(i, v)
	}
	if sum := e.pass(); sum.Rejected != 2 {
		t.Fatalf("pass %+v", sum)
	}
	doc = op.operatorPage()
	if got := strip(doc, "attention-refunds"); !strings.HasPrefix(got, "2 refunds owed: 0.4 ETH.") || !strings.HasSuffix(got, "Refunds ↓") {
		t.Fatalf("refunds owed: %q", got)
	}
	if doc.Find(`[data-testid=attention-none]`).Length() != 0 || text(doc, "attention-refund-all") != "Batch all 2 for signing" {
		t.Fatalf("the strip: %q", squash(text(doc, "attention")))
	}
	if got := squash(text(doc, "nav-refunds")); got != "Refunds 2" {
		t.Fatalf("the refunds link: %q", got)
	}
	if viewer.operatorPage().Find(`[data-testid=attention-refund-all]`).Length() != 0 {
		t.Fatal("a viewer is offered to batch refunds")
	}

	// The strip's button is the section's Refund all owed.
	form := doc.Find(`[data-testid=attention-refunds] form`)
	values := url.Values{"kind": {form.Find(`input[name=kind]`).AttrOr("value", "")}, "all": {"true"}}
	rec := op.form(form.AttrOr("action", ""), values)
	wantStatus(t, rec, http.StatusSeeOther)
	var id int64
	fmt.Sscanf(strings.TrimPrefix(rec.Header().Get("Location"), "/operator/treasury-batches/"), "%d", &id)
	if b := e.get(id); len(b.Refunds) != 2 {
		t.Fatalf("the batch %+v", b)
	}
	doc = op.operatorPage()
	if got := strip(doc, "attention-batches"); !strings.HasPrefix(got, fmt.Sprintf("1 batch waits for signatures: Refund batch #%d (0 of 2)", id)) {
		t.Fatalf("waiting batches: %q", got)
	}
	if doc.Find(`[data-testid=attention-refunds]`).Length() != 0 || squash(text(doc, "nav-treasury")) != "Treasury 1" {
		t.Fatalf("after batching: %q, nav %q", squash(text(doc, "attention")), squash(text(doc, "nav-treasury")))
	}

	// A payment the screening holds.
	mustExec(t, db, `INSERT INTO payments (tx_hash, from_address, value_wei, block_number, block_hash, payment_ref, status, reason_code, reason_args, block_time)
		VALUES ($1, $2, 100000000000000000, 1, $1, $1, 'held', 'denylisted', '{}', now())`, storetest.TxHash("held"), strings.ToLower(e.dc.Buyers[4].Address.Hex()))
	doc = op.operatorPage()
	if got := strip(doc, "attention-held"); !strings.HasPrefix(got, "1 payment held by the screening: release each to mint or to refund.") {
		t.Fatalf("held: %q", got)
	}
	if got := squash(text(doc, "nav-screening")); got != "Screening 1" {
		t.Fatalf("the screening link: %q", got)
	}
}
