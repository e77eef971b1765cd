package store

import (
	"context"
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"nodeledger/views/words"
)

// Token is an ERC-20 the sale accepts payments in (PAYMENT_TOKENS): its address (lower case), and
// the symbol and decimals it told, which its amounts are written in.
type Token struct {
	Address  string `db:"address" json:"token"`
	Symbol   string `db:"symbol" json:"symbol"`
	Decimals int    `db:"decimals" json:"decimals"`
}

// Units writes amount (base units) in the token's units with its symbol, for people, thousands
// separated: "300 USDC", "100,000.5 USDC". Uint256.Units is the exact figure a person copies.
func (t Token) Units(amount *big.Int) string { return t.Figure(amount) + " " + t.Symbol }

// Figure is Units without the symbol: "100,000.5".
func (t Token) Figure(amount *big.Int) string {
	whole, frac, _ := strings.Cut(Uint256{Int: amount}.Units(uint8(t.Decimals)), ".")
	sign := ""
	if rest, ok := strings.CutPrefix(whole, "-"); ok {
		sign, whole = "-", rest
	}
	if frac != "" {
		frac = "." + frac
	}
	return sign + words.GroupDigits(whole) + frac
}

// TokenAmount is an amount of a token (base units), with the token: {token, symbol, decimals,
// amount} in JSON.
type TokenAmount struct {
	Token
	Amount Uint256 `json:"amount"`
}

// Amounts are sums of money: of ETH, and of each token (in token address order).
type Amounts struct {
	ETH    Uint256
	Tokens []TokenAmount
}

// NoAmounts is nothing: 0 ETH and no token.
func NoAmounts() Amounts { return Amounts{ETH: Uint256{Int: new(big.Int)}} }

// Add adds o to a.
func (a *Amounts) Add(o Amounts) {
	if a.ETH.Int == nil {
		a.ETH = Uint256{Int: new(big.Int)}
	}
	if o.ETH.Int != nil {
		a.ETH.Add(a.ETH.Int, o.ETH.Int)
	}
	a.Tokens = SumTokens(a.Tokens, o.Tokens...)
}

// Zero tells whether a is nothing in every currency.
func (a Amounts) Zero() bool {
	return (a.ETH.Int == nil || a.ETH.Sign() == 0) && !slices.ContainsFunc(a.Tokens, func(t TokenAmount) bool { return t.Amount.Sign() != 0 })
}

// Scan reads an amount of a token that a query built as JSON ({token, symbol, decimals, amount}),
// NULL for none.
func (a *TokenAmount) Scan(src any) error { return scanJSON(src, a) }

// SumTokens adds amounts to sums, a token's to its own, and returns the sums in token address
// order: what several refunds, or several tiers' revenues, come to in each token.
func SumTokens(sums []TokenAmount, amounts ...TokenAmount) []TokenAmount {
	for _, t := range amounts {
		i := slices.IndexFunc(sums, func(s TokenAmount) bool { return s.Address == t.Address })
		if i < 0 {
			sums = append(sums, TokenAmount{Token: t.Token, Amount: Uint256{Int: new(big.Int)}})
			i = len(sums) - 1
		}
		sums[i].Amount.Add(sums[i].Amount.Int, t.Amount.Int)
	}
	slices.SortFunc(sums, func(a, b TokenAmount) int { return strings.Compare(a.Address, b.Address) })
	return sums
}

// Float is the amount in the token's units, as a float for dollars and ratios (never for money
// kept): 300000000 base units of a 6-decimal token is 300.
func (a TokenAmount) Float() float64 {
	f, _ := new(big.Rat).SetFrac(a.Amount.Int, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(a.Decimals)), nil)).Float64()
	return f
}

// String is the amount in the token's units with its symbol: "300 USDC".
func (a TokenAmount) String() string { return a.Units(a.Amount.Int) }

// PutTokens records the tokens listed now, as they told their symbol and decimals: the ledger's
// token amounts are written in them, here and in every export and event.
func (s *Store) PutTokens(ctx context.Context, tokens []Token) (err error) {
	defer wrap(&err, "PutTokens")
	for _, t := range tokens { // a handful, once at start
		if _, err := s.db.ExecContext(ctx, `
			INSERT INTO tokens (address, symbol, decimals) VALUES ($1, $2, $3)
			ON CONFLICT (address) DO UPDATE SET symbol = excluded.symbol, decimals = excluded.decimals`,
			t.Address, t.Symbol, t.Decimals); err != nil {
			return err
		}
	}
	return nil
}

// TokenPrices are a tier's prices in tokens: an amount in base units by token address (lower
// case). Stored as a JSON object of decimal strings.
type TokenPrices map[string]Uint256

// Value writes the prices as the JSON object the tiers table keeps.
func (p TokenPrices) Value() (driver.Value, error) {
	if p == nil {
		return "{}", nil
	}
	b, err := json.Marshal(map[string]Uint256(p))
	return string(b), err
}

// Scan reads the JSON object of a tier's token prices.
func (p *TokenPrices) Scan(src any) error {
	var b []byte
	switch v := src.(type) {
	case []byte:
		b = v
	case string:
		b = []byte(v)
	default:
		return fmt.Errorf("token prices: cannot scan %T", src)
	}
	out := TokenPrices{}
	if err := json.Unmarshal(b, (*map[string]Uint256)(&out)); err != nil {
		return fmt.Errorf("token prices: %w", err)
	}
	*p = out
	return nil
}
