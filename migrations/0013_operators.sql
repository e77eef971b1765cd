-- Operators are people: each signs in with their own wallet and holds a role. seeded marks the
-- rows the OPERATORS setting wrote, which a start without them removes again; rows an admin added
-- from the operator page stay.
CREATE TABLE operators (
    address    address     PRIMARY KEY,
    role       text        NOT NULL CHECK (role IN ('viewer', 'operator', 'admin')),
    seeded     boolean     NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- An operator session lives here, not in its cookie, so that it can be ended: the cookie holds a
-- random id, the table only its sha256 (a copy of the table signs no one in). Removing the
-- operator ends their sessions with them.
CREATE TABLE operator_sessions (
    id_hash      bytea       PRIMARY KEY,
    address      address     NOT NULL REFERENCES operators (address) ON DELETE CASCADE,
    csrf_token   text        NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_seen_at timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz NOT NULL
);
CREATE INDEX operator_sessions_address ON operator_sessions (address);

-- Every operator action, from the page or /api/admin, written in the transaction of the change it
-- records. Append-only: the trigger refuses any UPDATE or DELETE, whoever asks.
CREATE TABLE operator_audit (
    id      bigserial   PRIMARY KEY,
    at      timestamptz NOT NULL DEFAULT clock_timestamp(),
    actor   text        NOT NULL, -- an operator's address, or 'admin key <fingerprint>'
    ip      text        NOT NULL,
    action  text        NOT NULL,
    target  text        NOT NULL,
    before  jsonb,
    after   jsonb,
    outcome text        NOT NULL
);

CREATE FUNCTION operator_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'operator_audit is append-only: % is refused', TG_OP;
END $$;

CREATE TRIGGER operator_audit_append_only BEFORE UPDATE OR DELETE ON operator_audit
    FOR EACH ROW EXECUTE FUNCTION operator_audit_append_only();
