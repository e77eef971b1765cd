package handlers

import (
	"math/big"
	"testing"
	"time"

	"nodeledger/jobs"
	"nodeledger/store"
)

// TestReasonSentences: each reason code is written as the sentence the checks used to store,
// word for word (jobs' TestPaymentsThatDoNotBecomeNodes records these same reasons as codes).
func TestReasonSentences(t *testing.T) {
	wei := func(s string) store.Uint256 {
		n, ok := new(big.Int).SetString(s, 10)
		if !ok {
			t.Fatal(s)
		}
		return store.Uint256{Int: n}
	}
	one, two, three := 1, 2, 3
	onSale := []store.TierPrice{
		{ID: &one, Label: "One", PriceWei: wei("100000000000000000")},
		{ID: &two, Label: "Two", PriceWei: wei("1000000000000000000")},
	}
	const token = "0x5fbdb2315678afecb367f032d93f642f64180aa3"
	for _, tc := range []struct {
		name   string
		reason store.Reason
		want   string
	}{
		{"wrong amount", store.Reason{Code: store.ReasonWrongAmount, Args: store.ReasonArgs{PaidWei: wei("100000000000000001"), OnSale: onSale}},
			"0.100000000000000001 ETH is not the price of any tier on sale; the One tier costs 0.1 ETH and the Two tier 1 ETH."},
		{"wrong amount, one tier on sale", store.Reason{Code: store.ReasonWrongAmount, Args: store.ReasonArgs{PaidWei: wei("150000000000000000"), OnSale: onSale[:1]}},
			"0.15 ETH is not the price of any tier on sale; the One tier costs 0.1 ETH."},
		{"wrong amount, three tiers on sale", store.Reason{Code: store.ReasonWrongAmount, Args: store.ReasonArgs{PaidWei: wei("500000000000000000"),
			OnSale: append(onSale[:2:2], store.TierPrice{ID: &three, Label: "Three", PriceWei: wei("2000000000000000000")})}},
			"0.5 ETH is not the price of any tier on sale; the One tier costs 0.1 ETH, the Two tier 1 ETH and the Three tier 2 ETH."},
		{"no tier on sale", store.Reason{Code: store.ReasonNoTierOnSale, Args: store.ReasonArgs{PaidWei: wei("500000000000000000")}},
			"0.5 ETH was paid while no tier was on sale."},
		{"paused", store.Reason{Code: store.ReasonMintingPaused},
			"Minting was paused on the contract when this payment was checked."},
		{"tier allowance", store.Reason{Code: store.ReasonWalletLimit, Args: store.ReasonArgs{Tier: &one, TierLabel: "One", MaxPerWallet: 3}},
			"This wallet already holds the 3 One nodes a wallet may have."},
		{"tier allowance of one", store.Reason{Code: store.ReasonWalletLimit, Args: store.ReasonArgs{Tier: &one, TierLabel: "Limited", MaxPerWallet: 1}},
			"This wallet already holds the 1 Limited node a wallet may have."},
		{"contract allowance", store.Reason{Code: store.ReasonContractWalletLimit, Args: store.ReasonArgs{MaxPerWallet: 10}},
			"This wallet already holds 10 nodes, the most the contract allows one wallet."},
		{"holding", store.Reason{Code: store.ReasonHoldingTooLow, Args: store.ReasonArgs{Tier: &two, TierLabel: "Two", HoldingToken: token,
			HoldingWei: wei("100000000000000000000"), HeldWei: wei("0")}},
			"The Two tier asks the wallet to hold 100000000000000000000 units of the token " + token + "; it holds 0."},
		{"reverted", store.Reason{Code: store.ReasonContractRefused}, "The contract refused the mint."},
		{"reverted for an error said without a cause", store.Reason{Code: store.ReasonContractRefused, Args: store.ReasonArgs{Error: "Insolvent"}},
			"The contract refused the mint."},
		{"reverted, wallet full", store.Reason{Code: store.ReasonContractRefused, Args: store.ReasonArgs{Error: "WalletFull"}},
			"The contract refused the mint: this wallet already holds the most nodes it allows one wallet."},
		{"reverted, paused", store.Reason{Code: store.ReasonContractRefused, Args: store.ReasonArgs{Error: "MintingPaused"}},
			"The contract refused the mint: minting was paused."},
		{"recorded before codes", store.Reason{Code: store.ReasonOther, Args: store.ReasonArgs{Text: "minting is paused"}},
			"minting is paused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := reasonSentence(&tc.reason); got == nil || *got != tc.want {
				t.Fatalf("%v, want %q", got, tc.want)
			}
		})
	}
	t.Run("none", func(t *testing.T) {
		if got := reasonSentence(nil); got != nil {
			t.Fatalf("%q", *got)
		}
		if got := reasonSentence(&store.Reason{Code: store.ReasonOther}); got != nil {
			t.Fatalf("a rejection recorded without words: %q", *got)
		}
	})
}

// TestPaymentsOutcomeGroupsReasonsByCode: a pass's rejections are said once each, grouped by code.
func TestPaymentsOutcomeGroupsReasonsByCode(t *testing.T) {
	paused := store.Reason{Code: store.ReasonMintingPaused}
	full := store.Reason{Code: store.ReasonContractWalletLimit, Args: store.ReasonArgs{MaxPerWallet: 1}}
	sum := jobs.PaymentsSummary{Ran: true, Rejected: 3, Reasons: []store.Reason{paused, full, paused}}
	want := "Rejected 3 payments: minting was paused on the contract when this payment was checked; " +
		"this wallet already holds 1 node, the most the contract allows one wallet."
	if got := paymentsOutcome(sum, nil, time.Now()); got != want {
		t.Fatalf("%q,\nwant %q", got, want)
	}
}
