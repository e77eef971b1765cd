package handlers

import (
	"context"
	"errors"
	"math/big"
	"net/http"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"nodeledger/jobs"
	"nodeledger/store"
	"nodeledger/views"
)

// OperatorLive answers GET /operator/live: the sale as it runs, the fragment the operator page
// polls (LiveRefresh) and, without htmx, a page of its own, current when loaded. The page's
// checks: any operator role sees it; a stranger gets the sign-in (htmx is sent there).
func (h *Handlers) OperatorLive(c echo.Context) error {
	htmx := c.Request().Header.Get("HX-Request") == "true"
	_, err := h.operatorSession(c)
	switch {
	case errors.Is(err, store.ErrNotFound) && htmx:
		c.Response().Header().Set("HX-Redirect", "/operator")
		return errorf(http.StatusUnauthorized, "You are not signed in as an operator, or your session has ended: sign in again on the operator page.")
	case errors.Is(err, store.ErrNotFound):
		return render(c, http.StatusOK, views.OperatorSignIn(h.cfg.DevAdmin))
	case err != nil:
		return err
	}
	live, err := h.saleLive(c.Request().Context())
	if err != nil {
		return err
	}
	if htmx {
		return render(c, http.StatusOK, views.OperatorLive(live))
	}
	return render(c, http.StatusOK, views.OperatorLivePage(live))
}

// saleLive reads the live view: the ledger's figures at this instant, the all-time totals as
// saleTotals last read them, the outbox, the signers' funds and how the passes go.
func (h *Handlers) saleLive(ctx context.Context) (views.SaleLive, error) {
	now := time.Now()
	l := views.SaleLive{Now: now, MaxFeeWei: h.jobs.MaxFee()}
	// The signers' balances are the chain's to tell, each an RPC round trip: read beside the ledger.
	var funds jobs.Funds
	var wg sync.WaitGroup
	wg.Go(func() { funds = h.jobs.Funds(ctx) })
	defer wg.Wait()
	var err error
	if l.SaleLive, err = h.store.SaleLive(ctx, now); err != nil {
		return l, err
	}
	for _, r := range l.SaleLive.Rejections {
		l.Reasons = append(l.Reasons, views.LiveReason{Rejections: r, Label: reasonLabel(r.Code)})
	}
	totals, err := h.totals.get(ctx)
	if err != nil {
		return l, err
	}
	l.NodesTotal, l.RevenueWei, l.TotalsAt = totals.nodes, totals.revenue, totals.at
	if l.USD, err = h.price.get(ctx); err != nil {
		return l, err
	}
	if ob, err := h.jobs.Outbox(ctx); err == nil {
		l.Outbox = &ob
	}
	statuses, err := h.store.PassStatuses(ctx)
	if err != nil {
		return l, err
	}
	wg.Wait()
	l.Signers, l.DistributorBalance = h.signersView(funds, statuses), funds.Distributor
	return l, nil
}

// saleTotals are the sale's all-time figures, which read every node and every minted payment:
// on a ledger of a million that is a second or more, too much for every refresh of every
// operator's page, so they are read at most every totalsTTL (totalsStale more while one read
// refreshes them) and the view says when.
type saleTotals struct {
	nodes   int64
	revenue *big.Int // what the minted payments paid, every tier
	at      time.Time
}

const (
	totalsTTL   = 30 * time.Second
	totalsStale = 30 * time.Second
)

func (h *Handlers) loadTotals(ctx context.Context) (saleTotals, error) {
	t := saleTotals{revenue: new(big.Int), at: time.Now()}
	var err error
	if t.nodes, err = h.store.NodeCount(ctx); err != nil {
		return t, err
	}
	byTier, err := h.store.Revenue(ctx)
	if err != nil {
		return t, err
	}
	for _, wei := range byTier {
		t.revenue.Add(t.revenue, wei.Int)
	}
	return t, nil
}

// reasonLabel names a reason code in a few words, for the live view's count of rejections by
// reason (reasonSentence says a payment's whole reason).
func reasonLabel(code store.ReasonCode) string {
	switch code {
	case store.ReasonWrongAmount:
		return "Wrong amount"
	case store.ReasonNoTierOnSale:
		return "No tier on sale"
	case store.ReasonMintingPaused:
		return "Minting paused"
	case store.ReasonWalletLimit:
		return "Wallet at the tier's limit"
	case store.ReasonContractWalletLimit:
		return "Wallet at the contract's limit"
	case store.ReasonHoldingTooLow:
		return "Holds too little of the token"
	case store.ReasonContractRefused:
		return "Refused by the contract"
	case store.ReasonSoldOut:
		return "Sold out"
	case store.ReasonNotOpen:
		return "Tier not open yet"
	case store.ReasonClosed:
		return "Tier closed"
	case store.ReasonNotAllowlisted:
		return "Not on the allowlist"
	case store.ReasonAllocationUsed:
		return "Allowlist allocation used"
	}
	return "Other"
}
