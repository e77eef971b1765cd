-- The reconciler keeps the hashes of the blocks it reads, as the payments scan does, to notice a
-- reorg deeper than its confirmations and take back what it recorded from the blocks replaced.

-- Each scanner keeps its own hashes, under its chain_cursors name: one scanner's rewind or pruning
-- leaves the other's history alone. The rows so far are the payments scan's (the reconciler wrote
-- the same hashes over some of them).
ALTER TABLE scanned_blocks ADD COLUMN scanner text NOT NULL DEFAULT 'payments';
ALTER TABLE scanned_blocks ALTER COLUMN scanner DROP DEFAULT;
ALTER TABLE scanned_blocks DROP CONSTRAINT scanned_blocks_pkey;
ALTER TABLE scanned_blocks ADD PRIMARY KEY (scanner, number);
-- The reconciler's cursor block, so that its first pass already notices a reorg under it.
INSERT INTO scanned_blocks (scanner, number, hash)
SELECT name, block_number, block_hash FROM chain_cursors WHERE name = 'reconcile';

-- The block of a withdrawal read from a Withdrawn log, so that a rewind takes it back. Null for a
-- reverted call (the payments scan records those) and for the rows recorded before.
ALTER TABLE withdrawals ADD COLUMN block_number bigint;
CREATE INDEX withdrawals_block ON withdrawals (block_number) WHERE block_number IS NOT NULL;

-- The end of the last block range in which the reconciler saw an event of the node and synced it.
-- Above the reconciler's cursor, a reorg took that range back: the node is synced again, since the
-- chain may no longer hold what moved it.
ALTER TABLE nodes ADD COLUMN reconciled_block bigint;
CREATE INDEX nodes_reconciled_block ON nodes (reconciled_block) WHERE reconciled_block IS NOT NULL;
