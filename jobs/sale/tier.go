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
	TokenPrices   []TokenPriceInput
	Listed        map[string]store.Token
	MaxPerWallet  string
	HoldingToken  string
	HoldingAmount string // API: the token's base units; Form: its own units (Token's decimals)
	// Token is the holding token as the chain tells it (Form: its decimals read the amount);
	// nil when the input names none, or it cannot be read now.
	Token *chain.Token
	// Enabled is the operator's switch. Nothing else, and no read-only field sent back, is taken
	// as the switch.
	Enabled        bool
	Supply         string
	StartsAt       string
	EndsAt         string
	AllowlistUntil string
	OpensAfterTier string
	Note           string
	// KYCRequired: a payment from a wallet without a verified identity is held (store.Tier).
	KYCRequired bool
	// Absent are the fields (TierField.Name) the input says nothing of, an API body's keys left
	// out: the stored tier keeps them as they are (Kept).
	Absent map[string]bool
}

// TokenPriceInput is a tier's price in a token, as written: the token's address and the amount.
type TokenPriceInput struct {
	Token  string
	Amount string
}

// Problems says what is wrong with a tier, one sentence per field, by field name
// (TierField.Name, or "id").
type Problems map[string]string

// First is the first problem in the order of the fields (the id, then TierFields); "" when
// there is none.
func (p Problems) First() string {
	if msg, ok := p["id"]; ok {
		return msg
	}
	for _, f := range TierFields {
		if msg, ok := p[f.Name]; ok {
			return msg
		}
	}
	return ""
}

// Error is the first problem: PutTier returns a tier's problems as its error.
func (p Problems) Error() string { return p.First() }

// set tells field's problem, unless it already has one.
func (p Problems) set(field, msg string) {
	if _, told := p[field]; !told {
		p[field] = msg
	}
}

// Bounds on a tier: a label that fits a table cell, a note a card line, numbers well inside
// their integer columns.
const (
	maxTierLabel = 64
	maxTierNote  = 200
	maxAllowance = 1_000_000
	maxSupply    = 1_000_000_000
)

// Kept are the settings a tier's input left out (by TierField.Name), which the stored tier keeps
// as they are.
type Kept map[string]bool

// ReadTier is the one reading of a tier, whoever writes it: the tier, or the problems of its
// fields, and the settings it left out, which PutTier keeps from the stored tier. Each field's
// own rules are checked here; the rules between fields once the tier is whole (CheckTier), and
// those that need the ledger (what the tier sold, the tiers it opens after) where it is stored
// (PutTier).
func ReadTier(in TierInput) (store.Tier, Kept, Problems) {
	r := &tierReader{in: in, api: in.Surface == API, p: Problems{}, kept: Kept{}}
	r.id()
	for _, f := range TierFields {
		if in.Absent[f.Name] {
			r.kept[f.Name] = true
			continue
		}
		f.read(r)
	}
	if len(r.p) > 0 {
		return store.Tier{}, nil, r.p
	}
	return r.t, r.kept, nil
}

// tierReader reads a TierInput into a tier, field by field (TierField.read), telling problems
// in the words of its surface.
type tierReader struct {
	in   TierInput
	api  bool
	t    store.Tier
	p    Problems
	kept Kept
}

// say is apiWords on the API and formWords on the form.
func (r *tierReader) say(apiWords, formWords string) string {
	if r.api {
		return apiWords
	}
	return formWords
}

func (r *tierReader) id() {
	r.t.ID = -1
	if id := strings.TrimSpace(r.in.ID); digitsRe.MatchString(id) && len(id) <= 3 {
		r.t.ID, _ = strconv.Atoi(id)
	}
	if r.t.ID < 0 || r.t.ID > 255 {
		r.p.set("id", "The tier number must be a whole number from 0 to 255.")
	}
}

func (r *tierReader) label() {
	r.t.Label = strings.TrimSpace(r.in.Label)
	switch {
	case r.t.Label == "":
		r.p.set("label", "A tier needs a label, such as Standard.")
	case !Printable(r.t.Label):
		r.p.set("label", "A label cannot hold control characters (such as NUL, a tab or a line break) or bytes that are not UTF-8.")
	case len([]rune(r.t.Label)) > maxTierLabel:
		r.p.set("label", fmt.Sprintf("A label has at most %d characters.", maxTierLabel))
	}
}

func (r *tierReader) price() {
	var price *big.Int
	if r.api {
		if r.in.Price != "" {
			if price = wei(r.in.Price); price == nil {
				r.p.set("price", "priceWei must be a positive whole number of wei, as a string.")
			}
		}
	} else {
		switch x, tooPrecise := ParseDecimal(r.in.Price, 18); {
		case strings.TrimSpace(r.in.Price) == "":
			r.p.set("price", "The price is required: an amount in ETH, such as 0.1.")
		case tooPrecise:
			r.p.set("price", "The price has more than 18 decimals: the smallest amount is 0.000000000000000001 ETH.")
		case x == nil:
			r.p.set("price", "The price must be an amount in ETH, such as 0.1.")
		default:
			price = x
		}
	}
	switch {
	case price == nil:
		r.p.set("price", "The price is required.")
	case price.Sign() <= 0:
		r.p.set("price", "The price must be more than 0.")
	case price.Cmp(math.MaxBig256) > 0:
		r.p.set("price", "The price is too large.")
	default:
		r.t.PriceWei = store.Uint256{Int: price}
	}
}

