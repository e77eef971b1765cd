package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// EventType names what a webhook event reports; an endpoint lists those it wants, or EventAll.
type EventType string

// The events. Each is written in the transaction of the change it reports (see emit), so a crash
// can delay an event but never lose it, nor send one for a change that did not commit.
const (
	EventPaymentSeen        EventType = "payment.seen"        // the scan recorded a payment
	EventPaymentHeld        EventType = "payment.held"        // the screening holds a payment, or it waits while the operator holds minting
	EventPaymentReleased    EventType = "payment.released"    // an admin released a held payment: it is judged again
	EventPaymentMinted      EventType = "payment.minted"      // its node is recorded
	EventPaymentRejected    EventType = "payment.rejected"    // it buys no node: a refund is owed
	EventPaymentRefunded    EventType = "payment.refunded"    // the refund was seen on chain
	EventRoundConfirmed     EventType = "round.confirmed"     // a distribution round was mined and recorded
	EventWithdrawalRecorded EventType = "withdrawal.recorded" // a withdraw call was seen, sent or failed
	EventTierSoldOut        EventType = "tier.sold_out"       // a payment took a tier's last unit
	EventReferralEarned     EventType = "referral.earned"     // a minted payment earned a referrer a commission
	EventReferralPaid       EventType = "referral.paid"       // a treasury batch that pays a commission executed
	EventAll                EventType = "*"
)

// EventTypes are the events an endpoint may ask for, EventAll aside.
var EventTypes = []EventType{EventPaymentSeen, EventPaymentHeld, EventPaymentReleased, EventPaymentMinted, EventPaymentRejected,
	EventPaymentRefunded, EventRoundConfirmed, EventWithdrawalRecorded, EventTierSoldOut, EventReferralEarned, EventReferralPaid}

// revertedSuffix marks the event that follows one whose cause a reorg took back, with its data.
const revertedSuffix = ".reverted"

// Reverted is the event that takes t back.
func (t EventType) Reverted() EventType { return t + revertedSuffix }

// EventVersion is the version of the payload the store writes now, and of the body a receiver
// gets (its "version"). Version 1 was the first release's stored shape, which held the payment as
// its ledger record and was turned into the API's shape at each delivery; migration 0021 rewrote
// those rows as version 2, so the deliverer reads one shape.
const EventVersion = 2

// EventPayload is what an event says, written once, in the transaction of the change it reports
// (emit), and sent as it is: every document in Data is in the API's own shape as it was then.
// A payment's reason is the one thing in it written for people, and sentences are written at the
// edge: Data holds its code (reasonCode), Reason its code and values, and the deliverer writes
// the sentence from them (jobs: completePayment).
type EventPayload struct {
	Version int       `json:"version"`
	Data    EventData `json:"data"`
	Reason  *Reason   `json:"reason,omitempty"` // the payment's, when it was rejected
}

// EventData is a delivery's "data": the documents an event is about, in the API's shapes (see
// docs/webhooks.md). The node, round and withdrawal are written by the SQL that writes them for
// the API (store/json.go); the payment by PaymentRecord.Doc, as GET /api/payments/{txHash}.
type EventData struct {
	Payment    *PaymentDoc     `json:"payment,omitempty"`
	Node       json.RawMessage `json:"node,omitempty"`
	Round      json.RawMessage `json:"round,omitempty"`
	Withdrawal json.RawMessage `json:"withdrawal,omitempty"`
	Tier       *SoldOutDoc     `json:"tier,omitempty"`
	Commission *Commission     `json:"commission,omitempty"`
}

// SoldOutTier is a tier whose last unit a payment took.
type SoldOutTier struct {
	ID     int
	Label  string
	Supply int
}

// SoldOutDoc is a sold-out tier as tier.sold_out tells it: its id and label as GET /api/tiers
// writes them.
type SoldOutDoc struct {
	ID     string `json:"id"`
	Label  string `json:"label"`
	Supply int    `json:"supply"`
	Sold   int    `json:"sold"`
}

// Event is one event as stored.
type Event struct {
	ID        string       `db:"public_id"` // "evt_…", the same on every try
	Type      EventType    `db:"type"`
	Payload   EventPayload `db:"data"`
	CreatedAt time.Time    `db:"created_at"`
}

