package store_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

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

// TestPassLookupsReadWhatIsOpen seeds a ledger of settled payments and their nodes, opens a
// burst of more, and wants each lookup the passes make at every pass or judgement to read a few
// pages, for a whale's wallet too: what is open, not what is settled. On a sale day's 13,000
// payments, DigestFrontier walked every settled one (31 ms a call, the costliest statement of
// the burst) and a judgement's WalletHoldings every node of the wallet's tier (3.4 ms).
func TestPassLookupsReadWhatIsOpen(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db, err := storetest.Open(ctx, storetest.EmptyDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Seed(ctx, store.SeedSize{Nodes: 5000, Owners: 100, Rounds: 2},
		func(string, time.Duration) {}); err != nil {
		t.Fatal(err)
	}
	// The wallet that holds the most nodes (the seed gives its first owner about a fifth).
	var whale struct {
		Owner string `db:"owner"`
		Nodes int    `db:"nodes"`
	}
	if err := db.DB().GetContext(ctx, &whale, `
		SELECT owner, count(*) AS nodes FROM nodes GROUP BY owner ORDER BY count(*) DESC LIMIT 1`); err != nil || whale.Nodes < 50 {
		t.Fatalf("the seed's whale holds %d nodes (%v); want a wallet with many", whale.Nodes, err)
	}
	// A sale's burst still open, in the last blocks: a quarter as many payments as are settled,
	// three of them the whale's.
	if _, err := db.DB().ExecContext(ctx, `
		INSERT INTO payments (tx_hash, payment_ref, from_address, value_wei, block_number, block_hash, status, tier,
			reason_code, reason_args)
		SELECT h, h, CASE WHEN i <= 3 THEN $1 ELSE '0x' || md5('buyer' || i % 300) || left(md5('buyer.' || i % 300), 8) END,
			1, 2000000 + i, h, s, 1, CASE s WHEN 'held' THEN 'kyc_required' END, CASE s WHEN 'held' THEN '{}'::jsonb END
		FROM generate_series(1, 1250) i,
			LATERAL (SELECT (ARRAY['pending', 'minting', 'held'])[i % 3 + 1] AS s,
				'0x' || md5('open' || i) || md5('open.' || i) AS h) x`, whale.Owner); err != nil {
		t.Fatal(err)
	}
	if _, err := db.DB().ExecContext(ctx, `
		INSERT INTO chain_cursors (name, block_number, block_hash)
		VALUES ('payments', 2001250, '0x' || repeat('ab', 32)), ('reconcile', 2001250, '0x' || repeat('cd', 32));
		ANALYZE`); err != nil {
		t.Fatal(err)
	}
	const most = 32 // pages: an index's root and leaf, a row or two, each lookup
	for name, q := range store.PassSQL(whale.Owner) {
		var plan []struct {
			Plan struct {
				Hit  int `json:"Shared Hit Blocks"`
				Read int `json:"Shared Read Blocks"`
			}
		}
		var out []byte
		if err := db.DB().GetContext(ctx, &out, `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) `+q.SQL, q.Args...); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := json.Unmarshal(out, &plan); err != nil || len(plan) != 1 {
			t.Fatalf("%s: the plan %s: %v", name, out, err)
		}
		if pages := plan[0].Plan.Hit + plan[0].Plan.Read; pages > most {
			t.Errorf("%s reads %d pages of a ledger of 5,000 settled payments and 1,250 open (the whale's %d nodes); want %d at most",
				name, pages, whale.Nodes, most)
		}
	}
}
