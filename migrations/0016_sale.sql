-- The sale as node sales run it: a supply per tier, sale windows, an allowlist phase, price steps
-- (a tier that opens when another sells out), and every payment judged by the rules in force at
-- its block's time, never by the settings when a pass happens to check it.

ALTER TABLE tiers
    ADD COLUMN supply           integer CHECK (supply >= 0), -- NULL: no limit
    ADD COLUMN starts_at        timestamptz,
    ADD COLUMN ends_at          timestamptz,
    ADD COLUMN allowlist_until  timestamptz,
    ADD COLUMN opens_after_tier smallint REFERENCES tiers (id),
    ADD CONSTRAINT tiers_window CHECK (starts_at IS NULL OR ends_at IS NULL OR ends_at > starts_at),
    ADD CONSTRAINT tiers_opens_after_other CHECK (opens_after_tier <> id);

-- Every state of a tier's sale settings, with the time it took effect. Written by a trigger in the
-- transaction of the change itself, so no path that changes a tier (the admin API, the operator
-- page, a script in psql) can leave a change out of the history. A change takes effect from the
-- start of the second it is made in: block times are whole seconds, and a payment sent after a
-- change lands in a block stamped that second or later, so it is judged by the change.
CREATE TABLE tier_versions (
    id               bigserial   PRIMARY KEY,
    tier             smallint    NOT NULL REFERENCES tiers (id),
    effective_at     timestamptz NOT NULL,
    price_wei        wei         NOT NULL,
    max_per_wallet   integer     NOT NULL,
    holding_wei      wei         NOT NULL,
    holding_token    address,
    on_sale          boolean     NOT NULL,
    supply           integer,
    starts_at        timestamptz,
    ends_at          timestamptz,
    allowlist_until  timestamptz,
    opens_after_tier smallint
);
-- The version in force at an instant: the last one effective by then (ties: the later write).
CREATE INDEX tier_versions_at ON tier_versions (tier, effective_at DESC, id DESC);

CREATE FUNCTION tier_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND (OLD.price_wei, OLD.max_per_wallet, OLD.holding_wei, OLD.holding_token, OLD.on_sale,
            OLD.supply, OLD.starts_at, OLD.ends_at, OLD.allowlist_until, OLD.opens_after_tier)
        IS NOT DISTINCT FROM (NEW.price_wei, NEW.max_per_wallet, NEW.holding_wei, NEW.holding_token, NEW.on_sale,
            NEW.supply, NEW.starts_at, NEW.ends_at, NEW.allowlist_until, NEW.opens_after_tier) THEN
        RETURN NULL; -- a label, or nothing, changed: the sale did not
    END IF;
    INSERT INTO tier_versions (tier, effective_at, price_wei, max_per_wallet, holding_wei, holding_token, on_sale,
        supply, starts_at, ends_at, allowlist_until, opens_after_tier)
    VALUES (NEW.id, date_trunc('second', clock_timestamp()), NEW.price_wei, NEW.max_per_wallet, NEW.holding_wei,
        NEW.holding_token, NEW.on_sale, NEW.supply, NEW.starts_at, NEW.ends_at, NEW.allowlist_until, NEW.opens_after_tier);
    RETURN NULL;
END $$;

CREATE TRIGGER tier_version AFTER INSERT OR UPDATE ON tiers FOR EACH ROW EXECUTE FUNCTION tier_version();

-- The tiers as they are now have always been so, as far as the ledger knows.
INSERT INTO tier_versions (tier, effective_at, price_wei, max_per_wallet, holding_wei, holding_token, on_sale)
SELECT id, '-infinity', price_wei, max_per_wallet, holding_wei, holding_token, on_sale FROM tiers;

-- A tier's allowlist, versioned like its settings: an upload replaces the list as a new version,
-- effective from the second it is made (an empty version clears it).
CREATE TABLE allowlist_versions (
    id           bigserial   PRIMARY KEY,
    tier         smallint    NOT NULL REFERENCES tiers (id),
    effective_at timestamptz NOT NULL DEFAULT date_trunc('second', clock_timestamp()),
    created_at   timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX allowlist_versions_at ON allowlist_versions (tier, effective_at DESC, id DESC);

CREATE TABLE allowlist_entries (
    version    bigint  NOT NULL REFERENCES allowlist_versions (id),
    address    address NOT NULL,
    allocation integer NOT NULL CHECK (allocation >= 1),
    PRIMARY KEY (version, address)
);

-- What judging a payment needs of its block: the transaction's place in it (payments are checked
-- in chain order, so the earliest get the last nodes of a tier) and the block's time. Payments
-- recorded before this have neither and are judged at created_at.
ALTER TABLE payments
    ADD COLUMN tx_index   integer CHECK (tx_index >= 0),
    ADD COLUMN block_time timestamptz;
CREATE INDEX payments_pending ON payments (block_number, tx_index, call_index, id) WHERE status = 'pending';

-- The new reasons.
ALTER TABLE payments DROP CONSTRAINT payments_reason_code_check;
ALTER TABLE payments ADD CONSTRAINT payments_reason_code_check CHECK (reason_code IN ('wrong_amount', 'no_tier_on_sale',
    'minting_paused', 'wallet_limit', 'contract_wallet_limit', 'holding_too_low', 'contract_refused', 'other',
    'sold_out', 'not_open', 'closed', 'not_allowlisted', 'allocation_used'));

-- What a tier sold: its nodes are counted for every payment judged against a supply.
CREATE INDEX nodes_tier ON nodes (tier);
