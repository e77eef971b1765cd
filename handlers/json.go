package handlers

import (
	"strconv"
	"time"

	"nodeledger/store"
)

// The JSON shapes of the API. Wei is a decimal string, times are ISO 8601 UTC or null; the
// OpenAPI document (web/openapi.json) describes the same shapes.

type nodeJSON struct {
	ID            int64   `json:"id"`
	ChainNodeID   string  `json:"chainNodeId"`
	Tier          string  `json:"tier"`
	BalanceWei    string  `json:"balanceWei"`
	CumulativeWei string  `json:"cumulativeWei"`
	WithdrawnWei  string  `json:"withdrawnWei"`
	MintTx        string  `json:"mintTx"`
	Status        string  `json:"status"`
	CreatedAt     *string `json:"createdAt"`
}

func toNodeJSON(n store.Node) nodeJSON {
	return nodeJSON{
		ID:            n.ID,
		ChainNodeID:   n.ChainNodeID.String(),
		Tier:          strconv.Itoa(n.Tier),
		BalanceWei:    n.BalanceWei.String(),
		CumulativeWei: n.CumulativeWei.String(),
		WithdrawnWei:  n.WithdrawnWei.String(),
		MintTx:        n.MintTx,
		Status:        n.Status,
		CreatedAt:     isoTime(&n.CreatedAt),
	}
}

type nodeDetailJSON struct {
	nodeJSON
	Owner       *string          `json:"owner"`
	PriceWei    string           `json:"priceWei"`
	Credits     []creditJSON     `json:"credits"`
	Withdrawals []withdrawalJSON `json:"withdrawals"`
}

type creditJSON struct {
	ID             int64   `json:"id"`
	DistributionID int64   `json:"distributionId"`
	AmountWei      string  `json:"amountWei"`
	CreatedAt      *string `json:"createdAt"`
}

func toCreditJSON(c store.Credit) creditJSON {
	return creditJSON{
		ID:             c.ID,
		DistributionID: c.DistributionID,
		AmountWei:      c.AmountWei.String(),
		CreatedAt:      isoTime(&c.CreatedAt),
	}
}

type withdrawalJSON struct {
	ID                  int64   `json:"id"`
	AmountWei           string  `json:"amountWei"`
	CumulativeSignedWei string  `json:"cumulativeSignedWei"`
	ToAddress           *string `json:"toAddress"`
	Deadline            int64   `json:"deadline"`
	TxHash              *string `json:"txHash"`
	Status              *string `json:"status"`
	CreatedAt           *string `json:"createdAt"`
	ConfirmedAt         *string `json:"confirmedAt"`
}

func toWithdrawalJSON(w store.Withdrawal) withdrawalJSON {
	return withdrawalJSON{
		ID:                  w.ID,
		AmountWei:           w.AmountWei.String(),
		CumulativeSignedWei: w.CumulativeSignedWei.String(),
		ToAddress:           w.ToAddress,
		Deadline:            w.Deadline,
		TxHash:              w.TxHash,
		Status:              w.Status,
		CreatedAt:           isoTime(&w.CreatedAt),
		ConfirmedAt:         isoTime(w.ConfirmedAt),
	}
}

type distributionJSON struct {
	ID          int64   `json:"id"`
	TotalWei    string  `json:"totalWei"`
	NodeCount   int     `json:"nodeCount"`
	Mode        string  `json:"mode"`
	FundingMode string  `json:"fundingMode"`
	Status      string  `json:"status"`
	TxHash      *string `json:"txHash"`
	CreatedAt   *string `json:"createdAt"`
	ConfirmedAt *string `json:"confirmedAt"`
}

func toDistributionJSON(d store.Distribution) distributionJSON {
	return distributionJSON{
		ID:          d.ID,
		TotalWei:    d.TotalWei.String(),
		NodeCount:   d.NodeCount,
		Mode:        d.Mode,
		FundingMode: d.FundingMode,
		Status:      d.Status,
		TxHash:      d.TxHash,
		CreatedAt:   isoTime(&d.CreatedAt),
		ConfirmedAt: isoTime(d.ConfirmedAt),
	}
}

// tierEnforcement says who applies each rule of a tier: the contract only caps the total number
// of nodes per wallet; everything else is checked by the operator's payments pass.
var tierEnforcement = map[string]string{
	"priceWei":       "operator",
	"maxPerWallet":   "operator",
	"holdingWei":     "operator",
	"onSale":         "operator",
	"totalPerWallet": "contract",
}

type tierJSON struct {
	ID           string            `json:"id"`
	Label        string            `json:"label"`
	PriceWei     string            `json:"priceWei"`
	MaxPerWallet int               `json:"maxPerWallet"`
	HoldingWei   string            `json:"holdingWei"`
	HoldingToken *string           `json:"holdingToken"`
	PayoutBps    int               `json:"payoutBps"`
	OnSale       bool              `json:"onSale"`
	EnforcedBy   map[string]string `json:"enforcedBy"`
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
		EnforcedBy:   tierEnforcement,
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
