package handlers

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
)

// CronKey is how a cron route takes its key (spec §5): where it reads the key from, and what it
// answers when no CRON_KEY is configured. The two routes differ on both, so the rule is spelled
// out where each route is listed (web/routes.go).
type CronKey struct {
	// Bearer also accepts the key as `authorization: Bearer <key>`; x-cron-key is always read,
	// and wins when both are sent.
	Bearer bool
	// Unconfigured is the status with no CRON_KEY: 404 says the route is off, 401 fails closed
	// (as does zero, so a rule that forgets to say opens nothing).
	Unconfigured int
}

// RequireCronKey gates a cron route by rule. A wrong or missing key is a 401 without detail.
func (h *Handlers) RequireCronKey(rule CronKey) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if h.cfg.CronKey == "" {
				if rule.Unconfigured == 0 {
					return echo.ErrUnauthorized
				}
				return echo.NewHTTPError(rule.Unconfigured)
			}
			key := c.Request().Header.Get("X-Cron-Key")
			if bearer, ok := strings.CutPrefix(c.Request().Header.Get(echo.HeaderAuthorization), "Bearer "); ok && rule.Bearer && key == "" {
				key = bearer
			}
			if !keyMatches(key, h.cfg.CronKey) {
				return echo.ErrUnauthorized
			}
			return next(c)
		}
	}
}

// CronPayments answers GET|POST /api/cron/payments: one payments pass (behind RequireCronKey).
func (h *Handlers) CronPayments(c echo.Context) error {
	return runPass(c, h.jobs.Payments)
}

// CronCredit answers GET|POST /api/cron/credit: one credit pass (behind RequireCronKey).
func (h *Handlers) CronCredit(c echo.Context) error {
	return runPass(c, h.jobs.Credit)
}

// runPass runs a pass and answers its summary. The pass is detached from the request, so a
// caller hanging up does not stop it half way (it would be safe, but wasteful).
func runPass[S any](c echo.Context, pass func(context.Context) (S, error)) error {
	sum, err := pass(context.WithoutCancel(c.Request().Context()))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, sum)
}

// keyMatches compares keys in constant time. Digests first: subtle.ConstantTimeCompare returns
// at once when the lengths differ, which would tell the key's length.
func keyMatches(presented, configured string) bool {
	a, b := sha256.Sum256([]byte(presented)), sha256.Sum256([]byte(configured))
	return subtle.ConstantTimeCompare(a[:], b[:]) == 1
}
