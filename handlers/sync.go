package handlers

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/labstack/echo/v4"

	"nodeledger/jobs"
	"nodeledger/store"
)

// SyncNode answers POST /api/nodes/sync with {"txHash": "0x..."} or {"nodeId": "..."}: it records
// a node the signed-in wallet just minted, before the reconciler would. Who owns it is read from
// the chain, never from the body.
func (h *Handlers) SyncNode(c echo.Context) error {
	addr, err := h.sessionAddress(c)
	if err != nil {
		return err
	}
	var body map[string]json.RawMessage
	if err := decodeBody(c, &body); err != nil {
		return err
	}
	bad := errorf(http.StatusBadRequest, `The body must be exactly one of {"txHash": "0x..."} or {"nodeId": "..."}.`)
	if len(body) != 1 {
		return bad
	}
	ctx, wallet := c.Request().Context(), common.HexToAddress(addr)
	var node store.Node
	switch {
	case body["txHash"] != nil:
		var hash string
		if json.Unmarshal(body["txHash"], &hash) != nil || !txHashRe.MatchString(hash) {
			return errorf(http.StatusBadRequest, "txHash must be a transaction hash: 0x and 64 hexadecimal digits.")
		}
		node, err = h.jobs.SyncTx(ctx, wallet, common.HexToHash(hash))
	case body["nodeId"] != nil:
		id, perr := parseNodeID(jsonNumberOrString(body["nodeId"]))
		if perr != nil {
			return perr
		}
		node, err = h.jobs.SyncID(ctx, wallet, id)
	default:
		return bad
	}
	switch {
	case errors.Is(err, jobs.ErrNotMinted):
		return errorf(http.StatusNotFound, "No node with that id is minted, or its mint has not confirmed yet; retry in a little while.")
	case errors.Is(err, jobs.ErrMintFailed):
		return errorf(http.StatusBadRequest, "That transaction failed on chain.")
	case errors.Is(err, jobs.ErrNoMint):
		return errorf(http.StatusBadRequest, "That transaction confirmed without minting a node.")
	case errors.Is(err, jobs.ErrNotYours):
		return errorf(http.StatusForbidden, "The chain names another wallet as this node's owner.")
	case errors.Is(err, jobs.ErrMovedOn):
		return errorf(http.StatusConflict, "The mint named your wallet, but the chain no longer does; nothing was recorded.")
	case err != nil:
		return err
	}
	listed, err := h.store.NodeByChainIDJSON(ctx, node.ChainNodeID.Int)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]json.RawMessage{"node": listed})
}

// jsonNumberOrString is a JSON number's digits or a JSON string's content; anything else comes
// back as is, and fails the parse after it.
func jsonNumberOrString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return strings.TrimSpace(string(raw))
}
