package web

import (
	"net/http"
	"net/http/pprof"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

var (
	httpRequests = promauto.NewCounterVec(prometheus.CounterOpts{
		Name: "nodeledger_http_requests_total",
		Help: "Answers by route pattern, method and status.",
	}, []string{"route", "method", "status"})
	httpSeconds = promauto.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "nodeledger_http_request_duration_seconds",
		Help:    "How long answers took, by route pattern.",
		Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
	}, []string{"route"})
)

// measure counts and times every answer by its route pattern (a bounded set: never the raw
// path). It hands a handler's error to the error handler itself, so that it sees the status the
// client gets.
func measure(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		if err := next(c); err != nil {
			c.Error(err)
		}
		route := c.Path()
		if route == "" {
			route = "unmatched"
		}
		httpRequests.WithLabelValues(route, c.Request().Method, strconv.Itoa(c.Response().Status)).Inc()
		httpSeconds.WithLabelValues(route).Observe(time.Since(start).Seconds())
		return nil
	}
}

// MetricsHandler serves /metrics for Prometheus and /debug/pprof/ for profiles. It belongs on
// METRICS_ADDR, a private address, never on the public listener. /metrics gives the process's
// own metrics and what ledger reads at each scrape (jobs.Jobs.Collector).
func MetricsHandler(ledger prometheus.Collector) http.Handler {
	reg := prometheus.NewRegistry()
	reg.MustRegister(ledger)
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(prometheus.Gatherers{prometheus.DefaultGatherer, reg}, promhttp.HandlerOpts{}))
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}
