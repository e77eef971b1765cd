package handlers

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/labstack/echo/v4"

	"nodeledger/jobs/sale"
	"nodeledger/store"
)

// The screening (issue 52): the admin API's view of it, the held payments and their release, and
// the operator's denylist. The judgement itself is jobs/sale's (screen).

// Compliance answers GET /api/admin/compliance: what the screening is set to and what it holds.
func (h *Handlers) Compliance(c echo.Context) error {
	ctx := c.Request().Context()
	held, err := h.store.HeldCounts(ctx)
	if err != nil {
		return err
	}
	v, _, err := h.store.Denylist(ctx)
	if err != nil {
		return err
	}
	var oracle *string
	if o := h.chain.SanctionsOracle(); o != (common.Address{}) {
		s := strings.ToLower(o.Hex())
		oracle = &s
	}
	counts := map[string]int{}
	for _, code := range []store.ReasonCode{sale.Sanctioned, sale.Denylisted, sale.KYCRequired} {
		counts[string(code)] = held[code]
	}
	var provider *store.KYCProvider
	if p := h.cfg.KYC.Provider; p != "" {
		provider = &p
	}
	return c.JSON(http.StatusOK, map[string]any{"sanctionsOracle": oracle, "denylisted": v.Rows, "kycProvider": provider,
		"kycHoldDays": int(h.sale.KYCHold() / (24 * time.Hour)), "held": counts})
}

// heldPaymentJSON is a held payment as the admin API and the operator page list it: the operator reads
// which screening held it (the payer does not).
func heldPaymentJSON(p store.HeldPayment) map[string]any {
	out := paymentRowJSON(p.Payment)
	out["screening"], out["releasedTo"] = heldLabel(p.Reason), p.ReleasedTo
	return out
}

// heldLabel names the screening that held a payment, for the operator.
func heldLabel(r *store.Reason) string {
	if r == nil {
		return ""
	}
	return sale.Entry(r.Code).Label
}

// HeldPayments answers GET /api/admin/held-payments?limit=: the payments the screening holds,
// oldest first.
func (h *Handlers) HeldPayments(c echo.Context) error {
	limit, err := parseLimit(c.QueryParam("limit"), c.QueryParams().Has("limit"), 100, 1000)
	if err != nil {
		return err
	}
	ps, err := h.store.HeldPayments(c.Request().Context(), limit)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, mapSlice(ps, heldPaymentJSON))
}

// maxReleaseReason bounds the words an admin gives for a release (payment_releases' CHECK).
const maxReleaseReason = 500

// ReleasePayment answers POST /api/admin/held-payments/{id}/release, body {"to": "mint" |
// "refund", "reason": "…"}: an admin releases a held payment, audited, and the next payments
// pass judges it again (released to be minted, without the screening; to be refunded, rejected
// for its hold). 404: no such payment; 409: it is not held, or is released already.
func (h *Handlers) ReleasePayment(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		return errorf(http.StatusBadRequest, "The payment id must be a whole number, as GET /api/admin/held-payments lists it.")
	}
	var body struct {
		To     store.ReleaseTo `json:"to"`
		Reason string          `json:"reason"`
	}
	if err := decodeBody(c, &body); err != nil {
		return err
	}
	p, err := h.releasePayment(c, id, body.To, body.Reason)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"payment": heldPaymentJSON(store.HeldPayment{Payment: p, ReleasedTo: &body.To}),
		"to": body.To, "reason": strings.TrimSpace(body.Reason)})
}

