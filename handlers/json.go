package handlers

import (
	"strconv"
	"time"

	"nodeledger/store"
)

// The JSON shapes of the API that Go builds. Wei is a decimal string, times are ISO 8601 UTC or
// null; the OpenAPI document (web/openapi.json) describes the same shapes. Nodes and rounds are
// built by PostgreSQL (store/json.go), by the rule in the package comment (handlers.go).

// tierEnforcement says who applies each rule of a tier: the contract only caps the total number
// of nodes per wallet; everything else is checked by the operator's payments pass. No key ends in
// Wei: spec §1 makes every such field a decimal string.
type tierEnforcement struct {
	Price       string `json:"price"`
	PerWallet   string `json:"perWallet"`
	Holding     string `json:"holding"`
	OnSale      string `json:"onSale"`
	WalletTotal string `json:"walletTotal"`
}

var enforcement = tierEnforcement{
	Price: "operator", PerWallet: "operator", Holding: "operator", OnSale: "operator", WalletTotal: "contract",
}

type tierJSON struct {
	ID           string          `json:"id"`
	Label        string          `json:"label"`
	PriceWei     string          `json:"priceWei"`
	MaxPerWallet int             `json:"maxPerWallet"`
	HoldingWei   string          `json:"holdingWei"`
	HoldingToken *string         `json:"holdingToken"`
	PayoutBps    *int            `json:"payoutBps"` // the factory's weight; null when it could not be read
	OnSale       bool            `json:"onSale"`
	EnforcedBy   tierEnforcement `json:"enforcedBy"`
}

func toTierJSON(t store.Tier) tierJSON {
	return tierJSON{
		ID:           strconv.Itoa(t.ID),
		Label:        t.Label,
		PriceWei:     t.PriceWei.String(),
		MaxPerWallet: t.MaxPerWallet,
		HoldingWei:   t.HoldingWei.String(),
		HoldingToken: t.HoldingToken,
		PayoutBps:    t.PayoutBps,
		OnSale:       t.OnSale,
		EnforcedBy:   enforcement,
	}
}

// mapSlice converts every element of in, and never returns nil: an empty list is [] in JSON.
func mapSlice[T, U any](in []T, f func(T) U) []U {
	out := make([]U, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}

// isoTime formats t in UTC with milliseconds, or returns nil for no time.
func isoTime(t *time.Time) *string {
	if t == nil || t.IsZero() {
		return nil
	}
	s := t.UTC().Format("2006-01-02T15:04:05.000Z")
	return &s
}
