package e2e

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"nodeledger/store"
)

// hookLog is a real webhook receiver, as an integrator runs one: it keeps, for each payment, the
// types of the events it got about it in the order they came, and, for each event, how long
// after it was written it first arrived, and how many times it came again.
type hookLog struct {
	*httptest.Server
	subscribed []string

	mu         sync.Mutex
	byTx       map[string][]string
	types      map[string]int  // events by type, each counted once
	seen       map[string]bool // event ids
	lags       []time.Duration // from an event's createdAt to its first arrival
	deliveries int
	repeats    int // deliveries of an event that had come before
	unreadable int // deliveries that were no event
}

func newHookLog(t *testing.T) *hookLog {
	h := &hookLog{byTx: map[string][]string{}, types: map[string]int{}, seen: map[string]bool{}}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		at := time.Now()
		var ev struct {
			ID        string    `json:"id"`
			Type      string    `json:"type"`
			CreatedAt time.Time `json:"createdAt"`
			Data      struct {
				Payment *struct {
					TxHash string `json:"txHash"`
				} `json:"payment"`
			} `json:"data"`
		}
		err := json.NewDecoder(req.Body).Decode(&ev)
		h.mu.Lock()
		defer h.mu.Unlock()
		h.deliveries++
		switch {
		case err != nil || ev.ID == "":
			h.unreadable++
		case h.seen[ev.ID]:
			h.repeats++
		default:
			h.seen[ev.ID] = true
			h.types[ev.Type]++
			h.lags = append(h.lags, at.Sub(ev.CreatedAt))
			if p := ev.Data.Payment; p != nil {
				tx := strings.ToLower(p.TxHash)
				h.byTx[tx] = append(h.byTx[tx], ev.Type)
			}
		}
	}))
	t.Cleanup(h.Close)
	return h
}

// subscribe adds the receiver as a webhook of the service s serves, for events.
func (h *hookLog) subscribe(t *testing.T, s *server, events ...string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"url": h.URL, "events": events})
	if status, answer := s.send(t, http.MethodPost, "/api/admin/webhooks", "X-Admin-Key", adminKey, string(body)); status != http.StatusCreated {
		t.Fatalf("adding the webhook: %d %v", status, answer)
	}
	h.subscribed = events
}

// settled waits until the ledger has no delivery waiting (at most wait), then names each
// settled payment whose events did not all arrive, in order: payment.seen, then minted or
// rejected, then refunded, as far as the webhook asked for them.
func (h *hookLog) settled(t *testing.T, ledger *store.Store, wait time.Duration) (missing []string, payments int) {
	t.Helper()
	for deadline := time.Now().Add(wait); ; time.Sleep(500 * time.Millisecond) {
		var waiting int
		if err := ledger.DB().Get(&waiting, `SELECT count(*) FROM webhook_deliveries WHERE status = 'pending'`); err != nil {
			t.Fatal(err)
		}
		if waiting == 0 {
			break
		}
		if time.Now().After(deadline) {
			return []string{fmt.Sprintf("%d deliveries still waiting after %v", waiting, wait)}, 0
		}
	}
	var rows []struct {
		Tx     string `db:"tx_hash"`
		Status string `db:"status"`
	}
	if err := ledger.DB().Select(&rows, `SELECT tx_hash, status FROM payments WHERE status IN ('minted', 'rejected', 'refunded', 'held') ORDER BY id`); err != nil {
		t.Fatal(err)
	}
	life := map[string][]string{"minted": {"payment.seen", "payment.minted"}, "rejected": {"payment.seen", "payment.rejected"},
		"refunded": {"payment.seen", "payment.rejected", "payment.refunded"}, "held": {"payment.seen", "payment.held"}}
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, p := range rows {
		var want []string
		for _, e := range life[p.Status] {
			if slices.Contains(h.subscribed, e) || slices.Contains(h.subscribed, "*") {
				want = append(want, e)
			}
		}
		if got := h.byTx[p.Tx]; !slices.Equal(got, want) {
			missing = append(missing, fmt.Sprintf("payment %s, %s: the receiver got %v, want %v", p.Tx, p.Status, got, want))
		}
	}
	return missing, len(rows)
}

// summary tells what came: events by type, repeats, and how long after its writing an event
// first arrived.
func (h *hookLog) summary() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var types []string
	for _, k := range slices.Sorted(maps.Keys(h.types)) {
		types = append(types, fmt.Sprintf("%d %s", h.types[k], k))
	}
	lag := "no event"
	if len(h.lags) > 0 {
		p50, _ := percentile(h.lags, 50)
		p99, _ := percentile(h.lags, 99)
		worst, _ := percentile(h.lags, 100)
		lag = fmt.Sprintf("written → received p50 %v, p99 %v, at most %v", p50.Round(time.Millisecond), p99.Round(time.Millisecond), worst.Round(time.Millisecond))
	}
	return fmt.Sprintf("%d deliveries: %s; %d repeats (an event sent again after a kill), %d unreadable; %s",
		h.deliveries, strings.Join(types, ", "), h.repeats, h.unreadable, lag)
}
