-- What a tier sold counts the payments being minted whose node is not recorded yet, matching
-- nodes by their mint transaction (store/tiers.go, unrecordedMintingSQL): every /api/tiers, every
-- judgement and every unit claimed reads it. Without an index each payment in flight scanned the
-- whole nodes table: a sale day's hundreds of mints in flight over a large ledger held PostgreSQL.
CREATE INDEX nodes_mint_tx ON nodes (mint_tx);
