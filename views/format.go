// Package views renders the pages and htmx partials with templ. Components take plain domain
// structs; the handlers fetch them with the same store and chain calls as the JSON routes.
package views

import (
	"fmt"
	"math/big"
	"strings"
	"time"

	"nodeledger/store"
)

var weiPerETH = big.NewInt(1_000_000_000_000_000_000)

// ETH writes wei, the ledger's (store.Uint256) or the chain's (*big.Int), as ether exactly, with
// integer arithmetic only: 1500000000000000000 is "1.5", 1 is "0.000000000000000001". A nil
// amount, unknown, is "–".
func ETH[W store.Uint256 | *big.Int](amount W) string {
	var wei *big.Int
	switch a := any(amount).(type) {
	case store.Uint256:
		wei = a.Int
	case *big.Int:
		wei = a
	}
	if wei == nil {
		return "–"
	}
	sign := ""
	if wei.Sign() < 0 {
		sign = "-"
	}
	q, r := new(big.Int).QuoRem(new(big.Int).Abs(wei), weiPerETH, new(big.Int))
	if r.Sign() == 0 {
		return sign + q.String()
	}
	frac := strings.TrimRight(fmt.Sprintf("%018s", r.String()), "0")
	return sign + q.String() + "." + frac
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
		return plural(int(d/time.Minute), "minute") + " ago"
	case d < 48*time.Hour:
		return plural(int(d/time.Hour), "hour") + " ago"
	}
	return plural(int(d/(24*time.Hour)), "day") + " ago"
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

// UTC is the exact time, for a tooltip.
func UTC(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 UTC") }
