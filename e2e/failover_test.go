package e2e

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lib/pq"
)

// A sale day on a pg_auto_failover formation (saleParams.ha): the ledger's primary is kill -9ed
// while payments come, the instances follow the new primary, and what the service told a client
// it had written must still be there (issue 51 §5). TestFailover (build tag long, make failover)
// runs it and writes bench/FAILOVER.md.

// failover is one kill -9 of the formation's primary, and when the ledger took writes again.
type failover struct {
	old, now                      string // the node killed, the node promoted
	killed, promoted, rejoined    time.Time
	unavailableSecs, unavailableN int // seconds from the kill on in which some client got a 503, and how many 503s
	err                           error
}

// failovers kills the formation's primary n times, the first at once, each next once the last
// one's old primary is back as the standby and 20 s have passed, and returns what each did.
func (s *saleDay) failovers(ctx context.Context, t *testing.T, n int) []failover {
	var out []failover
	for i := range n {
		if i > 0 && !sleepCtx(ctx, 20*time.Second) {
			break
		}
		f := failover{killed: time.Now()}
		if f.old, f.err = s.ha.KillPrimary(ctx); f.err == nil {
			if f.now, f.err = s.ha.WaitFailover(ctx, f.old); f.err == nil {
				f.promoted = time.Now()
				t.Logf("the ledger's primary %s kill -9ed; %s takes writes %v later", f.old, f.now, f.promoted.Sub(f.killed).Round(time.Second))
				if f.err = s.ha.Start(ctx, f.old); f.err == nil {
					f.rejoined = time.Now()
					t.Logf("%s back as the standby %v after the kill", f.old, f.rejoined.Sub(f.killed).Round(time.Second))
				}
			}
		}
		out = append(out, f)
		if f.err != nil {
			t.Errorf("failover %d: %v", i+1, f.err)
			break
		}
	}
	return out
}

// operatorWrites adds a referral code through the front every second until ctx ends, as an
// operator would, and returns the codes the service said it made (201).
func (s *saleDay) operatorWrites(ctx context.Context, stats *httpStats) []string {
	c := newClient(200_000)
	var acked []string
	for i := 0; ctx.Err() == nil; i++ {
		code := fmt.Sprintf("HA%05d", i)
		body := fmt.Sprintf(`{"code": %q, "owner": %q, "discountBps": 0, "commissionBps": 100}`, code, strings.ToLower(s.minter.Hex()))
		if _, status := c.do(ctx, s, http.MethodPost, "/api/admin/referral-codes", body, stats); status == http.StatusCreated {
			acked = append(acked, code)
		}
		sleepCtx(ctx, time.Second)
	}
	return acked
}

// lostWrites is how many of the codes acknowledged the ledger does not hold.
func (s *saleDay) lostWrites(t *testing.T, acked []string) int {
	t.Helper()
	var held int
	if err := s.ledger.DB().GetContext(t.Context(), &held, `SELECT count(*) FROM referral_codes WHERE code = ANY($1)`, pq.Array(acked)); err != nil {
		t.Fatal(err)
	}
	return len(acked) - held
}

// unavailability counts, for each failover, the seconds from its kill to the next kill (or the
// end) in which some client got a 503, and the 503s.
func unavailability(fs []failover, clients []clientStats) {
	var at []time.Time
	for _, c := range clients {
		c.st.mu.Lock()
		at = append(at, c.st.unavailable...)
		c.st.mu.Unlock()
	}
	slices.SortFunc(at, func(a, b time.Time) int { return a.Compare(b) })
	for i := range fs {
		end := time.Now()
		if i+1 < len(fs) {
			end = fs[i+1].killed
		}
		secs := map[int64]bool{}
		for _, a := range at {
			if !a.Before(fs[i].killed) && a.Before(end) {
				secs[a.Unix()] = true
				fs[i].unavailableN++
			}
		}
		fs[i].unavailableSecs = len(secs)
	}
}

// failoverRun is what a run with failovers adds to its result.
type failoverRun struct {
	failovers []failover
	writes    httpStats
	acked     []string
	lost      int       // codes acknowledged and not in the ledger
	clearedAt time.Time // when the ledger had first settled every payment
}

// check fails t unless the primary was killed kills times, each failover let writes in again
// within 30 s of 503s, the backlog cleared within 2 minutes of the last promotion, and every
// write acknowledged is in the ledger.
func (f *failoverRun) check(t *testing.T, kills int) {
	t.Helper()
	if len(f.failovers) != kills {
		t.Errorf("the ledger's primary failed over %d times, want %d", len(f.failovers), kills)
	}
	for i, fo := range f.failovers {
		if fo.unavailableSecs > 30 {
			t.Errorf("failover %d: %d seconds with a 503 (target 30)", i+1, fo.unavailableSecs)
		}
	}
	if last := f.lastPromoted(); f.clearedAt.IsZero() || f.clearedAt.Sub(last) > 2*time.Minute {
		t.Errorf("the backlog cleared %v after the last promotion (target 2 minutes)", f.clearedAt.Sub(last).Round(time.Second))
	}
	if f.lost > 0 {
		t.Errorf("%d of the %d referral codes the service acknowledged are not in the ledger", f.lost, len(f.acked))
	}
}

func (f *failoverRun) lastPromoted() time.Time {
	var last time.Time
	for _, fo := range f.failovers {
		if fo.promoted.After(last) {
			last = fo.promoted
		}
	}
	return last
}

// rows adds the failovers' figures to a result's table.
func (f *failoverRun) rows(row func(figure, value, target string, holds *bool)) {
	yes := func(v bool) *bool { return &v }
	for i, fo := range f.failovers {
		value := fmt.Sprintf("%s killed; %s took writes %v later; %d s with a 503 (%d answers)", fo.old, fo.now,
			fo.promoted.Sub(fo.killed).Round(time.Second), fo.unavailableSecs, fo.unavailableN)
		if !fo.rejoined.IsZero() {
			value += fmt.Sprintf("; %s back as the standby %v after the kill", fo.old, fo.rejoined.Sub(fo.killed).Round(time.Second))
		}
		if fo.err != nil {
			value += "; " + fo.err.Error()
		}
		row(fmt.Sprintf("failover %d of the ledger's primary (kill -9 of its keeper and server)", i+1), value,
			"≤ 30 s with a 503", yes(fo.err == nil && fo.unavailableSecs <= 30))
	}
	if last := f.lastPromoted(); !last.IsZero() {
		cleared := "not within the run"
		if !f.clearedAt.IsZero() {
			cleared = fmt.Sprintf("%v after the last promotion", f.clearedAt.Sub(last).Round(time.Second))
		}
		row("the backlog cleared", cleared, "within 2 minutes of the last promotion",
			yes(!f.clearedAt.IsZero() && f.clearedAt.Sub(last) <= 2*time.Minute))
	}
	row("referral codes the service acknowledged (201) and the ledger does not hold", fmt.Sprintf("%d of %d", f.lost, len(f.acked)), "0", yes(f.lost == 0))
}
