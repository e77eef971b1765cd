package handlers

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

func TestMemo(t *testing.T) {
	var calls atomic.Int32
	fail := atomic.Bool{}
	m := newMemo(50*time.Millisecond, 0, func(context.Context) (int32, error) {
		n := calls.Add(1)
		if fail.Load() {
			return 0, errors.New("down")
		}
		return n, nil
	})
	ctx := context.Background()

	if v, _ := m.get(ctx); v != 1 {
		t.Fatalf("first get %d", v)
	}
	if v, _ := m.get(ctx); v != 1 || calls.Load() != 1 {
		t.Fatalf("second get within ttl: value %d after %d loads", v, calls.Load())
	}
	time.Sleep(60 * time.Millisecond)
	if v, _ := m.get(ctx); v != 2 {
		t.Fatalf("get after ttl: %d, want a fresh load", v)
	}

	t.Run("errors are not kept", func(t *testing.T) {
		time.Sleep(60 * time.Millisecond)
		fail.Store(true)
		if _, err := m.get(ctx); err == nil {
			t.Fatal("want the load's error")
		}
		fail.Store(false)
		if v, err := m.get(ctx); err != nil || v != 4 {
			t.Fatalf("get after an error: %d, %v; want a fresh load", v, err)
		}
	})

	t.Run("a caller that gives up does not cancel the shared load", func(t *testing.T) {
		release := make(chan struct{})
		var loadErr atomic.Value
		m := newMemo(time.Minute, 0, func(ctx context.Context) (int, error) {
			<-release
			if err := ctx.Err(); err != nil {
				loadErr.Store(err)
			}
			return 7, nil
		})
		quitter, cancel := context.WithCancel(ctx)
		done := make(chan error)
		go func() { _, err := m.get(quitter); done <- err }()
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Fatalf("the quitter got %v", err)
		}
		close(release)
		if v, err := m.get(ctx); err != nil || v != 7 {
			t.Fatalf("got %d, %v", v, err)
		}
		if err := loadErr.Load(); err != nil {
			t.Fatalf("the shared load saw %v", err)
		}
	})

	t.Run("stale values are served while one load refreshes them", func(t *testing.T) {
		var loads atomic.Int32
		release := make(chan struct{}, 1)
		m := newMemo(20*time.Millisecond, 200*time.Millisecond, func(context.Context) (int32, error) {
			n := loads.Add(1)
			if n > 1 {
				<-release
			}
			return n, nil
		})
		if v, _ := m.get(ctx); v != 1 {
			t.Fatalf("first get %d", v)
		}
		time.Sleep(30 * time.Millisecond) // stale now
		for range 5 {
			if v, err := m.get(ctx); err != nil || v != 1 {
				t.Fatalf("stale get: %d, %v; want the old value at once", v, err)
			}
		}
		release <- struct{}{}
		deadline := time.Now().Add(2 * time.Second)
		for v, _ := m.get(ctx); v != 2; v, _ = m.get(ctx) {
			if time.Now().After(deadline) {
				t.Fatalf("the refresh never landed: %d", v)
			}
			time.Sleep(time.Millisecond)
		}
		if n := loads.Load(); n != 2 {
			t.Fatalf("%d loads for one refresh", n)
		}

		time.Sleep(250 * time.Millisecond) // past stale: callers wait for a fresh load
		release <- struct{}{}
		if v, err := m.get(ctx); err != nil || v != 3 {
			t.Fatalf("get past stale: %d, %v; want a fresh load", v, err)
		}
	})
}
