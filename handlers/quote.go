package handlers

import (
	"context"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"nodeledger/store"
	"nodeledger/views"
)

// DeployQuote answers GET /api/deploy-quote: what to send, where, on which chain, to buy a node of
// the cheapest tier on sale. Both the address and the price come from the operator's
// configuration, never from the contract.
func (h *Handlers) DeployQuote(c echo.Context) error {
	q, err := h.deployQuote(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{
		"priceWei":       q.Tier.PriceWei.String(),
		"paymentAddress": q.PaymentAddress,
		"chainId":        q.ChainID,
		"tier":           strconv.Itoa(q.Tier.ID),
	})
}

// deployQuote is the quote /api/deploy-quote and /buy show; 503 without a payments address or
// a tier on sale.
func (h *Handlers) deployQuote(ctx context.Context) (views.Quote, error) {
	if h.cfg.PaymentAddress == "" {
		return views.Quote{}, errorf(http.StatusServiceUnavailable, "No payments address is configured, so nodes cannot be bought right now.")
	}
	tiers, err := h.store.Tiers(ctx)
	if err != nil {
		return views.Quote{}, err
	}
	tier, ok := cheapestOnSale(tiers)
	if !ok {
		return views.Quote{}, errorf(http.StatusServiceUnavailable, "No tier is on sale right now, so nodes cannot be bought.")
	}
	return views.Quote{Tier: tier, PaymentAddress: h.cfg.PaymentAddress, ChainID: h.cfg.ChainID}, nil
}

func cheapestOnSale(tiers []store.Tier) (store.Tier, bool) {
	var best store.Tier
	found := false
	for _, t := range tiers {
		if t.OnSale && (!found || t.PriceWei.Cmp(best.PriceWei.Int) < 0) {
			best, found = t, true
		}
	}
	return best, found
}
