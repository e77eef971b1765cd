package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/labstack/echo/v4"

	"nodeledger/chain"
	"nodeledger/jobs/treasury"
	"nodeledger/store"
	"nodeledger/views"
	"nodeledger/views/words"
)

// batchJSON is a treasury batch as the admin API answers it: the Safe transaction the
// treasury's owners sign (numbers as decimal strings, bytes as 0x hex), the owners who signed,
// and, once they reach the threshold, the execTransaction calldata anyone may send to the Safe.
type batchJSON struct {
	ID         int64           `json:"id"`
	Kind       store.BatchKind `json:"kind"`
	Safe       string          `json:"safe"`
	SafeTx     safeTxJSON      `json:"safeTx"`
	SafeTxHash string          `json:"safeTxHash"`
	Threshold  int             `json:"threshold"`
	Approvals  []string        `json:"approvals"` // owners' addresses, ascending
	// Dropped are the owners who signed and were removed from the treasury since: their
	// signatures are kept, never counted, never in execData.
	Dropped []string `json:"droppedApprovals"`
	// HeldBy is why the ready batch's execData is withheld (null: it is not): a refund by hand at
	// the head of one of its payments, not confirmed yet, or payees the sanctions oracle lists now.
	HeldBy   *heldJSON         `json:"heldBy"`
	Ready    bool              `json:"ready"`
	Status   store.BatchStatus `json:"status"`
	Refunds  []refundJSON      `json:"refunds"` // a refund batch's transfers
	Payouts  []payoutJSON      `json:"payouts"` // a commission batch's
	TotalWei store.Uint256     `json:"totalWei"`
	// TokenTotals is what it pays in each token: {token, symbol, decimals, amount}.
	TokenTotals []store.TokenAmount `json:"tokenTotals"`
	ExecData    *string             `json:"execData"`   // ready: the full execTransaction calldata
	SentTx      *string             `json:"sentTx"`     // open: a transaction above the confirmed blocks executes it
	ExecutedTx  *string             `json:"executedTx"` // executed or failed
	// Void: why, as a code (nonce_taken, refunded_elsewhere) and a sentence naming the payment.
	VoidReasonCode *store.VoidReason `json:"voidReasonCode"`
	VoidReason     *string           `json:"voidReason"`
	// LeftOut are the transfers its simulation refused when it was proposed, each with why;
	// Remaining, how many more were owed beyond one transaction's gas.
	LeftOut    []leftOutJSON `json:"leftOut"`
	Remaining  int           `json:"remaining"`
	Attempts   []attemptJSON `json:"attempts"` // the transactions reported sent to execute it, oldest first
	ProposedBy string        `json:"proposedBy"`
	CreatedAt  *string       `json:"createdAt"`
}

// attemptJSON is a transaction sent to execute a batch: who sent it, what came of it, and when
// the Safe refused it, why (the Safe's error code, and a sentence).
type attemptJSON struct {
	TxHash      string              `json:"txHash"`
	From        string              `json:"from"`
	Status      store.AttemptStatus `json:"status"`
	BlockNumber *int64              `json:"blockNumber"`
	Error       *string             `json:"error"`  // reverted: "GS020", "out of gas", or "" when the chain told nothing
	Reason      *string             `json:"reason"` // reverted: why, for people
	// RefusedTo is, for a batch that reverted because a transfer failed (GS013), the recipient of
	// the transfer that failed, when running each again in the block before named it.
	RefusedTo  *string `json:"refusedTo"`
	ReportedBy string  `json:"reportedBy"`
}

func attemptOf(a store.BatchAttempt) attemptJSON {
	out := attemptJSON{TxHash: a.TxHash, From: a.Sender, Status: a.Status, BlockNumber: a.BlockNumber, Error: a.Error,
		ReportedBy: a.ReportedBy, RefusedTo: a.RefusedTo}
	if a.Error != nil {
		reason := views.AttemptError(a)
		out.Reason = &reason
	}
	return out
}

// leftOutJSON is a transfer left out of a batch: the payment it would have refunded, or the
// commissions it would have paid, to whom, how much, and why (a code and a sentence).
type leftOutJSON struct {
	Payment     *string            `json:"payment"`
	Commissions []int64            `json:"commissions"`
	To          string             `json:"to"`
	AmountWei   store.Uint256      `json:"amountWei"`
	InToken     *store.TokenAmount `json:"inToken"`
	// ReasonCode is cannot_receive_eth, token_refused or sanctioned; ChainSays the chain's words.
	ReasonCode string `json:"reasonCode"`
	Reason     string `json:"reason"`
	ChainSays  string `json:"chainSays"`
}

