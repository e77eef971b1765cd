package views

import (
	"math/big"
	"testing"
	"time"

	"nodeledger/store"
)

func TestETH(t *testing.T) {
	for wei, want := range map[string]string{
		"0": "0", "1": "0.000000000000000001", "1000000000000000000": "1", "1500000000000000000": "1.5",
		"100000000000000000": "0.1", "123456789012345678901234567890": "123456789012.34567890123456789",
		"-2500000000000000000": "-2.5",
		"115792089237316195423570985008687907853269984665640564039457584007913129639935": "115792089237316195423570985008687907853269984665640564039457.584007913129639935",
	} {
		x, _ := new(big.Int).SetString(wei, 10)
		if got := ETH(x); got != want {
			t.Errorf("ETH(%s) = %s, want %s", wei, got, want)
		}
		if got := ETH(store.Uint256{Int: x}); got != want {
			t.Errorf("ETH(store.Uint256 %s) = %s, want %s", wei, got, want)
		}
	}
	if ETH((*big.Int)(nil)) != "–" || ETH(store.Uint256{}) != "–" {
		t.Error("unknown amount")
	}
}

func TestShortAndAgo(t *testing.T) {
	if got := Short("0x90f79bf6eb2c4f870365e785982e1f101e93b906"); got != "0x90f7…b906" {
		t.Errorf("Short %q", got)
	}
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for d, want := range map[time.Duration]string{
		10 * time.Second: "just now", time.Minute: "1 minute ago", 5 * time.Minute: "5 minutes ago",
		3 * time.Hour: "3 hours ago", 72 * time.Hour: "3 days ago", -time.Minute: "in the future",
	} {
		if got := Ago(now.Add(-d), now); got != want {
			t.Errorf("Ago(-%v) = %q, want %q", d, got, want)
		}
	}
}
