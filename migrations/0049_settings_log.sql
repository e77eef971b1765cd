-- The settings log (issue 50 §1): everything an operator or a buyer decided that a judgement
-- depends on, in one append-only, hash-chained log, so that whoever keeps a copy of it (and the
-- chain) holds what the sale needs to know whom it owes. Each entry is written by a trigger in the
-- transaction of the change itself, as tier_versions is (0016): no path that changes a tier, an
-- allowlist, a referral code, a binding or a setting (the admin API, the operator page, a script
-- in psql) can leave it out. The deployment's settings are logged by the service at its start
-- (store.LogDeployment, through settings_log_append_changed), when they differ from the last
-- entry of that kind.
--
-- An entry's hash is sha256(prev_hash || entry), where entry is the canonical JSON text of
-- {seq, kind, appliesFrom, headBlock, body} exactly as stored (PostgreSQL's jsonb text, times in
-- UTC): a follower checks each line of an export with nothing but sha256. The first entry's
-- prev_hash is 32 zero bytes; prev_hash is unique, so the log is one line and never a tree.
CREATE TABLE settings_log (
    seq          bigint      PRIMARY KEY CHECK (seq >= 1),
    kind         text        NOT NULL CHECK (kind IN ('deployment', 'tier', 'allowlist', 'referral_code', 'binding', 'setting')),
    -- The instant from which it counts for judgements ('-infinity' for what always held).
    applies_from timestamptz NOT NULL,
    -- The chain's head as the ledger last followed it when the entry was written; null before
    -- the ledger read any block.
    head_block   bigint,
    body         jsonb       NOT NULL,
    entry        text        NOT NULL,
    prev_hash    bytea       NOT NULL UNIQUE CHECK (length(prev_hash) = 32),
    hash         bytea       NOT NULL UNIQUE CHECK (length(hash) = 32),
    written_at   timestamptz NOT NULL DEFAULT clock_timestamp()
);

CREATE FUNCTION settings_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'settings_log is append-only: % is refused', TG_OP;
END $$;
CREATE TRIGGER settings_log_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON settings_log
    FOR EACH STATEMENT EXECUTE FUNCTION settings_log_append_only();

-- settings_log_append writes the next entry. Appenders queue on a transaction lock ("nlsl"), so
-- each reads the entry its predecessor committed. UTC makes the entry's times one text whatever
-- the session's time zone.
CREATE FUNCTION settings_log_append(p_kind text, p_applies_from timestamptz, p_body jsonb) RETURNS bigint
LANGUAGE plpgsql SET timezone TO 'UTC' AS $$
DECLARE
    last_seq  bigint := 0;
    last_hash bytea := decode(repeat('00', 32), 'hex');
    head      bigint;
    e         text;
BEGIN
    PERFORM pg_advisory_xact_lock(x'6e6c736c'::int);
    SELECT seq, hash INTO last_seq, last_hash FROM settings_log ORDER BY seq DESC LIMIT 1;
    IF NOT FOUND THEN
        last_seq := 0;
        last_hash := decode(repeat('00', 32), 'hex');
    END IF;
    SELECT max(block_number) INTO head FROM chain_cursors WHERE name IN ('head', 'payments');
    e := jsonb_build_object('seq', last_seq + 1, 'kind', p_kind, 'appliesFrom', p_applies_from,
                            'headBlock', head, 'body', p_body)::text;
    INSERT INTO settings_log (seq, kind, applies_from, head_block, body, entry, prev_hash, hash)
    VALUES (last_seq + 1, p_kind, p_applies_from, head, p_body, e, last_hash, sha256(last_hash || convert_to(e, 'UTF8')));
    RETURN last_seq + 1;
END $$;

-- settings_log_append_changed appends unless the last entry of p_kind has the same body: a
-- start that changes nothing adds nothing, and instances starting together add it once (the
-- appenders' lock, taken again by settings_log_append in the same transaction, is taken here
-- before the comparison). NULL when nothing was appended.
CREATE FUNCTION settings_log_append_changed(p_kind text, p_applies_from timestamptz, p_body jsonb) RETURNS bigint
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(x'6e6c736c'::int);
    IF p_body IS NOT DISTINCT FROM (SELECT body FROM settings_log WHERE kind = p_kind ORDER BY seq DESC LIMIT 1) THEN
        RETURN NULL;
    END IF;
    RETURN settings_log_append(p_kind, p_applies_from, p_body);
