-- The money identity (issue 50 §5): every wei and token unit in or out of the payments wallet
-- and the treasury is one ledger row, so that the rows of each block add up to what the chain's
-- balances say the block moved. Payments, unattributed inflows, transfers out, sweeps were rows
-- already; these three are what was missing. Blocks scanned before this migration have none of
-- them: a verify of those blocks reports their fees and the treasury's movements as differences
-- (the changelog says from which block to verify an older ledger).

-- What the payments wallet paid for the gas of each transaction it sent (a sweep, a refund by
-- hand), failed or not.
CREATE TABLE wallet_fees (
    tx_hash      txhash PRIMARY KEY,
    block_number bigint NOT NULL,
    fee_wei      wei    NOT NULL
);
CREATE INDEX wallet_fees_block ON wallet_fees (block_number);

-- What reached the treasury that is no sweep: ETH, as the Safe's SafeReceived log says, and a
-- listed token's transfers to it from anyone but the payments wallet.
CREATE TABLE treasury_inflows (
    tx_hash      txhash  NOT NULL,
    log_index    integer NOT NULL,
    from_address address NOT NULL,
    token        address, -- NULL: ETH
    amount       wei     NOT NULL CHECK (amount > 0),
    block_number bigint  NOT NULL,
    PRIMARY KEY (tx_hash, log_index)
);
CREATE INDEX treasury_inflows_block ON treasury_inflows (block_number);

-- What each Safe transaction the treasury executed sent out of it, as the chain says it: its
-- calls' ETH, the gas payment it made, the Transfer logs of tokens from it. The service's own
-- batches among them (by Safe transaction hash); any other is an outflow no ledger row explains.
CREATE TABLE treasury_outflows (
    safe_tx_hash txhash  NOT NULL,
    idx          integer NOT NULL, -- its place among the execution's outflows
    tx_hash      txhash  NOT NULL,
    to_address   address NOT NULL,
    token        address, -- NULL: ETH
    amount       wei     NOT NULL CHECK (amount > 0),
    block_number bigint  NOT NULL,
    PRIMARY KEY (safe_tx_hash, idx)
);
CREATE INDEX treasury_outflows_block ON treasury_outflows (block_number);
