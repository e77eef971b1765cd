package sale

import (
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common/math"

	"nodeledger/chain"
	"nodeledger/store"
)

// Surface is where a tier is written: it decides the units its amounts and times are read in,
// and the words a problem is told with.
type Surface int

const (
	// API is PUT /api/admin/tiers/{id}: wei and base units as decimal strings, times in ISO 8601
	// with their offset, null for none; problems name the JSON fields.
	API Surface = iota
	// Form is the operator page's tier form: ETH, the holding token's own units, times in UTC as
	// the page writes them, empty for none; problems speak to the person filling it.
	Form
)

// TierInput is a tier as an operator wrote it, every field as the text it was given ("" for
// none), read by ReadTier whoever wrote it.
type TierInput struct {
	Surface Surface
	ID      string
	Label   string
	Price   string // API: wei; Form: ETH
	// TokenPrices are its prices in tokens (API: base units; Form: the token's units), checked
	// against Listed, the tokens the sale accepts by address (lower case).
	TokenPrices []TokenPriceInput
	// KeepTokenPrices: the input says nothing of token prices (an API body without the field, from
	// a script that knows only the fields before tokens): the stored tier keeps its own.
	KeepTokenPrices bool
	Listed          map[string]store.Token
	MaxPerWallet    string
	HoldingToken    string
	HoldingAmount   string // API: the token's base units; Form: its own units (Token's decimals)
	// Token is the holding token as the chain tells it (Form: its decimals read the amount);
	// nil when the input names none, or it cannot be read now.
	Token *chain.Token
	// Enabled is the operator's switch; nil: the tier keeps the switch it has (off for a new
	// tier). Nothing else, and no read-only field sent back, is taken as the switch.
	Enabled        *bool
	Supply         string
	StartsAt       string
	EndsAt         string
	AllowlistUntil string
	OpensAfterTier string
}

// TokenPriceInput is a tier's price in a token, as written: the token's address and the amount.
type TokenPriceInput struct {
	Token  string
	Amount string
}

// Problems says what is wrong with a tier, one sentence per field, by field name.
type Problems map[string]string

// FieldOrder is the order of a tier's fields, in which the API tells the first problem.
var FieldOrder = []string{"id", "label", "price", "tokenPrices", "maxPerWallet", "holdingToken", "holdingAmount", "supply",
	"startsAt", "endsAt", "allowlistUntil", "opensAfterTier"}

// First is the first problem in FieldOrder; "" when there is none.
func (p Problems) First() string {
	for _, f := range FieldOrder {
		if msg, ok := p[f]; ok {
			return msg
		}
	}
	return ""
}

// Bounds on a tier: a label that fits a table cell, numbers well inside their integer columns.
const (
	maxTierLabel = 64
	maxAllowance = 1_000_000
	maxSupply    = 1_000_000_000
)

// Kept are the settings a tier's input left out, which the stored tier keeps as they are: its
// switch (Enabled absent) and its token prices (KeepTokenPrices).
type Kept struct{ Enabled, TokenPrices bool }

