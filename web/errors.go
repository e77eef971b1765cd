package web

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"nodeledger/chain"
	"nodeledger/store"
	"nodeledger/views"
)

// errorBody is the envelope of every failure.
type errorBody struct {
	Error string `json:"error"`
}

// messages are the sentences for a status when the error carries none of its own (Echo's own
// 404 and 405, a recovered panic, an unexpected error). Their wording never depends on the error.
var messages = map[int]string{
	http.StatusBadRequest:            "The request is malformed.",
	http.StatusUnauthorized:          "You are not signed in, or your credentials are not valid.",
	http.StatusForbidden:             "You may not do this.",
	http.StatusNotFound:              "There is nothing at this address.",
	http.StatusMethodNotAllowed:      "This method is not allowed here.",
	http.StatusRequestEntityTooLarge: "The request body is too large.",
	http.StatusTooManyRequests:       "Too many requests: slow down and retry after the number of seconds in the retry-after header.",
	http.StatusInternalServerError:   "Something went wrong on our side; please retry in a little while.",
	http.StatusServiceUnavailable:    "A service this route depends on is unavailable; please retry in a little while.",
}

func message(status int) string {
	if m, ok := messages[status]; ok {
		return m
	}
	if t := http.StatusText(status); t != "" {
		return t + "."
	}
	return messages[http.StatusInternalServerError]
}

// errorHandler is the one place where errors become responses: `{"error": "..."}` with the
// status the error calls for. Only a handler's own sentences reach the client; the detail of
// anything unexpected goes to the log.
func errorHandler(log *slog.Logger) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		status, msg, deliberate := classify(err)
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
		page := wantsPage(c.Request())
		switch {
		case c.Request().Method == http.MethodHead: // GET's headers, no body
			ctype := echo.MIMEApplicationJSON
			if page {
				ctype = echo.MIMETextHTMLCharsetUTF8
			}
			c.Response().Header().Set(echo.HeaderContentType, ctype)
			err = c.NoContent(status)
		case page:
			c.Response().Header().Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
			c.Response().WriteHeader(status)
			// The request's deadline may be what failed it: the page is rendered regardless.
			err = views.ErrorPage(status, msg).Render(context.WithoutCancel(c.Request().Context()), c.Response())
		default:
			err = c.JSON(status, errorBody{msg})
		}
		if err != nil {
			log.Error("writing error response", "err", err)
		}
	}
}

// classify picks the status and message for err; deliberate is true for an answer a handler or
// Echo chose on purpose, which needs no log line.
func classify(err error) (status int, msg string, deliberate bool) {
	var he *echo.HTTPError
	switch {
	case errors.As(err, &he):
		// Our handlers give a sentence of their own; Echo's errors carry its status text or an
		// internal detail, which stays in the log.
		if msg, ok := he.Message.(string); ok && he.Internal == nil && msg != http.StatusText(he.Code) {
			return he.Code, msg, true
		}
		return he.Code, message(he.Code), he.Internal == nil
	case errors.Is(err, store.ErrUnavailable):
		return http.StatusServiceUnavailable, "The ledger database cannot be reached right now; please retry in a little while.", false
	case errors.Is(err, chain.ErrUnavailable):
		return http.StatusServiceUnavailable, "The chain cannot be read right now; please retry in a little while.", false
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return http.StatusServiceUnavailable, message(http.StatusServiceUnavailable), false
	default:
		return http.StatusInternalServerError, message(http.StatusInternalServerError), false
	}
}

// wantsPage tells a browser's page request, answered in HTML, from the API and the probes,
// answered with the JSON envelope.
func wantsPage(r *http.Request) bool {
	p := r.URL.Path
	return !strings.HasPrefix(p, "/api/") && p != "/api" && p != "/healthz" && p != "/readyz"
}

// panicError carries a recovered panic and its stack to the log.
func panicError(_ echo.Context, err error, stack []byte) error {
	return fmt.Errorf("panic: %w\n%s", err, stack)
}
