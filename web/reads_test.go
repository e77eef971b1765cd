package web

import (
	"fmt"
	"math/big"
	"net/http"
	"testing"
	"time"

	"nodeledger/handlers"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// TestPublicReadsOnTheStandby: /api/node/{id} and /api/nodes/{address} read the standby
// (DATABASE_READ_URL) while it keeps within the lag allowed: a node the primary records after the
// standby paused its replay is in neither at once, and is in both once the standby has fallen
// further behind than that, read from the primary.
func TestPublicReadsOnTheStandby(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	primary, pair := storetest.PairLedger(t)
	standby, err := store.OpenStandby(pair.Standby.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { standby.Close() })
	if err := primary.PutTier(ctx, store.Tier{ID: 1, Label: "One", PriceWei: store.Uint256{Int: big.NewInt(1)}, MaxPerWallet: 3,
		HoldingWei: store.Uint256{Int: big.NewInt(0)}, Enabled: true}); err != nil {
		t.Fatal(err)
	}
	const maxLag = 3 * time.Second // time enough for a request once the replay pauses
	reads := store.NewReads(primary, standby, maxLag)
	go reads.Follow(ctx, 50*time.Millisecond)
	for deadline := time.Now().Add(10 * time.Second); reads.Store() != standby; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the reads never go to the standby")
		}
	}
	srv := newServer(t, primary, handlers.Config{Reads: reads})

	storetest.PauseReplay(t, standby)
	owner := fmt.Sprintf("0x%040x", 7)
	if _, _, err := primary.InsertNode(ctx, store.NewNode{ChainNodeID: big.NewInt(1), Tier: 1, Owner: owner, PriceWei: big.NewInt(1),
		MintTx: storetest.TxHash("mint")}); err != nil {
		t.Fatal(err)
	}
	if rec := srv.get(t, "/api/node/1"); rec.Code != http.StatusNotFound {
		t.Fatalf("/api/node/1 at once: %d %s; want 404 from the standby, which has not replayed it", rec.Code, rec.Body)
	}
	if rec := srv.get(t, "/api/nodes/"+owner); rec.Code != http.StatusOK || rec.Body.String() != "[]" {
		t.Fatalf("/api/nodes at once: %d %s; want [] from the standby", rec.Code, rec.Body)
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if rec := srv.get(t, "/api/node/1"); rec.Code == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("/api/node/1 never read from the primary while the standby stood still")
		}
	}
	if reads.Store() != primary {
		t.Fatal("the node is served, but not from the primary")
	}
	if rec := srv.get(t, "/api/nodes/"+owner); rec.Code != http.StatusOK || rec.Body.String() == "[]" {
		t.Fatalf("/api/nodes from the primary: %d %s", rec.Code, rec.Body)
	}
}
