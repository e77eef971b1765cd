package store

import "context"

// Revenue is what the minted payments of each tier paid, by tier id: a tier nothing was minted
// in is absent. A node the reconciler found without a payment (minted by other means) brought
// no ETH to the payments wallet, so it adds nothing.
func (s *Store) Revenue(ctx context.Context) (_ map[int]Uint256, err error) {
	defer wrap(&err, "Revenue")
	var rows []struct {
		Tier int     `db:"tier"`
		Wei  Uint256 `db:"wei"`
	}
	err = s.db.SelectContext(ctx, &rows, `
		SELECT tier, sum(value_wei) AS wei FROM payments
		WHERE status = $1 AND tier IS NOT NULL
		GROUP BY tier`, PaymentMinted)
	if err != nil {
		return nil, err
	}
	out := make(map[int]Uint256, len(rows))
	for _, r := range rows {
		out[r.Tier] = r.Wei
	}
	return out, nil
}
