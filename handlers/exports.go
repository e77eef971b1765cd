package handlers

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"nodeledger/store"
)

// exportFlush is how many rows go out between flushes: the client sees the file grow, and the
// server holds a few kilobytes of it at most.
const exportFlush = 500

// An export holds a database connection, in its read-only transaction, until its reader has
// taken the last row: the rows go out as they are read, and a reader that takes them slowly
// holds the query back. So any signed-in operator, a viewer too, could hold every connection
// of the pool with a few slow downloads, and the public routes and the passes would wait for
// one in vain (issue 32). Two bounds stop that, each against what the other leaves open:
//   - At most ExportSlots exports are streamed at once, well below DB_MAX_CONNS (a quarter of
//     it by default); one past them is refused at once with a 503 and retry-after, before it
//     takes a connection (503, not 429: the limit is the server's, whoever asks). However
//     slowly they are read, the exports cannot hold more.
//   - An export whose reader takes nothing for ExportStall is cut short: the write deadline,
//     renewed at each write, fails the blocked write, and the transaction and its slot end.
//     So a reader that stops holds a slot for ExportStall, not for ever.
//
// Reading by pages keyed on the last id (a short transaction a page) would hold no connection
// between pages, but it gives up the export's one snapshot (a row changed mid-export would be
// read in one state in one table and another in the next) and adds a query a page to the 1M-row
// exports; these bounds keep both, and cost a deadline's renewal per 4 KB written.
//
// A reader that keeps taking a little, just enough to beat the stall, still holds its slot for
// as long as it keeps on: it can keep other operators' exports waiting, never the pool.
const (
	defaultExportStall = 30 * time.Second
	// exportRetryAfter is the retry-after of an export refused for want of a slot, in seconds:
	// about what the largest export takes to read whole (bench/EXPORTS.md).
	exportRetryAfter = 10
)

// ExportSlotsFor is the default cap on the exports of an instance whose pool holds maxConns
// connections: a quarter of them, at least one.
func ExportSlotsFor(maxConns int) int {
	return max(1, maxConns/4)
}

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

	select {
	case h.exports <- struct{}{}:
		defer func() { <-h.exports }()
	default:
		c.Response().Header().Set(echo.HeaderRetryAfter, strconv.Itoa(exportRetryAfter))
		return errorf(http.StatusServiceUnavailable, fmt.Sprintf(
			"This server is already streaming %d exports, as many as it streams at once; retry in %d seconds.",
			cap(h.exports), exportRetryAfter))
	}

	w := c.Response()
	out := csv.NewWriter(h.stallCut(c, name))
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
	rows, told := 0, e.OutcomeFields()
	err = h.store.Stream(c.Request().Context(), e, from, to, func(fields []string) error {
		if err := start(); err != nil {
			return err
		}
		if rows++; rows%exportFlush == 0 {
			out.Flush()
			w.Flush()
		}
		if err := tellOutcomes(fields, told); err != nil {
			return err
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

// stallCut is the response writer of an export, which renews the connection's write deadline
// before each write: a write that the reader does not take within ExportStall fails, and with
// it the export. The csv writer in front writes 4 KB at a time, and so renews it as often.
func (h *Handlers) stallCut(c echo.Context, name string) io.Writer {
	rc := http.NewResponseController(c.Response())
	return writerFunc(func(p []byte) (int, error) {
		if rc != nil {
			err := rc.SetWriteDeadline(time.Now().Add(h.cfg.ExportStall))
			switch {
			case errors.Is(err, http.ErrNotSupported):
				// Not a connection of the server (a recorder): there is no reader to stall.
				// The log says so, since on the server it would mean a middleware hides the
				// connection and the stall cut is off.
				h.log.Warn("export without a write deadline: its writer has none", "export", name)
				rc = nil
			case err != nil:
				return 0, err
			}
		}
		return c.Response().Write(p)
	})
}

// writerFunc is a function that is an io.Writer.
type writerFunc func(p []byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

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
