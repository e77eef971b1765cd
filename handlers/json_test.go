package handlers

import (
	"encoding/json"
	"math/big"
	"os"
	"reflect"
	"testing"
	"time"

	"nodeledger/store"
	"nodeledger/store/storetest"
)

var db *store.Store

func TestMain(m *testing.M) { os.Exit(storetest.Main(m, &db)) }

// TestNodeJSONFromSQLIsTheGoShape holds the node lists PostgreSQL builds (/api/nodes/{address})
// to the shape Go builds for the same nodes (/api/me, /api/nodes/sync): one node, two routes,
// one shape, to the millisecond and the last wei.
func TestNodeJSONFromSQLIsTheGoShape(t *testing.T) {
	ctx := t.Context()
	storetest.Reset(t, db)
	storetest.Tier(t, db, 1, "One", "1", true)
	owner := "0x00000000000000000000000000000000000000aa"
	max256 := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	storetest.Node(t, db, max256.String(), owner, time.Date(2026, 1, 2, 3, 4, 5, 678_901_000, time.FixedZone("x", 3600)))
	storetest.Node(t, db, "7", owner, time.Date(2025, 12, 31, 23, 59, 59, 999_999_000, time.UTC))
	if _, err := db.DB().Exec(`UPDATE nodes SET balance_wei = 12345678901234567890123, cumulative_wei = 99999999999999999999999,
		withdrawn_wei = 1, status = 'unconfirmed' WHERE chain_node_id = 7`); err != nil {
		t.Fatal(err)
	}

	nodes, err := db.NodesByOwner(ctx, owner)
	if err != nil {
		t.Fatal(err)
	}
	goJSON, err := json.Marshal(mapSlice(nodes, toNodeJSON))
	if err != nil {
		t.Fatal(err)
	}
	sqlJSON, err := db.NodesByOwnerJSON(ctx, owner)
	if err != nil {
		t.Fatal(err)
	}
	var fromGo, fromSQL any
	if err := json.Unmarshal(goJSON, &fromGo); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(sqlJSON, &fromSQL); err != nil {
		t.Fatal(err)
	}
	if len(nodes) != 2 || !reflect.DeepEqual(fromGo, fromSQL) {
		t.Fatalf("Go:  %s\nSQL: %s", goJSON, sqlJSON)
	}

	none, err := db.NodesByOwnerJSON(ctx, "0x00000000000000000000000000000000000000bb")
	if err != nil || string(none) != "[]" {
		t.Fatalf("no nodes: %s, %v", none, err)
	}
}
