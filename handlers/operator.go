package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"nodeledger/jobs"
	"nodeledger/views"
)

const (
	// operatorCookie is the operator's session, signed like the wallet sessions.
	operatorCookie = "nl_operator"
	operatorTTL    = 12 * time.Hour
)

// RequireOperatorPage gates the operator page: with no ADMIN_KEY it does not exist (404). Its
// forms post only from our own origin; the session cookie is SameSite=Lax, so a cross-site form
// post arrives without it.
func (h *Handlers) RequireOperatorPage(next echo.HandlerFunc) echo.HandlerFunc {
	ours := h.cfg.PublicURL.Scheme + "://" + h.cfg.PublicURL.Host
	return func(c echo.Context) error {
		if h.cfg.AdminKey == "" {
			return echo.ErrNotFound
		}
		if origin := c.Request().Header.Get("Origin"); c.Request().Method == http.MethodPost && origin != "" && origin != ours {
			return errorf(http.StatusForbidden, "Cross-site requests are not accepted here.")
		}
		return next(c)
	}
}

// operatorSignedIn reports whether the request carries a live operator session.
func (h *Handlers) operatorSignedIn(c echo.Context) bool {
	s, err := h.sessions.Get(c.Request(), operatorCookie)
	if err != nil || s.IsNew {
		return false
	}
	exp, ok := s.Values["exp"].(int64)
	return ok && time.Now().Unix() < exp
}

// OperatorPage answers GET /operator: the sign-in form, or the operator's dashboard.
func (h *Handlers) OperatorPage(c echo.Context) error {
	if !h.operatorSignedIn(c) {
		return render(c, http.StatusOK, views.OperatorSignIn(""))
	}
	return h.renderOperator(c, "")
}

// OperatorLogin answers POST /operator/login (a form with the admin key).
func (h *Handlers) OperatorLogin(c echo.Context) error {
	if !keyMatches(c.FormValue("key"), h.cfg.AdminKey) {
		return render(c, http.StatusUnauthorized, views.OperatorSignIn("That key is not the operator's."))
	}
	s, _ := h.sessions.New(c.Request(), operatorCookie)
	s.Options.MaxAge = int(operatorTTL.Seconds())
	s.Values["exp"] = time.Now().Add(operatorTTL).Unix()
	if err := s.Save(c.Request(), c.Response()); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/operator")
}

// OperatorLogout answers POST /operator/logout.
func (h *Handlers) OperatorLogout(c echo.Context) error {
	c.SetCookie(h.cookie(operatorCookie, "", -time.Second))
	return c.Redirect(http.StatusSeeOther, "/operator")
}

// OperatorAction wraps an operator action: a signed-in operator only; htmx gets the fragment the
// action renders, a plain form post the whole page with its outcome.
func (h *Handlers) OperatorAction(act func(c echo.Context) (string, error)) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !h.operatorSignedIn(c) {
			return errorf(http.StatusUnauthorized, "Sign in as the operator first.")
		}
		outcome, err := act(c)
		if err != nil {
			return err
		}
		if c.Request().Header.Get("HX-Request") == "true" {
			return render(c, http.StatusOK, views.OperatorOutcome(outcome))
		}
		return h.renderOperator(c, outcome)
	}
}

// RunPayments and RunCredit are the operator's buttons for the passes: the same functions the
// runner ticks and the cron routes run.
func (h *Handlers) RunPayments(c echo.Context) (string, error) {
	return runForOperator(c, "Payments", h.jobs.Payments)
}

// RunCredit is the credit pass button.
func (h *Handlers) RunCredit(c echo.Context) (string, error) {
	return runForOperator(c, "Credit", h.jobs.Credit)
}

func runForOperator[S any](c echo.Context, name string, pass func(context.Context) (S, error)) (string, error) {
	// Detached like the cron routes' passes; the pass bounds its own time.
	sum, err := pass(context.WithoutCancel(c.Request().Context()))
	if err != nil {
		return "", err
	}
	doc, _ := json.Marshal(sum)
	return fmt.Sprintf("%s pass: %s", name, doc), nil
}

// HoldMintingFromPage is the operator page's hold and release of minting.
func (h *Handlers) HoldMintingFromPage(c echo.Context) (string, error) {
	held := c.FormValue("held") == "true"
	if err := h.store.HoldMinting(c.Request().Context(), held); err != nil {
		return "", err
	}
	if held {
		return "Minting is held: payments are recorded and wait.", nil
	}
	return "Minting goes on.", nil
}

// SetTierOnSale is the operator's on/off-sale toggle of a tier.
func (h *Handlers) SetTierOnSale(c echo.Context) (string, error) {
	id, err := parseTierID(c.Param("id"))
	if err != nil {
		return "", err
	}
	onSale := c.FormValue("onSale") == "true"
	if err := h.store.SetOnSale(c.Request().Context(), id, onSale); err != nil {
		return "", err
	}
	return fmt.Sprintf("Tier %d is now %s.", id, map[bool]string{true: "on sale", false: "off sale"}[onSale]), nil
}

// renderOperator renders the dashboard with the outcome of the last action.
func (h *Handlers) renderOperator(c echo.Context, outcome string) error {
	ctx := c.Request().Context()
	o := views.Operator{Outcome: outcome, Now: time.Now()}
	var err error
	if o.Tiers, err = h.store.Tiers(ctx); err != nil {
		return err
	}
	if o.Refunds, err = h.store.Refunds(ctx, 50); err != nil {
		return err
	}
	if o.Held, err = h.store.MintingHeld(ctx); err != nil {
		return err
	}
	o.InternalTransfers = h.jobs.InternalTransfers()
	if rep, err := h.jobs.Drift(ctx, 0, 200); err == nil {
		o.Drift = driftView(rep)
	}
	return render(c, http.StatusOK, views.OperatorPage(o))
}

// driftView is a drift report as the operator page shows it.
func driftView(rep jobs.DriftReport) *views.Drift {
	d := &views.Drift{Checked: rep.Checked}
	for _, n := range rep.Nodes {
		d.Nodes = append(d.Nodes, views.NodeDrift{ChainNodeID: n.ChainNodeID, Field: n.Field, Ledger: n.Ledger, Chain: n.Chain})
	}
	for _, p := range rep.Payments {
		d.Payments = append(d.Payments, p.TxHash)
	}
	return d
}
