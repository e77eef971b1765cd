package handlers

import (
	"context"
	"errors"
	"math/big"
	"net/http"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"nodeledger/chain"
	"nodeledger/jobs/sale"
	"nodeledger/static"
	"nodeledger/store"
	"nodeledger/views"
)

// render writes a templ component as the HTML answer, with the request's context but not its
// deadline: templ stops at the first component it meets after the context ends, and a page whose
// chain reading used up the request's time would go out cut short, with a 200 already sent.
func render(c echo.Context, status int, t templ.Component) error {
	c.Response().Header().Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	c.Response().WriteHeader(status)
	return t.Render(context.WithoutCancel(c.Request().Context()), c.Response())
}

// chartDays is how many days the overview's chart covers.
const chartDays = 14

// OverviewPage answers GET /: stats, cover, price, tiers and the latest rounds.
func (h *Handlers) OverviewPage(c echo.Context) error {
	o, err := h.overview(c.Request().Context())
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.OverviewPage(o))
}

// StatsPartial answers GET /partials/stats: the part of the overview htmx refreshes every 10 s,
// so it reads only what it shows.
func (h *Handlers) StatsPartial(c echo.Context) error {
	o, err := h.overviewStats(c.Request().Context())
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.OverviewStats(o))
}

// overview gathers the overview with the calls its JSON twins make (/api/stats, /api/cover,
// /api/price, /api/tiers, /api/distributions).
func (h *Handlers) overview(ctx context.Context) (views.Overview, error) {
	o, err := h.overviewStats(ctx)
	if err != nil {
		return o, err
	}
	tiers, err := h.sale.Tiers(ctx)
	if err != nil {
		return o, err
	}
	plain := mapSlice(tiers, func(t sale.TierNow) store.Tier { return t.Tier })
	// As /buy says it: a node bought now shares the pool with the others.
	earnings := h.earnings(ctx, plain, true)
	o.Tiers = mapSlice(tiers, func(t sale.TierNow) views.OverviewTier {
		ot := views.OverviewTier{Tier: t.Tier, Phase: t.Phase, Earnings: earnings[t.ID], Remaining: t.Remaining, InTokens: t.InTokens}
		if why := sale.WhyClosed(t, tiers, o.Now).Precheck(); why != nil {
			ot.Why = *why
		}
		return ot
	})
	if o.Rounds, err = h.store.Distributions(ctx, 10); err != nil {
		return o, err
	}
	o.PerDay, err = h.store.DistributedPerDay(ctx, chartDays)
	return o, err
}

// overviewStats gathers the refreshed part of the overview: stats, price and cover. A chain that
// cannot be read shows as such.
func (h *Handlers) overviewStats(ctx context.Context) (views.Overview, error) {
	o := views.Overview{Now: time.Now()}
	st, err := h.stats.Get(ctx)
	if err != nil {
		return o, err
	}
	o.Stats = st.Stats
	if o.USD, err = h.price.Get(ctx); err != nil {
		return o, err
	}
	o.Contract = strings.ToLower(h.chain.Factory().Hex())
	if cv, err := h.chain.Cover(ctx); err == nil {
		o.Cover = coverView(cv)
	}
	return o, nil
}

// Static answers GET /static/{hash}/{name}: an embedded file, cached for a year since its URL
// changes with its content.
func (h *Handlers) Static(c echo.Context) error {
	name := c.Param("name")
	b, ok := static.Open(c.Param("hash"), name)
	if !ok {
		return echo.ErrNotFound
	}
	c.Response().Header().Set(echo.HeaderCacheControl, "public, max-age=31536000, immutable")
	ctype := "application/octet-stream"
	switch {
	case strings.HasSuffix(name, ".js"):
		ctype = "text/javascript; charset=utf-8"
	case strings.HasSuffix(name, ".css"):
		ctype = "text/css; charset=utf-8"
	}
	return c.Blob(http.StatusOK, ctype, b)
}

// NodePage answers GET /node/{id}: what /api/node/{id} shows, with the owner checked against
// nodeInfo. The page always names an owner: the chain's when it answers, the ledger's otherwise,
// and says which.
func (h *Handlers) NodePage(c echo.Context) error {
	d, err := h.nodeDetail(c)
	if err != nil {
		return err
	}
	d.Factory, d.Withdraw = h.withdrawCall()
	d.Earnings = h.earnings(c.Request().Context(), []store.Tier{d.Tier}, false)[d.Tier.ID]
	d.Owner, d.OwnerCheck = d.Node.Owner, views.OwnerConfirmed
	info, err := h.chain.NodeInfo(c.Request().Context(), d.Node.ChainNodeID.Int)
	switch {
	case errors.Is(err, chain.ErrUnknownNode):
		d.OwnerCheck = views.OwnerNotOnChain
	case err != nil:
		h.log.Warn("node page: nodeInfo unreadable", "node", d.Node.ChainNodeID, "err", err)
		d.OwnerCheck = views.OwnerUnconfirmed
	case strings.ToLower(info.Owner.Hex()) != d.Node.Owner:
		d.Owner, d.OwnerCheck = strings.ToLower(info.Owner.Hex()), views.OwnerDiffers
	}
	return render(c, http.StatusOK, views.NodePage(d))
}

