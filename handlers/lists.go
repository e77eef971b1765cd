package handlers

import (
	"context"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"nodeledger/store"
	"nodeledger/views"
)

// The pages' own paging of long lists (a node's credits and withdrawals, the nodes on /me): a
// first page a phone shows in a screen or two, and a "Show older" row that brings the next one in
// its place (htmx, from the partials here) or opens it as a page without JavaScript
// (?credits_before=, ?withdrawals_before=, ?nodes_after=). The API keeps its one paging, the
// latest limit of GET /api/node/{id}.

// listPage is how many rows a page's list shows at a time unless ?limit= says otherwise.
const listPage = 10

// page trims rows fetched one beyond n to n, and gives the id of the last row kept when there
// were more (0: none).
func page[T any](rows []T, n int, id func(T) int64) ([]T, int64) {
	if len(rows) <= n {
		return rows, 0
	}
	rows = rows[:n]
	return rows, id(rows[n-1])
}

func creditID(c store.Credit) int64         { return c.ID }
func withdrawalID(w store.Withdrawal) int64 { return w.ID }
func nodeRowID(n store.Node) int64          { return n.ID }

// parseCursor reads a paging cursor, a row id: 0 when absent.
func parseCursor(raw string) (int64, error) {
	if raw == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || n < 1 {
		return 0, errorf(http.StatusBadRequest, "That is not a place in this list: reload the page.")
	}
	return n, nil
}

// pageNodeLists pages the node page's credits and withdrawals: d holds up to n+1 of the newest
// of each (one beyond the page, to tell whether more follow), unless the request opens a list
// further down (?credits_before=, ?withdrawals_before=).
func (h *Handlers) pageNodeLists(c echo.Context, d *views.NodeDetail, n int) (err error) {
	ctx, id := c.Request().Context(), d.Node.ChainNodeID.Int
	if d.CreditsFrom, err = parseCursor(c.QueryParam("credits_before")); err != nil {
		return err
	}
	if d.WithdrawalsFrom, err = parseCursor(c.QueryParam("withdrawals_before")); err != nil {
		return err
	}
	if d.CreditsFrom != 0 {
		if d.Credits, err = h.store.NodeCredits(ctx, id, d.CreditsFrom, n+1); err != nil {
			return err
		}
	}
	if d.WithdrawalsFrom != 0 {
		if d.Withdrawals, err = h.store.NodeWithdrawals(ctx, id, d.WithdrawalsFrom, n+1); err != nil {
			return err
		}
	}
	d.Credits, d.CreditsMore = page(d.Credits, n, creditID)
	d.Withdrawals, d.WithdrawalsMore = page(d.Withdrawals, n, withdrawalID)
	return nil
}

// listParams reads a list partial's node id and cursor.
func listParams(c echo.Context) (*big.Int, int64, error) {
	id, err := parseNodeID(c.Param("id"))
	if err != nil {
		return nil, 0, err
	}
	before, err := parseCursor(c.QueryParam("before"))
	return id, before, err
}

// NodeCreditsPartial answers GET /partials/node/{id}/credits?before=: the next page of the node
// page's credits, as rows of its table.
func (h *Handlers) NodeCreditsPartial(c echo.Context) error {
	id, before, err := listParams(c)
	if err != nil {
		return err
	}
	credits, err := h.store.NodeCredits(c.Request().Context(), id, before, listPage+1)
	if err != nil {
		return err
	}
	credits, more := page(credits, listPage, creditID)
	return render(c, http.StatusOK, views.CreditRows(id.String(), credits, more, time.Now()))
}

// NodeWithdrawalsPartial answers GET /partials/node/{id}/withdrawals?before=: the next page of
// the node page's withdrawals, as rows of its table.
func (h *Handlers) NodeWithdrawalsPartial(c echo.Context) error {
	id, before, err := listParams(c)
	if err != nil {
		return err
	}
	ws, err := h.store.NodeWithdrawals(c.Request().Context(), id, before, listPage+1)
	if err != nil {
		return err
	}
	ws, more := page(ws, listPage, withdrawalID)
	return render(c, http.StatusOK, views.WithdrawalRows(id.String(), ws, more, time.Now()))
}

// nodesAfter is the page of nodes that follows node after (0: the first page), with the id of
// its last node when more follow.
func nodesAfter(nodes []store.Node, after int64) ([]store.Node, int64) {
	from := 0
	if after != 0 {
		from = len(nodes)
		for i, n := range nodes {
			if n.ID == after {
				from = i + 1
				break
			}
		}
	}
	end := min(from+listPage+1, len(nodes))
	return page(nodes[from:end], listPage, nodeRowID)
}

// MeNodesPartial answers GET /partials/me/nodes?after=: the next page of /me's nodes, as rows of
// its table.
func (h *Handlers) MeNodesPartial(c echo.Context) error {
	addr, err := h.sessionAddress(c)
	if err != nil {
		return err
	}
	after, err := parseCursor(c.QueryParam("after"))
	if err != nil {
		return err
	}
	// Only what the rows show: not the totals, payments and chain check of the whole page.
	ctx := c.Request().Context()
	nodes, err := h.store.NodesByOwner(ctx, addr)
	if err != nil {
		return err
	}
	tiers, err := h.store.Tiers(ctx)
	if err != nil {
		return err
	}
	m := views.Me{Address: addr, Tiers: views.NewTierNames(tiers)}
	m.Factory, m.Withdraw = h.withdrawCall()
	shown, more := nodesAfter(nodes, after)
	return render(c, http.StatusOK, views.MeNodeRows(m, shown, more))
}

// withdrawCall is what an owner's withdraw form calls: the factory and withdraw's selector.
func (h *Handlers) withdrawCall() (factory, selector string) {
	return strings.ToLower(h.chain.Factory().Hex()), h.chain.WithdrawSelector()
}

// paidOut reads what the withdrawal a page was sent back with (?paid=, by the withdraw form once
// the ledger recorded it) paid out: nothing when there is no such parameter, or no such
// withdrawal recorded as sent.
func (h *Handlers) paidOut(ctx context.Context, c echo.Context) ([]store.PaidOut, error) {
	raw := c.QueryParam("paid")
	if raw == "" {
		return nil, nil
	}
	hash, err := parseTxHash(raw)
	if err != nil {
		return nil, err
	}
	return h.store.PaidOutByTx(ctx, hash)
}
