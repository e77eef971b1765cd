package store_test

import (
	"strings"
	"testing"

	"nodeledger/store"
)

// TestPollsUseIndexes plans each query readers poll with (a tracker every 2 s, /me) with
// sequential scans priced out, and wants every table it reads looked up through an index
// condition: a scan with none (a Seq Scan, or an index walked whole with a Filter) reads the
// table whole. A sale day's thousand trackers turned one such lookup into a database that timed
// out.
func TestPollsUseIndexes(t *testing.T) {
	ctx := t.Context()
	for name, q := range store.PollSQL {
		t.Run(name, func(t *testing.T) {
			tx, err := db.DB().BeginTxx(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback()
			if _, err := tx.ExecContext(ctx, `SET LOCAL enable_seqscan = off`); err != nil {
				t.Fatal(err)
			}
			var plan []string
			if err := tx.SelectContext(ctx, &plan, `EXPLAIN `+q.SQL, q.Args...); err != nil {
				t.Fatal(err)
			}
			if scan := wholeScan(plan); scan != "" {
				t.Errorf("%s reads a table whole (%s):\n%s", name, scan, strings.Join(plan, "\n"))
			}
		})
	}
}

// wholeScan is the first scan node of an EXPLAIN plan that has no index condition to seek with,
// "" when there is none.
func wholeScan(plan []string) string {
	for i, line := range plan {
		if !strings.Contains(line, " Scan ") && !strings.HasPrefix(strings.TrimSpace(line), "Seq Scan") {
			continue
		}
		node := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "->"))
		if strings.HasPrefix(node, "Seq Scan") {
			return node
		}
		seeks := false
		for _, attr := range plan[i+1:] {
			if strings.Contains(attr, "->") {
				break // the next node
			}
			if strings.Contains(attr, "Index Cond:") || strings.Contains(attr, "Recheck Cond:") {
				seeks = true
			}
		}
		if !seeks {
			return node
		}
	}
	return ""
}
