package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"nodeledger/store"
	"nodeledger/store/storetest"
)

// An attempt is recorded only under the lease it was tried under, and moves its delivery on as
// its outcome says: delivered; failed, tried again later; given up, which switches the endpoint
// off and ends its lease. Under a lease another owner took, nothing is written.
func TestRecordAttempt(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.New(t)
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.DB().ExecContext(ctx, q, args...); err != nil {
			t.Fatal(err)
		}
	}
	exec(`INSERT INTO webhook_endpoints (id, url, events, secret, created_by) VALUES (1, 'https://example.com/in', '{*}', 's', 'admin')`)
	for i := 1; i <= 3; i++ {
		exec(`INSERT INTO webhook_events (id, type, subject, data) VALUES ($1, 'payment.seen', 's', '{}')`, i)
		exec(`INSERT INTO webhook_deliveries (id, endpoint_id, event_id) VALUES ($1, 1, $1)`, i)
	}
	leases, err := db.LeaseWebhooks(ctx, "me", 1, time.Minute)
	if err != nil || len(leases) != 1 {
		t.Fatalf("leased %v, %v", leases, err)
	}
	lease := leases[0]
	type row struct {
		Status   string `db:"status"`
		Attempts int    `db:"attempts"`
		Tries    int    `db:"tries"`
		Failure  string `db:"failure"`
	}
	delivery := func(id int) row {
		t.Helper()
		var r row
		if err := db.DB().GetContext(ctx, &r, `
			SELECT d.status, d.attempts, (SELECT count(*) FROM webhook_attempts a WHERE a.delivery_id = d.id) AS tries,
				coalesce((SELECT a.failure_code FROM webhook_attempts a WHERE a.delivery_id = d.id ORDER BY a.id DESC LIMIT 1), '') AS failure
			FROM webhook_deliveries d WHERE d.id = $1`, id); err != nil {
			t.Fatal(err)
		}
		return r
	}

	stolen := store.Lease{Endpoint: lease.Endpoint, Owner: "another"}
	if err := db.RecordAttempt(ctx, stolen, 1, store.Outcome{Attempt: store.Attempt{At: time.Now(), StatusCode: new(200)}, Delivered: true}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("under a lease not its own: %v, want ErrNotFound", err)
	}
	if got := delivery(1); got != (row{Status: "pending"}) {
		t.Fatalf("under a lease not its own, the delivery became %+v", got)
	}

	if err := db.RecordAttempt(ctx, lease, 1, store.Outcome{Attempt: store.Attempt{At: time.Now(), StatusCode: new(200), LatencyMs: 3, Response: "ok"}, Delivered: true}); err != nil {
		t.Fatal(err)
	}
	if got := delivery(1); got != (row{Status: "delivered", Attempts: 1, Tries: 1}) {
		t.Fatalf("delivered: %+v", got)
	}

	retry := time.Now().Add(time.Hour)
	failed := store.Attempt{At: time.Now(), LatencyMs: 5000, Failure: &store.TryFailure{Code: store.TryTimedOut, Args: store.TryFailureArgs{Seconds: 5}}}
	if err := db.RecordAttempt(ctx, lease, 2, store.Outcome{Attempt: failed, Retry: retry}); err != nil {
		t.Fatal(err)
	}
	var next time.Time
	if err := db.DB().GetContext(ctx, &next, `SELECT next_at FROM webhook_deliveries WHERE id = 2`); err != nil {
		t.Fatal(err)
	}
	if got := delivery(2); got != (row{Status: "pending", Attempts: 1, Tries: 1, Failure: "timed_out"}) || next.Sub(retry).Abs() > time.Microsecond {
		t.Fatalf("failed: %+v, next at %v, want %v", got, next, retry)
	}

	off := &store.WebhookOff{Code: store.OffGaveUp, Args: store.WebhookOffArgs{EventID: "3", Seconds: 259200}}
	if err := db.RecordAttempt(ctx, lease, 3, store.Outcome{Attempt: failed, Off: off}); err != nil {
		t.Fatal(err)
	}
	if got := delivery(3); got != (row{Status: "failed", Attempts: 1, Tries: 1, Failure: "timed_out"}) {
		t.Fatalf("given up: %+v", got)
	}
	var endpoint struct {
		Code  *string `db:"disabled_code"`
		Owner *string `db:"lease_owner"`
	}
	if err := db.DB().GetContext(ctx, &endpoint, `SELECT disabled_code, lease_owner FROM webhook_endpoints WHERE id = 1`); err != nil {
		t.Fatal(err)
	}
	if endpoint.Code == nil || *endpoint.Code != "gave_up" || endpoint.Owner != nil {
		t.Fatalf("given up: the endpoint is off with %v, leased by %v", endpoint.Code, endpoint.Owner)
	}
	// The lease ended with it: a late attempt under it writes nothing.
	if err := db.RecordAttempt(ctx, lease, 2, store.Outcome{Attempt: failed, Retry: retry}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("under the lease the endpoint's switch-off ended: %v, want ErrNotFound", err)
	}
}