// ReadTier is the one reading and check of a tier, whoever writes it: the tier, or the problems
// of its fields, and the settings it left out, which the caller keeps from the stored tier.
// The rules that need the ledger (what the tier sold, the tiers it opens after) are checked where
// it is stored (PutTier).
func ReadTier(in TierInput) (t store.Tier, keep Kept, p Problems) {
	p = Problems{}
	set := func(field, msg string) {
		if _, told := p[field]; !told {
			p[field] = msg
		}
	}
	api := in.Surface == API
	say := func(apiWords, formWords string) string {
		if api {
			return apiWords
		}
		return formWords
	}

	t.ID = -1
	if id := strings.TrimSpace(in.ID); digitsRe.MatchString(id) && len(id) <= 3 {
		t.ID, _ = strconv.Atoi(id)
	}
	if t.ID < 0 || t.ID > 255 {
		set("id", "The tier number must be a whole number from 0 to 255.")
	}

	t.Label = strings.TrimSpace(in.Label)
	switch {
	case t.Label == "":
		set("label", "A tier needs a label, such as Standard.")
	case !Printable(t.Label):
		set("label", "A label cannot hold control characters (such as NUL, a tab or a line break) or bytes that are not UTF-8.")
	case len([]rune(t.Label)) > maxTierLabel:
		set("label", fmt.Sprintf("A label has at most %d characters.", maxTierLabel))
	}

	var price *big.Int
	if api {
		if in.Price != "" {
			if price = wei(in.Price); price == nil {
				set("price", "priceWei must be a positive whole number of wei, as a string.")
			}
		}
	} else {
		switch x, tooPrecise := ParseDecimal(in.Price, 18); {
		case strings.TrimSpace(in.Price) == "":
			set("price", "The price is required: an amount in ETH, such as 0.1.")
		case tooPrecise:
			set("price", "The price has more than 18 decimals: the smallest amount is 0.000000000000000001 ETH.")
		case x == nil:
			set("price", "The price must be an amount in ETH, such as 0.1.")
		default:
			price = x
		}
	}
	switch {
	case price == nil:
		set("price", "The price is required.")
	case price.Sign() <= 0:
		set("price", "The price must be more than 0.")
	case price.Cmp(math.MaxBig256) > 0:
		set("price", "The price is too large.")
	}

	t.TokenPrices = store.TokenPrices{}
	for _, tp := range in.TokenPrices {
		addr := strings.ToLower(strings.TrimSpace(tp.Token))
		token, listed := in.Listed[addr]
		switch {
		case !addressRe.MatchString(addr):
			set("tokenPrices", say("tokenPrices: each token must be a token's address: 0x and 40 hexadecimal digits.",
				"Pick a token the sale accepts for each token price."))
			continue
		case !listed:
			set("tokenPrices", fmt.Sprintf("%s is not a token the sale accepts: list it in PAYMENT_TOKENS first.", tp.Token))
			continue
		}
		if _, twice := t.TokenPrices[addr]; twice {
			set("tokenPrices", fmt.Sprintf("The tier has two prices in %s: give it one.", token.Symbol))
			continue
		}
		var amount *big.Int
		if api {
			if amount = wei(strings.TrimSpace(tp.Amount)); amount == nil {
				set("tokenPrices", fmt.Sprintf("tokenPrices: the amount in %s must be a positive whole number of its base units (%d decimals), as a string.", token.Symbol, token.Decimals))
				continue
			}
		} else {
			x, tooPrecise := ParseDecimal(strings.ReplaceAll(tp.Amount, ",", ""), token.Decimals)
			switch {
			case strings.TrimSpace(tp.Amount) == "":
				continue // an empty line of the form: no price in this token
			case tooPrecise:
				set("tokenPrices", fmt.Sprintf("The price in %s has more than %d decimals, the token's.", token.Symbol, token.Decimals))
				continue
			case x == nil:
				set("tokenPrices", fmt.Sprintf("The price in %s must be an amount of %s, such as 300.", token.Symbol, token.Symbol))
				continue
			}
			amount = x
		}
		if amount.Sign() <= 0 {
			set("tokenPrices", fmt.Sprintf("The price in %s must be more than 0.", token.Symbol))
			continue
		}
		t.TokenPrices[addr] = store.Uint256{Int: amount}
	}

	allowance := -1
	switch n := strings.TrimSpace(in.MaxPerWallet); {
	case digitsRe.MatchString(n) && len(n) <= 9:
		allowance, _ = strconv.Atoi(n)
	case api && n == "":
		set("maxPerWallet", "The allowance per wallet is required: how many nodes of this tier one wallet may hold.")
	case !api:
		set("maxPerWallet", "The allowance per wallet must be a whole number, such as 3.")
	}
	if allowance < 0 || allowance > maxAllowance {
		set("maxPerWallet", fmt.Sprintf("The allowance per wallet must be a whole number from 0 to %d.", maxAllowance))
	}

	token := strings.TrimSpace(in.HoldingToken)
	if token != "" {
		if !addressRe.MatchString(token) {
			set("holdingToken", "The holding token must be a token's address: 0x and 40 hexadecimal digits.")
		} else {
			lower := strings.ToLower(token)
			t.HoldingToken = &lower
		}
	}
	holding := new(big.Int)
	if a := strings.TrimSpace(in.HoldingAmount); a != "" && api {
		if holding = wei(a); holding == nil {
			set("holdingAmount", "holdingWei must be a whole number of the token's smallest unit, as a string.")
		}
	} else if a != "" {
		// The amount is in the token's own units, as the page shows it: its decimals make it base
		// units. Without a token, the check below says the amount needs one.
		decimals := 18
		if in.Token != nil {
			decimals = int(in.Token.Decimals)
		}
		amount, tooPrecise := ParseDecimal(a, decimals)
		switch {
		case in.Token == nil && token != "" && t.HoldingToken == nil:
			// the token's problem is told; the amount waits for it.
		case in.Token == nil && token != "":
			set("holdingAmount", "The token's decimals cannot be read from the chain now, so the amount cannot be read in its units: try again in a little while.")
		case tooPrecise:
			set("holdingAmount", fmt.Sprintf("The holding amount has more than %d decimals, the token's.", decimals))
		case amount == nil:
			set("holdingAmount", "The holding amount must be an amount of the token, in its own units, such as 2.5.")
		default:
			holding = amount
		}
	}
	switch {
	case holding == nil:
	case holding.Sign() < 0 || holding.Cmp(math.MaxBig256) > 0:
		set("holdingAmount", "The holding amount must be a whole number no larger than 2^256-1.")
	case holding.Sign() > 0 && token == "":
		set("holdingAmount", "A holding amount needs the address of the token to hold.")
	}

	// Thousands may be written with commas on the form, as the page writes them.
	if n := strings.TrimSpace(in.Supply); n != "" {
		if !api {
			n = strings.ReplaceAll(n, ",", "")
		}
		v, err := strconv.Atoi(n)
		switch {
		case err != nil || !digitsRe.MatchString(n) || len(n) > 10:
			set("supply", say(fmt.Sprintf("supply must be a whole number from 0 to %d, or null for no limit.", maxSupply),
				"The supply must be a whole number of nodes, such as 5000, or empty for no limit."))
		case v > maxSupply:
			set("supply", say(fmt.Sprintf("supply must be a whole number from 0 to %d, or null for no limit.", maxSupply),
				fmt.Sprintf("The supply must be a whole number from 0 to %d, or empty for no limit.", maxSupply)))
		default:
			t.Supply = &v
		}
	}

	for _, f := range []struct {
		name, value, what string
		at                **time.Time
	}{
		{"startsAt", in.StartsAt, "The start", &t.StartsAt},
		{"endsAt", in.EndsAt, "The end", &t.EndsAt},
		{"allowlistUntil", in.AllowlistUntil, "The end of the allowlist phase", &t.AllowlistUntil},
	} {
		at, ok := readTime(f.value, api)
		if !ok {
			set(f.name, say(f.name+" must be a time in ISO 8601 with its offset, such as 2026-12-01T12:00:00Z, or null.",
				f.what+" must be a date and time in UTC, such as 2026-12-01 12:00, or empty for none."))
			continue
		}
		*f.at = at
	}
	if t.StartsAt != nil && t.EndsAt != nil && !t.EndsAt.After(*t.StartsAt) {
		set("endsAt", "The sale must end after it starts.")
	}
	if t.AllowlistUntil != nil && t.EndsAt != nil && !t.AllowlistUntil.Before(*t.EndsAt) {
		set("allowlistUntil", "The allowlist phase must end before the sale does.")
	}

	if n := strings.TrimSpace(in.OpensAfterTier); n != "" {
		if id, err := strconv.Atoi(n); err == nil && digitsRe.MatchString(n) && id <= 255 {
			t.OpensAfterTier = &id
		} else {
			set("opensAfterTier", say(`opensAfterTier must be a tier id, such as "1", or null.`, "Pick the tier this one opens after, or none."))
		}
	}
	if t.OpensAfterTier != nil && *t.OpensAfterTier == t.ID {
		set("opensAfterTier", "A tier cannot open after itself.")
	}

	if len(p) > 0 {
		return store.Tier{}, Kept{}, p
	}
	t.PriceWei, t.MaxPerWallet, t.HoldingWei = store.Uint256{Int: price}, allowance, store.Uint256{Int: holding}
	if in.Enabled != nil {
		t.Enabled = *in.Enabled
	}
	return t, Kept{Enabled: in.Enabled == nil, TokenPrices: in.KeepTokenPrices}, nil
}

