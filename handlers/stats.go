package handlers

import (
	"context"
	"encoding/json"

	"github.com/labstack/echo/v4"

	"nodeledger/store"
)

// Stats answers GET /api/stats from a short in-process memo, encoded once per load.
func (h *Handlers) Stats(c echo.Context) error {
	st, err := h.stats.Get(c.Request().Context())
	if err != nil {
		return err
	}
	return document(c, st.json)
}

// statsAnswer is the stats with their JSON answer.
type statsAnswer struct {
	store.Stats
	json []byte
}

func (h *Handlers) loadStats(ctx context.Context) (statsAnswer, error) {
	st, err := h.read().Stats(ctx)
	if err != nil {
		return statsAnswer{}, err
	}
	body, err := json.Marshal(map[string]any{
		"totalNodes":          st.TotalNodes,
		"operators":           st.Operators,
		"totalDistributedWei": st.TotalDistributedWei.String(),
		"distributions24hWei": st.Distributed24hWei.String(),
	})
	return statsAnswer{st, append(body, '\n')}, err
}