// Scan reads the data column.
func (p *EventPayload) Scan(src any) error { return scanJSON(src, p) }

// EventBody is a delivery's body, as docs/webhooks.md documents it.
type EventBody struct {
	ID        string    `json:"id"`
	Type      EventType `json:"type"`
	Version   int       `json:"version"`
	CreatedAt *string   `json:"createdAt"`
	Data      EventData `json:"data"`
}

// Body is e as its deliveries carry it.
func (e Event) Body() EventBody {
	return EventBody{ID: e.ID, Type: e.Type, Version: e.Payload.Version, CreatedAt: APITime(&e.CreatedAt), Data: e.Payload.Data}
}

// wantedSQL is whether endpoint w wants event type t (an SQL text expression): a .reverted event
// goes where its event goes.
const wantedSQL = `(w.disabled_at IS NULL AND w.events && ARRAY[%[1]s, regexp_replace(%[1]s, '\.reverted$', ''), '*'])`

// emit writes events of type typ, one for each subject with its data, and a delivery of each to
// every endpoint that wants it; in q's transaction, so that they are kept with the change they
// report, or lost with it. Nothing is written while no endpoint wants typ.
func emit(ctx context.Context, q sqlx.ExtContext, typ EventType, subjects []string, payloads []EventPayload) error {
	if len(subjects) == 0 {
		return nil
	}
	docs := make([]string, len(payloads))
	for i, p := range payloads {
		p.Version = EventVersion
		b, err := json.Marshal(p)
		if err != nil {
			return err
		}
		docs[i] = string(b)
	}
	_, err := q.ExecContext(ctx, `
		WITH e AS (
			INSERT INTO webhook_events (type, subject, data)
			SELECT $1, s, d FROM unnest($2::text[], $3::jsonb[]) WITH ORDINALITY AS x (s, d, i) ORDER BY i
			RETURNING id, type)
		INSERT INTO webhook_deliveries (endpoint_id, event_id)
		SELECT w.id, e.id FROM e JOIN webhook_endpoints w ON `+fmt.Sprintf(wantedSQL, "e.type")+`
		ORDER BY e.id, w.id`, typ, pq.Array(subjects), pq.Array(docs))
	return err
}

// wanted reports whether an endpoint wants typ: the changes skip reading what an event would hold
// while none does.
func wanted(ctx context.Context, q sqlx.QueryerContext, typ EventType) (bool, error) {
	var yes bool
	err := sqlx.GetContext(ctx, q, &yes, `
		SELECT EXISTS (SELECT 1 FROM webhook_endpoints w WHERE `+fmt.Sprintf(wantedSQL, "$1::text")+`)`, typ)
	return yes, err
}

// paymentSubject, and the others, name what an event is about.
func paymentSubject(id int64) string    { return "payment:" + strconv.FormatInt(id, 10) }
func withdrawalSubject(id int64) string { return "withdrawal:" + strconv.FormatInt(id, 10) }
func commissionSubject(id int64) string { return "commission:" + strconv.FormatInt(id, 10) }

// emitCommissions writes an event of type typ about each commission of ids, as GET
// /api/admin/commissions lists it.
func emitCommissions(ctx context.Context, q sqlx.ExtContext, typ EventType, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	if ok, err := wanted(ctx, q, typ); err != nil || !ok {
		return err
	}
	var rows []Commission
	if err := sqlx.SelectContext(ctx, q, &rows, `SELECT * FROM (`+commissionSQL+`) x WHERE x.id = ANY ($1) ORDER BY x.id`,
		pq.Array(ids)); err != nil {
		return err
	}
	subjects, payloads := make([]string, len(rows)), make([]EventPayload, len(rows))
	for i := range rows {
		subjects[i], payloads[i].Data.Commission = commissionSubject(rows[i].ID), &rows[i]
	}
	return emit(ctx, q, typ, subjects, payloads)
}

