-- The exports' bench ledger: every seeded node gets the minted payment that bought it, so that
-- the payments export has as many rows as nodes and the nodes export joins a payment per row.
INSERT INTO payments (tx_hash, payment_ref, from_address, value_wei, block_number, block_hash, status, tier, created_at, updated_at)
SELECT '0x' || lpad(to_hex(n.id), 64, '0'), '0x' || lpad(to_hex(n.id), 64, '0'), n.owner, n.price_wei, n.id,
       '0x' || lpad(to_hex(n.id), 64, 'b'), 'minted', n.tier, n.created_at, n.created_at
FROM nodes n WHERE n.payment_id IS NULL;
UPDATE nodes n SET payment_id = p.id FROM payments p
WHERE n.payment_id IS NULL AND p.tx_hash = '0x' || lpad(to_hex(n.id), 64, '0');
