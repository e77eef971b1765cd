package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"nodeledger/jobs/sale"
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

// tierBody is a tier as the operator writes it. A field left out keeps the stored tier's setting
// (a new tier's label, priceWei and maxPerWallet are required; its other fields are none, and
// it is off); null is none (no supply, no window, no note). Enabled and tokenPrices null are
// left out too ([] clears the token prices). PayoutBps is the factory's (its owner sets it): it
// may be sent, equal to the factory's, or left out. Confirm confirms a change of the price,
// allowance or supply by more than half.
type tierBody struct {
	Label          *string  `json:"label"`
	PriceWei       *string  `json:"priceWei"`
	MaxPerWallet   *int     `json:"maxPerWallet"`
	HoldingWei     *string  `json:"holdingWei"`
	HoldingToken   *string  `json:"holdingToken"`
	PayoutBps      *int     `json:"payoutBps"`
	Enabled        *bool    `json:"enabled"`
	Supply         *int64   `json:"supply"`
	StartsAt       *string  `json:"startsAt"`
	EndsAt         *string  `json:"endsAt"`
	AllowlistUntil *string  `json:"allowlistUntil"`
	OpensAfterTier *tierRef `json:"opensAfterTier"`
	Note           *string  `json:"note"`
	KYCRequired    *bool    `json:"kycRequired"`
	// TokenPrices are its prices in listed tokens; symbol and decimals, as GET writes them, are
	// read-only.
	TokenPrices []struct {
		Token    string `json:"token"`
		Amount   string `json:"amount"`
		Symbol   any    `json:"symbol"`
		Decimals any    `json:"decimals"`
	} `json:"tokenPrices"`
	Confirm bool `json:"confirm"`

	// The read-only fields of GET /api/tiers, taken and ignored, so that a tier read can be sent
	// back as it is: onSale among them, which says whether the tier sells now (its phase), not
	// the switch, so that a sold-out or scheduled tier sent back is never switched off.
	OnSale          any `json:"onSale"`
	ID              any `json:"id"`
	Sold            any `json:"sold"`
	Remaining       any `json:"remaining"`
	Phase           any `json:"phase"`
	OpensAt         any `json:"opensAt"`
	HoldingSymbol   any `json:"holdingSymbol"`
	HoldingDecimals any `json:"holdingDecimals"`
	EnforcedBy      any `json:"enforcedBy"`
}

// tierRef is a tier id as the API writes it, a string ("2"), or as a number.
type tierRef struct{ raw string }

func (r *tierRef) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		s = string(b) // a number, checked as digits below
	}
	r.raw = s
	return nil
}

// PutTier answers PUT /api/admin/tiers/{id}: creates the tier or replaces the fields the body
// gives, keeping the others.
func (h *Handlers) PutTier(c echo.Context) error {
	id, err := parseTierID(c.Param("id"))
	if err != nil {
		return err
	}
	var b tierBody
	given, err := decodeFields(c, &b)
	if err != nil {
		return err
	}
	t, keep, problems := sale.ReadTier(b.input(id, h.sale.Listed(), given))
	if len(problems) > 0 {
		return errorf(http.StatusBadRequest, problems.First())
	}
	ctx := c.Request().Context()
	var whole sale.Problems
	if err := h.sale.CheckWhole(ctx, t, keep); errors.As(err, &whole) {
		return errorf(http.StatusBadRequest, whole.First())
	} else if err != nil {
		return err
	}
	if t.PayoutBps, err = h.factoryWeight(ctx, id, b.PayoutBps); err != nil {
		return err
	}
	var unconfirmed *sale.Unconfirmed
	var broken *sale.RuleError
	switch _, err := h.putTier(c, t, keep, b.Confirm); {
	case errors.As(err, &whole):
		return errorf(http.StatusBadRequest, whole.First())
	case errors.As(err, &unconfirmed):
		return errorf(http.StatusConflict, strings.Join(unconfirmed.Changes, "; ")+`: send "confirm": true to confirm.`)
	case errors.As(err, &broken):
		return errorf(ruleStatus(broken), broken.Sentence())
	case err != nil:
		return err
	}
	tiers, err := h.sale.TiersNow(ctx)
	if err != nil {
		return err
	}
	for _, n := range tiers {
		if n.ID == id {
			return c.JSON(http.StatusOK, toTierNowJSON(n))
		}
	}
	return fmt.Errorf("tier %d is not among the tiers after it was stored", id)
}

