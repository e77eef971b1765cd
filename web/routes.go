package web

import (
	_ "embed"
	"net/http"
	"slices"

	"github.com/labstack/echo/v4"

	"nodeledger/handlers"
	"nodeledger/store"
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

// routes lists every route: path, handler, cache policy and rate limit (requests per minute per
// client). The spec's table is a floor for the API; a page is limited like its JSON twin, which
// runs the same queries. Not limited: the probes, /static, /api/openapi.json and /api/price, which
// answer from memory.
func routes(e *echo.Echo, h *handlers.Handlers, rl *limiter, keys *guard) {
	// Everyone's routes answer within requestTimeout: a database or chain that stops answering
	// costs a client a 503, never a hung request.
	public := group{e: e, m: []echo.MiddlewareFunc{deadline}}
	// The probes: the Kubernetes names, never cached, never limited (a load balancer asks often).
	public.get("/livez", h.Livez, cacheControl(noStore))
	public.get("/healthz", h.Livez, cacheControl(noStore))
	public.get("/readyz", h.Readyz, cacheControl(noStore))

	// Pages and their htmx partials, rendered by the same handlers' calls as the JSON routes.
	pages := public.group("", h.Site)
	pages.get("/", h.OverviewPage, cacheControl(noCache), rl.limit("overview-page", 120))
	pages.get("/partials/stats", h.StatsPartial, cacheControl(noCache), rl.limit("stats-partial", 120))
	pages.get("/node/:id", h.NodePage, cacheControl(noCache), rl.limit("node-page", 60))
	pages.get("/partials/node/:id/credits", h.NodeCreditsPartial, cacheControl(noCache), rl.limit("node-credits-partial", 60))
	pages.get("/partials/node/:id/withdrawals", h.NodeWithdrawalsPartial, cacheControl(noCache), rl.limit("node-withdrawals-partial", 60))
	pages.get("/wallet", h.WalletSearch, cacheControl(noCache), rl.limit("wallet-search", 60))
	pages.get("/wallet/:address", h.WalletPage, cacheControl(noCache), rl.limit("wallet-page", 60))
	pages.get("/distributions", h.DistributionsPage, cacheControl(noCache), rl.limit("distributions-page", 60))
	pages.get("/status", h.HealthPage, cacheControl(noCache), rl.limit("health-page", 60))
	pages.get("/health", h.HealthPage, cacheControl(noCache), rl.limit("health-page", 60))
	pages.get("/buy", h.BuyPage, cacheControl(noCache), rl.limit("buy-page", 60))
	pages.get("/payment", h.PaymentSearch, cacheControl(noCache), rl.limit("payment-search", 60))
	pages.get("/payment/:txHash", h.PaymentPage, cacheControl(noCache), rl.limit("payment-page", 60))
	pages.get("/partials/payment/:txHash", h.PaymentPartial, cacheControl(noCache), rl.limit("payment-partial", 60))
	// Dev mode's stand-in for an identity provider's form (404 elsewhere).
	pages.get("/dev/kyc", h.DevKYCPage, cacheControl(noStore), rl.limit("dev-kyc", 60))
	pages.post("/dev/kyc", h.DevKYCAnswer, cacheControl(noStore), rl.limit("dev-kyc", 60))
	pages.get("/tiers", h.TiersPage, cacheControl(cacheDoc))
	pages.get("/me", h.MePage, cacheControl(private), rl.limit("me-page", 120))
	pages.get("/partials/me/nodes", h.MeNodesPartial, cacheControl(private), rl.limit("me-nodes-partial", 120))
	public.get("/static/:hash/:name", h.Static)

	api := public.group("/api")
	api.get("/openapi.json", func(c echo.Context) error {
		return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, openAPI)
	}, cacheControl(cacheDoc))
	api.get("/stats", h.Stats, cacheControl(cacheStats), rl.limit("stats", 120))
	api.get("/tiers", h.Tiers, cacheControl(cacheTiers), rl.limit("tiers", 120))
	// What the buy page asks before the wallet pays: limited like the quote it stands beside.
	api.get("/tiers/:id/check/:address", h.CheckPayment, cacheControl(noStore), rl.limit("tier-check", 60))
	api.get("/tiers/:id/allowlist/:address", h.AllowlistEntry, cacheControl(noStore), rl.limit("tier-allowlist", 60))
	nodes := []echo.MiddlewareFunc{cacheControl(cacheNodes), rl.limit("nodes", 60)}
	api.get("/nodes/:address", h.NodesOfWallet, nodes...)
	api.get("/nodes/", h.NodesOfWallet, nodes...) // an empty address is a bad address, not a missing route
	node := []echo.MiddlewareFunc{cacheControl(cacheNodes), rl.limit("node", 60)}
	api.get("/node/:id", h.Node, node...)
	api.get("/node/", h.Node, node...) // an empty id is a bad id
	api.get("/payments/:txHash", h.Payment, cacheControl(cacheNodes), rl.limit("payment", 60))
	api.get("/payments/", h.Payment, cacheControl(cacheNodes), rl.limit("payment", 60)) // an empty hash is a bad hash
	api.get("/payments", h.Payments, cacheControl(cacheNodes), rl.limit("payments", 60))
	api.get("/distributions", h.Distributions, cacheControl(cacheRounds), rl.limit("distributions", 60))
	api.get("/ledger/digests", h.LedgerDigests, cacheControl(cacheRounds), rl.limit("ledger-digests", 60))
	api.get("/deploy-quote", h.DeployQuote, cacheControl(cacheQuote), rl.limit("deploy-quote", 60))
	api.get("/price", h.Price, cacheControl(cachePrice)) // not limited: the quote is memoised for everyone
	api.get("/referrals/:code", h.Referral, cacheControl(noStore), rl.limit("referral", 60))
	api.get("/cover", h.Cover, cacheControl(cacheCover), rl.limit("cover", 60))
	api.get("/cron/health", h.Health, cacheControl(noStore), rl.limit("health", 60))
	// Identity checks: the buy page's status of a wallet, and the provider's signed webhooks.
	api.get("/kyc/:address", h.KYCStatus, cacheControl(noStore), rl.limit("kyc-status", 60))
	api.post("/kyc/:provider", h.KYCWebhook, cacheControl(noStore), rl.limit("kyc-webhook", 600))

	// Wallet sign-in and the routes behind a session.
	api.add(getOrPost, "/auth/nonce", h.Nonce, cacheControl(private), rl.limit("auth-nonce", 20), h.SameOrigin)
	api.post("/auth/verify", h.Verify, cacheControl(private), rl.limit("auth-verify", 20), h.SameOrigin)
	api.post("/auth/logout", h.Logout, cacheControl(private), rl.limit("auth-logout", 30), h.SameOrigin)
	api.get("/me", h.Me, cacheControl(private), rl.limit("me", 120))
	api.post("/nodes/sync", h.SyncNode, cacheControl(private), rl.limit("sync", 20), h.SameOrigin)
	api.post("/referrals/bind", h.BindReferral, cacheControl(private), rl.limit("referral-bind", 20), h.SameOrigin)

	// The operator's routes, with the admin or cron key or the operator's session, have no
	// request deadline: they run passes and chain-wide reports, which take as long as the ledger
	// needs. Passes bound themselves (passTimeout in jobs).
	operator := group{e: e}
	// The spec's two key rules: payments also takes a bearer token and is off (404) without
	// CRON_KEY; credit reads x-cron-key only and fails closed (401). Behind every key gate,
	// keys.middleware slows down wrong keys and logs each key, and accepted marks a right one.
	operator.add(getOrPost, "/api/cron/payments", h.CronPayments, cacheControl(noStore), rl.limit("cron-payments", 120),
		keys.middleware, h.RequireCronKey(handlers.CronKey{Bearer: true, Unconfigured: http.StatusNotFound}), accepted)
	operator.add(getOrPost, "/api/cron/credit", h.CronCredit, cacheControl(noStore), rl.limit("cron-credit", 120),
		keys.middleware, h.RequireCronKey(handlers.CronKey{Bearer: false, Unconfigured: http.StatusUnauthorized}), accepted)

	// The operator page: each operator signs in with their own wallet (the buyers' Sign-In with
	// Ethereum); every route checks the session, its role and, on a post, its CSRF token; the
	// buttons run what the cron routes run. Its forms are small and url-encoded (operatorForm).
	op := operator.gated("/operator", operatorForm, cacheControl(private), h.RequireOperatorPage, h.Site)
	viewer := h.RequireOperator(handlers.Viewer, "see the operator page")
	op.get("", h.OperatorPage, rl.limit("operator-page", 60))
	op.get("/drift", h.OperatorDrift, rl.limit("operator-drift", 30), viewer)
	// The live view checks the session itself, as the page does: a stranger gets the sign-in. It
	// is read every few seconds by each open operator page.
	op.get("/live", h.OperatorLive, rl.limit("operator-live", 120))
	op.post("/login", h.OperatorLogin, rl.limit("operator-login", 20), keys.middleware, h.SameOrigin)
	op.post("/logout", h.OperatorLogout, rl.limit("operator-logout", 30), h.RequireOperator(handlers.Signer, "sign out"))
	op.post("/passes/payments", h.OperatorAction(h.RunPayments), rl.limit("operator-payments", 60),
		h.RequireOperator(handlers.Operator, "run the passes"))
	op.post("/passes/credit", h.OperatorAction(h.RunCredit), rl.limit("operator-credit", 60),
		h.RequireOperator(handlers.Operator, "run the passes"))
	op.post("/minting", h.OperatorAction(h.HoldMintingFromPage), rl.limit("operator-minting", 60),
		h.RequireOperator(handlers.Operator, "hold or resume minting"))
	op.post("/tiers", h.SaveTierFromPage, rl.limit("operator-tiers", 60), h.RequireOperator(handlers.Admin, "change a tier's settings"))
	op.post("/referral-codes", h.SaveReferralFromPage, rl.limit("operator-referrals", 60),
		h.RequireOperator(handlers.Admin, "change the referral codes"))
	op.post("/tiers/:id/sale", h.OperatorAction(h.SetTierOnSale), rl.limit("operator-sale", 60),
		h.RequireOperator(handlers.Operator, "put a tier on or off sale"))
	// The allowlist and denylist uploads take a file (multipart, as large as the admin API's
	// upload) on these routes only: operatorUpload reads it once the session is known to be an operator's who may
	// upload, and before the session's CSRF token, which comes in the same body, is checked.
	upload := operator.group("", cacheControl(private), h.RequireOperatorPage, h.Site)
	const mayUpload = "upload a tier's allowlist"
	uploader := []echo.MiddlewareFunc{rl.limit("operator-allowlist", 30), h.RequireOperatorFirst(handlers.Operator, mayUpload),
		operatorUpload, h.RequireOperator(handlers.Operator, mayUpload)}
	upload.post(allowlistPreviewPage, h.PreviewAllowlistFromPage, uploader...)
	upload.post(allowlistSavePage, h.SaveAllowlistFromPage, uploader...)
	const mayDeny = "change the denylist"
	denier := []echo.MiddlewareFunc{rl.limit("operator-denylist", 30), h.RequireOperatorFirst(handlers.Admin, mayDeny),
		operatorUpload, h.RequireOperator(handlers.Admin, mayDeny)}
	upload.post(denylistPreviewPage, h.PreviewDenylistFromPage, denier...)
	upload.post(denylistSavePage, h.SaveDenylistFromPage, denier...)
	op.post("/held/:id/release", h.OperatorAction(h.ReleaseFromPage), rl.limit("operator-release", 60),
		h.RequireOperator(handlers.Admin, "release a held payment"))
	op.get("/exports/:file", h.Export, rl.limit("operator-export", 30), viewer)
	// Treasury batches (refunds, commissions): an operator builds one, each owner signs it with
	// their own wallet (any signed-in operator carries the signature; the signature is what
	// counts), and the batch's page, polled while it is open, follows it to its end. The paths
	// before treasury batches (/refund-batches, /commission-batches) answer as aliases.
	for path, kind := range map[string]store.BatchKind{"/treasury-batches": "", "/refund-batches": store.BatchRefunds, "/commission-batches": store.BatchCommissions} {
		op.post(path, h.ProposeBatchFromPage(kind), rl.limit("operator-treasury-batches", 30),
			h.RequireOperator(handlers.Operator, "propose treasury batches"))
	}
	// A batch's page, its approvals and its executions are also an owner's of the treasury who is
	// not on the operator list (a signer); the page signs a stranger in and comes back.
	for _, path := range []string{"/treasury-batches/:id", "/refund-batches/:id"} {
		op.get(path, h.TreasuryBatchPage, rl.limit("operator-treasury-batch", 120))
		op.post(path+"/approvals", h.ApproveTreasuryBatch, rl.limit("operator-treasury-batches", 30),
			h.RequireOperator(handlers.Signer, "approve treasury batches"))
		op.post(path+"/executions", h.ReportBatchExecution, rl.limit("operator-treasury-batches", 30),
			h.RequireOperator(handlers.Signer, "report treasury batch executions"))
	}
	op.post("/operators", h.OperatorAction(h.PutOperatorFromPage), rl.limit("operator-list", 60),
		h.RequireOperator(handlers.Admin, "change the operator list"))
	op.post("/operators/remove", h.OperatorAction(h.RemoveOperatorFromPage), rl.limit("operator-list", 60),
		h.RequireOperator(handlers.Admin, "change the operator list"))
	// The webhook forms: adding or rolling answers with the page, which shows the secret once.
	webhooks := []echo.MiddlewareFunc{rl.limit("operator-webhooks", 60), h.RequireOperator(handlers.Admin, "change the webhooks")}
	op.post("/webhooks", h.AddWebhookFromPage, webhooks...)
	op.post("/webhooks/:id/roll-secret", h.RollWebhookSecretFromPage, webhooks...)
	op.post("/webhooks/:id/delete", h.OperatorAction(h.DeleteWebhookFromPage), webhooks...)
	op.post("/webhooks/:id/enable", h.OperatorAction(h.EnableWebhookFromPage), webhooks...)
	op.post("/webhooks/:id/deliveries/:deliveryId/redeliver", h.OperatorAction(h.RedeliverFromPage), webhooks...)

	// The operator surface: not public, not in the OpenAPI document.
	admin := operator.gated("/api/admin", cacheControl(noStore), rl.limit("admin", 120), keys.middleware, h.RequireAdmin, accepted)
	admin.get("/tiers", h.AdminTiers)
	admin.add([]string{http.MethodPut}, "/tiers/:id", h.PutTier)
	admin.post("/tiers/:id/on-sale", h.TierOnSale(true))
	admin.post("/tiers/:id/off-sale", h.TierOnSale(false))
	admin.add([]string{http.MethodPut}, allowlistPath, h.PutAllowlist)
	admin.get("/tiers/:id/allowlist", h.AdminAllowlist)
	admin.get("/refunds", h.Refunds)
	admin.get("/drift", h.Drift)
	admin.get("/audit", h.Audit)
	admin.get("/settings-log", h.SettingsLog)
	admin.get("/exports/:file", h.Export)
	admin.get("/minting", h.Minting)
	admin.get("/treasury", h.AdminTreasury)
	// Treasury batches: the admin key proposes one and carries owners' signatures; only the
	// signatures can move the treasury's money. The paths before treasury batches answer as
	// aliases: /refund-batches (all of these) and /commission-batches (its proposal).
	admin.post("/treasury-batches", h.ProposeTreasuryBatch(""))
	admin.post("/refund-batches", h.ProposeTreasuryBatch(store.BatchRefunds))
	admin.post("/commission-batches", h.ProposeTreasuryBatch(store.BatchCommissions))
	for _, path := range []string{"/treasury-batches", "/refund-batches"} {
		admin.get(path, h.TreasuryBatches)
		admin.get(path+"/:id", h.TreasuryBatch)
		admin.post(path+"/:id/approvals", h.ApproveTreasuryBatch)
		admin.post(path+"/:id/executions", h.ReportBatchExecution)
	}
	admin.post("/minting/pause", h.HoldMinting(true))
	admin.post("/minting/resume", h.HoldMinting(false))
	admin.get("/compliance", h.Compliance)
	admin.add([]string{http.MethodPut}, "/kyc/:address", h.PutKYC)
	admin.add([]string{http.MethodPut}, kycListPath, h.PutKYCList)
	admin.get("/held-payments", h.HeldPayments)
	admin.post("/held-payments/:id/release", h.ReleasePayment)
	admin.add([]string{http.MethodPut}, denylistPath, h.PutDenylist)
	admin.get(denylistPath, h.Denylist)
	admin.get("/commissions", h.Commissions)
	admin.post("/referral-codes", h.AddReferralCode)
	admin.get("/referral-codes", h.ReferralCodes)
	admin.add([]string{http.MethodPut}, "/referral-codes/:code", h.PutReferralCode)
	admin.post("/webhooks", h.AddWebhook)
	admin.get("/webhooks", h.Webhooks)
	admin.add([]string{http.MethodDelete}, "/webhooks/:id", h.DeleteWebhook)
	admin.post("/webhooks/:id/roll-secret", h.RollWebhookSecret)
	admin.post("/webhooks/:id/enable", h.EnableWebhook)
	admin.get("/webhooks/:id/deliveries", h.WebhookDeliveries)
	admin.post("/webhooks/:id/deliveries/:deliveryId/redeliver", h.Redeliver)
}

