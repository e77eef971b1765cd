package store

import (
	"context"
	"database/sql"
	"errors"

	"github.com/jmoiron/sqlx"
)

// Tier is a line of the operator's price list.
type Tier struct {
	ID           int     `db:"id"`
	Label        string  `db:"label"`
	PriceWei     Uint256 `db:"price_wei"`
	MaxPerWallet int     `db:"max_per_wallet"`
	HoldingWei   Uint256 `db:"holding_wei"`
	HoldingToken *string `db:"holding_token"` // nil when the tier has no holding threshold token
	OnSale       bool    `db:"on_sale"`
	// PayoutBps is the tier's weight as the factory holds it (its owner sets it; the ledger keeps
	// no copy), filled by whoever read the chain; nil when it was not read.
	PayoutBps *int `db:"-"`
}

// tierColumns are the columns of a Tier.
const tierColumns = `id, label, price_wei, max_per_wallet, holding_wei, holding_token, on_sale`

// Tiers returns every tier, on sale or not, by id.
func (s *Store) Tiers(ctx context.Context) (_ []Tier, err error) {
	defer wrap(&err, "Tiers")
	var tiers []Tier
	err = s.db.SelectContext(ctx, &tiers, `SELECT `+tierColumns+` FROM tiers ORDER BY id`)
	return tiers, err
}

// PutTier creates the tier or replaces every field of it.
func (s *Store) PutTier(ctx context.Context, t Tier) (err error) {
	defer wrap(&err, "PutTier")
	return Tx{s.db}.PutTier(ctx, t)
}

// PutTier creates the tier or replaces every field of it.
func (tx Tx) PutTier(ctx context.Context, t Tier) error {
	_, err := tx.q.ExecContext(ctx, `
		INSERT INTO tiers (id, label, price_wei, max_per_wallet, holding_wei, holding_token, on_sale)
		VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (id) DO UPDATE SET
			label = excluded.label, price_wei = excluded.price_wei, max_per_wallet = excluded.max_per_wallet,
			holding_wei = excluded.holding_wei, holding_token = excluded.holding_token, on_sale = excluded.on_sale`,
		t.ID, t.Label, t.PriceWei, t.MaxPerWallet, t.HoldingWei, t.HoldingToken, t.OnSale)
	return err
}

// SetOnSale puts a tier on sale or takes it off; ErrNotFound when there is no such tier.
func (s *Store) SetOnSale(ctx context.Context, id int, onSale bool) (err error) {
	defer wrap(&err, "SetOnSale")
	return Tx{s.db}.SetOnSale(ctx, id, onSale)
}

// SetOnSale puts a tier on sale or takes it off; ErrNotFound when there is no such tier.
func (tx Tx) SetOnSale(ctx context.Context, id int, onSale bool) error {
	res, err := tx.q.ExecContext(ctx, `UPDATE tiers SET on_sale = $2 WHERE id = $1`, id, onSale)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// Tier returns tier id, as it is before a change; ErrNotFound when there is none.
func (tx Tx) Tier(ctx context.Context, id int) (Tier, error) {
	var t Tier
	err := sqlx.GetContext(ctx, tx.q, &t, `SELECT `+tierColumns+` FROM tiers WHERE id = $1 FOR UPDATE`, id)
	if errors.Is(err, sql.ErrNoRows) {
		return Tier{}, ErrNotFound
	}
	return t, err
}
