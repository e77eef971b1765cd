-- The treasury and tokens. Sweeps of listed tokens: the payments wallet's balance of a token sent to the treasury with the
-- token's transfer(treasury, amount). token NULL: an ETH sweep; amount_wei is then wei, else the
-- token's base units.
ALTER TABLE sweeps ADD COLUMN token address REFERENCES tokens (address);
CREATE INDEX sweeps_token_settled ON sweeps (token, block_number DESC) WHERE status IN ('swept', 'failed');

-- A refund batch pays a token payment back in its token: the treasury's transfer of the token
-- (token.transfer(payer, amount)) in the batch's Safe transaction, value_wei 0.
ALTER TABLE refund_batch_payments
    ADD COLUMN token  address REFERENCES tokens (address),
    ADD COLUMN amount wei,
    ADD CONSTRAINT refund_batch_payments_token CHECK ((token IS NULL) = (amount IS NULL));

-- Transfers to the payments wallet of a token the sale does not accept: no payment, kept for the
-- operator to settle by hand (send it back, or list the token), as unattributed ETH is.
CREATE TABLE token_inflows (
    tx_hash      txhash  NOT NULL,
    log_index    integer NOT NULL CHECK (log_index >= 0),
    token        address NOT NULL,
    from_address address NOT NULL,
    amount       wei     NOT NULL,
    block_number bigint  NOT NULL,
    block_hash   txhash  NOT NULL,
    PRIMARY KEY (tx_hash, log_index)
);
CREATE INDEX token_inflows_block ON token_inflows (block_number DESC);
