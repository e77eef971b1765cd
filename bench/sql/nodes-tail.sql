-- GET /api/nodes/{address} for any owner of the ledger, at random (bench/run.sh's long tail):
-- the seed's owner k is '0x' || md5('owner' || k) || left(md5('owner.' || k), 8) (store/seed.go),
-- so the script names one without a list. The two md5 calls are PostgreSQL's few microseconds
-- more than the query the server sends.
\set k random(0, :owners - 1)
SELECT coalesce(json_agg(json_build_object('id', n.id, 'chainNodeId', n.id::text, 'tier', n.tier::text,
	'balanceWei', n.balance_wei::text, 'cumulativeWei', n.cumulative_wei::text,
	'withdrawnWei', n.withdrawn_wei::text, 'mintTx', n.mint_tx, 'status', n.status,
	'createdAt', api_time(n.created_at)) ORDER BY n.created_at, n.id), '[]')
	FROM nodes n
	WHERE n.owner = '0x' || md5('owner' || :k) || left(md5('owner.' || :k), 8);
