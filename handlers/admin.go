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
	"time"
	"unicode"

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

// tierBody is a tier as the operator writes it; pointers tell absent from zero. PayoutBps is the
// factory's (its owner sets it): it may be sent, equal to the factory's, or left out. Confirm
// confirms a change of the price, allowance or supply by more than half. Enabled is the
// operator's switch; OnSale is read in its place when it is absent, as scripts written before it
// send it (and GET /api/tiers' onSale sent back never switches a tier off: a tier it shows not
// on sale has its enabled alongside). The sale fields left out are null: no supply, no window.
type tierBody struct {
	Label          *string  `json:"label"`
	PriceWei       *string  `json:"priceWei"`
	MaxPerWallet   *int     `json:"maxPerWallet"`
	HoldingWei     *string  `json:"holdingWei"`
	HoldingToken   *string  `json:"holdingToken"`
	PayoutBps      *int     `json:"payoutBps"`
	Enabled        *bool    `json:"enabled"`
	OnSale         *bool    `json:"onSale"`
	Supply         *int64   `json:"supply"`
	StartsAt       *string  `json:"startsAt"`
	EndsAt         *string  `json:"endsAt"`
	AllowlistUntil *string  `json:"allowlistUntil"`
	OpensAfterTier *tierRef `json:"opensAfterTier"`
	Confirm        bool     `json:"confirm"`

	// The read-only fields of GET /api/tiers, taken and ignored, so that a tier read can be sent
	// back as it is.
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
	ctx := c.Request().Context()
	weights, err := h.chain.TierWeights(ctx, []uint8{uint8(id)})
	switch {
	case err != nil && b.PayoutBps != nil:
		h.log.Warn("admin: the factory's weights cannot be read", "err", err)
		// Refused rather than taken on trust: the weight is the factory's, and unknown now.
		return errorf(http.StatusConflict, fmt.Sprintf("Tier %d's payout weight cannot be read from the factory now, so payoutBps cannot be checked against it: "+
			"leave payoutBps out (the factory's owner sets it), or try again.", id))
	case err == nil:
		w := int(weights[id])
		t.PayoutBps = &w
		if b.PayoutBps != nil && *b.PayoutBps != w {
			return errorf(http.StatusConflict, fmt.Sprintf("Tier %d's payout weight is %d bps on the factory, not %d: it is set on the factory by its owner, "+
				"with the owner's wallet on the operator page (Change payout) or setTierWeight(%d, bps) sent from the owner's wallet. "+
				"Leave payoutBps out, or send the factory's value.", id, w, *b.PayoutBps, id))
		}
	}
	var unconfirmed *unconfirmedError
	if err := h.putTier(c, t, b.Confirm); errors.As(err, &unconfirmed) {
		return errorf(http.StatusConflict, strings.Join(unconfirmed.changes, "; ")+`: send "confirm": true to confirm.`)
	} else if status, msg, ok := tierRuleProblem(err); ok {
		return errorf(status, msg)
	} else if err != nil {
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
		var code *store.ReasonCode
		if p.Reason != nil {
			code = &p.Reason.Code
		}
		return map[string]any{
			"id": p.ID, "txHash": p.TxHash, "callIndex": p.CallIndex, "from": p.From, "valueWei": p.ValueWei.String(),
			"reason": sale.Sentence(p.Reason), "reasonCode": code, "blockNumber": p.BlockNumber, "createdAt": isoTime(&p.CreatedAt),
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

// tier reads the body into a draft of tier id and checks it like the operator's form does; the
// first problem, in the order of the fields, is the 400's sentence.
func (b tierBody) tier(id int) (store.Tier, error) {
	d := tierDraft{id: id, problems: tierProblems{}}
	if b.Label != nil {
		d.label = *b.Label
	}
	if b.PriceWei != nil {
		if d.price, _ = weiField(b.PriceWei); d.price == nil {
			d.problems["price"] = "priceWei must be a positive whole number of wei, as a string."
		}
	}
	d.maxPerWallet = b.MaxPerWallet
	d.holding = new(big.Int)
	if b.HoldingWei != nil {
		if d.holding, _ = weiField(b.HoldingWei); d.holding == nil {
			d.problems["holdingAmount"] = "holdingWei must be a whole number of the token's smallest unit, as a string."
		}
	}
	if b.HoldingToken != nil {
		d.token = *b.HoldingToken
	}
	switch {
	case b.Enabled != nil:
		d.onSale = *b.Enabled
	case b.OnSale != nil:
		d.onSale = *b.OnSale
	}
	if b.Supply != nil {
		if *b.Supply < 0 || *b.Supply > maxSupply {
			d.problems["supply"] = fmt.Sprintf("supply must be a whole number from 0 to %d, or null for no limit.", maxSupply)
		} else {
			n := int(*b.Supply)
			d.supply = &n
		}
	}
	for _, f := range []struct {
		name string
		in   *string
		out  **time.Time
	}{{"startsAt", b.StartsAt, &d.startsAt}, {"endsAt", b.EndsAt, &d.endsAt}, {"allowlistUntil", b.AllowlistUntil, &d.allowlistUntil}} {
		if f.in == nil {
			continue
		}
		at, err := time.Parse(time.RFC3339Nano, *f.in)
		if err != nil {
			d.problems[f.name] = f.name + " must be a time in ISO 8601 with its offset, such as 2026-12-01T12:00:00Z, or null."
			continue
		}
		at = at.UTC()
		*f.out = &at
	}
	if b.OpensAfterTier != nil {
		if id, err := parseTierID(b.OpensAfterTier.raw); err != nil {
			d.problems["opensAfterTier"] = "opensAfterTier must be a tier id, such as \"1\", or null."
		} else {
			d.opensAfter = &id
		}
	}
	t, problems := d.check()
	for _, f := range tierFieldOrder {
		if msg, ok := problems[f]; ok {
			return store.Tier{}, errorf(http.StatusBadRequest, msg)
		}
	}
	return t, nil
}

// tierDraft is a tier as the admin API or the operator's form read it, before the one check both
// share. A nil number is one that was absent, or that the surface could not read, in which case
// it wrote why in problems, in its own words (wei for the API, ETH for the form).
type tierDraft struct {
	id           int
	label        string
	price        *big.Int // wei
	maxPerWallet *int
	holding      *big.Int // the holding token's smallest unit; nil: none required
	token        string   // "": no holding token
	onSale       bool
	// The sale: nil is none (no limit, open-ended, no allowlist phase, no tier to wait for).
	supply         *int
	startsAt       *time.Time
	endsAt         *time.Time
	allowlistUntil *time.Time
	opensAfter     *int
	problems       tierProblems
}

// tierProblems says what is wrong with a tier, one sentence per field, by field name.
type tierProblems map[string]string

// tierFieldOrder is the order of a tier's fields, in which the API tells the first problem.
var tierFieldOrder = []string{"id", "label", "price", "maxPerWallet", "holdingToken", "holdingAmount", "supply",
	"startsAt", "endsAt", "allowlistUntil", "opensAfterTier"}

// Bounds on a tier: a label that fits a table cell, numbers well inside their integer columns.
const (
	maxTierLabel = 64
	maxAllowance = 1_000_000
	maxSupply    = 1_000_000_000
)

// check is the one validation of a tier, whoever writes it: the tier, or the problems of its
// fields (the surface's own reading problems kept first).
func (d tierDraft) check() (store.Tier, tierProblems) {
	p := tierProblems{}
	for f, msg := range d.problems {
		p[f] = msg
	}
	set := func(field, msg string) {
		if _, told := p[field]; !told {
			p[field] = msg
		}
	}
	if d.id < 0 || d.id > 255 {
		set("id", "The tier number must be a whole number from 0 to 255.")
	}
	label := strings.TrimSpace(d.label)
	switch {
	case label == "":
		set("label", "A tier needs a label, such as Standard.")
	case strings.ContainsFunc(label, unicode.IsControl):
		// PostgreSQL's text refuses a NUL outright, and the others would break a page or a CSV line.
		set("label", "A label cannot hold control characters (such as NUL, a tab or a line break).")
	case len([]rune(label)) > maxTierLabel:
		set("label", fmt.Sprintf("A label has at most %d characters.", maxTierLabel))
	}
	switch {
	case d.price == nil:
		set("price", "The price is required.")
	case d.price.Sign() <= 0:
		set("price", "The price must be more than 0.")
	case d.price.Cmp(maxUint256) > 0:
		set("price", "The price is too large.")
	}
	switch {
	case d.maxPerWallet == nil:
		set("maxPerWallet", "The allowance per wallet is required: how many nodes of this tier one wallet may hold.")
	case *d.maxPerWallet < 0 || *d.maxPerWallet > maxAllowance:
		set("maxPerWallet", fmt.Sprintf("The allowance per wallet must be a whole number from 0 to %d.", maxAllowance))
	}
	var token *string
	if d.token != "" {
		if t, err := parseAddress(strings.TrimSpace(d.token)); err != nil {
			set("holdingToken", "The holding token must be a token's address: 0x and 40 hexadecimal digits.")
		} else {
			token = &t
		}
	}
	holding := d.holding
	if holding == nil {
		holding = new(big.Int)
	}
	switch {
	case holding.Sign() < 0 || holding.Cmp(maxUint256) > 0:
		set("holdingAmount", "The holding amount must be a whole number no larger than 2^256-1.")
	case holding.Sign() > 0 && d.token == "":
		set("holdingAmount", "A holding amount needs the address of the token to hold.")
	}
	if d.supply != nil && (*d.supply < 0 || *d.supply > maxSupply) {
		set("supply", fmt.Sprintf("The supply must be a whole number from 0 to %d, or empty for no limit.", maxSupply))
	}
	if d.startsAt != nil && d.endsAt != nil && !d.endsAt.After(*d.startsAt) {
		set("endsAt", "The sale must end after it starts.")
	}
	if d.allowlistUntil != nil && d.endsAt != nil && !d.allowlistUntil.Before(*d.endsAt) {
		set("allowlistUntil", "The allowlist phase must end before the sale does.")
	}
	if d.opensAfter != nil && *d.opensAfter == d.id {
		set("opensAfterTier", "A tier cannot open after itself.")
	}
	if len(p) > 0 {
		return store.Tier{}, p
	}
	return store.Tier{ID: d.id, Label: label, PriceWei: store.Uint256{Int: d.price}, MaxPerWallet: *d.maxPerWallet,
		HoldingWei: store.Uint256{Int: holding}, HoldingToken: token, Enabled: d.onSale, Supply: d.supply,
		StartsAt: d.startsAt, EndsAt: d.endsAt, AllowlistUntil: d.allowlistUntil, OpensAfterTier: d.opensAfter}, nil
}

func weiField(s *string) (*big.Int, bool) {
	if s == nil || !digitsRe.MatchString(*s) || len(*s) > 78 {
		return nil, false
	}
	x, ok := new(big.Int).SetString(*s, 10)
	return x, ok && x.Cmp(maxUint256) <= 0
}