// emitPayments writes an event of type typ about each payment of ids: the payment, and its node
// once it has one. A payment not yet checked is held in payment.held (and its revert), else
// minting, as the API says of it.
func emitPayments(ctx context.Context, q sqlx.ExtContext, typ EventType, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	if ok, err := wanted(ctx, q, typ); err != nil || !ok {
		return err
	}
	var rows []struct {
		ID int64 `db:"id"`
		PaymentRecord
		Node *string `db:"node"`
	}
	err := sqlx.SelectContext(ctx, q, &rows, `
		SELECT p.id, `+paymentRecordColumns+`,
			CASE WHEN n.id IS NOT NULL THEN json_build_object(`+nodeJSON+`) END AS node
		FROM payments p `+paymentRecordJoins+`
		WHERE p.id = ANY ($1) ORDER BY p.block_number, p.tx_index, p.call_index, p.id`, pq.Array(ids))
	if err != nil {
		return err
	}
	subjects, payloads := make([]string, len(rows)), make([]EventPayload, len(rows))
	for i, r := range rows {
		doc := r.PaymentRecord.Doc(typ == EventPaymentHeld)
		subjects[i], payloads[i].Data.Payment, payloads[i].Reason = paymentSubject(r.ID), &doc, r.Reason
		if r.Node != nil {
			payloads[i].Data.Node = json.RawMessage(*r.Node)
		}
	}
	return emit(ctx, q, typ, subjects, payloads)
}

// emitWithdrawals writes withdrawal.recorded about each withdrawal of ids, with its node.
func emitWithdrawals(ctx context.Context, q sqlx.ExtContext, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	if ok, err := wanted(ctx, q, EventWithdrawalRecorded); err != nil || !ok {
		return err
	}
	var rows []struct {
		ID         int64  `db:"id"`
		Withdrawal string `db:"withdrawal"`
		Node       string `db:"node"`
	}
	err := sqlx.SelectContext(ctx, q, &rows, `
		SELECT w.id, json_build_object(`+withdrawalJSON+`) AS withdrawal, json_build_object(`+nodeJSON+`) AS node
		FROM withdrawals w JOIN nodes n ON n.id = w.node_id
		WHERE w.id = ANY ($1) ORDER BY w.id`, pq.Array(ids))
	if err != nil {
		return err
	}
	subjects, payloads := make([]string, len(rows)), make([]EventPayload, len(rows))
	for i, r := range rows {
		subjects[i] = withdrawalSubject(r.ID)
		payloads[i].Data = EventData{Withdrawal: json.RawMessage(r.Withdrawal), Node: json.RawMessage(r.Node)}
	}
	return emit(ctx, q, EventWithdrawalRecorded, subjects, payloads)
}

// emitRound writes round.confirmed about round id.
func emitRound(ctx context.Context, q sqlx.ExtContext, id int64) error {
	if ok, err := wanted(ctx, q, EventRoundConfirmed); err != nil || !ok {
		return err
	}
	var doc string
	if err := sqlx.GetContext(ctx, q, &doc, `SELECT json_build_object(`+roundJSON+`) FROM distributions d WHERE d.id = $1`, id); err != nil {
		return err
	}
	return emit(ctx, q, EventRoundConfirmed, []string{"round:" + strconv.FormatInt(id, 10)},
		[]EventPayload{{Data: EventData{Round: json.RawMessage(doc)}}})
}

// emitSoldOut writes tier.sold_out about t.
func emitSoldOut(ctx context.Context, q sqlx.ExtContext, t SoldOutTier) error {
	if ok, err := wanted(ctx, q, EventTierSoldOut); err != nil || !ok {
		return err
	}
	doc := SoldOutDoc{ID: strconv.Itoa(t.ID), Label: t.Label, Supply: t.Supply, Sold: t.Supply}
	return emit(ctx, q, EventTierSoldOut, []string{"tier:" + strconv.Itoa(t.ID)}, []EventPayload{{Data: EventData{Tier: &doc}}})
}

// revert writes, for each event of one of types about one of subjects not yet reverted, its
// .reverted twin with the same payload: a reorg took back what it reported.
func revert(ctx context.Context, q sqlx.ExtContext, subjects []string, types ...EventType) error {
	if len(subjects) == 0 {
		return nil
	}
	names := make([]string, len(types))
	for i, t := range types {
		names[i] = string(t)
	}
	_, err := q.ExecContext(ctx, `
		WITH e AS (
			INSERT INTO webhook_events (type, subject, data)
			SELECT o.type || '`+revertedSuffix+`', o.subject, o.data FROM webhook_events o
			WHERE o.subject = ANY ($1) AND o.type = ANY ($2)
			  AND NOT EXISTS (SELECT 1 FROM webhook_events r
			                  WHERE r.subject = o.subject AND r.type = o.type || '`+revertedSuffix+`' AND r.id > o.id)
			ORDER BY o.id
			RETURNING id, type)
		INSERT INTO webhook_deliveries (endpoint_id, event_id)
		SELECT w.id, e.id FROM e JOIN webhook_endpoints w ON `+fmt.Sprintf(wantedSQL, "e.type")+`
		ORDER BY e.id, w.id`, pq.Array(subjects), pq.Array(names))
	return err
}

