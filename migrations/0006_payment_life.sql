-- A payment's whole life for its buyer: a rejected payment ends refunded when the payments wallet
-- sends exactly its value back to its sender. The service never sends a refund: it recognises one.

-- Every plain transfer out of the payments wallet the scan saw. One that matches a rejected
-- payment (same recipient as its sender, same value, in a later block) is that payment's refund;
-- one that matches nothing stays here, left alone.
CREATE TABLE outgoing_transfers (
    tx_hash      txhash      PRIMARY KEY,
    to_address   address     NOT NULL,
    value_wei    wei         NOT NULL,
    block_number bigint      NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX outgoing_transfers_block ON outgoing_transfers (block_number);

ALTER TABLE payments DROP CONSTRAINT payments_status_check;
ALTER TABLE payments
    ADD CONSTRAINT payments_status_check
        CHECK (status IN ('pending', 'minting', 'minted', 'rejected', 'refunded')),
    -- One transfer refunds one payment at most.
    ADD COLUMN refund_tx_hash txhash UNIQUE REFERENCES outgoing_transfers (tx_hash),
    ADD CONSTRAINT payments_refund CHECK ((status = 'refunded') = (refund_tx_hash IS NOT NULL));

-- GET /api/payments?from=: a wallet's payments, newest first.
CREATE INDEX payments_from ON payments (from_address, block_number DESC, id DESC);
