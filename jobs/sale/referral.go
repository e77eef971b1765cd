package sale

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"nodeledger/store"
	"nodeledger/views/words"
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
	// Form: the operator page's form wrote it, in people's units: the terms in percent ("10",
	// "2.5 %") and the expiry in UTC as the tier form writes times ("2026-12-31 23:59", ISO 8601
	// too); its problems name the form's labels. Otherwise the admin API's: basis points, ISO
	// 8601, and its field names.
	Form bool
}

// referralWords are the names a referral's problems give its fields and units: the API's or the
// form's.
type referralWords struct {
	code, owner, discount, commission, parent, parentShare, expires string
	terms                                                           func(bps int) string
	termsAre, unit, most, expiresAs                                 string
}

var (
	apiReferralWords = referralWords{"code", "owner", "discountBps", "commissionBps", "parent", "parentBps", "expiresAt",
		func(bps int) string { return strconv.Itoa(bps) + " bps" },
		"a whole number of basis points from 0 to 10000 (100 bps = 1 %)", "in basis points", "5000 bps (50 %)",
		`a time in ISO 8601 with its zone, such as "2026-12-31T23:59:59Z"`}
	formReferralWords = referralWords{"Code", "Owner", "Discount", "Commission", "Parent", "Parent's commission", "Expires",
		words.Percent, "a percentage from 0 to 100, such as 10 or 2.5", "in percent", "50 %",
		`a UTC time such as "2026-12-31 23:59"`}
)

// readPercent reads a percentage as people type it ("10", "2.5", "10 %") into basis points: at
// most two decimals, from 0 to 100.
func readPercent(text string) (int, bool) {
	text = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(text), "%"))
	whole, frac, _ := strings.Cut(text, ".")
	if len(frac) > 2 || whole == "" && frac == "" {
		return 0, false
	}
	w, err := strconv.Atoi(cmp.Or(whole, "0"))
	if err != nil || strings.HasPrefix(whole, "-") || strings.HasPrefix(whole, "+") {
		return 0, false
	}
	f := 0
	if frac != "" {
		if f, err = strconv.Atoi(frac + strings.Repeat("0", 2-len(frac))); err != nil || strings.ContainsAny(frac, "+-") {
			return 0, false
		}
	}
	bps := w*100 + f
	return bps, bps <= 10000
}

// PercentField writes basis points for the form, as readPercent reads them back: "2.5".
func PercentField(bps int) string { return strconv.FormatFloat(float64(bps)/100, 'f', -1, 64) }

// MaxReferralBps is the most a code may take of a price, its discount and commissions together:
// half (issue 35).
const MaxReferralBps = 5000

var (
	codePattern    = regexp.MustCompile(`^[A-Za-z0-9_-]{3,32}$`)
	addressPattern = regexp.MustCompile(`^0x[0-9a-fA-F]{40}$`)
)

// Printable tells whether s is text a person can read and the ledger can keep: valid UTF-8
// without control characters (PostgreSQL's text refuses a NUL and invalid UTF-8 outright, and
// the others would break a page or a CSV line). Labels and codes are held to it.
func Printable(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsFunc(s, unicode.IsControl)
}

// ErrCodeMalformed is a code that is not printable text (Printable): no code can have it.
var ErrCodeMalformed = errors.New("referral code malformed")

// MayBeCode tells whether s has the shape of a code: a partner code's letters, or a wallet's
// address. Anything else is no code.
func MayBeCode(s string) bool { return codePattern.MatchString(s) || addressPattern.MatchString(s) }