// paymentSubjects and withdrawalSubjects name rows ids as events do.
func paymentSubjects(ids []int64) []string    { return subjects(ids, paymentSubject) }
func commissionSubjects(ids []int64) []string { return subjects(ids, commissionSubject) }
func withdrawalSubjects(ids []int64) []string { return subjects(ids, withdrawalSubject) }

func subjects(ids []int64, name func(int64) string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = name(id)
	}
	return out
}

// Webhook is an endpoint events are delivered to. Its secret is shown once, when it is made
// or rolled; it is not read back otherwise.
type Webhook struct {
	ID         int64          `db:"id"`
	URL        string         `db:"url"`
	Events     pq.StringArray `db:"events"`
	CreatedBy  string         `db:"created_by"`
	CreatedAt  time.Time      `db:"created_at"`
	DisabledAt *time.Time     `db:"disabled_at"`
	Off        *WebhookOff    `db:"disabled"`  // why it was switched off; nil while on
	Pending    int            `db:"pending"`   // deliveries not yet made
	Delivered  int            `db:"delivered"` // deliveries made
	Failed     int            `db:"failed"`    // deliveries given up
}

const webhookSQL = `
	SELECT w.id, w.url, w.events, w.created_by, w.created_at, w.disabled_at,
		CASE WHEN w.disabled_code IS NOT NULL THEN json_build_object('code', w.disabled_code, 'args', w.disabled_args) END AS disabled,
		count(*) FILTER (WHERE d.status = 'pending') AS pending,
		count(*) FILTER (WHERE d.status = 'delivered') AS delivered,
		count(*) FILTER (WHERE d.status = 'failed') AS failed
	FROM webhook_endpoints w LEFT JOIN webhook_deliveries d ON d.endpoint_id = w.id`

// Webhooks returns every endpoint, oldest first.
func (s *Store) Webhooks(ctx context.Context) (_ []Webhook, err error) {
	defer wrap(&err, "Webhooks")
	ws := []Webhook{}
	err = s.db.SelectContext(ctx, &ws, webhookSQL+` GROUP BY w.id ORDER BY w.id`)
	return ws, err
}

// Webhook returns endpoint id; ErrNotFound when there is none.
func (tx Tx) Webhook(ctx context.Context, id int64) (Webhook, error) {
	var w Webhook
	err := sqlx.GetContext(ctx, tx.q, &w, webhookSQL+` WHERE w.id = $1 GROUP BY w.id`, id)
	if errors.Is(err, sql.ErrNoRows) {
		return w, ErrNotFound
	}
	return w, err
}

// Webhook returns endpoint id; ErrNotFound when there is none.
func (s *Store) Webhook(ctx context.Context, id int64) (_ Webhook, err error) {
	defer wrap(&err, "Webhook")
	return Tx{s.db}.Webhook(ctx, id)
}

// NewWebhook is an endpoint to add.
type NewWebhook struct {
	URL       string
	Events    []EventType
	Secret    string
	CreatedBy string
}

// AddWebhook adds an endpoint; it gets the events from now on.
func (tx Tx) AddWebhook(ctx context.Context, n NewWebhook) (Webhook, error) {
	events := make([]string, len(n.Events))
	for i, e := range n.Events {
		events[i] = string(e)
	}
	var id int64
	err := sqlx.GetContext(ctx, tx.q, &id, `
		INSERT INTO webhook_endpoints (url, events, secret, created_by) VALUES ($1, $2, $3, $4) RETURNING id`,
		n.URL, pq.Array(events), n.Secret, n.CreatedBy)
	if err != nil {
		return Webhook{}, err
	}
	return tx.Webhook(ctx, id)
}

