package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"nodeledger/jobs/memo"
	"nodeledger/store"
	"nodeledger/views"
)

// NodesOfWallet answers GET /api/nodes/{address}: the wallet's nodes, oldest first. The answer
// is kept until the ledger announces a change to the wallet's nodes (FollowLedger): building it
// costs the server more than the query costs the database (bench/README.md). Only what the
// primary answered is kept: a standby may not have replayed yet a change already announced.
func (h *Handlers) NodesOfWallet(c echo.Context) error {
	owner, err := parseAddress(c.Param("address"))
	if err != nil {
		return err
	}
	now := h.cfg.Now()
	if body, ok := h.wallets.Get(owner, now); ok {
		return document(c, body)
	}
	db := h.read()
	var read memo.Ticket
	if db == h.store {
		read = h.wallets.Reading(owner, now)
	}
	body, err := db.NodesByOwnerJSON(c.Request().Context(), owner)
	if err != nil {
		return err
	}
	h.wallets.Put(owner, read, body, now.Add(walletKeptFor))
	return document(c, body)
}

// The wallets' answers kept weigh walletsKeptBytes at most, walletsKept answers at most, each
// for walletKeptFor without an announcement of a change. In the benchmark's ledger an answer
// weighs 1.5 kB on average, its biggest whale's 4 MB; reading any of its wallets at random, the
// server's peak memory grew from 65 MB to 107 MB at 16 MB kept, and to 141 MB at 32. The time
// only limits what a change announced nowhere (a database restored under a running instance)
// would leave shown.
const (
	walletsKept      = 50_000
	walletsKeptBytes = 16 << 20
	walletKeptFor    = time.Minute
)

// newWallets is where NodesOfWallet keeps the wallets' answers.
func newWallets() *memo.Watched[string, json.RawMessage] {
	return &memo.Watched[string, json.RawMessage]{Name: "wallets", Max: walletsKept, MaxWeight: walletsKeptBytes,
		Weigh: func(doc json.RawMessage) int { return len(doc) }}
}

// walletPagePayments is how many of a wallet's latest payments its pages list.
const walletPagePayments = 20

// wallet reads the nodes of the request's address: what /wallet/{address} shows.
func (h *Handlers) wallet(c echo.Context) (views.Wallet, error) {
	owner, err := parseAddress(c.Param("address"))
	if err != nil {
		return views.Wallet{}, err
	}
	ctx := c.Request().Context()
	nodes, err := h.store.NodesByOwner(ctx, owner)
	if err != nil {
		return views.Wallet{}, err
	}
	tiers, err := h.store.Tiers(ctx)
	if err != nil {
		return views.Wallet{}, err
	}
	payments, err := h.paymentsFrom(ctx, owner, walletPagePayments)
	return views.Wallet{Address: owner, Nodes: nodes, Tiers: views.NewTierNames(tiers), Payments: mapSlice(payments, paymentView)}, err
}

// Node list limits of GET /api/node/{id}, applied to credits and withdrawals separately.
const (
	nodeListDefault = 50
	nodeListMax     = 200
)

// Node answers GET /api/node/{id}: id is the node's chain node id, which is its ledger row id.
func (h *Handlers) Node(c echo.Context) error {
	id, limit, err := nodeParams(c)
	if err != nil {
		return err
	}
	body, err := h.read().NodeJSON(c.Request().Context(), id, limit)
	if errors.Is(err, store.ErrNotFound) {
		return nodeNotFound(id)
	}
	if err != nil {
		return err
	}
	return document(c, body)
}

// nodeDetail reads the node of the request's id with its credits and withdrawals (a page of
// each, newest first): what /node/{id} shows, decoded from the document /api/node/{id} serves.
func (h *Handlers) nodeDetail(c echo.Context) (views.NodeDetail, error) {
	id, limit, err := nodeParams(c)
	if err != nil {
		return views.NodeDetail{}, err
	}
	if !c.QueryParams().Has("limit") {
		limit = listPage // a page a phone reads; pageNodeLists goes on from there
	}
	n, err := h.store.Node(c.Request().Context(), id, limit+1)
	if errors.Is(err, store.ErrNotFound) {
		return views.NodeDetail{}, nodeNotFound(id)
	}
	if err != nil {
		return views.NodeDetail{}, err
	}
	d := views.NodeDetail{NodeDetail: n, PayoutsOn: h.cfg.DistEnabled, Now: time.Now()}
	if err := h.pageNodeLists(c, &d, limit); err != nil {
		return d, err
	}
	if d.PaidOut, err = h.paidOut(c.Request().Context(), c); err != nil {
		return d, err
	}
	// The page names the tier; the API, as the spec has it, gives its number only.
	d.Tier, err = h.tierOf(c.Request().Context(), n.Tier)
	return d, err
}

// tierWait is how long a page waits for the tier list (a load reads the chain) before it names
// its tier from the ledger alone.
const tierWait = 500 * time.Millisecond

// tierOf is tier id with its payout weight, from the sale's read model (the tiers as GET
// /api/tiers shows them, kept a second): a node's page and a minted payment's tracker, polled by
// every buyer watching, ask the chain for the weights no more often than the tier list does. The
// zero Tier when the ledger has no such tier.
func (h *Handlers) tierOf(ctx context.Context, id int) (store.Tier, error) {
	wait, cancel := context.WithTimeout(ctx, tierWait)
	defer cancel()
	now, err := h.sale.Tiers(wait)
	tiers := make([]store.Tier, len(now))
	for i, t := range now {
		tiers[i] = t.Tier
	}
	if err != nil {
		// The list waits on the chain for the weights: a page whose chain is slow or down still
		// names its node's tier, from the ledger, its weight unknown.
		h.log.Warn("tiers: the tier list cannot be read; naming the tier from the ledger", "err", err)
		if tiers, err = h.store.Tiers(ctx); err != nil {
			return store.Tier{}, err
		}
	}
	for _, t := range tiers {
		if t.ID == id {
			return t, nil
		}
	}
	return store.Tier{}, nil
}

// nodeParams reads the id and the limit of /api/node/{id} and /node/{id}.
func nodeParams(c echo.Context) (*big.Int, int, error) {
	id, err := parseNodeID(c.Param("id"))
	if err != nil {
		return nil, 0, err
	}
	limit, err := parseLimit(c.QueryParam("limit"), c.QueryParams().Has("limit"), nodeListDefault, nodeListMax)
	return id, limit, err
}

func nodeNotFound(id *big.Int) error {
	return errorf(http.StatusNotFound, fmt.Sprintf("No node has the id %s.", id))
}
