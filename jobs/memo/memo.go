// Package memo keeps values that many readers ask for and few changes move, so that a burst of
// requests costs one query: the sale's read model (jobs/sale) and the API's caches use it.
package memo

import (
	"context"
	"fmt"
	"maps"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// Value keeps the last value of load for ttl and lets concurrent callers share one load, so a burst
// of requests costs one query. For stale after that, a caller gets the old value at once while
// one load refreshes it in the background, so no caller waits on a slow query; past that, callers
// wait for a fresh load, and see its error. Errors are not kept. Forget drops the value when this
// instance changed what it was loaded from, so its own writes show at once.
type Value[T any] struct {
	ttl, stale time.Duration
	load       func(context.Context) (T, error)
	group      singleflight.Group
	now        func() time.Time // the clock ttl and stale are read on (NewOn)
	dep        error            // what load reads, named to a caller who gives up waiting (Reads)

	mu      sync.Mutex
	val     T
	expires time.Time // zero until the first load, and after forget
	gen     int       // forgets so far: a load that began before one keeps nothing
}

// memoLoadTimeout bounds a shared load, which outlives the request that started it.
const memoLoadTimeout = 10 * time.Second

// New is a Value loaded by load, kept ttl and served stale for stale more.
func New[T any](ttl, stale time.Duration, load func(context.Context) (T, error)) *Value[T] {
	return NewOn(time.Now, ttl, stale, load)
}

// NewOn is New on the clock now: a test steps it past ttl and stale instead of waiting them out.
func NewOn[T any](now func() time.Time, ttl, stale time.Duration, load func(context.Context) (T, error)) *Value[T] {
	return &Value[T]{ttl: ttl, stale: stale, load: load, now: now}
}

// Reads names the dependency load reads (store.ErrUnavailable, chain.ErrUnavailable): a caller
// whose deadline passes while it waits for a shared load gets its context's error marked with
// dep, so its answer says what was slow, as a load of its own would have.
func (m *Value[T]) Reads(dep error) *Value[T] {
	m.dep = dep
	return m
}

// Get is the value: kept, stale while a load refreshes it, or freshly loaded.
func (m *Value[T]) Get(ctx context.Context) (T, error) {
	m.mu.Lock()
	v, expires := m.val, m.expires
	m.mu.Unlock()
	switch now := m.now(); {
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
		if m.dep != nil {
			return zero, fmt.Errorf("waiting for a shared load: %w: %w", m.dep, ctx.Err())
		}
		return zero, ctx.Err()
	}
}

// refresh starts the shared load, unless one is under way, and returns its result's channel.
func (m *Value[T]) refresh(ctx context.Context) <-chan singleflight.Result {

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
				m.val, m.expires = v, m.now().Add(m.ttl)
			}
			m.mu.Unlock()
		}
		return v, err
	})
}

// Forget drops the kept value: the next get waits for a load that begins after this call.
func (m *Value[T]) Forget() {
	m.mu.Lock()
	m.expires = time.Time{}
	m.gen++
	m.mu.Unlock()
	m.group.Forget("") // callers from now on start a new load rather than join one under way
}

// Expiring is a map whose entries each last until their own time, and which holds at most Max
// keys: a put of a new key when full first drops what has expired, then gives up.
type Expiring[K comparable, V any] struct {
	Max int

	mu sync.Mutex
	m  map[K]expiringEntry[V]
}

type expiringEntry[V any] struct {
	val   V
	until time.Time
}

// Get is k's value, unless absent or expired at now.
func (e *Expiring[K, V]) Get(k K, now time.Time) (V, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	v, ok := e.m[k]
	if !ok || !now.Before(v.until) {
		var zero V
		return zero, false
	}
	return v.val, true
}

// Put keeps v for k until until.
func (e *Expiring[K, V]) Put(k K, v V, until time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.m == nil {
		e.m = map[K]expiringEntry[V]{}
	}
	if _, ok := e.m[k]; !ok && len(e.m) >= e.Max {
		now := time.Now()
		maps.DeleteFunc(e.m, func(_ K, v expiringEntry[V]) bool { return !now.Before(v.until) })
		if len(e.m) >= e.Max {
			return
		}
	}
	e.m[k] = expiringEntry[V]{v, until}
}
