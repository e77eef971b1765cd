package handlers

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/ethereum/go-ethereum/common"
	"github.com/labstack/echo/v4"

	"nodeledger/chain"
	"nodeledger/jobs/treasury"
	"nodeledger/store"
	"nodeledger/views"
	"nodeledger/views/words"
)

// payoutJSON is one transfer of a commission batch: a referrer and the sum of its commissions in
// the batch, in ETH (amountWei) or in a token (inToken, amountWei "0"). notPaid: the batch
// executed and the token moved nothing; the commissions are owed again.
type payoutJSON struct {
	To          string             `json:"to"`
	AmountWei   store.Uint256      `json:"amountWei"`
	InToken     *store.TokenAmount `json:"inToken"`
	Commissions []int64            `json:"commissions"`
	NotPaid     bool               `json:"notPaid"`
}

func payoutOf(p store.BatchPayout) payoutJSON {
	return payoutJSON{To: p.To, AmountWei: p.ValueWei, InToken: p.InToken, Commissions: p.Commissions, NotPaid: p.NotPaid}
}

// Commissions answers GET /api/admin/commissions?status=owed|paid (every one without status).
func (h *Handlers) Commissions(c echo.Context) error {
	status := store.CommissionStatus(c.QueryParam("status"))
	if status != "" && status != store.CommissionOwed && status != store.CommissionPaid {
		return errorf(http.StatusBadRequest, `status must be "owed" or "paid", or left out for every commission.`)
	}
	cs, err := h.store.Commissions(c.Request().Context(), status)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"commissions": cs})
}

// commissionBatchBody is POST /api/admin/commission-batches' body: commissions is a list of
// commission ids, or "all" for every commission owed outside a batch.
type commissionBatchBody struct {
	Commissions json.RawMessage `json:"commissions"`
}

// ids reads the body's commissions: nil for "all".
func (b commissionBatchBody) ids() ([]int64, error) {
	bad := errorf(http.StatusBadRequest, `"commissions" must be "all" or a list of commission ids.`)
	var all string
	if json.Unmarshal(b.Commissions, &all) == nil {
		if all != "all" {
			return nil, bad
		}
		return nil, nil
	}
	var list []int64
	if err := json.Unmarshal(b.Commissions, &list); err != nil || len(list) == 0 {
		return nil, bad
	}
	seen := map[int64]bool{}
	var out []int64
	for _, id := range list {
		if !seen[id] {
			seen[id], out = true, append(out, id)
		}
	}
	return out, nil
}

// ProposeCommissionBatch answers POST /api/admin/commission-batches: one treasury batch, built,
// signed, executed and matched as a refund batch is, with one transfer per referrer of the sum of
// its commissions named (or of every commission owed outside a batch). When it executes, those
// commissions are paid with its transaction.
func (h *Handlers) ProposeCommissionBatch(c echo.Context) error {
	var body commissionBatchBody
	if err := decodeBody(c, &body); err != nil {
		return err
	}
	ids, err := body.ids()
	if err != nil {
		return err
	}
	b, err := h.proposeCommissionBatch(c, ids)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, refundBatchOf(b))
}

// PayCommissionsFromPage answers POST /operator/commission-batches ("Pay owed commissions"):
// every commission owed outside a batch becomes one treasury batch, built and audited as the
// admin API's, proposed by the signed-in operator. It answers with the batch's page (303), where
// the owners read it before they sign.
func (h *Handlers) PayCommissionsFromPage(c echo.Context) error {
	b, err := h.proposeCommissionBatch(c, nil)
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, string(views.RefundBatchURL(b.ID)))
}

// proposeCommissionBatch builds and records the batch that pays the commissions ids (nil: every
// one owed outside a batch), audited as the request's actor.
func (h *Handlers) proposeCommissionBatch(c echo.Context, ids []int64) (store.RefundBatch, error) {
	if h.cfg.Treasury == (common.Address{}) {
		return store.RefundBatch{}, errNoTreasury
	}
	owed, err := h.store.OwedCommissions(c.Request().Context(), ids)
	if err != nil {
		return store.RefundBatch{}, refundBatchError(err)
	}
	grouped := store.Payouts(owed)
	items := make([]treasury.Item, len(grouped))
	for i, p := range grouped {
		items[i] = treasury.Item{Payout: chain.Payout{To: common.HexToAddress(p.To), Value: p.ValueWei.Int}, Commissions: p.Commissions}
		if p.InToken != nil {
			items[i].Payout.Token, items[i].Payout.Value, items[i].InToken = common.HexToAddress(p.InToken.Address), p.InToken.Amount.Int, p.InToken
		}
	}
	return h.proposeBatch(c, items, store.ActionCommissionPropose, func(b store.RefundBatch) store.AuditOutcome {
		commissions, referrers := 0, map[string]bool{}
		for _, p := range b.Payouts {
			commissions, referrers[p.To] = commissions+len(p.Commissions), true
		}
		return store.AuditOutcome{Code: store.OutcomeCommissionBatchProposed, Args: store.AuditArgs{Batch: b.ID, Kind: b.Kind,
			Commissions: commissions, Referrers: len(referrers), AmountWei: batchTotal(b), Tokens: store.TokenTotals(nil, b.Payouts),
			Nonce: b.Nonce.String()}}
	})
}

// commissionBatchSentence is the audit's sentence of a commission batch proposed.
func commissionBatchSentence(a store.AuditArgs) string {
	return fmt.Sprintf("Proposed commission batch %d: %s to %s, %s in all, at the treasury's nonce %s; it waits for the owners' signatures.",
		a.Batch, words.Count(a.Commissions, "commission", "commissions"), words.Count(a.Referrers, "referrer", "referrers"),
		amountsWords(a.AmountWei, a.Tokens), a.Nonce)
}
