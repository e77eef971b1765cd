-- GET /api/nodes/{address}: store.NodesByOwner (nodesByOwnerSQL). bench/run.sh runs one copy of
-- this script per sampled owner, with :owner renamed to that owner's variable.
SELECT id, chain_node_id, tier, owner, balance_wei, cumulative_wei, withdrawn_wei,
	price_wei, mint_tx, status, created_at
	FROM nodes
	WHERE owner = :owner
	ORDER BY created_at, id;
