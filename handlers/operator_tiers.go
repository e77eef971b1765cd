package handlers

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/labstack/echo/v4"

	"nodeledger/store"
	"nodeledger/views"
)

// SetTierOnSale is the operator's on/off-sale toggle of a tier.
func (h *Handlers) SetTierOnSale(c echo.Context) (string, error) {
	id, err := parseTierID(c.Param("id"))
	if err != nil {
		return "", err
	}
	return h.setOnSale(c, id, c.FormValue("onSale") == "true")
}

// setOnSale puts tier id on or off sale, audited, for the page and the admin API: what it did,
// as a sentence.
func (h *Handlers) setOnSale(c echo.Context, id int, onSale bool) (string, error) {
	ctx := c.Request().Context()
	outcome := fmt.Sprintf("Tier %d is now %s.", id, map[bool]string{true: "on sale", false: "off sale"}[onSale])
	err := h.audited(c, map[bool]store.AuditAction{true: store.ActionTierOnSale, false: store.ActionTierOffSale}[onSale], strconv.Itoa(id),
		func(t store.Tx, e *store.AuditEntry) error {
			before, err := t.Tier(ctx, id)
			if err != nil {
				return err
			}
			e.Before, e.After, e.Outcome = map[string]bool{"onSale": before.OnSale}, map[string]bool{"onSale": onSale}, outcome
			return t.SetOnSale(ctx, id, onSale)
		})
	if errors.Is(err, store.ErrNotFound) {
		return "", errorf(http.StatusNotFound, fmt.Sprintf("There is no tier %d.", id))
	}
	return outcome, err
}

// putTier stores tier t, audited with the tier before and after, for the page and the admin API.
// A change of the price or allowance by more than half is refused with an *unconfirmedError
// unless confirmed; it is checked against the tier as locked in the same transaction, so no
// concurrent edit slips one past it. A new tier needs no confirmation.
func (h *Handlers) putTier(c echo.Context, t store.Tier, confirmed bool) error {
	ctx := c.Request().Context()
	return h.audited(c, store.ActionTierPut, strconv.Itoa(t.ID), func(tx store.Tx, e *store.AuditEntry) error {
		before, err := tx.Tier(ctx, t.ID)
		switch {
		case err == nil:
			if changes := tierChanges(before, t); len(changes) > 0 && !confirmed {
				return &unconfirmedError{changes}
			}
			e.Before = toTierJSON(before)
		case !errors.Is(err, store.ErrNotFound):
			return err
		}
		e.After, e.Outcome = toTierJSON(t), tierSaved(t)
		return tx.PutTier(ctx, t)
	})
}

// SaveTierFromPage answers POST /operator/tiers: the tier form, in ETH, checked by the same
// check as the admin API's PUT. A form with problems comes back with a sentence next to each
// field (422: nothing was stored, so posting it again changes nothing); one that changes the
// price or allowance by more than half comes back asking to confirm it (409); a good one is
// stored and redirected like every action. The payout weight is not the form's: the factory's
// owner sets it (the Change payout button).
func (h *Handlers) SaveTierFromPage(c echo.Context) error {
	f := views.TierForm{
		Editing: c.FormValue("editing") == "true", ID: c.FormValue("id"), Label: c.FormValue("label"),
		PriceETH: c.FormValue("price"), MaxPerWallet: c.FormValue("maxPerWallet"), HoldingToken: c.FormValue("holdingToken"),
		HoldingAmount: c.FormValue("holdingAmount"), OnSale: c.FormValue("onSale") == "true",
	}
	t, problems := tierFromForm(f).check()
	if len(problems) > 0 {
		f.Problems = problems
		return h.renderOperator(c, http.StatusUnprocessableEntity, "", &f)
	}
	var unconfirmed *unconfirmedError
	if err := h.putTier(c, t, c.FormValue("confirm") == "true"); errors.As(err, &unconfirmed) {
		f.Confirm = unconfirmed.changes
		return h.renderOperator(c, http.StatusConflict, "", &f)
	} else if err != nil {
		return err
	}
	return h.redirectWithOutcome(c, tierSaved(t))
}

// tierSaved is the outcome of a saved tier.
func tierSaved(t store.Tier) string {
	s := fmt.Sprintf("Saved tier %d, %s: %s ETH, %d per wallet", t.ID, t.Label, views.ETH(t.PriceWei), t.MaxPerWallet)
	if t.HoldingToken != nil && t.HoldingWei.Sign() > 0 {
		s += fmt.Sprintf(", for holders of %s of the token %s", t.HoldingWei.String(), *t.HoldingToken)
	}
	return s + map[bool]string{true: ", on sale.", false: ", off sale."}[t.OnSale]
}