// allowlistPath and denylistPath are the admin routes of list uploads, largeBodies.
const (
	allowlistPath = "/tiers/:id/allowlist"
	denylistPath  = "/denylist"
	kycListPath   = "/kyc"
)

// getOrPost are the methods of the routes the spec serves to both GET and POST.
var getOrPost = []string{http.MethodGet, http.MethodPost}

// group registers routes under a prefix, each with the group's middleware. It stands in for
// echo.Group, whose middleware also claims every unknown path under its prefix: on the root, a
// wrong method would get 404 instead of 405, and the metrics would lose "unmatched".
type group struct {
	e      *echo.Echo
	prefix string
	m      []echo.MiddlewareFunc
}

// group is a group under g's prefix with g's middleware and then m.
func (g group) group(prefix string, m ...echo.MiddlewareFunc) group {
	return group{g.e, g.prefix + prefix, append(slices.Clone(g.m), m...)}
}

// gated is g.group(prefix, m...) whose middleware also answers the unknown paths under prefix:
// there is nothing below /api/admin/ to find without the key.
func (g group) gated(prefix string, m ...echo.MiddlewareFunc) group {
	sub := g.group(prefix, m...)
	g.e.Group(sub.prefix, sub.m...)
	return sub
}

// add serves path to methods. A GET route also answers HEAD (RFC 9110 §9.3.2): the same status
// and headers, rate limit included, and no body, which net/http drops.
func (g group) add(methods []string, path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) {
	if slices.Contains(methods, http.MethodGet) {
		methods = append(slices.Clone(methods), http.MethodHead)
	}
	g.e.Match(methods, g.prefix+path, h, append(slices.Clone(g.m), m...)...)
}

func (g group) get(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) {
	g.add([]string{http.MethodGet}, path, h, m...)
}

func (g group) post(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) {
	g.add([]string{http.MethodPost}, path, h, m...)
}
