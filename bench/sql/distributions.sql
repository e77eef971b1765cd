-- GET /api/distributions: store.Distributions (distributionsSQL) at the default limit.
\set limit 50
SELECT id, total_wei, node_count, mode, funding_mode, status, tx_hash, created_at, confirmed_at
	FROM distributions
	ORDER BY created_at DESC, id DESC
	LIMIT :limit;