// DeleteWebhook removes endpoint id with its deliveries; ErrNotFound when there is none.
func (tx Tx) DeleteWebhook(ctx context.Context, id int64) (Webhook, error) {
	w, err := tx.Webhook(ctx, id)
	if err != nil {
		return w, err
	}
	_, err = tx.q.ExecContext(ctx, `DELETE FROM webhook_endpoints WHERE id = $1`, id)
	return w, err
}

// RollWebhookSecret makes secret endpoint id's, the old one signing too until until.
// ErrNotFound when there is none.
func (tx Tx) RollWebhookSecret(ctx context.Context, id int64, secret string, until time.Time) error {
	res, err := tx.q.ExecContext(ctx, `
		UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_until = $3, secret = $2 WHERE id = $1`,
		id, secret, until)
	return affected(res, err)
}

// EnableWebhook switches endpoint id back on: the delivery that switched it off is tried again
// first, now, for three days more, then what waited behind it. ErrNotFound when there is none.
func (tx Tx) EnableWebhook(ctx context.Context, id int64) error {
	res, err := tx.q.ExecContext(ctx, `
		UPDATE webhook_endpoints SET disabled_at = NULL, disabled_code = NULL, disabled_args = NULL WHERE id = $1`, id)
	if err := affected(res, err); err != nil {
		return err
	}
	_, err = tx.q.ExecContext(ctx, `
		UPDATE webhook_deliveries SET status = 'pending', next_at = now(), tries_since = now(), done_at = NULL
		WHERE id = (SELECT max(id) FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'failed')`, id)
	return err
}

// affected is ErrNotFound when an update changed no row.
func affected(res sql.Result, err error) error {
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err == nil && n == 0 {
		return ErrNotFound
	}
	return err
}

// DeliveryStatus is where a delivery is (webhook_deliveries.status).
type DeliveryStatus string

// The delivery statuses.
const (
	DeliveryPending   DeliveryStatus = "pending"   // not yet answered with a 2xx; tried again at NextAt
	DeliveryDelivered DeliveryStatus = "delivered" // answered with a 2xx
	DeliveryFailed    DeliveryStatus = "failed"    // every try for three days failed: the endpoint was switched off
)

// Delivery is one event for one endpoint, with its latest tries.
type Delivery struct {
	ID        int64          `db:"id"`
	EventID   string         `db:"event_id"`
	EventType EventType      `db:"event_type"`
	Status    DeliveryStatus `db:"status"`
	Attempts  int            `db:"attempts"`
	NextAt    *time.Time     `db:"next_at"` // nil once done
	CreatedAt time.Time      `db:"created_at"`
	Tries     Attempts       `db:"tries"` // the latest deliveryTries, newest first
}

// Attempt is one try of a delivery.
type Attempt struct {
	At         time.Time   `json:"at"`
	StatusCode *int        `json:"statusCode"` // nil: no answer
	LatencyMs  int         `json:"latencyMs"`
	Response   string      `json:"response"`          // the answer's first KB
	Failure    *TryFailure `json:"failure,omitempty"` // when no answer came, why
}

// TryFailureCode says why a try of a delivery got no answer (webhook_attempts.failure_code); the
// sentence a person reads is written from it and its TryFailureArgs where it is shown.
type TryFailureCode string

// The codes, each with the TryFailureArgs it carries.
const (
	TryTimedOut         TryFailureCode = "timed_out"         // no answer within Seconds
	TryPrivateAddress   TryFailureCode = "private_address"   // the host resolved to Address, which is not public
	TryAddressUnchecked TryFailureCode = "address_unchecked" // the address connected to could not be read to check it
	TryUnresolved       TryFailureCode = "unresolved"        // the host name did not resolve; Error, the resolver's words
	TryUnreachable      TryFailureCode = "unreachable"       // no connection; Error, the system's words, when it said
	TryOther            TryFailureCode = "other"             // a failure recorded before the codes that matched none (migration 0023): Text
)

// TryFailureCodes are every code (the CHECK of migration 0023 lists the same).
var TryFailureCodes = []TryFailureCode{TryTimedOut, TryPrivateAddress, TryAddressUnchecked, TryUnresolved, TryUnreachable, TryOther}

