package store_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"os"
	"strconv"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"nodeledger/migrations"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

func TestMigrateTwoInstancesAtOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := storetest.EmptyDatabase(t)

	// A migration slow enough that the second instance arrives while the first is applying it;
	// without the lock both would create the table and one would fail.
	fsys := fstest.MapFS{
		"0001_a.sql": {Data: []byte(`SELECT pg_sleep(0.3); CREATE TABLE a (id int);`)},
		"0002_b.sql": {Data: []byte(`CREATE TABLE b (id int);`)},
	}
	var wg sync.WaitGroup
	applied := make([][]string, 4)
	errs := make([]error, 4)
	for i := range applied {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := store.Open(ctx, url)
			if err != nil {
				errs[i] = err
				return
			}
			defer s.Close()
			applied[i], errs[i] = s.Migrate(ctx, fsys)
		}()
	}
	wg.Wait()
	total := 0
	for i := range applied {
		if errs[i] != nil {
			t.Fatalf("instance %d: %v", i, errs[i])
		}
		total += len(applied[i])
	}
	if total != 2 {
		t.Fatalf("applied %v: want each of the 2 files applied exactly once in all", applied)
	}

	// A later start applies only what is new.
	s, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fsys["0003_c.sql"] = &fstest.MapFile{Data: []byte(`CREATE TABLE c (id int);`)}
	got, err := s.Migrate(ctx, fsys)
	if err != nil || len(got) != 1 || got[0] != "0003_c.sql" {
		t.Fatalf("third migration: applied %v, err %v", got, err)
	}
}

func TestMigrateFailureIsRolledBack(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := storetest.EmptyDatabase(t)
	s, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fsys := fstest.MapFS{"0001_bad.sql": {Data: []byte(`CREATE TABLE x (id int); SELECT nope;`)}}
	if _, err := s.Migrate(ctx, fsys); err == nil {
		t.Fatal("a failing migration reported success")
	}
	var n int
	if err := s.DB().Get(&n, `SELECT count(*) FROM pg_tables WHERE tablename = 'x'`); err != nil || n != 0 {
		t.Fatalf("half a migration was kept: %d tables x (err %v)", n, err)
	}
	if err := s.DB().Get(&n, `SELECT count(*) FROM schema_migrations`); err != nil || n != 0 {
		t.Fatalf("a failed migration was recorded: %d rows (err %v)", n, err)
	}
}

func TestMigrationsAreRecorded(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	applied, err := db.Migrate(context.Background(), migrations.FS)
	if err != nil || len(applied) != 0 {
		t.Fatalf("second run over a migrated database applied %v (err %v)", applied, err)
	}
}

// TestNodeLookup: a node's row id is its chain node id, whatever order nodes are recorded in, so
// an id leads to that node and to no other; an id no node can have is simply not found.
func TestNodeLookup(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	ctx := context.Background()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	owner := "0x00000000000000000000000000000000000000aa"
	// Recorded out of the chain's order, as racing recorders do.
	for _, id := range []string{"2", "1", "500", "9223372036854775807"} {
		if row := storetest.Node(t, db, id, owner, t0); strconv.FormatInt(row, 10) != id {
			t.Fatalf("chain node %s was recorded as row %d", id, row)
		}
	}
	for _, id := range []int64{1, 2, 500, math.MaxInt64} {
		t.Run(fmt.Sprintf("node %d", id), func(t *testing.T) {
			n, err := db.Node(ctx, big.NewInt(id), 50)
			if err != nil {
				t.Fatal(err)
			}
			if n.ID != id || n.ChainNodeID.Cmp(big.NewInt(id)) != 0 {
				t.Fatalf("node %d: got row %d, chain node %s", id, n.ID, n.ChainNodeID)
			}
		})
	}
	max := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	for _, tc := range []struct {
		name string
		id   *big.Int
	}{
		{"no such node", big.NewInt(999)},
		{"0, an id the factory never gives", big.NewInt(0)},
		{"past a bigint", new(big.Int).Lsh(big.NewInt(1), 63)},
		{"2^256-1", max},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := db.Node(ctx, tc.id, 50); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("Node: got %v, want ErrNotFound", err)
			}
			if _, err := db.NodeJSON(ctx, tc.id, 50); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("NodeJSON: got %v, want ErrNotFound", err)
			}
			if _, err := db.NodeByChainID(ctx, tc.id); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("NodeByChainID: got %v, want ErrNotFound", err)
			}
		})
	}
	t.Run("recording a node with an id no node can have", func(t *testing.T) {
		_, _, err := db.InsertNode(ctx, store.NewNode{ChainNodeID: max, Tier: 1, Owner: owner, PriceWei: big.NewInt(0),
			MintTx: storetest.TxHash("max")})
		if err == nil {
			t.Fatal("recorded")
		}
	})
}

