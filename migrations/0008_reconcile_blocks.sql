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
