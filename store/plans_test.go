package store_test

import (
	"errors"
	"strings"
	"testing"

	"nodeledger/store"
	"nodeledger/store/storetest"
)

// TestPollsUseIndexes plans each query readers poll with (a tracker every 2 s, /me) with
// sequential scans priced out, and wants every table it reads looked up through an index
// condition: a scan with none (a Seq Scan, or an index walked whole with a Filter) reads the
// table whole. A sale day's thousand trackers turned one such lookup into a database that timed
// out.
func TestPollsUseIndexes(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
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

// TestPollsArePlannedOnce runs each poll's store method on one connection and wants PostgreSQL
// to run it with a plan it keeps: planning the tracker's poll anew each time cost thirty times
// what running it did, three quarters of the database's time on a sale day.
func TestPollsArePlannedOnce(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s, err := storetest.Open(ctx, storetest.NewURL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.LimitConns(1) // so that the session asked below is the one that ran the polls
	polls := map[string]func() error{
		"PaymentByTx": func() error {
			_, err := s.PaymentByTx(ctx, "0x00000000000000000000000000000000000000000000000000000000000000aa")
			if errors.Is(err, store.ErrNotFound) {
				return nil
			}
			return err
		},
		"HeadPaymentByTx": func() error {
			_, err := s.HeadPaymentByTx(ctx, "0x00000000000000000000000000000000000000000000000000000000000000aa")
			if errors.Is(err, store.ErrNotFound) {
				return nil
			}
			return err
		},
		"PaymentsFrom": func() error {
			_, err := s.PaymentsFrom(ctx, "0x00000000000000000000000000000000000000aa", 20)
			return err
		},
	}
	for name, poll := range polls {
		for range 10 {
			if err := poll(); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		var plans struct {
			Generic int `db:"generic_plans"`
			Custom  int `db:"custom_plans"`
		}
		err := s.DB().GetContext(ctx, &plans, `SELECT generic_plans, custom_plans FROM pg_prepared_statements
			WHERE statement = $1`, strings.TrimSpace(store.PollSQL[name].SQL))
		if err != nil {
			t.Fatalf("%s is not a prepared statement of the session that ran it: %v", name, err)
		}
		if plans.Generic < 5 {
			t.Errorf("%s: of 10 runs, %d with the kept plan, %d planned anew; want the last five at least kept", name, plans.Generic, plans.Custom)
		}
	}
}
