package web

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"nodeledger/handlers"
	"nodeledger/store/storetest"
)

func TestMetrics(t *testing.T) {
	// Not parallel: it reads the process's metrics, which every request moves.
	db := storetest.New(t)
	s := newServer(t, db, handlers.Config{})
	s.e.GET("/api/test/boom", func(echo.Context) error { panic("boom") })
	for _, tc := range []struct {
		path, route string
		status      int
	}{
		{"/api/stats", "/api/stats", http.StatusOK},
		{"/api/node/abc", "/api/node/:id", http.StatusBadRequest},
		{"/api/node/12345", "/api/node/:id", http.StatusNotFound},
		{"/api/no/such/route", "unmatched", http.StatusNotFound},
		{"/api/test/boom", "/api/test/boom", http.StatusInternalServerError},
	} {
		counter := httpRequests.WithLabelValues(tc.route, http.MethodGet, strconv.Itoa(tc.status))
		before := testutil.ToFloat64(counter)
		rec := s.do(t, http.MethodGet, tc.path, "")
		wantStatus(t, rec, tc.status)
		if got := testutil.ToFloat64(counter) - before; got != 1 {
			t.Errorf("%s: counted %v times under %s %d", tc.path, got, tc.route, tc.status)
		}
	}

	rec := httptest.NewRecorder()
	MetricsHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	for _, name := range []string{"nodeledger_http_requests_total", "nodeledger_http_request_duration_seconds",
		"nodeledger_rpc_failures_total", "nodeledger_scan_lag_blocks", "go_goroutines"} {
		if !strings.Contains(string(body), name) {
			t.Errorf("/metrics has no %s", name)
		}
	}
}
