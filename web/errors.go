package web

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"nodeledger/handlers"
)

// unavailableRetryAfter is the retry-after, in seconds, of a 503: about what a database failover
// or a provider's hiccup takes.
const unavailableRetryAfter = "5"

// errorBody is the envelope of every failure.
type errorBody struct {
	Error string `json:"error"`
}

// errorHandler is the one place where errors become responses: `{"error": "..."}` with the
// status the error calls for. Only a handler's own sentences reach the client; the detail of
// anything unexpected goes to the log.
func errorHandler(log *slog.Logger) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		status, msg, deliberate := handlers.Classify(err)
		if status >= 500 && !deliberate && !errors.Is(err, context.Canceled) {
			log.Error("request failed", "method", c.Request().Method, "path", c.Request().URL.Path,
				"status", status, "request_id", c.Response().Header().Get(echo.HeaderXRequestID), "err", err)
		}
		if c.Response().Committed {
			return
		}
		// No error is cached; a session route's private, no-store says as much already.
		if c.Response().Header().Get(echo.HeaderCacheControl) != private {
			c.Response().Header().Set(echo.HeaderCacheControl, noStore)
		}
		// A database or a chain out of reach is most often back within seconds (a failover, a
		// restart): clients are told when to come back, unless the route said already.
		if status == http.StatusServiceUnavailable && c.Response().Header().Get(echo.HeaderRetryAfter) == "" {
			c.Response().Header().Set(echo.HeaderRetryAfter, unavailableRetryAfter)
		}
		page := wantsPage(c.Request())
		switch {
		case c.Request().Method == http.MethodHead: // GET's headers, no body
			ctype := echo.MIMEApplicationJSON
			if page {
				ctype = echo.MIMETextHTMLCharsetUTF8
			}
			c.Response().Header().Set(echo.HeaderContentType, ctype)
			err = c.NoContent(status)
		case page && fromHtmx(c.Request()):
			err = handlers.ErrorFragment(c, status, msg)
		case page:
			err = handlers.ErrorPage(c, status, msg)
		default:
			err = c.JSON(status, errorBody{msg})
		}
		if err != nil {
			log.Error("writing error response", "err", err)
		}
	}
}

// wantsPage tells a browser's page request, answered in HTML, from the API, the probes and a
// request that accepts only JSON, answered with the JSON envelope.
func wantsPage(r *http.Request) bool {
	p := r.URL.Path
	if r.Header.Get(echo.HeaderAccept) == echo.MIMEApplicationJSON {
		return false // a script of a page (the operator's wallet sign-in) reads the envelope
	}
	return !strings.HasPrefix(p, "/api/") && p != "/api" && p != "/livez" && p != "/healthz" && p != "/readyz"
}

// fromHtmx tells htmx's requests, which swap the answer into part of a page, from a page's
// request. A history restore is htmx asking for a whole page it has no copy of.
func fromHtmx(r *http.Request) bool {
	return r.Header.Get("HX-Request") == "true" && r.Header.Get("HX-History-Restore-Request") != "true"
}

// panicError carries a recovered panic and its stack to the log.
func panicError(_ echo.Context, err error, stack []byte) error {
	return fmt.Errorf("panic: %w\n%s", err, stack)
}
