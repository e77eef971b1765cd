package memo

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// clock is a time the test moves by hand: a memo's ttl and stale pass when the test says, not
// after a sleep. A shared load reads it from its own goroutine.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)} }

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func TestMemo(t *testing.T) {
	var calls atomic.Int32
	fail := atomic.Bool{}
	clock := newClock()
	m := NewOn(clock.now, 50*time.Millisecond, 0, func(context.Context) (int32, error) {
		n := calls.Add(1)
		if fail.Load() {
			return 0, errors.New("down")
		}
		return n, nil
	})
	ctx := context.Background()

	if v, _ := m.Get(ctx); v != 1 {
		t.Fatalf("first get %d", v)
	}
	if v, _ := m.Get(ctx); v != 1 || calls.Load() != 1 {
		t.Fatalf("second get within ttl: value %d after %d loads", v, calls.Load())
	}
	clock.add(50*time.Millisecond - time.Nanosecond)
	if v, _ := m.Get(ctx); v != 1 || calls.Load() != 1 {
		t.Fatalf("get at the end of the ttl: value %d after %d loads", v, calls.Load())
	}
	clock.add(time.Nanosecond)
	if v, _ := m.Get(ctx); v != 2 {
		t.Fatalf("get after ttl: %d, want a fresh load", v)
	}

	t.Run("errors are not kept", func(t *testing.T) {
		clock.add(50 * time.Millisecond)
		fail.Store(true)
		if _, err := m.Get(ctx); err == nil {
			t.Fatal("want the load's error")
		}
		fail.Store(false)
		if v, err := m.Get(ctx); err != nil || v != 4 {
			t.Fatalf("get after an error: %d, %v; want a fresh load", v, err)
		}
	})

	t.Run("a caller that gives up does not cancel the shared load", func(t *testing.T) {
		release := make(chan struct{})
		var loadErr atomic.Value
		m := New(time.Minute, 0, func(ctx context.Context) (int, error) {
			<-release
			if err := ctx.Err(); err != nil {
				loadErr.Store(err)
			}
			return 7, nil
		})
		quitter, cancel := context.WithCancel(ctx)
		done := make(chan error)
		go func() { _, err := m.Get(quitter); done <- err }()
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Fatalf("the quitter got %v", err)
		}
		close(release)
		if v, err := m.Get(ctx); err != nil || v != 7 {
			t.Fatalf("got %d, %v", v, err)
		}
		if err := loadErr.Load(); err != nil {
			t.Fatalf("the shared load saw %v", err)
		}
	})

	t.Run("a caller that gives up is told what the load reads", func(t *testing.T) {
		errDatabase := errors.New("database unavailable")
		release := make(chan struct{})
		defer close(release)
		m := New(time.Minute, 0, func(context.Context) (int, error) { <-release; return 7, nil }).Reads(errDatabase)
		late, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
		defer cancel()
		_, err := m.Get(late)
		if !errors.Is(err, errDatabase) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("got %v, want the dependency and the deadline", err)
		}
	})

	t.Run("stale values are served while one load refreshes them", func(t *testing.T) {
		var loads atomic.Int32
		release := make(chan struct{}, 1)
		clock := newClock()
		m := NewOn(clock.now, 20*time.Millisecond, 200*time.Millisecond, func(context.Context) (int32, error) {
			n := loads.Add(1)
			if n > 1 {
				<-release
			}
			return n, nil
		})
		if v, _ := m.Get(ctx); v != 1 {
			t.Fatalf("first get %d", v)
		}
		clock.add(30 * time.Millisecond) // stale now
		for range 5 {
			if v, err := m.Get(ctx); err != nil || v != 1 {
				t.Fatalf("stale get: %d, %v; want the old value at once", v, err)
			}
		}
		release <- struct{}{}
		deadline := time.Now().Add(2 * time.Second)
		for v, _ := m.Get(ctx); v != 2; v, _ = m.Get(ctx) {
			if time.Now().After(deadline) {
				t.Fatalf("the refresh never landed: %d", v)
			}
			time.Sleep(time.Millisecond)
		}
		if n := loads.Load(); n != 2 {
			t.Fatalf("%d loads for one refresh", n)
		}

		clock.add(220 * time.Millisecond) // stale until 20+200 ms after the refresh landed: past it now
		release <- struct{}{}
		if v, err := m.Get(ctx); err != nil || v != 3 {
			t.Fatalf("get past stale: %d, %v; want a fresh load", v, err)
		}
	})
	t.Run("forget: the next get loads afresh, and a load under way keeps nothing", func(t *testing.T) {
		var source atomic.Int32 // what the memo is loaded from
		started, release := make(chan struct{}, 1), make(chan struct{})
		slow := atomic.Bool{}
		m := New(time.Minute, 0, func(context.Context) (int32, error) {
			v := source.Load()
			if slow.Load() {
				started <- struct{}{}
				<-release
			}
			return v, nil
		})
		if v, _ := m.Get(ctx); v != 0 {
			t.Fatalf("first get %d", v)
		}
		source.Store(1)
		m.Forget()
		if v, _ := m.Get(ctx); v != 1 {
			t.Fatalf("get after forget: %d, want the new value", v)
		}

		// A load that read the source before the write must not keep what it read.
		m.Forget()
		slow.Store(true)
		old := make(chan int32)
		go func() { v, _ := m.Get(ctx); old <- v }()
		<-started
		source.Store(2)
		m.Forget()
		slow.Store(false)
		close(release)
		if v := <-old; v != 1 {
			t.Fatalf("the caller before the write got %d", v)
		}
		if v, _ := m.Get(ctx); v != 2 {
			t.Fatalf("get after the write: %d, want 2, not the value read before it", v)
		}
	})
}

