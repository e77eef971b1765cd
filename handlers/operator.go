package handlers

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"nodeledger/chain"
	"nodeledger/jobs"
	"nodeledger/jobs/sale"
	"nodeledger/store"
	"nodeledger/views"
)

// OperatorPage answers GET /operator: the wallet sign-in, or the operator's dashboard as their
// role shows it.
func (h *Handlers) OperatorPage(c echo.Context) error {
	me, err := h.operatorSession(c)
	if errors.Is(err, store.ErrNotFound) {
		return render(c, http.StatusOK, views.OperatorSignIn(h.cfg.DevAdmin, "/operator"))
	}
	if err != nil {
		return err
	}
	if !me.Role.AtLeast(store.RoleViewer) { // a signer: the treasury's batches, and nothing else
		batches, err := h.openBatches(c.Request().Context())
		if err != nil {
			return err
		}
		return render(c, http.StatusOK, views.OperatorSigner(me.Address, batches))
	}
	return h.renderOperator(c, http.StatusOK, operatorDraft{outcome: h.takeOutcome(c)})
}

// OperatorAction wraps an operator action (RequireOperator lets only a signed-in operator of the
// right role through): htmx gets the fragment with the action's outcome, a plain form post a 303
// to /operator (Post/Redirect/Get, so a refresh never posts again) that shows the outcome once.
func (h *Handlers) OperatorAction(act func(c echo.Context) (string, error)) echo.HandlerFunc {
	return func(c echo.Context) error {
		outcome, err := act(c)
		if err != nil {
			return err
		}
		if c.Request().Header.Get("HX-Request") == "true" {
			return render(c, http.StatusOK, views.OperatorOutcome(outcome))
		}
		return h.redirectWithOutcome(c, outcome)
	}
}

// operatorDraft is what the dashboard shows of the action at hand: the outcome of the last one,
// a tier form that came back (nil: empty or, with ?edit=id, the tier to edit), an allowlist or
// denylist preview (nil: the upload form).
type operatorDraft struct {
	outcome     string
	form        *views.TierForm
	allowlist   *views.AllowlistPreview
	denylist    *views.DenylistPreview // a denylist upload being previewed
	webhookForm views.WebhookForm      // the add-webhook form, as posted when it came back refused
	secret      *views.WebhookSecret   // a webhook secret made or rolled by this action
	// referralForm is the referral form that came back refused; nil: empty or, with
	// ?referral=code, the code to change.
	referralForm *views.ReferralForm
}

