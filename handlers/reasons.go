package handlers

import (
	"fmt"
	"strings"

	"nodeledger/store"
	"nodeledger/views"
)

// reasonSentence writes why a payment buys no node as the sentence its buyer and the operator
// read, amounts in ETH: the one place a rejection becomes words, for the API's reason, the
// payment's page, the refunds list and the operator's pass outcome. nil for no reason, and for a
// rejection recorded without one.
func reasonSentence(r *store.Reason) *string {
	if r == nil {
		return nil
	}
	a := r.Args
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
		s = fmt.Sprintf("%s ETH is not the price of any tier on sale; %s.", a.PaidWei.ETH(), andList(prices))
	case store.ReasonNoTierOnSale:
		s = fmt.Sprintf("%s ETH was paid while no tier was on sale.", a.PaidWei.ETH())
	case store.ReasonMintingPaused:
		s = "Minting was paused on the contract when this payment was checked."
	case store.ReasonWalletLimit:
		s = fmt.Sprintf("This wallet already holds the %s a wallet may have.",
			views.Count(a.MaxPerWallet, a.TierLabel+" node", a.TierLabel+" nodes"))
	case store.ReasonContractWalletLimit:
		s = fmt.Sprintf("This wallet already holds %s, the most the contract allows one wallet.",
			views.Count(a.MaxPerWallet, "node", "nodes"))
	case store.ReasonHoldingTooLow:
		s = fmt.Sprintf("The %s tier asks the wallet to hold %s units of the token %s; it holds %s.",
			a.TierLabel, a.HoldingWei, a.HoldingToken, a.HeldWei)
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

// andList is "a", "a and b", "a, b and c".
func andList(items []string) string {
	n := len(items)
	if n <= 1 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:n-1], ", ") + " and " + items[n-1]
}
