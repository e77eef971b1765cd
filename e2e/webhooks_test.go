//go:build long

package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"nodeledger/store"
)

// TestWebhookSurvivesAKill kills the real binary with SIGKILL while it is delivering
// payment.minted (the receiver holds the request open): the event was written with the mint, so
// the next start delivers it, with the same id, once the dead instance's lease runs out.
func TestWebhookSurvivesAKill(t *testing.T) {
	d := newDeployment(t, "WEBHOOK_ALLOW_PRIVATE=true")
	var mu sync.Mutex
	var got []map[string]any
	inFlight, release := make(chan struct{}), make(chan struct{})
	r := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		var ev map[string]any
		json.Unmarshal(body, &ev)
		mu.Lock()
		got = append(got, ev)
		first := len(got) == 1
		mu.Unlock()
		if first { // hold the first delivery open until its sender is dead
			close(inFlight)
			<-release
			return
		}
		io.WriteString(w, "ok")
	}))
	defer r.Close()
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()

	s := startServer(t, d.bin, d.env)
	if status, body := s.send(t, http.MethodPost, "/api/admin/webhooks", "X-Admin-Key", adminKey,
		`{"url": "`+r.URL+`", "events": ["payment.minted"]}`); status != http.StatusCreated {
		t.Fatalf("adding the webhook: %d %v", status, body)
	}
	tx := d.buyers[0].send(t, d.eth, d.payTo, d.price)
	select {
	case <-inFlight:
	case <-time.After(90 * time.Second):
		t.Fatalf("no delivery of the mint\nserver log:\n%s", s.out)
	}
	s.kill()
	close(release)
	var pending int
	if err := d.ledger.DB().QueryRow(`SELECT count(*) FROM webhook_deliveries WHERE status = 'pending' AND attempts = 0`).Scan(&pending); err != nil || pending != 1 {
		t.Fatalf("after the kill: %d deliveries pending and untried, want 1 (%v)", pending, err)
	}

	s = startServer(t, d.bin, d.env)
	deadline := time.Now().Add(60 * time.Second)
	for {
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not delivered after the restart\nserver log:\n%s", s.out)
		}
		time.Sleep(100 * time.Millisecond)
	}
	mu.Lock()
	first, again := got[0], got[1]
	mu.Unlock()
	payment, _ := again["data"].(map[string]any)["payment"].(map[string]any)
	if again["id"] != first["id"] || again["type"] != "payment.minted" || payment == nil || !strings.EqualFold(payment["txHash"].(string), tx) {
		t.Fatalf("first %v, then %v", first, again)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		var delivered int
		d.ledger.DB().QueryRow(`SELECT count(*) FROM webhook_deliveries WHERE status = 'delivered'`).Scan(&delivered)
		if delivered == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the delivery is not recorded delivered")
		}
	}
}

// paymentHooks is a real webhook receiver that keeps, for each payment, the types of the events
// it got about it, in the order they came, and how many deliveries came in all.
type paymentHooks struct {
	*httptest.Server
	mu         sync.Mutex
	byTx       map[string][]string
	deliveries int
}

func newPaymentHooks(t *testing.T) *paymentHooks {
	h := &paymentHooks{byTx: map[string][]string{}}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var ev struct {
			Type string `json:"type"`
			Data struct {
				Payment struct {
					TxHash string `json:"txHash"`
				} `json:"payment"`
			} `json:"data"`
		}
		if err := json.NewDecoder(req.Body).Decode(&ev); err != nil || ev.Data.Payment.TxHash == "" {
			t.Errorf("a delivery that is no payment event: %v", err)
		}
		h.mu.Lock()
		tx := strings.ToLower(ev.Data.Payment.TxHash)
		h.byTx[tx] = append(h.byTx[tx], ev.Type)
		h.deliveries++
		h.mu.Unlock()
	}))
	t.Cleanup(h.Close)
	return h
}

// subscribe adds the receiver as a webhook of the server, for the events that settle a payment.
func (h *paymentHooks) subscribe(t *testing.T, s *server) {
	t.Helper()
	if status, body := s.send(t, http.MethodPost, "/api/admin/webhooks", "X-Admin-Key", adminKey,
		`{"url": "`+h.URL+`", "events": ["payment.minted", "payment.rejected", "payment.refunded"]}`); status != http.StatusCreated {
		t.Fatalf("adding the webhook: %d %v", status, body)
	}
}

// check waits until the ledger has no delivery waiting, then fails for each settled payment
// whose events did not all arrive: minted, rejected, or rejected then refunded.
func (h *paymentHooks) check(t *testing.T, ledger *store.Store) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(500 * time.Millisecond) {
		var waiting int
		if err := ledger.DB().Get(&waiting, `SELECT count(*) FROM webhook_deliveries WHERE status = 'pending'`); err != nil {
			t.Fatal(err)
		}
		if waiting == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d deliveries still waiting after 2 minutes", waiting)
		}
	}
	var payments []struct {
		Tx     string `db:"tx_hash"`
		Status string `db:"status"`
	}
	if err := ledger.DB().Select(&payments, `SELECT tx_hash, status FROM payments ORDER BY id`); err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"minted": {"payment.minted"}, "rejected": {"payment.rejected"},
		"refunded": {"payment.rejected", "payment.refunded"}}
	h.mu.Lock()
	defer h.mu.Unlock()
	again := 0
	for _, p := range payments {
		got := h.byTx[p.Tx]
		seen := map[string]int{}
		for _, e := range got {
			seen[e]++
		}
		for _, e := range want[p.Status] {
			if seen[e] == 0 {
				t.Errorf("payment %s, %s: the receiver got %v, not %s", p.Tx, p.Status, got, e)
			}
			again += max(seen[e]-1, 0)
		}
		if p.Status == "refunded" && slices.Index(got, "payment.refunded") < slices.Index(got, "payment.rejected") {
			t.Errorf("payment %s: refunded came before rejected: %v", p.Tx, got)
		}
		if len(seen) != len(want[p.Status]) {
			t.Errorf("payment %s, %s: the receiver got %v", p.Tx, p.Status, got)
		}
	}
	t.Logf("webhooks: %d deliveries for %d payments, each payment's events all received; %d came more than once (a kill between the receiver's answer and its record)",
		h.deliveries, len(payments), again)
}
