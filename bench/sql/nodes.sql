-- GET /api/nodes/{address}: store.NodesByOwnerJSON (nodesByOwnerJSONSQL). bench/run.sh runs one
-- copy of this script per sampled owner, with :owner renamed to that owner's variable.
	SELECT coalesce(json_agg(json_build_object('id', n.id, 'chainNodeId', n.id::text, 'tier', n.tier::text,
	'balanceWei', n.balance_wei::text, 'cumulativeWei', n.cumulative_wei::text,
	'withdrawnWei', n.withdrawn_wei::text, 'mintTx', n.mint_tx, 'status', n.status,
	'createdAt', api_time(n.created_at)) ORDER BY n.created_at, n.id), '[]')
	FROM nodes n
	WHERE n.owner = :owner;
