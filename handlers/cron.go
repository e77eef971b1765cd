package handlers

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
)

// CronPayments answers GET|POST /api/cron/payments: one payments pass. The key comes in
// x-cron-key or as a bearer token; with no key configured the route does not exist (404).
func (h *Handlers) CronPayments(c echo.Context) error {
	if h.cfg.CronKey == "" {
		return echo.ErrNotFound
	}
	key := c.Request().Header.Get("X-Cron-Key")
	if bearer, ok := strings.CutPrefix(c.Request().Header.Get(echo.HeaderAuthorization), "Bearer "); ok && key == "" {
		key = bearer
	}
	if !keyMatches(key, h.cfg.CronKey) {
		return echo.ErrUnauthorized
	}
	return runPass(c, h.jobs.Payments)
}

// CronCredit answers GET|POST /api/cron/credit: one credit pass. The key comes in x-cron-key
// only; with no key configured the route fails closed (401).
func (h *Handlers) CronCredit(c echo.Context) error {
	if h.cfg.CronKey == "" || !keyMatches(c.Request().Header.Get("X-Cron-Key"), h.cfg.CronKey) {
		return echo.ErrUnauthorized
	}
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
