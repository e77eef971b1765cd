package handlers

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"nodeledger/jobs"
	"nodeledger/store"
	"nodeledger/views"
	"nodeledger/views/words"
)

// webhookJSON is an endpoint as the admin API shows it; Secret only when it is made or rolled.
type webhookJSON struct {
	ID         int64             `json:"id"`
	URL        string            `json:"url"`
	Events     []store.EventType `json:"events"`
	Secret     string            `json:"secret,omitempty"`
	Enabled    bool              `json:"enabled"`
	DisabledAt *string           `json:"disabledAt"`
	Disabled   *string           `json:"disabledReason"` // why it was switched off, a sentence
	Pending    int               `json:"pending"`
	Delivered  int               `json:"delivered"`
	Failed     int               `json:"failed"`
	CreatedBy  string            `json:"createdBy"`
	CreatedAt  *string           `json:"createdAt"`
}

// shownURL is a webhook's address as it is shown once added (the admin API, the operator page,
// the audit): its scheme and host, the rest masked. Slack's and Discord's addresses, like many,
// carry their secret in the path or the query, and whoever holds one can post as the service;
// the whole address is stored for delivery only. The one rule: migration 0022 masked the audit
// written before it the same way.
func shownURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "…"
	}
	return u.Scheme + "://" + u.Host + "/…"
}

func webhookOf(w store.Webhook) webhookJSON {
	events := make([]store.EventType, len(w.Events))
	for i, e := range w.Events {
		events[i] = store.EventType(e)
	}
	return webhookJSON{
		ID: w.ID, URL: shownURL(w.URL), Events: events, Enabled: w.DisabledAt == nil, DisabledAt: isoTime(w.DisabledAt),
		Disabled: webhookOffSentence(w.Off), Pending: w.Pending, Delivered: w.Delivered, Failed: w.Failed,
		CreatedBy: w.CreatedBy, CreatedAt: isoTime(&w.CreatedAt),
	}
}

// webhookBody is POST /api/admin/webhooks' body.
type webhookBody struct {
	URL    string   `json:"url"`
	Events []string `json:"events"`
}

// AddWebhook answers POST /api/admin/webhooks: 201 with the endpoint and its secret, shown this
// once.
func (h *Handlers) AddWebhook(c echo.Context) error {
	var b webhookBody
	if err := decodeBody(c, &b); err != nil {
		return err
	}
	w, _, err := h.addWebhook(c, b.URL, b.Events)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, w)
}

// addWebhook checks an endpoint's address and events, and adds it with a new secret. The
// outcome is the audit's sentence, which the operator page shows too (as do the other verbs').
func (h *Handlers) addWebhook(c echo.Context, address string, names []string) (_ webhookJSON, outcome string, _ error) {
	events, err := eventTypes(names)
	if err != nil {
		return webhookJSON{}, "", err
	}
	if err := h.checkWebhookURL(c.Request().Context(), address); err != nil {
		return webhookJSON{}, "", err
	}
	secret, shown := newWebhookSecret(), shownURL(address)
	var w store.Webhook
	err = h.audited(c, store.ActionWebhookAdd, shown, func(t store.Tx, e *store.AuditEntry) error {
		w, err = t.AddWebhook(c.Request().Context(), store.NewWebhook{URL: address, Events: events, Secret: secret, CreatedBy: h.actor(c).Who})
		e.After = map[string]any{"id": w.ID, "url": shown, "events": events} // never the secret, nor the whole address
		e.Outcome = store.AuditOutcome{Code: store.OutcomeWebhookAdded, Args: store.AuditArgs{Webhook: w.ID, URL: shown, Events: events}}
		outcome = auditSentence(e.Outcome)
		return err
	})
	if err != nil {
		return webhookJSON{}, "", err
	}
	out := webhookOf(w)
	out.Secret = secret
	return out, outcome, nil
}

// eventNames is an endpoint's events as a sentence lists them.
func eventNames(events []store.EventType) string {
	if len(events) == 1 && events[0] == store.EventAll {
		return "every event"
	}
	names := make([]string, len(events))
	for i, e := range events {
		names[i] = string(e)
	}
	return words.AndList(names)
}

