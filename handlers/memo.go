package handlers

import (
	"context"
	"maps"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// memo keeps the last value of load for ttl and lets concurrent callers share one load, so a burst
// of requests costs one query. For stale after that, a caller gets the old value at once while
// one load refreshes it in the background, so no caller waits on a slow query; past that, callers
// wait for a fresh load, and see its error. Errors are not kept. forget drops the value when this
// instance changed what it was loaded from, so its own writes show at once.
type memo[T any] struct {
	ttl, stale time.Duration
	load       func(context.Context) (T, error)
	group      singleflight.Group

	mu      sync.Mutex
	val     T
	expires time.Time // zero until the first load, and after forget
	gen     int       // forgets so far: a load that began before one keeps nothing
}

// memoLoadTimeout bounds a shared load, which outlives the request that started it.
const memoLoadTimeout = 10 * time.Second

func newMemo[T any](ttl, stale time.Duration, load func(context.Context) (T, error)) *memo[T] {
	return &memo[T]{ttl: ttl, stale: stale, load: load}
}

func (m *memo[T]) get(ctx context.Context) (T, error) {
	m.mu.Lock()
	v, expires := m.val, m.expires
	m.mu.Unlock()
	switch now := time.Now(); {
	case now.Before(expires):
		return v, nil
	case !expires.IsZero() && now.Before(expires.Add(m.stale)):
		m.refresh(ctx)
		return v, nil
	}
	var zero T
	select {
	case r := <-m.refresh(ctx):
		if r.Err != nil {
			return zero, r.Err
		}
		return r.Val.(T), nil
	case <-ctx.Done():
		return zero, ctx.Err()
	}
}

// refresh starts the shared load, unless one is under way, and returns its result's channel.
func (m *memo[T]) refresh(ctx context.Context) <-chan singleflight.Result {

	// The load is shared, so one caller giving up must not cancel it for the others.
	loadCtx := context.WithoutCancel(ctx)
	return m.group.DoChan("", func() (any, error) {
		ctx, cancel := context.WithTimeout(loadCtx, memoLoadTimeout)
		defer cancel()
		m.mu.Lock()
		gen := m.gen
		m.mu.Unlock()
		v, err := m.load(ctx)
		if err == nil {
			m.mu.Lock()
			if gen == m.gen {
				m.val, m.expires = v, time.Now().Add(m.ttl)
			}
			m.mu.Unlock()
		}
		return v, err
	})
}

// forget drops the kept value: the next get waits for a load that begins after this call.
func (m *memo[T]) forget() {
	m.mu.Lock()
	m.expires = time.Time{}
	m.gen++
	m.mu.Unlock()
	m.group.Forget("") // callers from now on start a new load rather than join one under way
}

// expiring is a map whose entries each last until their own time, and which holds at most max
// keys: a put of a new key when full first drops what has expired, then gives up.
type expiring[K comparable, V any] struct {
	max int

	mu sync.Mutex
	m  map[K]expiringEntry[V]
}

type expiringEntry[V any] struct {
	val   V
	until time.Time
}

func (e *expiring[K, V]) get(k K, now time.Time) (V, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	v, ok := e.m[k]
	if !ok || !now.Before(v.until) {
		var zero V
		return zero, false
	}
	return v.val, true
}

func (e *expiring[K, V]) put(k K, v V, until time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.m == nil {
		e.m = map[K]expiringEntry[V]{}
	}
	if _, ok := e.m[k]; !ok && len(e.m) >= e.max {
		now := time.Now()
		maps.DeleteFunc(e.m, func(_ K, v expiringEntry[V]) bool { return !now.Before(v.until) })
		if len(e.m) >= e.max {
			return
		}
	}
	e.m[k] = expiringEntry[V]{v, until}
}
