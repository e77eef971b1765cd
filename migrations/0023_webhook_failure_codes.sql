-- Why a try got no answer, and why an endpoint was switched off, are kept as a code and its
-- values, no longer as sentences (store.TryFailure, store.WebhookOff): the sentence a person reads
-- is written where it is shown (the admin API, the operator page). The rows so far have their
-- sentences read back into codes, form by form, exactly as the deliverer wrote them; a sentence
-- that matches none keeps its words as the argument text of the code 'other'.

ALTER TABLE webhook_attempts
    ADD COLUMN failure_code text CHECK (failure_code IN ('timed_out', 'private_address', 'address_unchecked',
        'unresolved', 'unreachable', 'other')),
    ADD COLUMN failure_args jsonb CHECK (jsonb_typeof(failure_args) = 'object'),
    ADD CONSTRAINT webhook_attempts_failure_args CHECK ((failure_code IS NULL) = (failure_args IS NULL)),
    -- An answer has a status; a try without one says why.
    ADD CONSTRAINT webhook_attempts_failure CHECK ((status_code IS NULL) = (failure_code IS NOT NULL)) NOT VALID;

-- A try's failure as jobs' failureSentence wrote it, as {"code", "args"}.
CREATE FUNCTION pg_temp.failure(s text) RETURNS jsonb LANGUAGE sql IMMUTABLE
AS $$
SELECT CASE
    WHEN s ~ '^no answer within [0-9]+s$'
        THEN jsonb_build_object('code', 'timed_out', 'args', jsonb_build_object('seconds', substring(s FROM '([0-9]+)s$')::int))
    WHEN s ~ '^the address''s host is private, loopback or link-local \(.+\); set WEBHOOK_ALLOW_PRIVATE=true to allow it$'
        THEN jsonb_build_object('code', 'private_address', 'args', jsonb_build_object('address',
            substring(s FROM '^the address''s host is private, loopback or link-local \((.+)\); set')))
    WHEN s = 'the address''s host could not be checked'
        THEN jsonb_build_object('code', 'address_unchecked', 'args', '{}'::jsonb)
    WHEN s LIKE 'the host name did not resolve: %'
        THEN jsonb_build_object('code', 'unresolved', 'args', jsonb_build_object('error', substring(s FROM 32)))
    WHEN s = 'could not connect'
        THEN jsonb_build_object('code', 'unreachable', 'args', '{}'::jsonb)
    WHEN s LIKE 'could not connect: %'
        THEN jsonb_build_object('code', 'unreachable', 'args', jsonb_build_object('error', substring(s FROM 20)))
    ELSE jsonb_build_object('code', 'other', 'args', jsonb_build_object('text', s))
END
$$;

UPDATE webhook_attempts SET failure_code = f->>'code', failure_args = f->'args', response = ''
FROM (SELECT id, pg_temp.failure(response) AS f FROM webhook_attempts WHERE status_code IS NULL) x
WHERE x.id = webhook_attempts.id;
ALTER TABLE webhook_attempts VALIDATE CONSTRAINT webhook_attempts_failure;

ALTER TABLE webhook_endpoints
    ADD COLUMN disabled_code text CHECK (disabled_code IN ('gave_up', 'other')),
    ADD COLUMN disabled_args jsonb CHECK (jsonb_typeof(disabled_args) = 'object');

-- "every try of event evt_… failed for 72h0m0s; the last: HTTP 502" (or the try's failure). The
-- give-up time is read back only in the one form the deliverer wrote (72 hours).
WITH off AS (
    SELECT id, disabled_reason AS reason,
        regexp_match(disabled_reason, '^every try of event (evt_[0-9a-f]+) failed for 72h0m0s; the last: (.*)$') AS m
    FROM webhook_endpoints WHERE disabled_reason IS NOT NULL OR disabled_at IS NOT NULL
)
UPDATE webhook_endpoints w SET
    disabled_code = CASE WHEN off.m IS NOT NULL THEN 'gave_up' ELSE 'other' END,
    disabled_args = CASE
        WHEN off.m IS NULL THEN jsonb_build_object('text', coalesce(off.reason, ''))
        WHEN off.m[2] ~ '^HTTP [0-9]{3}$'
            THEN jsonb_build_object('eventId', off.m[1], 'seconds', 259200, 'statusCode', substring(off.m[2] FROM 6)::int)
        ELSE jsonb_build_object('eventId', off.m[1], 'seconds', 259200, 'failure', pg_temp.failure(off.m[2]))
    END
FROM off WHERE off.id = w.id;

ALTER TABLE webhook_endpoints
    DROP COLUMN disabled_reason,
    -- An endpoint switched off says why; one on does not.
    ADD CONSTRAINT webhook_endpoints_disabled CHECK ((disabled_at IS NULL) = (disabled_code IS NULL)),
    ADD CONSTRAINT webhook_endpoints_disabled_args CHECK ((disabled_code IS NULL) = (disabled_args IS NULL));
