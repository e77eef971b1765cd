-- The audit's outcome of proposing a commission batch (store.AuditOutcomeCodes).
SELECT add_audit_outcome_codes('commission_batch_proposed');
