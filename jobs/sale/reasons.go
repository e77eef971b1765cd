package sale

import (
	"cmp"
	"encoding/json"
	"fmt"
	"time"

	"nodeledger/store"
	"nodeledger/views/words"
)

// The reason codes: why a payment does not become a node, as the stable snake_case word
// integrators switch on (the API's reasonCode). Each is one entry of the catalogue below, which
// says what it carries, how it is told and how the API document describes it.
const (
	WrongAmount         store.ReasonCode = "wrong_amount"
	NoTierOnSale        store.ReasonCode = "no_tier_on_sale"
	MintingPaused       store.ReasonCode = "minting_paused"
	WalletLimit         store.ReasonCode = "wallet_limit"
	ContractWalletLimit store.ReasonCode = "contract_wallet_limit"
	HoldingTooLow       store.ReasonCode = "holding_too_low"
	ContractRefused     store.ReasonCode = "contract_refused"
	SoldOut             store.ReasonCode = "sold_out"
	NotOpen             store.ReasonCode = "not_open"
	Closed              store.ReasonCode = "closed"
	NotAllowlisted      store.ReasonCode = "not_allowlisted"
	AllocationUsed      store.ReasonCode = "allocation_used"
	Sanctioned          store.ReasonCode = "sanctioned"
	Denylisted          store.ReasonCode = "denylisted"
	KYCRequired         store.ReasonCode = "kyc_required"
	Other               store.ReasonCode = "other"
)

// ReasonEntry is one reason of the catalogue: its code, the few words the operator's live view
// counts it under, the API document's description of it (web/openapi.json's ReasonCode, which a
// test holds to this), and the sentence a person reads, written from the reason's Args.
type ReasonEntry struct {
	Code  store.ReasonCode
	Label string
	Doc   string
	// say writes the sentence; before is said of a payment about to be made (the buyer's
	// pre-check), not of one made. "" when there is nothing to say.
	say func(a Args, before bool) string
}

