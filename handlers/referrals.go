package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"nodeledger/jobs/sale"
	"nodeledger/store"
	"nodeledger/views"
)

// referralBody is a partner code as the admin API takes it. The numbers are kept as their JSON
// text so that a wrong one (1.5, "5", -1) is told by the rule that names its field.
type referralBody struct {
	Code          string          `json:"code"`
	Owner         string          `json:"owner"`
	DiscountBps   json.RawMessage `json:"discountBps"`
	CommissionBps json.RawMessage `json:"commissionBps"`
	Parent        *string         `json:"parent"`
	ParentBps     json.RawMessage `json:"parentBps"`
	ExpiresAt     *string         `json:"expiresAt"`
	Enabled       *bool           `json:"enabled"`
}

func (b referralBody) input() sale.ReferralInput {
	raw := func(m json.RawMessage) string {
		if s := string(m); s != "null" {
			return s
		}
		return ""
	}
	deref := func(s *string) string {
		if s == nil {
			return ""
		}
		return *s
	}
	return sale.ReferralInput{Code: b.Code, Owner: b.Owner, DiscountBps: raw(b.DiscountBps), CommissionBps: raw(b.CommissionBps),
		Parent: deref(b.Parent), ParentBps: raw(b.ParentBps), ExpiresAt: deref(b.ExpiresAt), Enabled: b.Enabled}
}

// referralJSON is a partner code as the admin API answers it.
type referralJSON struct {
	Code          string     `json:"code"`
	Owner         string     `json:"owner"`
	DiscountBps   int        `json:"discountBps"`
	CommissionBps int        `json:"commissionBps"`
	Parent        *string    `json:"parent"`
	ParentBps     *int       `json:"parentBps"`
	ExpiresAt     *time.Time `json:"expiresAt"`
	Enabled       bool       `json:"enabled"`
}

func referralOf(r store.ReferralCode) referralJSON {
	return referralJSON{Code: r.Code, Owner: r.Owner, DiscountBps: r.DiscountBps, CommissionBps: r.CommissionBps,
		Parent: r.Parent, ParentBps: r.ParentBps, ExpiresAt: r.ExpiresAt, Enabled: r.Enabled}
}

var (
	errNoReferralCode        = errorf(http.StatusNotFound, "No referral code has this name.")
	errReferralCodeMalformed = errorf(http.StatusBadRequest, "A referral code cannot hold control characters (such as NUL) or bytes that are not UTF-8: "+
		"it is letters, digits, _ and -, or a wallet's address.")
)

// readReferral reads and checks a body's code.
func readReferral(c echo.Context) (store.ReferralCode, error) {
	var b referralBody
	if err := decodeBody(c, &b); err != nil {
		return store.ReferralCode{}, err
	}
	if c.Request().Method == http.MethodPut {
		// The path names the code: the body may leave it out, or repeat it in any case.
		if b.Code != "" && !strings.EqualFold(b.Code, c.Param("code")) {
			return store.ReferralCode{}, errorf(http.StatusBadRequest, "code must be the code the path names: a code cannot be renamed.")
		}
		b.Code = c.Param("code")
	}
	r, problem := sale.ReadReferralCode(b.input())
	if problem != "" {
		return r, errorf(http.StatusBadRequest, problem)
	}
	return r, nil
}

// referralOutcome is the audit's outcome of a saved code.
func referralOutcome(r store.ReferralCode) store.AuditOutcome {
	return store.AuditOutcome{Code: store.OutcomeReferralCodeSaved, Args: store.AuditArgs{Code: r.Code, Address: r.Owner,
		DiscountBps: r.DiscountBps, CommissionBps: r.CommissionBps, Parent: r.Parent, ParentBps: r.ParentBps,
		Until: r.ExpiresAt, Enabled: r.Enabled}}
}

// AddReferralCode answers POST /api/admin/referral-codes: 201 with the code as stored, 409 when
// its name is taken in any case.
func (h *Handlers) AddReferralCode(c echo.Context) error {
	r, err := readReferral(c)
	if err != nil {
		return err
	}
	saved, err := h.addReferral(c, r)
	if errors.Is(err, store.ErrCodeTaken) {
		return errorf(http.StatusConflict, codeTaken(r.Code)+" change it with PUT.")
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, referralOf(saved))
}

