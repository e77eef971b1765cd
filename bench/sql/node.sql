-- GET /api/node/{id}: store.Node, store.Credits and store.Withdrawals (nodeSQL, creditsSQL,
-- withdrawalsSQL) for a random hot node, whose chain id and ledger row id are the same.
\set id random(1, :hot)
\set limit 50
SELECT id, chain_node_id, tier, owner, balance_wei, cumulative_wei, withdrawn_wei,
	price_wei, mint_tx, status, created_at
	FROM nodes
	WHERE chain_node_id = :id::numeric OR id = :id
	ORDER BY chain_node_id = :id::numeric DESC
	LIMIT 1;
SELECT c.id, c.distribution_id, c.amount_wei, c.created_at
	FROM credits c
	JOIN distributions d ON d.id = c.distribution_id
	WHERE c.node_id = :id AND d.status = 'confirmed'
	ORDER BY c.created_at DESC, c.id DESC
	LIMIT :limit;
SELECT id, amount_wei, cumulative_signed_wei, to_address, deadline, tx_hash, status,
		created_at, confirmed_at
	FROM withdrawals
	WHERE node_id = :id
	ORDER BY created_at DESC, id DESC
	LIMIT :limit;
