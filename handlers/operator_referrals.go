package handlers

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"nodeledger/jobs/sale"
	"nodeledger/store"
	"nodeledger/views"
)

// SaveReferralFromPage answers POST /operator/referral-codes, an admin's: the referral form,
// read by sale.ReadReferralCode as the admin API's body is and saved by the same audited calls
// (addReferral, or putReferral when it edits a code). A refused form comes back with the
// sentence that refused it (nothing was stored, so posting it again changes nothing); a saved one
// is redirected like every action, with the audit's sentence.
func (h *Handlers) SaveReferralFromPage(c echo.Context) error {
	field := func(name string) string { return strings.TrimSpace(c.FormValue(name)) }
	f := views.ReferralForm{Editing: c.FormValue("editing") == "true", Code: field("code"), Owner: field("owner"),
		Discount: field("discount"), Commission: field("commission"), Parent: field("parent"),
		ParentCommission: field("parentCommission"), Expires: field("expires"), Enabled: c.FormValue("enabled") == "true"}
	r, problem := sale.ReadReferralCode(sale.ReferralInput{Code: f.Code, Owner: f.Owner, DiscountBps: f.Discount,
		CommissionBps: f.Commission, Parent: f.Parent, ParentBps: f.ParentCommission, ExpiresAt: f.Expires, Enabled: &f.Enabled, Form: true})
	if problem != "" {
		f.Problem = problem
		return h.renderOperator(c, http.StatusUnprocessableEntity, operatorDraft{referralForm: &f})
	}
	var saved store.ReferralCode
	var err error
	if f.Editing {
		saved, err = h.putReferral(c, r)
	} else {
		saved, err = h.addReferral(c, r)
	}
	switch {
	case errors.Is(err, store.ErrCodeTaken):
		f.Problem = codeTaken(r.Code) + " change it with Edit in its row."
		return h.renderOperator(c, http.StatusConflict, operatorDraft{referralForm: &f})
	case errors.Is(err, errNoReferralCode):
		// Its row's Edit opened the form, and the code is gone since: only a crafted post names
		// another, as the hidden field cannot be typed.
		f.Problem = "There is no referral code " + r.Code + " to change: add it as a new code."
		f.Editing = false
		return h.renderOperator(c, http.StatusNotFound, operatorDraft{referralForm: &f})
	case err != nil:
		return err
	}
	return h.redirectWithOutcome(c, auditSentence(referralOutcome(saved)))
}

// referralForm is the referral form filled with the code edit names (any case), or empty for a
// new code, switched on.
func referralForm(rows []views.ReferralRow, edit string) views.ReferralForm {
	for _, r := range rows {
		if edit == "" || store.CodeKey(r.Code) != store.CodeKey(edit) {
			continue
		}
		f := views.ReferralForm{Editing: true, Code: r.Code, Owner: r.Owner, Discount: sale.PercentField(r.DiscountBps),
			Commission: sale.PercentField(r.CommissionBps), Enabled: r.Enabled, Expires: sale.FormTime(r.ExpiresAt)}
		if r.Parent != nil && r.ParentBps != nil {
			f.Parent, f.ParentCommission = *r.Parent, sale.PercentField(*r.ParentBps)
		}
		return f
	}
	return views.ReferralForm{Enabled: true}
}

// commissionsOwed is what the referrers are owed in all, in each currency: the commissions no
// executed batch paid.
func (h *Handlers) commissionsOwed(ctx context.Context) (store.Amounts, error) {
	owed, err := h.store.Commissions(ctx, store.CommissionOwed)
	sum := store.NoAmounts()
	for _, c := range owed {
		if c.InToken != nil {
			sum.Add(store.Amounts{Tokens: []store.TokenAmount{*c.InToken}})
		} else {
			sum.Add(store.Amounts{ETH: c.AmountWei})
		}
	}
	return sum, err
}
