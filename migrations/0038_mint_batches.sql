-- A mint transaction mints the nodes of one payment (factory.mint) or of several (mintBatch): a
-- mint batch. Its payments are claimed first (minting, their tier's unit taken, mint_batch NULL),
-- then signed together; every version of the transaction is kept in the outbox for the batch, and
-- the batch keeps the newest's bytes. Each payment keeps the newest's hash and nonce (mint_tx,
-- mint_nonce), which its readers show.
CREATE TABLE mint_batches (
    id         bigserial   PRIMARY KEY,
    tx_hash    txhash      NOT NULL,
    nonce      bigint      NOT NULL,
    raw        bytea       NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- Every mint signed so far minted one payment: it becomes a batch of one, numbered as its payment.
INSERT INTO mint_batches (id, tx_hash, nonce, raw, created_at)
SELECT p.id, p.mint_tx, p.mint_nonce, p.mint_raw,
    coalesce((SELECT min(o.created_at) FROM outbox o WHERE o.payment_id = p.id), p.updated_at)
FROM payments p WHERE p.mint_raw IS NOT NULL;
SELECT setval(pg_get_serial_sequence('mint_batches', 'id'), coalesce((SELECT max(id) FROM mint_batches), 0) + 1, false);

ALTER TABLE payments ADD COLUMN mint_batch bigint REFERENCES mint_batches (id);
UPDATE payments SET mint_batch = id WHERE mint_raw IS NOT NULL;
ALTER TABLE payments DROP COLUMN mint_raw;
-- The payments pass opens the batches its minting payments are in, and signs those in none.
CREATE INDEX payments_minting ON payments (mint_batch) WHERE status = 'minting';

ALTER TABLE outbox ADD COLUMN mint_batch bigint REFERENCES mint_batches (id);
-- Every payment with an outbox row has its mint's bytes (the two were stored together): one that
-- had not would fail here, rather than leave its versions looking like gap fillers.
UPDATE outbox SET mint_batch = payment_id WHERE payment_id IS NOT NULL;
ALTER TABLE outbox DROP CONSTRAINT outbox_for_one;
ALTER TABLE outbox DROP COLUMN payment_id; -- its index goes with it
ALTER TABLE outbox ADD CONSTRAINT outbox_for_one CHECK (num_nonnulls(mint_batch, distribution_id, sweep_id) <= 1);
CREATE INDEX outbox_mint_batch ON outbox (mint_batch) WHERE mint_batch IS NOT NULL;
