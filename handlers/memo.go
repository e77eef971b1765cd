package handlers

import (
	"context"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// memo keeps the last value of load for ttl and lets concurrent callers share one load, so a burst
// of requests costs one query. For stale after that, a caller gets the old value at once while
// one load refreshes it in the background, so no caller waits on a slow query; past that, callers
// wait for a fresh load, and see its error. Errors are not kept.
type memo[T any] struct {
	ttl, stale time.Duration
	load       func(context.Context) (T, error)
	group      singleflight.Group

	mu      sync.Mutex
	val     T
	expires time.Time // zero until the first load
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
		v, err := m.load(ctx)
		if err == nil {
			m.mu.Lock()
			m.val, m.expires = v, time.Now().Add(m.ttl)
			m.mu.Unlock()
		}
		return v, err
	})
}
