package handlers

import (
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"nodeledger/store"
)

// maxDigestBlocks bounds the blocks one call of GET /api/ledger/digests covers.
const maxDigestBlocks = 1000

// digestJSON is one block's digest as GET /api/ledger/digests gives it.
type digestJSON struct {
	Block     int64  `json:"block"`
	BlockHash string `json:"blockHash"`
	Events    int    `json:"events"`
	Digest    string `json:"digest"`
}

// LedgerDigests answers GET /api/ledger/digests?from=&to=: the digest of every block from..to
// (at most maxDigestBlocks of them; to: the last block digested, from: the 1,000 blocks
// up to to) that holds ledger events, oldest first. The header x-ledger-digested-to says how far
// the digests go (absent: nothing is digested yet), so that a block absent below it holds no
// events and one above it is not digested yet.
func (h *Handlers) LedgerDigests(c echo.Context) error {
	ctx := c.Request().Context()
	bad := fmt.Sprintf("from and to must be block numbers (whole numbers), from no more than to, at most %d blocks apart.", maxDigestBlocks)
	cur, err := h.store.Cursor(ctx, store.DigestsCursor)
	digested := err == nil
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	to, err := parseBlock(c, "to", cur.Number, bad)
	if err != nil {
		return err
	}
	from, err := parseBlock(c, "from", max(to-maxDigestBlocks+1, 0), bad)
	if err != nil {
		return err
	}
	if from > to || to-from >= maxDigestBlocks {
		return errorf(http.StatusBadRequest, bad)
	}
	digests, err := h.store.StoredDigests(ctx, from, to)
	if err != nil {
		return err
	}
	out := make([]digestJSON, len(digests))
	for i, d := range digests {
		out[i] = digestJSON{Block: d.Block, BlockHash: d.BlockHash, Events: d.Events, Digest: "0x" + hex.EncodeToString(d.Digest)}
	}
	if digested {
		c.Response().Header().Set("x-ledger-digested-to", strconv.FormatInt(cur.Number, 10))
	}
	return c.JSON(http.StatusOK, out)
}
