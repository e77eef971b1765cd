package views

import (
	"bytes"
	"context"
	"math/big"
	"nodeledger/views/words"
	"strings"
	"testing"
	"time"
)

func TestPaymentURI(t *testing.T) {
	wei, _ := new(big.Int).SetString("100000000000000000", 10)
	for _, c := range []struct {
		name, address string
		chainID       int64
		wei           *big.Int
		want          string
	}{
		{"checksummed address, chain id, exact wei", "0xa0ee7a142d267c1f36714e4a8f75612f20a79720", 1337, wei,
			"ethereum:0xa0Ee7A142d267C1f36714E4a8F75612F20a79720@1337?value=100000000000000000"},
		{"an address already in any case", "0xA0EE7A142D267C1F36714E4A8F75612F20A79720", 1, big.NewInt(1),
			"ethereum:0xa0Ee7A142d267C1f36714E4a8F75612F20a79720@1?value=1"},
		{"wei beyond 64 bits stays digits, never 1e+21", "0x0000000000000000000000000000000000000001", 8453,
			new(big.Int).Exp(big.NewInt(10), big.NewInt(21), nil), "ethereum:0x0000000000000000000000000000000000000001@8453?value=1000000000000000000000"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := PaymentURI(c.address, c.chainID, c.wei); got != c.want {
				t.Fatalf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

func TestQR(t *testing.T) {
	uri := PaymentURI("0xa0ee7a142d267c1f36714e4a8f75612f20a79720", 1337, big.NewInt(1))
	var b bytes.Buffer
	if err := QR(uri, `pay "1 wei" <now>`).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	// A version-5 code (37 modules) for a link of this length at level M, with its quiet zone: 45 wide.
	if !strings.HasPrefix(svg, `<svg class="qr" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 45 45"`) ||
		!strings.Contains(svg, `aria-label="pay &#34;1 wei&#34; &lt;now&gt;"`) || strings.Contains(svg, "style=") ||
		strings.Count(svg, "M") < 100 {
		t.Fatalf("svg %s", svg)
	}
	// The top-left finder pattern: a run of 7 dark modules at the quiet zone's corner.
	if !strings.Contains(svg, `d="M4 4h7v1h-7z`) {
		t.Fatalf("no finder pattern at the corner: %.200s", svg)
	}
}

func TestEarnings(t *testing.T) {
	e := Earnings{PerRound: big.NewInt(1_234_567), Period: 24 * time.Hour}
	if e.Rounds() != 30 || e.Per30Days().String() != "37037010" {
		t.Fatalf("rounds %d, per 30 days %s", e.Rounds(), e.Per30Days())
	}
	if e := (Earnings{PerRound: big.NewInt(5), Period: 45 * 24 * time.Hour}); e.Rounds() != 0 {
		t.Fatalf("a round every 45 days: %d rounds in 30", e.Rounds())
	}
	for d, want := range map[time.Duration]string{24 * time.Hour: "every day", 48 * time.Hour: "every 2 days", time.Hour: "every hour",
		90 * time.Minute: "every 90 minutes", time.Minute: "every minute", 90 * time.Second: "every 90 seconds", time.Millisecond: "every 1ms"} {
		if got := Every(d); got != want {
			t.Errorf("Every(%v) = %q, want %q", d, got, want)
		}
	}
	if got := words.Thousands(2_592_000_000); got != "2,592,000,000" {
		t.Errorf("Thousands: %q", got)
	}
}
