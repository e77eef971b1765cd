package sale

import (
	"context"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"nodeledger/chain"
	"nodeledger/store"
)

// TierNow is a tier as it stands now, as GET /api/tiers and the pages show it.
type TierNow struct {
	store.Tier
	Sold      int
	Remaining *int // nil: no supply, so no limit
	Phase     store.TierPhase
	// OpensAt is when a tier scheduled by its start opens; nil otherwise (not scheduled, or
	// waiting for the tier it opens after).
	OpensAt *time.Time
	// Token is the holding token's symbol and decimals; nil without a holding token, or when the
	// token does not tell them.
	Token *chain.Token
	// InTokens are its prices in the tokens the sale accepts, with their symbols (Sale.TokenPrices).
	InTokens []TokenAmount
}

// Tiers is every tier, on sale or not, with the factory's weight of each and where its sale
// stands now, as of at most readTTL + readStale ago (read model).
func (s *Sale) Tiers(ctx context.Context) ([]TierNow, error) { return s.tiers.Get(ctx) }

// TiersNow is Tiers read afresh from the ledger and the chain: for the pages that must show
// what a buyer's payment is judged by this second.
func (s *Sale) TiersNow(ctx context.Context) ([]TierNow, error) { return s.loadTiers(ctx, time.Now()) }

// loadTiers reads every tier with where it stands at instant at.
func (s *Sale) loadTiers(ctx context.Context, at time.Time) ([]TierNow, error) {
	tiers, err := s.withWeights(ctx)
	if err != nil {
		return nil, err
	}
	sold, err := s.store.SoldByTier(ctx)
	if err != nil {
		return nil, err
	}
	byID := make(map[int]store.Tier, len(tiers))
	for _, t := range tiers {
		byID[t.ID] = t
	}
	soldOf := func(tier int) int { return sold[tier] }
	out := make([]TierNow, len(tiers))
	for i, t := range tiers {
		n := TierNow{Tier: t, Sold: sold[t.ID], Phase: PhaseAt(t, soldOf, byID, at), InTokens: s.TokenPrices(t)}
		if t.Supply != nil {
			left := max(*t.Supply-n.Sold, 0)
			n.Remaining = &left
		}
		if n.Phase == store.PhaseScheduled && t.StartsAt != nil && at.Before(*t.StartsAt) {
			n.OpensAt = t.StartsAt
		}
		if t.HoldingToken != nil {
			if info, err := s.chain.TokenInfo(ctx, common.HexToAddress(*t.HoldingToken)); err == nil {
				n.Token = &info
			} else {
				s.log.Warn("tiers: the holding token's symbol and decimals cannot be read", "token", *t.HoldingToken, "err", err)
			}
		}
		out[i] = n
	}
	return out, nil
}

// withWeights is the ledger's price list with each tier's payout weight as the factory holds it;
// a chain that cannot be read leaves the weights nil (null, "unknown"), never a zero.
func (s *Sale) withWeights(ctx context.Context) ([]store.Tier, error) {
	tiers, err := s.store.Tiers(ctx)
	if err != nil {
		return nil, err
	}
	ids := make([]uint8, len(tiers))
	for i, t := range tiers {
		ids[i] = uint8(t.ID)
	}
	weights, err := s.chain.TierWeights(ctx, ids)
	if err != nil {
		s.log.Warn("tiers: the factory's weights cannot be read", "err", err)
		return tiers, nil
	}
	for i := range tiers {
		w := int(weights[tiers[i].ID])
		tiers[i].PayoutBps = &w
	}
	return tiers, nil
}