func leftOutOf(l store.LeftOut) leftOutJSON {
	out := leftOutJSON{Commissions: l.Commissions, To: l.To, AmountWei: l.AmountWei, InToken: l.InToken, ReasonCode: "cannot_receive_eth",
		Reason: views.LeftOutSentence(l), ChainSays: l.ChainSays}
	switch {
	case l.Sanctioned:
		out.ReasonCode = "sanctioned"
	case l.InToken != nil:
		out.ReasonCode = "token_refused"
	}
	if l.Payment != "" {
		out.Payment = &l.Payment
	}
	if out.Commissions == nil {
		out.Commissions = []int64{}
	}
	return out
}

// safeTxJSON is a SafeTx as the Safe's EIP-712 message names its fields.
type safeTxJSON struct {
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
}

// heldJSON is why a ready batch's execData is withheld (code): a payment of it refunded by hand
// at the head, in refundTx at blockNumber, which the payments pass has not confirmed yet
// (refunded_by_hand), or payees the sanctions oracle lists now (sanctioned).
type heldJSON struct {
	Code        string   `json:"code"`
	Payment     string   `json:"payment,omitempty"`
	RefundTx    string   `json:"refundTx,omitempty"`
	BlockNumber int64    `json:"blockNumber,omitempty"`
	Sanctioned  []string `json:"sanctioned,omitempty"`
	Reason      string   `json:"reason"`
}

// batchAnswer is b as the admin API and the batch's page give it: batchOf, with its
// execData withheld while the sanctions oracle lists one of its payees (checked again here, as
// when it was proposed: a payee may be listed since), or while one of its payments is refunded
// by hand in a block the payments pass has not confirmed (the batch is void once it does):
// executed meanwhile, the batch would pay that payment twice. The chain is read only for a ready
// batch.
func (h *Handlers) batchAnswer(ctx context.Context, b store.TreasuryBatch) (batchJSON, error) {
	out := batchOf(b)
	if out.ExecData == nil {
		return out, nil
	}
	listed, err := h.treasury.SanctionedPayees(ctx, b)
	if err != nil {
		return out, err
	}
	if len(listed) > 0 {
		out.ExecData = nil
		out.HeldBy = &heldJSON{Code: "sanctioned", Sanctioned: listed, Reason: views.SanctionedWhy(listed)}
		return out, nil
	}
	if b.Kind != store.BatchRefunds {
		return out, nil
	}
	moved, err := h.jobs.RefundsAtHead(ctx)
	if err != nil {
		return out, err
	}
	for _, r := range b.Refunds {
		if r.Token != nil {
			continue // a token payment is refunded by the treasury's batches alone
		}
		for _, o := range moved {
			if o.To == r.To && o.ValueWei.Cmp(r.ValueWei.Int) == 0 {
				out.ExecData = nil
				out.HeldBy = &heldJSON{Code: "refunded_by_hand", Payment: r.TxHash, RefundTx: o.TxHash, BlockNumber: o.BlockNumber,
					Reason: views.HeldWhy(r.TxHash, o.TxHash, o.BlockNumber)}
				return out, nil
			}
		}
	}
	return out, nil
}

// refundJSON is one transfer of a batch: the payment it refunds, to whom, how much.
type refundJSON struct {
	TxHash    string        `json:"txHash"`
	To        string        `json:"to"`
	AmountWei store.Uint256 `json:"amountWei"` // "0" for a refund in a token
	// InToken is what a refund of a token payment pays back of it: {token, symbol, decimals,
	// amount}; null for ETH.
	InToken *store.TokenAmount `json:"inToken"`
}

var (
	errNoTreasury = errorf(http.StatusNotFound, "No treasury is configured: set TREASURY_ADDRESS to the Safe refunds are paid from.")
	errNoBatch    = errorf(http.StatusNotFound, "No treasury batch has this id.")
)

