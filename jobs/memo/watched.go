package memo

import (
	"maps"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Watched is a map of what was read of keys whose changes its owner is told of (Forget): an
// entry lasts until its key is forgotten, or its own time at the latest, and holds at most Max
// keys. A read that began before its key was forgotten keeps nothing, so no entry is older than
// the last change told of. Until Reset says the changes are told (live), it keeps nothing.
type Watched[K comparable, V any] struct {
	Name string // with one, its reads are counted (nodeledger_kept_reads_total)
	Max  int
	// With Weigh, the values kept weigh MaxWeight at most together (their bytes, say): one that
	// would take them past it is not kept.
	Weigh     func(V) int
	MaxWeight int

	mu           sync.Mutex
	live         bool
	m            map[K]watchedEntry[V]
	reads        Ticket // the last ticket handed out
	weight       int    // of the values kept
	kept, missed prometheus.Counter
}

// Ticket is a read under way (Reading); 0 keeps nothing.
type Ticket uint64

type watchedEntry[V any] struct {
	val    V
	until  time.Time
	read   Ticket // the read under way, while val is not set yet
	weight int
}

// readingFor bounds how long a read under way holds its key's place, for one that never puts.
const readingFor = 10 * time.Second

// Get is k's value, unless absent, still being read or past its time at now.
func (w *Watched[K, V]) Get(k K, now time.Time) (V, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.Name != "" && w.kept == nil {
		w.kept, w.missed = keptReads.WithLabelValues(w.Name, "memory"), keptReads.WithLabelValues(w.Name, "ledger")
	}
	e, ok := w.m[k]
	if !ok || e.read != 0 || !now.Before(e.until) {
		if w.missed != nil {
			w.missed.Inc()
		}
		var zero V
		return zero, false
	}
	if w.kept != nil {
		w.kept.Inc()
	}
	return e.val, true
}

// Reading marks a read of k that begins at now: Put keeps its value only if k was not forgotten
// since (nor another read of k begun). 0 while not live, or full.
func (w *Watched[K, V]) Reading(k K, now time.Time) Ticket {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.live {
		return 0
	}
	if _, ok := w.m[k]; !ok && w.full() {
		maps.DeleteFunc(w.m, func(_ K, e watchedEntry[V]) bool {
			if now.Before(e.until) {
				return false
			}
			w.weight -= e.weight
			return true
		})
		if w.full() {
			return 0
		}
	}
	w.reads++
	w.weight -= w.m[k].weight
	w.m[k] = watchedEntry[V]{until: now.Add(readingFor), read: w.reads}
	return w.reads
}

func (w *Watched[K, V]) full() bool {
	return len(w.m) >= w.Max || w.Weigh != nil && w.weight >= w.MaxWeight
}

// Put keeps v, read under ticket t, for k until until, unless k was forgotten since t was given.
func (w *Watched[K, V]) Put(k K, t Ticket, v V, until time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	e, ok := w.m[k]
	if !ok || t == 0 || e.read != t {
		return
	}
	weight := 0
	if w.Weigh != nil {
		if weight = w.Weigh(v); w.weight+weight > w.MaxWeight {
			delete(w.m, k)
			return
		}
	}
	w.weight += weight
	w.m[k] = watchedEntry[V]{val: v, until: until, weight: weight}
}

// Forget drops keys ks, and any read of them under way: they changed.
func (w *Watched[K, V]) Forget(ks ...K) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, k := range ks {
		w.weight -= w.m[k].weight
		delete(w.m, k)
	}
}

// Reset drops every key and read under way, and keeps from then on only while live: any key
// may have changed, or changes may not be told.
func (w *Watched[K, V]) Reset(live bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.live, w.m, w.weight = live, map[K]watchedEntry[V]{}, 0
}