// TryFailure is why a try got no answer: a code and the values it is told with.
type TryFailure struct {
	Code TryFailureCode `json:"code"`
	Args TryFailureArgs `json:"args"`
}

// TryFailureArgs are the values a TryFailure is told with; each code sets those it lists.
type TryFailureArgs struct {
	Seconds int    `json:"seconds,omitempty"`
	Address string `json:"address,omitempty"`
	Error   string `json:"error,omitempty"`
	Text    string `json:"text,omitempty"`
}

// WebhookOffCode says why an endpoint was switched off (webhook_endpoints.disabled_code).
type WebhookOffCode string

// The codes, each with the WebhookOffArgs it carries.
const (
	// OffGaveUp: every try of EventID failed for Seconds; the last got StatusCode, or no answer
	// for Failure.
	OffGaveUp WebhookOffCode = "gave_up"
	// OffOther: switched off before the codes, for a reason that matched none (migration 0023): Text.
	OffOther WebhookOffCode = "other"
)

// WebhookOffCodes are every code (the CHECK of migration 0023 lists the same).
var WebhookOffCodes = []WebhookOffCode{OffGaveUp, OffOther}

// WebhookOff is why an endpoint was switched off: a code and the values it is told with.
type WebhookOff struct {
	Code WebhookOffCode `json:"code"`
	Args WebhookOffArgs `json:"args"`
}

// WebhookOffArgs are the values a WebhookOff is told with.
type WebhookOffArgs struct {
	EventID    string      `json:"eventId,omitempty"`
	Seconds    int64       `json:"seconds,omitempty"`
	StatusCode *int        `json:"statusCode,omitempty"`
	Failure    *TryFailure `json:"failure,omitempty"`
	Text       string      `json:"text,omitempty"`
}

// Scan reads the disabled column.
func (o *WebhookOff) Scan(src any) error { return scanJSON(src, o) }

// Attempts are a delivery's tries, read as one JSON column.
type Attempts []Attempt

// Scan reads the tries column.
func (a *Attempts) Scan(src any) error { return scanJSON(src, a) }

// deliveryTries is how many of its tries a delivery is read with.
const deliveryTries = 5

// deliverySQL reads Deliveries with their latest tries.
var deliverySQL = `
	SELECT d.id, e.public_id AS event_id, e.type AS event_type, d.status, d.attempts,
		CASE WHEN d.status = 'pending' THEN d.next_at END AS next_at, d.created_at,
		(SELECT coalesce(json_agg(json_build_object('at', api_time(a.at), 'statusCode', a.status_code,
			'latencyMs', a.latency_ms, 'response', a.response,
			'failure', CASE WHEN a.failure_code IS NOT NULL THEN json_build_object('code', a.failure_code, 'args', a.failure_args) END)
			ORDER BY a.id DESC), '[]')
		 FROM (SELECT * FROM webhook_attempts a WHERE a.delivery_id = d.id ORDER BY a.id DESC LIMIT ` + strconv.Itoa(deliveryTries) + `) a) AS tries
	FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id`

// Deliveries returns endpoint id's latest limit deliveries, newest first; ErrNotFound when there
// is no such endpoint.
func (s *Store) Deliveries(ctx context.Context, id int64, limit int) (_ []Delivery, err error) {
	defer wrap(&err, "Deliveries")
	ds := []Delivery{}
	if err := s.db.SelectContext(ctx, &ds, deliverySQL+` WHERE d.endpoint_id = $1 ORDER BY d.id DESC LIMIT $2`,
		id, limit); err != nil {
		return nil, err
	}
	if len(ds) == 0 {
		if _, err := s.Webhook(ctx, id); err != nil {
			return nil, err
		}
	}
	return ds, nil
}

// Redeliver sends delivery's event to endpoint id again, after what is queued for it: a new
// delivery, due now. ErrNotFound when the endpoint has no such delivery.
func (tx Tx) Redeliver(ctx context.Context, id, delivery int64) (Delivery, error) {
	var newID int64
	err := sqlx.GetContext(ctx, tx.q, &newID, `
		INSERT INTO webhook_deliveries (endpoint_id, event_id)
		SELECT endpoint_id, event_id FROM webhook_deliveries WHERE id = $2 AND endpoint_id = $1
		RETURNING id`, id, delivery)
	// No such delivery; or its event was pruned while this read it (the new row's event is gone).
	var pqErr *pq.Error
	if errors.Is(err, sql.ErrNoRows) || errors.As(err, &pqErr) && pqErr.Code == foreignKeyViolation {
		return Delivery{}, ErrNotFound
	}
	if err != nil {
		return Delivery{}, err
	}
	var d Delivery
	err = sqlx.GetContext(ctx, tx.q, &d, deliverySQL+` WHERE d.id = $1`, newID)
	return d, err
}