// eventTypes reads an endpoint's events: at least one, each known, "*" for all (which stands
// alone: it says all the others).
func eventTypes(names []string) ([]store.EventType, error) {
	if len(names) == 0 {
		return nil, errorf(http.StatusBadRequest, "events must list at least one event, or \"*\" for all.")
	}
	var out []store.EventType
	for _, n := range names {
		t := store.EventType(n)
		if t != store.EventAll && !slices.Contains(store.EventTypes, t) {
			return nil, errorf(http.StatusBadRequest, "events: \""+truncate(n, 40)+"\" is not an event; the events are "+eventList()+", and \"*\" for all.")
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	if slices.Contains(out, store.EventAll) {
		return []store.EventType{store.EventAll}, nil
	}
	return out, nil
}

func eventList() string {
	names := make([]string, len(store.EventTypes))
	for i, t := range store.EventTypes {
		names[i] = string(t)
	}
	return strings.Join(names, ", ")
}

// truncate is s cut to n characters, never inside one.
func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// checkWebhookURL refuses an address webhooks may not go to, with the reason as a 400.
func (h *Handlers) checkWebhookURL(ctx context.Context, url string) error {
	if len(url) > 2048 {
		return errorf(http.StatusBadRequest, "url: the address is longer than 2048 characters.")
	}
	var target *jobs.TargetError
	if err := h.jobs.CheckWebhookURL(ctx, url); errors.As(err, &target) {
		return errorf(http.StatusBadRequest, "url: "+target.Reason+".")
	} else if err != nil {
		return err
	}
	return nil
}

// newWebhookSecret is a new signing secret: 32 random bytes.
func newWebhookSecret() string {
	b := make([]byte, 32)
	rand.Read(b)
	return "whsec_" + base64.RawURLEncoding.EncodeToString(b)
}

// Webhooks answers GET /api/admin/webhooks: every endpoint, oldest first, without secrets.
func (h *Handlers) Webhooks(c echo.Context) error {
	ws, err := h.store.Webhooks(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, mapSlice(ws, webhookOf))
}

var errNoWebhook = errorf(http.StatusNotFound, "No webhook has this id.")

// webhookID reads the :id of a webhook route.
func webhookID(c echo.Context) (int64, error) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, errNoWebhook
	}
	return id, nil
}

// notFound is as for store.ErrNotFound, else err.
func notFound(err, as error) error {
	if errors.Is(err, store.ErrNotFound) {
		return as
	}
	return err
}

