-- A payment is looked up by its transaction on every tracker's poll (PaymentByTx: tx_hash, first
-- call). 0034 made the uniqueness of (tx_hash, call_index) partial (ETH payments only) beside
-- (tx_hash, log_index) for tokens, and a partial index cannot answer `WHERE tx_hash = $1` alone:
-- every lookup read the whole table, which a sale day's thousand trackers turned into a database
-- that timed out. This index answers it, for payments of either kind.
CREATE INDEX payments_tx ON payments (tx_hash, call_index);
