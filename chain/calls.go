package chain

import (
	"context"
	"strings"
	"sync/atomic"
	"unicode"
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

// counted adds n requests made with ctx for what to its counts and to the metric.
func counted(ctx context.Context, what string, n int) {
	name := callName(what)
	rpcRequests.WithLabelValues(name).Add(float64(n))
	rpcFailures.WithLabelValues(name) // its failures' series exists, at zero, from its first request
	for c, _ := ctx.Value(callsKey{}).(*Calls); c != nil; c = c.parent {
		c.n.Add(int64(n))
	}
}

// callName is what a round trip was for, as the metric labels it: its words without the numbers
// ("12 receipts" and "blocks 40-90" are "receipts" and "blocks"), so that the labels stay few.
func callName(what string) string {
	var words []string
	for _, w := range strings.Fields(what) {
		if !strings.ContainsFunc(w, func(r rune) bool { return unicode.IsDigit(r) || r == '[' || r == ']' }) {
			words = append(words, w)
		}
	}
	return strings.Join(words, " ")
}
