package handlers

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"nodeledger/chain"
)

// Cover answers GET /api/cover: the factory's balance against what it owes, both read from the
// chain at one block. When the chain cannot be read the answer is 503, never a remembered or
// guessed figure.
func (h *Handlers) Cover(c echo.Context) error {
	cv, err := h.readCover(c.Request().Context())
	if err != nil {
		h.log.Warn("cover: chain unreadable", "err", err)
		return errorf(http.StatusServiceUnavailable, "The chain cannot be read right now, so the cover is unknown; please retry in a little while.")
	}
	return c.JSON(http.StatusOK, map[string]any{
		"contract":       strings.ToLower(h.cfg.Chain.Factory().Hex()),
		"balanceWei":     cv.Balance.String(),
		"outstandingWei": cv.Outstanding.String(),
		"covered":        cv.Covered(),
		"paused":         cv.Paused,
		"block":          cv.Block,
	})
}

// errNoChain is the reading of every chain figure on a server without a chain.
var errNoChain = fmt.Errorf("no chain configured: %w", chain.ErrUnavailable)

func (h *Handlers) readCover(ctx context.Context) (chain.Cover, error) {
	if h.cfg.Chain == nil {
		return chain.Cover{}, errNoChain
	}
	return h.cfg.Chain.Cover(ctx)
}