// renderOperator renders the dashboard with d.
func (h *Handlers) renderOperator(c echo.Context, status int, d operatorDraft) error {
	ctx := c.Request().Context()
	me, err := h.operatorSession(c)
	if err != nil {
		return err
	}
	o := views.Operator{Outcome: d.outcome, AllowlistPreview: d.allowlist, WebhookForm: d.webhookForm, WebhookSecret: d.secret,
		Me: store.Operator{Address: me.Address, Role: me.Role}, CSRF: me.CSRF, DevAdmin: h.cfg.DevAdmin, PaymentAddress: h.cfg.PaymentAddress,
		Factory: strings.ToLower(h.chain.Factory().Hex()), SetTierWeight: h.chain.SetTierWeightSelector()}
	if o.Operators, err = h.store.Operators(ctx); err != nil {
		return err
	}
	audit, err := h.store.AuditLog(ctx, operatorPageAudit)
	if err != nil {
		return err
	}
	o.Audit = mapSlice(audit, func(r store.AuditRecord) views.AuditRow {
		return views.AuditRow{AuditRecord: r, Told: auditRowSentence(r)}
	})
	tiers, err := h.sale.TiersNow(ctx)
	if err != nil {
		return err
	}
	if o.USD, err = h.price.Get(ctx); err != nil {
		return err
	}
	if o.Tiers, err = h.operatorTiers(ctx, tiers, o.USD); err != nil {
		return err
	}
	o.AllowlistTier, _ = strconv.Atoi(c.QueryParam("allowlist"))
	if d.allowlist != nil {
		o.AllowlistTier = d.allowlist.Tier
	}
	refunds, total, err := h.store.RefundsOwed(ctx, operatorPageRefunds)
	if err != nil {
		return err
	}
	o.RefundsTotal = total
	if o.RefundsOwed, err = h.store.RefundsOwedAmounts(ctx); err != nil {
		return err
	}
	o.Refunds = mapSlice(refunds, func(p store.Payment) views.Refund {
		return views.Refund{TxHash: p.TxHash, CreatedAt: p.CreatedAt, From: p.From, ValueWei: p.ValueWei, InToken: h.inToken(p),
			Reason: sale.Sentence(p.Reason)}
	})
	if o.Batches, err = h.openBatches(ctx); err != nil {
		return err
	}
	if o.Held, err = h.store.MintingHeld(ctx); err != nil {
		return err
	}
	if o.Screening, err = h.screeningView(ctx, d.denylist); err != nil {
		return err
	}
	o.Treasury = h.treasuryView(ctx)
	if o.Unattributed, err = h.store.UnattributedInflows(ctx, 20); err != nil {
		return err
	}
	if o.Unexplained, err = h.store.UnexplainedOutflows(ctx, 20); err != nil {
		return err
	}
	if o.Webhooks, err = h.webhooksView(ctx); err != nil {
		return err
	}
	if o.Referrals, err = h.referralCodes(ctx); err != nil {
		return err
	}
	if d.referralForm != nil {
		o.ReferralForm = *d.referralForm
	} else {
		o.ReferralForm = referralForm(o.Referrals, c.QueryParam("referral"))
	}
	if o.CommissionsOwed, err = h.commissionsOwed(ctx); err != nil {
		return err
	}
	if d.form != nil {
		o.TierForm = *d.form
	} else {
		o.TierForm = tierForm(tiers, c.QueryParam("edit"), h.sale.Tokens())
	}
	o.TierForm.Tiers = mapSlice(tiers, func(t sale.TierNow) store.Tier { return t.Tier })
	o.TierForm.Factory, o.TierForm.SetTierWeight = o.Factory, o.SetTierWeight
	for _, t := range tiers {
		if strconv.Itoa(t.ID) == o.TierForm.ID && o.TierForm.Editing {
			o.TierForm.ChainBps = t.PayoutBps
		}
	}
	if o.Service, err = h.service(ctx); err != nil {
		return err
	}
	if o.Live, err = h.saleLive(ctx); err != nil {
		return err
	}
	return render(c, status, views.OperatorPage(o))
}

// operatorPageRefunds is how many of the latest payments owed a refund the operator page lists;
// "Refund all owed" takes every one.
const operatorPageRefunds = 100

// operatorPageAudit is how many of the latest audit entries the operator page lists.
const operatorPageAudit = 50

// The drift check reads nodeInfo for each of up to driftNodes nodes, one after another, and the
// blocks of the recent minted payments: on a slow RPC that is seconds, so the page loads it on
// its own (GET /operator/drift) and it gives up after driftTimeout, which a person still waits.
const (
	driftNodes   = 200
	driftTimeout = 10 * time.Second
)

// OperatorDrift answers GET /operator/drift: the ledger against the chain, the htmx partial the
// operator page loads once shown (a page of its own without htmx). A check that fails is a
// sentence in the partial, not an error page, so the rest of the dashboard stays usable.
func (h *Handlers) OperatorDrift(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), driftTimeout)
	defer cancel()
	var d *views.Drift
	var problem string
	if rep, err := h.jobs.Drift(ctx, 0, driftNodes); err != nil {
		h.log.Warn("drift check failed", "err", err)
		problem = driftProblem(err, errors.Is(ctx.Err(), context.DeadlineExceeded))
	} else {
		d = driftView(rep)
	}
	if c.Request().Header.Get("HX-Request") == "true" {
		return render(c, http.StatusOK, views.OperatorDrift(d, problem))
	}
	return render(c, http.StatusOK, views.OperatorDriftPage(d, problem))
}

