package handlers

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"nodeledger/jobs"
	"nodeledger/jobs/sale"
	"nodeledger/store"
	"nodeledger/views"
)

// OperatorLive answers GET /operator/live: the sale as it runs, the fragment the operator page
// polls (LiveRefresh) and, without htmx, a page of its own, current when loaded. The page's
// checks: any operator role sees it; a stranger gets the sign-in (htmx is sent there).
func (h *Handlers) OperatorLive(c echo.Context) error {
	htmx := c.Request().Header.Get("HX-Request") == "true"
	me, err := h.operatorSession(c)
	switch {
	case errors.Is(err, store.ErrNotFound) && htmx:
		c.Response().Header().Set("HX-Redirect", "/operator")
		return errorf(http.StatusUnauthorized, "You are not signed in as an operator, or your session has ended: sign in again on the operator page.")
	case errors.Is(err, store.ErrNotFound):
		return render(c, http.StatusOK, views.OperatorSignIn(h.cfg.DevAdmin, "/operator"))
	case err != nil:
		return err
	case !me.Role.AtLeast(store.RoleViewer):
		return errorf(http.StatusForbidden, fmt.Sprintf("Your role (%s) cannot see the operator page.", me.Role))
	}
	live, err := h.saleLive(c.Request().Context())
	if err != nil {
		return err
	}
	live.Standalone = !htmx || c.QueryParam("standalone") == "true"
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
	// In the catalogue's order, each under its label; a code this version does not know last.
	for _, e := range sale.Catalogue {
		for _, r := range l.SaleLive.Rejections {
			if r.Code == e.Code {
				l.Reasons = append(l.Reasons, views.LiveReason{Rejections: r, Label: e.Label})
			}
		}
	}
	for _, r := range l.SaleLive.Rejections {
		if sale.Entry(r.Code).Code != r.Code {
			l.Reasons = append(l.Reasons, views.LiveReason{Rejections: r, Label: sale.Entry(r.Code).Label})
		}
	}
	totals, err := h.totals.Get(ctx)
	if err != nil {
		return l, err
	}
	l.NodesTotal, l.Revenue, l.TotalsAt = totals.nodes, totals.revenue, totals.at
	if l.USD, err = h.price.Get(ctx); err != nil {
		return l, err
	}
	if ob, err := h.jobs.Outbox(ctx); err == nil {
		l.Outbox = &ob
	}
	tiers, err := h.sale.Tiers(ctx)
	if err != nil {
		return l, err
	}
	l.Tiers = mapSlice(tiers, func(t sale.TierNow) views.OperatorTier {
		return views.OperatorTier{Tier: t.Tier, Sold: t.Sold, Remaining: t.Remaining, Phase: t.Phase, OpensAt: t.OpensAt}
	})
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
	revenue store.Revenue // what the minted payments paid, every tier
	at      time.Time
}

const (
	totalsTTL   = 30 * time.Second
	totalsStale = 30 * time.Second
)

func (h *Handlers) loadTotals(ctx context.Context) (saleTotals, error) {
	t := saleTotals{at: time.Now()}
	var err error
	if t.nodes, err = h.store.NodeCount(ctx); err != nil {
		return t, err
	}
	byTier, err := h.store.Revenue(ctx)
	if err != nil {
		return t, err
	}
	t.revenue = store.Total(byTier)
	return t, nil
}
