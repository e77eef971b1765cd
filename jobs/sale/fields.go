package sale

import (
	"fmt"
	"math/big"

	"nodeledger/store"
)

// TierField is one setting of a tier as every surface names it. TierFields is the one list a
// new setting is added to: a test (web/tier_fields_test.go) holds the store's columns, the API's
// bodies in and out (and so the audit, which records the tier as the API writes it), the
// operator's form and the OpenAPI document to it.
type TierField struct {
	// Name is the form's input and the key of the field's problem.
	Name string
	// JSON is the field's name in the API's bodies, in and out.
	JSON string
	// Column is its column in the tiers table.
	Column string
	// Required: a new tier must be given it (an API body that leaves it out is refused).
	Required bool
	// read reads it from the input (ReadTier), keep copies it from the stored tier when the input
	// leaves it out (PutTier).
	read func(r *tierReader)
	keep func(t *store.Tier, stored store.Tier)
}

// TierFields are a tier's settings, in the order the API tells their first problem. The id is
// the route's, and the payout weight the factory's: neither is a setting the ledger keeps.
var TierFields = []TierField{
	{"label", "label", "label", true, (*tierReader).label, func(t *store.Tier, s store.Tier) { t.Label = s.Label }},
	{"price", "priceWei", "price_wei", true, (*tierReader).price, func(t *store.Tier, s store.Tier) { t.PriceWei = s.PriceWei }},
	{"tokenPrices", "tokenPrices", "token_prices", false, (*tierReader).tokenPrices,
		func(t *store.Tier, s store.Tier) { t.TokenPrices = s.TokenPrices }},
	{"maxPerWallet", "maxPerWallet", "max_per_wallet", true, (*tierReader).allowance,
		func(t *store.Tier, s store.Tier) { t.MaxPerWallet = s.MaxPerWallet }},
	{"holdingToken", "holdingToken", "holding_token", false, (*tierReader).holdingToken,
		func(t *store.Tier, s store.Tier) { t.HoldingToken = s.HoldingToken }},
	{"holdingAmount", "holdingWei", "holding_wei", false, (*tierReader).holdingAmount,
		func(t *store.Tier, s store.Tier) { t.HoldingWei = s.HoldingWei }},
	{"enabled", "enabled", "on_sale", false, (*tierReader).enabled, func(t *store.Tier, s store.Tier) { t.Enabled = s.Enabled }},
	{"supply", "supply", "supply", false, (*tierReader).supply, func(t *store.Tier, s store.Tier) { t.Supply = s.Supply }},
	{"startsAt", "startsAt", "starts_at", false,
		func(r *tierReader) { r.time("startsAt", r.in.StartsAt, "The start", &r.t.StartsAt) },
		func(t *store.Tier, s store.Tier) { t.StartsAt = s.StartsAt }},
	{"endsAt", "endsAt", "ends_at", false,
		func(r *tierReader) { r.time("endsAt", r.in.EndsAt, "The end", &r.t.EndsAt) },
		func(t *store.Tier, s store.Tier) { t.EndsAt = s.EndsAt }},
	{"allowlistUntil", "allowlistUntil", "allowlist_until", false,
		func(r *tierReader) {
			r.time("allowlistUntil", r.in.AllowlistUntil, "The end of the allowlist phase", &r.t.AllowlistUntil)
		},
		func(t *store.Tier, s store.Tier) { t.AllowlistUntil = s.AllowlistUntil }},
	{"opensAfterTier", "opensAfterTier", "opens_after_tier", false, (*tierReader).opensAfterTier,
		func(t *store.Tier, s store.Tier) { t.OpensAfterTier = s.OpensAfterTier }},
	{"note", "note", "note", false, (*tierReader).note, func(t *store.Tier, s store.Tier) { t.Note = s.Note }},
	{"kycRequired", "kycRequired", "kyc_required", false, func(r *tierReader) { r.t.KYCRequired = r.in.KYCRequired },
		func(t *store.Tier, s store.Tier) { t.KYCRequired = s.KYCRequired }},
}

// TierFieldByJSON is the field the API calls name; false for none.
func TierFieldByJSON(name string) (TierField, bool) {
	for _, f := range TierFields {
		if f.JSON == name {
			return f, true
		}
	}
	return TierField{}, false
}

// fillKept completes t, read with kept left out, from stored, the tier as it is (nil: a new
// tier, which has no setting to keep: a required one left out is a problem, the others are
// their zero, none or off).
func fillKept(t *store.Tier, kept Kept, stored *store.Tier) Problems {
	p := Problems{}
	for _, f := range TierFields {
		switch {
		case !kept[f.Name]:
		case stored != nil:
			f.keep(t, *stored)
		case f.Required:
			p.set(f.Name, fmt.Sprintf("%s is required: tier %d is new.", f.JSON, t.ID))
		}
	}
	if t.HoldingWei.Int == nil {
		t.HoldingWei = store.Uint256{Int: new(big.Int)}
	}
	if t.TokenPrices == nil {
		t.TokenPrices = store.TokenPrices{}
	}
	if len(p) == 0 {
		return nil
	}
	return p
}
