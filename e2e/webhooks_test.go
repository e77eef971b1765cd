//go:build long

package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
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
