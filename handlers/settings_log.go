package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"nodeledger/store"
)

// Limits of GET /api/admin/settings-log.
const (
	settingsLogDefault = 100
	settingsLogMax     = 1000
)

// SettingsLog answers GET /api/admin/settings-log?after=&limit=: the settings log's entries after
// seq after, in order, as `nodeledger settings export` writes them, and after, the seq to ask
// after next (the last one given; the same after when there is nothing new). A follower keeps its
// copy by asking again from there and checks each entry against the one before it.
func (h *Handlers) SettingsLog(c echo.Context) error {
	limit, err := parseLimit(c.QueryParam("limit"), c.QueryParams().Has("limit"), settingsLogDefault, settingsLogMax)
	if err != nil {
		return err
	}
	after, err := parseAfter(c.QueryParam("after"), "after must be a settings log entry's seq (a whole number).")
	if err != nil {
		return err
	}
	entries, err := h.store.SettingsLog(c.Request().Context(), after, limit)
	if err != nil {
		return err
	}
	if entries == nil {
		entries = []store.LogEntry{}
	} else {
		after = entries[len(entries)-1].Seq
	}
	return c.JSON(http.StatusOK, map[string]any{"entries": entries, "after": after})
}
