package sale

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"nodeledger/store"
)

// ReferralInput is a partner code as an operator wrote it: every field as the text it was given,
// the numbers as their JSON text ("" for absent or null).
type ReferralInput struct {
	Code          string
	Owner         string
	DiscountBps   string
	CommissionBps string
	Parent        string
	ParentBps     string
	ExpiresAt     string
	Enabled       *bool // nil: on
}

// MaxReferralBps is the most a code may take of a price, its discount and commissions together:
// half (issue 35).
const MaxReferralBps = 5000

var (
	codePattern    = regexp.MustCompile(`^[A-Za-z0-9_-]{3,32}$`)
	addressPattern = regexp.MustCompile(`^0x[0-9a-fA-F]{40}$`)
)

// ReadReferralCode is the one reading and check of a partner code, whoever writes it: the code,
// or a sentence naming the first field that is wrong.
func ReadReferralCode(in ReferralInput) (store.ReferralCode, string) {
	r := store.ReferralCode{Code: in.Code, Enabled: in.Enabled == nil || *in.Enabled}
	if !codePattern.MatchString(in.Code) {
		return r, "code must be 3 to 32 of the letters A-Z and a-z, the digits 0-9, _ and -."
	}
	if !addressPattern.MatchString(in.Owner) {
		return r, "owner must be a wallet address, 0x and 40 hex digits."
	}
	r.Owner = strings.ToLower(in.Owner)
	bps := func(field, text string) (int, string) {
		n, err := strconv.Atoi(text)
		if err != nil || n < 0 || n > 10000 {
			return 0, field + " must be a whole number of basis points from 0 to 10000 (100 bps = 1 %)."
		}
		return n, ""
	}
	var p string
	if r.DiscountBps, p = bps("discountBps", in.DiscountBps); p != "" {
		return r, p
	}
	if r.CommissionBps, p = bps("commissionBps", in.CommissionBps); p != "" {
		return r, p
	}
	switch {
	case in.Parent == "" && in.ParentBps != "":
		return r, "parentBps needs a parent: the address of the partner above the code's owner."
	case in.Parent != "" && in.ParentBps == "":
		return r, "parent needs parentBps: what the partner above the owner earns, in basis points."
	case in.Parent != "":
		if !addressPattern.MatchString(in.Parent) {
			return r, "parent must be a wallet address, 0x and 40 hex digits."
		}
		parent := strings.ToLower(in.Parent)
		if parent == r.Owner {
			return r, "parent must be another wallet than the owner."
		}
		n, p := bps("parentBps", in.ParentBps)
		if p != "" {
			return r, p
		}
		r.Parent, r.ParentBps = &parent, &n
	}
	total := r.DiscountBps + r.CommissionBps
	if r.ParentBps != nil {
		total += *r.ParentBps
	}
	if total > MaxReferralBps {
		return r, fmt.Sprintf("discountBps, commissionBps and parentBps together are %d bps: they may take at most %d bps (50 %%) of the price.",
			total, MaxReferralBps)
	}
	if in.ExpiresAt != "" {
		t, err := time.Parse(time.RFC3339, in.ExpiresAt)
		if err != nil {
			return r, `expiresAt must be a time in ISO 8601 with its zone, such as "2026-12-31T23:59:59Z".`
		}
		t = t.UTC()
		r.ExpiresAt = &t
	}
	return r, ""
}
