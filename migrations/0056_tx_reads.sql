-- What the chain said of a transaction a buyer's tracker follows before the payments pass sees
-- it: read by one instance, kept a few seconds for all (issue 53 §4), so that the instances
-- behind a load balancer ask the chain once, not once each. A cache: unlogged (no WAL, emptied
-- by a crash), in no digest, no export, no rebuild.
CREATE UNLOGGED TABLE tx_reads (
    hash     txhash PRIMARY KEY,
    state    text NOT NULL CHECK (state IN ('mined', 'pending', 'unknown')),
    transfer jsonb,
    until    timestamptz NOT NULL,
    CHECK ((state = 'mined') = (transfer IS NOT NULL))
);
CREATE INDEX tx_reads_until ON tx_reads (until);
