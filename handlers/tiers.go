package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"nodeledger/jobs/sale"
	"nodeledger/store"
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

// inToken is what payment p paid in a token, with the token's symbol and decimals; nil for an ETH
// payment. A token no longer listed is told by its address, in base units.
func (h *Handlers) inToken(p store.Payment) *store.TokenAmount {
	if p.Token == nil || p.Amount == nil {
		return nil
	}
	t, ok := h.sale.Token(*p.Token)
	if !ok {
		t = store.Token{Address: *p.Token, Symbol: "units of " + *p.Token}
	}
	return &store.TokenAmount{Token: t, Amount: *p.Amount}
}
