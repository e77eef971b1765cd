package handlers

import (
	"math/big"
	"net/http"

	"github.com/ethereum/go-ethereum/common"
	"github.com/labstack/echo/v4"
)

type unrecordedJSON struct {
	ChainNodeID string `json:"chainNodeId"`
}

// Me answers GET /api/me: the signed-in wallet, its ledger nodes and totals, and the nodes
// nodesOf(wallet) shows that the ledger has not recorded yet (null when the chain could not be
// read: not checked is not the same as none).
func (h *Handlers) Me(c echo.Context) error {
	addr, err := h.sessionAddress(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	nodes, err := h.store.NodesByOwner(ctx, addr)
	if err != nil {
		return err
	}
	balance, credited, withdrawn := new(big.Int), new(big.Int), new(big.Int)
	recorded := map[string]bool{}
	for _, n := range nodes {
		balance.Add(balance, n.BalanceWei)
		credited.Add(credited, n.CumulativeWei)
		withdrawn.Add(withdrawn, n.WithdrawnWei)
		recorded[n.ChainNodeID.String()] = true
	}
	var unrecorded []unrecordedJSON
	if h.cfg.Chain != nil {
		if ids, err := h.cfg.Chain.NodesOf(ctx, common.HexToAddress(addr)); err != nil {
			h.log.Warn("me: nodesOf unreadable", "err", err)
		} else {
			unrecorded = []unrecordedJSON{}
			for _, id := range ids {
				if !recorded[id.String()] {
					unrecorded = append(unrecorded, unrecordedJSON{ChainNodeID: id.String()})
				}
			}
		}
	}
	return c.JSON(http.StatusOK, map[string]any{
		"address": addr,
		"nodes":   mapSlice(nodes, toNodeJSON),
		"totals": map[string]string{
			"balanceWei": balance.String(), "cumulativeWei": credited.String(), "withdrawnWei": withdrawn.String(),
		},
		"unrecorded": unrecorded,
	})
}