// tierFromForm reads the operator's form into a draft for the shared check, with a sentence
// for each field it cannot read.
func tierFromForm(f views.TierForm) tierDraft {
	d := tierDraft{label: f.Label, token: strings.TrimSpace(f.HoldingToken), onSale: f.OnSale, problems: tierProblems{}}
	if id := strings.TrimSpace(f.ID); digitsRe.MatchString(id) && len(id) <= 3 {
		d.id, _ = strconv.Atoi(id)
	} else {
		d.problems["id"] = "The tier number must be a whole number from 0 to 255."
	}
	switch price, tooPrecise := parseDecimal(f.PriceETH, 18); {
	case strings.TrimSpace(f.PriceETH) == "":
		d.problems["price"] = "The price is required: an amount in ETH, such as 0.1."
	case tooPrecise:
		d.problems["price"] = "The price has more than 18 decimals: the smallest amount is 0.000000000000000001 ETH."
	case price == nil:
		d.problems["price"] = "The price must be an amount in ETH, such as 0.1."
	default:
		d.price = price
	}
	if n := strings.TrimSpace(f.MaxPerWallet); digitsRe.MatchString(n) && len(n) <= 9 {
		v, _ := strconv.Atoi(n)
		d.maxPerWallet = &v
	} else {
		d.problems["maxPerWallet"] = "The allowance per wallet must be a whole number, such as 3."
	}
	if a := strings.TrimSpace(f.HoldingAmount); a != "" {
		if d.holding, _ = weiField(&a); d.holding == nil {
			d.problems["holdingAmount"] = "The holding amount must be a whole number of the token's smallest unit, such as 1000000000000000000 for 1 token of 18 decimals."
		}
	}
	return d
}

// parseDecimal reads a decimal number exactly, in units of 10^-places ("0.1" with 18 places is
// 100000000000000000): integer arithmetic, never a float. tooPrecise: more decimals than places
// (trailing zeros aside).
func parseDecimal(s string, places int) (x *big.Int, tooPrecise bool) {
	m := decimalRe.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil || m[1]+m[2] == "" || len(m[1]) > 80 {
		return nil, false
	}
	frac := strings.TrimRight(m[2], "0")
	if len(frac) > places {
		return nil, true
	}
	x, _ = new(big.Int).SetString(m[1]+frac+strings.Repeat("0", places-len(frac)), 10)
	return x, false
}

// tierForm is the tier form filled with the tier edit names, or empty with the number after
// the last tier's (tiers come ordered by number).
func tierForm(tiers []store.Tier, edit string) views.TierForm {
	for _, t := range tiers {
		if strconv.Itoa(t.ID) != edit {
			continue
		}
		f := views.TierForm{Editing: true, ID: edit, Label: t.Label, PriceETH: views.ETH(t.PriceWei),
			MaxPerWallet: strconv.Itoa(t.MaxPerWallet), OnSale: t.OnSale}
		if t.HoldingToken != nil {
			f.HoldingToken, f.HoldingAmount = *t.HoldingToken, t.HoldingWei.String()
		}
		return f
	}
	next := "1"
	if n := len(tiers); n > 0 && tiers[n-1].ID < 255 {
		next = strconv.Itoa(tiers[n-1].ID + 1)
	} else if n > 0 {
		next = "" // the last number is taken: the operator picks a free one
	}
	return views.TierForm{ID: next, MaxPerWallet: "1"}
}

// decimalRe is a plain decimal number: "1", "0.1", ".5", "2.".
var decimalRe = regexp.MustCompile(`^([0-9]*)(?:\.([0-9]*))?$`)

// holdings writes each tier's holding threshold in its token's units and symbol, by tier id. A
// token whose symbol or decimals cannot be read now is left out: the page says so rather than
// show base units as if they were tokens.
func (h *Handlers) holdings(ctx context.Context, tiers []store.Tier) map[int]views.Holding {
	out := map[int]views.Holding{}
	for _, t := range tiers {
		if t.HoldingToken == nil || t.HoldingWei.Sign() == 0 {
			continue
		}
		tok, err := h.chain.TokenInfo(ctx, common.HexToAddress(*t.HoldingToken))
		if err != nil {
			h.log.Warn("operator page: a holding token cannot be read", "token", *t.HoldingToken, "err", err)
			continue
		}
		out[t.ID] = views.Holding{Amount: t.HoldingWei.Units(tok.Decimals), Symbol: tok.Symbol}
	}
	return out
}
