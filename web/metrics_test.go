package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"

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

}

// TestDashboardMetrics holds the Grafana dashboard in docs/monitoring to what the server exports:
// every metric a panel queries is on a live instance's /metrics (its passes run once), and every
// label a panel groups by is one of that metric's.
func TestDashboardMetrics(t *testing.T) {
	t.Parallel() // it only reads the process's metrics: whatever other tests add, none disappears
	db := storetest.New(t)
	p, cfg := passesOn(t, db)
	storetest.Tier(t, db, 1, "Small", "1", true)
	mustExec(t, db, `UPDATE tiers SET supply = 10 WHERE id = 1`)
	s := p.server(t, cfg)
	wantStatus(t, s.get(t, "/api/stats"), http.StatusOK)
	wantStatus(t, s.get(t, "/api/nodes/0x"+strings.Repeat("0", 40)), http.StatusOK) // a read of what is kept
	if sum := p.jobs.Tick(t.Context()); sum.PaymentsError != "" {
		t.Fatalf("tick: %+v", sum)
	}

	rec := httptest.NewRecorder()
	MetricsHandler(p.jobs.Collector()).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	var parser expfmt.TextParser
	families, err := parser.TextToMetricFamilies(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	if f := families["nodeledger_tier_units_left"]; f == nil || len(f.Metric) != 1 || f.Metric[0].GetGauge().GetValue() != 10 {
		t.Fatalf("units left: %v", f)
	}

	raw, err := os.ReadFile("../docs/monitoring/grafana-dashboard.json")
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(raw, &dash); err != nil {
		t.Fatal(err)
	}
	names, by := regexp.MustCompile(`nodeledger_[a-z0-9_]+`), regexp.MustCompile(`by \(([^)]*)\)`)
	queried := 0
	for _, panel := range dash.Panels {
		for _, target := range panel.Targets {
			labels := map[string]bool{"le": true}
			for _, name := range names.FindAllString(target.Expr, -1) {
				f := families[name]
				if f == nil { // a histogram's series: name_bucket, name_sum, name_count
					for _, suffix := range []string{"_bucket", "_sum", "_count"} {
						if h := families[strings.TrimSuffix(name, suffix)]; h != nil && h.GetType() == dto.MetricType_HISTOGRAM {
							f = h
						}
					}
				}
				if f == nil || len(f.Metric) == 0 {
					t.Errorf("%q queries %s, which the server does not export", panel.Title, name)
					continue
				}
				queried++
				for _, m := range f.Metric {
					for _, l := range m.Label {
						labels[l.GetName()] = true
					}
				}
			}
			for _, group := range by.FindAllStringSubmatch(target.Expr, -1) {
				for _, l := range strings.Split(group[1], ",") {
					if l = strings.TrimSpace(l); !labels[l] {
						t.Errorf("%q groups by %s, a label none of its metrics has: %s", panel.Title, l, target.Expr)
					}
				}
			}
		}
	}
	if queried < 20 {
		t.Fatalf("the dashboard queries %d metrics: is it read at all?", queried)
	}
}
