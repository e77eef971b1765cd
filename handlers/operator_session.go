package handlers

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/labstack/echo/v4"

	"nodeledger/store"
)

// An operator session is a row of operator_sessions; the cookie holds only its random id. It
// lasts operatorTTL at most and ends after operatorIdle without a request, at sign-out, and when
// the operator is removed or their role changes.
const (
	operatorTTL  = 12 * time.Hour
	operatorIdle = 30 * time.Minute
	// operatorKey holds the request's store.OperatorSession in the echo context.
	operatorKey = "operator"
)

// The roles a route asks of an operator (RequireOperator), named here so that web needs only
// the handlers.
const (
	Signer   = store.RoleSigner
	Viewer   = store.RoleViewer
	Operator = store.RoleOperator
	Admin    = store.RoleAdmin
)

// operatorCookieName is the session cookie's name: over https a __Host- cookie, which a browser
// accepts only Secure, for Path=/ and from this very host (no subdomain can plant or shadow it).
func (h *Handlers) operatorCookieName() string {
	if h.cfg.PublicURL.Scheme == "https" {
		return "__Host-nl_operator"
	}
	return "nl_operator"
}

// operatorCookie is the session cookie: httpOnly and SameSite=Strict. Strict, not Lax: nothing
// brings an operator to the page signed in from another site, so no cross-site request, not
// even a top-level link, carries the session (the CSRF token guards the forms besides).
func (h *Handlers) operatorCookie(value string, ttl time.Duration) *http.Cookie {
	// #nosec G124 -- h.cookie sets HttpOnly, and Secure whenever PUBLIC_URL is https.
	c := h.cookie(h.operatorCookieName(), value, ttl)
	c.SameSite = http.SameSiteStrictMode
	return c
}

// RequireOperatorPage refuses a post to the operator page from another origin, when the browser
// says where it comes from.
func (h *Handlers) RequireOperatorPage(next echo.HandlerFunc) echo.HandlerFunc {
	ours := h.cfg.PublicURL.Scheme + "://" + h.cfg.PublicURL.Host
	return func(c echo.Context) error {
		if origin := c.Request().Header.Get("Origin"); c.Request().Method == http.MethodPost && origin != "" && origin != ours {
			return errorf(http.StatusForbidden, "Cross-site requests are not accepted here.")
		}
		return next(c)
	}
}

// operatorSession is the request's live operator session; store.ErrNotFound when there is none.
func (h *Handlers) operatorSession(c echo.Context) (store.OperatorSession, error) {
	if s, ok := c.Get(operatorKey).(store.OperatorSession); ok {
		return s, nil
	}
	cookie, err := c.Cookie(h.operatorCookieName())
	if err != nil || cookie.Value == "" {
		return store.OperatorSession{}, store.ErrNotFound
	}
	s, err := h.store.OperatorSession(c.Request().Context(), cookie.Value, operatorIdle)
	if err != nil {
		return store.OperatorSession{}, err
	}
	c.Set(operatorKey, s)
	return s, nil
}

// RequireOperator lets through a signed-in operator whose role is at least min; a post must also
// carry the session's CSRF token, in the form's csrf field or, from htmx, the X-CSRF-Token
// header. may says what min may do, for the sentence a lesser role gets.
func (h *Handlers) RequireOperator(min store.OperatorRole, may string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			s, err := h.liveOperator(c)
			if err != nil {
				return err
			}
			if r := c.Request(); r.Method == http.MethodPost {
				token := r.Header.Get("X-CSRF-Token")
				if token == "" {
					// url-encoded bodies only: ParseForm leaves a multipart body unread.
					_ = r.ParseForm()
					token = r.PostForm.Get("csrf")
				}
				if subtle.ConstantTimeCompare([]byte(token), []byte(s.CSRF)) != 1 {
					return errorf(http.StatusForbidden, "This form did not come from your operator page, or it is out of date: reload the page and try again.")
				}
			}
			if !s.Role.AtLeast(min) {
				return errorf(http.StatusForbidden, fmt.Sprintf("Your role (%s) cannot %s.", s.Role, may))
			}
			return next(c)
		}
	}
}

