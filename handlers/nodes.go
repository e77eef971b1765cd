package handlers

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"nodeledger/store"
)

// NodesOfWallet answers GET /api/nodes/{address}: the wallet's nodes, oldest first.
func (h *Handlers) NodesOfWallet(c echo.Context) error {
	owner, err := parseAddress(c.Param("address"))
	if err != nil {
		return err
	}
	nodes, err := h.store.NodesByOwner(c.Request().Context(), owner)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, mapSlice(nodes, toNodeJSON))
}

// Node list limits of GET /api/node/{id}, applied to credits and withdrawals separately.
const (
	nodeListDefault = 50
	nodeListMax     = 200
)

// Node answers GET /api/node/{id}: id is a chain node id or, failing that, a ledger row id.
func (h *Handlers) Node(c echo.Context) error {
	id, err := parseNodeID(c.Param("id"))
	if err != nil {
		return err
	}
	limit, err := parseLimit(c.QueryParam("limit"), c.QueryParams().Has("limit"), nodeListDefault, nodeListMax)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	n, err := h.store.Node(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return errorf(http.StatusNotFound, fmt.Sprintf("No node has the id %s.", id))
	}
	if err != nil {
		return err
	}
	credits, err := h.store.Credits(ctx, n.ID, limit)
	if err != nil {
		return err
	}
	withdrawals, err := h.store.Withdrawals(ctx, n.ID, limit)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, nodeDetailJSON{
		nodeJSON:    toNodeJSON(n),
		Owner:       &n.Owner,
		PriceWei:    n.PriceWei.String(),
		Credits:     mapSlice(credits, toCreditJSON),
		Withdrawals: mapSlice(withdrawals, toWithdrawalJSON),
	})
}