// ReadReferralCode is the one reading and check of a partner code, whoever writes it: the code,
// or a sentence naming the first field that is wrong.
func ReadReferralCode(in ReferralInput) (store.ReferralCode, string) {
	w := apiReferralWords
	if in.Form {
		w = formReferralWords
	}
	r := store.ReferralCode{Code: in.Code, Enabled: in.Enabled == nil || *in.Enabled}
	if !codePattern.MatchString(in.Code) {
		return r, w.code + " must be 3 to 32 of the letters A-Z and a-z, the digits 0-9, _ and -."
	}
	if !addressPattern.MatchString(in.Owner) {
		return r, w.owner + " must be a wallet address, 0x and 40 hex digits."
	}
	r.Owner = strings.ToLower(in.Owner)
	terms := func(field, text string) (int, string) {
		n, ok := readPercent(text)
		if !in.Form {
			var err error
			n, err = strconv.Atoi(text)
			ok = err == nil && n >= 0 && n <= 10000
		}
		if !ok {
			return 0, field + " must be " + w.termsAre + "."
		}
		return n, ""
	}
	var p string
	if r.DiscountBps, p = terms(w.discount, in.DiscountBps); p != "" {
		return r, p
	}
	if r.CommissionBps, p = terms(w.commission, in.CommissionBps); p != "" {
		return r, p
	}
	switch {
	case in.Parent == "" && in.ParentBps != "":
		return r, w.parentShare + " needs a " + strings.ToLower(w.parent) + ": the address of the partner above the code's owner."
	case in.Parent != "" && in.ParentBps == "":
		return r, w.parent + " needs " + strings.ToLower(w.parentShare[:1]) + w.parentShare[1:] + ": what the partner above the owner earns, " + w.unit + "."
	case in.Parent != "":
		if !addressPattern.MatchString(in.Parent) {
			return r, w.parent + " must be a wallet address, 0x and 40 hex digits."
		}
		parent := strings.ToLower(in.Parent)
		if parent == r.Owner {
			return r, w.parent + " must be another wallet than the owner."
		}
		n, p := terms(w.parentShare, in.ParentBps)
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
		return r, fmt.Sprintf("%s, %s and %s together are %s: they may take at most %s of the price.",
			w.discount, strings.ToLower(w.commission[:1])+w.commission[1:], strings.ToLower(w.parentShare[:1])+w.parentShare[1:], w.terms(total), w.most)
	}
	if at, ok := readTime(in.ExpiresAt, !in.Form); !ok {
		return r, w.expires + " must be " + w.expiresAs + "."
	} else if at != nil {
		r.ExpiresAt = at
	}
	return r, ""
}

// WalletCodes are the terms of a wallet's own address as a code, while the wallet holds a node
// (REFERRAL_DISCOUNT_BPS, REFERRAL_COMMISSION_BPS): nothing unless the operator opts in.
type WalletCodes struct {
	DiscountBps, CommissionBps int
}

// Discount is what a code of discountBps takes off price: floor(price × bps / 10000).
func Discount(price *big.Int, discountBps int) *big.Int {
	d := new(big.Int).Mul(price, big.NewInt(int64(discountBps)))
	return d.Quo(d, big.NewInt(10000))
}

// Self-referral and unknown codes, as Code tells them.
var (
	ErrNoCode       = errors.New("no such referral code")
	ErrSelfReferral = errors.New("self-referral")
)

// Terms are a code's terms at an instant: what the buyer saves and who earns what.
type Terms struct {
	Code          string // a partner code's spelling, or the address of a wallet's own code
	DiscountBps   int
	Owner         string
	CommissionBps int
	Parent        *string
	ParentBps     *int
	ExpiresAt     *time.Time
}

// Price is what a payment under t buys a tier of price for.
func (t Terms) Price(price *big.Int) *big.Int {
	return new(big.Int).Sub(price, Discount(price, t.DiscountBps))
}

// For is what a payment under t records for a tier of price when it paid paid (the full price,
// or Price(price)), both in the currency paid.
func (t Terms) For(price, paid *big.Int) store.PaymentReferral {
	return store.PaymentReferral{Code: t.Code, Discount: store.Uint256{Int: new(big.Int).Sub(price, paid)}, Owner: t.Owner,
		CommissionBps: t.CommissionBps, Parent: t.Parent, ParentBps: t.ParentBps}
}