// Catalogue is every reason, in the order the API document lists them. A new reason is one entry
// here, the rule that gives it, and a migration that lets the payments table store its code.
var Catalogue = []ReasonEntry{
	{WrongAmount, "Wrong amount",
		"The value is not the exact price of any tier open when the payment was made, nor a price a tier had within the price grace (PRICE_GRACE_SEC) before it (reason lists the prices of the tiers open then).",
		func(a Args, _ bool) string {
			prices := make([]string, len(a.OnSale))
			for i, t := range a.OnSale {
				verb := "" // "the One tier costs 0.1 ETH and the Two tier 1 ETH"
				if i == 0 {
					verb = "costs "
				}
				prices[i] = fmt.Sprintf("the %s tier %s%s", t.Label, verb, a.units(t.PriceWei, t.Amount))
			}
			if a.Paid != nil {
				return fmt.Sprintf("%s is not the price of any tier on sale in %s; %s.", a.paid(), a.Paid.Symbol, words.AndList(prices))
			}
			return fmt.Sprintf("%s is not the price of any tier on sale; %s.", a.paid(), words.AndList(prices))
		}},
	{NoTierOnSale, "No tier on sale",
		"No tier was open when the payment was made, so no amount would have bought a node.",
		func(a Args, before bool) string {
			if a.Paid != nil {
				return tense(before, fmt.Sprintf("%s was paid while no tier was on sale in %s.", a.paid(), a.Paid.Symbol),
					fmt.Sprintf("No tier is on sale in %s right now.", a.Paid.Symbol))
			}
			return tense(before, fmt.Sprintf("%s was paid while no tier was on sale.", a.paid()), "No tier is on sale right now.")
		}},
	{MintingPaused, "Minting paused",
		"The contract was paused when the payment was checked.",
		func(_ Args, before bool) string {
			return tense(before, "Minting was paused on the contract when this payment was checked.", "Minting is paused on the contract.")
		}},
	{WalletLimit, "Wallet at the tier's limit",
		"The wallet already holds (or is being minted) as many nodes of the tier as the tier's maxPerWallet allows.",
		func(a Args, _ bool) string {
			return fmt.Sprintf("This wallet already holds the %s a wallet may have.",
				words.Count(a.MaxPerWallet, a.TierLabel+" node", a.TierLabel+" nodes"))
		}},
	{ContractWalletLimit, "Wallet at the contract's limit",
		"The wallet already holds as many nodes in all as the contract's maxPerWallet allows.",
		func(a Args, _ bool) string {
			return fmt.Sprintf("This wallet already holds %s, the most the contract allows one wallet.",
				words.Count(a.MaxPerWallet, "node", "nodes"))
		}},
	{HoldingTooLow, "Holds too little of the token",
		"The wallet holds less of the tier's holding token than the tier's holdingWei (its balance when the payment was checked); reason writes both amounts in the token's units and symbol.",
		func(a Args, before bool) string {
			if a.TokenDecimals == nil { // the token did not tell its decimals: base units, said so
				return fmt.Sprintf("The %s tier asks the wallet to hold %s units of the token %s; it holds %s.",
					a.TierLabel, a.HoldingWei, a.HoldingToken, a.HeldWei)
			}
			t := store.Token{Symbol: cmp.Or(a.TokenSymbol, "of the token "+a.HoldingToken), Decimals: *a.TokenDecimals}
			return fmt.Sprintf("The %s tier asks the wallet to hold %s; it %s %s.", a.TierLabel, t.Units(a.HoldingWei.Int),
				tense(before, "held", "holds"), t.Units(a.HeldWei.Int))
		}},
	{ContractRefused, "Refused by the contract",
		"The payment checked out but the contract refused its mint, for a cause the checks could not foresee: the wallet filled up, or minting was paused, in between.",
		func(a Args, _ bool) string {
			// The refusals the checks cannot foresee are said with their cause; any other without.
			switch a.Error {
			case "WalletFull":
				return "The contract refused the mint: this wallet already holds the most nodes it allows one wallet."
			case "MintingPaused":
				return "The contract refused the mint: minting was paused."
			}
			return "The contract refused the mint."
		}},
	{SoldOut, "Sold out",
		"The tier the payment's value buys had sold its supply when the payment was made (its block's timestamp). Payments are judged in chain order (block, transaction index, call index), so the earliest get the last nodes.",
		func(a Args, before bool) string {
			return fmt.Sprintf("The %s tier %s sold out (%s of %s)%s.", a.TierLabel, tense(before, "was", "is"), words.Thousands(a.Sold),
				words.Thousands(a.Supply), tense(before, " when this payment was made", ""))
		}},
	{NotOpen, "Tier not open yet",
		"The tier had not opened when the payment was made: before its startsAt, or while the tier it opens after (opensAfterTier) had not sold out.",
		func(a Args, before bool) string {
			switch {
			case a.StartsAt != nil:
				return fmt.Sprintf("The %s tier opens at %s%s.", a.TierLabel, words.MinuteUTC(*a.StartsAt), tense(before, "; this payment was made before", ""))
			case a.AfterTierLabel != "":
				return fmt.Sprintf("The %s tier opens once %s sells out%s.", a.TierLabel, a.AfterTierLabel, tense(before, "; this payment was made before it did", ""))
			}
			return fmt.Sprintf("The %s tier %s not open yet%s.", a.TierLabel, tense(before, "was", "is"), tense(before, " when this payment was made", ""))
		}},
	{Closed, "Tier closed",
		"The tier was switched off by the operator, or past its endsAt, when the payment was made.",
		func(a Args, before bool) string {
			if a.EndsAt != nil {
				return fmt.Sprintf("The %s tier's sale ended at %s%s.", a.TierLabel, words.MinuteUTC(*a.EndsAt), tense(before, "; this payment was made after", ""))
			}
			return fmt.Sprintf("The %s tier %s not on sale%s.", a.TierLabel, tense(before, "was", "is"), tense(before, " when this payment was made", ""))
		}},
	{NotAllowlisted, "Not on the allowlist",
		"During the tier's allowlist phase, the wallet was not on its allowlist.",
		func(a Args, _ bool) string {
			return fmt.Sprintf("Until %s only the wallets on the %s tier's allowlist may buy it, and this wallet is not on it.",
				allowlistEnd(a.AllowlistUntil), a.TierLabel)
		}},
	{AllocationUsed, "Allowlist allocation used",
		"During the tier's allowlist phase, the wallet already had (minted or being minted) as many nodes of the tier as its allocation.",
		func(a Args, before bool) string {
			return fmt.Sprintf("This wallet %s its whole allowlist allocation of %s; until %s a wallet on the allowlist buys no more than its allocation.",
				tense(before, "had", "has"), words.Count(a.Allocation, a.TierLabel+" node", a.TierLabel+" nodes"), allowlistEnd(a.AllowlistUntil))
		}},
	{Sanctioned, "Sanctions screening",
		"The sanctions oracle (SANCTIONS_ORACLE) listed the payer at the payment's block. The payment is held: neither minted nor refunded until an admin releases it (to be minted, or refunded: then it is rejected with this code and released true).",
		func(a Args, before bool) string { return screened(a, before, " (sanctions screening)") }},
	{Denylisted, "On the operator's denylist",
		"The payer was on the operator's denylist when the payment was made. The payment is held: neither minted nor refunded until an admin releases it (to be minted, or refunded: then it is rejected with this code and released true).",
		func(a Args, before bool) string { return screened(a, before, "") }},
	{KYCRequired, "Identity check needed",
		"The tier asks for a verified identity and the wallet had none when it paid. The payment is held with its node kept for it (until, the hold's end, KYC_HOLD_DAYS after the payment): minted once the wallet is verified, refunded when the check is rejected or the hold ends (then it is rejected with this code and released true).",
		func(a Args, before bool) string {
			switch {
			case before:
				return fmt.Sprintf("Verify your identity first: the %s tier asks every buyer for a verified identity, and this wallet has none yet.", a.TierLabel)
			case a.Released:
				return "This payment needed a verified identity, which its wallet did not have in time; it is refunded."
			case a.Until != nil:
				return fmt.Sprintf("Identity check needed: verify by %s, or it is refunded.", words.MinuteUTC(*a.Until))
			}
			return "Identity check needed: verify your identity, or it is refunded."
		}},
	{Other, "Other",
		"A payment rejected before reasons had codes whose recorded reason matches none of the above; reason gives its words as recorded.",
		func(a Args, _ bool) string { return a.Text }}, // the sentence as recorded before reasons had codes (migration 0012)
}

