package store_test

import (
	"context"
	"errors"
	"math/big"
	"os"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"nodeledger/migrations"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

var db *store.Store

func TestMain(m *testing.M) { os.Exit(storetest.Main(m, &db)) }

func TestMigrateTwoInstancesAtOnce(t *testing.T) {
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
	applied, err := db.Migrate(context.Background(), migrations.FS)
	if err != nil || len(applied) != 0 {
		t.Fatalf("second run over a migrated database applied %v (err %v)", applied, err)
	}
}

func TestNodeLookup(t *testing.T) {
	storetest.Reset(t, db)
	ctx := context.Background()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	max := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	owner := "0x00000000000000000000000000000000000000aa"
	row1 := storetest.Node(t, db, "2", owner, t0)          // row id 1, chain id 2
	row2 := storetest.Node(t, db, "1", owner, t0)          // row id 2, chain id 1
	row3 := storetest.Node(t, db, max.String(), owner, t0) // row id 3, chain id 2^256-1
	storetest.Node(t, db, "500", "0x00000000000000000000000000000000000000bb", t0)

	for _, tc := range []struct {
		name string
		id   *big.Int
		want int64
	}{
		{"chain id wins over row id", big.NewInt(1), row2},
		{"chain id 2 is row 1", big.NewInt(2), row1},
		{"row id when no chain id matches", big.NewInt(3), row3},
		{"chain id 2^256-1", max, row3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, err := db.Node(ctx, tc.id)
			if err != nil {
				t.Fatal(err)
			}
			if n.ID != tc.want {
				t.Fatalf("node %s: got row %d, want %d", tc.id, n.ID, tc.want)
			}
		})
	}
	t.Run("uint256 survives the round trip", func(t *testing.T) {
		n, err := db.Node(ctx, max)
		if err != nil || n.ChainNodeID.Cmp(max) != 0 {
			t.Fatalf("got %v, %v", n.ChainNodeID, err)
		}
	})
	t.Run("no such node", func(t *testing.T) {
		_, err := db.Node(ctx, big.NewInt(999))
		if !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("got %v, want ErrNotFound", err)
		}
	})
}

func TestUnavailableDatabase(t *testing.T) {
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