// releasePayment releases held payment id to `to` for reason, audited, for the admin API and the
// operator page; it returns the payment as it was held.
func (h *Handlers) releasePayment(c echo.Context, id int64, to store.ReleaseTo, reason string) (store.Payment, error) {
	reason = strings.TrimSpace(reason)
	switch {
	case to != store.ReleaseToMint && to != store.ReleaseToRefund:
		return store.Payment{}, errorf(http.StatusBadRequest, `to must be "mint" (judge it again without the screening) or "refund" (owe its refund).`)
	case reason == "" || len(reason) > maxReleaseReason:
		return store.Payment{}, errorf(http.StatusBadRequest, fmt.Sprintf("A release needs a reason, up to %d characters: it is kept in the audit and the settings log.", maxReleaseReason))
	}
	var held store.Payment
	err := h.audited(c, store.ActionPaymentRelease, strconv.FormatInt(id, 10), func(tx store.Tx, e *store.AuditEntry) error {
		var err error
		held, err = tx.ReleasePayment(c.Request().Context(), id, store.Release{To: to, Reason: reason, By: h.actor(c).Who})
		if err != nil {
			return err
		}
		e.Before, e.After = map[string]any{"status": store.PaymentHeld, "reasonCode": held.Reason.Code}, map[string]any{"releasedTo": to}
		e.Outcome = releaseOutcome(held, to, reason)
		return nil
	})
	switch {
	case errors.Is(err, store.ErrNotFound):
		return held, errorf(http.StatusNotFound, fmt.Sprintf("There is no payment %d.", id))
	case errors.Is(err, store.ErrNotHeld):
		return held, errorf(http.StatusConflict, fmt.Sprintf("Payment %d is not held, or its release is recorded already: a release is decided once.", id))
	}
	if err == nil {
		h.sale.Forget()
	}
	return held, err
}

// releaseOutcome is the audit's outcome of the release of held payment p to `to` for reason.
func releaseOutcome(p store.Payment, to store.ReleaseTo, reason string) store.AuditOutcome {
	return store.AuditOutcome{Code: store.OutcomePaymentReleased, Args: store.AuditArgs{Payment: p.TxHash, Address: p.From,
		HeldFor: p.Reason.Code, ReleaseTo: to, Reason: reason}}
}

// PutDenylist answers PUT /api/admin/denylist: a text/csv body of `address,reason` lines
// (store.ParseWalletReasons) replaces the operator's denylist from now on, audited. A line that
// cannot be read refuses the whole upload (400, naming the line).
func (h *Handlers) PutDenylist(c echo.Context) error {
	if err := csvUpload(c, "A denylist is sent as text/csv: one address,reason line per wallet."); err != nil {
		return err
	}
	entries, err := store.ParseWalletReasons(c.Request().Body)
	if err != nil {
		return denylistError(err)
	}
	v, err := h.replaceDenylist(c, entries)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"rows": v.Rows, "effectiveAt": isoTime(&v.EffectiveAt)})
}

// replaceDenylist makes entries the denylist from now on, audited, for the admin API and the
// operator page.
func (h *Handlers) replaceDenylist(c echo.Context, entries []store.WalletReason) (store.DenylistVersion, error) {
	var v store.DenylistVersion
	err := h.audited(c, store.ActionDenylistPut, "", func(tx store.Tx, e *store.AuditEntry) (err error) {
		if v, err = tx.ReplaceDenylist(c.Request().Context(), h.actor(c).Who, entries); err != nil {
			return err
		}
		e.After = map[string]any{"rows": v.Rows}
		e.Outcome = store.AuditOutcome{Code: store.OutcomeDenylistSaved, Args: store.AuditArgs{Wallets: v.Rows}}
		return nil
	})
	if err == nil {
		h.sale.Forget()
	}
	return v, err
}

// Denylist answers GET /api/admin/denylist: the denylist in force, with every entry.
func (h *Handlers) Denylist(c echo.Context) error {
	v, entries, err := h.store.Denylist(c.Request().Context())
	if err != nil {
		return err
	}
	var at *string
	if !v.EffectiveAt.IsZero() {
		at = isoTime(&v.EffectiveAt)
	}
	return c.JSON(http.StatusOK, map[string]any{"effectiveAt": at, "rows": v.Rows, "entries": entries})
}

// denylistError is the 400 of a denylist upload that cannot be read, naming its line, or the 413
// of one too large; any other error as it is.
func denylistError(err error) error { return listError(err, denylistProblem) }

// denylistProblem says what is wrong with a line of a denylist upload.
func denylistProblem(le *store.AllowlistLineError) string {
	return listProblem(le, "a denylist", "an address and a reason separated by a comma, such as 0x…,fraud report")
}
