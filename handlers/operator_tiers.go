package handlers

import (
	"context"
	"errors"
	"fmt"
	"net/http"
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
	outcome := store.AuditOutcome{Code: map[bool]store.AuditOutcomeCode{true: store.OutcomeTierOnSale, false: store.OutcomeTierOffSale}[onSale],
		Args: store.AuditArgs{Tier: &id}}
	action := map[bool]store.AuditAction{true: store.ActionTierOnSale, false: store.ActionTierOffSale}[onSale]
	err := h.sale.SetEnabled(c.Request().Context(), h.entry(c, "", action, strconv.Itoa(id)), id, onSale,
		func(e *store.AuditEntry, before bool) {
			e.Before, e.After, e.Outcome = map[string]bool{"onSale": before}, map[string]bool{"onSale": onSale}, outcome
		})
	if errors.Is(err, store.ErrNotFound) {
		return "", errorf(http.StatusNotFound, fmt.Sprintf("There is no tier %d.", id))
	}
	return auditSentence(outcome), err
}

// putTier stores tier t (with the settings keep names as the stored tier has them), audited with the tier before and after,
// for the page and the admin API (sale.PutTier checks it): what it did, as the audit tells it.
func (h *Handlers) putTier(c echo.Context, t store.Tier, keep sale.Kept, confirmed bool) (string, error) {
	ctx := c.Request().Context()
	var outcome store.AuditOutcome
	_, err := h.sale.PutTier(ctx, h.entry(c, "", store.ActionTierPut, strconv.Itoa(t.ID)), t, keep, confirmed,
		func(e *store.AuditEntry, before *store.Tier, stored store.Tier) {
			if before != nil {
				e.Before = toTierJSON(*before, h.sale.TokenPrices(*before))
			}
			outcome = h.tierSavedOutcome(ctx, stored)
			e.After, e.Outcome = toTierJSON(stored, h.sale.TokenPrices(stored)), outcome
		})
	return auditSentence(outcome), err
}

