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
