package store

import (
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/lib/pq"
)

// Topic is what the ledger announces changes of, each on a channel of its own.
type Topic string

const (
	// Payments are announced by their transaction hash, for the trackers (migration 0059).
	Payments Topic = "payments"
	// Wallets are announced by address when their nodes change, for GET /api/nodes/{address}
	// (migration 0060).
	Wallets Topic = "wallets"
)

// Heard is what the ledger announced of a topic: the keys in Changed changed; or, with All, any
// may have: a token changed (for payments), or the announcements were not heard for a while
// (before the first connection, after losing one). Live says whether they are heard from then
// on; Err is why they are not.
type Heard struct {
	Changed   []string
	All, Live bool
	Err       error
}

// How the announcements' connection is kept: it announces itself every pingEvery, is given up
// when it does not hear that within pingWait (a server or path that died without closing it),
// and is connected again after retryMin, doubling to retryMax while that fails.
const (
	pingEvery = 5 * time.Second
	pingWait  = 5 * time.Second
	retryMin  = time.Second
	retryMax  = 15 * time.Second
)

// Memory is what an instance remembers of a topic's rows, to keep in step with its announcements
// (a memo.Watched of its keys).
type Memory interface {
	Forget(keys ...string)
	Reset(live bool)
}

// Keep keeps m in step with topic's announcements until ctx ends: m forgets each key announced,
// and keeps nothing while the announcements are not heard; lost is told why they are not.
func (s *Store) Keep(ctx context.Context, topic Topic, m Memory, lost func(error)) {
	s.Follow(ctx, topic, func(h Heard) {
		switch {
		case h.All:
			if h.Err != nil {
				lost(h.Err)
			}
			m.Reset(h.Live)
		default:
			m.Forget(h.Changed...)
		}
	})
}

// Follow tells heard each announcement of topic, in the order their changes committed, until
// ctx ends, on a connection of its own that it connects again when lost. Whenever announcements
// may have been missed it says so (All, Live false) before anything else, and once heard again
// (All, Live), so that what heard keeps is never older than the last change it was told of.
func (s *Store) Follow(ctx context.Context, topic Topic, heard func(Heard)) {
	heard(Heard{All: true})
	for wait := retryMin; ; wait = min(2*wait, retryMax) {
		listened, err := s.listen(ctx, topic, heard)
		if ctx.Err() != nil {
			heard(Heard{All: true})
			return
		}
		heard(Heard{All: true, Err: err})
		if listened {
			wait = retryMin
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
}

// listen hears topic's announcements on one connection until ctx ends or the connection is lost;
// listened tells whether they were heard at all. They count as heard once the connection hears
// its own announcement (echo), and as long as it hears it again within pingWait of each: a
// connection that died silently, or a pooler between it and the server that keeps no session
// (PgBouncer's transaction pooling), would otherwise leave it deaf, believing it hears everything.
func (s *Store) listen(ctx context.Context, topic Topic, heard func(Heard)) (listened bool, err error) {
	defer wrap(&err, "Follow "+string(topic))
	var schema string
	if err := s.db.GetContext(ctx, &schema, `SELECT current_schema()`); err != nil {
		return false, err
	}
	notes := make(chan *pq.Notification, 64)
	cn, err := pq.NewListenerConn(s.dsn, notes)
	if err != nil {
		return false, err
	}
	// The connection hands over announcements one by one and waits until each is taken, the
	// answers to its own queries included: notes is read until the connection has closed it,
	// whatever ends this.
	defer func() {
		cn.Close()
		for range notes {
		}
	}()
	channel := schema + "." + string(topic)
	if _, err := cn.Listen(channel); err != nil {
		return false, err
	}
	echo := "?" + rand.Text() // a "?" payload is no key: the others ignore it
	echoed := make(chan struct{}, 1)
	echoing, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer stop()
	wg.Go(func() { keepEchoing(echoing, cn, channel, echo, echoed) })
	for {
		select {
		case <-ctx.Done():
			return listened, nil
		case n, ok := <-notes:
			switch {
			case !ok:
				return listened, cmp.Or(cn.Err(), errNotEchoed)
			case n.Extra == echo:
				if !listened {
					listened = true
					heard(Heard{All: true, Live: true})
				}
				select {
				case echoed <- struct{}{}:
				default:
				}
			case !listened, strings.HasPrefix(n.Extra, "?"):
			case n.Extra == "*":
				heard(Heard{All: true, Live: true})
			default:
				heard(Heard{Changed: strings.Split(n.Extra, ",")})
			}
		}
	}
}

// keepEchoing announces echo on channel over cn at once and every pingEvery until ctx ends, and
// closes cn when it is not heard back within pingWait.
func keepEchoing(ctx context.Context, cn *pq.ListenerConn, channel, echo string, echoed <-chan struct{}) {
	q := "NOTIFY " + pq.QuoteIdentifier(channel) + ", " + pq.QuoteLiteral(echo)
	for {
		sent := make(chan error, 1)
		go func() { _, err := cn.ExecSimpleQuery(q); sent <- err }()
		select {
		case <-ctx.Done():
			return
		case <-echoed:
		case <-time.After(pingWait):
			cn.Close()
			return
		}
		// The query's answer follows its echo; waiting for it must not outlast ctx, whose end
		// stops the reading of the announcements that the connection waits to hand over first.
		select {
		case <-ctx.Done():
			return
		case err := <-sent:
			if err != nil {
				cn.Close()
				return
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(pingEvery):
		}
	}
}

var errNotEchoed = errors.New("the announcements' connection did not hear its own announcement in time")
