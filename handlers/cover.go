package handlers

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"nodeledger/chain"
	"nodeledger/views"
)

// Cover answers GET /api/cover: the factory's balance against what it owes, both read from the
// chain at one block. When the chain cannot be read the answer is 503, never a remembered or
// guessed figure.
func (h *Handlers) Cover(c echo.Context) error {
	cv, err := h.chain.Cover(c.Request().Context())
	if err != nil {
		h.log.Warn("cover: chain unreadable", "err", err)
		return errorf(http.StatusServiceUnavailable, "The chain cannot be read right now, so the cover is unknown; please retry in a little while.")
	}
	return c.JSON(http.StatusOK, map[string]any{
		"contract":       strings.ToLower(h.chain.Factory().Hex()),
		"balanceWei":     cv.Balance.String(),
		"outstandingWei": cv.Outstanding.String(),
		"covered":        cv.Covered(),
		"paused":         cv.Paused,
		"block":          cv.Block,
	})
}

// coverView is a cover reading as the pages show it.
func coverView(cv chain.Cover) *views.Cover {
	return &views.Cover{Balance: cv.Balance, Outstanding: cv.Outstanding, Covered: cv.Covered(), Solvent: cv.Solvent, Paused: cv.Paused}
}
