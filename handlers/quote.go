package handlers

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"nodeledger/store"
)

// DeployQuote answers GET /api/deploy-quote: what to send, where, on which chain, to buy a node of
// the cheapest tier on sale. Both the address and the price come from the operator's
// configuration, never from the contract.
func (h *Handlers) DeployQuote(c echo.Context) error {
	if h.cfg.PaymentAddress == "" {
		return errorf(http.StatusServiceUnavailable, "No payments address is configured, so nodes cannot be bought right now.")
	}
	tiers, err := h.store.Tiers(c.Request().Context())
	if err != nil {
		return err
	}
	tier, ok := cheapestOnSale(tiers)
	if !ok {
		return errorf(http.StatusServiceUnavailable, "No tier is on sale right now, so nodes cannot be bought.")
	}
	return c.JSON(http.StatusOK, map[string]any{
		"priceWei":       tier.PriceWei.String(),
		"paymentAddress": h.cfg.PaymentAddress,
		"chainId":        h.cfg.ChainID,
		"tier":           strconv.Itoa(tier.ID),
	})
}

func cheapestOnSale(tiers []store.Tier) (store.Tier, bool) {
	var best store.Tier
	found := false
	for _, t := range tiers {
		if t.OnSale && (!found || t.PriceWei.Cmp(best.PriceWei) < 0) {
			best, found = t, true
		}
	}
	return best, found
}
