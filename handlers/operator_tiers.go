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
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/labstack/echo/v4"

	"nodeledger/chain"
	"nodeledger/jobs/sale"
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
	outcome := store.AuditOutcome{Code: map[bool]store.AuditOutcomeCode{true: store.OutcomeTierOnSale, false: store.OutcomeTierOffSale}[onSale],
		Args: store.AuditArgs{Tier: &id}}
	err := h.audited(c, map[bool]store.AuditAction{true: store.ActionTierOnSale, false: store.ActionTierOffSale}[onSale], strconv.Itoa(id),
		func(t store.Tx, e *store.AuditEntry) error {
			before, err := t.Tier(ctx, id)
			if err != nil {
				return err
			}
			e.Before, e.After, e.Outcome = map[string]bool{"onSale": before.Enabled}, map[string]bool{"onSale": onSale}, outcome
			return t.SetOnSale(ctx, id, onSale)
		})
	if errors.Is(err, store.ErrNotFound) {
		return "", errorf(http.StatusNotFound, fmt.Sprintf("There is no tier %d.", id))
	}
	return auditSentence(outcome), err
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
		e.After, e.Outcome = toTierJSON(t), h.tierSavedOutcome(ctx, t)
		return tx.PutTier(ctx, t)
	})
}

// SaveTierFromPage answers POST /operator/tiers: the tier form, in ETH and UTC, checked by the
// same check as the admin API's PUT. A form with problems comes back with a sentence next to
// each field (422: nothing was stored, so posting it again changes nothing); one that changes
// the price, allowance or supply by more than half comes back asking to confirm it (409), as
// does one whose supply is below what the tier sold; a good one is stored and redirected like
// every action. The payout weight is not the form's: the factory's owner sets it (the Change
// payout button).
func (h *Handlers) SaveTierFromPage(c echo.Context) error {
	f := views.TierForm{
		Editing: c.FormValue("editing") == "true", ID: c.FormValue("id"), Label: c.FormValue("label"),
		PriceETH: c.FormValue("price"), MaxPerWallet: c.FormValue("maxPerWallet"), HoldingToken: c.FormValue("holdingToken"),
		HoldingAmount: c.FormValue("holdingAmount"), Enabled: c.FormValue("enabled") == "true",
		Supply: c.FormValue("supply"), StartsAt: c.FormValue("startsAt"), EndsAt: c.FormValue("endsAt"),
		AllowlistUntil: c.FormValue("allowlistUntil"), OpensAfterTier: c.FormValue("opensAfterTier"),
	}
	tok := h.formToken(c.Request().Context(), f.HoldingToken)
	if tok != nil {
		f.HoldingSymbol = tok.Symbol
	}
	t, problems := tierFromForm(f, tok).check()
	if len(problems) > 0 {
		f.Problems = problems
		return h.renderOperator(c, http.StatusUnprocessableEntity, operatorDraft{form: &f})
	}
	var unconfirmed *unconfirmedError
	err := h.putTier(c, t, c.FormValue("confirm") == "true")
	if errors.As(err, &unconfirmed) {
		f.Confirm = unconfirmed.changes
		return h.renderOperator(c, http.StatusConflict, operatorDraft{form: &f})
	}
	if status, msg, ok := tierRuleProblem(err); ok {
		f.Problems = tierProblems{tierRuleField(err): msg}
		return h.renderOperator(c, status, operatorDraft{form: &f})
	}
	if err != nil {
		return err
	}
	return h.redirectWithOutcome(c, h.tierSaved(c.Request().Context(), t))
}

// tierRuleField is the form field a *store.TierRuleError is about.
func tierRuleField(err error) string {
	var re *store.TierRuleError
	if errors.As(err, &re) && (re.Rule == store.TierSupplyBelowSold || re.Rule == store.TierSupplyNeededByIt) {
		return "supply"
	}
	return "opensAfterTier"
}

// tierSaved is the outcome of a saved tier, as the audit tells it.
func (h *Handlers) tierSaved(ctx context.Context, t store.Tier) string {
	return auditSentence(h.tierSavedOutcome(ctx, t))
}

// formToken is the holding token the form names, read from the chain for its decimals; nil when
// the form names none, or the token cannot be read now.
func (h *Handlers) formToken(ctx context.Context, token string) *chain.Token {
	addr, err := parseAddress(strings.TrimSpace(token))
	if err != nil {
		return nil
	}
	tok, err := h.chain.TokenInfo(ctx, common.HexToAddress(addr))
	if err != nil {
		h.log.Warn("tier form: the holding token cannot be read", "token", addr, "err", err)
		return nil
	}
	return &tok
}

