// Package words writes numbers, counts and times the way every page and every sentence of the
// sale says them. It imports nothing of the project, so the pages (views) and the sale's
// catalogue of reasons (jobs/sale) share one writer of each.
package words

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Thousands writes a whole number with its thousands separated by commas: 5000 is "5,000".
func Thousands[N int | int64](n N) string {
	if n < 0 {
		return "-" + GroupDigits(strconv.FormatInt(-int64(n), 10))
	}
	return GroupDigits(strconv.FormatInt(int64(n), 10))
}

// GroupDigits puts a comma between each three digits of digits, from the right.
func GroupDigits(digits string) string {
	for i := len(digits) - 3; i > 0; i -= 3 {
		digits = digits[:i] + "," + digits[i:]
	}
	return digits
}

// Count is "1 node" or "3 nodes": n with the word for one or for many.
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// MinuteUTC is an instant of a sale's schedule as people read it, and as the operator types it:
// to the minute, with seconds only when it has them, in UTC ("2026-12-01 12:00 UTC").
func MinuteUTC(t time.Time) string {
	if t.Second() != 0 {
		return t.UTC().Format("2006-01-02 15:04:05") + " UTC"
	}
	return t.UTC().Format("2006-01-02 15:04") + " UTC"
}

// AndList is "a", "a and b", "a, b and c".
func AndList(items []string) string { return list(items, "and") }

// OrList is "a", "a or b", "a, b or c".
func OrList(items []string) string { return list(items, "or") }

func list(items []string, conjunction string) string {
	n := len(items)
	if n <= 1 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:n-1], ", ") + " " + conjunction + " " + items[n-1]
}
