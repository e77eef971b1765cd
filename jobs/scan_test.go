package jobs

import (
	"errors"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"nodeledger/chain/bindings"
	"nodeledger/chain/devchain"
)

// The scan traces a block only when the payments wallet's balance moved otherwise than its own
// transactions say: top-level payments, a refund and a failed call of the wallet's own (which
// still pays its fee) are explained; a contract wallet's payment is not, so its block, and only
// it, is traced and the payment found.
func TestScanTracesOnlyWhatNeedsTracing(t *testing.T) {
	e := newEnv(t)
	payments := e.dc.Accounts[devchain.PaymentsIndex].Key
	wallet := e.deployForwarder()
	e.pay(0, e.dc.Payments, priceOne)
	e.pay(1, e.dc.Payments, priceOff) // rejected: off sale
	e.sendValue(payments, e.buyer(1), nil, priceOff)
	if r := e.send(payments, e.dc.Factory, []byte{0xde, 0xad}, 100_000); r.Status != types.ReceiptStatusFailed {
		t.Fatal("the payments wallet's call to the factory did not fail")
	}

	before := testutil.ToFloat64(tracedBlocks)
	sum := mustPass(t, e.j)
	if sum.Seen != 2 || sum.Minted != 1 || sum.Rejected != 1 || sum.Refunded != 1 {
		t.Fatalf("summary %+v", sum)
	}
	if n := testutil.ToFloat64(tracedBlocks) - before; n != 0 {
		t.Fatalf("%v blocks traced, want none: every balance change is explained", n)
	}
	if got := e.j.InternalTransfers(); got != "not needed" {
		t.Fatalf("InternalTransfers %q", got)
	}

	e.sendValue(e.dc.Buyers[2].Key, wallet, forwarderABI.PackPay(e.dc.Payments), priceOne)
	e.pay(3, e.dc.Payments, priceOne) // another block, not traced
	before = testutil.ToFloat64(tracedBlocks)
	sum = mustPass(t, e.j)
	if sum.Seen != 2 || sum.Minted != 2 {
		t.Fatalf("summary %+v", sum)
	}
	if n := testutil.ToFloat64(tracedBlocks) - before; n != 1 {
		t.Fatalf("%v blocks traced, want the contract wallet's payment's only", n)
	}
	if got := e.j.InternalTransfers(); got != "traced" {
		t.Fatalf("InternalTransfers %q", got)
	}
	e.checkNodes(wallet, 1)

	t.Run("a payments wallet with code is traced at every block", func(t *testing.T) {
		e := newEnv(t)
		deployed, err := e.c.NewSender(e.dc.Buyers[0].Key, e.dc.ChainID()).Transact(t.Context(), nil, common.FromHex(bindings.ForwarderMetaData.Bin), nil)
		if err != nil || deployed.Status != types.ReceiptStatusSuccessful {
			t.Fatalf("deploying the wallet: %v", err)
		}
		wallet := deployed.ContractAddress
		e.cfg.PaymentAddress = wallet
		e.pay(0, wallet, priceOne)
		e.sendValue(e.dc.Buyers[1].Key, e.deployForwarder(), forwarderABI.PackPay(wallet), priceOne)
		before := testutil.ToFloat64(tracedBlocks)
		sum := mustPass(t, e.restart())
		if sum.Seen != 2 || sum.Minted != 2 {
			t.Fatalf("summary %+v", sum)
		}
		first := deployed.BlockNumber.Uint64() // the wallet has code from then on; nothing moved before
		if n := testutil.ToFloat64(tracedBlocks) - before; n != float64(sum.ToBlock-first+1) {
			t.Fatalf("%v blocks traced, want every block of %d-%d", n, first, sum.ToBlock)
		}
	})
}

// A pass records its blocks 200 at a time, each chunk with the cursor in one transaction: cut
// off after the first chunk, it keeps what it read, and the next pass goes on from there.
func TestScanRecordsInChunks(t *testing.T) {
	e := newEnv(t)
	early := e.pay(0, e.dc.Payments, priceOne)
	for head, _ := e.c.HeadNumber(t.Context()); head < scanChunk+5; head++ {
		e.dc.Commit()
	}
	late := e.pay(1, e.dc.Payments, priceOne)

	j := e.restart()
	j.crash = crashAt("scan.fetched", 2) // the second chunk read, not recorded
	if _, err := j.Payments(t.Context()); !errors.Is(err, errCrash) {
		t.Fatalf("the pass did not stop at the second chunk: %v", err)
	}
	cur, err := db.Cursor(t.Context(), paymentsCursor)
	if err != nil || cur.Number != scanChunk-1 {
		t.Fatalf("cursor %+v, %v: want the first chunk's last block, %d", cur, err, scanChunk-1)
	}
	seen := payments(t, "pending")
	if len(seen) != 1 || seen[0].TxHash != hexLower(early) {
		t.Fatalf("payments after the cut: %+v, want the first chunk's only", seen)
	}

	sum := mustPass(t, e.restart())
	if sum.FromBlock != scanChunk || sum.Minted != 2 {
		t.Fatalf("summary %+v: want the scan to go on from block %d and mint both", sum, scanChunk)
	}
	if _, err := db.PaymentByTx(t.Context(), hexLower(late)); err != nil {
		t.Fatalf("the second chunk's payment: %v", err)
	}
}
