package handlers

import (
	"context"
	"math/big"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
)

// healthJSON is the scheduler health reading; every pointer is null when it could not be read.
type healthJSON struct {
	LastTickAt            *string `json:"lastTickAt"`
	SecondsSinceLastTick  *int64  `json:"secondsSinceLastTick"`
	Stale                 bool    `json:"stale"`
	StaleAfterSec         int     `json:"staleAfterSec"`
	TickSec               int     `json:"tickSec"`
	DistEnabled           bool    `json:"distEnabled"`
	DistMode              string  `json:"distMode"`
	Paused                *bool   `json:"paused"`
	DueNodes              int64   `json:"dueNodes"`
	ScheduledNodes        int64   `json:"scheduledNodes"`
	DistributorBalanceWei *string `json:"distributorBalanceWei"`
	ContractBalanceWei    *string `json:"contractBalanceWei"`
	OutstandingWei        *string `json:"outstandingWei"`
	IsSolvent             *bool   `json:"isSolvent"`
	// InternalTransfers says whether payments sent by contract wallets are seen: "traced", or
	// "unsupported" when the RPC has no debug_traceBlockByNumber; null before the first scan.
	InternalTransfers *string `json:"internalTransfers"`
}

// Health answers GET /api/cron/health: the scheduler's last tick from the ledger and the
// contract's figures from the chain. A chain reading that fails is null, never zero; no account
// address appears.
func (h *Handlers) Health(c echo.Context) error {
	ctx := c.Request().Context()
	sc, err := h.store.Schedule(ctx)
	if err != nil {
		return err
	}
	out := healthJSON{
		StaleAfterSec:  h.cfg.StaleAfterSec,
		TickSec:        h.cfg.TickSec,
		DistEnabled:    h.cfg.DistEnabled,
		DistMode:       h.cfg.DistMode,
		DueNodes:       sc.DueNodes,
		ScheduledNodes: sc.ScheduledNodes,
		Stale:          true, // a worker that never ticked is stale
	}
	if sc.LastTickAt != nil {
		since := int64(time.Since(*sc.LastTickAt).Seconds())
		out.LastTickAt = isoTime(sc.LastTickAt)
		out.SecondsSinceLastTick = &since
		out.Stale = since > int64(h.cfg.StaleAfterSec)
	}

	if h.cfg.Jobs != nil {
		if v := h.cfg.Jobs.InternalTransfers(); v != "" {
			out.InternalTransfers = &v
		}
	}
	if cv, err := h.readCover(ctx); err != nil {
		h.log.Warn("health: chain unreadable", "err", err)
	} else {
		out.Paused, out.IsSolvent = &cv.Paused, &cv.Solvent
		out.ContractBalanceWei, out.OutstandingWei = weiPtr(cv.Balance), weiPtr(cv.Outstanding)
	}
	if bal, err := h.distributorBalance(ctx); err != nil {
		h.log.Warn("health: distributor balance unreadable", "err", err)
	} else {
		out.DistributorBalanceWei = weiPtr(bal)
	}
	return c.JSON(http.StatusOK, out)
}

// distributorBalance reads the float of the account the factory takes credit rounds from.
func (h *Handlers) distributorBalance(ctx context.Context) (*big.Int, error) {
	if h.cfg.Chain == nil {
		return nil, errNoChain
	}
	addr, err := h.cfg.Chain.Distributor(ctx)
	if err != nil {
		return nil, err
	}
	return h.cfg.Chain.Balance(ctx, addr)
}

func weiPtr(x *big.Int) *string {
	s := x.String()
	return &s
}
