// Package views renders the pages and htmx partials with templ. Components take plain domain
// structs; the handlers fetch them with the same store and chain calls as the JSON routes.
package views

import (
	"context"
	"fmt"
	"io"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"

	"nodeledger/store"
	"nodeledger/views/words"
)

var weiPerETH = big.NewInt(1_000_000_000_000_000_000)

// ETH writes wei, the ledger's (store.Uint256) or the chain's (*big.Int), as ether exactly
// (store.Uint256.ETH): 1500000000000000000 is "1.5". A nil amount, unknown, is "–".
func ETH[W store.Uint256 | *big.Int](amount W) string {
	return store.Uint256{Int: bigOf(amount)}.ETH()
}

func bigOf[W store.Uint256 | *big.Int](amount W) *big.Int {
	switch a := any(amount).(type) {
	case store.Uint256:
		return a.Int
	case *big.Int:
		return a
	}
	return nil
}

// readDecimals is how many decimals ReadableETH keeps: a micro-ether is far below what a person
// compares, and 18 digits hide the integer part.
const readDecimals = 6

// readUnit is the wei in the last decimal ReadableETH keeps.
var readUnit = new(big.Int).Exp(big.NewInt(10), big.NewInt(18-readDecimals), nil)

// ReadableETH writes wei as ether for reading: at most six decimals, rounded half up on the
// seventh, trailing zeros dropped, thousands separated by commas ("12,345.678901"). A nonzero
// amount never reads as zero: below half a micro-ether it is "< 0.000001". The exact value is ETH's,
// for a title and for anything a person types or pays.
func ReadableETH[W store.Uint256 | *big.Int](amount W) string {
	wei := bigOf(amount)
	if wei == nil {
		return "–"
	}
	sign := ""
	if wei.Sign() < 0 {
		sign = "-"
	}
	units := new(big.Int).Abs(wei)
	units.Add(units, new(big.Int).Rsh(readUnit, 1)) // half up (away from zero)
	units.Quo(units, readUnit)
	if units.Sign() == 0 && wei.Sign() != 0 {
		if sign != "" {
			return "> -0.000001"
		}
		return "< 0.000001"
	}
	digits := fmt.Sprintf("%0*s", readDecimals+1, units.String())
	whole, frac := words.GroupDigits(digits[:len(digits)-readDecimals]), strings.TrimRight(digits[len(digits)-readDecimals:], "0")
	if frac == "" {
		return sign + whole
	}
	return sign + whole + "." + frac
}

// Amount shows wei as ether for reading (ReadableETH), with the exact amount in its title.
// The unit is the caller's: a column or card names it once. Written in Go because a templ
// component cannot take a type parameter.
func Amount[W store.Uint256 | *big.Int](amount W) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		title := ETH(amount) + " ETH"
		if bigOf(amount) == nil {
			title = "unknown"
		}
		_, err := io.WriteString(w, `<span class="eth" title="`+templ.EscapeString(title)+`">`+
			templ.EscapeString(ReadableETH(amount))+`</span>`)
		return err
	})
}

// Amounts shows sums of ETH and of tokens in one phrase, "0.3 ETH and 300 USDC" (the ETH always,
// 0 when none), each exact amount in its title. Written in Go for the spaces between the parts,
// which templ's whitespace rules would double.
func Amounts(a store.Amounts) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		if err := Amount(a.ETH).Render(ctx, w); err != nil {
			return err
		}
		s := " ETH"
		for _, t := range a.Tokens {
			s += ` and <span title="` + templ.EscapeString(t.Amount.String()+" base units of "+t.Address) + `" data-testid="token-amount">` +
				templ.EscapeString(t.String()) + `</span>`
		}
		_, err := io.WriteString(w, s)
		return err
	})
}

// Multiplier writes a tier's payout in basis points as the multiplier people read: 12500 is "1.25×";
// "unknown" when the factory's weight could not be read.
func Multiplier(bps *int) string {
	if bps == nil {
		return "unknown"
	}
	return strconv.FormatFloat(float64(*bps)/10000, 'f', -1, 64) + "×"
}

// TierName is a tier's label, or "Tier <id>" when the ledger has no tier of that id (t is then
// the zero Tier).
func TierName(t store.Tier, id int) string {
	if t.Label == "" {
		return "Tier " + strconv.Itoa(id)
	}
	return t.Label
}

// TierNames are the tiers' labels by id, for the lists of nodes.
type TierNames map[int]string

// NewTierNames indexes tiers' labels by id.
func NewTierNames(tiers []store.Tier) TierNames {
	names := make(TierNames, len(tiers))
	for _, t := range tiers {
		names[t.ID] = t.Label
	}
	return names
}

