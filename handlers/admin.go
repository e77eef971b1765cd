package handlers

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"nodeledger/store"
)

// RequireAdmin gates the operator surface /api/admin/*: with no ADMIN_KEY it does not exist
// (404); a wrong or missing x-admin-key is a 401 without detail.
func (h *Handlers) RequireAdmin(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if h.cfg.AdminKey == "" {
			return echo.ErrNotFound
		}
		if !keyMatches(c.Request().Header.Get("X-Admin-Key"), h.cfg.AdminKey) {
			return echo.ErrUnauthorized
		}
		return next(c)
	}
}

// AdminTiers answers GET /api/admin/tiers.
func (h *Handlers) AdminTiers(c echo.Context) error { return h.Tiers(c) }

// tierBody is a tier as the operator writes it; pointers tell absent from zero.
type tierBody struct {
	Label        *string `json:"label"`
	PriceWei     *string `json:"priceWei"`
	MaxPerWallet *int    `json:"maxPerWallet"`
	HoldingWei   *string `json:"holdingWei"`
	HoldingToken *string `json:"holdingToken"`
	PayoutBps    *int    `json:"payoutBps"`
	OnSale       *bool   `json:"onSale"`
}

// PutTier answers PUT /api/admin/tiers/{id}: creates the tier or replaces every field of it.
func (h *Handlers) PutTier(c echo.Context) error {
	id, err := parseTierID(c.Param("id"))
	if err != nil {
		return err
	}
	var b tierBody
	if err := decodeBody(c, &b); err != nil {
		return err
	}
	t, err := b.tier(id)
	if err != nil {
		return err
	}
	if err := h.store.PutTier(c.Request().Context(), t); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toTierJSON(t))
}

// TierOnSale answers POST /api/admin/tiers/{id}/on-sale and .../off-sale.
func (h *Handlers) TierOnSale(onSale bool) echo.HandlerFunc {
	return func(c echo.Context) error {
		id, err := parseTierID(c.Param("id"))
		if err != nil {
			return err
		}
		err = h.store.SetOnSale(c.Request().Context(), id, onSale)
		if errors.Is(err, store.ErrNotFound) {
			return errorf(http.StatusNotFound, fmt.Sprintf("There is no tier %d.", id))
		}
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, map[string]any{"id": strconv.Itoa(id), "onSale": onSale})
	}
}

// Minting answers GET /api/admin/minting: whether the operator holds minting.
func (h *Handlers) Minting(c echo.Context) error {
	held, err := h.store.MintingHeld(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]bool{"held": held})
}

// HoldMinting answers POST /api/admin/minting/pause and .../resume. A hold keeps payments
// recorded but unminted until resumed; it is the operator's, not the contract's pause (the
// service holds no owner key).
func (h *Handlers) HoldMinting(held bool) echo.HandlerFunc {
	return func(c echo.Context) error {
		if err := h.store.HoldMinting(c.Request().Context(), held); err != nil {
			return err
		}
		return c.JSON(http.StatusOK, map[string]bool{"held": held})
	}
}

// Refunds answers GET /api/admin/refunds: the rejected payments, newest first, with their reason.
func (h *Handlers) Refunds(c echo.Context) error {
	limit, err := parseLimit(c.QueryParam("limit"), c.QueryParams().Has("limit"), 100, 1000)
	if err != nil {
		return err
	}
	ps, err := h.store.Refunds(c.Request().Context(), limit)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, mapSlice(ps, func(p store.Payment) map[string]any {
		return map[string]any{
			"id": p.ID, "txHash": p.TxHash, "callIndex": p.CallIndex, "from": p.From, "valueWei": p.ValueWei.String(),
			"reason": p.Reason, "blockNumber": p.BlockNumber, "createdAt": isoTime(&p.CreatedAt),
		}
	}))
}

// Drift answers GET /api/admin/drift?after=&limit=: one page of the ledger-versus-chain report.
func (h *Handlers) Drift(c echo.Context) error {
	limit, err := parseLimit(c.QueryParam("limit"), c.QueryParams().Has("limit"), 200, 1000)
	if err != nil {
		return err
	}
	var after int64
	if v := c.QueryParam("after"); v != "" {
		if after, err = strconv.ParseInt(v, 10, 64); err != nil || after < 0 {
			return errorf(http.StatusBadRequest, "after must be a ledger node id (a whole number).")
		}
	}
	rep, err := h.jobs.Drift(c.Request().Context(), after, limit)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, rep)
}

func parseTierID(s string) (int, error) {
	id, err := strconv.Atoi(s)
	if err != nil || id < 0 || id > 255 || !digitsRe.MatchString(s) {
		return 0, errorf(http.StatusBadRequest, "A tier id is a whole number from 0 to 255.")
	}
	return id, nil
}

// maxBody bounds a JSON body.
const maxBody = 64 << 10

// decodeBody reads exactly one JSON object with only known fields into v; anything else is a 400.
func decodeBody(c echo.Context, v any) error {
	bad := errorf(http.StatusBadRequest, "The body must be one JSON object with only the documented fields.")
	dec := json.NewDecoder(http.MaxBytesReader(c.Response(), c.Request().Body, maxBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return bad
	}
	if _, err := dec.Token(); err != io.EOF {
		return bad
	}
	return nil
}

// tier checks the body and makes it tier id.
func (b tierBody) tier(id int) (store.Tier, error) {
	bad := func(msg string) (store.Tier, error) { return store.Tier{}, errorf(http.StatusBadRequest, msg) }
	if b.Label == nil || strings.TrimSpace(*b.Label) == "" {
		return bad("label is required.")
	}
	price, ok := weiField(b.PriceWei)
	if !ok || price.Sign() == 0 {
		return bad("priceWei is required: a positive whole number of wei, as a string.")
	}
	if b.MaxPerWallet == nil || *b.MaxPerWallet < 0 {
		return bad("maxPerWallet is required: a whole number, 0 or more.")
	}
	if b.PayoutBps == nil || *b.PayoutBps < 0 {
		return bad("payoutBps is required: a whole number, 0 or more (10000 is base).")
	}
	holding := new(big.Int)
	if b.HoldingWei != nil {
		if holding, ok = weiField(b.HoldingWei); !ok {
			return bad("holdingWei must be a whole number of wei, as a string.")
		}
	}
	var token *string
	if b.HoldingToken != nil {
		t, err := parseAddress(*b.HoldingToken)
		if err != nil {
			return bad("holdingToken must be a token address or null.")
		}
		token = &t
	}
	return store.Tier{ID: id, Label: strings.TrimSpace(*b.Label), PriceWei: store.Uint256{Int: price}, MaxPerWallet: *b.MaxPerWallet,
		HoldingWei: store.Uint256{Int: holding}, HoldingToken: token, PayoutBps: *b.PayoutBps, OnSale: b.OnSale != nil && *b.OnSale}, nil
}

func weiField(s *string) (*big.Int, bool) {
	if s == nil || !digitsRe.MatchString(*s) || len(*s) > 78 {
		return nil, false
	}
	x, ok := new(big.Int).SetString(*s, 10)
	return x, ok && x.Cmp(maxUint256) <= 0
}