// Holds tells whether r holds its payment (the screening's reasons, until an admin releases it)
// rather than reject it.
func (r *Reason) Holds() bool {
	return r != nil && (r.Code == Sanctioned || r.Code == Denylisted || r.Code == KYCRequired) && !r.Args.Released
}

// screened is what the payer of a payment the screening holds reads, naming no list (why: the
// screening's, " (sanctions screening)", or none).
func screened(a Args, before bool, why string) string {
	switch {
	case before:
		return "This wallet cannot buy in this sale" + why + "."
	case a.Released:
		return "This payment could not be accepted" + why + "; it is refunded."
	}
	return "This payment cannot be accepted" + why + "; the operator will contact you."
}

// Entry is code's entry of the catalogue; a code it does not know (written by a newer version of
// the service) is told as Other.
func Entry(code store.ReasonCode) ReasonEntry {
	for _, e := range Catalogue {
		if e.Code == code {
			return e
		}
	}
	return Catalogue[len(Catalogue)-1]
}

// tense is past, said of a payment made, or now, said of one about to be made (before).
func tense(before bool, past, now string) string {
	if before {
		return now
	}
	return past
}

// allowlistEnd is words.MinuteUTC(*t), or "the allowlist phase ends" when t is not known.
func allowlistEnd(t *time.Time) string {
	if t == nil {
		return "the allowlist phase ends"
	}
	return words.MinuteUTC(*t)
}

