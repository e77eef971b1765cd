package handlers

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/labstack/echo/v4"

	"nodeledger/store"
	"nodeledger/views"
)

// BuyPage answers GET /buy?wallet=: the tiers on sale and how to pay, with what the wallet
// (?wallet=, else the signed-in one) holds of each tier and whether it meets its token threshold,
// read on demand.
func (h *Handlers) BuyPage(c echo.Context) error {
	ctx := c.Request().Context()
	b := views.Buy{PaymentAddress: h.cfg.PaymentAddress, Wallet: views.SiteOf(ctx).SignedIn, Now: time.Now()}
	if q := strings.TrimSpace(c.QueryParam("wallet")); q != "" {
		w, err := parseAddress(q)
		if err != nil {
			return err
		}
		b.Wallet = w
	}
	tiers, err := h.tiers(ctx)
	if err != nil {
		return err
	}
	if b.Held, err = h.store.MintingHeld(ctx); err != nil {
		return err
	}
	if b.USD, err = h.price.get(ctx); err != nil {
		return err
	}
	if paused, err := h.chain.Paused(ctx); err == nil {
		b.Paused = &paused
	}
	tiers = slices.DeleteFunc(tiers, func(t store.Tier) bool { return !t.OnSale })
	earnings := h.earnings(ctx, tiers, true)
	for _, t := range tiers {
		bt, err := h.buyTier(ctx, t, b.Wallet)
		if err != nil {
			return err
		}
		bt.Earnings = earnings[t.ID]
		b.Tiers = append(b.Tiers, bt)
	}
	slices.SortStableFunc(b.Tiers, func(a, b views.BuyTier) int { return a.PriceWei.Cmp(b.PriceWei.Int) })
	return render(c, http.StatusOK, views.BuyPage(b))
}

// buyTier is tier t with its holding token as people read it, and what wallet (none when empty)
// holds of the tier: the payments pass's own counts, and its token balance against the threshold
// (unknown when the chain cannot say).
func (h *Handlers) buyTier(ctx context.Context, t store.Tier, wallet string) (views.BuyTier, error) {
	bt := views.BuyTier{Tier: t}
	holding := t.HoldingToken != nil && t.HoldingWei.Sign() > 0
	if holding {
		if tok, err := h.chain.TokenInfo(ctx, common.HexToAddress(*t.HoldingToken)); err == nil {
			bt.Token = &views.Token{Symbol: tok.Symbol, Decimals: tok.Decimals}
		} else {
			h.log.Warn("buy page: the holding token cannot be read", "tier", t.ID, "token", *t.HoldingToken, "err", err)
		}
	}
	if wallet == "" {
		return bt, nil
	}
	holds, _, err := h.store.WalletHoldings(ctx, wallet, t.ID)
	if err != nil {
		return bt, err
	}
	bt.Holds = &holds
	if holding {
		bal, err := h.chain.TokenBalance(ctx, common.HexToAddress(*t.HoldingToken), common.HexToAddress(wallet))
		if err == nil {
			meets := bal.Cmp(t.HoldingWei.Int) >= 0
			bt.MeetsHolding = &meets
		}
	}
	return bt, nil
}
