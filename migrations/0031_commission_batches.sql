-- Commissions are paid as refunds are (issue 35 §3): one treasury batch, a MultiSendCallOnly of
-- plain transfers (one a referrer, of the sum of its commissions in the batch, in the order of the
-- referrers' addresses), signed by the Safe's owners and matched by its ExecutionSuccess log.
-- refund_batches holds both kinds; a commission is paid when a batch that holds it executed.
ALTER TABLE refund_batches
    ADD COLUMN kind text NOT NULL DEFAULT 'refunds' CHECK (kind IN ('refunds', 'commissions'));

-- The commissions a batch pays. open is the batch's status, kept by the trigger below as
-- refund_batch_payments' is, so that "a commission is in one batch at most that is not void or
-- failed" is a unique index.
CREATE TABLE refund_batch_commissions (
    batch_id      bigint  NOT NULL REFERENCES refund_batches (id),
    commission_id bigint  NOT NULL REFERENCES commissions (id),
    open          boolean NOT NULL DEFAULT true,
    PRIMARY KEY (batch_id, commission_id)
);
CREATE UNIQUE INDEX refund_batch_commissions_once ON refund_batch_commissions (commission_id) WHERE open;

CREATE OR REPLACE FUNCTION refund_batch_move_allowed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.status = OLD.status OR (OLD.status, NEW.status) IN (
        ('proposed', 'ready'), ('proposed', 'executed'), ('proposed', 'failed'), ('proposed', 'void'),
        ('ready', 'executed'), ('ready', 'failed'), ('ready', 'void'),
        ('executed', 'proposed'), ('executed', 'ready'),
        ('failed', 'proposed'), ('failed', 'ready'),
        ('void', 'proposed'), ('void', 'ready')) THEN
        UPDATE refund_batch_payments SET open = NEW.status NOT IN ('failed', 'void') WHERE batch_id = NEW.id;
        UPDATE refund_batch_commissions SET open = NEW.status NOT IN ('failed', 'void') WHERE batch_id = NEW.id;
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'refund batch %: % cannot become %', OLD.id, OLD.status, NEW.status
        USING ERRCODE = 'check_violation';
END $$;
