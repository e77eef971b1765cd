-- The operator's live view of a sale (store.SaleLive) reads the last hour and the queue at every
-- refresh, a few seconds apart; on a ledger of a million payments and nodes each of these turns a
-- scan of the whole table into a range of an index.
-- Payments per minute over the last hour, by their block's time.
CREATE INDEX payments_block_time ON payments (block_time);
-- Nodes minted in the last hour.
CREATE INDEX nodes_created ON nodes (created_at);
-- Rejections by reason, in the last hour and in all: read from the index alone.
CREATE INDEX payments_reason ON payments (reason_code, block_time) WHERE reason_code IS NOT NULL;
-- The refunds owed, counted and summed from the index alone.
CREATE INDEX payments_rejected ON payments (value_wei) WHERE status = 'rejected';
