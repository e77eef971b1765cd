package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// Tier is a line of the operator's price list, with its sale settings.
type Tier struct {
	ID           int     `db:"id"`
	Label        string  `db:"label"`
	PriceWei     Uint256 `db:"price_wei"`
	MaxPerWallet int     `db:"max_per_wallet"`
	HoldingWei   Uint256 `db:"holding_wei"`
	HoldingToken *string `db:"holding_token"` // nil when the tier has no holding threshold token
	// Enabled is the operator's switch (the API's enabled). Whether the tier sells at an instant
	// also depends on its window, supply and the tier it opens after (jobs.TierPhase).
	Enabled bool `db:"on_sale"`
	// Supply is how many nodes the tier sells in all; nil: no limit.
	Supply *int `db:"supply"`
	// StartsAt and EndsAt bound the sale (nil: open-ended); before AllowlistUntil only the
	// wallets on the tier's allowlist buy, each up to its allocation.
	StartsAt       *time.Time `db:"starts_at"`
	EndsAt         *time.Time `db:"ends_at"`
	AllowlistUntil *time.Time `db:"allowlist_until"`
	// OpensAfterTier is the tier that must sell out before this one opens (a price step); nil: none.
	OpensAfterTier *int `db:"opens_after_tier"`
	// TokenPrices are its prices in listed tokens beside PriceWei, its ETH price.
	TokenPrices TokenPrices `db:"token_prices"`
	// Note is a sentence for buyers the operator sets, shown on the tier's card; nil: none.
	Note *string `db:"note"`
	// KYCRequired: a payment for it from a wallet without a verified identity is held until the
	// wallet is verified (KYC_HOLD_DAYS at most), its unit kept for it.
	KYCRequired bool `db:"kyc_required"`
	// PayoutBps is the tier's weight as the factory holds it (its owner sets it; the ledger keeps
	// no copy), filled by whoever read the chain; nil when it was not read.
	PayoutBps *int `db:"-"`
}

// TierColumns are the columns of a Tier (sale.TierFields names each setting's, a test holds
// them to it).
var TierColumns = []string{"id", "label", "price_wei", "max_per_wallet", "holding_wei", "holding_token", "on_sale",
	"supply", "starts_at", "ends_at", "allowlist_until", "opens_after_tier", "token_prices", "note", "kyc_required"}

// tierColumns is TierColumns as a select list, and putTierSQL the upsert of every one.
var tierColumns, putTierSQL = func() (string, string) {
	named, set := make([]string, len(TierColumns)), []string{}
	for i, c := range TierColumns {
		named[i] = ":" + c
		if c != "id" {
			set = append(set, c+" = excluded."+c)
		}
	}
	return strings.Join(TierColumns, ", "), `INSERT INTO tiers (` + strings.Join(TierColumns, ", ") + `) VALUES (` +
		strings.Join(named, ", ") + `) ON CONFLICT (id) DO UPDATE SET ` + strings.Join(set, ", ")
}()

// Tiers returns every tier, on sale or not, by id.
func (s *Store) Tiers(ctx context.Context) (_ []Tier, err error) {
	defer wrap(&err, "Tiers")
	var tiers []Tier
	err = s.db.SelectContext(ctx, &tiers, `SELECT `+tierColumns+` FROM tiers ORDER BY id`)
	return tiers, err
}

// PutTier creates the tier or replaces every field of it, unchecked: for seeds and tests. An
// operator's change goes through jobs/sale, which checks it against the ledger.
func (s *Store) PutTier(ctx context.Context, t Tier) (err error) {
	defer wrap(&err, "PutTier")
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := (Tx{tx}).PutTier(ctx, t); err != nil {
		return err
	}
	return tx.Commit()
}

// PutTier creates the tier or replaces every field of it, as it is: the sale's rules (jobs/sale)
// are checked by the caller, against the tiers it locked (LockTiers).
func (tx Tx) PutTier(ctx context.Context, t Tier) error {
	_, err := sqlx.NamedExecContext(ctx, tx.q, putTierSQL, t)
	return err
}

