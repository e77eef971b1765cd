-- GET /api/stats: store.Stats (statsSQL). The server memoises it for a few seconds, so its
-- ceiling is the hello handler's; this row shows what each uncached answer would cost.
SELECT
		(SELECT count(*) FROM nodes),
		(SELECT count(DISTINCT owner) FROM nodes),
		(SELECT coalesce(sum(total_wei), 0) FROM distributions WHERE status = 'confirmed'),
		(SELECT coalesce(sum(total_wei), 0) FROM distributions
		 WHERE status = 'confirmed' AND confirmed_at >= now() - interval '24 hours');
