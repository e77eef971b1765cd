package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/labstack/echo/v4"

	"nodeledger/chain"
	"nodeledger/jobs"
	"nodeledger/store"
	"nodeledger/views"
	"nodeledger/views/words"
)

// refundBatchJSON is a refund batch as the admin API answers it: the Safe transaction the
// treasury's owners sign (numbers as decimal strings, bytes as 0x hex), the owners who signed,
// and, once they reach the threshold, the execTransaction calldata anyone may send to the Safe.
type refundBatchJSON struct {
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
	// HeldBy is a refund by hand at the head of a payment of the ready batch, not confirmed yet:
	// execData is withheld while it stands (null: none).
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
	// ReasonCode is cannot_receive_eth or token_refused; ChainSays the chain's words.
	ReasonCode string `json:"reasonCode"`
	Reason     string `json:"reason"`
	ChainSays  string `json:"chainSays"`
}

func leftOutOf(l store.LeftOut) leftOutJSON {
	out := leftOutJSON{Commissions: l.Commissions, To: l.To, AmountWei: l.AmountWei, InToken: l.InToken, ReasonCode: "cannot_receive_eth",
		Reason: views.LeftOutSentence(l), ChainSays: l.ChainSays}
	if l.Payment != "" {
		out.Payment = &l.Payment
	}
	if out.Commissions == nil {
		out.Commissions = []int64{}
	}
	if l.InToken != nil {
		out.ReasonCode = "token_refused"
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

// heldJSON is why a ready batch's execData is withheld: a payment of it refunded by hand at the
// head, in refundTx at blockNumber, which the payments pass has not confirmed yet.
type heldJSON struct {
	Payment     string `json:"payment"`
	RefundTx    string `json:"refundTx"`
	BlockNumber int64  `json:"blockNumber"`
	Reason      string `json:"reason"`
}

// batchAnswer is b as the admin API and the batch's page give it: refundBatchOf, with its
// execData withheld while one of its payments is refunded by hand in a block the payments pass
// has not confirmed (the batch is void once it does): executed meanwhile, the batch would pay
// that payment twice. The head is read only for a ready refund batch.
func (h *Handlers) batchAnswer(ctx context.Context, b store.RefundBatch) (refundBatchJSON, error) {
	out := refundBatchOf(b)
	if out.ExecData == nil || b.Kind != store.BatchRefunds {
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
				out.HeldBy = &heldJSON{Payment: r.TxHash, RefundTx: o.TxHash, BlockNumber: o.BlockNumber,
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
	errNoTreasury    = errorf(http.StatusNotFound, "No treasury is configured: set TREASURY_ADDRESS to the Safe refunds are paid from.")
	errNoRefundBatch = errorf(http.StatusNotFound, "No refund batch has this id.")
)

func refundBatchOf(b store.RefundBatch) refundBatchJSON {
	out := refundBatchJSON{ID: b.ID, Kind: b.Kind, Safe: b.Safe, Payouts: mapSlice(b.Payouts, payoutOf), SafeTxHash: b.SafeTxHash, Threshold: b.Threshold, Approvals: []string{},
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
		data := hexutil.Encode(chain.ExecData(jobs.SafeTxOf(b), sigs))
		out.ExecData = &data
	}
	return out
}

// refundBatchBody is POST /api/admin/refund-batches' body: payments is a list of payment
// transaction hashes, or "all" for every payment owed a refund.
type refundBatchBody struct {
	Payments json.RawMessage `json:"payments"`
}

// hashes reads the body's payments: nil for "all".
func (b refundBatchBody) hashes() ([]string, error) {
	bad := errorf(http.StatusBadRequest, `"payments" must be "all" or a list of payment transaction hashes.`)
	var all string
	if json.Unmarshal(b.Payments, &all) == nil {
		if all != "all" {
			return nil, bad
		}
		return nil, nil
	}
	var list []string
	if err := json.Unmarshal(b.Payments, &list); err != nil || len(list) == 0 {
		return nil, bad
	}
	return txHashes(list)
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

// ProposeRefundBatch answers POST /api/admin/refund-batches: it builds one Safe transaction of
// the treasury that pays back each payment named (or every payment owed a refund) to its payer,
// exactly its value, at the treasury's nonce now (proposeBatch), and records it for the owners to
// sign. The service proposes; only the owners' signatures can move the treasury's money.
func (h *Handlers) ProposeRefundBatch(c echo.Context) error {
	if h.cfg.Treasury == (common.Address{}) {
		return errNoTreasury
	}
	var body refundBatchBody
	if err := decodeBody(c, &body); err != nil {
		return err
	}
	hashes, err := body.hashes()
	if err != nil {
		return err
	}
	b, err := h.proposeRefundBatch(c, hashes)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, refundBatchOf(b))
}

// proposeRefundBatch builds and records, audited as the request's actor (the admin key, or the
// operator signed in on the page), the batch that refunds the payments of hashes (nil: every
// payment owed a refund): the one way a batch is proposed.
func (h *Handlers) proposeRefundBatch(c echo.Context, hashes []string) (store.RefundBatch, error) {
	if h.cfg.Treasury == (common.Address{}) {
		return store.RefundBatch{}, errNoTreasury
	}
	ctx := c.Request().Context()
	owed, err := h.store.OwedRefunds(ctx, hashes)
	if err != nil {
		return store.RefundBatch{}, refundBatchError(err)
	}
	items := make([]batchItem, len(owed))
	for i, p := range owed {
		items[i] = batchItem{payout: chain.Payout{To: common.HexToAddress(p.From), Value: p.ValueWei.Int}, payment: p.ID, paymentTx: p.TxHash}
		if p.Token != nil { // paid back in its token: what arrived of it
			items[i].payout.Token, items[i].payout.Value, items[i].inToken = common.HexToAddress(*p.Token), p.Amount.Int, h.inToken(p)
		}
	}
	return h.proposeBatch(c, items, store.ActionRefundPropose, func(b store.RefundBatch, total store.Uint256) store.AuditOutcome {
		return store.AuditOutcome{Code: store.OutcomeRefundBatchProposed, Args: store.AuditArgs{Batch: b.ID, Refunds: len(b.Refunds),
			AmountWei: total, Tokens: store.TokenTotals(b.Refunds, nil), Nonce: b.Nonce.String()}}
	})
}

// batchItem is one transfer a treasury batch may make and what it settles: a payment's refund
// (payment, paymentTx; inToken for a token's), or a referrer's commissions.
type batchItem struct {
	payout      chain.Payout
	payment     int64
	paymentTx   string
	inToken     *store.TokenAmount
	commissions []int64
}

func payoutsOf(items []batchItem) []chain.Payout {
	return mapSlice(items, func(it batchItem) chain.Payout { return it.payout })
}

// safeExecGas is what the Safe's execTransaction takes beyond its batch's transfers (the
// signatures' checks, its event, its nonce and refund bookkeeping), with room to spare: a batch
// whose transfers fit the limit less this fits one transaction.
const safeExecGas = 150_000

// proposeBatch builds the treasury's Safe transaction of items' payouts at its nonce now, and
// records it with what they settle for the owners to sign, audited as the request's actor with
// action and the outcome the recorded batch and its total make: the one way a batch of either
// kind is proposed. First the chain is asked, at one block: the treasury must hold the batch's
// total; each transfer is simulated alone, and those the chain refuses (a payer that reverts on
// taking ETH, a token that refuses the payer) are left out, listed with the batch, so one address
// cannot make every batch revert; the batch keeps as many of the rest, in order, as one
// transaction's gas allows (the others remain for a later batch); and the batch as a whole must
// run in the Safe's place. A batch is proposed only when that simulation succeeds.
//
// The nonce is the Safe's own, not one past the batches still open: a batch nobody signs then
// never holds back the next one. When two open batches share a nonce, the first executed takes
// it; the other goes void and what it held is owed again.
func (h *Handlers) proposeBatch(c echo.Context, items []batchItem, action store.AuditAction,
	outcome func(b store.RefundBatch, total store.Uint256) store.AuditOutcome) (store.RefundBatch, error) {
	ctx := c.Request().Context()
	safe, err := h.chain.Safe(ctx, h.cfg.Treasury)
	if err != nil {
		return store.RefundBatch{}, err
	}
	head, err := h.chain.HeadNumber(ctx)
	if err != nil {
		return store.RefundBatch{}, err
	}
	if err := h.treasuryCovers(ctx, safe, head, items); err != nil {
		return store.RefundBatch{}, err
	}
	checks, err := h.chain.CheckPayouts(ctx, h.cfg.Treasury, head, payoutsOf(items))
	if err != nil {
		return store.RefundBatch{}, err
	}
	var keep []batchItem
	var left store.LeftOuts
	for i, it := range items {
		if !checks[i].Refused {
			keep = append(keep, it)
			continue
		}
		left = append(left, store.LeftOut{Payment: it.paymentTx, Commissions: it.commissions, To: lower(it.payout.To),
			AmountWei: store.Uint256{Int: it.payout.Value}, InToken: it.inToken, ChainSays: checks[i].Reason})
		if it.inToken != nil {
			left[len(left)-1].AmountWei = store.Uint256{Int: new(big.Int)}
		}
	}
	if len(keep) == 0 {
		return store.RefundBatch{}, errorf(http.StatusConflict, "No transfer of this batch can be made, so no batch was proposed: "+
			strings.Join(mapSlice(left, views.LeftOutSentence), " "))
	}
	tx, remaining, err := h.fitBatch(ctx, safe.Nonce, head, keep)
	if err != nil {
		return store.RefundBatch{}, err
	}
	keep = keep[:len(keep)-remaining]
	nb := store.NewRefundBatch{}
	for _, it := range keep {
		if it.commissions != nil {
			nb.Commissions = append(nb.Commissions, it.commissions...)
		} else {
			nb.Payments = append(nb.Payments, it.payment)
		}
	}
	hash := tx.Hash(big.NewInt(h.cfg.ChainID), h.cfg.Treasury)
	zero := store.Uint256{Int: new(big.Int)}
	nb.RefundBatch = store.RefundBatch{Safe: lower(h.cfg.Treasury), To: lower(tx.To),
		Value: store.Uint256{Int: tx.Value}, Data: append([]byte{}, tx.Data...), Operation: tx.Operation, SafeTxGas: zero, BaseGas: zero,
		GasPrice: zero, GasToken: lower(tx.GasToken), RefundReceiver: lower(tx.RefundReceiver), Nonce: store.Uint256{Int: tx.Nonce},
		SafeTxHash: strings.ToLower(hash.Hex()), Threshold: int(safe.Threshold), ProposedBy: h.actor(c).Who, LeftOut: left, Remaining: remaining}
	var b store.RefundBatch
	err = h.audited(c, action, nb.SafeTxHash, func(t store.Tx, e *store.AuditEntry) (err error) {
		if b, err = t.AddRefundBatch(ctx, nb); err != nil {
			return err
		}
		e.After = map[string]any{"id": b.ID, "kind": b.Kind, "safeTxHash": b.SafeTxHash, "nonce": b.Nonce.String(),
			"payments": len(nb.Payments), "commissions": len(nb.Commissions), "leftOut": len(left), "remaining": remaining}
		e.Outcome = outcome(b, batchTotal(b))
		return nil
	})
	if err != nil {
		return store.RefundBatch{}, refundBatchError(err)
	}
	return b, nil
}

// treasuryCovers answers 409 when the treasury holds less at block head than items pay, in ETH
// or in a token: every transfer would then be refused for the treasury's want, not its payee's.
func (h *Handlers) treasuryCovers(ctx context.Context, safe chain.Safe, head uint64, items []batchItem) error {
	eth, tokens := new(big.Int), map[common.Address]*big.Int{}
	for _, it := range items {
		if it.payout.Token == (common.Address{}) {
			eth.Add(eth, it.payout.Value)
			continue
		}
		if tokens[it.payout.Token] == nil {
			tokens[it.payout.Token] = new(big.Int)
		}
		tokens[it.payout.Token].Add(tokens[it.payout.Token], it.payout.Value)
	}
	if eth.Cmp(safe.Balance) > 0 {
		return errorf(http.StatusConflict, fmt.Sprintf("The treasury holds %s ETH and this batch pays %s ETH: fund the treasury (or let the sweeps bring the payments wallet's ETH) first. No batch was proposed.",
			views.ETH(store.Uint256{Int: safe.Balance}), views.ETH(store.Uint256{Int: eth})))
	}
	for token, want := range tokens {
		held, err := h.chain.TokenBalanceAt(ctx, token, h.cfg.Treasury, new(big.Int).SetUint64(head))
		if err != nil {
			return err
		}
		if want.Cmp(held) > 0 {
			t, ok := h.sale.Token(lower(token))
			if !ok {
				t = store.Token{Address: lower(token), Symbol: "units of " + lower(token)}
			}
			return errorf(http.StatusConflict, fmt.Sprintf("The treasury holds %s and this batch pays %s: fund the treasury (or let the sweeps bring the payments wallet's tokens) first. No batch was proposed.",
				t.Units(held), t.Units(want)))
		}
	}
	return nil
}

// fitBatch builds the batch of items' payouts at nonce and simulates it at block head in the
// Safe's place: it keeps as many items, in order, as one transaction's gas allows (the block's
// gas limit, EIP-7825's cap, and BatchMaxGas when set), and says how many it left for a later
// batch. A batch whose simulation reverts is a 409 that says to check the treasury's holdings.
func (h *Handlers) fitBatch(ctx context.Context, nonce *big.Int, head uint64, items []batchItem) (chain.SafeTx, int, error) {
	n := len(items)
	for {
		tx := chain.Batch(h.cfg.MultiSend, nonce, payoutsOf(items[:n]))
		gas, blockGas, err := h.chain.BatchGas(ctx, h.cfg.Treasury, head, tx)
		if errors.Is(err, chain.ErrBatchReverts) {
			return chain.SafeTx{}, 0, errorf(http.StatusConflict, fmt.Sprintf("The batch's simulation at block %d reverts, so the treasury could not execute it: "+
				"check that the treasury holds its total in ETH and in each token. No batch was proposed.", head))
		}
		if err != nil {
			return chain.SafeTx{}, 0, err
		}
		limit := min(blockGas, chain.TxGasCap)
		if h.cfg.BatchMaxGas > 0 {
			limit = min(limit, h.cfg.BatchMaxGas)
		}
		if gas+safeExecGas <= limit {
			return tx, len(items) - n, nil
		}
		if n == 1 || limit <= safeExecGas {
			return chain.SafeTx{}, 0, errorf(http.StatusConflict, fmt.Sprintf("One transfer of this batch alone takes %d gas, more than a transaction may (%d): "+
				"no batch was proposed.", gas+safeExecGas, limit))
		}
		// Transfers cost about the same each: cut to the share that fits, with a tenth to spare.
		n = max(1, min(n-1, int(uint64(n)*(limit-safeExecGas)/gas*9/10)))
	}
}

// refundBatchError is the answer to a batch the store refused, naming the payment.
func refundBatchError(err error) error {
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
		return errorf(http.StatusConflict, "This refund batch is executed, failed or void: it takes no more approvals.")
	}
	return notFound(err, errNoRefundBatch)
}

// Limits of GET /api/admin/refund-batches.
const (
	refundBatchesDefault = 50
	refundBatchesMax     = 200
)

// RefundBatches answers GET /api/admin/refund-batches?limit=: the latest batches, newest first.
func (h *Handlers) RefundBatches(c echo.Context) error {
	limit, err := parseLimit(c.QueryParam("limit"), c.QueryParams().Has("limit"), refundBatchesDefault, refundBatchesMax)
	if err != nil {
		return err
	}
	bs, err := h.store.RefundBatches(c.Request().Context(), limit)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, mapSlice(bs, refundBatchOf))
}

// RefundBatch answers GET /api/admin/refund-batches/{id}.
func (h *Handlers) RefundBatch(c echo.Context) error {
	id, err := refundBatchID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	b, _, err := h.refundBatchNow(ctx, id)
	if err != nil {
		return err
	}
	out, err := h.batchAnswer(ctx, b)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

// refundBatchNow is batch id with its approvals counted against the treasury's owners and
// threshold read now (the Safe, returned): a signature of an owner removed since the last pass
// is no longer counted nor given in execData, which the Safe would refuse (GS026).
func (h *Handlers) refundBatchNow(ctx context.Context, id int64) (store.RefundBatch, chain.Safe, error) {
	b, err := h.store.RefundBatch(ctx, id)
	if err != nil {
		return b, chain.Safe{}, notFound(err, errNoRefundBatch)
	}
	safe, err := h.chain.Safe(ctx, common.HexToAddress(b.Safe))
	if err != nil || !b.Status.Open() {
		return b, safe, err
	}
	owners := mapSlice(safe.Owners, lower)
	stale := b.Threshold != int(safe.Threshold) ||
		slices.ContainsFunc(b.Approvals, func(a store.BatchApproval) bool { return !slices.Contains(owners, a.Owner) }) ||
		slices.ContainsFunc(b.Dropped, func(a store.BatchApproval) bool { return slices.Contains(owners, a.Owner) })
	if !stale {
		return b, safe, nil
	}
	if _, err := h.store.CountApprovals(ctx, b.Safe, owners, int(safe.Threshold)); err != nil {
		return b, safe, err
	}
	b, err = h.store.RefundBatch(ctx, id)
	return b, safe, err
}

// refundBatchID reads the :id of a refund batch route.
func refundBatchID(c echo.Context) (int64, error) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, errNoRefundBatch
	}
	return id, nil
}

// approvalBody is POST /api/admin/refund-batches/{id}/approvals' body: an owner's EIP-712
// signature of the batch's SafeTx, 65 bytes (r, s, v) as 0x hex.
type approvalBody struct {
	Signature string `json:"signature"`
}

// ApproveRefundBatch answers POST /api/admin/refund-batches/{id}/approvals: it keeps an owner's
// signature of the batch, checked to recover to one of the treasury's owners as the chain holds
// them now; the same owner again changes nothing. The caller only carries the signature: no key
// the service holds can make one.
func (h *Handlers) ApproveRefundBatch(c echo.Context) error {
	if h.cfg.Treasury == (common.Address{}) {
		return errNoTreasury
	}
	id, err := refundBatchID(c)
	if err != nil {
		return err
	}
	var body approvalBody
	if err := decodeBody(c, &body); err != nil {
		return err
	}
	b, err := h.approveRefundBatch(c, id, body.Signature)
	if err != nil {
		return err
	}
	out, err := h.batchAnswer(c.Request().Context(), b)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, out)
}