func batchOf(b store.TreasuryBatch) batchJSON {
	out := batchJSON{ID: b.ID, Kind: b.Kind, Safe: b.Safe, Payouts: mapSlice(b.Payouts, payoutOf), SafeTxHash: b.SafeTxHash, Threshold: b.Threshold, Approvals: []string{},
		Dropped: mapSlice(b.Dropped, func(a store.BatchApproval) string { return a.Owner }),
		Ready:   b.Status == store.BatchReady, Status: b.Status, Refunds: []refundJSON{}, SentTx: b.SentTx, ExecutedTx: b.ExecutedTx,
		Attempts: mapSlice(b.Attempts, attemptOf), LeftOut: mapSlice(b.LeftOut, leftOutOf), Remaining: b.Remaining,
		ProposedBy: b.ProposedBy, CreatedAt: isoTime(&b.CreatedAt),
		SafeTx: safeTxJSON{To: b.To, Value: b.Value.String(), Data: hexutil.Encode(b.Data), Operation: b.Operation,
			SafeTxGas: b.SafeTxGas.String(), BaseGas: b.BaseGas.String(), GasPrice: b.GasPrice.String(), GasToken: b.GasToken,
			RefundReceiver: b.RefundReceiver, Nonce: b.Nonce.String()}}
	for _, r := range b.Refunds {
		out.Refunds = append(out.Refunds, refundJSON{TxHash: r.TxHash, To: r.To, AmountWei: r.ValueWei, InToken: r.InToken()})
	}
	out.TotalWei, out.TokenTotals = batchTotal(b), store.TokenTotals(b.Refunds, b.Payouts)
	if out.TokenTotals == nil {
		out.TokenTotals = []store.TokenAmount{}
	}
	if b.Status == store.BatchVoid {
		why := views.VoidWhy(b.VoidReason, b.VoidPayment, b.VoidRefundTx, b.BlockNumber)
		out.VoidReasonCode, out.VoidReason = b.VoidReason, &why
	}
	sigs := map[common.Address][]byte{}
	for _, a := range b.Approvals { // the store reads them in ascending order of owner
		out.Approvals = append(out.Approvals, a.Owner)
		sigs[common.HexToAddress(a.Owner)] = a.Signature
	}
	if out.Ready {
		data := hexutil.Encode(chain.ExecData(treasury.SafeTxOf(b), sigs))
		out.ExecData = &data
	}
	return out
}

// batchBody is POST /api/admin/treasury-batches' body: the batch's kind and what it pays. A
// refund batch's payments are payment transaction hashes, or "all" for every payment owed a
// refund; a commission batch's commissions are commission ids, or "all" for every commission owed
// outside a batch.
type batchBody struct {
	Kind        store.BatchKind `json:"kind"`
	Payments    json.RawMessage `json:"payments"`
	Commissions json.RawMessage `json:"commissions"`
}

// hashes reads the body's payments: nil for "all".
func (b batchBody) hashes() ([]string, error) {
	list, err := allOrList[string](b.Payments, `"payments" must be "all" or a list of payment transaction hashes.`)
	if err != nil || list == nil {
		return nil, err
	}
	return txHashes(list)
}

// ids reads the body's commissions: nil for "all".
func (b batchBody) ids() ([]int64, error) {
	return allOrList[int64](b.Commissions, `"commissions" must be "all" or a list of commission ids.`)
}

// allOrList reads a field that is "all" (nil) or a list that is not empty, each element once in
// the order given; anything else is a 400 that says bad.
func allOrList[T comparable](raw json.RawMessage, bad string) ([]T, error) {
	var all string
	if json.Unmarshal(raw, &all) == nil {
		if all != "all" {
			return nil, errorf(http.StatusBadRequest, bad)
		}
		return nil, nil
	}
	var list []T
	if err := json.Unmarshal(raw, &list); err != nil || len(list) == 0 {
		return nil, errorf(http.StatusBadRequest, bad)
	}
	seen := map[T]bool{}
	var out []T
	for _, v := range list {
		if !seen[v] {
			seen[v], out = true, append(out, v)
		}
	}
	return out, nil
}

// txHashes reads payments' transaction hashes as a batch names them: each once, lower case.
func txHashes(list []string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	for _, s := range list {
		h, err := parseTxHash(s)
		if err != nil {
			return nil, errorf(http.StatusBadRequest, fmt.Sprintf("%q is not a payment's transaction hash: expected 0x followed by 64 hexadecimal digits.", s))
		}
		if !seen[h] {
			seen[h], out = true, append(out, h)
		}
	}
	return out, nil
}

