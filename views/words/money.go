package words

import (
	"fmt"
	"strconv"
	"strings"
)

// Percent writes basis points as a percentage: 250 → "2.5 %".
func Percent(bps int) string {
	return strconv.FormatFloat(float64(bps)/100, 'f', -1, 64) + " %"
}

// USD writes dollars with cents and a comma between thousands: "$3,000.00"; an amount above
// zero that rounds to no cent is "< $0.01", never "$0.00".
func USD(dollars float64) string {
	if dollars > 0 && dollars < 0.005 {
		return "< $0.01"
	}
	s := fmt.Sprintf("%.2f", dollars)
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, cents, _ := strings.Cut(s, ".")
	return sign + "$" + GroupDigits(whole) + "." + cents
}
