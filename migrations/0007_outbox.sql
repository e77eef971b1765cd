-- The outbox: every transaction the service signs, in every version, stored before it is sent.
-- A transaction not mined after a few blocks is signed again at the same nonce with higher fees;
-- whichever version the chain mines must be recognised, after a crash too, so each one is kept.
-- payments.mint_tx/mint_raw and credit_batches.tx_hash/raw stay the newest version of theirs.
CREATE TABLE outbox (
    tx_hash     txhash      PRIMARY KEY,
    sender      address     NOT NULL,
    nonce       bigint      NOT NULL,
    raw         bytea       NOT NULL,
    tip_wei     wei         NOT NULL,
    fee_cap_wei wei         NOT NULL,
    -- The head when this version was signed: it is replaced once enough blocks pass without it.
    sent_block  bigint      NOT NULL,
    -- What the transaction is for: a payment's mint, a batch's credit, or neither (a zero-value
    -- transfer that fills a nonce gap so that the transactions after it can be mined).
    payment_id  bigint      REFERENCES payments (id) ON DELETE CASCADE, -- a reorg may forget a payment
    batch_id    bigint      REFERENCES credit_batches (id),
    created_at  timestamptz NOT NULL DEFAULT now(),
    CHECK (payment_id IS NULL OR batch_id IS NULL)
);
CREATE INDEX outbox_payment ON outbox (payment_id) WHERE payment_id IS NOT NULL;
CREATE INDEX outbox_batch ON outbox (batch_id) WHERE batch_id IS NOT NULL;
CREATE INDEX outbox_sender_nonce ON outbox (sender, nonce);
