-- Webhook events are kept WEBHOOK_RETENTION_DAYS (store.PruneWebhooks): found by age, and their
-- deliveries found by event, for the check that none is pending and for the cascade.
CREATE INDEX webhook_events_created ON webhook_events (created_at);
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);