// ProposeTreasuryBatch answers POST /api/admin/treasury-batches: one Safe transaction of the
// treasury, at its nonce now (proposeBatch), recorded for the owners to sign. A batch of kind
// refunds pays back each payment named (or every payment owed a refund) to its payer, exactly its
// value; one of kind commissions pays each referrer the sum of its commissions named (or of every
// commission owed outside a batch), and those commissions are paid when it executes. The service
// proposes; only the owners' signatures can move the treasury's money.
//
// implied is the kind of the paths before treasury batches (POST /api/admin/refund-batches and
// /api/admin/commission-batches), which answer as aliases: there "kind" may be left out.
func (h *Handlers) ProposeTreasuryBatch(implied store.BatchKind) echo.HandlerFunc {
	return func(c echo.Context) error {
		if h.cfg.Treasury == (common.Address{}) {
			return errNoTreasury
		}
		var body batchBody
		if err := decodeBody(c, &body); err != nil {
			return err
		}
		if body.Kind == "" {
			body.Kind = implied
		}
		var b store.TreasuryBatch
		switch {
		case implied != "" && body.Kind != implied:
			return errorf(http.StatusBadRequest, fmt.Sprintf(`This path proposes batches of kind %q: send other kinds to /api/admin/treasury-batches.`, implied))
		case body.Kind == store.BatchRefunds && body.Commissions == nil:
			hashes, err := body.hashes()
			if err != nil {
				return err
			}
			if b, err = h.proposeRefundBatch(c, hashes); err != nil {
				return err
			}
		case body.Kind == store.BatchCommissions && body.Payments == nil:
			ids, err := body.ids()
			if err != nil {
				return err
			}
			if b, err = h.proposeCommissionBatch(c, ids); err != nil {
				return err
			}
		default:
			return errorf(http.StatusBadRequest, `"kind" must be "refunds", with "payments", or "commissions", with "commissions".`)
		}
		return c.JSON(http.StatusCreated, batchOf(b))
	}
}

// proposeRefundBatch builds and records, audited as the request's actor (the admin key, or the
// operator signed in on the page), the batch that refunds the payments of hashes (nil: every
// payment owed a refund): the one way a batch is proposed.
func (h *Handlers) proposeRefundBatch(c echo.Context, hashes []string) (store.TreasuryBatch, error) {
	if h.cfg.Treasury == (common.Address{}) {
		return store.TreasuryBatch{}, errNoTreasury
	}
	ctx := c.Request().Context()
	owed, err := h.store.OwedRefunds(ctx, hashes)
	if err != nil {
		return store.TreasuryBatch{}, batchError(err)
	}
	items := make([]treasury.Item, len(owed))
	for i, p := range owed {
		items[i] = treasury.Item{Payout: chain.Payout{To: common.HexToAddress(p.From), Value: p.ValueWei.Int}, Payment: p.ID, PaymentTx: p.TxHash}
		if p.Token != nil { // paid back in its token: what arrived of it
			items[i].Payout.Token, items[i].Payout.Value, items[i].InToken = common.HexToAddress(*p.Token), p.Amount.Int, h.inToken(p)
		}
	}
	return h.proposeBatch(c, store.BatchRefunds, items, func(b store.TreasuryBatch) store.AuditOutcome {
		return store.AuditOutcome{Code: store.OutcomeBatchProposed, Args: store.AuditArgs{Batch: b.ID, Kind: b.Kind, Refunds: len(b.Refunds),
			AmountWei: batchTotal(b), Tokens: store.TokenTotals(b.Refunds, nil), Nonce: b.Nonce.String()}}
	})
}

