package store_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"nodeledger/jobs/sale"
	"nodeledger/migrations"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// TestNodeIDsMigration upgrades a ledger whose row ids drifted from its chain ids, as racing
// recorders left them (row 1 is chain node 2, row 2 chain node 3, row 3 chain node 1, row 7
// chain node 5: swaps and gaps), to one id space: each node's id becomes its chain id, and its
// credits and withdrawals follow it.
func TestNodeIDsMigration(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := storetest.Through(t, "0010_rounds.sql")
	exec := func(query string, args ...any) {
		t.Helper()
		if _, err := s.DB().ExecContext(ctx, query, args...); err != nil {
			t.Fatalf("%s: %v", query, err)
		}
	}
	exec(`INSERT INTO tiers (id, label, price_wei, max_per_wallet, payout_bps) VALUES (1, 'One', 1, 5, 10000)`)
	// row id -> chain id; each node's owner, credit and withdrawal name its chain id, so that
	// where they end up shows whether they followed their node.
	drift := [][2]int{{1, 2}, {2, 3}, {3, 1}, {7, 5}}
	for _, d := range drift {
		exec(`INSERT INTO nodes (id, chain_node_id, tier, owner, mint_tx)
			VALUES ($1, $2::int, 1, '0x' || lpad($2::int::text, 40, '0'), '0x' || lpad($2::int::text, 64, '0'))`, d[0], d[1])
	}
	exec(`SELECT setval('nodes_id_seq', 7)`)
	exec(`INSERT INTO distributions (id, total_wei, node_count, mode, funding_mode, status)
		VALUES (1, 0, 4, 'fixed', 'value', 'confirmed'), (2, 0, 4, 'fixed', 'value', 'confirmed')`)
	for _, d := range drift {
		for round := 1; round <= 2; round++ {
			exec(`INSERT INTO credits (distribution_id, node_id, amount_wei) VALUES ($1::int, $2, $3::int * 1000 + $1::int)`, round, d[0], d[1])
		}
		exec(`INSERT INTO withdrawals (node_id, amount_wei, tx_hash, log_index, status)
			VALUES ($1, $2::int, '0x' || lpad(($2::int + 100)::text, 64, '0'), 0, 'sent')`, d[0], d[1])
	}

	applied, err := s.Migrate(ctx, migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	if len(applied) == 0 || applied[0] != "0011_node_ids.sql" {
		t.Fatalf("applied %v", applied)
	}

	var nodes []struct {
		ID          int64  `db:"id"`
		Owner       string `db:"owner"`
		Credits     string `db:"credits"`
		Withdrawals string `db:"withdrawals"`
	}
	if err := s.DB().SelectContext(ctx, &nodes, `
		SELECT n.id, n.owner,
			(SELECT string_agg(c.amount_wei::text, ',' ORDER BY c.distribution_id) FROM credits c WHERE c.node_id = n.id) AS credits,
			(SELECT string_agg(w.amount_wei::text, ',') FROM withdrawals w WHERE w.node_id = n.id) AS withdrawals
		FROM nodes n ORDER BY n.id`); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range nodes {
		got = append(got, strings.Join([]string{strconv.FormatInt(n.ID, 10), strings.TrimLeft(n.Owner[2:], "0"), n.Credits, n.Withdrawals}, " "))
	}
	want := []string{"1 1 1001,1002 1", "2 2 2001,2002 2", "3 3 3001,3002 3", "5 5 5001,5002 5"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Fatalf("after the migration (id owner credits withdrawals):\n got  %q\n want %q", got, want)
	}

	t.Run("a node row needs its chain id", func(t *testing.T) {
		if _, err := s.DB().ExecContext(ctx, `INSERT INTO nodes (tier, owner, mint_tx)
			VALUES (1, '0x00000000000000000000000000000000000000aa', '0x' || repeat('a', 64))`); err == nil {
			t.Fatal("a node was recorded with a row id of the ledger's choosing")
		}
		if _, err := s.DB().ExecContext(ctx, `INSERT INTO nodes (id, tier, owner, mint_tx)
			VALUES (0, 1, '0x00000000000000000000000000000000000000aa', '0x' || repeat('a', 64))`); err == nil {
			t.Fatal("a node was recorded with id 0")
		}
	})
	t.Run("credits and withdrawals still need their node", func(t *testing.T) {
		if _, err := s.DB().ExecContext(ctx, `INSERT INTO credits (distribution_id, node_id, amount_wei) VALUES (1, 7, 1)`); err == nil {
			t.Fatal("a credit was recorded for row 7, which is no node now")
		}
		if _, err := s.DB().ExecContext(ctx, `INSERT INTO withdrawals (node_id, amount_wei) VALUES (4, 1)`); err == nil {
			t.Fatal("a withdrawal was recorded for a node that does not exist")
		}
	})
}

// TestEventPayloadMigration upgrades webhook events queued by the first release, whose data held
// the payment as its ledger record under Go's field names and the sold-out tier with a numeric id,
// to the payload the deliverer sends as it is: each delivers the body the first release sent.
func TestEventPayloadMigration(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := storetest.Through(t, "0020_webhook_retention.sql")
	exec := func(query string, args ...any) {
		t.Helper()
		if _, err := s.DB().ExecContext(ctx, query, args...); err != nil {
			t.Fatalf("%s: %v", query, err)
		}
	}
	exec(`INSERT INTO webhook_endpoints (id, url, events, secret, created_by) VALUES (1, 'https://example.com/in', '{*}', 's', 'admin')`)
	const hash = "0x1111111111111111111111111111111111111111111111111111111111111111"
	const from = "0x2222222222222222222222222222222222222222"
	// As the first release's store wrote them (json.Marshal of its EventData).
	old := []struct{ typ, data string }{
		{"payment.rejected", `{"payment": {"TxHash": "` + hash + `", "CallIndex": 0, "From": "` + from + `", "ValueWei": "5",
			"BlockNumber": 7, "Status": "rejected", "Reason": {"code": "wrong_amount", "args": {"paidWei": "5"}}, "Tier": null,
			"NodeID": null, "ChainNodeID": null, "MintTx": null, "RefundTxHash": null,
			"CreatedAt": "2026-11-24T10:15:02.123456789Z", "UpdatedAt": "2026-11-24T11:15:02.5+01:00"}}`},
		{"payment.held", `{"payment": {"TxHash": "` + hash + `", "CallIndex": 1, "From": "` + from + `", "ValueWei": "100",
			"BlockNumber": 8, "Status": "pending", "Reason": null, "Tier": 1, "NodeID": null, "ChainNodeID": null,
			"MintTx": null, "RefundTxHash": null, "CreatedAt": "2026-11-24T10:15:02Z", "UpdatedAt": "2026-11-24T10:15:02Z"}}`},
		{"payment.minted", `{"payment": {"TxHash": "` + hash + `", "CallIndex": 2, "From": "` + from + `", "ValueWei": "100",
			"BlockNumber": 9, "Status": "minted", "Reason": null, "Tier": 1, "NodeID": 42, "ChainNodeID": "42",
			"MintTx": "0xabc", "RefundTxHash": null, "CreatedAt": "2026-11-24T10:15:02Z", "UpdatedAt": "2026-11-24T10:15:02Z"},
			"node": {"id": 42, "chainNodeId": "42", "mintTx": null}}`},
		{"tier.sold_out", `{"tier": {"id": 3, "label": "Gold", "supply": 10}}`},
		{"round.confirmed", `{"round": {"id": 5, "txHash": null}}`},
	}
	for i, o := range old {
		exec(`INSERT INTO webhook_events (id, type, subject, data, created_at) VALUES ($1, $2, 's', $3, '2026-11-24T10:15:03.25Z')`,
			i+1, o.typ, o.data)
		exec(`INSERT INTO webhook_deliveries (endpoint_id, event_id) VALUES (1, $1)`, i+1)
	}
	if _, err := s.Migrate(ctx, migrations.FS); err != nil {
		t.Fatal(err)
	}

	// What the first release's handlers sent, but for reason and confirmationsNeeded, which the
	// deliverer writes.
	payment := func(callIndex, block int, value, status, reasonCode, tier, node, mintTx, created, updated string) string {
		return `{"txHash": "` + hash + `", "callIndex": ` + strconv.Itoa(callIndex) + `, "from": "` + from + `", "valueWei": "` + value +
			`", "token": null, "symbol": "ETH", "decimals": 18, "amount": "` + value +
			`", "referralCode": null, "discountWei": null, "discount": null, "blockNumber": ` + strconv.Itoa(block) + `, "status": "` + status + `", "reason": null, "reasonCode": ` + reasonCode +
			`, "confirmations": null, "confirmationsNeeded": 0, "tier": ` + tier + `, "nodeId": ` + node + `, "chainNodeId": ` +
			strings.ReplaceAll(node, "42", `"42"`) + `, "mintTx": ` + mintTx + `, "refundTxHash": null, "createdAt": "` + created +
			`", "updatedAt": "` + updated + `"}`
	}
	want := []string{
		`{"payment": ` + payment(0, 7, "5", "rejected", `"wrong_amount"`, "null", "null", "null", "2026-11-24T10:15:02.123Z", "2026-11-24T10:15:02.500Z") + `}`,
		`{"payment": ` + payment(1, 8, "100", "held", "null", `"1"`, "null", "null", "2026-11-24T10:15:02.000Z", "2026-11-24T10:15:02.000Z") + `}`,
		`{"payment": ` + payment(2, 9, "100", "minted", "null", `"1"`, "42", `"0xabc"`, "2026-11-24T10:15:02.000Z", "2026-11-24T10:15:02.000Z") +
			`, "node": {"id": 42, "chainNodeId": "42", "mintTx": null}}`,
		`{"tier": {"id": "3", "label": "Gold", "supply": 10, "sold": 10}}`,
		`{"round": {"id": 5, "txHash": null}}`,
	}
	leases, err := s.LeaseWebhooks(ctx, "test", 1, time.Minute)
	if err != nil || len(leases) != 1 {
		t.Fatalf("leased %v, %v", leases, err)
	}
	for i, w := range want {
		d, ok, err := s.NextDelivery(ctx, leases[0], time.Minute)
		if err != nil || !ok {
			t.Fatalf("event %d: %v, %v", i+1, ok, err)
		}
		body, err := json.Marshal(d.Body())
		if err != nil {
			t.Fatal(err)
		}
		var envelope struct {
			Version   int             `json:"version"`
			Type      string          `json:"type"`
			CreatedAt string          `json:"createdAt"`
			Data      json.RawMessage `json:"data"`
		}
		json.Unmarshal(body, &envelope)
		if envelope.Version != store.EventVersion || envelope.Type != old[i].typ || envelope.CreatedAt != "2026-11-24T10:15:03.250Z" {
			t.Fatalf("%s: %s", old[i].typ, body)
		}
		var got, wantData any
		json.Unmarshal(envelope.Data, &got)
		if err := json.Unmarshal([]byte(w), &wantData); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, wantData) {
			t.Fatalf("%s, migrated:\n%s\nwant:\n%s", old[i].typ, envelope.Data, w)
		}
		if r := d.Payload.Reason; (i == 0) != (r != nil) || r != nil && (r.Code != sale.WrongAmount || sale.Read(r).Args.PaidWei.String() != "5") {
			t.Fatalf("%s: reason %+v", old[i].typ, r)
		}
		if err := s.RecordAttempt(ctx, leases[0], d.ID, store.Outcome{Attempt: store.Attempt{At: time.Now(), StatusCode: new(200)}, Delivered: true}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestWebhookURLsMaskedInTheAudit upgrades an audit that kept whole webhook addresses, whose
// path and query can be the receiver's secret: each is masked to its scheme and host.
func TestWebhookURLsMaskedInTheAudit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := storetest.Through(t, "0021_event_payload.sql")
	const address = "https://hooks.slack.com:8443/services/T0AAA/B0BBB/XyZzYtOkEn?sig=QuErY"
	for _, row := range [][5]string{
		{"webhook.add", address, `{"id": 1, "url": "` + address + `", "events": ["*"]}`, "",
			"Added webhook #1: " + address + " gets every event."},
		{"webhook.delete", "1", "", `{"url": "` + address + `", "events": ["*"]}`,
			"Deleted webhook #1, with its deliveries: nothing more goes to it."},
		{"tier.put", "https://example.com/kept", "", "", "Not a webhook's: https://example.com/kept stays."},
	} {
		if _, err := s.DB().ExecContext(ctx, `INSERT INTO operator_audit (actor, ip, action, target, after, before, outcome)
			VALUES ('admin', '127.0.0.1', $1, $2, nullif($3, '')::jsonb, nullif($4, '')::jsonb, $5)`,
			row[0], row[1], row[2], row[3], row[4]); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Migrate(ctx, storetest.MigrationsThrough(t, "0022_webhook_urls_masked.sql")); err != nil {
		t.Fatal(err)
	}
	var rows []string
	if err := s.DB().SelectContext(ctx, &rows, `
		SELECT concat_ws(' | ', action, target, after::text, before::text, outcome) FROM operator_audit ORDER BY id`); err != nil {
		t.Fatal(err)
	}
	const shown = "https://hooks.slack.com:8443/…"
	want := []string{
		`webhook.add | ` + shown + ` | {"id": 1, "url": "` + shown + `", "events": ["*"]} | Added webhook #1: ` + shown + ` gets every event.`,
		`webhook.delete | 1 | {"url": "` + shown + `", "events": ["*"]} | Deleted webhook #1, with its deliveries: nothing more goes to it.`,
		`tier.put | https://example.com/kept | Not a webhook's: https://example.com/kept stays.`,
	}
	if !reflect.DeepEqual(rows, want) {
		t.Fatalf("the audit:\n%s\nwant:\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
	if _, err := s.DB().ExecContext(ctx, `UPDATE operator_audit SET outcome = ''`); err == nil {
		t.Fatal("the audit is no longer append-only")
	}
}

// TestWebhookFailureCodesMigration upgrades the tries and switched-off endpoints recorded with
// sentences: each sentence the deliverer wrote becomes its code and values (handlers'
// TestWebhookSentences writes the same sentences back from them); another keeps its words.
func TestWebhookFailureCodesMigration(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := storetest.Through(t, "0022_webhook_urls_masked.sql")
	exec := func(query string, args ...any) {
		t.Helper()
		if _, err := s.DB().ExecContext(ctx, query, args...); err != nil {
			t.Fatalf("%s: %v", query, err)
		}
	}
	const private = "the address's host is private, loopback or link-local (10.1.2.3); set WEBHOOK_ALLOW_PRIVATE=true to allow it"
	offs := map[int]string{
		1: "every try of event evt_ab12 failed for 72h0m0s; the last: HTTP 502",
		2: "every try of event evt_cd34 failed for 72h0m0s; the last: " + private,
		3: "switched off by hand",
	}
	for id, reason := range offs {
		exec(`INSERT INTO webhook_endpoints (id, url, events, secret, created_by, disabled_at, disabled_reason)
			VALUES ($1, 'https://example.com/', '{*}', 's', 'admin', now(), $2)`, id, reason)
	}
	exec(`INSERT INTO webhook_endpoints (id, url, events, secret, created_by) VALUES (4, 'https://example.com/', '{*}', 's', 'admin')`)
	exec(`INSERT INTO webhook_events (id, type, subject, data) VALUES (1, 'round.confirmed', 's', '{}')`)
	exec(`INSERT INTO webhook_deliveries (id, endpoint_id, event_id) VALUES (1, 4, 1)`)
	tries := []struct {
		status   *int
		response string
	}{
		{nil, "no answer within 10s"}, {nil, private}, {nil, "the address's host could not be checked"},
		{nil, "the host name did not resolve: no such host"}, {nil, "could not connect: connection refused"},
		{nil, "could not connect"}, {nil, "something else"}, {new(500), "not now"},
	}
	for _, a := range tries {
		exec(`INSERT INTO webhook_attempts (delivery_id, status_code, latency_ms, response) VALUES (1, $1, 5, $2)`, a.status, a.response)
	}
	if _, err := s.Migrate(ctx, migrations.FS); err != nil {
		t.Fatal(err)
	}

	var got []string
	if err := s.DB().SelectContext(ctx, &got, `
		SELECT concat_ws(' ', id, disabled_code, disabled_args::text) FROM webhook_endpoints ORDER BY id`); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`1 gave_up {"eventId": "evt_ab12", "seconds": 259200, "statusCode": 502}`,
		`2 gave_up {"eventId": "evt_cd34", "failure": {"args": {"address": "10.1.2.3"}, "code": "private_address"}, "seconds": 259200}`,
		`3 other {"text": "switched off by hand"}`,
		`4`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("the endpoints:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	got = nil
	if err := s.DB().SelectContext(ctx, &got, `
		SELECT concat_ws(' ', status_code, '[' || response || ']', failure_code, failure_args::text) FROM webhook_attempts ORDER BY id`); err != nil {
		t.Fatal(err)
	}
	want = []string{
		`[] timed_out {"seconds": 10}`,
		`[] private_address {"address": "10.1.2.3"}`,
		`[] address_unchecked {}`,
		`[] unresolved {"error": "no such host"}`,
		`[] unreachable {"error": "connection refused"}`,
		`[] unreachable {}`,
		`[] other {"text": "something else"}`,
		`500 [not now]`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("the tries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The store reads them back as codes and values.
	w, err := s.Webhook(ctx, 2)
	if err != nil || w.Off == nil || w.Off.Args.Failure == nil || w.Off.Args.Failure.Args.Address != "10.1.2.3" {
		t.Fatalf("endpoint 2: %+v, %v", w.Off, err)
	}
	ds, err := s.Deliveries(ctx, 4, 1)
	if err != nil || len(ds) != 1 || len(ds[0].Tries) != 5 || ds[0].Tries[0].Failure != nil || ds[0].Tries[1].Failure.Code != store.TryOther {
		t.Fatalf("the deliveries: %+v, %v", ds, err)
	}
	if _, err := s.DB().ExecContext(ctx, `UPDATE webhook_endpoints SET disabled_at = now() WHERE id = 4`); err == nil {
		t.Fatal("an endpoint was switched off without saying why")
	}
}

// TestTreasuryBatchesAndSettingsLogMigrations: migration 0048 renames the audit's batch entries
// written before it (the action, the code, and kind refunds where none was named) and leaves the
// audit append-only; 0049 logs what was decided before it, in the order it came to apply, as one
// chain.
func TestTreasuryBatchesAndSettingsLogMigrations(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := storetest.Through(t, "0047_tier_note.sql")
	for _, stmt := range []string{
		`INSERT INTO operator_audit (actor, ip, action, target, outcome_code, outcome_args) VALUES
			('a', '127.0.0.1', 'refund-batch.propose', 'x', 'refund_batch_proposed', '{"batch": 1, "refunds": 2}'),
			('a', '127.0.0.1', 'commission-batch.propose', 'x', 'commission_batch_proposed', '{"batch": 2, "kind": "commissions"}'),
			('a', '127.0.0.1', 'refund-batch.execute', 'x', 'refund_batch_void_refunded', '{"batch": 1}'),
			('a', '127.0.0.1', 'tier.put', '1', 'tier_saved', '{}')`,
		`INSERT INTO tiers (id, label, price_wei, max_per_wallet) VALUES (1, 'Small', 100, 5)`,
		`WITH v AS (INSERT INTO allowlist_versions (tier) VALUES (1) RETURNING id)
			INSERT INTO allowlist_entries (version, address, allocation) SELECT id, '0x00000000000000000000000000000000000000a1', 1 FROM v`,
		`INSERT INTO referral_bindings (wallet, code) VALUES ('0x00000000000000000000000000000000000b0b00', 'alice5')`,
		`INSERT INTO settings (name, value) VALUES ('minting_held', true)`,
	} {
		if _, err := s.DB().ExecContext(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	if _, err := s.Migrate(ctx, storetest.MigrationsThrough(t, "0049_settings_log.sql")); err != nil {
		t.Fatal(err)
	}

	var audit []string
	if err := s.DB().SelectContext(ctx, &audit, `SELECT action || ' ' || outcome_code || ' ' || outcome_args::text FROM operator_audit ORDER BY id`); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`treasury-batch.propose treasury_batch_proposed {"kind": "refunds", "batch": 1, "refunds": 2}`,
		`treasury-batch.propose treasury_batch_proposed {"kind": "commissions", "batch": 2}`,
		`treasury-batch.execute treasury_batch_void_refunded {"kind": "refunds", "batch": 1}`,
		`tier.put tier_saved {}`,
	}
	if !reflect.DeepEqual(audit, want) {
		t.Fatalf("the audit:\n%s\nwant:\n%s", strings.Join(audit, "\n"), strings.Join(want, "\n"))
	}
	if _, err := s.DB().ExecContext(ctx, `UPDATE operator_audit SET actor = 'b'`); err == nil {
		t.Fatal("the audit is no longer append-only")
	}
	if _, err := s.DB().ExecContext(ctx, `INSERT INTO operator_audit (actor, ip, action, target, outcome_code, outcome_args)
		VALUES ('a', '127.0.0.1', 'refund-batch.propose', 'x', 'refund_batch_proposed', '{}')`); err == nil {
		t.Fatal("the audit still takes the old batch codes")
	}

	entries, err := s.SettingsLog(ctx, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[store.LogKind]int{}
	for i, e := range entries {
		kinds[e.Kind]++
		if i > 0 && e.AppliesFrom < entries[i-1].AppliesFrom {
			t.Errorf("entry %d applies from %s, before entry %d (%s)", e.Seq, e.AppliesFrom, entries[i-1].Seq, entries[i-1].AppliesFrom)
		}
	}
	if len(entries) != 4 || kinds[store.LogTier] != 1 || kinds[store.LogAllowlist] != 1 || kinds[store.LogBinding] != 1 || kinds[store.LogSetting] != 1 {
		t.Fatalf("the log after the backfill: %+v", entries)
	}
	if _, err := store.CheckLog(0, store.GenesisHash, entries); err != nil {
		t.Fatal(err)
	}
}
