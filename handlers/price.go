package handlers

import (
	"context"
	"fmt"
	"math"
	"net/http"

	"github.com/labstack/echo/v4"
)

// Price answers GET /api/price: the ETH/USD quote for display, or null when there is none.
func (h *Handlers) Price(c echo.Context) error {
	usd, err := h.price.Get(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]*float64{"usd": usd})
}

// loadPrice asks the source once; a failure is a null quote, kept like any other for a minute so
// the source is read at most once a minute whatever it answers.
func (h *Handlers) loadPrice(ctx context.Context) (*float64, error) {
	if h.cfg.Price == nil {
		return nil, nil
	}
	usd, err := h.cfg.Price.USDPerETH(ctx)
	if err == nil && (math.IsNaN(usd) || math.IsInf(usd, 0) || usd <= 0) {
		err = fmt.Errorf("quote %v is not a price", usd)
	}
	if err != nil {
		h.log.Warn("price quote unavailable", "err", err)
		return nil, nil
	}
	return &usd, nil
}
