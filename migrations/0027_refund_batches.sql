-- Refunds that leave the treasury Safe as one transaction several owners approve: a batch is a
-- Safe transaction the service builds (a MultiSendCallOnly batch of plain transfers, one a
-- payment, each to the payer of exactly its value), the owners' signatures of it as they come, and
-- what the chain made of it. The ledger matches the batch by the ExecutionSuccess log of its
-- hash; the service never holds a key that moves the treasury's money.

CREATE TABLE refund_batches (
    id              bigserial   PRIMARY KEY,
    safe            address     NOT NULL,
    -- The SafeTx the owners sign (EIP-712), field by field as the Safe takes them.
    to_address      address     NOT NULL,
    value_wei       wei         NOT NULL,
    data            bytea       NOT NULL,
    operation       smallint    NOT NULL CHECK (operation IN (0, 1)),
    safe_tx_gas     wei         NOT NULL,
    base_gas        wei         NOT NULL,
    gas_price       wei         NOT NULL,
    gas_token       address     NOT NULL,
    refund_receiver address     NOT NULL,
    nonce           wei         NOT NULL,
    safe_tx_hash    txhash      NOT NULL UNIQUE,
    -- How many owners' signatures the Safe asked for when the batch was last proposed or approved.
    threshold       int         NOT NULL CHECK (threshold > 0),
    -- store.BatchStatus; the trigger below holds the moves to store's batchMoves.
    status          text        NOT NULL DEFAULT 'proposed'
                    CHECK (status IN ('proposed', 'ready', 'executed', 'failed', 'void')),
    -- Executed or failed: the transaction that executed it; sent_tx: one the chain holds above
    -- the confirmed blocks, for the buyer's "sent" (the payments pass rewrites it each time).
    executed_tx     txhash,
    sent_tx         txhash,
    -- The block where the chain decided it (its execution, or the scanned block at which the Safe's
    -- nonce had passed it): a reorg above that block takes the decision back.
    block_number    bigint,
    proposed_by     text        NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    CHECK ((status IN ('executed', 'failed')) = (executed_tx IS NOT NULL)),
    CHECK ((status IN ('executed', 'failed', 'void')) = (block_number IS NOT NULL))
);
CREATE INDEX refund_batches_open ON refund_batches (safe, nonce) WHERE status IN ('proposed', 'ready');

-- The transfers of a batch: one a payment, in the batch's order.
CREATE TABLE refund_batch_payments (
    batch_id   bigint  NOT NULL REFERENCES refund_batches (id),
    payment_id bigint  NOT NULL REFERENCES payments (id),
    position   int     NOT NULL,
    to_address address NOT NULL,
    value_wei  wei     NOT NULL,
    -- The batch's status, kept here by the trigger below, so that the rule "a payment is in one
    -- batch at most that is not void or failed" is a unique index.
    open       boolean NOT NULL DEFAULT true,
    PRIMARY KEY (batch_id, payment_id),
    UNIQUE (batch_id, position)
);
CREATE UNIQUE INDEX refund_batch_payments_once ON refund_batch_payments (payment_id) WHERE open;

-- The owners' signatures: one an owner, 65 bytes (r, s, v) as the Safe takes them.
CREATE TABLE refund_batch_approvals (
    batch_id     bigint      NOT NULL REFERENCES refund_batches (id),
    owner        address     NOT NULL,
    signature    bytea       NOT NULL CHECK (length(signature) = 65),
    submitted_by text        NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (batch_id, owner)
);

-- A batch moves only along store's batchMoves (TestBatchMoves holds the two to each other): the
-- chain decides an open batch (executed, failed, void), and a reorg takes that back.
CREATE FUNCTION refund_batch_move_allowed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.status = OLD.status OR (OLD.status, NEW.status) IN (
        ('proposed', 'ready'), ('proposed', 'executed'), ('proposed', 'failed'), ('proposed', 'void'),
        ('ready', 'executed'), ('ready', 'failed'), ('ready', 'void'),
        ('executed', 'proposed'), ('executed', 'ready'),
        ('failed', 'proposed'), ('failed', 'ready'),
        ('void', 'proposed'), ('void', 'ready')) THEN
        UPDATE refund_batch_payments SET open = NEW.status NOT IN ('failed', 'void') WHERE batch_id = NEW.id;
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'refund batch %: % cannot become %', OLD.id, OLD.status, NEW.status
        USING ERRCODE = 'check_violation';
END $$;

CREATE TRIGGER refund_batches_move BEFORE UPDATE OF status ON refund_batches
    FOR EACH ROW EXECUTE FUNCTION refund_batch_move_allowed();

-- A batch refunds each of its payments with one transaction: refund_tx_hash is no longer one
-- transfer's out of the payments wallet. A refund by hand still refunds one payment, and names a
-- transfer the scan saw; a batch's refund names its batch.
ALTER TABLE payments
    DROP CONSTRAINT payments_refund_tx_hash_key,
    DROP CONSTRAINT payments_refund_tx_hash_fkey,
    ADD COLUMN refund_batch_id bigint REFERENCES refund_batches (id),
    ADD CONSTRAINT payments_refund_batch CHECK (refund_batch_id IS NULL OR status = 'refunded');
CREATE UNIQUE INDEX payments_refund_by_hand ON payments (refund_tx_hash) WHERE refund_batch_id IS NULL;

-- The audit's outcomes of proposing and approving a batch (store.AuditOutcomeCodes), added to
-- whatever the CHECK lists now, before 'other'.
DO $$
DECLARE
    def text;
BEGIN
    SELECT pg_get_constraintdef(oid) INTO def FROM pg_constraint
    WHERE conrelid = 'operator_audit'::regclass AND conname = 'operator_audit_outcome_code_check';
    EXECUTE 'ALTER TABLE operator_audit DROP CONSTRAINT operator_audit_outcome_code_check';
    EXECUTE 'ALTER TABLE operator_audit ADD CONSTRAINT operator_audit_outcome_code_check '
        || replace(def, '''other''::text',
                   '''refund_batch_proposed''::text, ''refund_batch_approved''::text, ''refund_batch_executed''::text, '
                   || '''refund_batch_failed''::text, ''refund_batch_void''::text, ''other''::text');
END $$;
