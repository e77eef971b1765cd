// Package handlers answers the routes: each method reads the store and the chain and renders
// the result, a page or its JSON twin from the same calls. Failures are returned as errors;
// Classify says what each means for a client, and the web package writes the response.
//
// One rule for the API's JSON: the handlers own its shapes (web/openapi.json describes them)
// and build them in Go from the store's structs (json.go). PostgreSQL builds a shape instead
// (store/json.go) only where a benchmark shows it pays: the node routes, GET /api/nodes/{address}
// and GET /api/node/{id} (server CPU a request 125 to 69 µs and 866 to 224 µs, bench/README.md
// Findings; route figures in bench/RESULTS.md), and GET /api/distributions (473 to 141 µs).
// Such a document is passed through as it is; a route that embeds a node (/api/me,
// /api/nodes/sync) reuses the node document, so a node has one writer; and a page decodes the
// same document (store.Node, me) rather than reading the ledger another way.
package handlers

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/big"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/gorilla/sessions"
	"github.com/labstack/echo/v4"

	"nodeledger/chain"
	"nodeledger/jobs"
	"nodeledger/jobs/memo"
	"nodeledger/jobs/sale"
	"nodeledger/jobs/treasury"
	"nodeledger/migrations"
	"nodeledger/store"
	"nodeledger/views"
)

// PriceSource quotes ETH in US dollars for display.
type PriceSource interface {
	USDPerETH(ctx context.Context) (float64, error)
}

// Config is what the handlers need to know about this deployment.
type Config struct {
	ChainID        int64
	ChainName      string      // the network's name for people; empty: a well-known name or "Chain <id>"
	WalletRPC      string      // an RPC URL wallets may add the network with; empty: none is public
	Explorer       string      // a block explorer's base URL (EXPLORER_URL); empty: no links
	PaymentAddress string      // lower case; empty when not configured
	Price          PriceSource // nil when there is no quote source

	PublicURL     *url.URL // where browsers reach us: the sign-in message's domain and URI
	SessionSecret []byte   // signs the session cookies

	// Treasury is the Safe the sale's money goes to (TREASURY_ADDRESS); zero: none configured.
	Treasury common.Address

	CronKey  string // empty: the cron pass routes are off
	AdminKey string // empty: /api/admin/* does not exist
	DevAdmin string // dev mode: the factory owner's address, an admin the operator page names

	// RefundPolicy is when the operator refunds a payment that buys no node, as a phrase such as
	// "within 2 working days" (REFUND_POLICY); empty: no promise of a time. SupportURL is where a
	// buyer asks about it (SUPPORT_URL: http(s) or mailto); empty: none.
	RefundPolicy string
	SupportURL   string

	TickSec       int // the scheduler's tick interval
	StaleAfterSec int // how old the last tick may be before the scheduler is stale
	// MinterLowMints (MINTER_LOW_MINTS): health is degraded while the minter's balance pays for
	// fewer mints than this at today's fees; 0: DefaultMinterLowMints.
	MinterLowMints int
	// RequireSyncStandby (DB_REQUIRE_SYNC_STANDBY): health is degraded while the database has no
	// synchronous standby.
	RequireSyncStandby bool
	DistEnabled        bool
	DistMode           store.DistMode
	// What a round pays, as the credit pass has it (DIST_PERIOD_SEC, DIST_BASE_WEI, DIST_POOL_WEI):
	// the pages show what a node earns from them.
	DistPeriod  time.Duration
	DistBaseWei *big.Int
	DistPoolWei *big.Int

	// ExportSlots is how many CSV exports this instance streams at once (EXPORT_MAX_CONCURRENT);
	// 0: ExportSlotsFor(store.DefaultMaxConns). ExportStall is how long an export waits for a
	// reader that takes nothing before it cuts the file short (EXPORT_STALL_SEC); 0: 30 s.
	// exports.go says why both exist.
	ExportSlots int
	ExportStall time.Duration

	// KYC is where buyers' identities are checked (KYC_PROVIDER and the rest).
	KYC KYCConfig
	// Geo tells the countries whose buyers the pages offer no way to pay (BLOCKED_COUNTRIES,
	// GEOIP_DB); nil: none.
	Geo *Geo

	// ChainReadsPerSec is how many requests a second this instance makes of the chain for its
	// visitors (CHAIN_READS_PER_SEC): a tracker's transaction, the pre-check, /buy's wallet
	// figures; past it they answer from what is known, saying so. 0: DefaultChainReadsPerSec.
	ChainReadsPerSec int

	// Reads is where the public read routes read the ledger (a standby while it keeps up, else
	// the primary: store.Reads); nil: the primary always.
	Reads *store.Reads

	// Now is the clock of the handlers' caches (the stats, the price, the live view's totals,
	// the chain's head, mined transfers); nil: time.Now. A test steps it past a cache's lifetime
	// instead of waiting it out.
	Now func() time.Time
}

