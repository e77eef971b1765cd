-- Webhooks (store/webhooks.go, jobs/webhooks.go). An event is written in the transaction of the
-- change it reports, with one delivery for each endpoint that wants it; every instance delivers,
-- an endpoint at a time under a lease, its deliveries in id order.

-- Where events go. secret signs every delivery; previous_secret also signs until
-- previous_secret_until, a day after a roll. lease_owner holds the endpoint while one instance
-- delivers to it, until lease_until. An endpoint whose deliveries failed for three days is off.
CREATE TABLE webhook_endpoints (
    id bigserial PRIMARY KEY,
    url text NOT NULL,
    events text[] NOT NULL,
    secret text NOT NULL,
    previous_secret text,
    previous_secret_until timestamptz,
    created_by text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    disabled_at timestamptz,
    disabled_reason text,
    lease_owner text,
    lease_until timestamptz
);

-- What happened, as the ledger held it then. subject names what it is about ("payment:12"), so
-- that a reorg that takes the cause back finds the events to revert.
CREATE TABLE webhook_events (
    id bigserial PRIMARY KEY,
    public_id text NOT NULL UNIQUE DEFAULT 'evt_' || replace(gen_random_uuid()::text, '-', ''),
    type text NOT NULL,
    subject text NOT NULL,
    data jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_events_subject ON webhook_events (subject);

-- One event for one endpoint: pending until a 2xx (delivered), or until its tries since
-- tries_since have failed for three days (failed). A redelivery is a new row for the same event.
CREATE TABLE webhook_deliveries (
    id bigserial PRIMARY KEY,
    endpoint_id bigint NOT NULL REFERENCES webhook_endpoints ON DELETE CASCADE,
    event_id bigint NOT NULL REFERENCES webhook_events ON DELETE CASCADE,
    status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts int NOT NULL DEFAULT 0,
    next_at timestamptz NOT NULL DEFAULT now(),
    tries_since timestamptz NOT NULL DEFAULT now(),
    created_at timestamptz NOT NULL DEFAULT now(),
    done_at timestamptz
);
-- Each endpoint's queue, oldest first; and its log, newest first.
CREATE INDEX webhook_deliveries_queue ON webhook_deliveries (endpoint_id, id) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, id DESC);

-- Every try: its answer's status (null when none came), how long it took, and the first KB of
-- the answer or, without one, why.
CREATE TABLE webhook_attempts (
    id bigserial PRIMARY KEY,
    delivery_id bigint NOT NULL REFERENCES webhook_deliveries ON DELETE CASCADE,
    at timestamptz NOT NULL DEFAULT now(),
    status_code int,
    latency_ms int NOT NULL,
    response text NOT NULL
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, id DESC);