// approveRefundBatch keeps signature (0x hex) of batch id once it recovers to one of the
// treasury's owners now, audited with the owner and who carried it (the admin key, or the
// operator signed in on the page): the one way an approval is taken.
func (h *Handlers) approveRefundBatch(c echo.Context, id int64, signature string) (store.RefundBatch, error) {
	if h.cfg.Treasury == (common.Address{}) {
		return store.RefundBatch{}, errNoTreasury
	}
	sig, err := hexutil.Decode(signature)
	if err != nil || len(sig) != 65 {
		return store.RefundBatch{}, errorf(http.StatusBadRequest, `"signature" must be 65 bytes as 0x hex: an owner's EIP-712 signature of the batch's SafeTx.`)
	}
	ctx := c.Request().Context()
	b, err := h.store.RefundBatch(ctx, id)
	if err != nil {
		return store.RefundBatch{}, notFound(err, errNoRefundBatch)
	}
	if b.Status == store.BatchVoid {
		return store.RefundBatch{}, errorf(http.StatusConflict, "This batch is void: "+
			views.VoidWhy(b.VoidReason, b.VoidPayment, b.VoidRefundTx, b.BlockNumber)+" Propose its payments still owed again.")
	}
	if !b.Status.Open() {
		return store.RefundBatch{}, refundBatchError(store.ErrBatchDecided)
	}
	safe, err := h.chain.Safe(ctx, common.HexToAddress(b.Safe))
	if err != nil {
		return store.RefundBatch{}, err
	}
	owner, err := chain.SafeSigner(common.HexToHash(b.SafeTxHash), sig, safe.Owners)
	if errors.Is(err, chain.ErrNotAnOwner) {
		return store.RefundBatch{}, errorf(http.StatusBadRequest, fmt.Sprintf("The signature is not one of the treasury's owners' signatures of this batch's Safe transaction %s: "+
			"sign it with an owner's wallet (EIP-712 SafeTx).", b.SafeTxHash))
	}
	if err != nil {
		return store.RefundBatch{}, err
	}
	owners := mapSlice(safe.Owners, lower)
	a := store.NewApproval{Owner: lower(owner), Signature: sig, SubmittedBy: h.actor(c).Who, Owners: owners,
		Threshold: int(safe.Threshold)}
	err = h.audited(c, store.ActionRefundApprove, b.SafeTxHash, func(t store.Tx, e *store.AuditEntry) (err error) {
		if b, _, err = t.AddApproval(ctx, id, a); err != nil {
			return err
		}
		e.After = map[string]any{"id": b.ID, "owner": a.Owner, "status": b.Status}
		e.Outcome = store.AuditOutcome{Code: store.OutcomeRefundBatchApproved, Args: store.AuditArgs{Batch: b.ID, Kind: b.Kind,
			Address: a.Owner, Approvals: len(b.Approvals), Threshold: b.Threshold}}
		return nil
	})
	if err != nil {
		return store.RefundBatch{}, refundBatchError(err)
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

// refundBatchSentence is what came of proposing or approving a batch, for the audit.
func refundBatchSentence(o store.AuditOutcome) string {
	a := o.Args
	// A commission batch is signed, executed and decided as a refund batch is; only what it pays differs.
	Batch, paid, owed := "Refund batch", "its payments are refunded", "its payments are owed a refund again"
	if a.Kind == store.BatchCommissions {
		Batch, paid, owed = "Commission batch", "its commissions are paid", "its commissions are owed again"
	}
	batch := strings.ToLower(Batch)
	switch o.Code {
	case store.OutcomeRefundBatchProposed:
		return fmt.Sprintf("Proposed refund batch %d: %s, %s in all, at the treasury's nonce %s; it waits for the owners' signatures.",
			a.Batch, words.Count(a.Refunds, "refund", "refunds"), amountsWords(a.AmountWei, a.Tokens), a.Nonce)
	case store.OutcomeCommissionBatchProposed:
		return commissionBatchSentence(a)
	case store.OutcomeRefundBatchExecuted:
		return fmt.Sprintf("%s %d executed by transaction %s: %s.", Batch, a.Batch, a.TxHash, paid)
	case store.OutcomeRefundBatchFailed:
		return fmt.Sprintf("%s %d failed in transaction %s: the treasury paid nothing, and %s.", Batch, a.Batch, a.TxHash, owed)
	case store.OutcomeRefundBatchReverted:
		return fmt.Sprintf("Transaction %s, sent to execute %s %d, reverted. %s The treasury paid nothing, and the batch waits for another attempt.",
			a.TxHash, batch, a.Batch, views.SafeError(a.SafeError))
	case store.OutcomeRefundBatchVoid:
		return fmt.Sprintf("%s %d is void: the treasury executed another transaction at its nonce %s. I%s.",
			Batch, a.Batch, a.Nonce, owed[1:])
	case store.OutcomeRefundBatchVoidRefunded:
		return fmt.Sprintf("%s %d is void: payment %s in it was refunded by hand in %s at block %d, and executed it would pay it twice. "+
			"The rest of its payments are owed a refund again.", Batch, a.Batch, a.Payment, a.TxHash, a.Block)
	}
	return fmt.Sprintf("%s approved %s %d: %d of %d signatures.", a.Address, batch, a.Batch, a.Approvals, a.Threshold)
}

// executionBody is POST /api/admin/refund-batches/{id}/executions' body: the hash of a
// transaction sent to the treasury to execute the batch.
type executionBody struct {
	TxHash string `json:"txHash"`
}

// ReportRefundExecution answers POST /api/admin/refund-batches/{id}/executions, and the same from
// the batch's page (/operator/refund-batches/{id}/executions): whoever sent a batch's
// execTransaction tells the service, which reads the transaction from the chain
// and follows it. One that reverts logs nothing, so this is how the batch's page and the audit
// learn that it was tried and why it failed.
func (h *Handlers) ReportRefundExecution(c echo.Context) error {
	if h.cfg.Treasury == (common.Address{}) {
		return errNoTreasury
	}
	id, err := refundBatchID(c)
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
	return c.JSON(http.StatusOK, refundBatchOf(b))
}

// reportExecution records transaction txHash (0x hex) as an attempt to execute batch id, once
// the chain shows it calls the treasury's execTransaction with the batch's Safe transaction, and
// answers the batch: the one way an attempt is reported, from the page or a script.
func (h *Handlers) reportExecution(c echo.Context, id int64, txHash string) (store.RefundBatch, error) {
	hash, err := parseTxHash(txHash)
	if err != nil {
		return store.RefundBatch{}, errorf(http.StatusBadRequest, `"txHash" must be the hash of the transaction sent to execute the batch: 0x followed by 64 hexadecimal digits.`)
	}
	ctx := c.Request().Context()
	b, err := h.store.RefundBatch(ctx, id)
	if err != nil {
		return store.RefundBatch{}, notFound(err, errNoRefundBatch)
	}
	err = h.jobs.RecordAttempt(ctx, b, common.HexToHash(hash), h.actor(c).Who)
	switch {
	case errors.Is(err, chain.ErrUnknownTx):
		return store.RefundBatch{}, errorf(http.StatusBadRequest, fmt.Sprintf("The chain knows no transaction %s: report it once it is sent.", hash))
	case errors.Is(err, chain.ErrNotAnExecution):
		return store.RefundBatch{}, errorf(http.StatusBadRequest, fmt.Sprintf("Transaction %s does not call the treasury's execTransaction.", hash))
	case errors.Is(err, jobs.ErrOtherSafeTx):
		return store.RefundBatch{}, errorf(http.StatusBadRequest, fmt.Sprintf("Transaction %s executes another Safe transaction than refund batch %d.", hash, id))
	case err != nil:
		return store.RefundBatch{}, err
	}
	return h.store.RefundBatch(ctx, id)
}