// proposeBatch has the treasury propose the batch of kind that pays items, audited as the
// request's actor with outcome (treasury.Propose): the one way a batch of any kind is proposed.
// A batch the chain says cannot be paid is a 409 that says why.
func (h *Handlers) proposeBatch(c echo.Context, kind store.BatchKind, items []treasury.Item,
	outcome func(b store.TreasuryBatch) store.AuditOutcome) (store.TreasuryBatch, error) {
	b, err := h.treasury.Propose(c.Request().Context(), h.entry(c, "", store.ActionBatchPropose, ""), kind, items, h.actor(c).Who, outcome)
	var uncovered *treasury.UncoveredError
	var nothing *treasury.NothingPayableError
	var reverts *treasury.RevertsError
	var tooLarge *treasury.TooLargeError
	switch {
	case errors.As(err, &uncovered) && uncovered.Token == nil:
		return b, errorf(http.StatusConflict, fmt.Sprintf("The treasury holds %s ETH and this batch pays %s ETH: fund the treasury (or let the sweeps bring the payments wallet's ETH) first. No batch was proposed.",
			views.ETH(store.Uint256{Int: uncovered.Held}), views.ETH(store.Uint256{Int: uncovered.Want})))
	case errors.As(err, &uncovered):
		t, ok := h.sale.Token(lower(*uncovered.Token))
		if !ok {
			t = store.Token{Address: lower(*uncovered.Token), Symbol: "units of " + lower(*uncovered.Token)}
		}
		return b, errorf(http.StatusConflict, fmt.Sprintf("The treasury holds %s and this batch pays %s: fund the treasury (or let the sweeps bring the payments wallet's tokens) first. No batch was proposed.",
			t.Units(uncovered.Held), t.Units(uncovered.Want)))
	case errors.As(err, &nothing):
		return b, errorf(http.StatusConflict, "No transfer of this batch can be made, so no batch was proposed: "+
			strings.Join(mapSlice(nothing.LeftOut, views.LeftOutSentence), " "))
	case errors.As(err, &reverts):
		return b, errorf(http.StatusConflict, fmt.Sprintf("The batch's simulation at block %d reverts, so the treasury could not execute it: "+
			"check that the treasury holds its total in ETH and in each token. No batch was proposed.", reverts.Head))
	case errors.As(err, &tooLarge):
		return b, errorf(http.StatusConflict, fmt.Sprintf("One transfer of this batch alone takes %d gas, more than a transaction may (%d): "+
			"no batch was proposed.", tooLarge.Gas, tooLarge.Limit))
	case err != nil:
		return b, batchError(err)
	}
	return b, nil
}

// batchError is the answer to a batch the store refused, naming the payment.
func batchError(err error) error {
	var notOwed *store.NotOwedError
	var inBatch *store.InBatchError
	var notOwedCommission *store.NotOwedCommissionError
	var commissionInBatch *store.CommissionInBatchError
	switch {
	case errors.As(err, &notOwedCommission):
		return errorf(http.StatusBadRequest, fmt.Sprintf("Commission %d is not owed: there is no commission of this id, or it is paid.", notOwedCommission.ID))
	case errors.As(err, &commissionInBatch):
		return errorf(http.StatusConflict, fmt.Sprintf("Commission %d is already in batch %d, which is not void or failed.",
			commissionInBatch.ID, commissionInBatch.Batch))
	case errors.Is(err, store.ErrNoCommissionOwed):
		return errorf(http.StatusBadRequest, "No commission is owed outside a batch: there is nothing to pay.")
	case errors.As(err, &notOwed):
		return errorf(http.StatusBadRequest, fmt.Sprintf("Payment %s is owed no refund: no payment has this transaction, or it is not rejected.", notOwed.TxHash))
	case errors.As(err, &inBatch):
		return errorf(http.StatusConflict, fmt.Sprintf("Payment %s is already in refund batch %d, which is not void or failed.", inBatch.TxHash, inBatch.Batch))
	case errors.Is(err, store.ErrNothingOwed):
		return errorf(http.StatusBadRequest, "No payment is owed a refund outside a batch: there is nothing to refund.")
	case errors.Is(err, store.ErrBatchDecided):
		return errorf(http.StatusConflict, "This batch is executed, failed or void: it takes no more approvals.")
	}
	return notFound(err, errNoBatch)
}

// Limits of GET /api/admin/treasury-batches.
const (
	batchesDefault = 50
	batchesMax     = 200
)

// TreasuryBatches answers GET /api/admin/treasury-batches?limit=: the latest batches, newest first.
func (h *Handlers) TreasuryBatches(c echo.Context) error {
	limit, err := parseLimit(c.QueryParam("limit"), c.QueryParams().Has("limit"), batchesDefault, batchesMax)
	if err != nil {
		return err
	}
	bs, err := h.store.TreasuryBatches(c.Request().Context(), limit)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, mapSlice(bs, batchOf))
}

// TreasuryBatch answers GET /api/admin/treasury-batches/{id}.
func (h *Handlers) TreasuryBatch(c echo.Context) error {
	id, err := batchID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	b, _, err := h.treasury.Now(ctx, id)
	if err != nil {
		return notFound(err, errNoBatch)
	}
	out, err := h.batchAnswer(ctx, b)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

// batchID reads the :id of a treasury batch route.
func batchID(c echo.Context) (int64, error) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, errNoBatch
	}
	return id, nil
}

