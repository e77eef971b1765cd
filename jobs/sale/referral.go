package sale

import (
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
