-- GET /api/node/{id}: store.NodeJSON (nodeJSONSQL) for a random hot node (its ledger row id is
-- its chain id), at the default limit.
\set id random(1, :hot)
\set limit 50
	SELECT json_build_object('id', n.id, 'chainNodeId', n.id::text, 'tier', n.tier::text,
	'balanceWei', n.balance_wei::text, 'cumulativeWei', n.cumulative_wei::text,
	'withdrawnWei', n.withdrawn_wei::text, 'mintTx', n.mint_tx, 'status', n.status,
	'createdAt', api_time(n.created_at), 'owner', n.owner, 'priceWei', n.price_wei::text,
	'nextCreditAt', CASE WHEN n.status = 'active' AND n.next_credit_at IS NOT NULL THEN api_time(coalesce(
	(SELECT next_at FROM distributions WHERE status = 'confirmed' AND next_at IS NOT NULL ORDER BY id DESC LIMIT 1),
	(SELECT min(next_credit_at) FROM nodes WHERE status = 'active'))) END,
		'credits', (
			SELECT coalesce(json_agg(json_build_object('id', c.id, 'distributionId', c.distribution_id,
				'amountWei', c.amount_wei::text, 'createdAt', api_time(c.created_at))
				ORDER BY c.created_at DESC, c.id DESC), '[]')
			FROM (
				SELECT c.id, c.distribution_id, c.amount_wei, c.created_at
				FROM credits c
				JOIN distributions d ON d.id = c.distribution_id
				WHERE c.node_id = n.id AND d.status = 'confirmed'
				ORDER BY c.created_at DESC, c.id DESC
				LIMIT :limit
			) c),
		'withdrawals', (
			SELECT coalesce(json_agg(json_build_object('id', w.id, 'amountWei', w.amount_wei::text,
				'cumulativeSignedWei', w.cumulative_signed_wei::text, 'toAddress', w.to_address,
				'deadline', w.deadline, 'txHash', w.tx_hash, 'status', w.status,
				'createdAt', api_time(w.created_at), 'confirmedAt', api_time(w.confirmed_at))
				ORDER BY w.created_at DESC, w.id DESC), '[]')
			FROM (
				SELECT *
				FROM withdrawals w
				WHERE w.node_id = n.id
				ORDER BY w.created_at DESC, w.id DESC
				LIMIT :limit
			) w))
	FROM nodes n
	WHERE n.id = :id;
