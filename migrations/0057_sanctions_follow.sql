-- What the sanctions oracle said, kept so that a payer is asked once, not at every payment
-- (issue 53 §4: one isSanctioned read a payment was a third of the service's RPC requests).
-- The payments scan reads the oracle's logs with the factory's and the treasury's, in the same
-- eth_getLogs: sanctions_follow is the blocks it has read them over, sanctions_changes the
-- listings and delistings there. A wallet's answer read at one block holds at another while
-- no change of its listing lies between, within the blocks followed (store.SanctionsKnown).
-- Derived from the chain, and taken back with the scan's blocks on a reorg (RewindScan).
CREATE TABLE sanctions_follow (
    oracle     address PRIMARY KEY,
    from_block bigint NOT NULL,
    to_block   bigint NOT NULL,
    CHECK (to_block >= from_block - 1)
);

CREATE TABLE sanctions_changes (
    oracle    address NOT NULL,
    address   address NOT NULL,
    block     bigint NOT NULL,
    log_index integer NOT NULL,
    listed    boolean NOT NULL,
    PRIMARY KEY (oracle, address, block, log_index)
);

-- The last answer of isSanctioned(address) read at a block the oracle's logs were followed at.
CREATE TABLE sanctions_answers (
    oracle  address NOT NULL,
    address address NOT NULL,
    block   bigint NOT NULL,
    listed  boolean NOT NULL,
    PRIMARY KEY (oracle, address)
);
