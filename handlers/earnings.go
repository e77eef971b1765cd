package handlers

import (
	"context"
	"maps"

	"nodeledger/store"
	"nodeledger/views"
)

// earnings is what one node of each of tiers earns at today's settings, by tier id: the round's
// amount and mode as configured, each tier's weight as the factory holds it (tiers as h.tiers
// filled them), and in pool mode the chain's nodes and carry, read now. With extra, the pool
// counts one more node of the tier: a node bought now shares the pool with the others. A figure
// the chain could not give is unknown (nil), never a zero.
func (h *Handlers) earnings(ctx context.Context, tiers []store.Tier, extra bool) map[int]views.Earnings {
	out := make(map[int]views.Earnings, len(tiers))
	if !h.cfg.DistEnabled {
		for _, t := range tiers {
			out[t.ID] = views.Earnings{Off: true}
		}
		return out
	}
	base := views.Earnings{Period: h.cfg.DistPeriod, Pool: h.cfg.DistMode == store.DistPool}
	r := store.NewRound{Mode: h.cfg.DistMode, Weights: map[int]uint32{}}
	switch h.cfg.DistMode {
	case store.DistFixed:
		r.AmountWei = h.cfg.DistBaseWei
		for _, t := range tiers {
			if t.PayoutBps != nil {
				r.Weights[t.ID] = uint32(*t.PayoutBps)
			}
		}
	case store.DistPool:
		r.AmountWei = h.cfg.DistPoolWei
		ids := make([]uint8, len(tiers))
		for i, t := range tiers {
			ids[i] = uint8(t.ID)
		}
		st, err := h.chain.RoundState(ctx, ids...)
		if err != nil {
			h.log.Warn("earnings: the round state cannot be read", "err", err)
			r.AmountWei = nil
			break
		}
		r.CarryWei, r.TierNodes, r.Weights = st.PoolCarry, st.TierNodes, st.Weights
	}
	for _, t := range tiers {
		e := base
		if _, known := r.Weights[t.ID]; known && r.AmountWei != nil {
			round := r
			if extra {
				round.TierNodes = maps.Clone(r.TierNodes)
				if round.TierNodes == nil {
					round.TierNodes = map[int]int64{}
				}
				round.TierNodes[t.ID]++
			}
			perRound, err := store.NodeCredit(round, t.ID)
			if err != nil {
				h.log.Warn("earnings: a round cannot be priced", "tier", t.ID, "err", err)
			}
			e.PerRound = perRound
		}
		out[t.ID] = e
	}
	return out
}
