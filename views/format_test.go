package views

import (
	"math/big"
	"strings"
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
	// A token's own units: USDC has 6 decimals, some tokens none.
	for _, tc := range []struct {
		units    int64
		decimals uint8
		want     string
	}{{1_500_000, 6, "1.5"}, {1, 6, "0.000001"}, {250, 0, "250"}, {100, 2, "1"}} {
		if got := (store.Uint256{Int: big.NewInt(tc.units)}).Units(tc.decimals); got != tc.want {
			t.Errorf("Units(%d, %d) = %s, want %s", tc.units, tc.decimals, got, tc.want)
		}
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

func TestReadableETH(t *testing.T) {
	for _, c := range []struct{ wei, want string }{
		{"0", "0"},
		{"1", "< 0.000001"},
		{"499999999999", "< 0.000001"},                    // below half a micro-ether
		{"500000000000", "0.000001"},                      // half rounds up
		{"1000000000000000000", "1"},                      // 1 ETH
		{"1500000000000000000", "1.5"},                    // trailing zeros dropped
		{"1234567123456700000000000", "1,234,567.123457"}, // 1234567.1234567 ETH
		{"999999900000000000", "1"},                       // 0.9999999 rounds up across the point
		{"999999499999999999", "0.999999"},                // below the half stays
		{"999999999999999999999", "1,000"},                // and across a thousands separator
		{"12345678901234567890123", "12,345.678901"},
		{"100000000000000000", "0.1"},
		{"-2500000000000000000", "-2.5"},
		{"-1", "> -0.000001"},
		{"115792089237316195423570985008687907853269984665640564039457584007913129639935",
			"115,792,089,237,316,195,423,570,985,008,687,907,853,269,984,665,640,564,039,457.584008"},
	} {
		x, _ := new(big.Int).SetString(c.wei, 10)
		if got := ReadableETH(x); got != c.want {
			t.Errorf("ReadableETH(%s) = %q, want %q", c.wei, got, c.want)
		}
		if got := ReadableETH(store.Uint256{Int: x}); got != c.want {
			t.Errorf("ReadableETH(store.Uint256 %s) = %q, want %q", c.wei, got, c.want)
		}
	}
	if ReadableETH((*big.Int)(nil)) != "–" {
		t.Error("unknown amount")
	}
}

func TestAmount(t *testing.T) {
	x, _ := new(big.Int).SetString("12345678901234567890123", 10)
	var b strings.Builder
	if err := Amount(x).Render(t.Context(), &b); err != nil {
		t.Fatal(err)
	}
	if want := `<span class="eth" title="12345.678901234567890123 ETH">12,345.678901</span>`; b.String() != want {
		t.Errorf("Amount = %s, want %s", b.String(), want)
	}
	b.Reset()
	if err := Amount(big.NewInt(1)).Render(t.Context(), &b); err != nil {
		t.Fatal(err)
	}
	if want := `<span class="eth" title="0.000000000000000001 ETH">&lt; 0.000001</span>`; b.String() != want {
		t.Errorf("Amount = %s, want %s", b.String(), want)
	}
}

func TestIn(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for d, want := range map[time.Duration]string{
		-time.Minute: "now", 0: "now", 10 * time.Second: "in less than a minute", 90 * time.Second: "in 2 minutes",
		time.Hour: "in 1 hour", 3*time.Hour + 59*time.Minute: "in 3 hours", 72 * time.Hour: "in 3 days",
	} {
		if got := In(now.Add(d), now); got != want {
			t.Errorf("In(+%v) = %q, want %q", d, got, want)
		}
	}
}

func TestChartAxis(t *testing.T) {
	day := func(wei string) store.DayTotal {
		x, _ := new(big.Int).SetString(wei, 10)
		return store.DayTotal{TotalWei: store.Uint256{Int: x}}
	}
	for _, c := range []struct {
		top   string
		ticks string
	}{
		{"3000", "0 0.000001 0.000002"}, // below a micro-ether: the axis still reads in micro-ether
		{"1500000000000000000", "0 1 2"},
		{"2000000000000000000", "0 1 2"},
		{"2000000000000000001", "0 2 4"},
		{"7000000000000000000", "0 5 10"},
		{"123400000000000000000000", "0 100,000 200,000"},
	} {
		var labels []string
		for _, tick := range chartTicks(chartStep([]store.DayTotal{day("0"), day(c.top)})) {
			labels = append(labels, tick.Label)
		}
		if got := strings.Join(labels, " "); got != c.ticks {
			t.Errorf("largest day %s: ticks %q, want %q", c.top, got, c.ticks)
		}
	}
	if !chartEmpty([]store.DayTotal{day("0"), day("0")}) || chartEmpty([]store.DayTotal{day("0"), day("1")}) || !chartEmpty(nil) {
		t.Error("chartEmpty")
	}
}

func TestGwei(t *testing.T) {
	for wei, want := range map[int64]string{150_000_000_000: "150", 500_000_000: "0.5", 1: "0.000000001", 150_000_000_001: "150.000000001"} {
		if got := Gwei(big.NewInt(wei)); got != want {
			t.Errorf("Gwei(%d) = %q, want %q", wei, got, want)
		}
	}
}