// addReferral stores new code r, audited, for the admin API and the operator page;
// store.ErrCodeTaken when its name is taken in any case.
func (h *Handlers) addReferral(c echo.Context, r store.ReferralCode) (store.ReferralCode, error) {
	var saved store.ReferralCode
	err := h.audited(c, store.ActionReferralAdd, r.Code, func(t store.Tx, e *store.AuditEntry) error {
		var err error
		saved, err = t.AddReferralCode(c.Request().Context(), r, h.actor(c).Who)
		e.After = referralOf(saved)
		e.Outcome = referralOutcome(saved)
		return err
	})
	return saved, err
}

// codeTaken is the start of the sentence that refuses a new code whose name is taken: each edge
// says how it changes the code instead.
func codeTaken(code string) string {
	return "The referral code " + code + " exists already (codes are the same in any case):"
}

// PutReferralCode answers PUT /api/admin/referral-codes/{code}: replaces every term of the code,
// in force from this second (payments before keep the terms they were made under).
func (h *Handlers) PutReferralCode(c echo.Context) error {
	r, err := readReferral(c)
	if err != nil {
		return err
	}
	after, err := h.putReferral(c, r)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, referralOf(after))
}

// putReferral replaces the terms of code r.Code with r's, audited, for the admin API and the
// operator page; 404 when there is no such code.
func (h *Handlers) putReferral(c echo.Context, r store.ReferralCode) (store.ReferralCode, error) {
	var after store.ReferralCode
	err := h.audited(c, store.ActionReferralPut, r.Code, func(t store.Tx, e *store.AuditEntry) error {
		before, a, err := t.PutReferralCode(c.Request().Context(), r.Code, r, h.actor(c).Who)
		after = a
		e.Before, e.After = referralOf(before), referralOf(after)
		e.Target = after.Code
		e.Outcome = referralOutcome(after)
		return err
	})
	return after, notFound(err, errNoReferralCode)
}

// referralStatsJSON is a code as GET /api/admin/referral-codes lists it: its terms and how it
// was used, the amounts in wei as decimal strings and, beside them, in each token paid under it.
type referralStatsJSON struct {
	referralJSON
	Uses int `json:"uses"`
	figuresJSON
	DiscountWei    store.Uint256       `json:"discountWei"`
	DiscountTokens []store.TokenAmount `json:"discountTokens"`
}

// figuresJSON are what a code's minted payments paid and what its referrers (all of them, or one)
// are owed and were paid: in wei, and beside them in each token paid under the code.
type figuresJSON struct {
	VolumeWei    store.Uint256       `json:"volumeWei"`
	OwedWei      store.Uint256       `json:"owedWei"`
	PaidWei      store.Uint256       `json:"paidWei"`
	VolumeTokens []store.TokenAmount `json:"volumeTokens"`
	OwedTokens   []store.TokenAmount `json:"owedTokens"`
	PaidTokens   []store.TokenAmount `json:"paidTokens"`
}

func figuresOf(s store.CodeStats) figuresJSON {
	return figuresJSON{VolumeWei: s.Volume.ETH, OwedWei: s.Owed.ETH, PaidWei: s.Paid.ETH,
		VolumeTokens: tokensOf(s.Volume), OwedTokens: tokensOf(s.Owed), PaidTokens: tokensOf(s.Paid)}
}

// ReferralCodes answers GET /api/admin/referral-codes: every partner code with its figures.
func (h *Handlers) ReferralCodes(c echo.Context) error {
	rs, err := h.referralCodes(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"codes": mapSlice(rs, func(r views.ReferralRow) referralStatsJSON {
		s := r.Stats
		return referralStatsJSON{referralJSON: referralOf(r.ReferralCode), Uses: s.Uses, figuresJSON: figuresOf(s),
			DiscountWei: s.Discount.ETH, DiscountTokens: tokensOf(s.Discount)}
	})})
}

