package chain

import (
	"context"
	"fmt"
	"time"

	"golang.org/x/time/rate"
)

// ErrOverBudget is a call refused because its Budget is spent: nothing was asked of the node.
var ErrOverBudget = fmt.Errorf("%w: the budget of chain requests for visitors is spent for now", ErrUnavailable)

// Budget is how many requests a set of callers may make of the chain, a token bucket: the routes
// that read the chain for a visitor (a tracker's transaction, the pre-check, /buy's wallet
// figures) share one per instance, so that however many visitors come, and however one of them
// polls, the instance asks no more than this of its RPC provider. The passes and the shared
// memos draw on none.
type Budget struct{ l *rate.Limiter }

// NewBudget allows perSecond requests a second, and bursts of twice that.
func NewBudget(perSecond int) *Budget {
	return &Budget{rate.NewLimiter(rate.Limit(perSecond), 2*perSecond)}
}

type budgetKey struct{}

// WithBudget returns ctx whose calls draw on b: past it, a call fails at once with ErrOverBudget.
func WithBudget(ctx context.Context, b *Budget) context.Context {
	return context.WithValue(ctx, budgetKey{}, b)
}

// spend takes n requests of ctx's budget, if it has one; ErrOverBudget when it cannot.
func spend(ctx context.Context, what string, n int) error {
	if b, _ := ctx.Value(budgetKey{}).(*Budget); b != nil && !b.l.AllowN(time.Now(), n) {
		return fmt.Errorf("%s: %w", what, ErrOverBudget)
	}
	return nil
}
