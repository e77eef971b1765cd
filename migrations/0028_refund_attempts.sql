-- The transactions sent to execute a refund batch, as the operator page or a script reports them:
-- one that reverts (too few signatures, a transfer the treasury could not make) logs nothing and
-- takes no nonce, so only this table remembers it was tried, and why it failed.
CREATE TABLE refund_batch_attempts (
    tx_hash      txhash      PRIMARY KEY,
    batch_id     bigint      NOT NULL REFERENCES refund_batches (id),
    sender       address     NOT NULL,
    reported_by  text        NOT NULL,
    -- store.AttemptStatus: sent until mined, then mined (it executed) or reverted.
    status       text        NOT NULL DEFAULT 'sent' CHECK (status IN ('sent', 'mined', 'reverted')),
    -- Reverted: why, as the Safe said it (GS020), "out of gas", or '' when the chain told nothing.
    error        text        CHECK ((status = 'reverted') = (error IS NOT NULL)),
    block_number bigint      CHECK ((status = 'sent') = (block_number IS NULL)),
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX refund_batch_attempts_batch ON refund_batch_attempts (batch_id);

-- add_audit_outcome_codes adds codes to whatever the audit's outcome CHECK lists now, before
-- 'other' (store.AuditOutcomeCodes): each migration that brings a code calls it, rather than
-- rewriting the CHECK by hand as 0027 did.
CREATE FUNCTION add_audit_outcome_codes(VARIADIC codes text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    def text;
    added text := '';
    code text;
BEGIN
    FOREACH code IN ARRAY codes LOOP
        added := added || quote_literal(code) || '::text, ';
    END LOOP;
    SELECT pg_get_constraintdef(oid) INTO def FROM pg_constraint
    WHERE conrelid = 'operator_audit'::regclass AND conname = 'operator_audit_outcome_code_check';
    EXECUTE 'ALTER TABLE operator_audit DROP CONSTRAINT operator_audit_outcome_code_check';
    EXECUTE 'ALTER TABLE operator_audit ADD CONSTRAINT operator_audit_outcome_code_check '
        || replace(def, '''other''::text', added || '''other''::text');
END $$;

-- The audit's outcome of an execution that reverted.
SELECT add_audit_outcome_codes('refund_batch_reverted');