// SaveTierFromPage answers POST /operator/tiers: the tier form, in ETH and UTC, checked by the
// same check as the admin API's PUT. A form with problems comes back with a sentence next to
// each field (422: nothing was stored, so posting it again changes nothing); one that changes
// the price, allowance or supply by more than half comes back asking to confirm it (409), as
// does one whose supply is below what the tier sold; a good one is stored and redirected like
// every action. The payout multiplier is the factory's, which only its owner's wallet sets: the
// page sends it from that wallet before posting (wallet.js: tierSave), once check=true says the
// form reads, so the service only keeps it as typed when the form comes back.
func (h *Handlers) SaveTierFromPage(c echo.Context) error {
	f := views.TierForm{
		Editing: c.FormValue("editing") == "true", ID: c.FormValue("id"), Label: c.FormValue("label"), Note: c.FormValue("note"),
		PriceETH: c.FormValue("price"), MaxPerWallet: c.FormValue("maxPerWallet"), HoldingToken: c.FormValue("holdingToken"),
		HoldingAmount: c.FormValue("holdingAmount"), Enabled: c.FormValue("enabled") == "true",
		KYCRequired: c.FormValue("kycRequired") == "true", Supply: c.FormValue("supply"), StartsAt: c.FormValue("startsAt"), EndsAt: c.FormValue("endsAt"),
		AllowlistUntil: c.FormValue("allowlistUntil"), OpensAfterTier: c.FormValue("opensAfterTier"),
		Payout: c.FormValue("payout"),
	}
	tok := h.formToken(c.Request().Context(), f.HoldingToken)
	if tok != nil {
		f.HoldingSymbol = tok.Symbol
	}
	f.TokenPrices = tokenPriceFields(h.sale.Tokens(), func(t store.Token) string { return c.FormValue(views.TokenPriceInput(t.Address)) })
	in := sale.TierInput{Surface: sale.Form, ID: f.ID, Label: f.Label, Price: f.PriceETH, Listed: h.sale.Listed(),
		MaxPerWallet: f.MaxPerWallet, HoldingToken: f.HoldingToken, HoldingAmount: f.HoldingAmount, Token: tok, Enabled: f.Enabled,
		Supply: f.Supply, StartsAt: f.StartsAt, EndsAt: f.EndsAt, AllowlistUntil: f.AllowlistUntil, OpensAfterTier: f.OpensAfterTier,
		Note: f.Note, KYCRequired: f.KYCRequired}
	for _, p := range f.TokenPrices {
		in.TokenPrices = append(in.TokenPrices, sale.TokenPriceInput{Token: p.Token, Amount: p.Amount})
	}
	// The form gives every field: the tier it reads is whole, and its fields are checked together here.
	t, _, problems := sale.ReadTier(in)
	if problems == nil {
		problems = sale.CheckTier(t)
	}
	if c.FormValue("check") == "true" {
		// The page's script asks before it sends a payout from the owner's wallet: a form the
		// save would refuse sends none (the script then posts it as typed, to show why).
		if len(problems) > 0 {
			return c.NoContent(http.StatusUnprocessableEntity)
		}
		return c.NoContent(http.StatusNoContent)
	}
	if len(problems) > 0 {
		f.Problems = problems
		return h.renderOperator(c, http.StatusUnprocessableEntity, operatorDraft{form: &f})
	}
	var unconfirmed *sale.Unconfirmed
	var broken *sale.RuleError
	saved, err := h.putTier(c, t, nil, c.FormValue("confirm") == "true")
	switch {
	case errors.As(err, &unconfirmed):
		f.Confirm = unconfirmed.Changes
		return h.renderOperator(c, http.StatusConflict, operatorDraft{form: &f})
	case errors.As(err, &broken):
		f.Problems = map[string]string{broken.Field(): broken.Sentence()}
		return h.renderOperator(c, ruleStatus(broken), operatorDraft{form: &f})
	case err != nil:
		return err
	}
	return h.redirectWithOutcome(c, saved)
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

// tokenPriceFields are the form's fields of the prices in tokens, one for each of tokens, with
// the amount amount gives (in the token's units; "" for none).
func tokenPriceFields(tokens []store.Token, amount func(store.Token) string) []views.TokenPriceField {
	out := make([]views.TokenPriceField, len(tokens))
	for i, t := range tokens {
		out[i] = views.TokenPriceField{Token: t.Address, Symbol: t.Symbol, Amount: amount(t)}
	}
	return out
}

// tierForm is the tier form filled with the tier edit names, or empty with the number after
// the last tier's (tiers come ordered by number), with a price field for each of tokens.
func tierForm(tiers []sale.TierNow, edit string, tokens []store.Token) views.TierForm {
	for _, t := range tiers {
		if strconv.Itoa(t.ID) != edit {
			continue
		}
		f := views.TierForm{Editing: true, ID: edit, Label: t.Label, Note: text(t.Note), PriceETH: views.ETH(t.PriceWei),
			TokenPrices: tokenPriceFields(tokens, func(tok store.Token) string {
				if p, ok := t.TokenPrices[tok.Address]; ok {
					return p.Units(uint8(tok.Decimals))
				}
				return ""
			}),
			MaxPerWallet: strconv.Itoa(t.MaxPerWallet), Enabled: t.Enabled, KYCRequired: t.KYCRequired, StartsAt: sale.FormTime(t.StartsAt),
			EndsAt: sale.FormTime(t.EndsAt), AllowlistUntil: sale.FormTime(t.AllowlistUntil), Payout: views.MultiplierInput(t.PayoutBps)}
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
	// A new tier is put on sale unless the operator unticks it: created, it is meant to sell.
	return views.TierForm{ID: next, MaxPerWallet: "1", Enabled: true,
		TokenPrices: tokenPriceFields(tokens, func(store.Token) string { return "" })}
}

// operatorTiers is tiers as the operator page shows them: with what each brought in, its
// holding threshold in its token's units, its allowlist, the tiers it waits for or that wait for
// it, and how far its token prices are from its ETH price at usd dollars an ETH (nil: unknown).
func (h *Handlers) operatorTiers(ctx context.Context, tiers []sale.TierNow, usd *float64) ([]views.OperatorTier, error) {
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
			Revenue: store.Revenue{Amounts: store.NoAmounts()}}
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
			o.Holding = &views.Holding{Amount: store.Token{Decimals: int(t.Token.Decimals)}.Figure(t.HoldingWei.Int), Symbol: t.Token.Symbol}
		}
		if v, ok := lists[t.ID]; ok {
			o.Allowlist = &v
		}
		if usd != nil {
			for _, sp := range h.sale.Spreads(t.Tier, *usd) {
				o.Spreads = append(o.Spreads, views.PriceSpread{Price: sp.Token.Units(sp.TokenAmount.Int), USD: sp.TokenUSD, ETHUSD: sp.ETHUSD,
					Bps: sp.Bps, Wide: sp.Bps > h.sale.SpreadBps()})
			}
		}
		out[i] = o
	}
	return out, nil
}
