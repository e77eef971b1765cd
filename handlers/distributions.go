package handlers

import (
	"context"
	"encoding/json"
	"time"

	"github.com/labstack/echo/v4"

	"nodeledger/jobs/memo"
	"nodeledger/store"
)

// Limits of GET /api/distributions.
const (
	distributionsDefault = 50
	distributionsMax     = 100
)

// /api/distributions is served from memory for roundsTTL, then for up to roundsStale more while
// one query refreshes it, a memo for each limit asked: the list is the same for every caller and
// moves a few times a day (a round written, then confirmed), while every dashboard polls it. The
// spec lets a shared cache serve it 10 s old (s-maxage=10), so 3 s is within what callers accept.
const (
	roundsTTL   = time.Second
	roundsStale = 2 * time.Second
)

// newRounds is the memo of each limit's page of rounds, by limit.
func (h *Handlers) newRounds() []*memo.Value[json.RawMessage] {
	rounds := make([]*memo.Value[json.RawMessage], distributionsMax+1)
	for limit := 1; limit <= distributionsMax; limit++ {
		rounds[limit] = memo.NewOn(h.cfg.Now, roundsTTL, roundsStale, func(ctx context.Context) (json.RawMessage, error) {
			return h.read().DistributionsJSON(ctx, limit)
		}).Reads(store.ErrUnavailable)
	}
	return rounds
}

// Distributions answers GET /api/distributions: the latest rounds, newest first.
func (h *Handlers) Distributions(c echo.Context) error {
	limit, err := parseLimit(c.QueryParam("limit"), c.QueryParams().Has("limit"), distributionsDefault, distributionsMax)
	if err != nil {
		return err
	}
	body, err := h.rounds[limit].Get(c.Request().Context())
	if err != nil {
		return err
	}
	return document(c, body)
}
