package sale

import (
	"context"
	"fmt"
	"maps"
	"math"
	"math/big"
	"slices"
	"strings"

	"nodeledger/store"
	"nodeledger/views/words"
)

// The operator's changes to the sale: each is written with its audit entry in one transaction
// (record fills in the entry from what the change found), and forgets the read model, so this
// instance shows it at once.

// PutTier creates tier t or replaces its fields but those kept, which it keeps as the stored tier
// has them, checked against the ledger with every tier locked, so no concurrent edit slips
// between the check and the write. A tier whose fields contradict each other once whole (or a
// new one without a required field) is refused with Problems; a change of the price, allowance
// or supply by more than half with *Unconfirmed unless confirmed; one that contradicts what the
// tier sold or the other tiers with *RuleError. It returns the tier as stored.
func (s *Sale) PutTier(ctx context.Context, e store.AuditEntry, t store.Tier, keep Kept, confirmed bool,
	record func(e *store.AuditEntry, before *store.Tier, stored store.Tier)) (store.Tier, error) {
	defer s.Forget()
	// Read before the tiers are locked: the feed is a round trip to the chain.
	usdPerETH := s.usdPerETH(ctx)
	err := s.store.Audited(ctx, e, func(tx store.Tx, e *store.AuditEntry) error {
		all, err := tx.LockTiers(ctx)
		if err != nil {
			return err
		}
		before, err := complete(&t, keep, all)
		if err != nil {
			return err
		}
		if before != nil {
			ch := append(changes(*before, t), s.spread(*before, t, usdPerETH)...)
			if len(ch) > 0 && !confirmed {
				return &Unconfirmed{Changes: ch}
			}
		}
		sold := 0
		if t.Supply != nil {
			if sold, err = tx.Sold(ctx, t.ID); err != nil {
				return err
			}
		}
		if err := checkAgainst(t, all, sold); err != nil {
			return err
		}
		record(e, before, t)
		return tx.PutTier(ctx, t)
	})
	return t, err
}

// CheckWhole checks tier t whole, with the settings keep names as the stored tier has them now:
// what PutTier checks again under its lock, told before a caller asks anything else of the tier
// (the factory's weight). Problems when it is not.
func (s *Sale) CheckWhole(ctx context.Context, t store.Tier, keep Kept) error {
	all, err := s.store.Tiers(ctx)
	if err != nil {
		return err
	}
	_, err = complete(&t, keep, all)
	return err
}

// complete fills t's kept settings from its stored version among all (nil: t is new), and checks
// the whole tier (CheckTier): the stored version, or Problems.
func complete(t *store.Tier, keep Kept, all []store.Tier) (*store.Tier, error) {
	var stored *store.Tier
	for i := range all {
		if all[i].ID == t.ID {
			stored = &all[i]
		}
	}
	if p := fillKept(t, keep, stored); p != nil {
		return stored, p
	}
	if p := CheckTier(*t); p != nil {
		return stored, p
	}
	return stored, nil
}

// SetEnabled switches tier id on or off; store.ErrNotFound when there is no such tier. record
// is told the switch before.
func (s *Sale) SetEnabled(ctx context.Context, e store.AuditEntry, id int, on bool, record func(e *store.AuditEntry, before bool)) error {
	defer s.Forget()
	return s.store.Audited(ctx, e, func(tx store.Tx, e *store.AuditEntry) error {
		before, err := tx.Tier(ctx, id)
		if err != nil {
			return err
		}
		record(e, before.Enabled)
		return tx.SetOnSale(ctx, id, on)
	})
}

// HoldMinting holds minting (payments are recorded and wait) or releases it. record is told
// whether it was held before.
func (s *Sale) HoldMinting(ctx context.Context, e store.AuditEntry, held bool, record func(e *store.AuditEntry, before bool)) error {
	defer s.Forget()
	return s.store.Audited(ctx, e, func(tx store.Tx, e *store.AuditEntry) error {
		before, err := tx.MintingHeld(ctx)
		if err != nil {
			return err
		}
		record(e, before)
		return tx.HoldMinting(ctx, held)
	})
}

// Unconfirmed is a tier change that needs a confirmation it did not carry: nothing was stored.
// Changes names each, as "The price changes from 0.1 ETH to 1 ETH (10×)".
type Unconfirmed struct{ Changes []string }

func (e *Unconfirmed) Error() string { return "unconfirmed: " + strings.Join(e.Changes, "; ") }

