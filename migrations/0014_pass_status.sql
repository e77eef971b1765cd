-- How each pass went the last time it ran, wherever it ran (a tick of any instance, a cron route,
-- the operator page), so that every instance's health says the same. A failure is kept as a code
-- and its values (the sentence is written where it is shown), never as the error's text, which
-- can carry an RPC URL or SQL.
CREATE TABLE pass_status (
    pass        text        PRIMARY KEY CHECK (pass IN ('payments', 'credit', 'reconcile')),
    last_ok_at  timestamptz,
    failures    integer     NOT NULL DEFAULT 0 CHECK (failures >= 0), -- in a row, since the last success
    error_code  text,                                                 -- the last failure's, while failures > 0
    error_args  jsonb,
    updated_at  timestamptz NOT NULL DEFAULT now(),
    CHECK ((failures = 0) = (error_code IS NULL))
);
