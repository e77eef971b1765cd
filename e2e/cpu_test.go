package e2e

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// clockTicks is the kernel's USER_HZ, the unit of /proc's CPU times: 100 on every Linux this
// runs on (the value is fixed by the kernel's ABI, not configurable per machine).
const clockTicks = 100

// cpuWatch tells where a machine's CPU went over a stretch of a run, by kind of process (the
// chain, the database, the service, the test itself): on a machine whose every process shares
// two cores, a slow figure is only understood with it. It reads /proc every second, so a process
// killed between two reads loses at most its last second.
type cpuWatch struct {
	kind    func(pid int, comm string) string // "" leaves a process to "other"
	stop    chan struct{}
	stopped chan struct{}

	mu       sync.Mutex
	procs    map[procID]*procCPU
	from, to machineCPU
	began    time.Time
	took     time.Duration
}

type procID struct {
	pid   int
	start uint64 // its start time, in ticks since boot: a reused pid is another process
}

type procCPU struct {
	kind        string
	first, last uint64 // CPU ticks at the first and last read; first is 0 for one born since
}

// machineCPU is /proc/stat's first line, in ticks.
type machineCPU struct{ busy, idle, steal uint64 }

// watchCPU starts reading; kind names a process's kind from its pid and command name.
func watchCPU(kind func(pid int, comm string) string) *cpuWatch {
	w := &cpuWatch{kind: kind, stop: make(chan struct{}), stopped: make(chan struct{}), procs: map[procID]*procCPU{}}
	w.from, w.began = readMachineCPU(), time.Now()
	since := uptimeTicks()
	w.read(since)
	go func() {
		defer close(w.stopped)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-w.stop:
				w.read(since)
				w.mu.Lock()
				w.to, w.took = readMachineCPU(), time.Since(w.began)
				w.mu.Unlock()
				return
			case <-tick.C:
				w.read(since)
			}
		}
	}()
	return w
}

// read takes every process's CPU time; one started after since counts from zero.
func (w *cpuWatch) read(since uint64) {
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, d := range dirs {
		pid, _ := strconv.Atoi(filepath.Base(d))
		comm, start, ticks, ok := readProcStat(d)
		if !ok {
			continue
		}
		id := procID{pid, start}
		p := w.procs[id]
		if p == nil {
			p = &procCPU{kind: w.kind(pid, comm), first: ticks}
			if start >= since {
				p.first = 0
			}
			w.procs[id] = p
		}
		p.last = ticks
	}
}

// Stop ends the watch and returns its sentence: cores used on average by each kind, busiest
// first, then the rest of the machine's (what no kind names, and the processes that ended
// unseen), the time stolen by the hypervisor and what was idle.
func (w *cpuWatch) Stop() string {
	close(w.stop)
	<-w.stopped
	w.mu.Lock()
	defer w.mu.Unlock()
	secs := w.took.Seconds()
	cores := func(ticks uint64) float64 { return float64(ticks) / clockTicks / secs }
	byKind := map[string]uint64{}
	var named uint64
	for _, p := range w.procs {
		if p.kind != "" {
			byKind[p.kind] += p.last - p.first
			named += p.last - p.first
		}
	}
	kinds := make([]string, 0, len(byKind))
	for k := range byKind {
		kinds = append(kinds, k)
	}
	slices.SortFunc(kinds, func(a, b string) int { return cmp.Compare(byKind[b], byKind[a]) })
	parts := make([]string, 0, len(kinds)+3)
	for _, k := range kinds {
		parts = append(parts, fmt.Sprintf("%s %.2f", k, cores(byKind[k])))
	}
	busy := w.to.busy - w.from.busy
	parts = append(parts, fmt.Sprintf("the rest %.2f", cores(busy-min(busy, named))),
		fmt.Sprintf("stolen by the hypervisor %.2f", cores(w.to.steal-w.from.steal)),
		fmt.Sprintf("idle %.2f", cores(w.to.idle-w.from.idle)))
	return fmt.Sprintf("cores on average over %v: %s", w.took.Round(time.Second), strings.Join(parts, ", "))
}

// readProcStat reads a process's command name, start time and CPU time (user + system) from
// /proc/<pid>/stat; ok is false when it has gone.
func readProcStat(dir string) (comm string, start, ticks uint64, ok bool) {
	b, err := os.ReadFile(filepath.Join(dir, "stat"))
	if err != nil {
		return "", 0, 0, false
	}
	// "pid (comm) state ppid …": the name may hold spaces and parentheses, so it ends at the last ')'.
	s := string(b)
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || end < open {
		return "", 0, 0, false
	}
	f := strings.Fields(s[end+1:]) // f[0] is field 3 (state): field n is f[n-3]
	if len(f) < 20 {
		return "", 0, 0, false
	}
	utime, _ := strconv.ParseUint(f[14-3], 10, 64)
	stime, _ := strconv.ParseUint(f[15-3], 10, 64)
	start, _ = strconv.ParseUint(f[22-3], 10, 64)
	return s[open+1 : end], start, utime + stime, true
}

// readMachineCPU reads the machine's busy, idle and stolen ticks from /proc/stat.
func readMachineCPU() machineCPU {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return machineCPU{}
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line) // cpu user nice system idle iowait irq softirq steal …
	v := func(i int) uint64 {
		if i >= len(f) {
			return 0
		}
		n, _ := strconv.ParseUint(f[i], 10, 64)
		return n
	}
	return machineCPU{busy: v(1) + v(2) + v(3) + v(6) + v(7), idle: v(4) + v(5), steal: v(8)}
}

// uptimeTicks is the time since boot, in ticks: what a process's start time counts.
func uptimeTicks() uint64 {
	b, err := os.ReadFile("/proc/uptime")
	if err != nil {
		return 0
	}
	up, _, _ := strings.Cut(string(b), " ")
	secs, _ := strconv.ParseFloat(up, 64)
	return uint64(secs * clockTicks)
}

func TestCPUWatch(t *testing.T) {
	t.Parallel()
	w := watchCPU(func(pid int, _ string) string {
		if pid == os.Getpid() {
			return "this test"
		}
		return ""
	})
	// A core's worth of work for 1.5 s, then the sentence must give this process most of a core.
	for start, x := time.Now(), 0; time.Since(start) < 1500*time.Millisecond; x++ {
		_ = x * x
	}
	got := w.Stop()
	var cores float64
	if _, after, ok := strings.Cut(got, "this test "); !ok {
		t.Fatalf("no share for this test in %q", got)
	} else if _, err := fmt.Sscanf(after, "%f", &cores); err != nil || cores < 0.5 {
		t.Fatalf("this test used %.2f cores in %q, want about one", cores, got)
	}
	if !strings.Contains(got, "idle ") || !strings.Contains(got, "the rest ") {
		t.Fatalf("sentence %q", got)
	}
}
