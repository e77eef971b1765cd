package handlers

import (
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"nodeledger/store"
	"nodeledger/views"
	"nodeledger/views/words"
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

// bigChange tells whether before -> after changes by more than half, either way (after > 1.5 ×
// before, or after < 0.5 × before): a tier's price or allowance is confirmed first then, since
// one typo (a zero too many or too few) would otherwise reprice a sale.
func bigChange(before, after *big.Int) bool {
	twice := new(big.Int).Lsh(after, 1)
	return twice.Cmp(before) < 0 || twice.Cmp(new(big.Int).Mul(before, big.NewInt(3))) > 0
}

// tierChanges names each change from old to t that needs a confirmation, as "The price changes
// from 0.1 ETH to 1 ETH (10×)".
func tierChanges(old, t store.Tier) []string {
	var changes []string
	if bigChange(old.PriceWei.Int, t.PriceWei.Int) {
		changes = append(changes, fmt.Sprintf("The price changes from %s ETH to %s ETH%s", views.ETH(old.PriceWei), views.ETH(t.PriceWei),
			ratio(old.PriceWei.Int, t.PriceWei.Int)))
	}
	o, n := big.NewInt(int64(old.MaxPerWallet)), big.NewInt(int64(t.MaxPerWallet))
	if bigChange(o, n) {
		changes = append(changes, fmt.Sprintf("The allowance per wallet changes from %d to %d%s", old.MaxPerWallet, t.MaxPerWallet, ratio(o, n)))
	}
	if old.Supply != nil && t.Supply != nil {
		o, n := big.NewInt(int64(*old.Supply)), big.NewInt(int64(*t.Supply))
		if bigChange(o, n) {
			changes = append(changes, fmt.Sprintf("The supply changes from %s to %s%s", words.Thousands(*old.Supply), words.Thousands(*t.Supply), ratio(o, n)))
		}
	}
	return changes
}

// unconfirmedError is a tier change that needs a confirmation it did not carry: nothing was
// stored.
type unconfirmedError struct{ changes []string }

func (e *unconfirmedError) Error() string { return "unconfirmed: " + strings.Join(e.changes, "; ") }

// ratio is " (10×)" for after/before, to two decimals at most; "" when before is 0.
func ratio(before, after *big.Int) string {
	if before.Sign() == 0 {
		return ""
	}
	s := new(big.Rat).SetFrac(after, before).FloatString(2)
	s = strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
	return " (" + s + "×)"
}

// tierRuleProblem is the status and sentence of err when it is a *store.TierRuleError: a tier
// that contradicts what it sold (409, nothing stored) or the other tiers (400). ok is false for
// any other error.
func tierRuleProblem(err error) (status int, msg string, ok bool) {
	var re *store.TierRuleError
	if !errors.As(err, &re) {
		return 0, "", false
	}
	switch re.Rule {
	case store.TierSupplyBelowSold:
		return http.StatusConflict, fmt.Sprintf("Tier %d has sold %s already: its supply cannot be less than %s.",
			re.Tier, words.Count(re.Sold, "node", "nodes"), words.Thousands(re.Sold)), true
	case store.TierOpensAfterNone:
		return http.StatusBadRequest, fmt.Sprintf("Tier %d cannot open after tier %d: there is no tier %d.", re.Tier, re.Other, re.Other), true
	case store.TierOpensAfterSelf:
		return http.StatusBadRequest, "A tier cannot open after itself.", true
	case store.TierOpensAfterNoCap:
		return http.StatusBadRequest, fmt.Sprintf("Tier %d cannot open after tier %d: tier %d has no supply, so it never sells out. Give it a supply first.",
			re.Tier, re.Other, re.Other), true
	case store.TierOpensAfterCycle:
		return http.StatusBadRequest, fmt.Sprintf("Tier %d cannot open after tier %d: tier %d already waits for tier %d to sell out, so neither would ever open.",
			re.Tier, re.Other, re.Other, re.Tier), true
	case store.TierSupplyNeededByIt:
		return http.StatusBadRequest, fmt.Sprintf("Tier %d needs a supply: tier %d opens once it sells out, and without a supply it never would.",
			re.Tier, re.Other), true
	}
	return http.StatusBadRequest, "The tier's sale settings contradict the other tiers.", true
}
