package views

import (
	"strings"
	"testing"

	"nodeledger/store"
)

func TestScheduleNote(t *testing.T) {
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
		{"due", store.Schedule{DueNodes: 1200, ScheduledNodes: 1200},
			"Every node is credited by each round; the next, for 1200 nodes, is due now."},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b strings.Builder
			if err := ScheduleNote(c.sc).Render(t.Context(), &b); err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(strings.Fields(b.String()), " "); got != c.want {
				t.Errorf("ScheduleNote(%+v) = %q, want %q", c.sc, got, c.want)
			}
		})
	}
}