// WalletPage answers GET /wallet/{address}: the wallet's nodes, as /api/nodes/{address}.
func (h *Handlers) WalletPage(c echo.Context) error {
	w, err := h.wallet(c)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.WalletPage(w))
}

// WalletSearch answers GET /wallet?address=: the search form's target, which sends the browser
// on to the wallet's page.
func (h *Handlers) WalletSearch(c echo.Context) error {
	owner, err := parseAddress(strings.TrimSpace(c.QueryParam("address")))
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/wallet/"+owner)
}

// distributionsPageDefault is how many rounds the page shows before "Show more".
const distributionsPageDefault = 20

// DistributionsPage answers GET /distributions?limit=: rounds newest first, as /api/distributions.
func (h *Handlers) DistributionsPage(c echo.Context) error {
	limit, err := parseLimit(c.QueryParam("limit"), c.QueryParams().Has("limit"), distributionsPageDefault, distributionsMax)
	if err != nil {
		return err
	}
	rounds, err := h.store.Distributions(c.Request().Context(), limit)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.DistributionsPage(views.Rounds{Rounds: rounds, Limit: limit, Now: time.Now()}))
}

// TiersPage answers GET /tiers, a path people type for the tiers: they are on the buy page.
func (h *Handlers) TiersPage(c echo.Context) error {
	return c.Redirect(http.StatusMovedPermanently, "/buy")
}

// MePage answers GET /me: the signed-in dashboard (/api/me for people), or the sign-in button.
func (h *Handlers) MePage(c echo.Context) error {
	addr, err := h.sessionAddress(c)
	if errors.Is(err, errNotSignedIn) {
		return render(c, http.StatusOK, views.SignInPage())
	}
	if err != nil {
		return err
	}
	me, err := h.mePage(c, addr)
	if err != nil {
		return err
	}
	after, err := parseCursor(c.QueryParam("nodes_after"))
	if err != nil {
		return err
	}
	me.Shown, me.NodesMore = nodesAfter(me.Nodes, after)
	if me.PaidOut, err = h.paidOut(c.Request().Context(), c); err != nil {
		return err
	}
	if me.KYC, err = h.meKYC(c.Request().Context(), addr); err != nil {
		return err
	}
	return render(c, http.StatusOK, views.MePage(me))
}

// mePage reads what /me and its partials show of the signed-in wallet addr.
func (h *Handlers) mePage(c echo.Context, addr string) (views.Me, error) {
	ctx := c.Request().Context()
	me, _, _, err := h.me(ctx, addr)
	if err != nil {
		return me, err
	}
	tiers, err := h.store.Tiers(ctx)
	if err != nil {
		return me, err
	}
	me.Tiers = views.NewTierNames(tiers)
	me.Factory, me.Withdraw = h.withdrawCall()
	me.Now = time.Now()
	if len(me.Nodes) == 0 {
		return me, nil
	}
	if err := h.meRate(ctx, &me); err != nil {
		return me, err
	}
	return me, nil
}

// meRate adds to me what its nodes earn together, each at its tier's figure as /buy and /node
// tell it, and when the next round is due (the scheduler's time, one for every node).
func (h *Handlers) meRate(ctx context.Context, me *views.Me) error {
	me.Rate = views.MeRate{Off: !h.cfg.DistEnabled, Period: h.cfg.DistPeriod}
	if me.Rate.Off {
		return nil
	}
	now, err := h.sale.Tiers(ctx)
	if err != nil {
		return err
	}
	earnings := h.earnings(ctx, mapSlice(now, func(t sale.TierNow) store.Tier { return t.Tier }), false)
	perDay, per30 := new(big.Int), new(big.Int)
	for _, n := range me.Nodes {
		e, ok := earnings[n.Tier]
		if !ok || e.PerRound == nil {
			perDay, per30 = nil, nil
			break
		}
		perDay.Add(perDay, e.PerDay())
		per30.Add(per30, e.Per30Days())
	}
	me.Rate.PerDay, me.Rate.Per30 = perDay, per30
	sc, err := h.store.Schedule(ctx)
	if err != nil {
		return err
	}
	me.NextCredit = sc.NextAt
	return nil
}