// Lease is an endpoint one instance delivers to, alone, until the lease ends.
type Lease struct {
	Endpoint            int64      `db:"id"`
	URL                 string     `db:"url"`
	Secret              string     `db:"secret"`
	PreviousSecret      *string    `db:"previous_secret"` // signs too until PreviousSecretUntil
	PreviousSecretUntil *time.Time `db:"previous_secret_until"`
	Owner               string     `db:"lease_owner"`
}

// LeaseWebhooks takes up to n endpoints whose next delivery is due and that no one holds, for
// owner (a token new to each call), until lease from now. An endpoint's rows are locked as it is
// taken and the others skipped, so two instances never take the same one; a lease that ends
// (its instance died) frees the endpoint for the next taker.
func (s *Store) LeaseWebhooks(ctx context.Context, owner string, n int, lease time.Duration) (_ []Lease, err error) {
	defer wrap(&err, "LeaseWebhooks")
	var ls []Lease
	err = s.db.SelectContext(ctx, &ls, `
		UPDATE webhook_endpoints w SET lease_owner = $1, lease_until = now() + $3 * interval '1 millisecond'
		WHERE w.id IN (
			SELECT w.id FROM webhook_endpoints w
			JOIN LATERAL (SELECT d.next_at FROM webhook_deliveries d
			              WHERE d.endpoint_id = w.id AND d.status = 'pending' ORDER BY d.id LIMIT 1) head ON true
			WHERE w.disabled_at IS NULL AND (w.lease_until IS NULL OR w.lease_until < now()) AND head.next_at <= now()
			ORDER BY head.next_at
			LIMIT $2
			FOR UPDATE OF w SKIP LOCKED)
		  AND (w.lease_until IS NULL OR w.lease_until < now())
		RETURNING w.id, w.url, w.secret,
			CASE WHEN w.previous_secret_until > now() THEN w.previous_secret END AS previous_secret,
			w.previous_secret_until, w.lease_owner`, owner, n, lease.Milliseconds())
	return ls, err
}

// Due is the next delivery of a leased endpoint.
type Due struct {
	ID         int64     `db:"id"`
	Attempts   int       `db:"attempts"`    // tries so far
	TriesSince time.Time `db:"tries_since"` // when its tries began: it is given up three days on
	Event
}

// NextDelivery returns the leased endpoint's oldest pending delivery when it is due, and extends
// the lease by lease; ok is false when none is due, or the lease is no longer the owner's.
func (s *Store) NextDelivery(ctx context.Context, l Lease, lease time.Duration) (_ Due, ok bool, err error) {
	defer wrap(&err, "NextDelivery")
	var d Due
	err = s.get(ctx, &d, `
		WITH held AS (
			UPDATE webhook_endpoints SET lease_until = now() + $3 * interval '1 millisecond'
			WHERE id = $1 AND lease_owner = $2 AND disabled_at IS NULL RETURNING id)
		SELECT d.id, d.attempts, d.tries_since, e.public_id, e.type, e.data, e.created_at
		FROM held, LATERAL (SELECT * FROM webhook_deliveries d WHERE d.endpoint_id = held.id AND d.status = 'pending'
		                    ORDER BY d.id LIMIT 1) d
		JOIN webhook_events e ON e.id = d.event_id
		WHERE d.next_at <= now()`, l.Endpoint, l.Owner, lease.Milliseconds())
	if errors.Is(err, sql.ErrNoRows) {
		return d, false, nil
	}
	return d, err == nil, err
}

// Outcome is what came of one try, and what follows from it: delivered, tried again at Retry,
// or given up (the endpoint switched off, with Off as its reason).
type Outcome struct {
	Attempt
	Delivered bool
	Retry     time.Time   // when not delivered and not given up
	Off       *WebhookOff // when given up: why the endpoint is off
}

