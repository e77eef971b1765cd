-- A digest names only the treasury batches the chain decided (executed or failed): a batch the
-- ledger voided was never on chain, so no rebuild can know it, and a digest must be what anyone
-- holding the chain and the settings log recomputes. The digests from the first block that holds
-- a void batch are taken back, and the payments pass writes them again as they now read.
WITH first AS (SELECT min(block_number) AS block FROM treasury_batches WHERE status = 'void')
DELETE FROM ledger_digests WHERE block_number >= (SELECT block FROM first);

UPDATE chain_cursors c SET block_number = f.block - 1,
    block_hash = coalesce((SELECT d.block_hash FROM ledger_digests d WHERE d.block_number = f.block - 1), c.block_hash)
FROM (SELECT min(block_number) AS block FROM treasury_batches WHERE status = 'void') f
WHERE c.name = 'digests' AND f.block IS NOT NULL AND c.block_number >= f.block;
