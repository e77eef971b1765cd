package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// Tiers answers GET /api/tiers: every tier, on sale or not.
func (h *Handlers) Tiers(c echo.Context) error {
	tiers, err := h.store.Tiers(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"tiers": mapSlice(tiers, toTierJSON)})
}
