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
	// The wallets' answers are kept (FollowLedger), but only those read from the primary: the
	// standby's answer below predates a change announced already, and must not outlive its turn.
	srv := newServerWith(t, primary, unreachableChain(t), nil, handlers.Config{Reads: reads}, Options{unlimited: true})
	srv.followLedger(t)
	keeper := fmt.Sprintf("0x%040x", 8)
	storetest.Node(t, primary, "2", keeper, time.Now())
	srv.waitKept(t, keeper)
	go reads.Follow(ctx, 50*time.Millisecond)
	for deadline := time.Now().Add(10 * time.Second); reads.Store() != standby; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the reads never go to the standby")
		}
	}

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

// TestNodesOfWalletKeptUntilAnnounced: /api/nodes/{address} answers from memory what it read of a
// wallet until the ledger announces a change to the wallet's nodes. A change the ledger does not
// announce is not seen; a node minted, and a node changing hands, are seen in both wallets; and
// once the announcements are cut and heard again, what was kept before is dropped and keeping
// starts again.
func TestNodesOfWalletKeptUntilAnnounced(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	alice, bob := fmt.Sprintf("0x%040x", 0xa1), fmt.Sprintf("0x%040x", 0xb2)
	storetest.Node(t, db, "1", alice, time.Now())
	srv := newServerWith(t, db, unreachableChain(t), nil, handlers.Config{}, Options{unlimited: true}) // it polls
	srv.followLedger(t)
	srv.waitKept(t, alice)

	minted := time.Now()
	storetest.Node(t, db, "2", alice, time.Now())
	srv.eventually(t, alice)
	t.Logf("a node minted is seen %v after its commit", time.Since(minted).Round(time.Millisecond))

	if rec := srv.get(t, "/api/nodes/"+bob); rec.Body.String() != "[]" {
		t.Fatalf("bob's nodes before any: %d %s", rec.Code, rec.Body)
	}
	if _, err := db.DB().Exec(`UPDATE nodes SET owner = $1 WHERE id = 1`, bob); err != nil {
		t.Fatal(err)
	}
	srv.eventually(t, alice)
	srv.eventually(t, bob)

	storetest.EndAnnouncements(t, db)
	storetest.Unannounced(t, db, `UPDATE nodes SET balance_wei = balance_wei + 1 WHERE owner = $1`, bob)
	srv.eventually(t, bob)
	srv.waitKept(t, bob)
}

// waitKept waits until /api/nodes/{owner} is answered from memory: a change of owner's nodes the
// ledger does not announce is then not seen by the next read. It leaves the ledger changed
// unannounced (a node's balance one wei higher than the answer says).
func (s *testServer) waitKept(t *testing.T, owner string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		before := s.get(t, "/api/nodes/"+owner).Body.String()
		storetest.Unannounced(t, s.db, `UPDATE nodes SET balance_wei = balance_wei + 1 WHERE owner = $1`, owner)
		if s.get(t, "/api/nodes/"+owner).Body.String() == before {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("/api/nodes/%s is never kept: the ledger's announcements are not heard", owner)
		}
	}
}

// eventually waits until /api/nodes/{owner} answers what the ledger holds.
func (s *testServer) eventually(t *testing.T, owner string) {
	t.Helper()
	want, err := s.db.NodesByOwnerJSON(t.Context(), owner)
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		got := s.get(t, "/api/nodes/"+owner).Body.String()
		if got == string(want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("/api/nodes/%s answers %s, the ledger holds %s", owner, got, want)
		}
	}
}