var (
	digitsRe  = regexp.MustCompile(`^[0-9]+$`)
	addressRe = regexp.MustCompile(`^0x[0-9a-fA-F]{40}$`)
	// decimalRe is a plain decimal number: "1", "0.1", ".5", "2.".
	decimalRe = regexp.MustCompile(`^([0-9]*)(?:\.([0-9]*))?$`)
)

// wei reads a whole number of wei (or base units) written as decimal digits; nil for anything
// else, or past 2^256-1.
func wei(s string) *big.Int {
	if !digitsRe.MatchString(s) || len(s) > 78 {
		return nil
	}
	x, ok := new(big.Int).SetString(s, 10)
	if !ok || x.Cmp(math.MaxBig256) > 0 {
		return nil
	}
	return x
}

// ParseDecimal reads a decimal number exactly, in units of 10^-places ("0.1" with 18 places is
// 100000000000000000): integer arithmetic, never a float. tooPrecise: more decimals than places
// (trailing zeros aside).
func ParseDecimal(s string, places int) (x *big.Int, tooPrecise bool) {
	m := decimalRe.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil || m[1]+m[2] == "" || len(m[1]) > 80 {
		return nil, false
	}
	frac := strings.TrimRight(m[2], "0")
	if len(frac) > places {
		return nil, true
	}
	x, _ = new(big.Int).SetString(m[1]+frac+strings.Repeat("0", places-len(frac)), 10)
	return x, false
}

// utcLayouts are how the form's times may be typed, all in UTC: as the page writes them
// ("2026-12-01 12:00 UTC", with seconds when they are not zero), with or without " UTC", with a T
// or a Z (ISO 8601) or a space.
var utcLayouts = []string{"2006-01-02 15:04", "2006-01-02 15:04:05", "2006-01-02T15:04", "2006-01-02T15:04:05"}

// readTime reads a time of the API (ISO 8601 with its offset) or of the form (UTC, as FormTime
// writes it): nil, true for none; false when it cannot.
func readTime(s string, api bool) (*time.Time, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, true
	}
	if api {
		at, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return nil, false
		}
		at = at.UTC()
		return &at, true
	}
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(s, "Z"), "UTC"))
	for _, layout := range utcLayouts {
		if t, err := time.ParseInLocation(layout, s, time.UTC); err == nil {
			return &t, true
		}
	}
	return nil, false
}

// FormTime writes a time for the form, as ReadTier reads it back: "2026-12-01 12:00" ("" for none).
func FormTime(t *time.Time) string {
	if t == nil {
		return ""
	}
	if t.Second() != 0 {
		return t.UTC().Format("2006-01-02 15:04:05")
	}
	return t.UTC().Format("2006-01-02 15:04")
}
