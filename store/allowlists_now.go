package store

import (
	"context"
	"time"
)

// AllowlistsAt returns, by tier id, each tier's allowlist in force at instant at: when it took
// effect, its wallets and the nodes they may buy in all. A tier that never had a list is absent.
// The operator page shows every tier's with it; Allowlist reads one tier's, wallet by wallet.
func (s *Store) AllowlistsAt(ctx context.Context, at time.Time) (_ map[int]AllowlistVersion, err error) {
	defer wrap(&err, "AllowlistsAt")
	var vs []AllowlistVersion
	err = s.db.SelectContext(ctx, &vs, `
		SELECT a.tier, a.effective_at, count(e.address) AS rows, coalesce(sum(e.allocation), 0) AS total_allocation
		FROM (
			SELECT DISTINCT ON (tier) id, tier, effective_at FROM allowlist_versions
			WHERE effective_at <= $1 ORDER BY tier, effective_at DESC, id DESC
		) a LEFT JOIN allowlist_entries e ON e.version = a.id
		GROUP BY a.id, a.tier, a.effective_at`, at)
	if err != nil {
		return nil, err
	}
	out := make(map[int]AllowlistVersion, len(vs))
	for _, v := range vs {
		out[v.Tier] = v
	}
	return out, nil
}
