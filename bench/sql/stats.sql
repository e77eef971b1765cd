-- GET /api/stats: store.Stats (statsSQL). The server memoises it for a few seconds, so its
-- ceiling is the hello handler's; this row shows what each uncached answer would cost.
SELECT
		(SELECT count(*) FROM nodes) AS total_nodes,
		(SELECT count(*) FROM (SELECT DISTINCT owner FROM nodes) o) AS operators,
		(SELECT coalesce(sum(total_wei), 0) FROM distributions WHERE status = 'confirmed') AS total_distributed_wei,
		(SELECT coalesce(sum(total_wei), 0) FROM distributions
		 WHERE status = 'confirmed' AND confirmed_at >= now() - interval '24 hours') AS distributed_24h_wei;
