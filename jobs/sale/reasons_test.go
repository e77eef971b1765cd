package sale

import (
	"math/big"
	"testing"
	"time"

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
	onSale := []TierPrice{
		{ID: &one, Label: "One", PriceWei: wei("100000000000000000")},
		{ID: &two, Label: "Two", PriceWei: wei("1000000000000000000")},
	}
	const token = "0x5fbdb2315678afecb367f032d93f642f64180aa3"
	for _, tc := range []struct {
		name   string
		reason Reason
		want   string
	}{
		{"wrong amount", Reason{Code: WrongAmount, Args: Args{PaidWei: wei("100000000000000001"), OnSale: onSale}},
			"0.100000000000000001 ETH is not the price of any tier on sale; the One tier costs 0.1 ETH and the Two tier 1 ETH."},
		{"wrong amount, one tier on sale", Reason{Code: WrongAmount, Args: Args{PaidWei: wei("150000000000000000"), OnSale: onSale[:1]}},
			"0.15 ETH is not the price of any tier on sale; the One tier costs 0.1 ETH."},
		{"wrong amount, three tiers on sale", Reason{Code: WrongAmount, Args: Args{PaidWei: wei("500000000000000000"),
			OnSale: append(onSale[:2:2], TierPrice{ID: &three, Label: "Three", PriceWei: wei("2000000000000000000")})}},
			"0.5 ETH is not the price of any tier on sale; the One tier costs 0.1 ETH, the Two tier 1 ETH and the Three tier 2 ETH."},
		{"no tier on sale", Reason{Code: NoTierOnSale, Args: Args{PaidWei: wei("500000000000000000")}},
			"0.5 ETH was paid while no tier was on sale."},
		{"paused", Reason{Code: MintingPaused},
			"Minting was paused on the contract when this payment was checked."},
		{"tier allowance", Reason{Code: WalletLimit, Args: Args{Tier: &one, TierLabel: "One", MaxPerWallet: 3}},
			"This wallet already holds the 3 One nodes a wallet may have."},
		{"tier allowance of one", Reason{Code: WalletLimit, Args: Args{Tier: &one, TierLabel: "Limited", MaxPerWallet: 1}},
			"This wallet already holds the 1 Limited node a wallet may have."},
		{"contract allowance", Reason{Code: ContractWalletLimit, Args: Args{MaxPerWallet: 10}},
			"This wallet already holds 10 nodes, the most the contract allows one wallet."},
		{"holding", Reason{Code: HoldingTooLow, Args: Args{Tier: &two, TierLabel: "Two", HoldingToken: token,
			HoldingWei: wei("100000000000000000000"), HeldWei: wei("0")}},
			"The Two tier asks the wallet to hold 100000000000000000000 units of the token " + token + "; it holds 0."},
		{"reverted", Reason{Code: ContractRefused}, "The contract refused the mint."},
		{"reverted for an error said without a cause", Reason{Code: ContractRefused, Args: Args{Error: "Insolvent"}},
			"The contract refused the mint."},
		{"reverted, wallet full", Reason{Code: ContractRefused, Args: Args{Error: "WalletFull"}},
			"The contract refused the mint: this wallet already holds the most nodes it allows one wallet."},
		{"reverted, paused", Reason{Code: ContractRefused, Args: Args{Error: "MintingPaused"}},
			"The contract refused the mint: minting was paused."},
		{"recorded before codes", Reason{Code: Other, Args: Args{Text: "minting is paused"}},
			"minting is paused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.reason.Sentence(); got == nil || *got != tc.want {
				t.Fatalf("%v, want %q", got, tc.want)
			}
		})
	}
	t.Run("none", func(t *testing.T) {
		if got := (*Reason)(nil).Sentence(); got != nil {
			t.Fatalf("%q", *got)
		}
		if got := (&Reason{Code: Other}).Sentence(); got != nil {
			t.Fatalf("a rejection recorded without words: %q", *got)
		}
	})
}

