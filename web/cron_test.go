package web

import (
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"nodeledger/handlers"
	"nodeledger/jobs"
	"nodeledger/store"
)

// passesOn returns the passes over the package's database and a fresh dev chain.
func passesOn(t *testing.T) (*jobs.Jobs, *handlers.Config) {
	dc, c := startDevChain(t)
	j := jobs.New(db, c, dc.Minter.Key, dc.Distributor.Key, jobs.Config{ChainID: dc.ChainID(), PaymentAddress: dc.Payments},
		slog.New(slog.DiscardHandler))
	return j, &handlers.Config{Jobs: j, Chain: c}
}

func TestCronPaymentsRoute(t *testing.T) {
	_, cfg := passesOn(t)
	const key = "a-long-enough-cron-key"

	t.Run("404 when no key is configured", func(t *testing.T) {
		s := newServer(t, *cfg)
		for _, m := range []string{http.MethodGet, http.MethodPost} {
			wantStatus(t, s.do(t, m, "/api/cron/payments", "", "X-Cron-Key", key), http.StatusNotFound)
		}
	})

	cfg.CronKey = key
	s := newServer(t, *cfg)
	for _, tc := range []struct {
		name   string
		header []string
	}{
		{"no key", nil},
		{"wrong key", []string{"X-Cron-Key", "a-long-enough-cron-kex"}},
		{"key of another length", []string{"X-Cron-Key", "short"}},
		{"wrong bearer", []string{"Authorization", "Bearer nope"}},
		{"key without Bearer", []string{"Authorization", key}},
	} {
		t.Run("401 for "+tc.name, func(t *testing.T) {
			rec := s.do(t, http.MethodPost, "/api/cron/payments", "", tc.header...)
			wantStatus(t, rec, http.StatusUnauthorized)
			if msg := errorMessage(t, rec); strings.Contains(strings.ToLower(msg), "key") {
				t.Fatalf("401 says too much: %q", msg)
			}
		})
	}
	for _, header := range [][]string{{"X-Cron-Key", key}, {"Authorization", "Bearer " + key}} {
		t.Run("200 with "+header[0], func(t *testing.T) {
			for _, m := range []string{http.MethodGet, http.MethodPost} {
				rec := s.do(t, m, "/api/cron/payments", "", header...)
				wantStatus(t, rec, http.StatusOK)
				if sum := decode[jobs.PaymentsSummary](t, rec); !sum.Ran {
					t.Fatalf("summary %+v", sum)
				}
				if rec.Header().Get("Cache-Control") != "no-store" {
					t.Fatalf("Cache-Control %q", rec.Header().Get("Cache-Control"))
				}
			}
		})
	}
	t.Run("an overlapping call is 200 with ran false", func(t *testing.T) {
		unlock, ok, err := db.TryLock(t.Context(), store.LockPayments)
		if err != nil || !ok {
			t.Fatalf("lock: %v %v", ok, err)
		}
		defer unlock()
		rec := s.do(t, http.MethodPost, "/api/cron/payments", "", "X-Cron-Key", key)
		wantStatus(t, rec, http.StatusOK)
		if sum := decode[jobs.PaymentsSummary](t, rec); sum.Ran || sum.Reason == "" {
			t.Fatalf("summary %+v", sum)
		}
	})
}
