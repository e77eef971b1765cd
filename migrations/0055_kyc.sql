-- A release applies once the payments up to the block the ledger had judged when it was
-- recorded are judged (after_block, the payments scan's cursor then): the service at its next
-- pass, a rebuild once its scan stands there, so that both judge the same payments before it.
ALTER TABLE payment_releases ADD COLUMN after_block bigint NOT NULL DEFAULT -1;
ALTER TABLE payment_releases ALTER COLUMN after_block DROP DEFAULT;
CREATE INDEX payment_releases_after ON payment_releases (after_block);

-- Identity checks (issue 52 §3): a tier may require a verified identity. A payment for it from a
-- wallet not verified when it paid is held (kyc_required) with its tier's unit kept for it, until
-- the wallet is verified (it is minted), rejected, or the hold's days run out (it is refunded).
ALTER TABLE tiers ADD COLUMN kyc_required boolean NOT NULL DEFAULT false;
ALTER TABLE tier_versions ADD COLUMN kyc_required boolean NOT NULL DEFAULT false;

CREATE OR REPLACE FUNCTION tier_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND (OLD.price_wei, OLD.max_per_wallet, OLD.holding_wei, OLD.holding_token, OLD.on_sale,
            OLD.supply, OLD.starts_at, OLD.ends_at, OLD.allowlist_until, OLD.opens_after_tier, OLD.token_prices, OLD.kyc_required)
        IS NOT DISTINCT FROM (NEW.price_wei, NEW.max_per_wallet, NEW.holding_wei, NEW.holding_token, NEW.on_sale,
            NEW.supply, NEW.starts_at, NEW.ends_at, NEW.allowlist_until, NEW.opens_after_tier, NEW.token_prices, NEW.kyc_required) THEN
        RETURN NULL; -- a label, or nothing, changed: the sale did not
    END IF;
    INSERT INTO tier_versions (tier, effective_at, price_wei, max_per_wallet, holding_wei, holding_token, on_sale,
        supply, starts_at, ends_at, allowlist_until, opens_after_tier, token_prices, kyc_required)
    VALUES (NEW.id, date_trunc('second', clock_timestamp()), NEW.price_wei, NEW.max_per_wallet, NEW.holding_wei,
        NEW.holding_token, NEW.on_sale, NEW.supply, NEW.starts_at, NEW.ends_at, NEW.allowlist_until, NEW.opens_after_tier,
        NEW.token_prices, NEW.kyc_required);
    RETURN NULL;
END $$;

-- A wallet's identity checks, as a history: each provider's webhook (sumsub, blockpass), an
-- admin's word (admin), or a list of wallets verified elsewhere (list). A wallet's status at an
-- instant is its latest entry by then (none: not started). event is what makes an entry one
-- (the webhook body's sha256): the same event delivered twice is one entry.
CREATE TABLE kyc_events (
    id       bigserial   PRIMARY KEY,
    address  address     NOT NULL,
    status   text        NOT NULL CHECK (status IN ('none', 'pending', 'verified', 'rejected')),
    provider text        NOT NULL CHECK (provider IN ('sumsub', 'blockpass', 'admin', 'list')),
    event    text,
    reason   text CHECK (length(reason) <= 500),
    by_whom  text,
    at       timestamptz NOT NULL DEFAULT now(),
    UNIQUE (provider, event)
);
CREATE INDEX kyc_events_address ON kyc_events (address, at DESC, id DESC);

ALTER TABLE payments DROP CONSTRAINT payments_reason_code_check;
ALTER TABLE payments ADD CONSTRAINT payments_reason_code_check CHECK (reason_code IN ('wrong_amount', 'no_tier_on_sale',
    'minting_paused', 'wallet_limit', 'contract_wallet_limit', 'holding_too_low', 'contract_refused', 'other',
    'sold_out', 'not_open', 'closed', 'not_allowlisted', 'allocation_used', 'sanctioned', 'denylisted', 'kyc_required'));

-- A payment held for its identity check keeps its tier's unit: it counts as sold while held, as a
-- payment being minted does (a payment the sanctions or the denylist hold has no tier).
CREATE OR REPLACE FUNCTION tier_sold_payments_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM tier_sold_add(array_agg(tier), array_agg(d)) FROM (
        SELECT tier, 1::bigint AS d FROM added WHERE status IN ('minting', 'held')
        UNION ALL
        SELECT tier, -1::bigint FROM removed WHERE status IN ('minting', 'held')
    ) c;
    RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION tier_sold_payments_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM tier_sold_add(array_agg(tier), array_agg(-1::bigint)) FROM removed WHERE status IN ('minting', 'held');
    RETURN NULL;
END $$;
DROP TRIGGER tier_sold_removed ON payments;
CREATE TRIGGER tier_sold_removed AFTER DELETE ON payments
    REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION tier_sold_payments_removed();
CREATE INDEX payments_kyc_held ON payments (from_address) WHERE status = 'held' AND reason_code = 'kyc_required';

ALTER TABLE settings_log DROP CONSTRAINT settings_log_kind_check;
ALTER TABLE settings_log ADD CONSTRAINT settings_log_kind_check
    CHECK (kind IN ('deployment', 'tier', 'allowlist', 'referral_code', 'binding', 'setting', 'denylist', 'release', 'kyc'));

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
    WHEN 'kyc_events' THEN
        PERFORM settings_log_append('kyc', NEW.at, to_jsonb(NEW));
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
CREATE TRIGGER settings_log AFTER INSERT ON kyc_events FOR EACH ROW EXECUTE FUNCTION settings_log_change();

SELECT add_audit_outcome_codes('kyc_set');
