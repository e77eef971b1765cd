package handlers

import (
	"context"
	"math/big"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"nodeledger/views"
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
	// InternalTransfers says whether payments sent by contract wallets are seen (jobs'
	// InternalTransfers): "traced", "unsupported" when the RPC has no debug_traceBlockByNumber
	// (their ETH is then listed as unattributed inflows), "not needed" while no block scanned
	// needed a trace; null before the first scan.
	InternalTransfers *string `json:"internalTransfers"`
	// Outbox is absent when the ledger could not be read for it.
	Outbox *outboxJSON `json:"outbox,omitempty"`
}

// outboxJSON is what health says of the transactions the service sent.
type outboxJSON struct {
	Waiting          int     `json:"waiting"`
	OldestWaitingSec *int64  `json:"oldestWaitingSec"`
	Replacements     int64   `json:"replacements"`
	AtFeeCap         int     `json:"atFeeCap"`
	MaxFeeWei        *string `json:"maxFeeWei"`
}

// Health answers GET /api/cron/health: the scheduler's last tick from the ledger and the
// contract's figures from the chain. A chain reading that fails is null, never zero; no account
// address appears.
func (h *Handlers) Health(c echo.Context) error {
	r, err := h.health(c.Request().Context())
	if err != nil {
		return err
	}
	out := healthJSON{
		StaleAfterSec:     r.StaleAfterSec,
		TickSec:           r.TickSec,
		DistEnabled:       r.DistEnabled,
		DistMode:          string(r.DistMode),
		DueNodes:          r.Schedule.DueNodes,
		ScheduledNodes:    r.Schedule.ScheduledNodes,
		Stale:             r.Stale,
		LastTickAt:        isoTime(r.Schedule.LastTickAt),
		InternalTransfers: r.InternalTransfers,
	}
	if r.Schedule.LastTickAt != nil {
		since := int64(r.SinceTick.Seconds())
		out.SecondsSinceLastTick = &since
	}
	if cv := r.Cover; cv != nil {
		out.Paused, out.IsSolvent = &cv.Paused, &cv.Solvent
		out.ContractBalanceWei, out.OutstandingWei = weiPtr(cv.Balance), weiPtr(cv.Outstanding)
	}
	if r.DistributorBalance != nil {
		out.DistributorBalanceWei = weiPtr(r.DistributorBalance)
	}
	if ob := r.Outbox; ob != nil {
		out.Outbox = &outboxJSON{Waiting: ob.Waiting, Replacements: ob.Replacements, AtFeeCap: ob.AtCap}
		if ob.OldestAt != nil {
			age := int64(time.Since(*ob.OldestAt).Seconds())
			out.Outbox.OldestWaitingSec = &age
		}
		if r.MaxFeeWei != nil {
			out.Outbox.MaxFeeWei = weiPtr(r.MaxFeeWei)
		}
	}
	return c.JSON(http.StatusOK, out)
}

// HealthPage answers GET /health: the same reading, for people.
func (h *Handlers) HealthPage(c echo.Context) error {
	r, err := h.health(c.Request().Context())
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.HealthPage(r))
}

// health takes the scheduler health reading that /api/cron/health and /health show.
func (h *Handlers) health(ctx context.Context) (views.Health, error) {
	sc, err := h.store.Schedule(ctx)
	if err != nil {
		return views.Health{}, err
	}
	r := views.Health{
		Schedule:      sc,
		StaleAfterSec: h.cfg.StaleAfterSec,
		TickSec:       h.cfg.TickSec,
		DistEnabled:   h.cfg.DistEnabled,
		DistMode:      h.cfg.DistMode,
		Stale:         true, // a worker that never ticked is stale
		Contract:      strings.ToLower(h.chain.Factory().Hex()),
	}
	if sc.LastTickAt != nil {
		r.SinceTick = time.Since(*sc.LastTickAt)
		r.Stale = r.SinceTick > time.Duration(h.cfg.StaleAfterSec)*time.Second
	}
	if v := h.jobs.InternalTransfers(); v != "" {
		r.InternalTransfers = &v
	}
	if ob, err := h.jobs.Outbox(ctx); err != nil {
		h.log.Warn("health: outbox unreadable", "err", err)
	} else {
		r.Outbox, r.MaxFeeWei = &ob, h.jobs.MaxFee()
	}
	if cv, err := h.chain.Cover(ctx); err != nil {
		h.log.Warn("health: chain unreadable", "err", err)
	} else {
		r.Cover = coverView(cv)
	}
	if bal, err := h.distributorBalance(ctx); err != nil {
		h.log.Warn("health: distributor balance unreadable", "err", err)
	} else {
		r.DistributorBalance = bal
	}
	return r, nil
}

// distributorBalance reads the float of the account the factory takes credit rounds from.
func (h *Handlers) distributorBalance(ctx context.Context) (*big.Int, error) {
	addr, err := h.chain.Distributor(ctx)
	if err != nil {
		return nil, err
	}
	return h.chain.Balance(ctx, addr)
}

func weiPtr(x *big.Int) *string {
	s := x.String()
	return &s
}
