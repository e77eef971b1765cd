package jobs

import (
	"crypto/ecdsa"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"

	"nodeledger/chain"
	"nodeledger/chain/devchain"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// A payment is only read once Confirmations blocks follow it, so a block replaced within that
// depth never reaches the ledger.
func TestPaymentWaitsForConfirmations(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
	e := newEnv(t)
	e.pay(0, e.dc.Payments, priceOff) // rejected: off sale
	if sum := mustPass(t, e.j); sum.Rejected != 1 {
		t.Fatalf("summary %+v", sum)
	}
	rejected := payments(t, e.db, "rejected")[0]
	// Make the ledger remember a different block where the payment was, as if that block had
	// been replaced since.
	fake := "0x" + strings.Repeat("ab", 32)
	mustExec(t, e.db, `UPDATE scanned_blocks SET hash = $1 WHERE scanner = 'payments' AND number >= $2`, fake, rejected.BlockNumber)
	mustExec(t, e.db, `UPDATE chain_cursors SET block_hash = $1 WHERE name = 'payments'`, fake)
	mustExec(t, e.db, `UPDATE payments SET block_hash = $1`, fake)

	sum := mustPass(t, e.j)
	if sum.Rewound == 0 || sum.FromBlock != uint64(rejected.BlockNumber) {
		t.Fatalf("summary %+v: want a rewind to block %d", sum, rejected.BlockNumber-1)
	}
	after := payments(t, e.db, "rejected")
	if len(after) != 1 || after[0].BlockHash == fake || after[0].ID == rejected.ID {
		t.Fatalf("payments after the rewind %+v: want the one of the chain's block, read again", after)
	}
}

func mustExec(t *testing.T, db *store.Store, query string, args ...any) {
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
	deadline := time.Now().Add(time.Minute)
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
	return m.sendTx(m.dc.Buyers[i].Key, to, nil, wei, nonce, tipGwei)
}

// call sends a contract call from key with its next nonce, without waiting for it to be mined;
// it returns once the pool counts it, so that the next call from key takes the nonce after (the
// pool promotes a transaction in the background: read at once, its pending nonce can lag).
func (m manualChain) call(key *ecdsa.PrivateKey, to common.Address, data []byte, wei *big.Int) common.Hash {
	m.t.Helper()
	from := crypto.PubkeyToAddress(key.PublicKey)
	nonce, err := m.pendingNonce(from)
	if err != nil {
		m.t.Fatal(err)
	}
	hash := m.sendTx(key, to, data, wei, nonce, 1)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if next, err := m.pendingNonce(from); err == nil && next > nonce {
			return hash
		}
		if time.Now().After(deadline) {
			m.t.Fatalf("the pool does not count transaction %s after 10 s", hash)
		}
	}
}

