package sale

import (
	"testing"

	"nodeledger/chain"
)

// TestReadTier: one reader for both surfaces, each in its own units and words, one check.
func TestReadTier(t *testing.T) {
	on := true
	api := TierInput{Surface: API, ID: "1", Label: "Gold", Price: "100000000000000000", MaxPerWallet: "3", Enabled: &on}
	form := TierInput{Surface: Form, ID: "1", Label: "Gold", Price: "0.1", MaxPerWallet: "3", Enabled: &on}

	t.Run("the same tier from the API in wei and the form in ETH", func(t *testing.T) {
		a, keepA, pa := ReadTier(api)
		f, keepF, pf := ReadTier(form)
		if len(pa)+len(pf) > 0 || keepA != (Kept{}) || keepF != (Kept{}) {
			t.Fatalf("problems %v %v, keep %v %v", pa, pf, keepA, keepF)
		}
		if a.PriceWei.String() != "100000000000000000" || f.PriceWei.String() != a.PriceWei.String() || !a.Enabled || !f.Enabled {
			t.Fatalf("%+v\n%+v", a, f)
		}
	})

	t.Run("without enabled the stored switch is kept", func(t *testing.T) {
		in := api
		in.Enabled = nil
		if tier, keep, p := ReadTier(in); len(p) > 0 || keep != (Kept{Enabled: true}) || tier.Enabled {
			t.Fatalf("%+v, keep %v, %v", tier, keep, p)
		}
	})

	t.Run("without token prices the stored ones are kept", func(t *testing.T) {
		in := api
		in.TokenPrices, in.KeepTokenPrices = nil, true
		if _, keep, p := ReadTier(in); len(p) > 0 || keep != (Kept{TokenPrices: true}) {
			t.Fatalf("keep %v, %v", keep, p)
		}
	})

	for _, tc := range []struct {
		name  string
		in    func() TierInput
		field string
		want  string
	}{
		{"a NUL in the label", func() TierInput { in := api; in.Label = "Go\x00ld"; return in },
			"label", "A label cannot hold control characters (such as NUL, a tab or a line break) or bytes that are not UTF-8."},
		{"a tab in the form's label", func() TierInput { in := form; in.Label = "Go\tld"; return in },
			"label", "A label cannot hold control characters (such as NUL, a tab or a line break) or bytes that are not UTF-8."},
		{"bytes that are not UTF-8 in the form's label", func() TierInput { in := form; in.Label = "Go\xffld"; return in },
			"label", "A label cannot hold control characters (such as NUL, a tab or a line break) or bytes that are not UTF-8."},
		{"a price in ETH on the API", func() TierInput { in := api; in.Price = "0.1"; return in },
			"price", "priceWei must be a positive whole number of wei, as a string."},
		{"a price with 19 decimals on the form", func() TierInput { in := form; in.Price = "0.0000000000000000001"; return in },
			"price", "The price has more than 18 decimals: the smallest amount is 0.000000000000000001 ETH."},
		{"no allowance on the API", func() TierInput { in := api; in.MaxPerWallet = ""; return in },
			"maxPerWallet", "The allowance per wallet is required: how many nodes of this tier one wallet may hold."},
		{"words for the allowance on the form", func() TierInput { in := form; in.MaxPerWallet = "three"; return in },
			"maxPerWallet", "The allowance per wallet must be a whole number, such as 3."},
		{"a supply past the bound on the API", func() TierInput { in := api; in.Supply = "2000000000"; return in },
			"supply", "supply must be a whole number from 0 to 1000000000, or null for no limit."},
		{"a supply with commas on the form", func() TierInput { in := form; in.Supply = "5,000,000,000"; return in },
			"supply", "The supply must be a whole number from 0 to 1000000000, or empty for no limit."},
		{"a time without its offset on the API", func() TierInput { in := api; in.StartsAt = "2026-12-01 12:00"; return in },
			"startsAt", "startsAt must be a time in ISO 8601 with its offset, such as 2026-12-01T12:00:00Z, or null."},
		{"an end before the start", func() TierInput {
			in := form
			in.StartsAt, in.EndsAt = "2026-12-02 12:00", "2026-12-01 12:00 UTC"
			return in
		}, "endsAt", "The sale must end after it starts."},
		{"a holding amount without a token", func() TierInput { in := api; in.HoldingAmount = "5"; return in },
			"holdingAmount", "A holding amount needs the address of the token to hold."},
		{"a holding amount finer than the token's decimals", func() TierInput {
			in := form
			in.HoldingToken, in.HoldingAmount = "0x5fbdb2315678afecb367f032d93f642f64180aa3", "2.555"
			in.Token = &chain.Token{Symbol: "USDC", Decimals: 2}
			return in
		}, "holdingAmount", "The holding amount has more than 2 decimals, the token's."},
		{"after itself", func() TierInput { in := api; in.OpensAfterTier = "1"; return in },
			"opensAfterTier", "A tier cannot open after itself."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, p := ReadTier(tc.in())
			if p[tc.field] != tc.want || p.First() != tc.want {
				t.Fatalf("%v, want %s: %q", p, tc.field, tc.want)
			}
		})
	}
}
