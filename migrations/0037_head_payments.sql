-- Payments seen at the chain's head, before the payments scan records them CONFIRMATIONS blocks
-- later: what a buyer's tracker shows while its payment confirms, so that no reader asks the
-- chain about a payment the payments wallet received (its confirmations count up from the head
-- the service follows). The payments pass writes them block by block with the hashes of their
-- blocks (scanned_blocks, scanner 'head'), a reorg at the head takes them back, and they are
-- forgotten once the scan has long recorded them. Nothing is judged from them.
CREATE TABLE head_payments (
    tx_hash      txhash  NOT NULL,
    -- A transaction may pay several times: by call (ETH: its value, call 0) or by log (tokens).
    call_index   integer NOT NULL,
    log_index    integer CHECK (log_index >= 0),
    from_address address NOT NULL,
    value_wei    wei     NOT NULL,
    token        address REFERENCES tokens (address),
    amount       wei     NOT NULL,
    block_number bigint  NOT NULL,
    block_hash   txhash  NOT NULL,
    CHECK ((token IS NULL) = (log_index IS NULL))
);
CREATE UNIQUE INDEX head_payments_tx ON head_payments (tx_hash, call_index, coalesce(log_index, -1));
CREATE INDEX head_payments_block ON head_payments (block_number);
