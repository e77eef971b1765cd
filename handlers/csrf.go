package handlers

import (
	"mime"
	"net/http"

	"github.com/labstack/echo/v4"
)

// SameOrigin guards the session routes against cross-site requests. An Origin header, when the
// browser sends one, must be ours; and a body must be application/json, which a cross-site form
// cannot send without a CORS preflight we never grant (a text/plain or form body is refused).
func (h *Handlers) SameOrigin(next echo.HandlerFunc) echo.HandlerFunc {
	ours := h.cfg.PublicURL.Scheme + "://" + h.cfg.PublicURL.Host
	return func(c echo.Context) error {
		r := c.Request()
		if origin := r.Header.Get("Origin"); origin != "" && origin != ours {
			return errorf(http.StatusForbidden, "Cross-site requests are not accepted here.")
		}
		if r.ContentLength != 0 { // -1 is a body of unknown length
			if mt, _, err := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType)); err != nil || mt != echo.MIMEApplicationJSON {
				return errorf(http.StatusBadRequest, "The body must be JSON, sent as application/json.")
			}
		}
		return next(c)
	}
}
