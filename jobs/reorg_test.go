package jobs

import (
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/params"

	"nodeledger/chain/devchain"
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
	mustExec(t, `UPDATE scanned_blocks SET hash = $1 WHERE scanner = 'payments' AND number >= $2`, fake, rejected.BlockNumber)
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

// manualChain helps tests that decide what goes in which block.
type manualChain struct {
	*env
}

// commit seals a block once n transactions wait in the pool.
func (m manualChain) commit(n int) common.Hash {
	m.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for m.dc.Pending() < n {
		if time.Now().After(deadline) {
			m.t.Fatalf("%d transactions in the pool, want %d", m.dc.Pending(), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
	return m.dc.Commit()
}

// transfer signs and sends wei from dev buyer i to `to` with the given nonce and tip (in gwei),
// without waiting for it.
func (m manualChain) transfer(i int, to common.Address, wei *big.Int, nonce uint64, tipGwei int64) common.Hash {
	m.t.Helper()
	tip := new(big.Int).Mul(big.NewInt(tipGwei), big.NewInt(params.GWei))
	tx, err := types.SignNewTx(m.dc.Buyers[i].Key, types.LatestSignerForChainID(m.dc.ChainID()), &types.DynamicFeeTx{
		ChainID: m.dc.ChainID(), Nonce: nonce, GasTipCap: tip, GasFeeCap: new(big.Int).Add(tip, big.NewInt(100*params.GWei)),
		Gas: 21000, To: &to, Value: wei,
	})
	if err != nil {
		m.t.Fatal(err)
	}
	if err := m.c.Send(m.t.Context(), tx); err != nil {
		m.t.Fatal(err)
	}
	return tx.Hash()
}

func (m manualChain) head() (uint64, common.Hash) {
	m.t.Helper()
	n, err := m.c.HeadNumber(m.t.Context())
	if err != nil {
		m.t.Fatal(err)
	}
	b, err := m.c.Blocks(m.t.Context(), n, n)
	if err != nil {
		m.t.Fatal(err)
	}
	return n, b[0].Hash
}

// reorgAwayPayment forks the chain back to parent and mines, in the payment's place, a
// transfer of the same nonce elsewhere (a double spend), then more blocks.
func (m manualChain) reorgAwayPayment(parent common.Hash, buyer int, nonce uint64, blocks int) {
	m.t.Helper()
	if err := m.dc.Fork(parent); err != nil {
		m.t.Fatal(err)
	}
	m.transfer(buyer, m.buyer(5), priceOne, nonce, 50)
	m.commit(1)
	for range blocks - 1 {
		m.dc.Commit()
	}
}

// A payment in a block that a reorg replaces before it has its confirmations never mints.
func TestReorgBeforeConfirmationNeverMints(t *testing.T) {
	m := manualChain{newEnvOn(t, devchain.Options{ManualMining: true}, func(c *Config) { c.Confirmations = 2 })}
	_, parent := m.head()
	payment := m.transfer(0, m.dc.Payments, priceOne, 0, 1)
	m.commit(1)
	m.dc.Commit() // one confirmation of two
	if sum := mustPass(t, m.j); sum.Seen != 0 {
		t.Fatalf("a payment without its confirmations was read: %+v", sum)
	}

	m.reorgAwayPayment(parent, 0, 0, 4)
	if _, err := m.c.Receipt(t.Context(), payment); err == nil {
		t.Fatal("the payment is still on the chain after the reorg")
	}
	if sum := mustPass(t, m.j); sum.Seen != 0 || sum.Minted != 0 {
		t.Fatalf("after the reorg: %+v", sum)
	}
	m.checkNodes(m.buyer(0), 0)
}

// A payment minted, then replaced by a reorg deeper than the confirmations: the scan rewinds
// past the replaced block, and the drift report names the payment, whose node now stands on a
// payment the chain no longer has.
func TestReorgAfterMintIsDrift(t *testing.T) {
	m := manualChain{newEnvOn(t, devchain.Options{ManualMining: true}, func(c *Config) {
		c.ReceiptTimeout = 300 * time.Millisecond // nobody mines while a pass waits
	})}
	_, parent := m.head()
	m.transfer(0, m.dc.Payments, priceOne, 0, 1)
	m.commit(1)
	if sum := mustPass(t, m.j); sum.Minting != 1 {
		t.Fatalf("first pass: %+v", sum)
	}
	m.commit(1) // the mint
	if sum := mustPass(t, m.j); sum.Minted != 1 {
		t.Fatalf("second pass: %+v", sum)
	}

	m.reorgAwayPayment(parent, 0, 0, 4)
	sum := mustPass(t, m.j)
	if sum.Rewound == 0 {
		t.Fatalf("the scan did not notice the reorg: %+v", sum)
	}
	rep, err := m.j.Drift(t.Context(), 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Payments) != 1 || rep.Payments[0].LedgerHash == rep.Payments[0].ChainHash {
		t.Fatalf("drift %+v: want the minted payment whose block was replaced", rep)
	}
}
