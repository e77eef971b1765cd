package handlers

import (
	"encoding/csv"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"nodeledger/store"
)

// exportFlush is how many rows go out between flushes: the client sees the file grow, and the
// server holds a few kilobytes of it at most.
const exportFlush = 500

// Export answers GET /api/admin/exports/{table}.csv?from=&to= and the operator page's links to
// the same (/operator/exports/…): a table of the books as CSV (RFC 4180, a header row, CRLF),
// streamed while the database reads it. from and to are ISO dates or times in UTC; a date for
// to takes its whole day.
func (h *Handlers) Export(c echo.Context) error {
	name, csvFile := strings.CutSuffix(c.Param("file"), ".csv")
	e, known := store.Exports[name]
	if !csvFile || !known {
		names := make([]string, 0, len(store.Exports))
		for n := range store.Exports {
			names = append(names, n+".csv")
		}
		slices.Sort(names)
		return errorf(http.StatusNotFound, "There is no such export: the exports are "+strings.Join(names, ", ")+".")
	}
	from, err := exportTime("from", c.QueryParam("from"), false)
	if err != nil {
		return err
	}
	to, err := exportTime("to", c.QueryParam("to"), true)
	if err != nil {
		return err
	}
	if from != nil && to != nil && !from.Before(*to) {
		return errorf(http.StatusBadRequest, "from must come before to.")
	}

	w := c.Response()
	out := csv.NewWriter(w)
	out.UseCRLF = true
	// The answer starts with the first row, so that a database that cannot be read is still a
	// 503 in the envelope; past that, a failure cuts the file short, and the log says why.
	start := func() error {
		if w.Committed {
			return nil
		}
		w.Header().Set(echo.HeaderContentType, "text/csv; charset=utf-8")
		w.Header().Set(echo.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="nodeledger-%s.csv"`, name))
		w.WriteHeader(http.StatusOK)
		return out.Write(e.Header())
	}
	rows := 0
	err = h.store.Stream(c.Request().Context(), e, from, to, func(fields []string) error {
		if err := start(); err != nil {
			return err
		}
		if rows++; rows%exportFlush == 0 {
			out.Flush()
			w.Flush()
		}
		return out.Write(fields)
	})
	if err == nil {
		err = start()
	}
	if err != nil && w.Committed {
		h.log.Error("export cut short", "export", name, "rows", rows, "err", err)
		return nil
	}
	if err != nil {
		return err
	}
	out.Flush()
	return out.Error()
}

// exportTime reads an export's from or to: an ISO date (2026-11-24) or time
// (2026-11-24T08:00:00Z); nil when absent. A date for to means the end of that day.
func exportTime(param, q string, end bool) (*time.Time, error) {
	if q == "" {
		return nil, nil
	}
	if d, err := time.Parse(time.DateOnly, q); err == nil {
		if end {
			d = d.AddDate(0, 0, 1)
		}
		return &d, nil
	}
	t, err := time.Parse(time.RFC3339, q)
	if err != nil {
		return nil, errorf(http.StatusBadRequest, param+" must be an ISO 8601 date (2026-11-24) or time in UTC (2026-11-24T08:00:00Z).")
	}
	return &t, nil
}
