package handlers

import (
	"context"
	"encoding/json"
	"math/big"
	"net/http"

	"github.com/ethereum/go-ethereum/common"
	"github.com/labstack/echo/v4"

	"nodeledger/views"
)

type unrecordedJSON struct {
	ChainNodeID string `json:"chainNodeId"`
}

// Me answers GET /api/me: the signed-in wallet, its ledger nodes and totals, the nodes
// nodesOf(wallet) shows that the ledger has not recorded yet (null when the chain could not be
// read: not checked is not the same as none), and its latest payments.
func (h *Handlers) Me(c echo.Context) error {
	addr, err := h.sessionAddress(c)
	if err != nil {
		return err
	}
	me, nodes, payments, err := h.me(c.Request().Context(), addr)
	if err != nil {
		return err
	}
	var unrecorded []unrecordedJSON
	if me.Unrecorded != nil {
		unrecorded = mapSlice(*me.Unrecorded, func(id *big.Int) unrecordedJSON { return unrecordedJSON{ChainNodeID: id.String()} })
	}
	return c.JSON(http.StatusOK, map[string]any{
		"address": addr,
		"nodes":   nodes,
		"totals": map[string]string{
			"balanceWei": me.Balance.String(), "cumulativeWei": me.Credited.String(), "withdrawnWei": me.Withdrawn.String(),
		},
		"unrecorded": unrecorded,
		"payments":   payments,
	})
}

// me reads what /api/me and /me show of wallet addr. The wallet's nodes are read once, as the
// document GET /api/nodes/{address} serves (returned as nodes, for /api/me), and decoded for the
// totals and the page; owner and price are not in it. Its payments are returned as /api/me
// shows them too.
func (h *Handlers) me(ctx context.Context, addr string) (views.Me, json.RawMessage, []paymentJSON, error) {
	nodes, err := h.store.NodesByOwnerJSON(ctx, addr)
	if err != nil {
		return views.Me{}, nil, nil, err
	}
	me := views.Me{Address: addr, Balance: new(big.Int), Credited: new(big.Int), Withdrawn: new(big.Int)}
	if err := json.Unmarshal(nodes, &me.Nodes); err != nil {
		return views.Me{}, nil, nil, err
	}
	recorded := map[string]bool{}
	for _, n := range me.Nodes {
		me.Balance.Add(me.Balance, n.BalanceWei.Int)
		me.Credited.Add(me.Credited, n.CumulativeWei.Int)
		me.Withdrawn.Add(me.Withdrawn, n.WithdrawnWei.Int)
		recorded[n.ChainNodeID.String()] = true
	}
	payments, err := h.paymentsFrom(ctx, addr, walletPagePayments)
	if err != nil {
		return views.Me{}, nil, nil, err
	}
	me.Payments = mapSlice(payments, paymentView)
	if ids, err := h.chain.NodesOf(ctx, common.HexToAddress(addr)); err != nil {
		h.log.Warn("me: nodesOf unreadable", "err", err)
	} else {
		unrecorded := []*big.Int{}
		for _, id := range ids {
			if !recorded[id.String()] {
				unrecorded = append(unrecorded, id)
			}
		}
		me.Unrecorded = &unrecorded
	}
	return me, nodes, payments, nil
}
