package store

import (
	"database/sql/driver"
	"time"
)

// ReasonCode says why a payment does not become a node, as a stable snake_case word that
// integrators switch on (the API's reasonCode). The sentence a person reads is written from the
// code and its ReasonArgs where the reason is shown, never stored.
type ReasonCode string

// The reason codes, each with the ReasonArgs it carries.
const (
	// ReasonWrongAmount: the value is not the price of any tier on sale. PaidWei, OnSale.
	ReasonWrongAmount ReasonCode = "wrong_amount"
	// ReasonNoTierOnSale: no tier was on sale at all, so no amount would have done. PaidWei.
	ReasonNoTierOnSale ReasonCode = "no_tier_on_sale"
	// ReasonMintingPaused: the contract was paused when the payment was checked. No arguments.
	ReasonMintingPaused ReasonCode = "minting_paused"
	// ReasonWalletLimit: the wallet holds (or is being minted) the tier's maxPerWallet nodes of
	// that tier. Tier, TierLabel, MaxPerWallet.
	ReasonWalletLimit ReasonCode = "wallet_limit"
	// ReasonContractWalletLimit: the wallet holds the contract's maxPerWallet nodes in all.
	// MaxPerWallet (the contract's).
	ReasonContractWalletLimit ReasonCode = "contract_wallet_limit"
	// ReasonHoldingTooLow: the wallet holds less of the tier's holding token than the tier asks
	// (its balance when the payment was checked: balances at past blocks need an archive node).
	// Tier, TierLabel, HoldingToken, HoldingWei, HeldWei; TokenSymbol and TokenDecimals when the
	// token told them.
	ReasonHoldingTooLow ReasonCode = "holding_too_low"
	// ReasonContractRefused: the mint transaction reverted, for a cause the checks could not
	// foresee (the wallet filled up or minting was paused in between). Error, when known.
	ReasonContractRefused ReasonCode = "contract_refused"
	// ReasonSoldOut: the tier the payment's value buys had sold its supply. Tier, TierLabel,
	// Supply, Sold.
	ReasonSoldOut ReasonCode = "sold_out"
	// ReasonNotOpen: the tier had not opened yet: before its StartsAt, or while the tier it opens
	// after (AfterTier, AfterTierLabel) was not sold out. Tier, TierLabel, and one of the two.
	ReasonNotOpen ReasonCode = "not_open"
	// ReasonClosed: the tier was off sale (the operator's switch), or its sale had ended (EndsAt).
	// Tier, TierLabel, EndsAt when it had ended.
	ReasonClosed ReasonCode = "closed"
	// ReasonNotAllowlisted: during the allowlist phase, the wallet was not on the tier's
	// allowlist. Tier, TierLabel, AllowlistUntil.
	ReasonNotAllowlisted ReasonCode = "not_allowlisted"
	// ReasonAllocationUsed: during the allowlist phase, the wallet had its whole allocation of the
	// tier already. Tier, TierLabel, Allocation, AllowlistUntil.
	ReasonAllocationUsed ReasonCode = "allocation_used"
	// ReasonOther: a rejection recorded before reasons had codes, whose sentence matched none of
	// the forms above (migration 0012). Text, the sentence as recorded, when there was one.
	ReasonOther ReasonCode = "other"
)

// ReasonCodes are every code, in the order the API document lists them.
var ReasonCodes = []ReasonCode{ReasonWrongAmount, ReasonNoTierOnSale, ReasonMintingPaused, ReasonWalletLimit,
	ReasonContractWalletLimit, ReasonHoldingTooLow, ReasonContractRefused, ReasonSoldOut, ReasonNotOpen, ReasonClosed,
	ReasonNotAllowlisted, ReasonAllocationUsed, ReasonOther}

// Reason is why a payment was rejected: a code and the values the check saw, amounts in wei.
type Reason struct {
	Code ReasonCode `json:"code"`
	Args ReasonArgs `json:"args"`
}

// ReasonArgs are the values a reason is told with; each code sets the ones it lists, the others
// are left zero and out of the JSON. Amounts are wei, kept as the check saw them (a tier's price
// or label may change later; the reason does not).
type ReasonArgs struct {
	PaidWei      Uint256     `json:"paidWei,omitzero"`
	OnSale       []TierPrice `json:"onSale,omitempty"`
	Tier         *int        `json:"tier,omitempty"`
	TierLabel    string      `json:"tierLabel,omitempty"`
	MaxPerWallet int         `json:"maxPerWallet,omitempty"`
	HoldingToken string      `json:"holdingToken,omitempty"`
	HoldingWei   Uint256     `json:"holdingWei,omitzero"`
	HeldWei      Uint256     `json:"heldWei,omitzero"`
	// The holding token's symbol and decimals, as the token told them when the payment was
	// checked (TokenDecimals nil when it did not), so amounts are written in its units.
	TokenSymbol    string     `json:"tokenSymbol,omitempty"`
	TokenDecimals  *int       `json:"tokenDecimals,omitempty"`
	Supply         int        `json:"supply,omitempty"`
	Sold           int        `json:"sold,omitempty"`
	StartsAt       *time.Time `json:"startsAt,omitempty"`
	EndsAt         *time.Time `json:"endsAt,omitempty"`
	AllowlistUntil *time.Time `json:"allowlistUntil,omitempty"`
	AfterTier      *int       `json:"afterTier,omitempty"`
	AfterTierLabel string     `json:"afterTierLabel,omitempty"`
	Allocation     int        `json:"allocation,omitempty"`
	Error          string     `json:"error,omitempty"` // the contract's custom error
	Text           string     `json:"text,omitempty"`
}

// TierPrice is a tier on sale and its price when a payment was checked.
type TierPrice struct {
	ID       *int    `json:"id,omitempty"` // unknown for a few reasons migrated from sentences
	Label    string  `json:"label"`
	PriceWei Uint256 `json:"priceWei"`
}

// Value writes the arguments as the jsonb column reason_args.
func (a ReasonArgs) Value() (driver.Value, error) { return jsonValue(a) }

// Scan reads a Reason from the JSON object {code, args} that paymentReasonSQL builds.
func (r *Reason) Scan(src any) error { return scanJSON(src, r) }

// TierPhase is where a tier's sale stands at an instant (the API's phase).
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
