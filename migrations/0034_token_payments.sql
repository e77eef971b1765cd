-- Payments in ERC-20 tokens (PAYMENT_TOKENS) beside ETH.

-- A tier's prices in tokens: {"<token address>": "<amount in its base units>"}, beside price_wei,
-- its ETH price. Kept in the tier's history with its other settings (the trigger below), so a token
-- payment is judged by the token prices in force at its block, the price grace too.
ALTER TABLE tiers ADD COLUMN token_prices jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(token_prices) = 'object');
ALTER TABLE tier_versions ADD COLUMN token_prices jsonb NOT NULL DEFAULT '{}';

CREATE OR REPLACE FUNCTION tier_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND (OLD.price_wei, OLD.max_per_wallet, OLD.holding_wei, OLD.holding_token, OLD.on_sale,
            OLD.supply, OLD.starts_at, OLD.ends_at, OLD.allowlist_until, OLD.opens_after_tier, OLD.token_prices)
        IS NOT DISTINCT FROM (NEW.price_wei, NEW.max_per_wallet, NEW.holding_wei, NEW.holding_token, NEW.on_sale,
            NEW.supply, NEW.starts_at, NEW.ends_at, NEW.allowlist_until, NEW.opens_after_tier, NEW.token_prices) THEN
        RETURN NULL; -- a label, or nothing, changed: the sale did not
    END IF;
    INSERT INTO tier_versions (tier, effective_at, price_wei, max_per_wallet, holding_wei, holding_token, on_sale,
        supply, starts_at, ends_at, allowlist_until, opens_after_tier, token_prices)
    VALUES (NEW.id, date_trunc('second', clock_timestamp()), NEW.price_wei, NEW.max_per_wallet, NEW.holding_wei,
        NEW.holding_token, NEW.on_sale, NEW.supply, NEW.starts_at, NEW.ends_at, NEW.allowlist_until, NEW.opens_after_tier,
        NEW.token_prices);
    RETURN NULL;
END $$;

-- The tokens the sale accepts (PAYMENT_TOKENS), as each told its symbol and decimals when the
-- service started with it listed: what the ledger's token amounts are written in. A token no
-- longer listed stays, for the payments made in it.
CREATE TABLE tokens (
    address  address  PRIMARY KEY,
    symbol   text     NOT NULL,
    decimals smallint NOT NULL CHECK (decimals BETWEEN 0 AND 77)
);

-- A token payment is a Transfer log of a listed token to the payments wallet: token is its
-- contract, amount what arrived (the log's value), log_index the log's place in its block. Its
-- value_wei is 0, so every sum of ETH (volumes, refunds, sweeps) stays in ETH.
ALTER TABLE payments
    ADD COLUMN token     address REFERENCES tokens (address),
    ADD COLUMN amount    wei,
    ADD COLUMN log_index integer CHECK (log_index >= 0),
    ADD CONSTRAINT payments_token_amount CHECK ((token IS NULL) = (amount IS NULL) AND (token IS NULL) = (log_index IS NULL)),
    ADD CONSTRAINT payments_token_no_eth CHECK (token IS NULL OR value_wei = 0);

-- One transaction holds several payments: calls (ETH) by call index, logs (tokens) by log index.
ALTER TABLE payments DROP CONSTRAINT payments_tx_call;
CREATE UNIQUE INDEX payments_tx_call ON payments (tx_hash, call_index) WHERE log_index IS NULL;
CREATE UNIQUE INDEX payments_tx_log ON payments (tx_hash, log_index) WHERE log_index IS NOT NULL;
