package store

import (
	"encoding/json"
)

// ReasonCode says why a payment does not become a node, as a stable snake_case word that
// integrators switch on (the API's reasonCode). The codes, their arguments and their sentences
// are the sale's catalogue (jobs/sale); the ledger keeps a code and its arguments, never words.
type ReasonCode string

// Reason is why a payment was rejected, as the ledger keeps it: its code and its arguments as
// the sale wrote them (jobs/sale reads them back).
type Reason struct {
	Code ReasonCode      `json:"code"`
	Args json.RawMessage `json:"args"`
}

// Scan reads a Reason from the JSON object {code, args} that paymentReasonSQL builds.
func (r *Reason) Scan(src any) error { return scanJSON(src, r) }

// TierPhase is where a tier's sale stands at an instant (the API's phase); jobs/sale says which
// phase a tier is in.
type TierPhase string

const (
	PhaseOff       TierPhase = "off"       // the operator's switch is off
	PhaseScheduled TierPhase = "scheduled" // before its start, or waiting for the tier it opens after
	PhaseAllowlist TierPhase = "allowlist" // open to the wallets on its allowlist
	PhasePublic    TierPhase = "public"    // open to anyone
	PhaseSoldOut   TierPhase = "sold_out"  // its supply is sold
	PhaseEnded     TierPhase = "ended"     // past its end
)

// Open tells whether a payment made in phase p can buy the tier.
func (p TierPhase) Open() bool { return p == PhaseAllowlist || p == PhasePublic }
