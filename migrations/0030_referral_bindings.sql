-- Which code a wallet pays under (issue 35 §2). A payment is a plain transfer and carries no code,
-- so the wallet binds one before it pays. It has one code at a time: a new binding replaces the
-- one before from the start of the second it is made, as a tier's change does, and every binding
-- is kept because a payment is judged by the one in force at its block.
CREATE TABLE referral_bindings (
    id       bigserial   PRIMARY KEY,
    wallet   address     NOT NULL,
    -- A partner code's key (referral_codes.key), or the address of the wallet whose own code it is.
    code     text        NOT NULL CHECK (code ~ '^[a-z0-9_-]{3,32}$' OR code ~ '^0x[0-9a-f]{40}$'),
    bound_at timestamptz NOT NULL DEFAULT date_trunc('second', clock_timestamp())
);
CREATE INDEX referral_bindings_at ON referral_bindings (wallet, bound_at DESC, id DESC);

-- The code a payment bought its node under (issue 35 §3), with the terms in force at its block:
-- what the buyer saved, and what its mint earns the code's owner and the partner above. Written
-- with the payment's mint transaction, so the terms are the ones it was judged by, whatever the
-- code becomes later.
CREATE TABLE payment_referrals (
    payment_id     bigint  PRIMARY KEY REFERENCES payments (id),
    code           text    NOT NULL, -- as the buyer knows it: a partner code's spelling, or an address
    discount_wei   wei     NOT NULL,
    owner          address NOT NULL,
    commission_bps integer NOT NULL CHECK (commission_bps >= 0),
    parent         address,
    parent_bps     integer CHECK (parent_bps >= 0),
    CHECK ((parent IS NULL) = (parent_bps IS NULL))
);

-- What referrers earn: a row a referrer and minted payment, written in the mint's recording
-- transaction, owed until a treasury batch that pays it executes.
CREATE TABLE commissions (
    id         bigserial   PRIMARY KEY,
    payment_id bigint      NOT NULL REFERENCES payment_referrals (payment_id),
    referrer   address     NOT NULL,
    role       text        NOT NULL CHECK (role IN ('owner', 'parent')),
    amount_wei wei         NOT NULL CHECK (amount_wei > 0),
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (payment_id, role)
);
CREATE INDEX commissions_referrer ON commissions (referrer);
