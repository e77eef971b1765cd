package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// Stats answers GET /api/stats from a short in-process memo.
func (h *Handlers) Stats(c echo.Context) error {
	st, err := h.stats.get(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{
		"totalNodes":          st.TotalNodes,
		"operators":           st.Operators,
		"totalDistributedWei": st.TotalDistributedWei.String(),
		"distributions24hWei": st.Distributed24hWei.String(),
	})
}