END $$;

-- An allowlist's body is its version and every entry, ordered by address: the entries are written
-- after their version in the same transaction, so it is logged at commit.
CREATE FUNCTION settings_log_allowlist(v allowlist_versions) RETURNS jsonb
LANGUAGE sql STABLE SET timezone TO 'UTC' AS $$
    SELECT to_jsonb(v) || jsonb_build_object('entries', coalesce(
        (SELECT jsonb_agg(jsonb_build_array(e.address, e.allocation) ORDER BY e.address)
         FROM allowlist_entries e WHERE e.version = v.id), '[]'::jsonb))
$$;

CREATE FUNCTION settings_log_change() RETURNS trigger LANGUAGE plpgsql SET timezone TO 'UTC' AS $$
BEGIN
    CASE TG_TABLE_NAME
    WHEN 'tier_versions' THEN
        PERFORM settings_log_append('tier', NEW.effective_at, to_jsonb(NEW));
    WHEN 'allowlist_versions' THEN
        PERFORM settings_log_append('allowlist', NEW.effective_at, settings_log_allowlist(NEW));
    WHEN 'referral_code_versions' THEN
        PERFORM settings_log_append('referral_code', NEW.effective_at, to_jsonb(NEW));
    WHEN 'referral_bindings' THEN
        PERFORM settings_log_append('binding', NEW.bound_at, to_jsonb(NEW));
    WHEN 'settings' THEN
        IF TG_OP = 'UPDATE' AND OLD.value IS NOT DISTINCT FROM NEW.value THEN
            RETURN NULL;
        END IF;
        PERFORM settings_log_append('setting', date_trunc('second', clock_timestamp()), to_jsonb(NEW) - 'updated_at');
    END CASE;
    RETURN NULL;
END $$;

CREATE TRIGGER settings_log AFTER INSERT ON tier_versions FOR EACH ROW EXECUTE FUNCTION settings_log_change();
CREATE CONSTRAINT TRIGGER settings_log AFTER INSERT ON allowlist_versions DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION settings_log_change();
CREATE TRIGGER settings_log AFTER INSERT ON referral_code_versions FOR EACH ROW EXECUTE FUNCTION settings_log_change();
CREATE TRIGGER settings_log AFTER INSERT ON referral_bindings FOR EACH ROW EXECUTE FUNCTION settings_log_change();
CREATE TRIGGER settings_log AFTER INSERT OR UPDATE ON settings FOR EACH ROW EXECUTE FUNCTION settings_log_change();

-- A binding keeps the Sign-In with Ethereum message and signature of the session that made it:
-- the wallet's own word that it was there (null for bindings made before, or by a session older
-- than this migration).
ALTER TABLE referral_bindings
    ADD COLUMN sign_in_message   text,
    ADD COLUMN sign_in_signature bytea,
    ADD CONSTRAINT referral_bindings_sign_in CHECK ((sign_in_message IS NULL) = (sign_in_signature IS NULL));

-- What was decided before this migration, in the order it came to apply.
CREATE FUNCTION settings_log_backfill() RETURNS void LANGUAGE plpgsql SET timezone TO 'UTC' AS $$
DECLARE
    r record;
BEGIN
    FOR r IN
        SELECT * FROM (
            SELECT 'tier' AS kind, v.effective_at AS at, v.id, to_jsonb(v) AS body FROM tier_versions v
            UNION ALL
            SELECT 'allowlist', a.effective_at, a.id, settings_log_allowlist(a) FROM allowlist_versions a
            UNION ALL
            SELECT 'referral_code', c.effective_at, c.id, to_jsonb(c) FROM referral_code_versions c
            UNION ALL
            SELECT 'binding', b.bound_at, b.id, to_jsonb(b) FROM referral_bindings b
            UNION ALL
            SELECT 'setting', s.updated_at, 0, to_jsonb(s) - 'updated_at' FROM settings s
        ) d ORDER BY at, kind, id
    LOOP
        PERFORM settings_log_append(r.kind, r.at, r.body);
    END LOOP;
END $$;
SELECT settings_log_backfill();
DROP FUNCTION settings_log_backfill();
