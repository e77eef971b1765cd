package store

import (
	"database/sql/driver"
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
	// ReasonHoldingTooLow: the wallet holds less of the tier's holding token than the tier asks.
	// Tier, TierLabel, HoldingToken, HoldingWei, HeldWei.
	ReasonHoldingTooLow ReasonCode = "holding_too_low"
	// ReasonContractRefused: the mint transaction reverted, for a cause the checks could not
	// foresee (the wallet filled up or minting was paused in between). Error, when known.
	ReasonContractRefused ReasonCode = "contract_refused"
	// ReasonOther: a rejection recorded before reasons had codes, whose sentence matched none of
	// the forms above (migration 0012). Text, the sentence as recorded, when there was one.
	ReasonOther ReasonCode = "other"
)

// ReasonCodes are every code, in the order the API document lists them.
var ReasonCodes = []ReasonCode{ReasonWrongAmount, ReasonNoTierOnSale, ReasonMintingPaused, ReasonWalletLimit,
	ReasonContractWalletLimit, ReasonHoldingTooLow, ReasonContractRefused, ReasonOther}

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
	Error        string      `json:"error,omitempty"` // the contract's custom error
	Text         string      `json:"text,omitempty"`
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
