package handlers

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"nodeledger/store"
	"nodeledger/views"
)

// The operator page's webhook forms, an admin's: each runs what its admin API route runs
// (handlers/webhooks.go), audited the same way, and tells its outcome as the audit does.

// AddWebhookFromPage answers POST /operator/webhooks (url, events): the page with the new
// webhook's secret, shown this once, so it is answered in place and never carried by a cookie
// across a redirect. A refused form comes back with its sentence (422: nothing was stored).
func (h *Handlers) AddWebhookFromPage(c echo.Context) error {
	f := views.WebhookForm{URL: c.FormValue("url")}
	names := c.Request().PostForm["events"]
	for _, n := range names {
		f.Events = append(f.Events, store.EventType(n))
	}
	w, outcome, err := h.addWebhook(c, f.URL, names)
	var he *echo.HTTPError
	if errors.As(err, &he) && he.Code == http.StatusBadRequest {
		_, f.Problem, _ = Classify(err)
		return h.renderOperator(c, http.StatusUnprocessableEntity, operatorDraft{webhookForm: f})
	}
	if err != nil {
		return err
	}
	return h.renderOperator(c, http.StatusOK, operatorDraft{outcome: outcome,
		secret: &views.WebhookSecret{ID: w.ID, URL: w.URL, Secret: w.Secret}})
}

// RollWebhookSecretFromPage answers POST /operator/webhooks/{id}/roll-secret: the page with the
// new secret, shown this once; the old one signs too for a day.
func (h *Handlers) RollWebhookSecretFromPage(c echo.Context) error {
	id, err := webhookID(c)
	if err != nil {
		return err
	}
	secret, until, outcome, err := h.rollWebhookSecret(c, id)
	if err != nil {
		return err
	}
	w, err := h.store.Webhook(c.Request().Context(), id)
	if err != nil {
		return notFound(err, errNoWebhook)
	}
	return h.renderOperator(c, http.StatusOK, operatorDraft{outcome: outcome,
		secret: &views.WebhookSecret{ID: id, URL: shownURL(w.URL), Secret: secret, PreviousUntil: &until}})
}

// DeleteWebhookFromPage answers POST /operator/webhooks/{id}/delete.
func (h *Handlers) DeleteWebhookFromPage(c echo.Context) (string, error) {
	id, err := webhookID(c)
	if err != nil {
		return "", err
	}
	return h.deleteWebhook(c, id)
}

// EnableWebhookFromPage answers POST /operator/webhooks/{id}/enable.
func (h *Handlers) EnableWebhookFromPage(c echo.Context) (string, error) {
	id, err := webhookID(c)
	if err != nil {
		return "", err
	}
	return h.enableWebhook(c, id)
}

// RedeliverFromPage answers POST /operator/webhooks/{id}/deliveries/{deliveryId}/redeliver.
func (h *Handlers) RedeliverFromPage(c echo.Context) (string, error) {
	id, err := webhookID(c)
	if err != nil {
		return "", err
	}
	_, outcome, err := h.redeliver(c, id, c.Param("deliveryId"))
	return outcome, err
}
