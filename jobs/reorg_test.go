package jobs

import (
	"strings"
	"testing"
)

// A payment is only read once Confirmations blocks follow it, so a block replaced within that
// depth never reaches the ledger.
func TestPaymentWaitsForConfirmations(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.Confirmations = 2 })
	e.pay(0, e.dc.Payments, priceOne)
	if sum := mustPass(t, e.j); sum.Seen != 0 {
		t.Fatalf("a payment without confirmations was read: %+v", sum)
	}
	// Two more blocks, each with a transfer that is no payment.
	for range 2 {
		e.pay(5, e.buyer(4), tenth)
	}
	if sum := mustPass(t, e.j); sum.Seen != 1 || sum.Minted != 1 {
		t.Fatalf("after two confirmations: %+v", sum)
	}
	e.checkNodes(e.buyer(0), 1)
}

// When the chain no longer has a block the scan recorded (a reorg deeper than the
// confirmations), the scan goes back to the last block both agree on, forgets the payments it
// had only seen or rejected above it, and reads the chain's blocks again.
func TestScanRewindsAfterAReorg(t *testing.T) {
	e := newEnv(t)
	e.pay(0, e.dc.Payments, priceOff) // rejected: off sale
	if sum := mustPass(t, e.j); sum.Rejected != 1 {
		t.Fatalf("summary %+v", sum)
	}
	rejected := payments(t, "rejected")[0]
	// Make the ledger remember a different block where the payment was, as if that block had
	// been replaced since.
	fake := "0x" + strings.Repeat("ab", 32)
	mustExec(t, `UPDATE scanned_blocks SET hash = $1 WHERE number >= $2`, fake, rejected.BlockNumber)
	mustExec(t, `UPDATE chain_cursors SET block_hash = $1 WHERE name = 'payments'`, fake)
	mustExec(t, `UPDATE payments SET block_hash = $1`, fake)

	sum := mustPass(t, e.j)
	if sum.Rewound == 0 || sum.FromBlock != uint64(rejected.BlockNumber) {
		t.Fatalf("summary %+v: want a rewind to block %d", sum, rejected.BlockNumber-1)
	}
	after := payments(t, "rejected")
	if len(after) != 1 || after[0].BlockHash == fake || after[0].ID == rejected.ID {
		t.Fatalf("payments after the rewind %+v: want the one of the chain's block, read again", after)
	}
}

func mustExec(t *testing.T, query string, args ...any) {
	t.Helper()
	if _, err := db.DB().Exec(query, args...); err != nil {
		t.Fatal(err)
	}
}
