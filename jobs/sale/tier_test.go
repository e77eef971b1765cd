package sale

import (
	"math/big"
	"strings"
	"testing"

	"nodeledger/chain"
	"nodeledger/store"
)

// TestReadTier: one reader for both surfaces, each in its own units and words, one check.
func TestReadTier(t *testing.T) {
	t.Parallel()
	api := TierInput{Surface: API, ID: "1", Label: "Gold", Price: "100000000000000000", MaxPerWallet: "3", Enabled: true}
	form := TierInput{Surface: Form, ID: "1", Label: "Gold", Price: "0.1", MaxPerWallet: "3", Enabled: true}

	t.Run("the same tier from the API in wei and the form in ETH", func(t *testing.T) {
		a, keepA, pa := ReadTier(api)
		f, keepF, pf := ReadTier(form)
		if len(pa)+len(pf) > 0 || len(keepA) > 0 || len(keepF) > 0 {
			t.Fatalf("problems %v %v, keep %v %v", pa, pf, keepA, keepF)
		}
		if a.PriceWei.String() != "100000000000000000" || f.PriceWei.String() != a.PriceWei.String() || !a.Enabled || !f.Enabled {
			t.Fatalf("%+v\n%+v", a, f)
		}
	})

	t.Run("a field left out is kept, and not read", func(t *testing.T) {
		in := api
		in.Label, in.Price = "", "not wei" // left out: neither is read, so neither is a problem
		in.Absent = map[string]bool{"label": true, "price": true, "enabled": true, "tokenPrices": true}
		tier, keep, p := ReadTier(in)
		if len(p) > 0 || len(keep) != 4 || !keep["label"] || !keep["price"] || !keep["enabled"] || !keep["tokenPrices"] {
			t.Fatalf("%+v, keep %v, %v", tier, keep, p)
		}
		stored := store.Tier{ID: 1, Label: "Silver", PriceWei: store.Uint256{Int: big.NewInt(7)}, Enabled: true,
			TokenPrices: store.TokenPrices{"0xaa": store.Uint256{Int: big.NewInt(9)}}}
		if p := fillKept(&tier, keep, &stored); p != nil || tier.Label != "Silver" || tier.PriceWei.Int64() != 7 || !tier.Enabled ||
			tier.TokenPrices["0xaa"].Int64() != 9 || tier.MaxPerWallet != 3 {
			t.Fatalf("filled %+v, %v", tier, p)
		}
	})

	t.Run("a new tier left without a required field", func(t *testing.T) {
		in := api
		in.Absent = map[string]bool{"maxPerWallet": true, "note": true}
		tier, keep, _ := ReadTier(in)
		if p := fillKept(&tier, keep, nil); p.First() != "maxPerWallet is required: tier 1 is new." || len(p) != 1 {
			t.Fatalf("%v", p)
		}
	})

	t.Run("a note, trimmed; none when empty", func(t *testing.T) {
		in := form
		in.Note = "  Opens to DHT holders on 1 December "
		if tier, _, p := ReadTier(in); p != nil || tier.Note == nil || *tier.Note != "Opens to DHT holders on 1 December" {
			t.Fatalf("%+v, %v", tier, p)
		}
		in.Note = " "
		if tier, _, p := ReadTier(in); p != nil || tier.Note != nil {
			t.Fatalf("%+v, %v", tier, p)
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
		{"a line break in the note", func() TierInput { in := form; in.Note = "Opens\nsoon"; return in },
			"note", "A note cannot hold control characters (such as NUL, a tab or a line break) or bytes that are not UTF-8."},
		{"a note of 201 characters", func() TierInput { in := api; in.Note = strings.Repeat("é", 201); return in },
			"note", "A note has at most 200 characters."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tier, _, p := ReadTier(tc.in())
			if p == nil {
				p = CheckTier(tier)
			}
			if p[tc.field] != tc.want || p.First() != tc.want {
				t.Fatalf("%v, want %s: %q", p, tc.field, tc.want)
			}
		})
	}
}
