package handlers

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

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

// operatorFlash carries an action's outcome across its redirect: signed like the sessions, so
// the page only ever shows a sentence the server wrote, and gone once shown or after a minute.
const (
	operatorFlash    = "nl_operator_flash"
	operatorFlashTTL = time.Minute
)

func (h *Handlers) redirectWithOutcome(c echo.Context, outcome string) error {
	s, _ := h.sessions.New(c.Request(), operatorFlash)
	s.Options.MaxAge = int(operatorFlashTTL.Seconds())
	s.Values["outcome"] = outcome
	if err := s.Save(c.Request(), c.Response()); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/operator")
}

// takeOutcome returns the outcome the last redirect carried, and forgets it.
func (h *Handlers) takeOutcome(c echo.Context) string {
	s, err := h.sessions.Get(c.Request(), operatorFlash)
	if err != nil || s.IsNew {
		return ""
	}
	c.SetCookie(h.cookie(operatorFlash, "", -time.Second))
	outcome, _ := s.Values["outcome"].(string)
	return outcome
}