// Name is the label of tier id, or "Tier <id>" when it has none.
func (n TierNames) Name(id int) string {
	return TierName(store.Tier{Label: n[id]}, id)
}

// RoundURL is where a distribution round is listed: its row on the distributions page.
func RoundURL(id int64) templ.SafeURL {
	return templ.SafeURL("/distributions#round-" + strconv.FormatInt(id, 10))
}

// Short shortens an address or hash for display (0x1234…cdef); the full value goes in a title.
func Short(s string) string {
	if len(s) <= 12 {
		return s
	}
	return s[:6] + "…" + s[len(s)-4:]
}

// Ago says how long before now t was, in words ("3 minutes ago").
func Ago(t, now time.Time) string {
	d := now.Sub(t)
	switch {
	case d < 0:
		return "in the future"
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return words.Count(int(d/time.Minute), "minute", "minutes") + " ago"
	case d < 48*time.Hour:
		return words.Count(int(d/time.Hour), "hour", "hours") + " ago"
	}
	return words.Count(int(d/(24*time.Hour)), "day", "days") + " ago"
}

// In says how long after now t is, in words ("in 3 hours").
func In(t, now time.Time) string {
	d := t.Sub(now)
	switch {
	case d <= 0:
		return "now"
	case d < time.Minute:
		return "in less than a minute"
	case d < time.Hour:
		return "in " + words.Count(int((d+time.Minute-1)/time.Minute), "minute", "minutes")
	case d < 48*time.Hour:
		return "in " + words.Count(int(d/time.Hour), "hour", "hours")
	}
	return "in " + words.Count(int(d/(24*time.Hour)), "day", "days")
}

// PhaseWords is a sale phase for people.
func PhaseWords(p store.TierPhase) string {
	switch p {
	case store.PhaseOff:
		return "switched off"
	case store.PhaseScheduled:
		return "scheduled"
	case store.PhaseAllowlist:
		return "allowlist phase"
	case store.PhasePublic:
		return "public sale"
	case store.PhaseSoldOut:
		return "sold out"
	case store.PhaseEnded:
		return "ended"
	}
	return string(p)
}

// Gwei writes a fee per gas in gwei, exactly ("150", "0.5"): ETH's formatter on the amount
// 10⁹ times larger.
func Gwei(wei *big.Int) string {
	return store.Uint256{Int: new(big.Int).Mul(wei, big.NewInt(1e9))}.ETH()
}

// UTC is the exact time, for a tooltip.
func UTC(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 UTC") }

// usd writes wei at usdPerETH dollars an ether, for display only ("$3,000.00").
func usd(wei store.Uint256, usdPerETH float64) string {
	eth, _ := new(big.Rat).SetFrac(wei.Int, weiPerETH).Float64()
	return USD(eth * usdPerETH)
}

// revenueUSD is revenue r in US dollars: as booked ("$1,200.00 as booked": each ETH payment at
// the ETH/USD feed's price of its block, a token unit at a dollar) when every ETH payment has its
// price, else an estimate at usdPerETH, the feed's price now ("≈ $1,200.00"; "" without one).
func revenueUSD(r store.Revenue, usdPerETH *float64) (text string, booked bool) {
	if r.Unbooked == 0 && (r.ETH.Sign() > 0 || len(r.Tokens) > 0) {
		return USD(r.USD) + " as booked", true
	}
	if usdPerETH == nil {
		return "", false
	}
	eth, _ := new(big.Rat).SetFrac(r.ETH.Int, weiPerETH).Float64()
	dollars := eth * *usdPerETH
	for _, t := range r.Tokens {
		dollars += t.Float()
	}
	return "≈ " + USD(dollars), false
}

// USD and Percent are words' writers of dollars and basis points, by the names the pages use.
var (
	USD     = words.USD
	Percent = words.Percent
)

// tries is how many times a delivery was tried, when more than once.
func tries(n int) string {
	if n < 2 {
		return ""
	}
	return ", " + strconv.Itoa(n) + " tries"
}

// answerShown is how much of a webhook try's answer its log line shows; the rest, up to the KB
// kept, is one click away.
const answerShown = 80

// answer is what a webhook try got back: its status and the start of its body, or why none came.
func answer(a store.Attempt) string {
	body := strings.TrimSpace(a.Response)
	if answerCut(a) {
		body = string([]rune(body)[:answerShown]) + "…"
	}
	if a.StatusCode == nil {
		return body
	}
	if body == "" {
		return "HTTP " + strconv.Itoa(*a.StatusCode)
	}
	return "HTTP " + strconv.Itoa(*a.StatusCode) + ": " + body
}

// answerCut tells whether answer shows only the start of a's answer.
func answerCut(a store.Attempt) bool {
	return len([]rune(strings.TrimSpace(a.Response))) > answerShown
}
