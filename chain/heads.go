package chain

import (
	"context"
	"errors"
	"time"

	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"
)

const (
	// headPoll is how often Heads asks for the head where the node pushes none.
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
// process); otherwise, or while a subscription is failing, they are asked for (eth_blockNumber)
// about once a second, and a subscription is tried again a minute later. The channel holds one
// number: a reader that falls behind reads the newest head, never a queue of old ones. A head
// that goes back (a reorg to a shorter chain) is a new head too.
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

// followedHead is a head a Heads follower saw, and when; pushed: while its subscription lives.
type followedHead struct {
	n      uint64
	at     time.Time
	pushed bool
}

// FollowedHead is the head the passes' follower (Heads) saw last, if it is still the head as
// far as anyone can tell: the node pushes every new one, and the subscription has not been
// silent for headQuiet; or the follower asked for it within maxAge. A reader content with that
// asks nothing. None without a follower. Pushed heads are believed past maxAge: with a block
// every 2 s, a reader's maxAge of 1 s would have the pages ask for the head half the time,
// although the follower would have been told of a new one.
func (c *Client) FollowedHead(maxAge time.Duration) (uint64, bool) {
	f := c.followed.Load()
	if f == nil {
		return 0, false
	}
	if age := time.Since(f.at); age > maxAge && (!f.pushed || age > headQuiet) {
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
// pushed: the node pushed it (or it is the head a subscription starts at). Only this goroutine
// sends, so once the channel is emptied the send cannot block.
func (h *heads) offer(n uint64, pushed bool) {
	h.c.followed.Store(&followedHead{n: n, at: time.Now(), pushed: pushed})
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
	h.offer(n, true)
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
			h.offer(head.Number.Uint64(), true)
		case <-quiet.C:
			n, err := h.c.HeadNumber(ctx)
			if err != nil {
				return err
			}
			if n != h.last {
				h.offer(n, false)
				return errSilentSubscription
			}
			h.offer(n, true) // the chain was as quiet as the subscription
		}
		quiet.Reset(headQuiet)
	}
}

// poll asks for the head every headPoll, for d (0: until ctx ends). A failed read is skipped:
// the next one is a second away.
func (h *heads) poll(ctx context.Context, d time.Duration) {
	t := time.NewTicker(headPoll)
	defer t.Stop()
	var end <-chan time.Time
	if d > 0 {
		end = time.After(d)
	}
	for {
		if n, err := h.c.HeadNumber(ctx); err == nil {
			h.offer(n, false)
		}
		select {
		case <-ctx.Done():
			return
		case <-end:
			return
		case <-t.C:
		}
	}
}
