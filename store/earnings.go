package store

import (
	"fmt"
	"math/big"
	"slices"
)

// NodeCredit is what a round priced from r would credit one node of tier, by the arithmetic
// factory.distribute applies and priceRound repeats (price): the fixed base at the tier's weight,
// or the pool's unit of weight (the pool and the carry over every node's weight) times it.
// r.TierNodes and r.Weights are the chain's; a tier they do not name has no nodes and weighs 0.
// What a page shows a buyer or an owner as a node's earnings comes from here, so that it is the
// figure the next round credits, to the wei, while the settings stay as they are.
func NodeCredit(r NewRound, tier int) (*big.Int, error) {
	ids := []int{tier}
	for t := range r.TierNodes {
		ids = append(ids, t)
	}
	for t := range r.Weights {
		ids = append(ids, t)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	tiers := make([]tierNodes, len(ids))
	for i, t := range ids {
		tiers[i] = tierNodes{Tier: t, Nodes: r.TierNodes[t], PayoutBps: int64(r.Weights[t])}
	}
	if r.CarryWei == nil {
		r.CarryWei = new(big.Int)
	}
	inc, _, err := price(r, tiers)
	if err != nil {
		return nil, fmt.Errorf("NodeCredit: %w", err)
	}
	return inc[slices.Index(ids, tier)], nil
}