// Code returns the terms of code (a partner code in any case, or a wallet's address) in force at
// instant at for wallet, and whether it gives them then: switched on and not expired, or a wallet
// code whose wallet holds a node. ErrNoCode when there was no such code then, ErrSelfReferral
// when wallet owns it or is the partner above its owner: nobody earns from their own purchase.
func (s *Sale) Code(ctx context.Context, wallet, code string, at time.Time) (_ Terms, valid bool, err error) {
	var t Terms
	if !Printable(code) {
		return t, false, ErrCodeMalformed
	}
	if addressPattern.MatchString(code) {
		owner := strings.ToLower(code)
		t = Terms{Code: owner, Owner: owner, DiscountBps: s.walletCodes.DiscountBps, CommissionBps: s.walletCodes.CommissionBps}
		if valid, err = s.store.HoldsNode(ctx, owner); err != nil {
			return t, false, err
		}
	} else {
		c, err := s.store.ReferralCodeAt(ctx, code, at)
		if errors.Is(err, store.ErrNotFound) {
			return t, false, ErrNoCode
		}
		if err != nil {
			return t, false, err
		}
		t = Terms{Code: c.Code, DiscountBps: c.DiscountBps, Owner: c.Owner, CommissionBps: c.CommissionBps,
			Parent: c.Parent, ParentBps: c.ParentBps, ExpiresAt: c.ExpiresAt}
		valid = c.ValidAt(at)
	}
	if t.Owner == wallet || t.Parent != nil && *t.Parent == wallet {
		return t, false, ErrSelfReferral
	}
	return t, valid, nil
}

// BoundAt returns the terms of the code wallet was bound to at instant at, when it gave them
// then; nil when the wallet was bound to none, or to one that gave nothing then.
func (s *Sale) BoundAt(ctx context.Context, wallet string, at time.Time, block int64) (*Terms, error) {
	b, err := s.store.BindingAt(ctx, wallet, at, block)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	t, valid, err := s.Code(ctx, wallet, b.Code, at)
	switch {
	case errors.Is(err, ErrNoCode), errors.Is(err, ErrSelfReferral):
		// A code's owner may become the wallet bound to it after the binding: it gives nothing.
		return nil, nil
	case err != nil || !valid:
		return nil, err
	}
	return &t, nil
}

// ErrCodeNotValid: the code exists but gives nothing now (switched off, expired, or a wallet
// code whose wallet holds no node).
var ErrCodeNotValid = errors.New("referral code not valid")

// Bind binds wallet to code from this second, replacing the code it had, when the code gives its
// terms now and is not wallet's own (ErrNoCode, ErrSelfReferral, ErrCodeNotValid); a wallet
// bound to the code already keeps the binding it has. It returns the code's terms and the
// binding. by is the sign-in of the session that asked, logged with a new binding.
func (s *Sale) Bind(ctx context.Context, wallet, code string, by store.SignIn) (Terms, store.Binding, error) {
	now := time.Now()
	t, valid, err := s.Code(ctx, wallet, code, now)
	if err == nil && !valid {
		err = ErrCodeNotValid
	}
	if err != nil {
		return t, store.Binding{}, err
	}
	key := store.CodeKey(t.Code) // a wallet's address is a key as it is
	b, err := s.store.BindingAt(ctx, wallet, now, 0)
	switch {
	case err == nil && b.Code == key:
		return t, b, nil
	case err != nil && !errors.Is(err, store.ErrNotFound):
		return t, b, err
	}
	// The head now: the binding counts for payments in the blocks after it, never for one a block
	// already holds.
	head, err := s.chain.HeadNumber(ctx)
	if err != nil {
		return t, b, err
	}
	b = store.Binding{Code: key}
	b.BoundAt, err = s.store.Bind(ctx, wallet, key, head, by)
	return t, b, err
}