// referralCodes are the partner codes, by name, each with its figures (zero for a code no minted
// payment used), for the admin API and the operator page.
func (h *Handlers) referralCodes(ctx context.Context) ([]views.ReferralRow, error) {
	rs, err := h.store.ReferralCodes(ctx)
	if err != nil {
		return nil, err
	}
	stats, err := h.store.ReferralStats(ctx)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	return mapSlice(rs, func(r store.ReferralCode) views.ReferralRow {
		s, ok := stats[store.CodeKey(r.Code)]
		if !ok {
			s = store.CodeStats{Volume: store.NoAmounts(), Discount: store.NoAmounts(), Owed: store.NoAmounts(), Paid: store.NoAmounts()}
		}
		s.Code = r.Code
		return views.ReferralRow{ReferralCode: r, Stats: s, Expired: r.ExpiresAt != nil && !now.Before(*r.ExpiresAt)}
	}), nil
}

// publicReferralJSON is what anyone may learn of a code: never its owner nor what it earns.
type publicReferralJSON struct {
	Code        string     `json:"code"`
	Valid       bool       `json:"valid"`
	DiscountBps int        `json:"discountBps"`
	ExpiresAt   *time.Time `json:"expiresAt"`
}

// Referral answers GET /api/referrals/{code}: a partner code, or a wallet's address, which is a
// code while the wallet holds a node, with the REFERRAL_DISCOUNT_BPS discount.
func (h *Handlers) Referral(c echo.Context) error {
	t, valid, err := h.sale.Code(c.Request().Context(), "", c.Param("code"), time.Now())
	if errors.Is(err, sale.ErrNoCode) {
		return errNoReferralCode
	}
	if errors.Is(err, sale.ErrCodeMalformed) {
		return errReferralCodeMalformed
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, publicReferralJSON{Code: t.Code, Valid: valid, DiscountBps: t.DiscountBps, ExpiresAt: t.ExpiresAt})
}

// BindReferral answers POST /api/referrals/bind {code} for the signed-in wallet: from this second
// its payments are judged under the code (a partner code, or a node holder's address), until it
// binds another. 200 {code, discountBps, boundAt}; 404 for an unknown code, 409 for the wallet's
// own code or one that gives nothing now.
func (h *Handlers) BindReferral(c echo.Context) error {
	wallet, err := h.sessionAddress(c)
	if err != nil {
		return err
	}
	var b struct {
		Code string `json:"code"`
	}
	if err := decodeBody(c, &b); err != nil {
		return err
	}
	if b.Code = strings.TrimSpace(b.Code); b.Code == "" {
		return errorf(http.StatusBadRequest, "code is required: a referral code, or the address of a wallet that holds a node.")
	}
	t, binding, err := h.sale.Bind(c.Request().Context(), wallet, b.Code, h.sessionSignIn(c))
	switch {
	case errors.Is(err, sale.ErrNoCode):
		return errNoReferralCode
	case errors.Is(err, sale.ErrCodeMalformed):
		return errReferralCodeMalformed
	case errors.Is(err, sale.ErrSelfReferral):
		return errorf(http.StatusConflict, "The code "+t.Code+" is your own: a wallet cannot earn from its own purchase, so it cannot use a code it owns or earns from.")
	case errors.Is(err, sale.ErrCodeNotValid):
		return errorf(http.StatusConflict, codeNotValid(t, time.Now()))
	case err != nil:
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"code": t.Code, "discountBps": t.DiscountBps, "boundAt": store.APITime(&binding.BoundAt)})
}

// codeNotValid is why code t gives nothing at now.
func codeNotValid(t sale.Terms, now time.Time) string {
	switch {
	case t.Code == t.Owner:
		return "The wallet " + t.Code + " holds no node, so its address is not a referral code yet."
	case t.ExpiresAt != nil && !now.Before(*t.ExpiresAt):
		return "The code " + t.Code + " expired on " + t.ExpiresAt.UTC().Format("2 January 2006 at 15:04 UTC") + "."
	}
	return "The code " + t.Code + " is switched off: ask whoever gave it to you for another."
}
