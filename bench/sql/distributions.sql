-- GET /api/distributions: store.DistributionsJSON (distributionsJSONSQL) at the default limit.
\set limit 50
	SELECT coalesce(json_agg(json_build_object('id', d.id, 'totalWei', d.total_wei::text,
		'nodeCount', d.node_count, 'mode', d.mode, 'fundingMode', d.funding_mode, 'status', d.status,
		'txHash', d.tx_hash, 'createdAt', api_time(d.created_at),
		'confirmedAt', api_time(d.confirmed_at)) ORDER BY d.created_at DESC, d.id DESC), '[]')
	FROM (
		SELECT *
		FROM distributions
		ORDER BY created_at DESC, id DESC
		LIMIT :limit
	) d;