// driftProblem says why the drift check failed, in the operator's terms, and what to do; the
// detail went to the log. timedOut is the check's own deadline passing: an RPC call's own
// timeout also wraps context.DeadlineExceeded, but that is an unreachable chain.
func driftProblem(err error, timedOut bool) string {
	switch {
	case timedOut:
		return "The drift check could not read the chain within " + driftTimeout.String() + ": the RPC (or the database) answers too slowly. " +
			"Check again in a little while; GET /api/admin/drift reads the report a page of nodes at a time."
	case errors.Is(err, store.ErrUnavailable):
		return "The drift check could not read the ledger: the database cannot be reached right now. Check again in a little while."
	case errors.Is(err, chain.ErrUnavailable):
		return "The drift check could not read the chain: the RPC cannot be reached right now. " +
			"Check again in a little while; if it persists, check the node ETH_RPC_URL names."
	default:
		return "The drift check could not finish: something unexpected failed. " +
			"Check again; if it persists, the server log says what under \"drift check failed\"."
	}
}

// driftView is a drift report as the operator page shows it.
func driftView(rep jobs.DriftReport) *views.Drift {
	d := &views.Drift{Checked: rep.Checked, Unattributed: rep.Unattributed + rep.Unexplained}
	for _, n := range rep.Nodes {
		d.Nodes = append(d.Nodes, views.NodeDrift{ChainNodeID: n.ChainNodeID, Field: n.Field, Ledger: n.Ledger, Chain: n.Chain})
	}
	for _, p := range rep.Payments {
		d.Payments = append(d.Payments, p.TxHash)
	}
	return d
}

// RunPayments and RunCredit are the operator's buttons for the passes: the same functions the
// runner ticks and the cron routes run, told as sentences.
func (h *Handlers) RunPayments(c echo.Context) (string, error) {
	// Detached like the cron routes' passes; the pass bounds its own time.
	ctx := context.WithoutCancel(c.Request().Context())
	sum, err := h.jobs.Payments(ctx)
	if err != nil {
		return "", h.auditPass(c, store.ActionPassPayments, store.AuditOutcome{}, err)
	}
	var scan *jobs.ScanState
	if s, err := h.jobs.ScanState(ctx); err == nil {
		scan = &s
	}
	outcome, err := paymentsPassOutcome(sum, scan, time.Now())
	if err != nil {
		return "", err
	}
	return auditSentence(outcome), h.auditPass(c, store.ActionPassPayments, outcome, nil)
}

// RunCredit is the credit pass button.
func (h *Handlers) RunCredit(c echo.Context) (string, error) {
	sum, err := h.jobs.Credit(context.WithoutCancel(c.Request().Context()))
	if err != nil {
		return "", h.auditPass(c, store.ActionPassCredit, store.AuditOutcome{}, err)
	}
	outcome, err := creditPassOutcome(sum)
	if err != nil {
		return "", err
	}
	return auditSentence(outcome), h.auditPass(c, store.ActionPassCredit, outcome, nil)
}

// auditPass records a pass run from the page with what it did, or that it failed (passErr,
// which it returns). A pass commits its own transactions as it goes, so its entry follows it.
func (h *Handlers) auditPass(c echo.Context, action store.AuditAction, outcome store.AuditOutcome, passErr error) error {
	if passErr != nil {
		outcome = passFailure(passErr)
	}
	h.sale.Forget()
	ctx := context.WithoutCancel(c.Request().Context())
	err := h.store.Audited(ctx, h.entry(c, "", action, ""), func(_ store.Tx, e *store.AuditEntry) error {
		e.Outcome = outcome
		return nil
	})
	return errors.Join(passErr, err)
}

// HoldMintingFromPage is the operator page's hold and release of minting.
func (h *Handlers) HoldMintingFromPage(c echo.Context) (string, error) {
	held := c.FormValue("held") == "true"
	return h.holdMinting(c, held)
}

// holdMinting holds or resumes minting, audited, for the page and the admin API: what it did,
// as a sentence.
func (h *Handlers) holdMinting(c echo.Context, held bool) (string, error) {
	ctx := c.Request().Context()
	outcome, action := store.AuditOutcome{Code: store.OutcomeMintingResumed}, store.ActionMintingResume
	if held {
		outcome, action = store.AuditOutcome{Code: store.OutcomeMintingHeld}, store.ActionMintingHold
	}
	err := h.sale.HoldMinting(ctx, h.entry(c, "", action, ""), held, func(e *store.AuditEntry, before bool) {
		e.Before, e.After, e.Outcome = map[string]bool{"held": before}, map[string]bool{"held": held}, outcome
	})
	return auditSentence(outcome), err
}
