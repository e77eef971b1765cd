package handlers

import (
	"github.com/labstack/echo/v4"
)

// Limits of GET /api/distributions.
const (
	distributionsDefault = 50
	distributionsMax     = 100
)

// Distributions answers GET /api/distributions: the latest rounds, newest first.
func (h *Handlers) Distributions(c echo.Context) error {
	limit, err := parseLimit(c.QueryParam("limit"), c.QueryParams().Has("limit"), distributionsDefault, distributionsMax)
	if err != nil {
		return err
	}
	body, err := h.read().DistributionsJSON(c.Request().Context(), limit)
	if err != nil {
		return err
	}
	return document(c, body)
}
