package handlers

import (
	"context"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// memo keeps the last value of load for ttl and lets concurrent callers share one load, so a burst
// of requests costs one query. Errors are not kept.
type memo[T any] struct {
	ttl   time.Duration
	load  func(context.Context) (T, error)
	group singleflight.Group

	mu      sync.Mutex
	val     T
	expires time.Time
}

// memoLoadTimeout bounds a shared load, which outlives the request that started it.
const memoLoadTimeout = 10 * time.Second

func newMemo[T any](ttl time.Duration, load func(context.Context) (T, error)) *memo[T] {
	return &memo[T]{ttl: ttl, load: load}
}

func (m *memo[T]) get(ctx context.Context) (T, error) {
	m.mu.Lock()
	if time.Now().Before(m.expires) {
		v := m.val
		m.mu.Unlock()
		return v, nil
	}
	m.mu.Unlock()

	// The load is shared, so one caller giving up must not cancel it for the others.
	loadCtx := context.WithoutCancel(ctx)
	ch := m.group.DoChan("", func() (any, error) {
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
	select {
	case r := <-ch:
		if r.Err != nil {
			var zero T
			return zero, r.Err
		}
		return r.Val.(T), nil
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}
