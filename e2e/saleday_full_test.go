//go:build long

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestSaleDay is `make saleday` (bench/saleday.sh): the sale day on this machine. geth
// --dev mines a block every 2 s with a 30M gas limit; three instances of the real binary share
// one PostgreSQL behind HAProxy, their passes as shipped (payments at every head, the others on
// the default tick); 1,000 wallets send 10,000 payments over 10 minutes (5 % wrong, every other
// one in a listed USDC), then 3,000 within 30 s, while 1,000 trackers and 200 pollers read
// through HAProxy, and one instance is kill -9ed every 2 minutes and restarted, until the
// backlog has cleared (at most 15 minutes after the last payment). SALEDAY_SCALE (1) scales the
// counts of wallets, payments and clients, not the times; SALEDAY_USDC=0 makes every payment in
// ETH, SALEDAY_TRACKERS sets how many trackers poll (bench/SALEDAY-<n>.md then), and
// SALEDAY_SETTINGS adds settings to the instances' (KEY=VALUE, space-separated: a trial of a
// setting, whose report names it). It writes the figures and the targets to bench/SALEDAY.md, and fails only on
// correctness: a payment lost or doubled, a wrong one not rejected for its reason, the sold-out
// tier's supply exceeded, a 5xx.
func TestSaleDay(t *testing.T) {
	scale := scaleOf(t, "SALEDAY_SCALE")
	n := func(full int) int { return max(1, int(float64(full)*scale+0.5)) }
	usdc := os.Getenv("SALEDAY_USDC") != "0"
	trackers := n(1000)
	if v := os.Getenv("SALEDAY_TRACKERS"); v != "" {
		k, err := strconv.Atoi(v)
		if err != nil || k < 1 || k > 10_000 {
			t.Fatalf("SALEDAY_TRACKERS=%q: give a number of trackers from 1 to 10000", v)
		}
		trackers = k
	}
	profiles := filepath.Join(root, ".data", "saleday")
	if err := os.MkdirAll(profiles, 0o750); err != nil {
		t.Fatal(err)
	}
	p := saleParams{
		instances: 3, blockSec: 2, gasLimit: 30_000_000, confirmations: 12, // the default CONFIRMATIONS
		wallets: n(1000), steady: n(10_000), steadyFor: 10 * time.Minute, burst: n(3000), burstFor: 30 * time.Second,
		trackers: trackers, pollers: n(200), killEvery: 2 * time.Minute, drainFor: 15 * time.Minute,
		haproxy: true, profiles: profiles, usdc: usdc, verifyAll: true, screened: true,
	}
	p.env = strings.Fields(os.Getenv("SALEDAY_SETTINGS"))
	r := runSaleDay(t, p)

	var note strings.Builder
	if !usdc {
		note.WriteString(" and SALEDAY_USDC=0 (**a comparison run**: every payment in ETH)")
	}
	file, command := "SALEDAY.md", "make saleday"
	if trackers != n(1000) { // the crowd's run, beside the 1,000 one: bench/SALEDAY-3000.md
		fmt.Fprintf(&note, " and SALEDAY_TRACKERS=%d (%d trackers instead of %d)", trackers, trackers, n(1000))
		file, command = fmt.Sprintf("SALEDAY-%d.md", trackers), fmt.Sprintf("SALEDAY_TRACKERS=%d make saleday", trackers)
	}
	report(t, file, "Sale day", command, "SALEDAY_SCALE", scale, note.String(), r)
}

// report writes a long run's figures and targets to bench/file, with the command, the commit,
// the scale and the machine, and fails t on what the run got wrong.
func report(t *testing.T, file, title, command, scaleVar string, scale float64, note string, r *saleResult) {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n`%s` on %s, commit %s, at %s=%g%s", title, command, time.Now().UTC().Format("2006-01-02 15:04 MST"), gitCommit(), scaleVar, scale, note)
	if scale != 1 {
		fmt.Fprintf(&b, " (**a scaled run**: %g× the issue's wallets, payments and clients, over the same times; not the full run)", scale)
	}
	fmt.Fprintf(&b, ", on %s.\n\n", machine())
	b.WriteString(r.summary())
	if r.p.profiles != "" {
		fmt.Fprintf(&b, "\nCPU profiles of each instance over the burst's first 30 s: `%s/instance-N-burst.pprof` (`go tool pprof -top FILE`), not committed.\n",
			strings.TrimPrefix(r.p.profiles, root+"/"))
	}
	t.Log("\n" + b.String())
	if err := os.WriteFile(filepath.Join(root, "bench", file), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	r.check(t)
}

// scaleOf is the scale a long run's variable (SALEDAY_SCALE, FAILOVER_SCALE) gives, 1 unset.
func scaleOf(t *testing.T, name string) float64 {
	v := os.Getenv(name)
	if v == "" {
		return 1
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f <= 0 || f > 10 {
		t.Fatalf("%s=%q: give a number above 0, at most 10", name, v)
	}
	return f
}

// machine names the processor, its cores and the memory, and how busy it was.
func machine() string {
	model := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "model name"); ok {
				model = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), ":"))
				break
			}
		}
	}
	mem := ""
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		if v, ok := strings.CutPrefix(strings.SplitN(string(b), "\n", 2)[0], "MemTotal:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			mem = fmt.Sprintf(", %.0f GB", float64(kb)/1024/1024)
		}
	}
	kernel, _ := exec.Command("uname", "-r").Output()
	// The machine is shared: its load at the end says how much else ran beside the sale.
	load, _ := os.ReadFile("/proc/loadavg")
	loads := strings.Fields(string(load))
	if len(loads) >= 3 {
		loads = loads[:3]
	}
	return fmt.Sprintf("%s × %d cores%s, Linux %s, %s; load average at the end %s (1, 5, 15 min)", model, runtime.NumCPU(), mem,
		strings.TrimSpace(string(kernel)), runtime.Version(), strings.Join(loads, ", "))
}
