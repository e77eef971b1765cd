-- Lookups the passes make at every pass or payment that need only what is still open, so that
-- what they read follows the open work, not the ledger's size (issue 53 §4). On a sale day's
-- ledger of 13,000 payments (pg_stat_statements from the burst's start to the run's end):
--   - DigestFrontier's oldest unsettled payment walked payments_block from the first block,
--     past every settled payment: 31 ms a call, the costliest statement of the burst;
--   - a judgement's WalletHoldings intersected the wallet's payments with every open payment
--     in payments_status (dead entries of the burst's status changes included), and the
--     wallet's nodes with every node of the tier in nodes_tier: 3.4 ms a judgement, in the
--     ledger and again in the continuous verifier's.
-- Each index below answers its lookup alone, however stale the planner's statistics are.
CREATE INDEX payments_unsettled ON payments (block_number) WHERE status IN ('pending', 'minting');
CREATE INDEX payments_open_by_wallet ON payments (from_address, tier) WHERE status IN ('minting', 'held');
CREATE INDEX nodes_owner_tier ON nodes (owner, tier);
