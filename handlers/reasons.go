package handlers

import (
	"cmp"
	"fmt"
	"time"

	"nodeledger/store"
	"nodeledger/views/words"
)

// reasonSentence writes why a payment buys no node as the sentence its buyer and the operator
// read, amounts in ETH: the one place a rejection becomes words, for the API's reason, the
// payment's page, the refunds list and the operator's pass outcome. nil for no reason, and for a
// rejection recorded without one.
func reasonSentence(r *store.Reason) *string { return reasonWords(r, false) }

// checkSentence writes why a payment about to be made would buy no node (the pre-check), in the
// present: the same reasons as reasonSentence's.
func checkSentence(r *store.Reason) *string { return reasonWords(r, true) }

// reasonWords is reasonSentence, or checkSentence when before: said of a payment not made yet.
func reasonWords(r *store.Reason, before bool) *string {
	if r == nil {
		return nil
	}
	a := r.Args
	// past is the sentence for a payment made, now for one about to be made.
	tense := func(past, now string) string {
		if before {
			return now
		}
		return past
	}
	var s string
	switch r.Code {
	case store.ReasonWrongAmount:
		prices := make([]string, len(a.OnSale))
		for i, t := range a.OnSale {
			verb := "" // "the One tier costs 0.1 ETH and the Two tier 1 ETH"
			if i == 0 {
				verb = "costs "
			}
			prices[i] = fmt.Sprintf("the %s tier %s%s ETH", t.Label, verb, t.PriceWei.ETH())
		}
		s = fmt.Sprintf("%s ETH is not the price of any tier on sale; %s.", a.PaidWei.ETH(), words.AndList(prices))
	case store.ReasonNoTierOnSale:
		s = tense(fmt.Sprintf("%s ETH was paid while no tier was on sale.", a.PaidWei.ETH()), "No tier is on sale right now.")
	case store.ReasonMintingPaused:
		s = tense("Minting was paused on the contract when this payment was checked.", "Minting is paused on the contract.")
	case store.ReasonWalletLimit:
		s = fmt.Sprintf("This wallet already holds the %s a wallet may have.",
			words.Count(a.MaxPerWallet, a.TierLabel+" node", a.TierLabel+" nodes"))
	case store.ReasonContractWalletLimit:
		s = fmt.Sprintf("This wallet already holds %s, the most the contract allows one wallet.",
			words.Count(a.MaxPerWallet, "node", "nodes"))
	case store.ReasonHoldingTooLow:
		if a.TokenDecimals == nil { // the token did not tell its decimals: base units, said so
			s = fmt.Sprintf("The %s tier asks the wallet to hold %s units of the token %s; it holds %s.",
				a.TierLabel, a.HoldingWei, a.HoldingToken, a.HeldWei)
			break
		}
		d, sym := uint8(*a.TokenDecimals), cmp.Or(a.TokenSymbol, "of the token "+a.HoldingToken)
		s = fmt.Sprintf("The %s tier asks the wallet to hold %s %s; it %s %s %s.", a.TierLabel, a.HoldingWei.Units(d), sym,
			tense("held", "holds"), a.HeldWei.Units(d), sym)
	case store.ReasonSoldOut:
		s = fmt.Sprintf("The %s tier %s sold out (%s of %s)%s.", a.TierLabel, tense("was", "is"), words.Thousands(a.Sold),
			words.Thousands(a.Supply), tense(" when this payment was made", ""))
	case store.ReasonNotOpen:
		switch {
		case a.StartsAt != nil:
			s = fmt.Sprintf("The %s tier opens at %s%s.", a.TierLabel, words.MinuteUTC(*a.StartsAt), tense("; this payment was made before", ""))
		case a.AfterTierLabel != "":
			s = fmt.Sprintf("The %s tier opens once %s sells out%s.", a.TierLabel, a.AfterTierLabel, tense("; this payment was made before it did", ""))
		default:
			s = fmt.Sprintf("The %s tier %s not open yet%s.", a.TierLabel, tense("was", "is"), tense(" when this payment was made", ""))
		}
	case store.ReasonClosed:
		if a.EndsAt != nil {
			s = fmt.Sprintf("The %s tier's sale ended at %s%s.", a.TierLabel, words.MinuteUTC(*a.EndsAt), tense("; this payment was made after", ""))
		} else {
			s = fmt.Sprintf("The %s tier %s not on sale%s.", a.TierLabel, tense("was", "is"), tense(" when this payment was made", ""))
		}
	case store.ReasonNotAllowlisted:
		s = fmt.Sprintf("Until %s only the wallets on the %s tier's allowlist may buy it, and this wallet is not on it.",
			saleTimeOr(a.AllowlistUntil), a.TierLabel)
	case store.ReasonAllocationUsed:
		s = fmt.Sprintf("This wallet %s its whole allowlist allocation of %s; until %s a wallet on the allowlist buys no more than its allocation.",
			tense("had", "has"), words.Count(a.Allocation, a.TierLabel+" node", a.TierLabel+" nodes"), saleTimeOr(a.AllowlistUntil))
	case store.ReasonContractRefused:
		// The refusals the checks cannot foresee (the wallet filled up, or minting was paused,
		// after the check) are said with their cause; any other without one.
		switch a.Error {
		case "WalletFull":
			s = "The contract refused the mint: this wallet already holds the most nodes it allows one wallet."
		case "MintingPaused":
			s = "The contract refused the mint: minting was paused."
		default:
			s = "The contract refused the mint."
		}
	default: // store.ReasonOther: the sentence as it was recorded before reasons had codes
		if a.Text == "" {
			return nil
		}
		s = a.Text
	}
	return &s
}

// saleTimeOr is words.MinuteUTC(*t), or "the allowlist phase ends" when t is not known.
func saleTimeOr(t *time.Time) string {
	if t == nil {
		return "the allowlist phase ends"
	}
	return words.MinuteUTC(*t)
}
