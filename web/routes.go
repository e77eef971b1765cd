package web

import (
	_ "embed"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"nodeledger/handlers"
)

// openAPI documents the public API; a test checks every response the suite sees against it.
//
//go:embed openapi.json
var openAPI []byte

// Cache-Control values of the spec's caching table.
const (
	cacheStats  = "public, max-age=0, s-maxage=10, stale-while-revalidate=30"
	cacheNodes  = "public, max-age=0, s-maxage=5, stale-while-revalidate=15"
	cacheRounds = "public, max-age=0, s-maxage=10, stale-while-revalidate=30"
	cacheQuote  = "public, max-age=0, s-maxage=30, stale-while-revalidate=90"
	cachePrice  = "public, max-age=60"
	cacheTiers  = "public, max-age=0, s-maxage=30, stale-while-revalidate=90"
	cacheCover  = "public, max-age=0, s-maxage=5"
	cacheDoc    = "public, max-age=300"
	noStore     = "no-store"
	noCache     = "no-cache"          // pages: always revalidated, so they show the ledger as it is
	private     = "private, no-store" // anything behind a session
)

// operatorRoute tells the routes only the operator calls, with the admin key or session: they
// run passes and chain-wide reports, which take as long as the ledger needs, so the request
// deadline (web.go) does not apply. Passes bound themselves (passTimeout in jobs).
func operatorRoute(path string) bool {
	return strings.HasPrefix(path, "/operator") || strings.HasPrefix(path, "/api/admin/") ||
		path == "/api/cron/payments" || path == "/api/cron/credit"
}

// routes lists every route: path, handler, cache policy and rate limit (requests per minute per IP).
func routes(e *echo.Echo, h *handlers.Handlers, rl *limiter) {
	e.GET("/healthz", h.Healthz, cacheControl(noStore))
	e.GET("/readyz", h.Readyz, cacheControl(noStore))

	// Pages and their htmx partials, rendered by the same handlers' calls as the JSON routes.
	e.GET("/", h.OverviewPage, cacheControl(noCache))
	e.GET("/partials/stats", h.StatsPartial, cacheControl(noCache))
	e.GET("/node/:id", h.NodePage, cacheControl(noCache))
	e.GET("/wallet", h.WalletSearch, cacheControl(noCache))
	e.GET("/wallet/:address", h.WalletPage, cacheControl(noCache))
	e.GET("/distributions", h.DistributionsPage, cacheControl(noCache))
	e.GET("/health", h.HealthPage, cacheControl(noCache))
	e.GET("/buy", h.BuyPage, cacheControl(noCache))
	e.GET("/me", h.MePage, cacheControl(private))

	// The operator page: sign in with the admin key; the buttons run what the cron routes run.
	op := e.Group("/operator", cacheControl(private), h.RequireOperatorPage)
	op.GET("", h.OperatorPage)
	op.POST("/login", h.OperatorLogin)
	op.POST("/logout", h.OperatorLogout)
	op.POST("/passes/payments", h.OperatorAction(h.RunPayments))
	op.POST("/passes/credit", h.OperatorAction(h.RunCredit))
	op.POST("/minting", h.OperatorAction(h.HoldMintingFromPage))
	op.POST("/tiers/:id/sale", h.OperatorAction(h.SetTierOnSale))
	e.GET("/static/:hash/:name", h.Static)

	api := e.Group("/api")
	api.GET("/openapi.json", func(c echo.Context) error {
		return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, openAPI)
	}, cacheControl(cacheDoc))
	api.GET("/stats", h.Stats, cacheControl(cacheStats), rl.limit("stats", 120))
	api.GET("/tiers", h.Tiers, cacheControl(cacheTiers), rl.limit("tiers", 120))
	nodes := []echo.MiddlewareFunc{cacheControl(cacheNodes), rl.limit("nodes", 60)}
	api.GET("/nodes/:address", h.NodesOfWallet, nodes...)
	api.GET("/nodes/", h.NodesOfWallet, nodes...) // an empty address is a bad address, not a missing route
	node := []echo.MiddlewareFunc{cacheControl(cacheNodes), rl.limit("node", 60)}
	api.GET("/node/:id", h.Node, node...)
	api.GET("/node/", h.Node, node...) // an empty id is a bad id
	api.GET("/distributions", h.Distributions, cacheControl(cacheRounds), rl.limit("distributions", 60))
	api.GET("/deploy-quote", h.DeployQuote, cacheControl(cacheQuote), rl.limit("deploy-quote", 60))
	api.GET("/price", h.Price, cacheControl(cachePrice)) // not limited: the quote is memoised for everyone
	api.GET("/cover", h.Cover, cacheControl(cacheCover), rl.limit("cover", 60))
	api.GET("/cron/health", h.Health, cacheControl(noStore), rl.limit("health", 60))
	api.Match([]string{http.MethodGet, http.MethodPost}, "/cron/payments", h.CronPayments, cacheControl(noStore))
	api.Match([]string{http.MethodGet, http.MethodPost}, "/cron/credit", h.CronCredit, cacheControl(noStore))

	// Wallet sign-in and the routes behind a session.
	both := []string{http.MethodGet, http.MethodPost}
	api.Match(both, "/auth/nonce", h.Nonce, cacheControl(private), rl.limit("auth-nonce", 20), h.SameOrigin)
	api.POST("/auth/verify", h.Verify, cacheControl(private), rl.limit("auth-verify", 20), h.SameOrigin)
	api.POST("/auth/logout", h.Logout, cacheControl(private), rl.limit("auth-logout", 30), h.SameOrigin)
	api.GET("/me", h.Me, cacheControl(private), rl.limit("me", 120))
	api.POST("/nodes/sync", h.SyncNode, cacheControl(private), rl.limit("sync", 20), h.SameOrigin)

	// The operator surface: not public, not in the OpenAPI document.
	admin := api.Group("/admin", cacheControl(noStore), h.RequireAdmin)
	admin.GET("/tiers", h.AdminTiers)
	admin.PUT("/tiers/:id", h.PutTier)
	admin.POST("/tiers/:id/on-sale", h.TierOnSale(true))
	admin.POST("/tiers/:id/off-sale", h.TierOnSale(false))
	admin.GET("/refunds", h.Refunds)
	admin.GET("/drift", h.Drift)
	admin.GET("/minting", h.Minting)
	admin.POST("/minting/pause", h.HoldMinting(true))
	admin.POST("/minting/resume", h.HoldMinting(false))
}
