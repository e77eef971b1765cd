package jobs

import (
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"nodeledger/chain"
	"nodeledger/chain/bindings"
	"nodeledger/store"
)

var factoryABI = bindings.NewNodeFactory()

func mustReconcile(t testing.TB, j *Jobs) ReconcileSummary {
	t.Helper()
	sum, err := j.Reconcile(t.Context())
	if err != nil {
		t.Fatalf("reconcile: %v (summary %+v)", err, sum)
	}
	return sum
}

// lockReconciler takes the reconciler's lock, as another instance's reconciler pass holds it,
// until the function it returns is called: the payments passes cannot hand it their blocks.
func lockReconciler(t testing.TB, db *store.Store) (unlock func()) {
	t.Helper()
	unlock, ok, err := db.TryLock(t.Context(), store.LockReconcile)
	if err != nil || !ok {
		t.Fatalf("the reconciler's lock: %v, %v", ok, err)
	}
	return unlock
}

func TestReconcileRecordsNodesNobodyRecorded(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// Minted with the minter's key outside the service: no payment, no ledger row.
	e.send(e.dc.Minter.Key, e.dc.Factory, factoryABI.PackMint(e.buyer(4), 1, common.Hash{0xaa}), 0)
	sum := mustReconcile(t, e.j)
	if sum.NodesFound != 1 || sum.Synced != 0 {
		t.Fatalf("summary %+v", sum)
	}
	nodes := e.checkNodes(e.buyer(4), 1)
	if nodes[0].PriceWei.Sign() != 0 {
		t.Fatalf("a node without a payment has price %s", nodes[0].PriceWei)
	}
	if again := mustReconcile(t, e.j); again.NodesFound != 0 {
		t.Fatalf("second pass: %+v", again)
	}
}

func TestReconcileFinishesAMintTheLedgerMissed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.pay(0, e.dc.Payments, priceOne)
	j := e.restart()
	j.crash = crashAt("mint.mined", 1) // the node exists on chain, the ledger does not know
	if _, err := j.Payments(t.Context()); !errors.Is(err, errCrash) {
		t.Fatalf("got %v", err)
	}
	if sum := mustReconcile(t, e.restart()); sum.NodesFound != 1 {
		t.Fatalf("summary %+v", sum)
	}
	nodes := e.checkNodes(e.buyer(0), 1)
	if nodes[0].PriceWei.Cmp(priceOne) != 0 {
		t.Fatalf("price %s, want the payment's %s", nodes[0].PriceWei, priceOne)
	}
	if minted := payments(t, e.db, "minted"); len(minted) != 1 {
		t.Fatalf("the payment is not marked minted: %d minted", len(minted))
	}
	// The payments pass, run again, neither mints again nor records twice.
	mustPass(t, e.restart())
	e.checkNodes(e.buyer(0), 1)
}

func TestReconcileRecordsWithdrawals(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.pay(0, e.dc.Payments, priceOne)
	mustPass(t, e.j)
	// A credit made outside the service, then two withdrawals by the owner to another address.
	credit := factoryABI.PackDistribute(big.NewInt(77), chain.RoundFixed, big.NewInt(1000), big.NewInt(1), e.weightsVersion())
	e.sendValue(e.dc.Distributor.Key, e.dc.Factory, credit, big.NewInt(1000))
	to := e.buyer(5)
	var hashes []common.Hash
	for _, amount := range []int64{300, 200} {
		r := e.send(e.dc.Buyers[0].Key, e.dc.Factory, factoryABI.PackWithdraw(big.NewInt(1), to, big.NewInt(amount)), 0)
		hashes = append(hashes, r.TxHash)
	}

	sum := mustReconcile(t, e.j)
	if sum.Withdrawals != 2 || sum.Synced != 1 {
		t.Fatalf("summary %+v", sum)
	}
	n := e.checkNodes(e.buyer(0), 1)[0]
	if n.CumulativeWei.Int64() != 1000 || n.WithdrawnWei.Int64() != 500 || n.BalanceWei.Int64() != 500 {
		t.Fatalf("node %+v", n)
	}
	d, err := e.db.Node(t.Context(), n.ChainNodeID.Int, 10)
	if err != nil || len(d.Withdrawals) != 2 {
		t.Fatalf("withdrawals %+v, %v", d.Withdrawals, err)
	}
	for _, w := range d.Withdrawals {
		if *w.Status != "sent" || *w.ToAddress != strings.ToLower(to.Hex()) || w.ConfirmedAt == nil ||
			(*w.TxHash != strings.ToLower(hashes[0].Hex()) && *w.TxHash != strings.ToLower(hashes[1].Hex())) {
			t.Fatalf("withdrawal %+v", w)
		}
	}
	if again := mustReconcile(t, e.j); again.Withdrawals != 0 {
		t.Fatalf("second pass recorded %d withdrawals again", again.Withdrawals)
	}
}