func (r *tierReader) tokenPrices() {
	r.t.TokenPrices = store.TokenPrices{}
	for _, tp := range r.in.TokenPrices {
		addr := strings.ToLower(strings.TrimSpace(tp.Token))
		token, listed := r.in.Listed[addr]
		switch {
		case !addressRe.MatchString(addr):
			r.p.set("tokenPrices", r.say("tokenPrices: each token must be a token's address: 0x and 40 hexadecimal digits.",
				"Pick a token the sale accepts for each token price."))
			continue
		case !listed:
			r.p.set("tokenPrices", fmt.Sprintf("%s is not a token the sale accepts: list it in PAYMENT_TOKENS first.", tp.Token))
			continue
		}
		if _, twice := r.t.TokenPrices[addr]; twice {
			r.p.set("tokenPrices", fmt.Sprintf("The tier has two prices in %s: give it one.", token.Symbol))
			continue
		}
		if amount, ok := r.tokenAmount(token, tp.Amount); ok && amount != nil {
			r.t.TokenPrices[addr] = store.Uint256{Int: amount}
		}
	}
}

// tokenAmount reads a price in token: nil, true for an empty line of the form (no price in this
// token); false when it is wrong, its problem told.
func (r *tierReader) tokenAmount(token store.Token, text string) (*big.Int, bool) {
	var amount *big.Int
	if r.api {
		if amount = wei(strings.TrimSpace(text)); amount == nil {
			r.p.set("tokenPrices", fmt.Sprintf("tokenPrices: the amount in %s must be a positive whole number of its base units (%d decimals), as a string.", token.Symbol, token.Decimals))
			return nil, false
		}
	} else {
		x, tooPrecise := ParseDecimal(strings.ReplaceAll(text, ",", ""), token.Decimals)
		switch {
		case strings.TrimSpace(text) == "":
			return nil, true
		case tooPrecise:
			r.p.set("tokenPrices", fmt.Sprintf("The price in %s has more than %d decimals, the token's.", token.Symbol, token.Decimals))
			return nil, false
		case x == nil:
			r.p.set("tokenPrices", fmt.Sprintf("The price in %s must be an amount of %s, such as 300.", token.Symbol, token.Symbol))
			return nil, false
		}
		amount = x
	}
	if amount.Sign() <= 0 {
		r.p.set("tokenPrices", fmt.Sprintf("The price in %s must be more than 0.", token.Symbol))
		return nil, false
	}
	return amount, true
}

func (r *tierReader) allowance() {
	allowance := -1
	switch n := strings.TrimSpace(r.in.MaxPerWallet); {
	case digitsRe.MatchString(n) && len(n) <= 9:
		allowance, _ = strconv.Atoi(n)
	case r.api && n == "":
		r.p.set("maxPerWallet", "The allowance per wallet is required: how many nodes of this tier one wallet may hold.")
	case !r.api:
		r.p.set("maxPerWallet", "The allowance per wallet must be a whole number, such as 3.")
	}
	if allowance < 0 || allowance > maxAllowance {
		r.p.set("maxPerWallet", fmt.Sprintf("The allowance per wallet must be a whole number from 0 to %d.", maxAllowance))
	}
	r.t.MaxPerWallet = allowance
}

func (r *tierReader) holdingToken() {
	token := strings.TrimSpace(r.in.HoldingToken)
	switch {
	case token == "":
	case !addressRe.MatchString(token):
		r.p.set("holdingToken", "The holding token must be a token's address: 0x and 40 hexadecimal digits.")
	default:
		lower := strings.ToLower(token)
		r.t.HoldingToken = &lower
	}
}

// holdingAmount reads the amount to hold: the API's in base units, the form's in the token's own
// units, as the page shows it, which its decimals (Token) make base units.
func (r *tierReader) holdingAmount() {
	holding := new(big.Int)
	a, token := strings.TrimSpace(r.in.HoldingAmount), strings.TrimSpace(r.in.HoldingToken)
	switch {
	case a == "":
	case r.api:
		if holding = wei(a); holding == nil {
			r.p.set("holdingAmount", "holdingWei must be a whole number of the token's smallest unit, as a string.")
		}
	case r.in.Token == nil && token != "" && r.t.HoldingToken == nil:
		// the token's problem is told; the amount waits for it.
	case r.in.Token == nil && token != "":
		r.p.set("holdingAmount", "The token's decimals cannot be read from the chain now, so the amount cannot be read in its units: try again in a little while.")
	default:
		holding = r.formAmount(a)
	}
	switch {
	case holding == nil:
	case holding.Sign() < 0 || holding.Cmp(math.MaxBig256) > 0:
		r.p.set("holdingAmount", "The holding amount must be a whole number no larger than 2^256-1.")
	default:
		r.t.HoldingWei = store.Uint256{Int: holding}
	}
}

