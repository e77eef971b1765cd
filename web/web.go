// Package web builds the HTTP server: middleware, the routes, and the one error handler.
package web

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"regexp"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"nodeledger/handlers"
)

// Options configure the server.
type Options struct {
	// TrustedProxies are the only peers whose X-Forwarded-For is believed; with none, the client
	// is the socket's peer address.
	TrustedProxies []netip.Prefix
	Log            *slog.Logger
	// HTTPS is true when PUBLIC_URL is https: answers then carry Strict-Transport-Security.
	HTTPS bool
	// Bench lifts the rate limits (requests are still counted and the headers sent, so the
	// measured path is the production one, but none is refused) and adds GET /bench/hello, the
	// HTTP ceiling `make bench` measures the routes against. Never on a public server.
	Bench bool

	// unlimited lifts the rate limits as Bench does, without its route: the browser tests, whose
	// one address makes more requests a minute than any visitor.
	unlimited bool
	// now is the clock of the rate limits and the credential guard; a test sets it to step
	// through their minutes without waiting for them. Nil is time.Now.
	now func() time.Time
}

// New returns the server with every route of the service.
func New(h *handlers.Handlers, opts Options) *echo.Echo {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.IPExtractor = ipExtractor(opts.TrustedProxies)
	e.HTTPErrorHandler = errorHandler(opts.Log)
	e.Use(requestID)
	e.Use(measure)
	e.Use(middleware.RecoverWithConfig(middleware.RecoverConfig{LogErrorFunc: panicError}))
	e.Use(securityHeaders(opts.HTTPS))
	e.Use(bodyLimit)
	rl, keys := newLimiter(opts.Log), newGuard(opts.Log)
	rl.lifted = opts.Bench || opts.unlimited
	if opts.now != nil {
		rl.now, keys.now = opts.now, opts.now
	}
	routes(e, h, rl, keys)
	if opts.Bench {
		e.GET("/bench/hello", func(c echo.Context) error { return c.String(http.StatusOK, "Hello, World!") })
	}
	return e
}

// The server's timeouts. A client has readTimeout to send its whole request, body included: one
// that trickles a body would otherwise hold its connection and handler indefinitely (the request
// deadline does not cover reading the body). The bodies this service takes are a few hundred bytes.
// No write timeout: the operator's routes run passes that take as long as they take.
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 10 * time.Second
	idleTimeout       = 2 * time.Minute
)

// HTTPServer is the HTTP server of h, with its timeouts.
func HTTPServer(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: readHeaderTimeout, ReadTimeout: readTimeout, IdleTimeout: idleTimeout}
}

// ipExtractor trusts X-Forwarded-For only from the configured proxies. Echo's default trusts it
// from anyone, which would let a client pick its own rate-limit bucket.
func ipExtractor(trusted []netip.Prefix) echo.IPExtractor {
	if len(trusted) == 0 {
		return echo.ExtractIPDirect()
	}
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, p := range trusted {
		p = p.Masked()
		opts = append(opts, echo.TrustIPRange(&net.IPNet{
			IP:   p.Addr().AsSlice(),
			Mask: net.CIDRMask(p.Bits(), p.Addr().BitLen()),
		}))
	}
	return echo.ExtractIPFromXFFHeader(opts...)
}

// contentSecurityPolicy lets pages load only our own scripts, styles and connections.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'"

// hsts makes browsers use https only, for a year, once they have seen the service over it.
const hsts = "max-age=31536000; includeSubDomains"

// securityHeaders are set on every answer: a CSP for pages, no MIME sniffing, no referrer sent
// to other sites, and HSTS when the service is public over https.
func securityHeaders(https bool) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			h := c.Response().Header()
			h.Set("Content-Security-Policy", contentSecurityPolicy)
			h.Set("X-Content-Type-Options", "nosniff")
			h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
			if https {
				h.Set("Strict-Transport-Security", hsts)
			}
			return next(c)
		}
	}
}

// requestID names every request, in the X-Request-Id answer header and in the log lines about
// it: the id a proxy in front sent, when it looks like one, else a fresh one.
func requestID(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := c.Request().Header.Get(echo.HeaderXRequestID)
		if !requestIDRe.MatchString(id) {
			id = rand.Text()
		}
		c.Response().Header().Set(echo.HeaderXRequestID, id)
		return next(c)
	}
}

var requestIDRe = regexp.MustCompile(`^[A-Za-z0-9._-]{8,64}$`)

// requestTimeout bounds every request but the operator's (routes.go).
const requestTimeout = 1500 * time.Millisecond

func deadline(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		ctx, cancel := context.WithTimeout(c.Request().Context(), requestTimeout)
		defer cancel()
		c.SetRequest(c.Request().WithContext(ctx))
		return next(c)
	}
}

// maxBody bounds the body of every request. The largest this service takes is a JSON body or an
// operator's form, each well under it (handlers.decodeBody holds JSON to the same bound).
const maxBody = 64 << 10

var errBodyTooLarge = echo.NewHTTPError(http.StatusRequestEntityTooLarge,
	fmt.Sprintf("The request body is too large: this service takes at most %d KB.", maxBody>>10))

// bodyLimit refuses, unread, a body that says it is larger than its route takes (maxBody, or
// its largeBodies bound), and cuts off one that turns out larger while it is read (a chunked body
// says nothing in advance). Routes that take no body are covered too: nobody gets to make the
// server read megabytes it will throw away.
func bodyLimit(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		limit, tooLarge := int64(maxBody), error(errBodyTooLarge)
		if n, ok := largeBodies[r.Method+" "+c.Path()]; ok {
			limit, tooLarge = n, handlers.ErrListTooLarge
		}
		if r.ContentLength > limit {
			return tooLarge
		}
		r.Body = http.MaxBytesReader(c.Response(), r.Body, limit)
		return next(c)
	}
}

// operatorForm takes the operator's posts as url-encoded forms, parsed here within maxBody, or as
// JSON (the wallet sign-in's body, which handlers.decodeBody reads within the same bound), and
// nothing else: parsing a multipart body spools its files to the temp folder. (The one upload,
// an allowlist's, has routes of its own: operatorUpload.) A form that outgrows maxBody is a 413 here rather than an empty form
// downstream (Echo's FormValue drops the parse error).
func operatorForm(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if r.Method == http.MethodGet || r.Method == http.MethodHead || r.ContentLength == 0 {
			return next(c)
		}
		switch mt, _, _ := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType)); mt {
		case echo.MIMEApplicationJSON:
			return next(c)
		case echo.MIMEApplicationForm:
		default:
			return echo.NewHTTPError(http.StatusUnsupportedMediaType,
				"The operator's forms are sent url-encoded (application/x-www-form-urlencoded) or as JSON, never as a file upload.")
		}
		if err := r.ParseForm(); err != nil {
			if tooLarge := new(http.MaxBytesError); errors.As(err, &tooLarge) {
				return errBodyTooLarge
			}
			return echo.NewHTTPError(http.StatusBadRequest, "The form is malformed.")
		}
		return next(c)
	}
}

// cacheControl sets the route's Cache-Control; the error handler replaces it with no-store.
func cacheControl(value string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			c.Response().Header().Set(echo.HeaderCacheControl, value)
			return next(c)
		}
	}
}
