package store

import (
	"math/big"
	"testing"
)

func TestTokenUnits(t *testing.T) {
	usdc := Token{Symbol: "USDC", Decimals: 6}
	for _, tc := range []struct {
		base int64
		want string
	}{
		{0, "0 USDC"},
		{300_000_000, "300 USDC"},
		{100_000_000_000, "100,000 USDC"},
		{1_234_567_500_000, "1,234,567.5 USDC"},
		{-300_500_000, "-300.5 USDC"},
		{1, "0.000001 USDC"},
	} {
		if got := usdc.Units(big.NewInt(tc.base)); got != tc.want {
			t.Errorf("Units(%d) = %q, want %q", tc.base, got, tc.want)
		}
	}
}