// Handlers serves every route from the ledger, the chain and the passes.
type Handlers struct {
	store    *store.Store
	chain    *chain.Client // a chain that cannot be read answers errors, shown as unknown readings
	jobs     *jobs.Jobs    // the passes the cron routes and the operator page run
	cfg      Config
	log      *slog.Logger
	sale     *sale.Sale // the sale's rules and its read model (jobs.Sale)
	treasury *treasury.Treasury
	stats    *memo.Value[statsAnswer]
	rounds   []*memo.Value[json.RawMessage] // /api/distributions, by limit (newRounds)
	ready    *memo.Value[store.Readiness]   // the database's part of /readyz
	price    *memo.Value[*float64]
	totals   *memo.Value[saleTotals]                // the operator's live view's all-time figures
	head     *memo.Value[uint64]                    // the chain's head, for the confirmations of a payment not recorded yet
	reads    *chain.Budget                          // the chain requests visitors' routes may make (ChainReadsPerSec)
	payments *sale.Tracker                          // where a payment's truth is, for its buyer
	wallets  *memo.Watched[string, json.RawMessage] // /api/nodes/{address}'s documents, kept while unchanged (FollowLedger)
	sessions *sessions.CookieStore
	exports  chan struct{} // a token for each export being streamed, ExportSlots at most
}

// /api/stats is served from memory for statsTTL, then for up to statsStale more while one query
// refreshes it: counting a million nodes takes a good part of a second, and under steady traffic
// no caller waits for it. After a quiet spell longer than both, a caller waits for fresh stats.
const (
	statsTTL   = 3 * time.Second
	statsStale = 5 * time.Second
)

// DefaultChainReadsPerSec is Config.ChainReadsPerSec unless set: with the trackers' shared reads,
// a sale day of 3,000 trackers made about 4 a block (bench/SALEDAY-3000.md).
const DefaultChainReadsPerSec = 20

// headTTL is how long the chain's head is kept: a payment not recorded yet counts its
// confirmations from it, and a second is a fraction of any chain's block time.
const headTTL = time.Second

// loadHead is the chain's head for the pages and probes: the one the passes' follower saw within
// headTTL, where it runs (it asks once a second where the node pushes no heads), or asked. The
// instances' pages then cost the chain no request of their own for it (issue 53 §4: they were
// one request a second each).
func (h *Handlers) loadHead(ctx context.Context) (uint64, error) {
	if n, ok := h.chain.FollowedHead(headTTL); ok {
		return n, nil
	}
	return h.chain.HeadNumber(ctx)
}

// priceTTL makes the upstream quote read at most once a minute for all callers.
const priceTTL = time.Minute

