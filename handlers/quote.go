package handlers

import (
	"context"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"nodeledger/jobs/sale"
	"nodeledger/store"
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

// quote is what a payment must be to buy a node.
type quote struct {
	Tier           store.Tier
	PaymentAddress string
	ChainID        int64
}

// deployQuote is the quote of /api/deploy-quote; 503 without a payments address or a tier on sale.
func (h *Handlers) deployQuote(ctx context.Context) (quote, error) {
	if h.cfg.PaymentAddress == "" {
		return quote{}, errorf(http.StatusServiceUnavailable, "No payments address is configured, so nodes cannot be bought right now.")
	}
	tiers, err := h.sale.TiersNow(ctx)
	if err != nil {
		return quote{}, err
	}
	tier, ok := cheapestOnSale(tiers)
	if !ok {
		return quote{}, errorf(http.StatusServiceUnavailable, "No tier is on sale right now, so nodes cannot be bought.")
	}
	return quote{Tier: tier, PaymentAddress: h.cfg.PaymentAddress, ChainID: h.cfg.ChainID}, nil
}

// cheapestOnSale is the cheapest tier that sells now (its phase is open), the lowest id of equals.
func cheapestOnSale(tiers []sale.TierNow) (store.Tier, bool) {
	var best store.Tier
	found := false
	for _, t := range tiers {
		if t.Phase.Open() && (!found || t.PriceWei.Cmp(best.PriceWei.Int) < 0) {
			best, found = t.Tier, true
		}
	}
	return best, found
}