// TestNodeDocumentsAreTheRows holds the node documents PostgreSQL builds for the API to the
// rows they come from, through the json names of Node, Credit and Withdrawal that the pages
// decode them with: every field, to the last wei and the millisecond (the API's precision).
func TestNodeDocumentsAreTheRows(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	ctx := context.Background()
	owner := "0x00000000000000000000000000000000000000aa"
	max := big.NewInt(math.MaxInt64) // the largest id a node row holds
	t1 := time.Date(2026, 1, 2, 3, 4, 5, 678_901_000, time.FixedZone("x", 3600))
	t2 := time.Date(2025, 12, 31, 23, 59, 59, 999_999_000, time.UTC)
	storetest.Node(t, db, max.String(), owner, t1)
	row := storetest.Node(t, db, "7", owner, t2)
	if _, err := db.DB().Exec(`UPDATE nodes SET balance_wei = 12345678901234567890123, cumulative_wei = 99999999999999999999999,
		withdrawn_wei = 1, price_wei = 0, status = 'unconfirmed', next_credit_at = $2 WHERE id = $1`, row, t1); err != nil {
		t.Fatal(err)
	}
	round := storetest.Distribution(t, db, "60", "confirmed", t1, &t1)
	credit := storetest.Credit(t, db, round, row, "60", t1)
	sent := storetest.Withdrawal(t, db, row, "1", "0x00000000000000000000000000000000000000cc", t2)
	var failed int64 // a withdrawal with every nullable column null
	if err := db.DB().Get(&failed, `INSERT INTO withdrawals (node_id, amount_wei, created_at) VALUES ($1, 5, $2) RETURNING id`,
		row, t1); err != nil {
		t.Fatal(err)
	}

	// apiNode is a node row as the API's documents carry it.
	apiNode := func(n store.Node) store.Node {
		n.CreatedAt = n.CreatedAt.UTC().Truncate(time.Millisecond)
		return n
	}
	same := func(t *testing.T, what string, got, want any) {
		t.Helper()
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if string(g) != string(w) {
			t.Errorf("%s:\ndecoded %s\nrows    %s", what, g, w)
		}
	}

	t.Run("the list of GET /api/nodes/{address}", func(t *testing.T) {
		rows, err := db.NodesByOwner(ctx, owner)
		if err != nil || len(rows) != 2 {
			t.Fatalf("%d rows, %v", len(rows), err)
		}
		doc, err := db.NodesByOwnerJSON(ctx, owner)
		if err != nil {
			t.Fatal(err)
		}
		var decoded []store.Node
		decodeStrict(t, doc, &decoded)
		for i := range rows {
			rows[i] = apiNode(rows[i])
			rows[i].Owner, rows[i].PriceWei = "", store.Uint256{} // only the node's own document has them
		}
		same(t, "nodes", decoded, rows)
	})

	t.Run("the node of GET /api/node/{id}", func(t *testing.T) {
		want, err := db.NodeByChainID(ctx, big.NewInt(7))
		if err != nil {
			t.Fatal(err)
		}
		n, err := db.Node(ctx, big.NewInt(7), 50)
		if err != nil {
			t.Fatal(err)
		}
		same(t, "node", n.Node, apiNode(want))
		doc, err := db.NodeJSON(ctx, big.NewInt(7), 50)
		if err != nil {
			t.Fatal(err)
		}
		var strict store.NodeDetail
		decodeStrict(t, doc, &strict)
		var hash string
		if err := db.DB().Get(&hash, `SELECT tx_hash FROM withdrawals WHERE id = $1`, sent); err != nil {
			t.Fatal(err)
		}
		to, status := "0x00000000000000000000000000000000000000cc", store.WithdrawalSent
		at1, at2 := t1.UTC().Truncate(time.Millisecond), t2.UTC().Truncate(time.Millisecond)
		same(t, "next credit of an unconfirmed node, in no round", n.NextCreditAt, (*time.Time)(nil))
		same(t, "credits", n.Credits, []store.Credit{{ID: credit, DistributionID: round, AmountWei: wei(60), CreatedAt: at1}})
		same(t, "withdrawals", n.Withdrawals, []store.Withdrawal{
			{ID: failed, AmountWei: wei(5), CumulativeSignedWei: wei(0), CreatedAt: at1},
			{ID: sent, AmountWei: wei(1), CumulativeSignedWei: wei(0), ToAddress: &to, TxHash: &hash, Status: &status,
				CreatedAt: at2, ConfirmedAt: &at2},
		})

		// Active, it is credited by the next round: before any round has set the schedule, a
		// period after the first scheduled node's mint (its next_credit_at).
		if _, err := db.DB().Exec(`UPDATE nodes SET status = 'active' WHERE id = $1`, row); err != nil {
			t.Fatal(err)
		}
		if n, err = db.Node(ctx, big.NewInt(7), 50); err != nil {
			t.Fatal(err)
		}
		same(t, "next credit", n.NextCreditAt, &at1)
	})

	t.Run("the node of POST /api/nodes/sync", func(t *testing.T) {
		doc, err := db.NodeByChainIDJSON(ctx, max)
		if err != nil {
			t.Fatal(err)
		}
		var n store.Node
		decodeStrict(t, doc, &n)
		want, err := db.NodeByChainID(ctx, max)
		if err != nil {
			t.Fatal(err)
		}
		want = apiNode(want)
		want.Owner, want.PriceWei = "", store.Uint256{}
		same(t, "node", n, want)
		if _, err := db.NodeByChainIDJSON(ctx, big.NewInt(8)); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("no such node: %v", err)
		}
	})
}

