package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"nodeledger/jobs/sale"
)

// Tiers answers GET /api/tiers: every tier, on sale or not, with the factory's weight of each and
// where its sale stands now, as of at most readTTL + readStale ago (h.sale).
func (h *Handlers) Tiers(c echo.Context) error {
	tiers, err := h.sale.Tiers(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"tiers": mapSlice(tiers, toTierNowJSON)})
}

// ruleStatus is the answer to a tier that breaks a rule of the sale: 409 when it contradicts
// what the tier sold (nothing stored: the ledger moved), 400 when it contradicts the other tiers.
func ruleStatus(e *sale.RuleError) int {
	if e.Rule == sale.SupplyBelowSold {
		return http.StatusConflict
	}
	return http.StatusBadRequest
}
