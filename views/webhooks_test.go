package views

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"nodeledger/store"
)

// The operator page's webhooks: each endpoint's state, with why it was switched off, and its
// latest deliveries with what their last try got back.
func TestWebhookList(t *testing.T) {
	off, at := "every try of event evt_1 failed for 72h0m0s; the last: HTTP 502", time.Date(2026, 11, 24, 10, 5, 0, 0, time.UTC)
	code := 502
	ws := []Webhook{
		{Webhook: store.Webhook{URL: "https://ops.example/hook", Events: []string{"*"}, Delivered: 1200, Pending: 3}},
		{Webhook: store.Webhook{URL: "https://crm.example/in", Events: []string{"payment.minted", "tier.sold_out"},
			DisabledAt: &at, DisabledReason: &off, Failed: 1},
			Deliveries: []store.Delivery{{EventType: store.EventPaymentMinted, Status: store.DeliveryFailed, Attempts: 60,
				Tries: store.Attempts{{At: at, StatusCode: &code, LatencyMs: 41, Response: "  Bad gateway\n"}}}}},
	}
	var b strings.Builder
	if err := webhookList(ws).Render(t.Context(), &b); err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(b.String(), " ")), " ")
	for _, want := range []string{
		"https://ops.example/hook — *. On. 1,200 delivered, 3 waiting, 0 given up.",
		"https://crm.example/in — payment.minted, tier.sold_out. Switched off 2026-11-24 10:05 UTC: " + off + ".",
		"payment.minted failed, 60 tries 2026-11-24 10:05 UTC, 41 ms HTTP 502: Bad gateway",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the list says %q; want %q in it", text, want)
		}
	}
}
