package store

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
)

// Uint256 is a whole number the ledger keeps as numeric(78,0): an amount of wei, or a node's id
// on chain, both uint256 in the contracts. It is a *big.Int, with all of big.Int's methods, that
// the database reads and writes as numeric and JSON as a decimal string, the way the API shows
// it ("12345").
//
// The zero Uint256 holds a nil Int: it is NULL in the database and null in JSON, both ways.
// Every numeric column of the ledger is NOT NULL, so writing one is an error the database
// reports, never a zero written silently.
type Uint256 struct{ *big.Int }

// Scan reads a numeric column; NULL leaves a nil Int.
func (u *Uint256) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		u.Int = nil
		return nil
	case int64:
		u.Int = big.NewInt(v)
		return nil
	case []byte:
		return u.set(string(v))
	case string:
		return u.set(v)
	}
	return fmt.Errorf("store.Uint256: cannot scan %T", src)
}

// Value writes the number as numeric text; a nil Int is NULL.
func (u Uint256) Value() (driver.Value, error) {
	if u.Int == nil {
		return nil, nil
	}
	return u.Int.String(), nil
}

// MarshalJSON writes a decimal string; a nil Int is null.
func (u Uint256) MarshalJSON() ([]byte, error) {
	if u.Int == nil {
		return []byte("null"), nil
	}
	return []byte(`"` + u.Int.String() + `"`), nil
}

// UnmarshalJSON reads a decimal string; null leaves a nil Int.
func (u *Uint256) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		u.Int = nil
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("store.Uint256: %s is not a decimal string", b)
	}
	return u.set(s)
}

func (u *Uint256) set(text string) error {
	x, ok := new(big.Int).SetString(text, 10)
	if !ok {
		return fmt.Errorf("store.Uint256: %q is not a whole number", text)
	}
	u.Int = x
	return nil
}

// ETH writes the amount of wei as ether, exactly, with integer arithmetic only:
// 1500000000000000000 is "1.5", 1 is "0.000000000000000001". A nil amount, unknown, is "–".
func (u Uint256) ETH() string { return u.Units(18) }

// Units writes the amount of base units in whole units of a token with decimals decimals,
// exactly: Units(6) of 1500000 is "1.5". A nil amount, unknown, is "–".
func (u Uint256) Units(decimals uint8) string {
	if u.Int == nil {
		return "–"
	}
	sign := ""
	if u.Sign() < 0 {
		sign = "-"
	}
	one := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil)
	q, r := new(big.Int).QuoRem(new(big.Int).Abs(u.Int), one, new(big.Int))
	if r.Sign() == 0 {
		return sign + q.String()
	}
	return sign + q.String() + "." + strings.TrimRight(fmt.Sprintf("%0*s", int(decimals), r.String()), "0")
}