// RequireOperatorFirst lets through a signed-in operator whose role is at least min without
// reading the request's body: on a route whose CSRF token comes in a large body (the allowlist
// upload, up to 6 MB), only an operator who may post there has the body read, and RequireOperator
// checks the token after it.
func (h *Handlers) RequireOperatorFirst(min store.OperatorRole, may string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			s, err := h.liveOperator(c)
			if err != nil {
				return err
			}
			if !s.Role.AtLeast(min) {
				return errorf(http.StatusForbidden, fmt.Sprintf("Your role (%s) cannot %s.", s.Role, may))
			}
			return next(c)
		}
	}
}

// treasuryOwner tells whether address (lower case) is an owner of the treasury now, as the chain
// says; false without a treasury.
func (h *Handlers) treasuryOwner(ctx context.Context, address string) (bool, error) {
	if h.cfg.Treasury == (common.Address{}) {
		return false, nil
	}
	safe, err := h.chain.Safe(ctx, h.cfg.Treasury)
	if err != nil {
		return false, err
	}
	return slices.Contains(mapSlice(safe.Owners, lower), address), nil
}

// liveOperator is the request's operator session, or the 401 of a request without one.
func (h *Handlers) liveOperator(c echo.Context) (store.OperatorSession, error) {
	s, err := h.operatorSession(c)
	if errors.Is(err, store.ErrNotFound) {
		return s, errorf(http.StatusUnauthorized, "You are not signed in as an operator, or your session has ended: sign in again on the operator page.")
	}
	return s, err
}

// OperatorLogin answers POST /operator/login {address, signature}: Sign-In with Ethereum as
// buyers sign in (the nonce of /api/auth/nonce), for a wallet on the operator list. It sets the
// session cookie and answers {address, role}.
func (h *Handlers) OperatorLogin(c echo.Context) error {
	address, _, err := h.signedIn(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	op, err := h.store.Operator(ctx, address)
	signer := false
	if errors.Is(err, store.ErrNotFound) {
		// An owner of the treasury signs its batches whether or not an admin listed it.
		if signer, err = h.treasuryOwner(ctx, address); err != nil {
			return err
		}
		switch {
		case !signer && h.cfg.Treasury == (common.Address{}):
			return errorf(http.StatusForbidden, "This wallet is not on the operator list: an admin of this service can add it.")
		case !signer:
			return errorf(http.StatusForbidden, "This wallet is not on the operator list, nor an owner of the treasury: an admin of this service can add it.")
		}
		op = store.Operator{Address: address, Role: store.RoleSigner}
	}
	if err != nil {
		return err
	}
	id, csrf := rand.Text()+rand.Text(), rand.Text()
	err = h.store.Audited(ctx, h.entry(c, address, store.ActionSignIn, address), func(t store.Tx, e *store.AuditEntry) error {
		e.Outcome = store.AuditOutcome{Code: store.OutcomeSignedIn, Args: store.AuditArgs{Role: op.Role}}
		return t.StartOperatorSession(ctx, id, address, csrf, signer, operatorTTL)
	})
	if err != nil {
		return err
	}
	c.SetCookie(h.operatorCookie(id, operatorTTL))
	return c.JSON(http.StatusOK, map[string]string{"address": address, "role": string(op.Role)})
}

// OperatorLogout answers POST /operator/logout: the session ends in the ledger, so a copy of
// its cookie signs no one in either.
func (h *Handlers) OperatorLogout(c echo.Context) error {
	s, _ := h.operatorSession(c) // RequireOperator found it
	cookie, _ := c.Cookie(h.operatorCookieName())
	ctx := c.Request().Context()
	err := h.store.Audited(ctx, h.entry(c, s.Address, store.ActionSignOut, s.Address), func(t store.Tx, e *store.AuditEntry) error {
		e.Outcome = store.AuditOutcome{Code: store.OutcomeSignedOut}
		return t.EndOperatorSession(ctx, cookie.Value)
	})
	if err != nil {
		return err
	}
	c.SetCookie(h.operatorCookie("", -time.Second))
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