func TestExpiring(t *testing.T) {
	e := &Expiring[string, int]{Max: 2}
	now := time.Now()
	e.Put("a", 1, now.Add(time.Second))
	if v, ok := e.Get("a", now); !ok || v != 1 {
		t.Fatalf("get a: %d, %v", v, ok)
	}
	if _, ok := e.Get("a", now.Add(time.Second)); ok {
		t.Fatal("a is kept past its time")
	}
	e.Put("b", 2, now.Add(time.Hour))
	e.Put("c", 3, now.Add(time.Hour)) // full of live entries: c is not kept
	if _, ok := e.Get("c", now); ok || len(e.m) != 2 {
		t.Fatalf("kept past max: %v", e.m)
	}
	e.Put("a", 1, now.Add(-time.Second)) // a has expired: the next put makes room by dropping it
	e.Put("c", 3, now.Add(time.Hour))
	if v, ok := e.Get("c", now); !ok || v != 3 {
		t.Fatalf("c not kept once a expired: %v", e.m)
	}
	if _, ok := e.Get("b", now); !ok {
		t.Fatal("b, still live, was dropped")
	}
}

// TestWatchedKeepsNoReadOlderThanAChange checks Watched's rules: nothing is kept until live; a
// read that began before its key was forgotten, or before another read of it, keeps nothing;
// an entry lasts until its time; a full map keeps no new key until entries expire; a reset
// drops everything.
func TestWatchedKeepsNoReadOlderThanAChange(t *testing.T) {
	w := &Watched[string, int]{Max: 2}
	now := time.Now()
	later := now.Add(time.Minute)
	get := func(k string, at time.Time) int {
		t.Helper()
		v, ok := w.Get(k, at)
		if !ok {
			return -1
		}
		return v
	}
	if r := w.Reading("a", now); r != 0 {
		t.Fatalf("not live, a read got ticket %d", r)
	}
	w.Reset(true)
	r := w.Reading("a", now)
	if get("a", now) != -1 {
		t.Fatal("a read under way is served")
	}
	w.Forget("a")
	w.Put("a", r, 1, later)
	if v := get("a", now); v != -1 {
		t.Fatalf("a read that began before its key was forgotten was kept (%d)", v)
	}
	w.Put("a", w.Reading("a", now), 1, later)
	if v := get("a", now); v != 1 {
		t.Fatalf("a read kept %d, want 1", v)
	}
	first, second := w.Reading("b", now), w.Reading("b", now)
	w.Put("b", first, 1, later)
	if v := get("b", now); v != -1 {
		t.Fatalf("the earlier of two reads was kept (%d)", v)
	}
	w.Put("b", second, 2, later)
	if v := get("b", now); v != 2 {
		t.Fatalf("the later read kept %d, want 2", v)
	}
	if r := w.Reading("c", now); r != 0 {
		t.Fatal("a full map began keeping a new key")
	}
	if v := get("a", later); v != -1 {
		t.Fatalf("an entry was served past its time (%d)", v)
	}
	if r := w.Reading("c", later); r == 0 {
		t.Fatal("a full map of expired entries kept no new key")
	}
	w.Reset(false)
	if v := get("b", now); v != -1 {
		t.Fatalf("a reset kept an entry (%d)", v)
	}
	if r := w.Reading("b", now); r != 0 {
		t.Fatal("no longer live, a read got a ticket")
	}
}

// TestWatchedWeighsWhatItKeeps: with Weigh, what is kept weighs MaxWeight at most; a value that
// would pass it is not kept (nor its read's place), a full weight keeps no new key until entries
// expire or are forgotten, and a key read again weighs its new value alone.
func TestWatchedWeighsWhatItKeeps(t *testing.T) {
	w := &Watched[string, string]{Max: 100, Weigh: func(v string) int { return len(v) }, MaxWeight: 10}
	w.Reset(true)
	now := time.Now()
	later := now.Add(time.Minute)
	keep := func(k, v string, at time.Time) bool {
		t.Helper()
		w.Put(k, w.Reading(k, at), v, at.Add(time.Minute))
		got, ok := w.Get(k, at)
		return ok && got == v
	}
	if !keep("a", "123456", now) {
		t.Fatal("a value within the weight was not kept")
	}
	if keep("b", "12345", now) {
		t.Fatal("a value past the weight was kept")
	}
	if !keep("b", "1234", now) {
		t.Fatal("a value that fills the weight exactly was not kept")
	}
	if r := w.Reading("c", now); r != 0 {
		t.Fatal("a full weight began keeping a new key")
	}
	if !keep("a", "12", now) || !keep("c", "1234", now) {
		t.Fatal("a key read again still weighs its old value")
	}
	w.Forget("a", "b", "c")
	if !keep("d", "1234567890", now) {
		t.Fatal("forgotten keys still weigh")
	}
	if !keep("e", "12345", later.Add(time.Second)) {
		t.Fatal("an expired entry still weighs")
	}
}

// TestWatchedCountsItsReads: a named Watched counts each read by what answered it.
func TestWatchedCountsItsReads(t *testing.T) {
	w := &Watched[string, int]{Name: "counted", Max: 10}
	memory, ledger := keptReads.WithLabelValues("counted", "memory"), keptReads.WithLabelValues("counted", "ledger")
	now := time.Now()
	w.Get("a", now) // not live: the ledger answers
	w.Reset(true)
	w.Put("a", w.Reading("a", now), 1, now.Add(time.Minute))
	w.Get("a", now)
	w.Get("a", now)
	w.Get("b", now)
	if m, l := testutil.ToFloat64(memory), testutil.ToFloat64(ledger); m != 2 || l != 2 {
		t.Fatalf("counted %v from memory and %v from the ledger, want 2 and 2", m, l)
	}
}
