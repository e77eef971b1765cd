package views

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"nodeledger/store"
)

func TestScheduleNote(t *testing.T) {
	inThreeHours := time.Now().Add(3*time.Hour + 30*time.Minute)
	for _, c := range []struct {
		name string
		sc   store.Schedule
		want string
	}{
		{"nothing scheduled", store.Schedule{}, "No node is scheduled yet."},
		{"one node, not due", store.Schedule{ScheduledNodes: 1},
			"Every node is credited by each round; 1 node takes part in the next."},
		{"not due", store.Schedule{ScheduledNodes: 1200},
			"Every node is credited by each round; 1200 nodes take part in the next."},
		{"not due, next round known", store.Schedule{ScheduledNodes: 3, NextAt: &inThreeHours},
			"Every node is credited by each round; 3 nodes take part in the next, in 3 hours."},
		{"due", store.Schedule{DueNodes: 1200, ScheduledNodes: 1200},
			"Every node is credited by each round; the next, for 1200 nodes, is due now."},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b strings.Builder
			if err := ScheduleNote(c.sc).Render(t.Context(), &b); err != nil {
				t.Fatal(err)
			}
			text := regexp.MustCompile(`<[^>]*>`).ReplaceAllString(b.String(), "") // what people read
			if got := strings.Join(strings.Fields(text), " "); got != c.want {
				t.Errorf("ScheduleNote(%+v) = %q, want %q", c.sc, got, c.want)
			}
		})
	}
}

func TestDatabaseCard(t *testing.T) {
	lag := 300 * time.Millisecond
	for _, c := range []struct {
		name    string
		rep     *store.Replication
		readLag *time.Duration
		want    string
	}{
		{"unreadable", nil, nil, "Database standbys unreadable give the service's database user pg_monitor to see its standbys"},
		{"no standby", &store.Replication{Known: true}, nil,
			"Database standbys none a failover would lose the last writes: the primary has no standby"},
		{"asynchronous", &store.Replication{Known: true, Standbys: 1}, nil,
			"Database standbys 1 standby, 0 synchronous none synchronous: a failover would lose the last writes"},
		{"in step", &store.Replication{Known: true, Standbys: 2, Synchronous: 1}, nil,
			"Database standbys 2 standbys, 1 synchronous replaying in step with the primary"},
		{"behind, read from", &store.Replication{Known: true, Standbys: 1, Synchronous: 1, MaxReplayLagSec: 2.26}, &lag,
			"Database standbys 1 standby, 1 synchronous the slowest replays 2.3 s behind public reads from a standby 0.3 s behind"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b strings.Builder
			if err := DatabaseCard(c.rep, c.readLag).Render(t.Context(), &b); err != nil {
				t.Fatal(err)
			}
			text := regexp.MustCompile(`<[^>]*>`).ReplaceAllString(b.String(), " ") // each block apart, as read
			text = strings.ReplaceAll(text, "&#39;", "'")
			if got := strings.Join(strings.Fields(text), " "); got != c.want {
				t.Errorf("DatabaseCard = %q, want %q", got, c.want)
			}
		})
	}
}