// tierFromForm reads the operator's form into a draft for the shared check, with a sentence
// for each field it cannot read. tok is the holding token the form names, whose decimals the
// holding amount is read with (nil: none, or it cannot be read now).
func tierFromForm(f views.TierForm, tok *chain.Token) tierDraft {
	d := tierDraft{label: f.Label, token: strings.TrimSpace(f.HoldingToken), onSale: f.Enabled, problems: tierProblems{}}
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
	// The amount is in the token's own units, as the page shows it: the token's decimals make it
	// base units. Without a token, check says the amount needs one.
	if a := strings.TrimSpace(f.HoldingAmount); a != "" {
		decimals := 18
		if tok != nil {
			decimals = int(tok.Decimals)
		}
		amount, tooPrecise := parseDecimal(a, decimals)
		_, badToken := parseAddress(d.token)
		switch {
		case tok == nil && d.token != "" && badToken != nil:
			// check says what is wrong with the token; the amount waits for it.
		case tok == nil && d.token != "":
			d.problems["holdingAmount"] = "The token's decimals cannot be read from the chain now, so the amount cannot be read in its units: try again in a little while."
		case tooPrecise:
			d.problems["holdingAmount"] = fmt.Sprintf("The holding amount has more than %d decimals, the token's.", decimals)
		case amount == nil:
			d.problems["holdingAmount"] = "The holding amount must be an amount of the token, in its own units, such as 2.5."
		default:
			d.holding = amount
		}
	}
	// Thousands may be written with commas, as the page writes them.
	if n := strings.ReplaceAll(strings.TrimSpace(f.Supply), ",", ""); n != "" {
		if v, err := strconv.Atoi(n); err == nil && digitsRe.MatchString(n) && len(n) <= 10 {
			d.supply = &v
		} else {
			d.problems["supply"] = "The supply must be a whole number of nodes, such as 5000, or empty for no limit."
		}
	}
	for _, field := range []struct {
		name, value, what string
		at                **time.Time
	}{
		{"startsAt", f.StartsAt, "The start", &d.startsAt},
		{"endsAt", f.EndsAt, "The end", &d.endsAt},
		{"allowlistUntil", f.AllowlistUntil, "The end of the allowlist phase", &d.allowlistUntil},
	} {
		if at, ok := parseUTC(field.value); ok {
			*field.at = at
		} else {
			d.problems[field.name] = field.what + " must be a date and time in UTC, such as 2026-12-01 12:00, or empty for none."
		}
	}
	if n := strings.TrimSpace(f.OpensAfterTier); n != "" {
		if id, err := parseTierID(n); err == nil {
			d.opensAfter = &id
		} else {
			d.problems["opensAfterTier"] = "Pick the tier this one opens after, or none."
		}
	}
	return d
}

// utcLayouts are how the form's times may be typed, all in UTC: as the page writes them
// ("2026-12-01 12:00 UTC", with seconds when they are not zero), with or without " UTC", with a T
// or a Z (ISO 8601) or a space.
var utcLayouts = []string{"2006-01-02 15:04", "2006-01-02 15:04:05", "2006-01-02T15:04", "2006-01-02T15:04:05"}

// parseUTC reads a time of the form in UTC: nil, true for an empty field; false when it cannot.
func parseUTC(s string) (*time.Time, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, true
	}
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(s, "Z"), "UTC"))
	for _, layout := range utcLayouts {
		if t, err := time.ParseInLocation(layout, s, time.UTC); err == nil {
			return &t, true
		}
	}
	return nil, false
}

// formUTC writes a time for the form, as parseUTC reads it back: "2026-12-01 12:00" ("" for none).
func formUTC(t *time.Time) string {
	if t == nil {
		return ""
	}
	if t.Second() != 0 {
		return t.UTC().Format("2006-01-02 15:04:05")
	}
	return t.UTC().Format("2006-01-02 15:04")
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
func tierForm(tiers []sale.TierNow, edit string) views.TierForm {
	for _, t := range tiers {
		if strconv.Itoa(t.ID) != edit {
			continue
		}
		f := views.TierForm{Editing: true, ID: edit, Label: t.Label, PriceETH: views.ETH(t.PriceWei),
			MaxPerWallet: strconv.Itoa(t.MaxPerWallet), Enabled: t.Enabled, StartsAt: formUTC(t.StartsAt),
			EndsAt: formUTC(t.EndsAt), AllowlistUntil: formUTC(t.AllowlistUntil)}
		if t.HoldingToken != nil {
			f.HoldingToken = *t.HoldingToken
			if t.Token != nil {
				f.HoldingAmount, f.HoldingSymbol = t.HoldingWei.Units(t.Token.Decimals), t.Token.Symbol
			} else if t.HoldingWei.Sign() > 0 {
				f.Problems = map[string]string{"holdingAmount": "The token's decimals cannot be read from the chain now: type the amount again, in the token's units, once they can."}
			}
		}
		if t.Supply != nil {
			f.Supply = strconv.Itoa(*t.Supply)
		}
		if t.OpensAfterTier != nil {
			f.OpensAfterTier = strconv.Itoa(*t.OpensAfterTier)
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

// operatorTiers is tiers as the operator page shows them: with what each brought in, its
// holding threshold in its token's units, its allowlist, and the tiers it waits for or that wait
// for it.
func (h *Handlers) operatorTiers(ctx context.Context, tiers []sale.TierNow) ([]views.OperatorTier, error) {
	revenue, err := h.store.Revenue(ctx)
	if err != nil {
		return nil, err
	}
	lists, err := h.store.AllowlistsAt(ctx, time.Now())
	if err != nil {
		return nil, err
	}
	labels := map[int]string{}
	for _, t := range tiers {
		labels[t.ID] = t.Label
	}
	out := make([]views.OperatorTier, len(tiers))
	for i, t := range tiers {
		o := views.OperatorTier{Tier: t.Tier, Sold: t.Sold, Remaining: t.Remaining, Phase: t.Phase, OpensAt: t.OpensAt,
			Revenue: store.Uint256{Int: new(big.Int)}}
		if r, ok := revenue[t.ID]; ok {
			o.Revenue = r
		}
		if t.OpensAfterTier != nil {
			o.OpensAfter = views.TierName(store.Tier{Label: labels[*t.OpensAfterTier]}, *t.OpensAfterTier)
		}
		for _, n := range tiers {
			if n.OpensAfterTier != nil && *n.OpensAfterTier == t.ID {
				o.Next = n.Label
			}
		}
		if t.Token != nil && t.HoldingToken != nil {
			o.Holding = &views.Holding{Amount: t.HoldingWei.Units(t.Token.Decimals), Symbol: t.Token.Symbol}
		}
		if v, ok := lists[t.ID]; ok {
			o.Allowlist = &v
		}
		out[i] = o
	}
	return out, nil
}