// changes names each change from old to t that needs a confirmation.
func changes(old, t store.Tier) []string {
	var out []string
	if bigChange(old.PriceWei.Int, t.PriceWei.Int) {
		out = append(out, fmt.Sprintf("The price changes from %s ETH to %s ETH%s", old.PriceWei.ETH(), t.PriceWei.ETH(),
			ratio(old.PriceWei.Int, t.PriceWei.Int)))
	}
	o, n := big.NewInt(int64(old.MaxPerWallet)), big.NewInt(int64(t.MaxPerWallet))
	if bigChange(o, n) {
		out = append(out, fmt.Sprintf("The allowance per wallet changes from %d to %d%s", old.MaxPerWallet, t.MaxPerWallet, ratio(o, n)))
	}
	if old.Supply != nil && t.Supply != nil {
		o, n := big.NewInt(int64(*old.Supply)), big.NewInt(int64(*t.Supply))
		if bigChange(o, n) {
			out = append(out, fmt.Sprintf("The supply changes from %s to %s%s", words.Thousands(*old.Supply), words.Thousands(*t.Supply), ratio(o, n)))
		}
	}
	return out
}

// usdPerETH is the feed's ETH price in US dollars, or 0 when the spread is not checked or the
// feed cannot be read (the check is then skipped: it asks a confirmation, it guards nothing).
func (s *Sale) usdPerETH(ctx context.Context) float64 {
	if s.spreadBps == 0 || len(s.tokens) == 0 {
		return 0
	}
	usd, err := s.chain.USDPerETH(ctx)
	if err != nil {
		s.log.Warn("tier save: the ETH/USD feed cannot be read, so the prices' spread is not checked", "err", err)
		return 0
	}
	return usd
}

// Spread is how far apart in US dollars a tier's price in a token is from its ETH price, at
// usdPerETH and a token unit at one dollar (the sale lists stablecoins): both values, and the gap
// in basis points of the larger.
type Spread struct {
	Token       store.Token
	ETHUSD      float64
	TokenUSD    float64
	Bps         int
	TokenAmount store.Uint256
}

// Spreads are tier t's token prices against its ETH price at usdPerETH, in token address order;
// none without a feed.
func (s *Sale) Spreads(t store.Tier, usdPerETH float64) []Spread {
	if usdPerETH <= 0 || t.PriceWei.Int == nil {
		return nil
	}
	eth, _ := new(big.Float).Quo(new(big.Float).SetInt(t.PriceWei.Int), big.NewFloat(1e18)).Float64()
	var out []Spread
	for _, addr := range slices.Sorted(maps.Keys(t.TokenPrices)) {
		tok, ok := s.tokens[addr]
		if !ok {
			continue
		}
		amount := t.TokenPrices[addr]
		sp := Spread{Token: tok, ETHUSD: eth * usdPerETH, TokenUSD: store.TokenAmount{Token: tok, Amount: amount}.Float(), TokenAmount: amount}
		if hi := max(sp.ETHUSD, sp.TokenUSD); hi > 0 {
			sp.Bps = int(math.Round(math.Abs(sp.ETHUSD-sp.TokenUSD) / hi * 10000))
		}
		out = append(out, sp)
	}
	return out
}

// spread names, for a save of old as t, each token price further than spreadBps from the ETH
// price in US dollars where one of the two changed and the other did not: a price raised in one
// currency alone sells cheaper in the other.
func (s *Sale) spread(old, t store.Tier, usdPerETH float64) []string {
	if s.spreadBps == 0 {
		return nil
	}
	ethMoved := old.PriceWei.Cmp(t.PriceWei.Int) != 0
	var out []string
	for _, sp := range s.Spreads(t, usdPerETH) {
		before, had := old.TokenPrices[sp.Token.Address]
		tokenMoved := !had || before.Cmp(sp.TokenAmount.Int) != 0
		if ethMoved == tokenMoved || sp.Bps <= s.spreadBps {
			continue
		}
		out = append(out, fmt.Sprintf("The prices in ETH and in %s are %s apart: %s ETH is %s at the feed's %s an ETH, and %s is %s",
			sp.Token.Symbol, words.Percent(sp.Bps), t.PriceWei.ETH(), words.USD(sp.ETHUSD), words.USD(usdPerETH),
			sp.Token.Units(sp.TokenAmount.Int), words.USD(sp.TokenUSD)))
	}
	return out
}

// bigChange tells whether before -> after changes by more than half, either way (after > 1.5 ×
// before, or after < 0.5 × before): a tier's price or allowance is confirmed first then, since
// one typo (a zero too many or too few) would otherwise reprice a sale.
func bigChange(before, after *big.Int) bool {
	twice := new(big.Int).Lsh(after, 1)
	return twice.Cmp(before) < 0 || twice.Cmp(new(big.Int).Mul(before, big.NewInt(3))) > 0
}

