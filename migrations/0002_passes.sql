-- What the passes need to be crash safe: every transaction they send is stored signed, with its
-- nonce, before it is broadcast, so a pass that dies can send the very same bytes again.

-- A payment is a transfer to the payments wallet: a top-level transaction (call_index 0) or the
-- call_index-th internal transfer of a contract wallet's transaction. payment_ref is what the
-- contract is told, so that one payment can never mint twice.
ALTER TABLE payments DROP CONSTRAINT payments_tx_hash_key;
ALTER TABLE payments
    ADD COLUMN call_index  integer NOT NULL DEFAULT 0,
    ADD COLUMN payment_ref txhash,
    ADD COLUMN mint_tx     txhash,
    ADD COLUMN mint_nonce  bigint,
    ADD COLUMN mint_raw    bytea,
    ADD CONSTRAINT payments_tx_call UNIQUE (tx_hash, call_index);
UPDATE payments SET payment_ref = tx_hash;
ALTER TABLE payments ALTER COLUMN payment_ref SET NOT NULL;
CREATE UNIQUE INDEX payments_ref ON payments (payment_ref);

-- A round is credited on chain in batches that fit a block; each batch's id is the round id the
-- contract accepts once.
CREATE TABLE credit_batches (
    id              bigserial   PRIMARY KEY,
    distribution_id bigint      NOT NULL REFERENCES distributions (id),
    batch_no        integer     NOT NULL,
    total_wei       wei         NOT NULL,
    node_count      integer     NOT NULL,
    status          text        NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'confirmed', 'failed')),
    tx_hash         txhash,
    nonce           bigint,
    raw             bytea,
    created_at      timestamptz NOT NULL DEFAULT now(),
    confirmed_at    timestamptz,
    UNIQUE (distribution_id, batch_no)
);
ALTER TABLE credits ADD COLUMN batch_id bigint REFERENCES credit_batches (id);
CREATE INDEX credits_batch ON credits (batch_id);