// New returns the handlers.
func New(s *store.Store, ch *chain.Client, passes *jobs.Jobs, cfg Config, log *slog.Logger) *Handlers {
	if cfg.ChainName == "" {
		cfg.ChainName = views.NetworkName(cfg.ChainID)
	}
	cfg.Explorer = strings.TrimRight(cfg.Explorer, "/")
	if cfg.ExportSlots <= 0 {
		cfg.ExportSlots = ExportSlotsFor(store.DefaultMaxConns)
	}
	if cfg.ExportStall <= 0 {
		cfg.ExportStall = defaultExportStall
	}
	if cfg.PublicURL == nil {
		cfg.PublicURL = &url.URL{Scheme: "http", Host: "127.0.0.1:8080"}
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Reads == nil {
		cfg.Reads = store.NewReads(s, nil, 0)
	}
	h := &Handlers{store: s, chain: ch, jobs: passes, sale: passes.Sale(), treasury: passes.Treasury(), cfg: cfg, log: log, sessions: newSessionStore(cfg.SessionSecret, cfg.PublicURL.Scheme == "https")}
	h.stats = memo.NewOn(cfg.Now, statsTTL, statsStale, h.loadStats).Reads(store.ErrUnavailable)
	h.rounds = h.newRounds()
	h.ready = memo.NewOn(cfg.Now, readyTTL, readyStale, func(ctx context.Context) (store.Readiness, error) {
		return s.Readiness(ctx, migrations.FS)
	}).Reads(store.ErrUnavailable)
	h.price = memo.NewOn(cfg.Now, priceTTL, 0, h.loadPrice)
	h.totals = memo.NewOn(cfg.Now, totalsTTL, totalsStale, h.loadTotals).Reads(store.ErrUnavailable)
	h.head = memo.NewOn(cfg.Now, headTTL, 0, h.loadHead).Reads(chain.ErrUnavailable)
	h.reads = chain.NewBudget(cmp.Or(cfg.ChainReadsPerSec, DefaultChainReadsPerSec))
	h.payments = sale.NewTracker(h.sale, s, ch, strings.ToLower(cfg.PaymentAddress), passes.Confirmations(), h.head, h.reads, cfg.Now)
	h.wallets = newWallets()
	h.exports = make(chan struct{}, cfg.ExportSlots)
	return h
}

// read is the ledger the public read routes read (stats, nodes, a node, distributions): a
// standby while it keeps up with the primary (DATABASE_READ_URL), else the primary. Never for a
// session route, a write or what a write decides on.
func (h *Handlers) read() *store.Store { return h.cfg.Reads.Store() }

// Site puts the frame's facts in the context of a page's request (views.Site): the network, the
// explorer, and the signed-in wallet. A session that cannot be checked shows as signed out.
func (h *Handlers) Site(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		s := views.Site{ChainID: h.cfg.ChainID, Network: h.cfg.ChainName, WalletRPC: h.cfg.WalletRPC, Explorer: h.cfg.Explorer,
			RefundPolicy: h.cfg.RefundPolicy, SupportURL: h.cfg.SupportURL}
		s.SignedIn, _ = h.sessionAddress(c)
		r := c.Request()
		c.SetRequest(r.WithContext(views.WithSite(r.Context(), s)))
		return next(c)
	}
}

// errorf is a failure whose message is a sentence safe to show to the client.
func errorf(status int, message string) error {
	return echo.NewHTTPError(status, message)
}

// Livez answers as long as the process serves requests (also at /healthz, its older name).
func (h *Handlers) Livez(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
}

// readyLagBlocks is how far past the confirmations an endpoint may trail the best head this
// instance knows and still count as reading the chain.
const readyLagBlocks = 3

// The database's part of /readyz is read from a memo: for readyTTL, then for up to readyStale
// more while one query refreshes it. A probe that queued behind the requests of a loaded pool
// would outlast its check's timeout (HAProxy's waits a second), and the balancer would take every
// instance of a busy sale out of rotation at once, when they are needed most: it did, 27 times
// in a 3,000-tracker sale day, leaving none 7 times. A database gone read-only or behind on
// migrations is still seen within a probe or two; one that cannot answer for readyStale is not ready.
const (
	readyTTL   = time.Second
	readyStale = 10 * time.Second
)

// Readyz answers 200 while this instance can do its work: the ledger's database takes writes and
// holds every migration the binary knows, and the chain is read within CONFIRMATIONS + 3 blocks
// of its head on at least one endpoint. Otherwise 503 with why. The head is the trackers' memo:
// however often a load balancer probes, an instance asks for it at most once a second.
func (h *Handlers) Readyz(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), 2*time.Second)
	defer cancel()
	r, err := h.ready.Get(ctx)
	switch {
	case err != nil:
		return err
	case !r.Writable:
		return errorf(http.StatusServiceUnavailable, "Not ready: the ledger's database takes no writes (a standby or a read-only session).")
	case r.Pending > 0:
		return errorf(http.StatusServiceUnavailable, fmt.Sprintf("Not ready: the ledger's database lacks %d of this version's migrations.", r.Pending))
	}
	lag := h.jobs.Confirmations() + readyLagBlocks
	if _, err := h.head.Get(ctx); err != nil || !readsChain(h.chain.Endpoints(), lag) {
		return errorf(http.StatusServiceUnavailable, fmt.Sprintf("Not ready: no RPC endpoint answers within %d blocks of the chain's head.", lag))
	}
	return c.JSON(http.StatusOK, map[string]string{"status": "ready"})
}

// readsChain tells whether one endpoint answered a head and trails the best by at most lag.
func readsChain(eps []chain.Endpoint, lag uint64) bool {
	for _, ep := range eps {
		if ep.Head > 0 && ep.Behind <= lag && (ep.State == chain.EndpointOK || ep.State == chain.EndpointStale) {
			return true
		}
	}
	return false
}
