package store

import (
	"context"
)

// Revenue is what minted payments paid: in ETH, in each token (in token address order), and in
// US dollars as the books take it, each ETH payment at the ETH/USD feed's price of its block and
// a token unit at a dollar (the sale's tokens are stablecoins). Unbooked counts the ETH payments
// no price was kept for (no feed when they were recorded), which USD leaves out.
type Revenue struct {
	Amounts
	USD      float64
	Unbooked int
}

// add adds o to r.
func (r *Revenue) add(o Revenue) {
	r.Amounts.Add(o.Amounts)
	r.USD += o.USD
	r.Unbooked += o.Unbooked
}

// Total is the revenue of every tier of byTier together.
func Total(byTier map[int]Revenue) Revenue {
	total := Revenue{Amounts: NoAmounts()}
	for _, r := range byTier {
		total.add(r)
	}
	return total
}

// Revenue is what the minted payments of each tier paid (Revenue), by tier id: a tier nothing
// was minted in is absent. A node the reconciler found without a payment (minted by other means)
// brought nothing to the payments wallet, so it adds nothing.
func (s *Store) Revenue(ctx context.Context) (_ map[int]Revenue, err error) {
	defer wrap(&err, "Revenue")
	var rows []struct {
		Tier     int     `db:"tier"`
		Token    *string `db:"token"`
		Symbol   string  `db:"symbol"`
		Decimals int     `db:"decimals"`
		Amount   Uint256 `db:"amount"`
		USD      float64 `db:"usd"`
		Unbooked int     `db:"unbooked"`
	}
	err = s.db.SelectContext(ctx, &rows, `
		SELECT p.tier, p.token, coalesce(tk.symbol, '') AS symbol, coalesce(tk.decimals, 18) AS decimals,
			sum(CASE WHEN p.token IS NULL THEN p.value_wei ELSE p.amount END) AS amount,
			coalesce(sum(CASE WHEN p.token IS NULL THEN p.value_wei * p.usd_per_eth / 1e18
				ELSE p.amount / power(10::numeric, coalesce(tk.decimals, 18)) END), 0)::float8 AS usd,
			count(*) FILTER (WHERE p.token IS NULL AND p.usd_per_eth IS NULL) AS unbooked
		FROM payments p LEFT JOIN tokens tk ON tk.address = p.token
		WHERE p.status = $1 AND p.tier IS NOT NULL
		GROUP BY p.tier, p.token, tk.symbol, tk.decimals`, PaymentMinted)
	if err != nil {
		return nil, err
	}
	out := make(map[int]Revenue, len(rows))
	for _, r := range rows {
		rev := Revenue{Amounts: NoAmounts(), USD: r.USD, Unbooked: r.Unbooked}
		if r.Token == nil {
			rev.ETH = r.Amount
		} else {
			rev.Tokens = []TokenAmount{{Token: Token{Address: *r.Token, Symbol: r.Symbol, Decimals: r.Decimals}, Amount: r.Amount}}
		}
		sum := out[r.Tier]
		sum.add(rev)
		out[r.Tier] = sum
	}
	return out, nil
}