// TestSaleReasonSentences: the sale's reasons name the tier and the fact, for a payment made
// (Sentence) and for one about to be made (Precheck, the pre-check's); the holding
// token's amounts are written in its units and symbol.
func TestSaleReasonSentences(t *testing.T) {
	pro, standard := 2, 1
	at := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	decimals := 18
	tokens := func(n int64) store.Uint256 {
		return store.Uint256{Int: new(big.Int).Mul(big.NewInt(n), big.NewInt(1e18))}
	}
	tier := Args{Tier: &pro, TierLabel: "Pro"}
	with := func(set func(*Args)) Args {
		a := tier
		set(&a)
		return a
	}
	for _, tc := range []struct {
		name      string
		reason    Reason
		paid, now string
	}{
		{"sold out", Reason{Code: SoldOut, Args: with(func(a *Args) { a.Supply, a.Sold = 5000, 5000 })},
			"The Pro tier was sold out (5,000 of 5,000) when this payment was made.", "The Pro tier is sold out (5,000 of 5,000)."},
		{"before its start", Reason{Code: NotOpen, Args: with(func(a *Args) { a.StartsAt = &at })},
			"The Pro tier opens at 2026-12-01 12:00 UTC; this payment was made before.", "The Pro tier opens at 2026-12-01 12:00 UTC."},
		{"waiting for a step", Reason{Code: NotOpen, Args: with(func(a *Args) { a.AfterTier, a.AfterTierLabel = &standard, "Standard" })},
			"The Pro tier opens once Standard sells out; this payment was made before it did.", "The Pro tier opens once Standard sells out."},
		{"ended", Reason{Code: Closed, Args: with(func(a *Args) { a.EndsAt = ptrTo(at.Add(time.Second)) })},
			"The Pro tier's sale ended at 2026-12-01 12:00:01 UTC; this payment was made after.", "The Pro tier's sale ended at 2026-12-01 12:00:01 UTC."},
		{"switched off", Reason{Code: Closed, Args: tier},
			"The Pro tier was not on sale when this payment was made.", "The Pro tier is not on sale."},
		{"not listed", Reason{Code: NotAllowlisted, Args: with(func(a *Args) { a.AllowlistUntil = &at })},
			"Until 2026-12-01 12:00 UTC only the wallets on the Pro tier's allowlist may buy it, and this wallet is not on it.",
			"Until 2026-12-01 12:00 UTC only the wallets on the Pro tier's allowlist may buy it, and this wallet is not on it."},
		{"allocation used", Reason{Code: AllocationUsed, Args: with(func(a *Args) { a.Allocation, a.AllowlistUntil = 2, &at })},
			"This wallet had its whole allowlist allocation of 2 Pro nodes; until 2026-12-01 12:00 UTC a wallet on the allowlist buys no more than its allocation.",
			"This wallet has its whole allowlist allocation of 2 Pro nodes; until 2026-12-01 12:00 UTC a wallet on the allowlist buys no more than its allocation."},
		{"holding, in the token's units", Reason{Code: HoldingTooLow, Args: with(func(a *Args) {
			a.HoldingToken, a.HoldingWei, a.HeldWei = "0x5fbdb2315678afecb367f032d93f642f64180aa3", tokens(100), store.Uint256{Int: big.NewInt(5e17)}
			a.TokenSymbol, a.TokenDecimals = "DHT", &decimals
		})}, "The Pro tier asks the wallet to hold 100 DHT; it held 0.5 DHT.", "The Pro tier asks the wallet to hold 100 DHT; it holds 0.5 DHT."},
		{"paused", Reason{Code: MintingPaused},
			"Minting was paused on the contract when this payment was checked.", "Minting is paused on the contract."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.reason.Sentence(); got == nil || *got != tc.paid {
				t.Errorf("made: %v, want %q", deref(got), tc.paid)
			}
			if got := tc.reason.Precheck(); got == nil || *got != tc.now {
				t.Errorf("about to be made: %v, want %q", deref(got), tc.now)
			}
		})
	}
}

func ptrTo[T any](v T) *T { return &v }

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}
