-- Refund batches are treasury batches (issue 49 §2): they carry refunds and commissions, and will
-- carry more kinds. The tables, their indexes, constraints, sequence, trigger and function take
-- the name; a batch's kind is given by whoever proposes it, never inferred, so it has no default.
-- payments.refund_batch_id keeps its name: it is the batch that refunded the payment.
ALTER TABLE refund_batches RENAME TO treasury_batches;
ALTER TABLE refund_batch_payments RENAME TO treasury_batch_payments;
ALTER TABLE refund_batch_approvals RENAME TO treasury_batch_approvals;
ALTER TABLE refund_batch_attempts RENAME TO treasury_batch_attempts;
ALTER TABLE refund_batch_commissions RENAME TO treasury_batch_commissions;
ALTER TABLE treasury_batches ALTER COLUMN kind DROP DEFAULT;

DO $$
DECLARE
    r record;
BEGIN
    -- Constraints first: renaming one that owns an index (a key) renames the index with it.
    FOR r IN SELECT conrelid::regclass AS rel, conname FROM pg_constraint
             WHERE conname LIKE 'refund\_batch%' AND connamespace = current_schema()::regnamespace LOOP
        EXECUTE format('ALTER TABLE %s RENAME CONSTRAINT %I TO %I', r.rel, r.conname,
                       replace(r.conname, 'refund_batch', 'treasury_batch'));
    END LOOP;
    FOR r IN SELECT relname, relkind FROM pg_class
             WHERE relname LIKE 'refund\_batch%' AND relnamespace = current_schema()::regnamespace LOOP
        EXECUTE format(CASE r.relkind WHEN 'S' THEN 'ALTER SEQUENCE %I RENAME TO %I' ELSE 'ALTER INDEX %I RENAME TO %I' END,
                       r.relname, replace(r.relname, 'refund_batch', 'treasury_batch'));
    END LOOP;
END $$;

-- A function's body names tables by their text, so the moves' rule is written again (as 0046 left
-- it) over the new names.
DROP TRIGGER refund_batches_move ON treasury_batches;
DROP FUNCTION refund_batch_move_allowed();
CREATE FUNCTION treasury_batch_move_allowed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.status = OLD.status OR (OLD.status, NEW.status) IN (
        ('proposed', 'ready'), ('proposed', 'executed'), ('proposed', 'failed'), ('proposed', 'void'),
        ('ready', 'proposed'), ('ready', 'executed'), ('ready', 'failed'), ('ready', 'void'),
        ('executed', 'proposed'), ('executed', 'ready'),
        ('failed', 'proposed'), ('failed', 'ready'),
        ('void', 'proposed'), ('void', 'ready'), ('void', 'executed'), ('void', 'failed')) THEN
        UPDATE treasury_batch_payments SET open = NEW.status NOT IN ('failed', 'void') WHERE batch_id = NEW.id;
        UPDATE treasury_batch_commissions SET open = NEW.status NOT IN ('failed', 'void') WHERE batch_id = NEW.id;
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'treasury batch %: % cannot become %', OLD.id, OLD.status, NEW.status
        USING ERRCODE = 'check_violation';
END $$;
CREATE TRIGGER treasury_batches_move BEFORE UPDATE OF status ON treasury_batches
    FOR EACH ROW EXECUTE FUNCTION treasury_batch_move_allowed();

-- The audit speaks of treasury batches too: one action per step whatever the kind
-- (treasury-batch.propose, .approve, .execute) and the outcomes treasury_batch_*, each with the
-- batch's kind among its values. The entries already written keep every fact they hold; their
-- action and code are renamed here, once, and those that named no kind were of refund batches.
-- This is the one change the append-only rule lets through, in this migration's transaction.
ALTER TABLE operator_audit DISABLE TRIGGER operator_audit_append_only;
UPDATE operator_audit SET action = CASE action
        WHEN 'refund-batch.propose' THEN 'treasury-batch.propose'
        WHEN 'commission-batch.propose' THEN 'treasury-batch.propose'
        WHEN 'refund-batch.approve' THEN 'treasury-batch.approve'
        WHEN 'refund-batch.execute' THEN 'treasury-batch.execute'
        END
    WHERE action IN ('refund-batch.propose', 'commission-batch.propose', 'refund-batch.approve', 'refund-batch.execute');
DO $$
DECLARE
    def text;
BEGIN
    SELECT pg_get_constraintdef(oid) INTO def FROM pg_constraint
    WHERE conrelid = 'operator_audit'::regclass AND conname = 'operator_audit_outcome_code_check';
    ALTER TABLE operator_audit DROP CONSTRAINT operator_audit_outcome_code_check;
    UPDATE operator_audit
        SET outcome_code = CASE outcome_code WHEN 'commission_batch_proposed' THEN 'treasury_batch_proposed'
                                             ELSE replace(outcome_code, 'refund_batch_', 'treasury_batch_') END,
            outcome_args = CASE WHEN outcome_args ? 'kind' THEN outcome_args ELSE outcome_args || '{"kind": "refunds"}' END
        WHERE outcome_code LIKE 'refund\_batch\_%' OR outcome_code = 'commission_batch_proposed';
    EXECUTE 'ALTER TABLE operator_audit ADD CONSTRAINT operator_audit_outcome_code_check '
        || replace(replace(def, '''commission_batch_proposed''::text, ', ''), '''refund_batch_', '''treasury_batch_');
END $$;
ALTER TABLE operator_audit ENABLE TRIGGER operator_audit_append_only;
