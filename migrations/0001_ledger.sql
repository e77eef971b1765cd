-- The ledger: what was sold, paid, credited and withdrawn. Wei is numeric(78,0) (uint256 fits),
-- addresses and hashes are lower-case 0x-prefixed hex.

CREATE DOMAIN wei AS numeric(78,0) CHECK (VALUE >= 0);
CREATE DOMAIN address AS text CHECK (VALUE ~ '^0x[0-9a-f]{40}$');
CREATE DOMAIN txhash AS text CHECK (VALUE ~ '^0x[0-9a-f]{64}$');

-- Tiers are the operator's price list; id is the uint8 tier of the factory contract.
CREATE TABLE tiers (
    id             smallint PRIMARY KEY CHECK (id BETWEEN 0 AND 255),
    label          text     NOT NULL,
    price_wei      wei      NOT NULL,
    max_per_wallet integer  NOT NULL CHECK (max_per_wallet >= 0),
    holding_wei    wei      NOT NULL DEFAULT 0,
    holding_token  address,
    payout_bps     integer  NOT NULL CHECK (payout_bps >= 0),
    on_sale        boolean  NOT NULL DEFAULT false
);

-- Every plain transfer to the payments wallet, good or not: nothing is dropped.
CREATE TABLE payments (
    id           bigserial   PRIMARY KEY,
    tx_hash      txhash      NOT NULL UNIQUE,
    from_address address     NOT NULL,
    value_wei    wei         NOT NULL,
    block_number bigint      NOT NULL,
    block_hash   txhash      NOT NULL,
    status       text        NOT NULL DEFAULT 'pending'
                 CHECK (status IN ('pending', 'minting', 'minted', 'rejected')),
    reason       text,
    tier         smallint    REFERENCES tiers (id),
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payments_status ON payments (status) WHERE status <> 'minted';

CREATE TABLE nodes (
    id             bigserial   PRIMARY KEY,
    chain_node_id  numeric(78,0) NOT NULL UNIQUE CHECK (chain_node_id >= 0),
    tier           smallint    NOT NULL REFERENCES tiers (id),
    owner          address     NOT NULL,
    balance_wei    wei         NOT NULL DEFAULT 0,
    cumulative_wei wei         NOT NULL DEFAULT 0,
    withdrawn_wei  wei         NOT NULL DEFAULT 0,
    price_wei      wei         NOT NULL DEFAULT 0,
    mint_tx        txhash      NOT NULL,
    payment_id     bigint      UNIQUE REFERENCES payments (id),
    status         text        NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'unconfirmed')),
    next_credit_at timestamptz,
    created_at     timestamptz NOT NULL DEFAULT now()
);
-- /api/nodes/{address}: a wallet's nodes, oldest first.
CREATE INDEX nodes_owner ON nodes (owner, created_at, id);
-- The credit pass: nodes due for a round.
CREATE INDEX nodes_next_credit_at ON nodes (next_credit_at) WHERE next_credit_at IS NOT NULL;

-- A distribution round; its id is the round id used once on chain.
CREATE TABLE distributions (
    id           bigserial   PRIMARY KEY,
    total_wei    wei         NOT NULL,
    node_count   integer     NOT NULL CHECK (node_count >= 0),
    mode         text        NOT NULL CHECK (mode IN ('fixed', 'pool')),
    funding_mode text        NOT NULL,
    status       text        NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'confirmed', 'failed')),
    tx_hash      txhash,
    created_at   timestamptz NOT NULL DEFAULT now(),
    confirmed_at timestamptz
);
-- /api/distributions: newest first.
CREATE INDEX distributions_created ON distributions (created_at DESC, id DESC);
-- /api/stats: what was distributed in the last 24 hours.
CREATE INDEX distributions_confirmed ON distributions (confirmed_at) WHERE status = 'confirmed';

-- One credit per node per round, so even a lost lock cannot credit twice.
CREATE TABLE credits (
    id              bigserial   PRIMARY KEY,
    distribution_id bigint      NOT NULL REFERENCES distributions (id),
    node_id         bigint      NOT NULL REFERENCES nodes (id),
    amount_wei      wei         NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    UNIQUE (distribution_id, node_id)
);
-- /api/node/{id}: a node's credits, newest first.
CREATE INDEX credits_node ON credits (node_id, created_at DESC, id DESC);

CREATE TABLE withdrawals (
    id                    bigserial   PRIMARY KEY,
    node_id               bigint      NOT NULL REFERENCES nodes (id),
    amount_wei            wei         NOT NULL,
    cumulative_signed_wei wei         NOT NULL DEFAULT 0, -- leftover column of the spec, no meaning
    to_address            address,
    deadline              bigint      NOT NULL DEFAULT 0, -- leftover column of the spec, ignored
    tx_hash               txhash,
    log_index             integer,
    status                text        CHECK (status IN ('signed', 'sent', 'failed')),
    created_at            timestamptz NOT NULL DEFAULT now(),
    confirmed_at          timestamptz,
    UNIQUE (tx_hash, log_index) -- a Withdrawn log is recorded once
);
-- A reverted withdraw call has no log: it is recorded once per transaction.
CREATE UNIQUE INDEX withdrawals_failed_tx ON withdrawals (tx_hash) WHERE log_index IS NULL;
-- /api/node/{id}: a node's withdrawals, newest first.
CREATE INDEX withdrawals_node ON withdrawals (node_id, created_at DESC, id DESC);

-- How far each chain scanner has read, and the hashes of the blocks it read, to notice a reorg.
CREATE TABLE chain_cursors (
    name         text        PRIMARY KEY,
    block_number bigint      NOT NULL,
    block_hash   txhash      NOT NULL,
    updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE scanned_blocks (
    number bigint PRIMARY KEY,
    hash   txhash NOT NULL
);

-- One row per tick of the scheduler, for /api/cron/health.
CREATE TABLE scheduler_ticks (
    id          bigserial   PRIMARY KEY,
    started_at  timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz,
    summary     jsonb
);
CREATE INDEX scheduler_ticks_started ON scheduler_ticks (started_at DESC);