// LockTiers returns every tier, by id, locked until the transaction ends: a change of one tier
// is checked against all of them (a price step's chain runs through any; there are at most 256).
func (tx Tx) LockTiers(ctx context.Context) ([]Tier, error) {
	var all []Tier
	err := sqlx.SelectContext(ctx, tx.q, &all, `SELECT `+tierColumns+` FROM tiers ORDER BY id FOR UPDATE`)
	return all, err
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

// TierAt is a tier's sale settings as they were in force at an instant, and every price it had
// within the grace period before (its price at the instant among them), in ETH and in each token.
type TierAt struct {
	Tier
	Prices             []Uint256
	TokenPricesInGrace map[string][]Uint256 // by token address
}

// PricesIn are the prices t had in token ("": ETH) within the grace.
func (t TierAt) PricesIn(token string) []Uint256 {
	if token == "" {
		return t.Prices
	}
	return t.TokenPricesInGrace[token]
}

// TiersAt returns the tiers as they were at instant at, by id: the settings then in force, and
// the prices each had at any instant from at - grace to at. A tier created later is left out; so
// is a tier whose history starts after at.
func (s *Store) TiersAt(ctx context.Context, at time.Time, grace time.Duration) (_ []TierAt, err error) {
	defer wrap(&err, "TiersAt")
	var rows []struct {
		Tier
		Prices  pq.StringArray `db:"prices"`
		History pq.StringArray `db:"token_price_history"` // each version's token prices, as JSON
	}
	// The prices: the one in force when the grace began, and every one that took effect since,
	// in ETH and in tokens, read in one pass over the tier's versions.
	err = s.all(ctx, &rows, `
		SELECT t.id, t.label, v.price_wei, v.max_per_wallet, v.holding_wei, v.holding_token, v.on_sale, v.supply,
			v.starts_at, v.ends_at, v.allowlist_until, v.opens_after_tier, v.token_prices, v.kyc_required, g.prices, g.token_price_history
		FROM tiers t
		JOIN LATERAL (
			SELECT * FROM tier_versions v WHERE v.tier = t.id AND v.effective_at <= $1
			ORDER BY v.effective_at DESC, v.id DESC LIMIT 1
		) v ON true
		CROSS JOIN LATERAL (
			SELECT array_agg(g.price_wei::text ORDER BY g.effective_at, g.id) AS prices,
				array_agg(g.token_prices::text ORDER BY g.effective_at, g.id) AS token_price_history
			FROM tier_versions g
			WHERE g.tier = t.id AND g.effective_at <= $1 AND (g.effective_at > $2 OR g.id = (
				SELECT b.id FROM tier_versions b WHERE b.tier = t.id AND b.effective_at <= $2
				ORDER BY b.effective_at DESC, b.id DESC LIMIT 1))
		) g
		ORDER BY t.id`, at, at.Add(-grace))
	if err != nil {
		return nil, err
	}
	out := make([]TierAt, len(rows))
	for i, r := range rows {
		out[i].Tier = r.Tier
		for _, p := range r.Prices {
			var u Uint256
			if err := u.Scan(p); err != nil {
				return nil, err
			}
			out[i].Prices = append(out[i].Prices, u)
		}
		out[i].TokenPricesInGrace = map[string][]Uint256{}
		for _, text := range r.History {
			var prices TokenPrices
			if err := prices.Scan(text); err != nil {
				return nil, err
			}
			for token, amount := range prices {
				out[i].TokenPricesInGrace[token] = append(out[i].TokenPricesInGrace[token], amount)
			}
		}
	}
	return out, nil
}

// Sold returns how many nodes tier sold: minted, or being minted (a payment's node is recorded
// as it leaves minting, in one transaction: RecordMints). Triggers keep the count (tier_sold).
func (s *Store) Sold(ctx context.Context, tier int) (_ int, err error) {
	defer wrap(&err, "Sold")
	var n int
	err = s.get(ctx, &n, soldSQL, tier)
	return n, err
}

// Sold is Store.Sold inside the transaction.
func (tx Tx) Sold(ctx context.Context, tier int) (int, error) {
	var n int
	err := sqlx.GetContext(ctx, tx.q, &n, soldSQL, tier)
	return n, err
}

const soldSQL = `SELECT coalesce((SELECT n FROM tier_sold WHERE tier = $1), 0)`

// SoldByTier returns how many nodes each tier sold (minted or being minted), by tier id; a tier
// that sold none is absent.
func (s *Store) SoldByTier(ctx context.Context) (_ map[int]int, err error) {
	defer wrap(&err, "SoldByTier")
	var rows []struct {
		Tier int `db:"tier"`
		N    int `db:"n"`
	}
	err = s.db.SelectContext(ctx, &rows, `SELECT tier, n FROM tier_sold WHERE n > 0`)
	out := map[int]int{}
	for _, r := range rows {
		out[r.Tier] = r.N
	}
	return out, err
}

// deref is *p, or zero when p is nil.
func deref[T any](p *T, zero T) T {
	if p == nil {
		return zero
	}
	return *p
}
