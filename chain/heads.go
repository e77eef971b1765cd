package chain

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"
)

const (
	// headPoll is how often Heads asks for the head where the node pushes none and the chain's
	// blocks come no steadier than that (see blockClock).
	headPoll = time.Second
	// headRetry is how long Heads polls after a subscription failed before it subscribes again.
	headRetry = time.Minute
	// headQuiet is how long a subscription may stay silent before Heads asks for the head
	// itself: a connection that died without closing delivers nothing and reports no error.
	headQuiet = 30 * time.Second
)

// errSilentSubscription is a subscription that stayed silent while the head moved.
var errSilentSubscription = errors.New("the newHeads subscription is silent while the head moves")

// Heads returns the number of each new head of the chain until ctx ends, then closes. The node
// pushes them (eth_subscribe newHeads) where the connection takes subscriptions (ws, ipc, in
// process); otherwise, or while a subscription is failing, they are asked for (the latest block's
// number and time) about once a second, or when the next block is due on a chain whose blocks
// come at a steady interval (blockClock), and a subscription is tried again a minute later. The
// channel holds one number: a reader that falls behind reads the newest head, never a queue of
// old ones. A head that goes back (a reorg to a shorter chain) is a new head too.
func (c *Client) Heads(ctx context.Context) <-chan uint64 {
	out := make(chan uint64, 1)
	h := &heads{c: c, out: out}
	go func() {
		defer close(out)
		for ctx.Err() == nil {
			err := h.subscribe(ctx)
			if ctx.Err() != nil {
				return
			}
			if errors.Is(err, rpc.ErrNotificationsUnsupported) {
				h.poll(ctx, 0) // http: for good
				return
			}
			h.poll(ctx, headRetry)
		}
	}()
	return out
}

type atHeadKey struct{}

// AtHead returns ctx in which HeadNumber is n, asking nothing: the work a head started (a pass
// Heads woke) reads the chain as of that head, which the follower has just read or been pushed,
// rather than ask for it again at each step. A head that moves on while the work runs is the
// next work's; what was read at n stays true at n (a confirmation counted from it is one too
// few at worst, never one too many).
func AtHead(ctx context.Context, n uint64) context.Context {
	return context.WithValue(ctx, atHeadKey{}, n)
}

// Moving returns ctx in which HeadNumber asks the node again: work that waits for the head to
// move past the one it was started at. A ctx that asks already is returned as it is, so a loop
// may call it at every turn.
func Moving(ctx context.Context) context.Context {
	if _, pinned := ctx.Value(atHeadKey{}).(uint64); !pinned {
		return ctx
	}
	return context.WithValue(ctx, atHeadKey{}, nil)
}

// followedHead is a head a Heads follower saw, when, and until when the follower would know of
// the next: pushed, while its subscription has not been silent for headQuiet; polled, until its
// next poll is due.
type followedHead struct {
	n     uint64
	at    time.Time
	until time.Time
}

// FollowedHead is the head the passes' follower (Heads) saw last, if it is still the head as
// far as anyone can tell: the follower saw it within maxAge, or would have seen a new one by now
// (the node pushes every new one and the subscription is not silent, or the follower's next poll
// is not due yet). A reader content with that asks nothing. None without a follower. With a
// block every 2 s, a reader's maxAge of 1 s would otherwise have the pages ask for the head half
// the time, although the follower would have been told of a new one, or would ask at the instant
// it is due.
func (c *Client) FollowedHead(maxAge time.Duration) (uint64, bool) {
	f := c.followed.Load()
	if f == nil {
		return 0, false
	}
	if now := time.Now(); now.Sub(f.at) > maxAge && now.After(f.until) {
		return 0, false
	}
	return f.n, true
}

// heads is the one goroutine that writes to a Heads channel.
type heads struct {
	c    *Client
	out  chan uint64
	last uint64
}

// offer makes n the number waiting in the channel, in place of one the reader has not taken;
// until: the follower would know of the next head by then (FollowedHead). Only this goroutine
// sends, so once the channel is emptied the send cannot block.
func (h *heads) offer(n uint64, until time.Time) {
	h.c.followed.Store(&followedHead{n: n, at: time.Now(), until: until})
	if n == h.last {
		return
	}
	h.last = n
	select {
	case <-h.out:
	default:
	}
	h.out <- n
}

