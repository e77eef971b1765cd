package handlers

import (
	"context"
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"nodeledger/chain"
	"nodeledger/store"
	"nodeledger/views"
)

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

// StatusMessage is the sentence for status when the error carries none of its own.
func StatusMessage(status int) string {
	if m, ok := messages[status]; ok {
		return m
	}
	if t := http.StatusText(status); t != "" {
		return t + "."
	}
	return messages[http.StatusInternalServerError]
}

// Classify picks the status and message for err; deliberate is true for an answer a handler or
// Echo chose on purpose, which needs no log line. It lives here, not in web, because only the
// handlers know the store's and the chain's errors: web turns the answer into a response.
func Classify(err error) (status int, msg string, deliberate bool) {
	var he *echo.HTTPError
	switch {
	case errors.As(err, &he):
		// Our handlers give a sentence of their own; Echo's errors carry its status text or an
		// internal detail, which stays in the log.
		if msg, ok := he.Message.(string); ok && he.Internal == nil && msg != http.StatusText(he.Code) {
			return he.Code, msg, true
		}
		return he.Code, StatusMessage(he.Code), he.Internal == nil
	case errors.Is(err, store.ErrNotFound):
		// A handler that names what is missing says so in its own sentence (an *echo.HTTPError,
		// above); one that forgets still answers 404, never the 500 of an unknown failure. The
		// sentence cannot name the row: the error's text is the store's, not the client's.
		return http.StatusNotFound, "What this request names does not exist.", true
	case errors.Is(err, store.ErrUnavailable):
		return http.StatusServiceUnavailable, "The ledger database cannot be reached right now; please retry in a little while.", false
	case errors.Is(err, chain.ErrOverBudget):
		// Deliberate: the instance keeps its requests to the chain within its budget.
		return http.StatusServiceUnavailable, "Many visitors are checking the chain right now; please retry in a few seconds.", true
	case errors.Is(err, chain.ErrUnavailable):
		return http.StatusServiceUnavailable, "The chain cannot be read right now; please retry in a little while.", false
	case errors.Is(err, chain.ErrSignerRefused):
		// The external signer's rules said no: a deliberate answer, but an operator must see it.
		return http.StatusBadGateway, "The signer refused the transaction: its rules do not allow it. The signer's log says which rule.", false
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return http.StatusServiceUnavailable, StatusMessage(http.StatusServiceUnavailable), false
	default:
		return http.StatusInternalServerError, StatusMessage(http.StatusInternalServerError), false
	}
}

// ErrorPage answers a failed page request with the error page: status and msg as Classify gave
// them. The request's deadline may be what failed it: render draws the page regardless.
func ErrorPage(c echo.Context, status int, msg string) error {
	return render(c, status, views.ErrorPage(status, msg))
}

// ErrorFragment answers a failed htmx request: the sentence in a fragment, status as Classify
// gave it.
func ErrorFragment(c echo.Context, status int, msg string) error {
	return render(c, status, views.ErrorFragment(msg))
}