// Reason is why a payment buys no node: a code of the catalogue and the values the check saw.
type Reason struct {
	Code store.ReasonCode `json:"code"`
	Args Args             `json:"args"`
}

// Args are the values a reason is told with; each code sets the ones its sentence uses, the
// others are left zero and out of the JSON. Amounts are wei, kept as the check saw them (a tier's
// price or label may change later; the reason does not).
type Args struct {
	PaidWei store.Uint256 `json:"paidWei,omitzero"`
	// Paid is what a token payment paid, with the token's symbol and decimals (nil: ETH, PaidWei).
	Paid         *TokenAmount  `json:"paid,omitempty"`
	OnSale       []TierPrice   `json:"onSale,omitempty"`
	Tier         *int          `json:"tier,omitempty"`
	TierLabel    string        `json:"tierLabel,omitempty"`
	MaxPerWallet int           `json:"maxPerWallet,omitempty"`
	HoldingToken string        `json:"holdingToken,omitempty"`
	HoldingWei   store.Uint256 `json:"holdingWei,omitzero"`
	HeldWei      store.Uint256 `json:"heldWei,omitzero"`
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
	// Released: a payment the screening held that an admin released to be refunded.
	Released bool `json:"released,omitempty"`
	// Until: when a payment held for its wallet's identity check is refunded unless verified.
	Until *time.Time `json:"until,omitempty"`
	Text  string     `json:"text,omitempty"`
}

// TierPrice is a tier on sale and its price when a payment was checked: in ETH, or in the token
// paid (Amount, base units).
type TierPrice struct {
	ID       *int          `json:"id,omitempty"` // unknown for a few reasons migrated from sentences
	Label    string        `json:"label"`
	PriceWei store.Uint256 `json:"priceWei,omitzero"`
	Amount   store.Uint256 `json:"amount,omitzero"`
}

// TokenAmount is an amount of a token, with the token (store.TokenAmount).
type TokenAmount = store.TokenAmount

// paid is what the payment paid, in its units: "0.1 ETH", "300 USDC".
func (a Args) paid() string {
	if a.Paid != nil {
		return a.Paid.String()
	}
	return a.PaidWei.ETH() + " ETH"
}

// units is a price in what the payment paid: wei in ETH, or amount in the token's units.
func (a Args) units(wei, amount store.Uint256) string {
	if a.Paid != nil {
		return a.Paid.Units(amount.Int)
	}
	return wei.ETH() + " ETH"
}

// Sentence is why a payment made buys no node, as its buyer and the operator read it: nil for no
// reason, and for a rejection recorded without words.
func (r *Reason) Sentence() *string { return r.say(false) }

// Precheck is why a payment about to be made would buy no node, in the present.
func (r *Reason) Precheck() *string { return r.say(true) }

func (r *Reason) say(before bool) *string {
	if r == nil {
		return nil
	}
	s := Entry(r.Code).say(r.Args, before)
	if s == "" {
		return nil
	}
	return &s
}

// Read is a reason as the ledger kept it; nil for none. Arguments that no longer decode (a
// shape this version does not know) are left zero: the code still says why.
func Read(r *store.Reason) *Reason {
	if r == nil {
		return nil
	}
	out := &Reason{Code: r.Code}
	_ = json.Unmarshal(r.Args, &out.Args)
	return out
}

// Sentence is the sentence of a reason as the ledger kept it (Reason.Sentence).
func Sentence(r *store.Reason) *string { return Read(r).Sentence() }