// decodeStrict decodes doc into v and fails on a key v has no field for: a field added to the
// SQL and not to the struct would never reach the pages.
func decodeStrict(t *testing.T, doc []byte, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%v in %s", err, doc)
	}
}

func wei(n int64) store.Uint256 { return store.Uint256{Int: big.NewInt(n)} }

func TestUnavailableDatabase(t *testing.T) {
	t.Parallel()
	// Nothing listens on port 1: a refused connection is the database being unavailable.
	dead, err := store.Open(context.Background(), "postgres://postgres@127.0.0.1:1/postgres?sslmode=disable")
	if err == nil {
		dead.Close()
		t.Fatal("opened a database where there is none")
	}
	if !errors.Is(err, store.ErrUnavailable) {
		t.Fatalf("got %v, want ErrUnavailable", err)
	}
}

// TestRoundDocumentsAreTheRows holds the rounds document of GET /api/distributions, which the
// pages decode (Distributions), to the rows it comes from: every field, newest first, nulls as
// nulls, times to the millisecond (the API's precision).
func TestRoundDocumentsAreTheRows(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	ctx := context.Background()
	t1 := time.Date(2026, 1, 2, 3, 4, 5, 678_901_000, time.FixedZone("x", 3600))
	t2 := t1.Add(time.Hour)
	storetest.Distribution(t, db, "12345678901234567890123", "confirmed", t1, &t2)
	storetest.Distribution(t, db, "0", "pending", t2, nil)
	if _, err := db.DB().Exec(`UPDATE distributions SET tx_hash = $1, mode = 'pool', node_count = 7 WHERE status = 'confirmed'`,
		storetest.TxHash("round")); err != nil {
		t.Fatal(err)
	}
	var rows []struct {
		ID          int64      `db:"id"`
		TotalWei    string     `db:"total_wei"`
		NodeCount   int        `db:"node_count"`
		Mode        string     `db:"mode"`
		FundingMode string     `db:"funding_mode"`
		Status      string     `db:"status"`
		TxHash      *string    `db:"tx_hash"`
		CreatedAt   time.Time  `db:"created_at"`
		ConfirmedAt *time.Time `db:"confirmed_at"`
	}
	if err := db.DB().Select(&rows, `SELECT id, total_wei, node_count, mode, funding_mode, status, tx_hash,
		created_at, confirmed_at FROM distributions ORDER BY created_at DESC, id DESC`); err != nil {
		t.Fatal(err)
	}
	ds, err := db.Distributions(ctx, 10)
	if err != nil || len(ds) != len(rows) || len(rows) != 2 {
		t.Fatalf("%d rounds decoded, %d rows, err %v", len(ds), len(rows), err)
	}
	ms := func(at time.Time) time.Time { return at.UTC().Truncate(time.Millisecond) }
	for i, r := range rows {
		d := ds[i]
		same := d.ID == r.ID && d.TotalWei.String() == r.TotalWei && d.NodeCount == r.NodeCount &&
			string(d.Mode) == r.Mode && d.FundingMode == r.FundingMode && string(d.Status) == r.Status &&
			(d.TxHash == nil) == (r.TxHash == nil) && (r.TxHash == nil || *d.TxHash == *r.TxHash) &&
			d.CreatedAt.Equal(ms(r.CreatedAt)) && (d.ConfirmedAt == nil) == (r.ConfirmedAt == nil) &&
			(r.ConfirmedAt == nil || d.ConfirmedAt.Equal(ms(*r.ConfirmedAt)))
		if !same {
			t.Errorf("round %d:\ndecoded %+v\nrow     %+v", r.ID, d, r)
		}
	}
}
