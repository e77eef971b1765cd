-- A webhook's address is shown as its scheme and host, the rest masked (handlers' shownURL):
-- Slack's and Discord's addresses, like many, carry their secret in the path or the query. The
-- audit kept whole addresses until now, in the added endpoint's target, after and outcome, and
-- in the deleted one's before: they are masked the same way. The audit is append-only; its
-- trigger is set aside for this one statement, as a migration is the schema owner's act.

-- 'https://hooks.example.com/…' for any http(s) address in s.
CREATE FUNCTION pg_temp.masked(s text) RETURNS text LANGUAGE sql IMMUTABLE
AS $$ SELECT regexp_replace(s, '(https?://[^/?#\s]+)[^\s]*', '\1/…', 'g') $$;

ALTER TABLE operator_audit DISABLE TRIGGER operator_audit_append_only;

UPDATE operator_audit SET
    target = CASE WHEN action = 'webhook.add' THEN pg_temp.masked(target) ELSE target END,
    outcome = pg_temp.masked(outcome),
    after = CASE WHEN after ? 'url' THEN jsonb_set(after, '{url}', to_jsonb(pg_temp.masked(after->>'url'))) ELSE after END,
    before = CASE WHEN before ? 'url' THEN jsonb_set(before, '{url}', to_jsonb(pg_temp.masked(before->>'url'))) ELSE before END
WHERE action IN ('webhook.add', 'webhook.delete');

ALTER TABLE operator_audit ENABLE TRIGGER operator_audit_append_only;
