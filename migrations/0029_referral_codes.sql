-- Partner referral codes (issue 35 §1): a code an operator makes, its owner and the partner above
-- it, what the buyer saves and what each earns, in basis points of the price.
CREATE TABLE referral_codes (
    -- The code is case-insensitive: key is how it is looked up and kept unique, code as typed.
    key            text        PRIMARY KEY CHECK (key = lower(code)),
    code           text        NOT NULL CHECK (code ~ '^[A-Za-z0-9_-]{3,32}$'),
    owner          address     NOT NULL,
    discount_bps   integer     NOT NULL CHECK (discount_bps >= 0),
    commission_bps integer     NOT NULL CHECK (commission_bps >= 0),
    parent         address     CHECK (parent <> owner),
    parent_bps     integer     CHECK (parent_bps >= 0),
    expires_at     timestamptz,
    enabled        boolean     NOT NULL DEFAULT true,
    created_by     text        NOT NULL,
    updated_by     text        NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT referral_codes_parent CHECK ((parent IS NULL) = (parent_bps IS NULL)),
    -- Discount and commissions together at most half the price (jobs/sale.ReadReferralCode).
    CONSTRAINT referral_codes_half CHECK (discount_bps + commission_bps + coalesce(parent_bps, 0) <= 5000)
);

-- Every state of a code's settings with the time it took effect, as tier_versions keeps a tier's
-- (migration 0016): a payment is judged by the code in force at its block's time, and a change
-- applies from the start of the second it is made. Written by a trigger in the change's own
-- transaction, so no path that changes a code can leave a change out.
CREATE TABLE referral_code_versions (
    id             bigserial   PRIMARY KEY,
    key            text        NOT NULL REFERENCES referral_codes (key),
    effective_at   timestamptz NOT NULL,
    owner          address     NOT NULL,
    discount_bps   integer     NOT NULL,
    commission_bps integer     NOT NULL,
    parent         address,
    parent_bps     integer,
    expires_at     timestamptz,
    enabled        boolean     NOT NULL,
    changed_by     text        NOT NULL
);
-- The version in force at an instant: the last one effective by then (ties: the later write).
CREATE INDEX referral_code_versions_at ON referral_code_versions (key, effective_at DESC, id DESC);

CREATE FUNCTION referral_code_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND (OLD.owner, OLD.discount_bps, OLD.commission_bps, OLD.parent, OLD.parent_bps,
            OLD.expires_at, OLD.enabled)
        IS NOT DISTINCT FROM (NEW.owner, NEW.discount_bps, NEW.commission_bps, NEW.parent, NEW.parent_bps,
            NEW.expires_at, NEW.enabled) THEN
        RETURN NULL; -- the spelling, or nothing, changed: the terms did not
    END IF;
    INSERT INTO referral_code_versions (key, effective_at, owner, discount_bps, commission_bps, parent, parent_bps,
        expires_at, enabled, changed_by)
    VALUES (NEW.key, date_trunc('second', clock_timestamp()), NEW.owner, NEW.discount_bps, NEW.commission_bps,
        NEW.parent, NEW.parent_bps, NEW.expires_at, NEW.enabled, NEW.updated_by);
    RETURN NULL;
END $$;

CREATE TRIGGER referral_code_version AFTER INSERT OR UPDATE ON referral_codes
    FOR EACH ROW EXECUTE FUNCTION referral_code_version();

-- The audit's outcome of a saved code (store.AuditOutcomeCodes).
SELECT add_audit_outcome_codes('referral_code_saved');
