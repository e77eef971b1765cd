package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"

	"github.com/ethereum/go-ethereum/common"
	"github.com/labstack/echo/v4"

	"nodeledger/store"
	"nodeledger/views"
)

// openBatches are the treasury's open batches as the operator page lists them; none
// without a treasury.
func (h *Handlers) openBatches(ctx context.Context) ([]views.BatchRow, error) {
	if h.cfg.Treasury == (common.Address{}) {
		return nil, nil
	}
	bs, err := h.store.OpenTreasuryBatches(ctx, lower(h.cfg.Treasury))
	if err != nil {
		return nil, err
	}
	return mapSlice(bs, func(b store.TreasuryBatch) views.BatchRow {
		v := views.TreasuryBatch{ID: b.ID, Kind: b.Kind, Refunds: b.Refunds, Payouts: b.Payouts}
		return views.BatchRow{ID: b.ID, Name: v.Name(), What: v.What(), Status: b.Status, TotalWei: batchTotal(b),
			Approvals: len(b.Approvals), Threshold: b.Threshold, CreatedAt: b.CreatedAt}
	}), nil
}

// batchTotal is what batch b pays out in all: its refunds or its commissions.
func batchTotal(b store.TreasuryBatch) store.Uint256 {
	total := new(big.Int)
	for _, r := range b.Refunds {
		total.Add(total, r.ValueWei.Int)
	}
	for _, p := range b.Payouts {
		total.Add(total, p.ValueWei.Int)
	}
	return store.Uint256{Int: total}
}

// ProposeBatchFromPage answers POST /operator/treasury-batches: a treasury batch of kind (field
// kind), built and audited as the admin API's, proposed by the signed-in operator. A refund batch
// pays the payments ticked (field payment, each a payment's transaction hash), or with all=true
// every payment owed a refund; a commission batch ("Pay owed commissions") every commission owed
// outside a batch. It answers with the batch's page (303), where the owners read it before they
// sign. implied is the kind of the paths before treasury batches (/operator/refund-batches and
// /operator/commission-batches), which answer as aliases.
func (h *Handlers) ProposeBatchFromPage(implied store.BatchKind) echo.HandlerFunc {
	return func(c echo.Context) error {
		kind := store.BatchKind(c.FormValue("kind"))
		if implied != "" {
			kind = implied
		}
		var b store.TreasuryBatch
		var err error
		switch kind {
		case store.BatchRefunds:
			var hashes []string
			if hashes, err = tickedPayments(c); err != nil {
				return err
			}
			b, err = h.proposeRefundBatch(c, hashes)
		case store.BatchCommissions:
			b, err = h.proposeCommissionBatch(c, nil)
		default:
			return errorf(http.StatusBadRequest, "The form names no kind of batch: reload the page and try again.")
		}
		if err != nil {
			return err
		}
		return c.Redirect(http.StatusSeeOther, string(views.BatchURL(b.ID)))
	}
}

// tickedPayments are the payments a refund form names: those ticked, or nil for all=true.
func tickedPayments(c echo.Context) ([]string, error) {
	if c.FormValue("all") == "true" {
		return nil, nil
	}
	form, err := c.FormParams()
	if err != nil {
		return nil, err
	}
	if len(form["payment"]) == 0 {
		return nil, errorf(http.StatusBadRequest, "Tick the payments to refund, or press Refund all owed: no batch was built.")
	}
	return txHashes(form["payment"])
}

// TreasuryBatchPage answers GET /operator/treasury-batches/{id}: the batch, every transfer in full
// and the Safe transaction its owners sign, with who signed and what it still needs; to htmx,
// the part that follows it (the page polls it while the batch is open). ?shown= is the status
// the page loaded with.
func (h *Handlers) TreasuryBatchPage(c echo.Context) error {
	id, err := batchID(c)
	if err != nil {
		return err
	}
	// Signed out, the batch's link signs its owner (or an operator) in and comes back here.
	me, err := h.operatorSession(c)
	switch {
	case errors.Is(err, store.ErrNotFound) && c.Request().Header.Get("HX-Request") != "true":
		return render(c, http.StatusOK, views.OperatorSignIn(h.cfg.DevAdmin, views.BatchURL(id)))
	case err != nil:
		_, err = h.liveOperator(c) // the 401 of a session gone, to the polling part
		return err
	}
	// The owners as the chain holds them now: whose signature counts, and whose would be refused.
	ctx := c.Request().Context()
	b, safe, err := h.treasury.Now(ctx, id)
	if err != nil {
		return notFound(err, errNoBatch)
	}
	j, err := h.batchAnswer(ctx, b)
	if err != nil {
		return err
	}
	safeTx, err := json.Marshal(j.SafeTx)
	if err != nil {
		return fmt.Errorf("TreasuryBatchPage: %w", err)
	}
	v := views.TreasuryBatch{ID: b.ID, Kind: b.Kind, Payouts: b.Payouts, Status: b.Status, Safe: b.Safe, SafeTxHash: b.SafeTxHash, To: b.To, Operation: b.Operation,
		Nonce: b.Nonce.String(), SafeNonce: safe.Nonce.String(), Threshold: b.Threshold, Owners: mapSlice(safe.Owners, lower),
		Signed: j.Approvals, Dropped: j.Dropped, Refunds: b.Refunds, TotalWei: j.TotalWei, SentTx: b.SentTx, ExecutedTx: b.ExecutedTx, Attempts: b.Attempts, Block: b.BlockNumber,
		LeftOut: b.LeftOut, Remaining: b.Remaining, VoidReason: b.VoidReason, VoidPayment: b.VoidPayment, VoidRefundTx: b.VoidRefundTx,
		ProposedBy: b.ProposedBy, CreatedAt: b.CreatedAt, Confirmations: h.jobs.Confirmations(), Me: me.Address,
		CanExecute: me.Role.AtLeast(store.RoleOperator) || me.Role == store.RoleSigner, CSRF: me.CSRF, SafeTx: string(safeTx), Shown: b.Status}
	if j.ExecData != nil {
		v.ExecData = *j.ExecData
	}
	if j.HeldBy != nil {
		v.Held = j.HeldBy.Reason
	}
	if shown := store.BatchStatus(c.QueryParam("shown")); shown.Open() {
		v.Shown = shown
	}
	if c.Request().Header.Get("HX-Request") == "true" {
		if v.Shown.Open() && b.Status == store.BatchExecuted {
			// Executed since the page loaded: the page comes again, led by its receipt.
			c.Response().Header().Set("HX-Refresh", "true")
		}
		return render(c, http.StatusOK, views.TreasuryBatchStatus(v))
	}
	return render(c, http.StatusOK, views.TreasuryBatchPage(v))
}
