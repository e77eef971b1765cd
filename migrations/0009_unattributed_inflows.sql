-- ETH the payments wallet received in a block that no top-level transaction explains, where the
-- RPC could not trace the block to find the contract wallet that sent it (debug_traceBlockByNumber
-- unsupported). Never a payment by itself: the operator looks the block up and settles it by hand.
-- Forgotten with its block when a reorg rewinds the scan past it.
CREATE TABLE unattributed_inflows (
    block_number bigint      PRIMARY KEY,
    block_hash   txhash      NOT NULL,
    amount_wei   wei         NOT NULL CHECK (amount_wei > 0),
    created_at   timestamptz NOT NULL DEFAULT now()
);
