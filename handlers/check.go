package handlers

import (
	"fmt"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"nodeledger/chain"
	"nodeledger/store"
)

// CheckPayment answers GET /api/tiers/{id}/check/{address}: would a payment of the tier's price
// from address, made now, buy a node? payWei is what to send: the price less the discount of the
// referral code the wallet is bound to (referralCode, discountWei; null when none). With
// ?token=, the payment is of the tier's price in that token: priceToken is that price, payToken
// what to send (less the code's discount, discountToken), each {token, symbol, decimals, amount}.
// It is what the buy page asks immediately before it asks the wallet to pay, so that a wallet is
// never asked for a payment the service would reject: the payments pass's own rules
// (jobs.Judge), at now. ok false says why, as a code and a sentence. held says the operator holds
// minting: such a payment is not rejected, it waits.
func (h *Handlers) CheckPayment(c echo.Context) error {
	id, err := parseTierID(c.Param("id"))
	if err != nil {
		return err
	}
	from, err := parseAddress(c.Param("address"))
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	tier, err := h.tier(c, id)
	if err != nil {
		return err
	}
	if h.cfg.PaymentAddress == "" {
		return errorf(http.StatusServiceUnavailable, "No payments address is configured, so nodes cannot be bought right now.")
	}
	now := time.Now()
	var priceToken *store.TokenAmount
	if t := c.QueryParam("token"); t != "" {
		if priceToken, err = h.tokenPrice(tier, t); err != nil {
			return err
		}
	}
	// A wallet bound to a code pays the discounted price, in whatever it pays; the full price
	// would buy the tier too.
	terms, err := h.sale.BoundAt(ctx, from, now, 0)
	if err != nil {
		return err
	}
	price := tier.PriceWei.Int
	if priceToken != nil {
		price = priceToken.Amount.Int
	}
	pay, code, discount := price, (*string)(nil), (*big.Int)(nil)
	if terms != nil {
		pay = terms.Price(price)
		code, discount = &terms.Code, new(big.Int).Sub(price, pay)
	}
	answer := map[string]any{"ok": false, "priceWei": tier.PriceWei.String(), "payWei": pay.String(), "priceToken": priceToken,
		"payToken": nil, "referralCode": code, "discountWei": nil, "discountToken": nil, "paymentAddress": h.cfg.PaymentAddress,
		"tier": nil, "reasonCode": nil, "reason": nil, "held": false}
	paid := store.Money{Amount: pay}
	if priceToken != nil {
		paid.Token = priceToken.Address
		answer["payWei"] = tier.PriceWei.String() // the ETH price is no part of a token payment
		answer["payToken"] = store.TokenAmount{Token: priceToken.Token, Amount: store.Uint256{Int: pay}}
		if discount != nil {
			answer["discountToken"] = store.TokenAmount{Token: priceToken.Token, Amount: store.Uint256{Int: discount}}
		}
	} else if discount != nil {
		answer["discountWei"] = discount.String()
	}
	v, err := h.sale.Judge(chain.WithBudget(ctx, h.reads), from, paid, now)
	if err != nil {
		return err
	}
	held, err := h.store.MintingHeld(ctx)
	if err != nil {
		return err
	}
	answer["ok"], answer["held"] = v.Reason == nil, held
	if v.Reason == nil {
		answer["tier"] = strconv.Itoa(v.Tier.ID)
	} else {
		answer["reasonCode"], answer["reason"] = v.Reason.Code, v.Reason.Precheck()
	}
	return c.JSON(http.StatusOK, answer)
}

// tier is tier id as it is now; a 404 when there is none.
func (h *Handlers) tier(c echo.Context, id int) (store.Tier, error) {
	tiers, err := h.store.Tiers(c.Request().Context())
	if err != nil {
		return store.Tier{}, err
	}
	for _, t := range tiers {
		if t.ID == id {
			return t, nil
		}
	}
	return store.Tier{}, errorf(http.StatusNotFound, fmt.Sprintf("There is no tier %d.", id))
}

// tokenPrice is tier's price in the token at address (any case), with the token: a 400 when
// address is not one, the sale does not accept the token, or the tier has no price in it.
func (h *Handlers) tokenPrice(tier store.Tier, address string) (*store.TokenAmount, error) {
	if !addressRe.MatchString(address) {
		return nil, errorf(http.StatusBadRequest, "token must be a token's address: 0x followed by 40 hexadecimal digits.")
	}
	token, ok := h.sale.Token(strings.ToLower(address))
	if !ok {
		return nil, errorf(http.StatusBadRequest, fmt.Sprintf("The sale does not accept the token %s: pay in ETH, or in a token a tier is priced in.", address))
	}
	price, ok := tier.TokenPrices[token.Address]
	if !ok {
		return nil, errorf(http.StatusBadRequest, fmt.Sprintf("The %s tier has no price in %s: pay it in ETH.", tier.Label, token.Symbol))
	}
	return &store.TokenAmount{Token: token, Amount: price}, nil
}
