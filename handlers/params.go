package handlers

import (
	"fmt"
	"math/big"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
)

var (
	addressRe  = regexp.MustCompile(`^0x[0-9a-fA-F]{40}$`)
	txHashRe   = regexp.MustCompile(`^0x[0-9a-fA-F]{64}$`)
	digitsRe   = regexp.MustCompile(`^[0-9]+$`)
	intRe      = regexp.MustCompile(`^[+-]?[0-9]+$`)
	maxUint256 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
)

// parseAddress accepts a wallet address in any case and returns it in lower case.
func parseAddress(s string) (string, error) {
	if !addressRe.MatchString(s) {
		return "", errorf(http.StatusBadRequest, "That is not a wallet address: expected 0x followed by 40 hexadecimal digits.")
	}
	return strings.ToLower(s), nil
}

// parseTxHash accepts a transaction hash in any case and returns it in lower case.
func parseTxHash(s string) (string, error) {
	if !txHashRe.MatchString(s) {
		return "", errorf(http.StatusBadRequest, "That is not a transaction hash: expected 0x followed by 64 hexadecimal digits.")
	}
	return strings.ToLower(s), nil
}

// parseNodeID accepts a positive whole number that fits in uint256.
func parseNodeID(s string) (*big.Int, error) {
	bad := errorf(http.StatusBadRequest, "A node id must be a positive whole number no larger than 2^256-1.")
	// 2^256-1 has 78 digits; a longer string is out of range unless padded with zeros.
	if !digitsRe.MatchString(s) || len(strings.TrimLeft(s, "0")) > 78 {
		return nil, bad
	}
	id, _ := new(big.Int).SetString(s, 10)
	if id.Sign() <= 0 || id.Cmp(maxUint256) > 0 {
		return nil, bad
	}
	return id, nil
}

// parseAfter reads the after query parameter of a list paged by a whole-number key: 0 when
// absent; bad is the 400's sentence.
func parseAfter(raw, bad string) (int64, error) {
	if raw == "" {
		return 0, nil
	}
	after, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || after < 0 {
		return 0, errorf(http.StatusBadRequest, bad)
	}
	return after, nil
}

// parseBlock reads query parameter name as a block number: def when absent; bad is the 400's
// sentence.
func parseBlock(c echo.Context, name string, def int64, bad string) (int64, error) {
	if !c.QueryParams().Has(name) {
		return def, nil
	}
	n, err := strconv.ParseInt(c.QueryParam(name), 10, 64)
	if err != nil || n < 0 || !digitsRe.MatchString(c.QueryParam(name)) {
		return 0, errorf(http.StatusBadRequest, bad)
	}
	return n, nil
}

// parseLimit reads the limit query parameter: def when absent, else a whole number in [1, max].
func parseLimit(raw string, present bool, def, max int) (int, error) {
	if !present {
		return def, nil
	}
	bad := errorf(http.StatusBadRequest, fmt.Sprintf("limit must be a whole number from 1 to %d.", max))
	if !intRe.MatchString(raw) {
		return 0, bad
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 1 || n > max {
		return 0, bad
	}
	return n, nil
}
