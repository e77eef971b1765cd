package handlers

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"nodeledger/jobs/sale"
	"nodeledger/store"
)

// The JSON shapes of the API that Go builds. Wei is a decimal string, times are ISO 8601 UTC or
// null; the OpenAPI document (web/openapi.json) describes the same shapes. Nodes and rounds are
// built by PostgreSQL (store/json.go), by the rule in the package comment (handlers.go).

// document answers 200 with a JSON document built elsewhere (by PostgreSQL, or a memo), its
// length given up front: net/http sends a body it has not seen whole in its 2 KB buffer chunked,
// in more writes, and /api/distributions' 50 rounds are 12 KB.
func document(c echo.Context, doc json.RawMessage) error {
	c.Response().Header().Set(echo.HeaderContentLength, strconv.Itoa(len(doc)))
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, doc)
}

// tierEnforcement says who applies each rule of a tier: the contract only caps the total number
// of nodes per wallet; everything else is checked by the operator's payments pass. No key ends in
// Wei: spec §1 makes every such field a decimal string.
type tierEnforcement struct {
	Price       string `json:"price"`
	PerWallet   string `json:"perWallet"`
	Holding     string `json:"holding"`
	OnSale      string `json:"onSale"`
	Supply      string `json:"supply"`
	Window      string `json:"window"`
	Allowlist   string `json:"allowlist"`
	WalletTotal string `json:"walletTotal"`
}

var enforcement = tierEnforcement{
	Price: "operator", PerWallet: "operator", Holding: "operator", OnSale: "operator",
	Supply: "operator", Window: "operator", Allowlist: "operator", WalletTotal: "contract",
}

// tierJSON is a tier's settings as the operator sets them: the audit's before and after, and the
// base of the API's tier (tierNowJSON). Enabled is the operator's switch.
type tierJSON struct {
	ID             string             `json:"id"`
	Label          string             `json:"label"`
	PriceWei       string             `json:"priceWei"`
	MaxPerWallet   int                `json:"maxPerWallet"`
	HoldingWei     string             `json:"holdingWei"`
	HoldingToken   *string            `json:"holdingToken"`
	PayoutBps      *int               `json:"payoutBps"` // the factory's weight; null when it could not be read
	Enabled        bool               `json:"enabled"`
	Supply         *int               `json:"supply"`
	StartsAt       *string            `json:"startsAt"`
	EndsAt         *string            `json:"endsAt"`
	AllowlistUntil *string            `json:"allowlistUntil"`
	OpensAfterTier *string            `json:"opensAfterTier"`
	TokenPrices    []sale.TokenAmount `json:"tokenPrices"`
	Note           *string            `json:"note"`
	KYCRequired    bool               `json:"kycRequired"`
	EnforcedBy     tierEnforcement    `json:"enforcedBy"`
}

// toTierJSON is tier t with its prices in tokens (Sale.TokenPrices).
func toTierJSON(t store.Tier, tokenPrices []sale.TokenAmount) tierJSON {
	var after *string
	if t.OpensAfterTier != nil {
		id := strconv.Itoa(*t.OpensAfterTier)
		after = &id
	}
	return tierJSON{
		ID:             strconv.Itoa(t.ID),
		Label:          t.Label,
		PriceWei:       t.PriceWei.String(),
		MaxPerWallet:   t.MaxPerWallet,
		HoldingWei:     t.HoldingWei.String(),
		HoldingToken:   t.HoldingToken,
		PayoutBps:      t.PayoutBps,
		Enabled:        t.Enabled,
		Supply:         t.Supply,
		StartsAt:       isoTime(t.StartsAt),
		EndsAt:         isoTime(t.EndsAt),
		AllowlistUntil: isoTime(t.AllowlistUntil),
		OpensAfterTier: after,
		TokenPrices:    tokenPrices,
		Note:           t.Note,
		KYCRequired:    t.KYCRequired,
		EnforcedBy:     enforcement,
	}
}

// tierNowJSON is a tier of GET /api/tiers: its settings and where its sale stands now. OnSale is
// whether it sells now (spec §2: "whether the tier is currently on sale"), not the switch.
type tierNowJSON struct {
	tierJSON
	OnSale          bool            `json:"onSale"`
	Sold            int             `json:"sold"`
	Remaining       *int            `json:"remaining"`
	Phase           store.TierPhase `json:"phase"`
	OpensAt         *string         `json:"opensAt"`
	HoldingSymbol   *string         `json:"holdingSymbol"`
	HoldingDecimals *int            `json:"holdingDecimals"`
}

func toTierNowJSON(t sale.TierNow) tierNowJSON {
	j := tierNowJSON{tierJSON: toTierJSON(t.Tier, t.InTokens), OnSale: t.Phase.Open(), Sold: t.Sold, Remaining: t.Remaining,
		Phase: t.Phase, OpensAt: isoTime(t.OpensAt)}
	if t.Token != nil {
		d := int(t.Token.Decimals)
		j.HoldingSymbol, j.HoldingDecimals = &t.Token.Symbol, &d
	}
	return j
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
	return store.APITime(t)
}