// sendTx signs and sends a transaction from key with the given nonce and tip (in gwei), without
// waiting for it.
func (m manualChain) sendTx(key *ecdsa.PrivateKey, to common.Address, data []byte, wei *big.Int, nonce uint64, tipGwei int64) common.Hash {
	m.t.Helper()
	gas := uint64(21000)
	if len(data) > 0 {
		gas = 1_000_000 // not estimated: a call that reverts in a reorg's new blocks must still be mined
	}
	tip := new(big.Int).Mul(big.NewInt(tipGwei), big.NewInt(params.GWei))
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(m.dc.ChainID()), &types.DynamicFeeTx{
		ChainID: m.dc.ChainID(), Nonce: nonce, GasTipCap: tip, GasFeeCap: new(big.Int).Add(tip, big.NewInt(100*params.GWei)),
		Gas: gas, To: &to, Value: wei, Data: data,
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
	t.Parallel()
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
	t.Parallel()
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

// reconcilerFork is a dev chain where node 1 was minted for buyer 0 and credited 1000 wei, then
// buyer 3 sent a plain transfer, buyer 0 withdrew 300 in the next block, two more blocks followed,
// and the reconciler read up to the withdrawal's block.
type reconcilerFork struct {
	manualChain
	beforeMint, beforeTransfer common.Hash // blocks to fork from
	mintNonce                  uint64      // the minter's nonce of the mint
	withdrawal                 common.Hash
	withdrawalBlock            uint64
}

const reorgConfirmations = 2

func newReconcilerFork(t *testing.T) reconcilerFork {
	m := manualChain{newEnvOn(t, devchain.Options{ManualMining: true}, func(c *Config) { c.Confirmations = reorgConfirmations })}
	f := reconcilerFork{manualChain: m}
	_, f.beforeMint = m.head()
	var err error
	if f.mintNonce, err = m.pendingNonce(m.dc.Minter.Address); err != nil {
		t.Fatal(err)
	}
	m.call(m.dc.Minter.Key, m.dc.Factory, factoryABI.PackMint(m.buyer(0), 1, common.Hash{0xaa}), nil)
	m.commit(1)
	m.call(m.dc.Distributor.Key, m.dc.Factory,
		factoryABI.PackDistribute(big.NewInt(77), chain.RoundFixed, big.NewInt(1000), big.NewInt(1), uint64(len(devchain.TierWeights))), big.NewInt(1000)) // the dev deploy's weights: tier 1 at 1×
	m.commit(1)
	_, f.beforeTransfer = m.head()
	m.call(m.dc.Buyers[3].Key, m.buyer(5), nil, tenth)
	m.commit(1)
	f.withdrawal = m.call(m.dc.Buyers[0].Key, m.dc.Factory, factoryABI.PackWithdraw(big.NewInt(1), m.buyer(5), big.NewInt(300)), nil)
	m.commit(1)
	f.withdrawalBlock, _ = m.head()
	for range reorgConfirmations {
		m.dc.Commit()
	}
	sum := mustReconcile(t, m.j)
	if sum.NodesFound != 1 || sum.Withdrawals != 1 || sum.Rewound != 0 || sum.ToBlock != f.withdrawalBlock {
		t.Fatalf("the reconciler before the reorg: %+v", sum)
	}
	f.checkLedger()
	return f
}

// reorg forks the chain from parent, mines the transactions waiting in the pool (the replaced
// blocks' own, unless sent again in their place) once `pending` of them wait, and then enough
// blocks for the reconciler to read past the block it stood on.
func (f reconcilerFork) reorg(pending int) {
	f.t.Helper()
	f.commit(pending)
	for {
		head, _ := f.head()
		if head >= f.withdrawalBlock+reorgConfirmations+1 {
			return
		}
		f.dc.Commit()
	}
}

// checkLedger asserts that the ledger holds exactly the chain's withdrawals, each at its block,
// and that each node the chain has carries nodeInfo's owner and figures.
func (f reconcilerFork) checkLedger() {
	f.t.Helper()
	ctx := f.t.Context()
	head, _ := f.head()
	events, err := f.c.Events(ctx, 0, head)
	if err != nil {
		f.t.Fatal(err)
	}
	onChain := map[string]int64{}
	for _, w := range events.Withdrawn {
		onChain[hexLower(w.TxHash)+"/"+fmt.Sprint(w.LogIndex)] = int64(w.Block)
	}
	var rows []struct {
		Key   string `db:"key"`
		Block int64  `db:"block_number"`
	}
	if err := f.db.DB().Select(&rows, `SELECT tx_hash || '/' || log_index AS key, block_number FROM withdrawals`); err != nil {
		f.t.Fatal(err)
	}
	ledger := map[string]int64{}
	for _, r := range rows {
		ledger[r.Key] = r.Block
	}
	if !maps.Equal(ledger, onChain) {
		f.t.Fatalf("withdrawals (tx/log: block): ledger %v, chain %v", ledger, onChain)
	}
	nodes, err := f.db.NodesFrom(ctx, 0, 100)
	if err != nil {
		f.t.Fatal(err)
	}
	for _, n := range nodes {
		info, err := f.c.NodeInfo(ctx, n.ChainNodeID.Int)
		if errors.Is(err, chain.ErrUnknownNode) {
			continue // the drift report's
		}
		if err != nil {
			f.t.Fatal(err)
		}
		if hexLower(info.Owner) != n.Owner || info.Balance.Cmp(n.BalanceWei.Int) != 0 ||
			info.Credited.Cmp(n.CumulativeWei.Int) != 0 || info.Withdrawn.Cmp(n.WithdrawnWei.Int) != 0 {
			f.t.Fatalf("node %s: chain %+v, ledger %+v", n.ChainNodeID, info, n)
		}
	}
}

// A reorg deeper than the confirmations from before a withdrawal the reconciler recorded: the
// reconciler goes back to the last block whose hash it kept that both agree on (it keeps the
// blocks of its events and the last of each range it reads), takes back what it read above it, and
// reads the chain's blocks instead; the ledger ends with exactly the chain's withdrawals, and the
// node's figures are nodeInfo's again.
func TestReconcilerRewindsAfterAReorg(t *testing.T) {
	t.Parallel()
	t.Run("the new blocks have no withdrawal", func(t *testing.T) {
		f := newReconcilerFork(t)
		if err := f.dc.Fork(f.beforeTransfer); err != nil {
			t.Fatal(err)
		}
		f.transfer(0, f.buyer(5), tenth, 0, 50) // buyer 0's nonce spent elsewhere
		f.reorg(2)                              // with buyer 3's transfer, mined again
		if _, err := f.c.Receipt(t.Context(), f.withdrawal); err == nil {
			t.Fatal("the withdrawal is still on the chain after the reorg")
		}
		// Back to the last block whose hash it kept below the fork: the round's, the block before
		// the replaced ones (the reconciler keeps its events' blocks and each range's last).
		sum := mustReconcile(t, f.j)
		if sum.Rewound != 2 || sum.Withdrawals != 0 || sum.Synced != 1 {
			t.Fatalf("summary %+v: want 2 blocks taken back and the node synced again", sum)
		}
		f.checkLedger()
		if n, err := f.db.NodeByChainID(t.Context(), big.NewInt(1)); err != nil || n.WithdrawnWei.Sign() != 0 {
			t.Fatalf("node %+v, %v: want nothing withdrawn", n, err)
		}
		if again := mustReconcile(t, f.j); again.Rewound != 0 || again.Synced != 0 {
			t.Fatalf("the next pass: %+v", again)
		}
	})

	t.Run("the withdrawal lands in another block", func(t *testing.T) {
		f := newReconcilerFork(t)
		if err := f.dc.Fork(f.beforeTransfer); err != nil {
			t.Fatal(err)
		}
		f.reorg(2) // buyer 3's transfer and the withdrawal, one block earlier than before
		r, err := f.c.Receipt(t.Context(), f.withdrawal)
		if err != nil || r.BlockNumber.Uint64() == f.withdrawalBlock {
			t.Fatalf("receipt %+v, %v: want the withdrawal mined again in another block", r, err)
		}
		sum := mustReconcile(t, f.j)
		if sum.Rewound != 2 || sum.Withdrawals != 1 {
			t.Fatalf("summary %+v: want 2 blocks taken back (to the round's) and the withdrawal recorded afresh", sum)
		}
		f.checkLedger()
	})

	t.Run("the node's mint is gone", func(t *testing.T) {
		f := newReconcilerFork(t)
		if err := f.dc.Fork(f.beforeMint); err != nil {
			t.Fatal(err)
		}
		f.sendTx(f.dc.Minter.Key, f.buyer(5), nil, tenth, f.mintNonce, 50) // the minter's nonce spent elsewhere
		f.reorg(4)                                                         // the credit, transfer and withdrawal again: the first two revert
		sum := mustReconcile(t, f.j)
		if sum.Rewound != 4 || sum.Withdrawals != 0 || sum.NodesFound != 0 {
			t.Fatalf("summary %+v: want 4 blocks taken back and nothing found", sum)
		}
		f.checkLedger()
		rep, err := f.j.Drift(t.Context(), 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Nodes) != 1 || rep.Nodes[0].Field != "exists" || rep.Nodes[0].Chain != "false" {
			t.Fatalf("drift %+v: want the node the chain no longer has", rep.Nodes)
		}
		// No round credits it: the chain has no node.
		if n, err := f.db.NodeByChainID(t.Context(), big.NewInt(1)); err != nil || n.Status != "unconfirmed" {
			t.Fatalf("node %+v, %v: want it unconfirmed", n, err)
		}
		storetest.Due(t, f.db, time.Now().Add(-time.Minute))
		if sum := mustCredit(t, f.j); sum.Nodes != 0 {
			t.Fatalf("credit pass %+v: want the node left out", sum)
		}
	})
}

// A reorg that replaced blocks of a range the scan skipped (the payments wallet did not move)
// replaced its last block too, whose hash the scan kept: the scan goes back to the last hash it
// kept that the chain still has, before the range, and finds the payment the new blocks hold.
func TestReorgOfASkippedRange(t *testing.T) {
	t.Parallel()
	// skip has the scan record the blocks up to head - confirmations, at least 30 of them, as one
	// skipped range; it returns the range's last block.
	skip := func(m manualChain) uint64 {
		t.Helper()
		for range 30 {
			m.dc.Commit()
		}
		sum := mustPass(t, m.j)
		if kept := hashesKept(t, m.db, sum.FromBlock+1, sum.ToBlock); sum.ToBlock-sum.FromBlock < 20 || !slices.Equal(kept, []int64{int64(sum.ToBlock)}) {
			t.Fatalf("summary %+v, hashes kept of %v: want a skipped range: no hash kept inside it but its last block's", sum, kept)
		}
		return sum.ToBlock
	}
	// payAfter forks the chain from block parent, mines a payment to the payments wallet (off
	// sale: rejected, no mint to wait for) in the next block, and blocks up to past block past.
	payAfter := func(m manualChain, parent, past uint64) {
		t.Helper()
		b, err := m.c.Blocks(t.Context(), parent, parent)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.dc.Fork(b[0].Hash); err != nil {
			t.Fatal(err)
		}
		nonce, err := m.pendingNonce(m.buyer(0))
		if err != nil {
			t.Fatal(err)
		}
		m.transfer(0, m.dc.Payments, priceOff, nonce, 1)
		m.commit(1)
		for head, _ := m.head(); head <= past+reorgConfirmations; head++ {
			m.dc.Commit()
		}
	}
	newChain := func(t *testing.T) manualChain {
		return manualChain{newEnvOn(t, devchain.Options{ManualMining: true}, func(c *Config) { c.Confirmations = reorgConfirmations })}
	}

	t.Run("inside the range", func(t *testing.T) {
		m := newChain(t)
		end := skip(m)
		payAfter(m, end-10, end)
		sum := mustPass(t, m.j)
		if sum.Rewound < 11 || sum.Seen != 1 || sum.Rejected != 1 {
			t.Fatalf("summary %+v: want the skipped range taken back and the new blocks' payment seen", sum)
		}
	})

	t.Run("at the end of the range, another skipped after it", func(t *testing.T) {
		m := newChain(t)
		first := skip(m)
		second := skip(m)
		payAfter(m, first-1, second)
		sum := mustPass(t, m.j)
		if sum.Rewound < int64(second-first+1) || sum.Seen != 1 || sum.Rejected != 1 {
			t.Fatalf("summary %+v: want both skipped ranges taken back and the new blocks' payment seen", sum)
		}
	})
}

// hashesKept lists the blocks from..to whose hash the payments scan keeps.
func hashesKept(t *testing.T, db *store.Store, from, to uint64) []int64 {
	t.Helper()
	var kept []int64
	if err := db.DB().Select(&kept, `SELECT number FROM scanned_blocks WHERE scanner = 'payments' AND number BETWEEN $1 AND $2 ORDER BY number`, from, to); err != nil {
		t.Fatal(err)
	}
	return kept
}
