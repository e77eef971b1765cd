-- Screening (issue 52): a payment the operator may not accept is held, neither minted nor owed a
-- refund, until an admin releases it. Its reason says why: the sanctions oracle listed its payer
-- at its block (sanctioned), or the operator's denylist did at its block's time (denylisted).
ALTER TABLE payments DROP CONSTRAINT payments_status_check;
ALTER TABLE payments ADD CONSTRAINT payments_status_check
    CHECK (status IN ('pending', 'minting', 'minted', 'held', 'rejected', 'refunded'));
ALTER TABLE payments DROP CONSTRAINT payments_reason;
ALTER TABLE payments ADD CONSTRAINT payments_reason CHECK ((status IN ('held', 'rejected', 'refunded')) = (reason_code IS NOT NULL));
ALTER TABLE payments DROP CONSTRAINT payments_reason_code_check;
ALTER TABLE payments ADD CONSTRAINT payments_reason_code_check CHECK (reason_code IN ('wrong_amount', 'no_tier_on_sale',
    'minting_paused', 'wallet_limit', 'contract_wallet_limit', 'holding_too_low', 'contract_refused', 'other',
    'sold_out', 'not_open', 'closed', 'not_allowlisted', 'allocation_used', 'sanctioned', 'denylisted'));
CREATE INDEX payments_held ON payments (block_number, id) WHERE status = 'held';

-- A held payment waits for an admin; released, it is judged again (pending), and the release
-- says how: to be minted (the screening is waived, every other rule applies) or refunded.
CREATE OR REPLACE FUNCTION payment_move_allowed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.status = OLD.status OR (OLD.status, NEW.status) IN (
        ('pending', 'minting'), ('pending', 'rejected'), ('pending', 'held'), ('held', 'pending'),
        ('minting', 'minted'), ('minting', 'rejected'),
        ('rejected', 'refunded'), ('refunded', 'rejected')) THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'payment %: % cannot become %', OLD.id, OLD.status, NEW.status
        USING ERRCODE = 'check_violation';
END $$;

-- An admin's release of a held payment, by its reference: the judgement applies it whenever the
-- payment is judged (the service's next pass, a rebuild from the settings log), so that both
-- reach the same verdict. One release a payment: a decision is not taken twice. It keeps the
-- hold's verdict (its reason, arguments and reads), which is what the payment's block digested:
-- the ledger's events give a released payment as it was held, and what the release made of it
-- in the later blocks where that happened (its node, its refund).
CREATE TABLE payment_releases (
    payment_ref text        PRIMARY KEY,
    release_to  text        NOT NULL CHECK (release_to IN ('mint', 'refund')),
    held_for    text        NOT NULL, -- the reason it was held: a payment refunded is rejected for it
    held_args   jsonb       NOT NULL,
    held_reads  jsonb,
    reason      text        NOT NULL CHECK (length(btrim(reason)) BETWEEN 1 AND 500),
    released_by text        NOT NULL,
    released_at timestamptz NOT NULL DEFAULT now()
);

-- The operator's denylist: each upload replaces it from the instant it is saved, as a new version,
-- so that a payment is judged by the list in force at its block's time.
CREATE TABLE denylist_versions (
    id           bigserial   PRIMARY KEY,
    effective_at timestamptz NOT NULL DEFAULT now(),
    created_by   text        NOT NULL
);
CREATE INDEX denylist_versions_at ON denylist_versions (effective_at DESC, id DESC);
CREATE TABLE denylist_entries (
    version bigint  NOT NULL REFERENCES denylist_versions (id),
    address address NOT NULL,
    reason  text    NOT NULL CHECK (length(reason) <= 200),
    PRIMARY KEY (version, address)
);

ALTER TABLE settings_log DROP CONSTRAINT settings_log_kind_check;
ALTER TABLE settings_log ADD CONSTRAINT settings_log_kind_check
    CHECK (kind IN ('deployment', 'tier', 'allowlist', 'referral_code', 'binding', 'setting', 'denylist', 'release'));

CREATE FUNCTION settings_log_denylist(v denylist_versions) RETURNS jsonb
LANGUAGE sql STABLE SET timezone TO 'UTC' AS $$
    SELECT to_jsonb(v) || jsonb_build_object('entries', coalesce(
        (SELECT jsonb_agg(jsonb_build_array(e.address, e.reason) ORDER BY e.address)
         FROM denylist_entries e WHERE e.version = v.id), '[]'::jsonb))
$$;

CREATE OR REPLACE FUNCTION settings_log_change() RETURNS trigger LANGUAGE plpgsql SET timezone TO 'UTC' AS $$
BEGIN
    CASE TG_TABLE_NAME
    WHEN 'tier_versions' THEN
        PERFORM settings_log_append('tier', NEW.effective_at, to_jsonb(NEW) ||
            (SELECT jsonb_build_object('label', t.label, 'note', t.note) FROM tiers t WHERE t.id = NEW.tier));
    WHEN 'allowlist_versions' THEN
        PERFORM settings_log_append('allowlist', NEW.effective_at, settings_log_allowlist(NEW));
    WHEN 'denylist_versions' THEN
        PERFORM settings_log_append('denylist', NEW.effective_at, settings_log_denylist(NEW));
    WHEN 'payment_releases' THEN
        PERFORM settings_log_append('release', NEW.released_at, to_jsonb(NEW));
    WHEN 'referral_code_versions' THEN
        PERFORM settings_log_append('referral_code', NEW.effective_at, to_jsonb(NEW) ||
            (SELECT jsonb_build_object('code', c.code) FROM referral_codes c WHERE c.key = NEW.key));
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

-- Entries are written after their version in the same transaction: logged at commit.
CREATE CONSTRAINT TRIGGER settings_log AFTER INSERT ON denylist_versions DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION settings_log_change();
CREATE TRIGGER settings_log AFTER INSERT ON payment_releases FOR EACH ROW EXECUTE FUNCTION settings_log_change();

SELECT add_audit_outcome_codes('payment_released', 'denylist_saved');