// approvalBody is POST /api/admin/treasury-batches/{id}/approvals' body: an owner's EIP-712
// signature of the batch's SafeTx, 65 bytes (r, s, v) as 0x hex.
type approvalBody struct {
	Signature string `json:"signature"`
}

// ApproveTreasuryBatch answers POST /api/admin/treasury-batches/{id}/approvals, and the same from
// the batch's page (/operator/treasury-batches/{id}/approvals, the signature the connected wallet
// made with eth_signTypedData_v4): it keeps an owner's signature of the batch, checked to recover
// to one of the treasury's owners as the chain holds them now; the same owner again changes
// nothing. The caller (the admin key, or the operator signed in) only carries the signature: no
// key the service holds can make one.
func (h *Handlers) ApproveTreasuryBatch(c echo.Context) error {
	if h.cfg.Treasury == (common.Address{}) {
		return errNoTreasury
	}
	id, err := batchID(c)
	if err != nil {
		return err
	}
	var body approvalBody
	if err := decodeBody(c, &body); err != nil {
		return err
	}
	b, err := h.approveBatch(c, id, body.Signature)
	if err != nil {
		return err
	}
	out, err := h.batchAnswer(c.Request().Context(), b)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

// approveBatch keeps signature (0x hex) of batch id once it recovers to one of the
// treasury's owners now, audited with the owner and who carried it (the admin key, or the
// operator signed in on the page): the one way an approval is taken.
func (h *Handlers) approveBatch(c echo.Context, id int64, signature string) (store.TreasuryBatch, error) {
	if h.cfg.Treasury == (common.Address{}) {
		return store.TreasuryBatch{}, errNoTreasury
	}
	sig, err := hexutil.Decode(signature)
	if err != nil || len(sig) != 65 {
		return store.TreasuryBatch{}, errorf(http.StatusBadRequest, `"signature" must be 65 bytes as 0x hex: an owner's EIP-712 signature of the batch's SafeTx.`)
	}
	b, err := h.treasury.Approve(c.Request().Context(), h.entry(c, "", store.ActionBatchApprove, ""), id, sig, h.actor(c).Who)
	var void *treasury.VoidError
	switch {
	case errors.As(err, &void):
		v, owed := void.Batch, "payments still owed a refund"
		if v.Kind == store.BatchCommissions {
			owed = "commissions still owed"
		}
		return b, errorf(http.StatusConflict, "This batch is void: "+views.VoidWhy(v.VoidReason, v.VoidPayment, v.VoidRefundTx, v.BlockNumber)+
			" Propose its "+owed+" again.")
	case errors.Is(err, chain.ErrNotAnOwner):
		return b, errorf(http.StatusBadRequest, fmt.Sprintf("The signature is not one of the treasury's owners' signatures of this batch's Safe transaction %s: "+
			"sign it with an owner's wallet (EIP-712 SafeTx).", b.SafeTxHash))
	case err != nil:
		return b, batchError(err)
	}
	return b, nil
}

// amountsWords is an amount of ETH and of tokens in words: "0.3 ETH and 300 USDC".
func amountsWords(wei store.Uint256, tokens []store.TokenAmount) string {
	out := []string{views.ETH(wei) + " ETH"}
	for _, t := range tokens {
		out = append(out, t.String())
	}
	return words.AndList(out)
}

// batchSentence is what came of a treasury batch's step (proposed, approved, decided), for the
// audit: the kind names the batch and what it settles.
func batchSentence(o store.AuditOutcome) string {
	a := o.Args
	// A commission batch is signed, executed and decided as a refund batch is; only what it pays differs.
	Batch, paid, owed := "Refund batch", "its payments are refunded", "its payments are owed a refund again"
	if a.Kind == store.BatchCommissions {
		Batch, paid, owed = "Commission batch", "its commissions are paid", "its commissions are owed again"
	}
	batch := strings.ToLower(Batch)
	switch o.Code {
	case store.OutcomeBatchProposed:
		what := words.Count(a.Refunds, "refund", "refunds")
		if a.Kind == store.BatchCommissions {
			what = words.Count(a.Commissions, "commission", "commissions") + " to " + words.Count(a.Referrers, "referrer", "referrers")
		}
		return fmt.Sprintf("Proposed %s %d: %s, %s in all, at the treasury's nonce %s; it waits for the owners' signatures.",
			batch, a.Batch, what, amountsWords(a.AmountWei, a.Tokens), a.Nonce)
	case store.OutcomeBatchExecuted:
		return fmt.Sprintf("%s %d executed by transaction %s: %s.", Batch, a.Batch, a.TxHash, paid)
	case store.OutcomeBatchFailed:
		return fmt.Sprintf("%s %d failed in transaction %s: the treasury paid nothing, and %s.", Batch, a.Batch, a.TxHash, owed)
	case store.OutcomeBatchReverted:
		return fmt.Sprintf("Transaction %s, sent to execute %s %d, reverted. %s The treasury paid nothing, and the batch waits for another attempt.",
			a.TxHash, batch, a.Batch, views.SafeError(a.SafeError))
	case store.OutcomeBatchVoid:
		return fmt.Sprintf("%s %d is void: the treasury executed another transaction at its nonce %s. I%s.",
			Batch, a.Batch, a.Nonce, owed[1:])
	case store.OutcomeBatchVoidRefunded:
		return fmt.Sprintf("%s %d is void: payment %s in it was refunded by hand in %s at block %d, and executed it would pay it twice. "+
			"The rest of its payments are owed a refund again.", Batch, a.Batch, a.Payment, a.TxHash, a.Block)
	}
	return fmt.Sprintf("%s approved %s %d: %d of %d signatures.", a.Address, batch, a.Batch, a.Approvals, a.Threshold)
}

// executionBody is POST /api/admin/treasury-batches/{id}/executions' body: the hash of a
// transaction sent to the treasury to execute the batch.
type executionBody struct {
	TxHash string `json:"txHash"`
}

// ReportBatchExecution answers POST /api/admin/treasury-batches/{id}/executions, and the same from
// the batch's page (/operator/treasury-batches/{id}/executions): whoever sent a batch's
// execTransaction tells the service, which reads the transaction from the chain
// and follows it. One that reverts logs nothing, so this is how the batch's page and the audit
// learn that it was tried and why it failed.
func (h *Handlers) ReportBatchExecution(c echo.Context) error {
	if h.cfg.Treasury == (common.Address{}) {
		return errNoTreasury
	}
	id, err := batchID(c)
	if err != nil {
		return err
	}
	var body executionBody
	if err := decodeBody(c, &body); err != nil {
		return err
	}
	b, err := h.reportExecution(c, id, body.TxHash)
	if err != nil {
		return err
	}
	out, err := h.batchAnswer(c.Request().Context(), b)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

// reportExecution records transaction txHash (0x hex) as an attempt to execute batch id, once
// the chain shows it calls the treasury's execTransaction with the batch's Safe transaction, and
// answers the batch: the one way an attempt is reported, from the page or a script.
func (h *Handlers) reportExecution(c echo.Context, id int64, txHash string) (store.TreasuryBatch, error) {
	hash, err := parseTxHash(txHash)
	if err != nil {
		return store.TreasuryBatch{}, errorf(http.StatusBadRequest, `"txHash" must be the hash of the transaction sent to execute the batch: 0x followed by 64 hexadecimal digits.`)
	}
	ctx := c.Request().Context()
	b, err := h.store.TreasuryBatch(ctx, id)
	if err != nil {
		return store.TreasuryBatch{}, notFound(err, errNoBatch)
	}
	err = h.treasury.RecordAttempt(ctx, b, common.HexToHash(hash), h.actor(c).Who)
	switch {
	case errors.Is(err, chain.ErrUnknownTx):
		return store.TreasuryBatch{}, errorf(http.StatusBadRequest, fmt.Sprintf("The chain knows no transaction %s: report it once it is sent.", hash))
	case errors.Is(err, chain.ErrNotAnExecution):
		return store.TreasuryBatch{}, errorf(http.StatusBadRequest, fmt.Sprintf("Transaction %s does not call the treasury's execTransaction.", hash))
	case errors.Is(err, treasury.ErrOtherSafeTx):
		return store.TreasuryBatch{}, errorf(http.StatusBadRequest, fmt.Sprintf("Transaction %s executes another Safe transaction than treasury batch %d.", hash, id))
	case err != nil:
		return store.TreasuryBatch{}, err
	}
	return h.store.TreasuryBatch(ctx, id)
}
