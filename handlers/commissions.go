package handlers

import (
	"net/http"

	"github.com/ethereum/go-ethereum/common"
	"github.com/labstack/echo/v4"

	"nodeledger/chain"
	"nodeledger/jobs/treasury"
	"nodeledger/store"
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

// proposeCommissionBatch builds and records the batch that pays the commissions ids (nil: every
// one owed outside a batch), audited as the request's actor.
func (h *Handlers) proposeCommissionBatch(c echo.Context, ids []int64) (store.TreasuryBatch, error) {
	if h.cfg.Treasury == (common.Address{}) {
		return store.TreasuryBatch{}, errNoTreasury
	}
	owed, err := h.store.OwedCommissions(c.Request().Context(), ids)
	if err != nil {
		return store.TreasuryBatch{}, batchError(err)
	}
	grouped := store.Payouts(owed)
	items := make([]treasury.Item, len(grouped))
	for i, p := range grouped {
		items[i] = treasury.Item{Payout: chain.Payout{To: common.HexToAddress(p.To), Value: p.ValueWei.Int}, Commissions: p.Commissions}
		if p.InToken != nil {
			items[i].Payout.Token, items[i].Payout.Value, items[i].InToken = common.HexToAddress(p.InToken.Address), p.InToken.Amount.Int, p.InToken
		}
	}
	return h.proposeBatch(c, store.BatchCommissions, items, func(b store.TreasuryBatch) store.AuditOutcome {
		commissions, referrers := 0, map[string]bool{}
		for _, p := range b.Payouts {
			commissions, referrers[p.To] = commissions+len(p.Commissions), true
		}
		return store.AuditOutcome{Code: store.OutcomeBatchProposed, Args: store.AuditArgs{Batch: b.ID, Kind: b.Kind,
			Commissions: commissions, Referrers: len(referrers), AmountWei: batchTotal(b), Tokens: store.TokenTotals(nil, b.Payouts),
			Nonce: b.Nonce.String()}}
	})
}
