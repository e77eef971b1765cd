package views

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"nodeledger/store"
)

// The operator page's webhooks: each endpoint's state, with why it was switched off, and its
// latest deliveries with what their last try got back; an admin's forms.
func TestWebhookList(t *testing.T) {
	off, at := "every try of event evt_1 failed for 72h0m0s; the last: HTTP 502", time.Date(2026, 11, 24, 10, 5, 0, 0, time.UTC)
	code := 502
	long := "<html>" + strings.Repeat("upstream unreachable; ", 20) + "</html>" // past what a log line shows
	ws := []Webhook{
		{Webhook: store.Webhook{ID: 1, URL: "https://ops.example/hook", Events: []string{"*"}, Delivered: 1200, Pending: 3}},
		{Webhook: store.Webhook{ID: 2, URL: "https://crm.example/in", Events: []string{"payment.minted", "tier.sold_out"},
			DisabledAt: &at, Failed: 1}, Off: off,
			Deliveries: []store.Delivery{{ID: 7, EventType: store.EventPaymentMinted, Status: store.DeliveryFailed, Attempts: 60,
				Tries: store.Attempts{{At: at, StatusCode: &code, LatencyMs: 41, Response: "  Bad gateway\n"}}},
				{ID: 8, EventType: store.EventPaymentSeen, Status: store.DeliveryFailed, Attempts: 1,
					Tries: store.Attempts{{At: at, StatusCode: &code, LatencyMs: 12, Response: long}}}}},
	}
	render := func(o Operator) string {
		var b strings.Builder
		if err := webhookList(o).Render(t.Context(), &b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	viewer := render(Operator{Me: store.Operator{Role: store.RoleViewer}, Webhooks: ws})
	text := strings.Join(strings.Fields(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(viewer, " ")), " ")
	for _, want := range []string{
		"#1 https://ops.example/hook — *. On. 1,200 delivered, 3 waiting, 0 given up.",
		"#2 https://crm.example/in — payment.minted, tier.sold_out. Switched off 2026-11-24 10:05 UTC: " + off + ".",
		"payment.minted failed, 60 tries 2026-11-24 10:05 UTC, 41 ms HTTP 502: Bad gateway",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the list says %q; want %q in it", text, want)
		}
	}
	if strings.Contains(viewer, "<form") {
		t.Error("a viewer gets the webhook forms")
	}
	// A long answer: its start on the line, the whole of it (as kept) one click away.
	if want := "<summary>HTTP 502: &lt;html&gt;upstream unreachable; upstream"; !strings.Contains(viewer, want) ||
		!strings.Contains(viewer, "<pre>&lt;html&gt;upstream unreachable; ") || strings.Count(viewer, "<details>") != 1 {
		t.Errorf("the long answer: %s", viewer)
	}

	// An admin gets a form per action, and the secret made just now.
	until := at.Add(24 * time.Hour)
	admin := render(Operator{Me: store.Operator{Role: store.RoleAdmin}, Webhooks: ws,
		WebhookSecret: &WebhookSecret{ID: 2, URL: "https://crm.example/in", Secret: "whsec_abc", PreviousUntil: &until}})
	for action, n := range map[string]int{
		`action="/operator/webhooks/1/roll-secret"`: 1, `action="/operator/webhooks/2/roll-secret"`: 1,
		`action="/operator/webhooks/2/enable"`: 1, `action="/operator/webhooks/1/enable"`: 0,
		`action="/operator/webhooks/2/delete"`: 1, `action="/operator/webhooks/2/deliveries/7/redeliver"`: 1,
		`action="/operator/webhooks/2/deliveries/8/redeliver"`: 1, `action="/operator/webhooks"`: 1, `name="csrf"`: 8,
	} {
		if got := strings.Count(admin, action); got != n {
			t.Errorf("%s: %d times, want %d", action, got, n)
		}
	}
	if !strings.Contains(admin, `data-testid="webhook-secret">whsec_abc</code>`) ||
		!strings.Contains(admin, "The old secret signs every delivery too until 2026-11-25 10:05 UTC") {
		t.Errorf("the secret card: %s", admin)
	}
}
