-- A refund paid twice (issue 48 §1): a payment refunded by hand from the payments wallet while a
-- treasury batch held it stayed in the batch, and the batch, executed, paid its buyer again. Now
-- the refund by hand voids the batch, and says why: a batch is void because the treasury took its
-- nonce with another transaction (nonce_taken), or because one of its payments was refunded
-- another way before it executed (refunded_elsewhere, naming the payment).
ALTER TABLE refund_batches
    ADD COLUMN void_reason text CHECK (void_reason IN ('nonce_taken', 'refunded_elsewhere')),
    ADD COLUMN void_payment_id bigint REFERENCES payments (id),
    ADD CONSTRAINT refund_batches_void_reason CHECK (void_reason IS NULL OR status = 'void'),
    ADD CONSTRAINT refund_batches_void_payment
        CHECK ((void_payment_id IS NOT NULL) = (void_reason IS NOT DISTINCT FROM 'refunded_elsewhere'));
UPDATE refund_batches SET void_reason = 'nonce_taken' WHERE status = 'void';

-- The chain is right: a batch the ledger voided (refunded_elsewhere) whose signatures someone
-- kept can still be executed while its nonce is the treasury's, and what the chain made of it is
-- recorded: void may become executed or failed.
CREATE OR REPLACE FUNCTION refund_batch_move_allowed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.status = OLD.status OR (OLD.status, NEW.status) IN (
        ('proposed', 'ready'), ('proposed', 'executed'), ('proposed', 'failed'), ('proposed', 'void'),
        ('ready', 'executed'), ('ready', 'failed'), ('ready', 'void'),
        ('executed', 'proposed'), ('executed', 'ready'),
        ('failed', 'proposed'), ('failed', 'ready'),
        ('void', 'proposed'), ('void', 'ready'), ('void', 'executed'), ('void', 'failed')) THEN
        UPDATE refund_batch_payments SET open = NEW.status NOT IN ('failed', 'void') WHERE batch_id = NEW.id;
        UPDATE refund_batch_commissions SET open = NEW.status NOT IN ('failed', 'void') WHERE batch_id = NEW.id;
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'refund batch %: % cannot become %', OLD.id, OLD.status, NEW.status
        USING ERRCODE = 'check_violation';
END $$;

-- The audit's outcome of a batch the ledger voided for a refund made another way.
SELECT add_audit_outcome_codes('refund_batch_void_refunded');