// formAmount reads a holding amount of the form in the token's units (18 decimals without one:
// CheckTier then says the amount needs a token); nil when it cannot, its problem told.
func (r *tierReader) formAmount(a string) *big.Int {
	decimals := 18
	if r.in.Token != nil {
		decimals = int(r.in.Token.Decimals)
	}
	amount, tooPrecise := ParseDecimal(a, decimals)
	switch {
	case tooPrecise:
		r.p.set("holdingAmount", fmt.Sprintf("The holding amount has more than %d decimals, the token's.", decimals))
	case amount == nil:
		r.p.set("holdingAmount", "The holding amount must be an amount of the token, in its own units, such as 2.5.")
	}
	return amount
}

func (r *tierReader) enabled() { r.t.Enabled = r.in.Enabled }

// supply reads how many nodes the tier sells; thousands may be written with commas on the form,
// as the page writes them.
func (r *tierReader) supply() {
	n := strings.TrimSpace(r.in.Supply)
	if n == "" {
		return
	}
	if !r.api {
		n = strings.ReplaceAll(n, ",", "")
	}
	v, err := strconv.Atoi(n)
	switch {
	case err != nil || !digitsRe.MatchString(n) || len(n) > 10:
		r.p.set("supply", r.say(fmt.Sprintf("supply must be a whole number from 0 to %d, or null for no limit.", maxSupply),
			"The supply must be a whole number of nodes, such as 5000, or empty for no limit."))
	case v > maxSupply:
		r.p.set("supply", r.say(fmt.Sprintf("supply must be a whole number from 0 to %d, or null for no limit.", maxSupply),
			fmt.Sprintf("The supply must be a whole number from 0 to %d, or empty for no limit.", maxSupply)))
	default:
		r.t.Supply = &v
	}
}

// time reads the time of field name into at.
func (r *tierReader) time(name, value, what string, at **time.Time) {
	t, ok := readTime(value, r.api)
	if !ok {
		r.p.set(name, r.say(name+" must be a time in ISO 8601 with its offset, such as 2026-12-01T12:00:00Z, or null.",
			what+" must be a date and time in UTC, such as 2026-12-01 12:00, or empty for none."))
		return
	}
	*at = t
}

func (r *tierReader) opensAfterTier() {
	n := strings.TrimSpace(r.in.OpensAfterTier)
	if n == "" {
		return
	}
	if id, err := strconv.Atoi(n); err == nil && digitsRe.MatchString(n) && id <= 255 {
		r.t.OpensAfterTier = &id
		return
	}
	r.p.set("opensAfterTier", r.say(`opensAfterTier must be a tier id, such as "1", or null.`, "Pick the tier this one opens after, or none."))
}

func (r *tierReader) note() {
	note := strings.TrimSpace(r.in.Note)
	switch {
	case note == "":
	case !Printable(note):
		r.p.set("note", "A note cannot hold control characters (such as NUL, a tab or a line break) or bytes that are not UTF-8.")
	case len([]rune(note)) > maxTierNote:
		r.p.set("note", fmt.Sprintf("A note has at most %d characters.", maxTierNote))
	default:
		r.t.Note = &note
	}
}

// CheckTier checks the rules between a whole tier's fields (what it read, with what it kept
// from the stored tier); the rules between tiers and with the ledger (a price step's, the
// supply against what it sold) are PutTier's.
func CheckTier(t store.Tier) Problems {
	p := Problems{}
	if t.HoldingWei.Int != nil && t.HoldingWei.Sign() > 0 && t.HoldingToken == nil {
		p.set("holdingAmount", "A holding amount needs the address of the token to hold.")
	}
	if t.StartsAt != nil && t.EndsAt != nil && !t.EndsAt.After(*t.StartsAt) {
		p.set("endsAt", "The sale must end after it starts.")
	}
	if t.AllowlistUntil != nil && t.EndsAt != nil && !t.AllowlistUntil.Before(*t.EndsAt) {
		p.set("allowlistUntil", "The allowlist phase must end before the sale does.")
	}
	if len(p) == 0 {
		return nil
	}
	return p
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

// readTime reads a time of the API (ISO 8601 with its offset) or of a form (UTC, as FormTime
// writes it, or ISO 8601): nil, true for none; false when it cannot.
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
	utc := strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(s, "Z"), "UTC"))
	for _, layout := range utcLayouts {
		if t, err := time.ParseInLocation(layout, utc, time.UTC); err == nil {
			return &t, true
		}
	}
	// ISO 8601 with another zone, as the API takes it: a form accepts that too.
	if at, err := time.Parse(time.RFC3339Nano, s); err == nil {
		at = at.UTC()
		return &at, true
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