// subscribe follows newHeads until the subscription fails, falls silent while the head moves,
// or ctx ends.
func (h *heads) subscribe(ctx context.Context) error {
	ch := make(chan *types.Header, 16)
	counted(ctx, "new heads subscription", 1)
	// On the endpoint serving best now; one that falls silent is left (headQuiet) and the next
	// subscription goes to the best then.
	sub, err := h.c.serving()[0].eth.SubscribeNewHead(ctx, ch)
	if err != nil {
		return err
	}
	defer sub.Unsubscribe()
	// The head now, for a reader that starts with it: the node pushes only the next one.
	n, err := h.c.HeadNumber(ctx)
	if err != nil {
		return err
	}
	pushed := func(n uint64) { h.offer(n, time.Now().Add(headQuiet)) }
	pushed(n)
	quiet := time.NewTimer(headQuiet)
	defer quiet.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-sub.Err():
			if err == nil {
				err = errors.New("the newHeads subscription ended")
			}
			return err
		case head := <-ch:
			pushed(head.Number.Uint64())
		case <-quiet.C:
			n, err := h.c.HeadNumber(ctx)
			if err != nil {
				return err
			}
			if n != h.last {
				h.offer(n, time.Now())
				return errSilentSubscription
			}
			pushed(n) // the chain was as quiet as the subscription
		}
		quiet.Reset(headQuiet)
	}
}

// poll asks for the head, as often as blockClock says, for d (0: until ctx ends). A failed read is
// skipped: the next one is a second away.
func (h *heads) poll(ctx context.Context, d time.Duration) {
	var end <-chan time.Time
	if d > 0 {
		end = time.After(d)
	}
	var p blockClock
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-end:
			return
		case <-t.C:
		}
		wait := headPoll
		if n, at, err := h.c.latest(ctx); err == nil {
			now := time.Now()
			wait = p.next(n, at, now)
			h.offer(n, now.Add(wait))
		}
		t.Reset(wait)
	}
}

// blockClock times the polls for the head on a chain whose blocks come at a steady interval: a
// block is seen about as long after its timestamp each time, so a poll due then finds it in one
// request, where polling every headPoll asks the interval over headPoll times a block (twice on
// a 2 s chain, in each instance) and sees the block half a second late on average.
type blockClock struct {
	n, at    uint64        // the newest head polled, and its timestamp (unix seconds)
	interval time.Duration // between blocks, by the timestamps of the last two heads polled (0: unknown)
	// steady counts the intervals in a row that were the same: only then is the next block due
	// at that interval (a chain that mines on demand has none).
	steady int
	// lags are how long after its timestamp each of the last heads was first seen: a poll due at
	// the least of them finds the next block as soon as it can be seen.
	lags [8]time.Duration
	seen int // heads polled, of which the last len(lags) have their lag in lags
}

// dueMargin is how long after its earliest a poll asks for a block it expects: the node's
// blocks come a few tens of milliseconds either side of their usual instant.
const dueMargin = 100 * time.Millisecond

// steadyIntervals is how many intervals in a row must be the same before the polls are timed:
// three blocks, each the interval after the one before.
const steadyIntervals = 2

// next is how long to wait before asking for the head again, now that it is block n of
// timestamp at (unix seconds), polled at instant now: until the next block is due, where the
// blocks come at a steady interval longer than headPoll; a fraction of the interval while a
// block due is late (but no more often than headPoll otherwise asks); headPoll elsewhere
// (blocks faster than a second, whose timestamps in seconds cannot time them, or made on
// demand by a development chain).
func (p *blockClock) next(n, at uint64, now time.Time) time.Duration {
	if n != p.n {
		interval := time.Duration(0)
		if p.n != 0 && n > p.n && at > p.at {
			interval = time.Duration(at-p.at) * time.Second / time.Duration(n-p.n)
		}
		switch {
		case interval == 0:
			p.steady = 0
		case interval == p.interval:
			p.steady++
		default:
			p.steady = 1
		}
		p.interval = interval
		p.lags[p.seen%len(p.lags)] = now.Sub(time.Unix(int64(at), 0))
		p.seen++
		p.n, p.at = n, at
	}
	if p.interval <= headPoll || p.steady < steadyIntervals {
		return headPoll
	}
	lag := slices.Min(p.lags[:min(p.seen, len(p.lags))])
	due := time.Unix(int64(p.at), 0).Add(p.interval + lag + dueMargin)
	if wait := due.Sub(now); wait > 0 {
		return min(wait, p.interval+dueMargin) // a clock that jumped waits no longer than a block
	}
	return min(headPoll, p.interval/8)
}
