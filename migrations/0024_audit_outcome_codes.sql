-- What came of an operator action is kept as a code and its values, no longer as the sentence
-- the operator was told (store.AuditOutcome): the sentence is written where it is shown (the
-- operator page, GET /api/admin/audit, the audit export) by handlers' auditSentence. The rows so
-- far have their sentences read back into codes, form by form, exactly as the handlers wrote
-- them; a sentence that matches none (a saved tier, a pass's summary, an older wording) keeps its
-- words as the argument text of the code 'other', and is shown as it was.
--
-- The audit is append-only; its trigger is set aside for this one statement, as a migration is
-- the schema owner's act (as 0022 did).

ALTER TABLE operator_audit
    ADD COLUMN outcome_code text CHECK (outcome_code IN ('signed_in', 'signed_out',
        'operator_added', 'operator_unchanged', 'operator_role_changed', 'operator_removed',
        'operator_set_by_setting', 'operator_removed_by_setting',
        'tier_on_sale', 'tier_off_sale', 'tier_saved', 'allowlist_saved',
        'minting_held', 'minting_resumed',
        'payments_pass', 'credit_pass', 'pass_failed',
        'webhook_added', 'webhook_deleted', 'webhook_secret_rolled', 'webhook_enabled', 'webhook_redelivered',
        'other')),
    ADD COLUMN outcome_args jsonb CHECK (jsonb_typeof(outcome_args) = 'object');

-- "a", "a and b", "a, b and c": words.AndList, to check an event list reads back as it was written.
CREATE FUNCTION pg_temp.and_list(items text[]) RETURNS text LANGUAGE sql IMMUTABLE
AS $$
SELECT CASE WHEN cardinality(items) <= 1 THEN array_to_string(items, '')
    ELSE array_to_string(items[1:cardinality(items) - 1], ', ') || ' and ' || items[cardinality(items)] END
$$;

-- An outcome as the handlers wrote it for action, as {"code", "args"}. A number is read only in
-- the form %d writes it (no sign, no leading zero), a count only where its noun agrees with it,
-- a time only as words.MinuteUTC writes it: anything else would be written back otherwise.
CREATE FUNCTION pg_temp.outcome(action text, s text) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE
AS $$
DECLARE
    n   text := '(0|[1-9][0-9]*)';
    a   text := '(0x[0-9a-f]{40})';
    r   text := '(viewer|operator|admin)';
    m   text[];
    evs text[];
BEGIN
    IF action = 'operator.sign-in' AND s ~ ('^Signed in as ' || r || '\.$') THEN
        RETURN jsonb_build_object('code', 'signed_in', 'args', jsonb_build_object('role', (regexp_match(s, r))[1]));
    ELSIF action = 'operator.sign-out' AND s = 'Signed out.' THEN
        RETURN jsonb_build_object('code', 'signed_out', 'args', '{}'::jsonb);
    ELSIF action = 'operator.put' AND s = 'Set by the OPERATORS setting.' THEN
        RETURN jsonb_build_object('code', 'operator_set_by_setting', 'args', '{}'::jsonb);
    ELSIF action = 'operator.remove' AND s = 'Removed: the OPERATORS setting no longer names it.' THEN
        RETURN jsonb_build_object('code', 'operator_removed_by_setting', 'args', '{}'::jsonb);
    ELSIF action = 'minting.hold' AND s = 'Minting is held: payments are recorded and wait.' THEN
        RETURN jsonb_build_object('code', 'minting_held', 'args', '{}'::jsonb);
    ELSIF action = 'minting.resume' AND s = 'Minting resumed: the next payments pass mints the payments that waited.' THEN
        RETURN jsonb_build_object('code', 'minting_resumed', 'args', '{}'::jsonb);
    END IF;

    IF action = 'operator.put' THEN
        m := regexp_match(s, '^Added ' || a || ' as ' || r || ': it can sign in now\.$');
        IF m IS NOT NULL THEN
            RETURN jsonb_build_object('code', 'operator_added', 'args', jsonb_build_object('address', m[1], 'role', m[2]));
        END IF;
        m := regexp_match(s, '^' || a || ' is already ' || r || ': nothing changed\.$');
        IF m IS NOT NULL THEN
            RETURN jsonb_build_object('code', 'operator_unchanged', 'args', jsonb_build_object('address', m[1], 'role', m[2]));
        END IF;
        m := regexp_match(s, '^' || a || ' is now ' || r || ', no longer ' || r || '; its sessions ended\.$');
        IF m IS NOT NULL THEN
            RETURN jsonb_build_object('code', 'operator_role_changed', 'args', jsonb_build_object('address', m[1], 'role', m[2], 'was', m[3]));
        END IF;
    ELSIF action = 'operator.remove' THEN
        m := regexp_match(s, '^Removed ' || a || ' from the operator list; its sessions ended\.$');
        IF m IS NOT NULL THEN
            RETURN jsonb_build_object('code', 'operator_removed', 'args', jsonb_build_object('address', m[1]));
        END IF;
    ELSIF action = 'tier.on-sale' THEN
        m := regexp_match(s, '^Tier ' || n || ' is now switched on: it sells while its times and supply allow\.$');
        IF m IS NOT NULL THEN
            RETURN jsonb_build_object('code', 'tier_on_sale', 'args', jsonb_build_object('tier', m[1]::int));
        END IF;
    ELSIF action = 'tier.off-sale' THEN
        m := regexp_match(s, '^Tier ' || n || ' is now off sale\.$');
        IF m IS NOT NULL THEN
            RETURN jsonb_build_object('code', 'tier_off_sale', 'args', jsonb_build_object('tier', m[1]::int));
        END IF;
    ELSIF action = 'tier.allowlist' THEN
        m := regexp_match(s, '^Tier ' || n || '''s allowlist is now ' || n || ' (wallets?), with ' || n || ' (nodes?) in all\.$');
        IF m IS NOT NULL AND (m[2] = '1') = (m[3] = 'wallet') AND (m[4] = '1') = (m[5] = 'node') THEN
            RETURN jsonb_build_object('code', 'allowlist_saved', 'args',
                jsonb_strip_nulls(jsonb_build_object('tier', m[1]::int, 'wallets', nullif(m[2]::int, 0), 'nodes', nullif(m[4]::bigint, 0))));
        END IF;
    ELSIF action IN ('pass.payments', 'pass.credit') THEN
        -- A failed pass, in the words handlers' Classify gives each kind of error.
        m := regexp_match(s, '^Failed: (.*)$');
        IF m IS NOT NULL THEN
            m[1] := CASE m[1]
                WHEN 'The ledger database cannot be reached right now; please retry in a little while.' THEN 'ledger_unavailable'
                WHEN 'The chain cannot be read right now; please retry in a little while.' THEN 'chain_unavailable'
                WHEN 'The signer refused the transaction: its rules do not allow it. The signer''s log says which rule.' THEN 'signer_refused'
                WHEN 'A service this route depends on is unavailable; please retry in a little while.' THEN 'timed_out'
                WHEN 'Something went wrong on our side; please retry in a little while.' THEN 'internal'
            END;
            IF m[1] IS NOT NULL THEN
                RETURN jsonb_build_object('code', 'pass_failed', 'args', jsonb_build_object('failure', m[1]));
            END IF;
        END IF;
    ELSIF action = 'webhook.add' THEN
        m := regexp_match(s, '^Added webhook #' || n || ': (\S+) gets (.+)\.$');
        IF m IS NOT NULL THEN
            evs := CASE WHEN m[3] = 'every event' THEN ARRAY['*']
                ELSE regexp_split_to_array(replace(m[3], ' and ', ', '), ', ') END;
            IF m[3] = 'every event' OR (pg_temp.and_list(evs) = m[3]
                    AND NOT EXISTS (SELECT FROM unnest(evs) e WHERE e !~ '^[a-z_]+(\.[a-z_]+)+$')) THEN
                RETURN jsonb_build_object('code', 'webhook_added', 'args',
                    jsonb_build_object('webhook', m[1]::bigint, 'url', m[2], 'events', to_jsonb(evs)));
            END IF;
        END IF;
    ELSIF action = 'webhook.delete' THEN
        m := regexp_match(s, '^Deleted webhook #' || n || ', with its deliveries: nothing more goes to it\.$');
        IF m IS NOT NULL THEN
            RETURN jsonb_build_object('code', 'webhook_deleted', 'args', jsonb_build_object('webhook', m[1]::bigint));
        END IF;
    ELSIF action = 'webhook.roll-secret' THEN
        -- words.MinuteUTC: seconds only when there are some.
        m := regexp_match(s, '^Rolled webhook #' || n || '''s secret: the old one signs too until '
            || '([0-9]{4}-[0-9]{2}-[0-9]{2}) ([0-9]{2}:[0-9]{2})(:0[1-9]|:[1-5][0-9])? UTC\.$');
        IF m IS NOT NULL THEN
            RETURN jsonb_build_object('code', 'webhook_secret_rolled', 'args', jsonb_build_object('webhook', m[1]::bigint,
                'until', m[2] || 'T' || m[3] || coalesce(m[4], ':00') || 'Z'));
        END IF;
    ELSIF action = 'webhook.enable' THEN
        m := regexp_match(s, '^Switched webhook #' || n || ' on: the delivery it gave up on is tried first\.$');
        IF m IS NOT NULL THEN
            RETURN jsonb_build_object('code', 'webhook_enabled', 'args', jsonb_build_object('webhook', m[1]::bigint));
        END IF;
    ELSIF action = 'webhook.redeliver' THEN
        m := regexp_match(s, '^Queued ([a-z_.]+) \((evt_[0-9a-f]+)\) again for webhook #' || n || '\.$');
        IF m IS NOT NULL THEN
            RETURN jsonb_build_object('code', 'webhook_redelivered', 'args',
                jsonb_build_object('webhook', m[3]::bigint, 'eventType', m[1], 'eventId', m[2]));
        END IF;
    END IF;
    RETURN jsonb_build_object('code', 'other', 'args', jsonb_build_object('text', s));
END
$$;

ALTER TABLE operator_audit DISABLE TRIGGER operator_audit_append_only;

UPDATE operator_audit SET outcome_code = o->>'code', outcome_args = o->'args'
FROM (SELECT id, pg_temp.outcome(action, outcome) AS o FROM operator_audit) x
WHERE x.id = operator_audit.id;

ALTER TABLE operator_audit ENABLE TRIGGER operator_audit_append_only;

ALTER TABLE operator_audit
    DROP COLUMN outcome,
    ALTER COLUMN outcome_code SET NOT NULL,
    ALTER COLUMN outcome_args SET NOT NULL;