// factoryWeight is tier id's weight on the factory, nil when it cannot be read now; sent is the
// body's payoutBps (nil: left out), which must be the factory's: the weight is set on the factory
// by its owner, never through the ledger.
func (h *Handlers) factoryWeight(ctx context.Context, id int, sent *int) (*int, error) {
	weights, err := h.chain.TierWeights(ctx, []uint8{uint8(id)})
	switch {
	case err != nil && sent != nil:
		h.log.Warn("admin: the factory's weights cannot be read", "err", err)
		// Refused rather than taken on trust: the weight is the factory's, and unknown now.
		return nil, errorf(http.StatusConflict, fmt.Sprintf("Tier %d's payout weight cannot be read from the factory now, so payoutBps cannot be checked against it: "+
			"leave payoutBps out (the factory's owner sets it), or try again.", id))
	case err != nil:
		return nil, nil
	}
	w := int(weights[id])
	if sent != nil && *sent != w {
		return nil, errorf(http.StatusConflict, fmt.Sprintf("Tier %d's payout weight is %d bps on the factory, not %d: it is set on the factory by its owner, "+
			"with the owner's wallet on the operator page (Change payout) or setTierWeight(%d, bps) sent from the owner's wallet. "+
			"Leave payoutBps out, or send the factory's value.", id, w, *sent, id))
	}
	return &w, nil
}

// TierOnSale answers POST /api/admin/tiers/{id}/on-sale and .../off-sale.
func (h *Handlers) TierOnSale(onSale bool) echo.HandlerFunc {
	return func(c echo.Context) error {
		id, err := parseTierID(c.Param("id"))
		if err != nil {
			return err
		}
		if _, err := h.setOnSale(c, id, onSale); err != nil {
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
		if _, err := h.holdMinting(c, held); err != nil {
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
		out := paymentRowJSON(p)
		out["reason"] = sale.Sentence(p.Reason)
		return out
	}))
}

// paymentRowJSON is a payment as the admin API lists it (the refunds owed, the held payments):
// what it paid, where, and its reason's code.
func paymentRowJSON(p store.Payment) map[string]any {
	var code *store.ReasonCode
	if p.Reason != nil {
		code = &p.Reason.Code
	}
	return map[string]any{
		"id": p.ID, "txHash": p.TxHash, "callIndex": p.CallIndex, "from": p.From, "valueWei": p.ValueWei.String(),
		"token": p.Token, "amount": p.Paid().Amount.String(), "reasonCode": code, "blockNumber": p.BlockNumber,
		"createdAt": isoTime(&p.CreatedAt),
	}
}

// Drift answers GET /api/admin/drift?after=&limit=: one page of the ledger-versus-chain report.
func (h *Handlers) Drift(c echo.Context) error {
	limit, err := parseLimit(c.QueryParam("limit"), c.QueryParams().Has("limit"), 200, 1000)
	if err != nil {
		return err
	}
	after, err := parseAfter(c.QueryParam("after"), "after must be a ledger node id (a whole number).")
	if err != nil {
		return err
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
	_, err := decodeFields(c, v)
	return err
}

// decodeFields is decodeBody, and the names of the fields the object gave (in lower case: JSON
// names match their fields whatever their case), null or not.
func decodeFields(c echo.Context, v any) (map[string]bool, error) {
	bad := errorf(http.StatusBadRequest, "The body must be one JSON object with only the documented fields.")
	body, err := io.ReadAll(http.MaxBytesReader(c.Response(), c.Request().Body, maxBody))
	if err != nil {
		return nil, bad
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return nil, bad
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, bad
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil {
		return nil, bad
	}
	given := make(map[string]bool, len(fields))
	for name := range fields {
		given[strings.ToLower(name)] = true
	}
	return given, nil
}

// text is *p, "" for nil.
func text(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// input is the body as the sale reads a tier of the API: every field as text, "" for none, and
// the fields it left out (given: the names it gave, in lower case).
func (b tierBody) input(id int, listed map[string]store.Token, given map[string]bool) sale.TierInput {
	in := sale.TierInput{Surface: sale.API, ID: strconv.Itoa(id), Label: text(b.Label), Price: text(b.PriceWei),
		HoldingToken: text(b.HoldingToken), HoldingAmount: text(b.HoldingWei), Enabled: b.Enabled != nil && *b.Enabled,
		StartsAt: text(b.StartsAt), EndsAt: text(b.EndsAt), AllowlistUntil: text(b.AllowlistUntil), Note: text(b.Note),
		Listed: listed, Absent: map[string]bool{}}
	for _, f := range sale.TierFields {
		in.Absent[f.Name] = !given[strings.ToLower(f.JSON)]
	}
	in.Absent["enabled"] = b.Enabled == nil
	in.KYCRequired, in.Absent["kycRequired"] = b.KYCRequired != nil && *b.KYCRequired, b.KYCRequired == nil
	in.Absent["tokenPrices"] = b.TokenPrices == nil
	for _, p := range b.TokenPrices {
		in.TokenPrices = append(in.TokenPrices, sale.TokenPriceInput{Token: p.Token, Amount: p.Amount})
	}
	if b.MaxPerWallet != nil {
		in.MaxPerWallet = strconv.Itoa(*b.MaxPerWallet)
	}
	if b.Supply != nil {
		in.Supply = strconv.FormatInt(*b.Supply, 10)
	}
	if b.OpensAfterTier != nil {
		in.OpensAfterTier = b.OpensAfterTier.raw
	}
	return in
}