func TestReconcileLeavesNodesOfAnUnsettledRound(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.pay(0, e.dc.Payments, priceOne)
	mustPass(t, e.j)
	n := e.checkNodes(e.buyer(0), 1)[0]
	// The node is in a round the credit pass has sent but not yet settled; the chain has the credit.
	var round int64
	err := e.db.DB().QueryRow(`
		WITH d AS (INSERT INTO distributions (total_wei, node_count, mode, funding_mode) VALUES (50, 1, 'fixed', 'value') RETURNING id)
		INSERT INTO credits (distribution_id, node_id, amount_wei) SELECT id, $1, 50 FROM d RETURNING distribution_id`, n.ID).Scan(&round)
	if err != nil {
		t.Fatal(err)
	}
	credit := factoryABI.PackDistribute(big.NewInt(round), chain.RoundFixed, big.NewInt(50), big.NewInt(1), e.weightsVersion())
	e.sendValue(e.dc.Distributor.Key, e.dc.Factory, credit, big.NewInt(50))
	// The owner spends part of the credit, then hands the node on.
	e.send(e.dc.Buyers[0].Key, e.dc.Factory, factoryABI.PackWithdraw(big.NewInt(1), e.buyer(0), big.NewInt(10)), 0)
	e.send(e.dc.Buyers[0].Key, e.dc.Factory, factoryABI.PackTransfer(big.NewInt(1), e.buyer(4)), 0)

	// The reconciler takes the owner and the withdrawal, and leaves the credit to the credit pass.
	if sum := mustReconcile(t, e.j); sum.Withdrawals != 1 || sum.Synced != 1 {
		t.Fatalf("summary %+v", sum)
	}
	after, err := e.db.NodeByChainID(t.Context(), n.ChainNodeID.Int)
	if err != nil || after.CumulativeWei.Sign() != 0 || after.WithdrawnWei.Int64() != 10 || after.BalanceWei.Sign() != 0 ||
		after.Owner != strings.ToLower(e.buyer(4).Hex()) {
		t.Fatalf("node %+v, %v", after, err)
	}
	// Once the round settles, the ledger is the chain's to the wei.
	if applied, err := e.db.ConfirmRound(t.Context(), round, nil, 0, time.Hour); err != nil || !applied {
		t.Fatalf("ConfirmRound: %v, %v", applied, err)
	}
	info, err := e.c.NodeInfo(t.Context(), n.ChainNodeID.Int)
	if err != nil {
		t.Fatal(err)
	}
	after, err = e.db.NodeByChainID(t.Context(), n.ChainNodeID.Int)
	if err != nil || after.CumulativeWei.Cmp(info.Credited) != 0 || after.BalanceWei.Cmp(info.Balance) != 0 || after.BalanceWei.Int64() != 40 {
		t.Fatalf("node %+v (%v), chain %+v", after, err, info)
	}
}

func TestReconcileFollowsTransfers(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.pay(0, e.dc.Payments, priceOne)
	mustPass(t, e.j)
	mustReconcile(t, e.j)
	e.send(e.dc.Buyers[0].Key, e.dc.Factory, factoryABI.PackTransfer(big.NewInt(1), e.buyer(4)), 0)
	if sum := mustReconcile(t, e.j); sum.Synced != 1 {
		t.Fatalf("summary %+v", sum)
	}
	e.checkNodes(e.buyer(0), 0)
	e.checkNodes(e.buyer(4), 1)
}

// TestReconcilerRidesTheScan: the payments pass hands the reconciler the factory's events of the
// blocks it scanned, read in the same eth_getLogs as the treasury's, so that the ledger holds
// blocks final at the scan's pace for no read of the reconciler's own. Where the reconciler does
// not stand where the scan stood (its lock was taken, then it is behind), the scan leaves it to
// its own pass, after which the two go on together again.
func TestReconcilerRidesTheScan(t *testing.T) {
	t.Parallel()
	e, proxy := newEnvBehindProxy(t)
	outside := func(ref byte) { // minted with the minter's key outside the service: only the reconciler finds it
		e.send(e.dc.Minter.Key, e.dc.Factory, factoryABI.PackMint(e.buyer(4), 1, common.Hash{ref}), 0)
	}
	together := func() store.Cursor {
		t.Helper()
		scan, err := e.db.Cursor(t.Context(), store.PaymentsScanner)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := e.db.Cursor(t.Context(), reconcileCursor)
		if err != nil || rec != scan {
			t.Fatalf("the reconciler stands on %+v (%v), the scan on %+v", rec, err, scan)
		}
		return scan
	}

	e.pay(0, e.dc.Payments, priceOne)
	outside(0xa1)
	logs := proxy.Calls("eth_getLogs")
	if sum := mustPass(t, e.j); sum.Minted != 1 {
		t.Fatalf("summary %+v", sum)
	}
	if n := proxy.Calls("eth_getLogs") - logs; n != 1 {
		t.Fatalf("the payments pass asked eth_getLogs %d times, want once for the scan and the reconciler", n)
	}
	together()
	e.checkNodes(e.buyer(4), 1)

	// Another reconciler pass holds the lock: the scan goes on alone, and the reconciler is behind.
	unlock := lockReconciler(t, e.db)
	inLedger := func() int {
		t.Helper()
		nodes, err := e.db.NodesByOwner(t.Context(), strings.ToLower(e.buyer(4).Hex()))
		if err != nil {
			t.Fatal(err)
		}
		return len(nodes)
	}
	outside(0xa2)
	mustPass(t, e.j)
	unlock()
	if n := inLedger(); n != 1 {
		t.Fatalf("%d nodes in the ledger while the reconciler was locked out, want 1", n)
	}
	outside(0xa3)
	mustPass(t, e.j) // behind, the reconciler is not handed the blocks
	if n := inLedger(); n != 1 {
		t.Fatalf("%d nodes in the ledger with the reconciler behind, want 1", n)
	}
	if sum := mustReconcile(t, e.j); sum.NodesFound != 2 {
		t.Fatalf("the reconciler's own pass found %d nodes, want the 2 minted while it was behind", sum.NodesFound)
	}
	e.checkNodes(e.buyer(4), 3)
	outside(0xa4)
	mustPass(t, e.j)
	e.checkNodes(e.buyer(4), 4)
	together()
}