// ratio is " (10×)" for after/before, to two decimals at most; "" when before is 0.
func ratio(before, after *big.Int) string {
	if before.Sign() == 0 {
		return ""
	}
	s := new(big.Rat).SetFrac(after, before).FloatString(2)
	s = strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
	return " (" + s + "×)"
}

// RuleError is a tier that cannot be stored as asked: its sale settings contradict the ledger (a
// supply below what it sold) or the other tiers (a price step that could never open).
type RuleError struct {
	Rule Rule
	Tier int // the tier asked about
	// Sold is what the tier sold (SupplyBelowSold); Other the tier named (the opens-after rules).
	Sold  int
	Other int
}

// Rule names what a RuleError breaks.
type Rule string

const (
	SupplyBelowSold  Rule = "supply_below_sold"   // supply < what the tier already sold
	OpensAfterNone   Rule = "opens_after_missing" // opensAfterTier names no tier
	OpensAfterSelf   Rule = "opens_after_self"    // a tier cannot wait for itself
	OpensAfterNoCap  Rule = "opens_after_no_cap"  // it names a tier without a supply: it would never sell out
	OpensAfterCycle  Rule = "opens_after_cycle"   // tiers waiting for each other would never open
	SupplyNeededByIt Rule = "supply_needed"       // the supply is removed while Other opens after this tier
)

func (e *RuleError) Error() string { return e.Sentence() }

// Field is the tier field the broken rule is about.
func (e *RuleError) Field() string {
	if e.Rule == SupplyBelowSold || e.Rule == SupplyNeededByIt {
		return "supply"
	}
	return "opensAfterTier"
}

// Sentence says what is wrong, for the operator.
func (e *RuleError) Sentence() string {
	switch e.Rule {
	case SupplyBelowSold:
		return fmt.Sprintf("Tier %d has sold %s already: its supply cannot be less than %s.",
			e.Tier, words.Count(e.Sold, "node", "nodes"), words.Thousands(e.Sold))
	case OpensAfterNone:
		return fmt.Sprintf("Tier %d cannot open after tier %d: there is no tier %d.", e.Tier, e.Other, e.Other)
	case OpensAfterSelf:
		return "A tier cannot open after itself."
	case OpensAfterNoCap:
		return fmt.Sprintf("Tier %d cannot open after tier %d: tier %d has no supply, so it never sells out. Give it a supply first.",
			e.Tier, e.Other, e.Other)
	case OpensAfterCycle:
		return fmt.Sprintf("Tier %d cannot open after tier %d: tier %d already waits for tier %d to sell out, so neither would ever open.",
			e.Tier, e.Other, e.Other, e.Tier)
	case SupplyNeededByIt:
		return fmt.Sprintf("Tier %d needs a supply: tier %d opens once it sells out, and without a supply it never would.", e.Tier, e.Other)
	}
	return "The tier's sale settings contradict the other tiers."
}

// checkAgainst checks t's supply and price step against what it sold and every tier as stored
// (all, locked).
func checkAgainst(t store.Tier, all []store.Tier, sold int) error {
	byID := map[int]store.Tier{}
	for _, o := range all {
		byID[o.ID] = o
	}
	byID[t.ID] = t
	if t.Supply != nil {
		if *t.Supply < sold {
			return &RuleError{Rule: SupplyBelowSold, Tier: t.ID, Sold: sold}
		}
	} else {
		for _, o := range all {
			if o.ID != t.ID && o.OpensAfterTier != nil && *o.OpensAfterTier == t.ID {
				return &RuleError{Rule: SupplyNeededByIt, Tier: t.ID, Other: o.ID}
			}
		}
	}
	if t.OpensAfterTier == nil {
		return nil
	}
	after := *t.OpensAfterTier
	prev, ok := byID[after]
	switch {
	case after == t.ID:
		return &RuleError{Rule: OpensAfterSelf, Tier: t.ID, Other: after}
	case !ok:
		return &RuleError{Rule: OpensAfterNone, Tier: t.ID, Other: after}
	case prev.Supply == nil:
		return &RuleError{Rule: OpensAfterNoCap, Tier: t.ID, Other: after}
	}
	seen := map[int]bool{t.ID: true}
	for at := prev; ; {
		if seen[at.ID] {
			return &RuleError{Rule: OpensAfterCycle, Tier: t.ID, Other: after}
		}
		seen[at.ID] = true
		if at.OpensAfterTier == nil {
			return nil
		}
		next, ok := byID[*at.OpensAfterTier]
		if !ok {
			return nil
		}
		at = next
	}
}