// DeleteWebhook answers DELETE /api/admin/webhooks/{id}: 204; its deliveries go with it.
func (h *Handlers) DeleteWebhook(c echo.Context) error {
	id, err := webhookID(c)
	if err != nil {
		return err
	}
	if _, err := h.deleteWebhook(c, id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (h *Handlers) deleteWebhook(c echo.Context, id int64) (outcome string, _ error) {
	o := store.AuditOutcome{Code: store.OutcomeWebhookDeleted, Args: store.AuditArgs{Webhook: id}}
	outcome = auditSentence(o)
	err := h.audited(c, store.ActionWebhookDelete, strconv.FormatInt(id, 10), func(t store.Tx, e *store.AuditEntry) error {
		w, err := t.DeleteWebhook(c.Request().Context(), id)
		e.Before, e.Outcome = map[string]any{"url": shownURL(w.URL), "events": w.Events}, o
		return err
	})
	return outcome, notFound(err, errNoWebhook)
}

// secretOverlap is how long a rolled secret's predecessor still signs.
const secretOverlap = 24 * time.Hour

// RollWebhookSecret answers POST /api/admin/webhooks/{id}/roll-secret: a new secret, shown
// once; the old one signs too for a day, so receivers can switch without losing a delivery.
func (h *Handlers) RollWebhookSecret(c echo.Context) error {
	id, err := webhookID(c)
	if err != nil {
		return err
	}
	secret, until, _, err := h.rollWebhookSecret(c, id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"id": id, "secret": secret, "previousSecretUntil": isoTime(&until)})
}

func (h *Handlers) rollWebhookSecret(c echo.Context, id int64) (secret string, until time.Time, outcome string, _ error) {
	secret, until = newWebhookSecret(), time.Now().Add(secretOverlap).UTC()
	o := store.AuditOutcome{Code: store.OutcomeWebhookRolled, Args: store.AuditArgs{Webhook: id, Until: &until}}
	outcome = auditSentence(o)
	err := h.audited(c, store.ActionWebhookRoll, strconv.FormatInt(id, 10), func(t store.Tx, e *store.AuditEntry) error {
		e.Outcome = o
		return t.RollWebhookSecret(c.Request().Context(), id, secret, until)
	})
	return secret, until, outcome, notFound(err, errNoWebhook)
}

// EnableWebhook answers POST /api/admin/webhooks/{id}/enable: an endpoint switched off after
// three days of failures is on again, and the delivery that failed is tried first.
func (h *Handlers) EnableWebhook(c echo.Context) error {
	id, err := webhookID(c)
	if err != nil {
		return err
	}
	if _, err := h.enableWebhook(c, id); err != nil {
		return err
	}
	w, err := h.store.Webhook(c.Request().Context(), id)
	if err != nil {
		return notFound(err, errNoWebhook)
	}
	return c.JSON(http.StatusOK, webhookOf(w))
}

func (h *Handlers) enableWebhook(c echo.Context, id int64) (outcome string, _ error) {
	o := store.AuditOutcome{Code: store.OutcomeWebhookEnabled, Args: store.AuditArgs{Webhook: id}}
	outcome = auditSentence(o)
	err := h.audited(c, store.ActionWebhookEnable, strconv.FormatInt(id, 10), func(t store.Tx, e *store.AuditEntry) error {
		e.Outcome = o
		return t.EnableWebhook(c.Request().Context(), id)
	})
	return outcome, notFound(err, errNoWebhook)
}

// deliveryJSON is one delivery as the log shows it.
type deliveryJSON struct {
	ID            int64                `json:"id"`
	WebhookID     int64                `json:"webhookId"`
	EventID       string               `json:"eventId"`
	EventType     store.EventType      `json:"eventType"`
	Status        store.DeliveryStatus `json:"status"`
	Attempts      int                  `json:"attempts"`
	NextAttemptAt *string              `json:"nextAttemptAt"` // null once delivered or given up
	CreatedAt     *string              `json:"createdAt"`
	Tries         []tryJSON            `json:"tries"` // the latest, newest first
}

// tryJSON is one try of a delivery as the log shows it.
type tryJSON struct {
	At         *string `json:"at"`
	StatusCode *int    `json:"statusCode"`
	LatencyMs  int     `json:"latencyMs"`
	Response   string  `json:"response"` // the answer's first KB, or why none came
}

func tryOf(a store.Attempt) tryJSON {
	return tryJSON{At: isoTime(&a.At), StatusCode: a.StatusCode, LatencyMs: a.LatencyMs, Response: shownAnswer(a)}
}

// shownAnswer is what a try got back: the answer's first KB, or why none came, a sentence.
func shownAnswer(a store.Attempt) string {
	if a.Failure != nil {
		return tryFailureSentence(*a.Failure)
	}
	return a.Response
}

// tryFailureSentence says why a try got no answer.
func tryFailureSentence(f store.TryFailure) string {
	a := f.Args
	switch f.Code {
	case store.TryTimedOut:
		return "no answer within " + (time.Duration(a.Seconds) * time.Second).String()
	case store.TryPrivateAddress:
		return "the address's host is not a public address (" + a.Address + "); set WEBHOOK_ALLOW_PRIVATE=true to allow it"
	case store.TryAddressUnchecked:
		return "the address's host could not be checked"
	case store.TryUnresolved:
		return "the host name did not resolve: " + a.Error
	case store.TryUnreachable:
		if a.Error == "" {
			return "could not connect"
		}
		return "could not connect: " + a.Error
	}
	return a.Text
}

// webhookOffSentence says why an endpoint was switched off; nil while it is on.
func webhookOffSentence(o *store.WebhookOff) *string {
	if o == nil {
		return nil
	}
	a := o.Args
	s := a.Text
	if o.Code == store.OffGaveUp {
		last := "no answer"
		switch {
		case a.StatusCode != nil:
			last = "HTTP " + strconv.Itoa(*a.StatusCode)
		case a.Failure != nil:
			last = tryFailureSentence(*a.Failure)
		}
		s = fmt.Sprintf("every try of event %s failed for %s; the last: %s", a.EventID, time.Duration(a.Seconds)*time.Second, last)
	}
	return &s
}

func deliveryOf(endpoint int64) func(d store.Delivery) deliveryJSON {
	return func(d store.Delivery) deliveryJSON {
		return deliveryJSON{
			ID: d.ID, WebhookID: endpoint, EventID: d.EventID, EventType: d.EventType, Status: d.Status,
			Attempts: d.Attempts, NextAttemptAt: isoTime(d.NextAt), CreatedAt: isoTime(&d.CreatedAt), Tries: mapSlice(d.Tries, tryOf),
		}
	}
}

// WebhookDeliveries answers GET /api/admin/webhooks/{id}/deliveries?limit=: the latest
// deliveries, newest first, each with its latest tries (time, status code, latency, the first KB
// of the answer).
func (h *Handlers) WebhookDeliveries(c echo.Context) error {
	id, err := webhookID(c)
	if err != nil {
		return err
	}
	limit, err := parseLimit(c.QueryParam("limit"), c.QueryParams().Has("limit"), 50, 500)
	if err != nil {
		return err
	}
	ds, err := h.store.Deliveries(c.Request().Context(), id, limit)
	if err != nil {
		return notFound(err, errNoWebhook)
	}
	return c.JSON(http.StatusOK, mapSlice(ds, deliveryOf(id)))
}

// Redeliver answers POST /api/admin/webhooks/{id}/deliveries/{deliveryId}/redeliver: 202 with
// a new delivery of the same event (the same id), queued after what waits for the endpoint.
func (h *Handlers) Redeliver(c echo.Context) error {
	id, err := webhookID(c)
	if err != nil {
		return err
	}
	d, _, err := h.redeliver(c, id, c.Param("deliveryId"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusAccepted, deliveryOf(id)(d))
}

var errNoDelivery = errorf(http.StatusNotFound, "This webhook has no delivery with this id.")

// redeliver queues delivery (the route's :deliveryId) of endpoint id again.
func (h *Handlers) redeliver(c echo.Context, id int64, deliveryID string) (d store.Delivery, outcome string, _ error) {
	delivery, err := strconv.ParseInt(deliveryID, 10, 64)
	if err != nil || delivery <= 0 {
		return d, "", errNoDelivery
	}
	err = h.audited(c, store.ActionWebhookRedeliver, strconv.FormatInt(id, 10), func(t store.Tx, e *store.AuditEntry) error {
		var err error
		d, err = t.Redeliver(c.Request().Context(), id, delivery)
		e.After = map[string]any{"delivery": delivery, "event": d.EventID}
		e.Outcome = store.AuditOutcome{Code: store.OutcomeWebhookRedelivered, Args: store.AuditArgs{Webhook: id, EventType: d.EventType, EventID: d.EventID}}
		outcome = auditSentence(e.Outcome)
		return err
	})
	return d, outcome, notFound(err, errNoDelivery)
}

// webhooksView is every endpoint with its latest deliveries, for the operator page.
func (h *Handlers) webhooksView(ctx context.Context) ([]views.Webhook, error) {
	ws, err := h.store.Webhooks(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]views.Webhook, len(ws))
	for i, w := range ws {
		out[i].Webhook = w
		out[i].URL = shownURL(w.URL)
		if off := webhookOffSentence(w.Off); off != nil {
			out[i].Off = *off
		}
		if out[i].Deliveries, err = h.store.Deliveries(ctx, w.ID, 5); err != nil {
			return nil, err
		}
		for _, d := range out[i].Deliveries {
			for k, a := range d.Tries {
				d.Tries[k].Response, d.Tries[k].Failure = shownAnswer(a), nil // the page shows the sentence
			}
		}
	}
	return out, nil
}
