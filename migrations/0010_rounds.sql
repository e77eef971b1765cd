-- One transaction a round: factory.distribute credits every node minted before it, at a gas cost
-- that does not grow with the sale. The per-node batches are gone; a round keeps its signed
-- transaction itself, and what the contract's arithmetic needs to be repeated exactly.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM distributions WHERE status = 'pending') THEN
        RAISE EXCEPTION 'a credit round is still pending: finish it with the previous release before upgrading';
    END IF;
END $$;

ALTER TABLE distributions
    -- fixed: the base per node (times the tier's payoutBps / 10000); pool: the pool. Null for the
    -- rounds credited node by node before this migration.
    ADD COLUMN amount_wei  wei,
    -- The chain's nodeCount when the round was priced: it credits nodes 1 to chain_nodes.
    ADD COLUMN chain_nodes bigint CHECK (chain_nodes >= 0),
    -- The factory's poolCarry before the round, added to a pool round's pool.
    ADD COLUMN carry_wei   wei,
    -- Each tier's payoutBps for this round, by tier id (the distribute call's weights).
    ADD COLUMN weights     integer[],
    -- When the round fell due, and when the next one is (set when it is confirmed: a period
    -- after due_at, or after the confirmation when that is later). The schedule is the last
    -- confirmed round's next_at; a node's next_credit_at is a copy of it, for its page.
    ADD COLUMN due_at      timestamptz,
    ADD COLUMN next_at     timestamptz,
    ADD COLUMN nonce       bigint,
    ADD COLUMN raw         bytea;

ALTER TABLE outbox ADD COLUMN distribution_id bigint REFERENCES distributions (id);
UPDATE outbox o SET distribution_id = b.distribution_id FROM credit_batches b WHERE b.id = o.batch_id;
ALTER TABLE outbox DROP COLUMN batch_id; -- its index and check go with it
ALTER TABLE outbox ADD CHECK (payment_id IS NULL OR distribution_id IS NULL);
CREATE INDEX outbox_distribution ON outbox (distribution_id) WHERE distribution_id IS NOT NULL;

ALTER TABLE credits DROP COLUMN batch_id;
DROP TABLE credit_batches;
