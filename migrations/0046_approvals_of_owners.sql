-- A signature of an owner since removed from the Safe is dropped (issue 48 §7): the Safe refuses
-- an execution that carries it (GS026), so a batch is ready only with its current owners'
-- signatures, and executes with them alone. counted is whether the approval's owner is among the
-- Safe's owners as last read (at an approval, and by every payments pass while the batch is open);
-- a batch whose counted approvals fall below the threshold goes back from ready to proposed.
ALTER TABLE refund_batch_approvals ADD COLUMN counted boolean NOT NULL DEFAULT true;

CREATE OR REPLACE FUNCTION refund_batch_move_allowed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.status = OLD.status OR (OLD.status, NEW.status) IN (
        ('proposed', 'ready'), ('proposed', 'executed'), ('proposed', 'failed'), ('proposed', 'void'),
        ('ready', 'proposed'), ('ready', 'executed'), ('ready', 'failed'), ('ready', 'void'),
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
