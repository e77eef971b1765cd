package chain

import (
	"context"
	"sync/atomic"
)

// Calls counts the JSON-RPC requests made with a context that carries it (CountCalls), each
// element of a batch and each retry one request, as providers bill them. A pass counts its own,
// and the payments scan its blocks', to say what the chain costs per pass and per block.
type Calls struct {
	n      atomic.Int64
	parent *Calls // the count of the context CountCalls was given, which counts these too
}

type callsKey struct{}

// CountCalls returns ctx with a new count of the requests made with it, which an enclosing
// count, if any, goes on counting too.
func CountCalls(ctx context.Context) (context.Context, *Calls) {
	parent, _ := ctx.Value(callsKey{}).(*Calls)
	c := &Calls{parent: parent}
	return context.WithValue(ctx, callsKey{}, c), c
}

// N is how many requests were counted.
func (c *Calls) N() int64 { return c.n.Load() }

// counted adds n requests made with ctx to its counts and to the metric.
func counted(ctx context.Context, n int) {
	rpcRequests.Add(float64(n))
	for c, _ := ctx.Value(callsKey{}).(*Calls); c != nil; c = c.parent {
		c.n.Add(int64(n))
	}
}