// RecordAttempt records a try of delivery under lease l and moves the delivery on. It records
// nothing when l is no longer the owner's (ErrNotFound): the endpoint's next owner tries again.
// One statement (a delivery's bookkeeping was a transaction of five, and a sale day delivers tens
// of thousands): the lease is checked and locked, the try written, the delivery moved and, when
// given up, the endpoint switched off, all or nothing.
func (s *Store) RecordAttempt(ctx context.Context, l Lease, delivery int64, o Outcome) (err error) {
	defer wrap(&err, "RecordAttempt")
	var failureCode, offCode *string
	var failureArgs, offArgs driver.Value // SQL null unless set
	if f := o.Failure; f != nil {
		if failureArgs, err = jsonValue(f.Args); err != nil {
			return err
		}
		failureCode = (*string)(&f.Code)
	}
	status, next := DeliveryPending, &o.Retry
	switch {
	case o.Delivered:
		status, next = DeliveryDelivered, nil
	case o.Off != nil:
		status, next = DeliveryFailed, nil
		if offArgs, err = jsonValue(o.Off.Args); err != nil {
			return err
		}
		offCode = (*string)(&o.Off.Code)
	}
	var held int
	err = s.get(ctx, &held, `
		WITH held AS (
			SELECT id FROM webhook_endpoints WHERE id = $1 AND lease_owner = $2 FOR UPDATE
		), tried AS (
			INSERT INTO webhook_attempts (delivery_id, at, status_code, latency_ms, response, failure_code, failure_args)
			SELECT $3::bigint, $4::timestamptz, $5::int, $6::int, $7::text, $8::text, $9::jsonb FROM held
			RETURNING delivery_id
		), moved AS (
			UPDATE webhook_deliveries SET attempts = attempts + 1, status = $10::text,
				next_at = coalesce($11::timestamptz, next_at), done_at = CASE WHEN $10::text <> 'pending' THEN now() END
			WHERE id IN (SELECT delivery_id FROM tried)
		), off AS (
			UPDATE webhook_endpoints SET disabled_at = now(), disabled_code = $12::text, disabled_args = $13::jsonb,
				lease_owner = NULL, lease_until = NULL
			WHERE id IN (SELECT id FROM held) AND $12::text IS NOT NULL
		)
		SELECT count(*) FROM held`,
		l.Endpoint, l.Owner, delivery, o.At, o.StatusCode, o.LatencyMs, o.Response, failureCode, failureArgs,
		status, next, offCode, offArgs)
	if err == nil && held == 0 {
		return ErrNotFound
	}
	return err
}

// ReleaseWebhook gives up lease l, so that any instance may take the endpoint at its next due.
func (s *Store) ReleaseWebhook(ctx context.Context, l Lease) (err error) {
	defer wrap(&err, "ReleaseWebhook")
	_, err = s.db.ExecContext(ctx, `
		UPDATE webhook_endpoints SET lease_owner = NULL, lease_until = NULL WHERE id = $1 AND lease_owner = $2`,
		l.Endpoint, l.Owner)
	return err
}

// foreignKeyViolation is PostgreSQL's SQLSTATE for a row whose referenced row is not there.
const foreignKeyViolation = "23503"

// pruneBatch is how many events one statement of PruneWebhooks deletes.
const pruneBatch = 5000

// PruneWebhooks deletes the events written before before that wait for no delivery, with their
// deliveries and tries, and returns how many. It deletes in batches, skipping rows another
// instance's prune holds, so instances pruning at once neither wait on nor deadlock each other.
func (s *Store) PruneWebhooks(ctx context.Context, before time.Time) (pruned int, err error) {
	defer wrap(&err, "PruneWebhooks")
	for {
		res, err := s.db.ExecContext(ctx, `
			DELETE FROM webhook_events WHERE id IN (
				SELECT e.id FROM webhook_events e
				WHERE e.created_at < $1
				  AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'pending')
				ORDER BY e.created_at LIMIT $2
				FOR UPDATE SKIP LOCKED)`, before, pruneBatch)
		if err != nil {
			return pruned, err
		}
		n, _ := res.RowsAffected()
		pruned += int(n)
		if n < pruneBatch {
			return pruned, nil
		}
	}
}
