package sale

import (
	"time"

	"nodeledger/store"
)

// WhyClosed is why tier t sells nothing at at, as the payments pass would refuse a payment for
// it then (off sale, not open yet, sold out, ended); nil while it sells. all are the tiers t may
// open after, as Tiers gives them.
func WhyClosed(t TierNow, all []TierNow, at time.Time) *Reason {
	if t.Phase.Open() {
		return nil
	}
	sold := make(map[int]int, len(all))
	byID := make(map[int]store.Tier, len(all))
	for _, x := range all {
		sold[x.ID], byID[x.ID] = x.Sold, x.Tier
	}
	return notOpen(t.Tier, t.Phase, func(id int) int { return sold[id] }, byID, at)
}
