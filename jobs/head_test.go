package jobs

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"

	"nodeledger/chain"
	"nodeledger/chain/devchain"
	"nodeledger/store/storetest"
)

// client is a client of e's chain over transport: "subscription" (in process, where the node
// pushes new heads) or "polling" (HTTP, where Heads asks for them).
func (e *env) client(transport string) *chain.Client {
	e.t.Helper()
	if transport == "subscription" {
		return e.c
	}
	c, err := chain.Dial(e.t.Context(), e.dc.RPCURL(), chain.Config{Factory: e.dc.Factory})
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(c.Close)
	return c
}

var transports = []string{"subscription", "polling"}

// A reader that falls behind reads the newest head, not a queue of the ones it missed; and a
// reader content with a head a moment old has the one the follower saw (FollowedHead), none
// before it follows; a pushed head whatever its age.
func TestHeadsCoalesce(t *testing.T) {
	t.Parallel()
	for _, transport := range transports {
		t.Run(transport, func(t *testing.T) {
			e := newEnvOn(t, devchain.Options{ManualMining: true, RPCAddr: "127.0.0.1:0"})
			c := e.client(transport)
			if n, ok := c.FollowedHead(time.Hour); ok {
				t.Fatalf("a followed head (%d) before any follower", n)
			}
			heads := c.Heads(t.Context())
			first := <-heads
			if n, ok := c.FollowedHead(time.Hour); !ok || n != first {
				t.Fatalf("the followed head is %d (%v), the follower's %d", n, ok, first)
			}
			// A head the node pushed is the head until another comes (or the subscription falls
			// silent); one asked for is as old as the asking.
			if n, ok := c.FollowedHead(0); ok != (transport == "subscription") {
				t.Fatalf("%s: a followed head (%d, %v) younger than nothing", transport, n, ok)
			}
			for range 5 {
				e.dc.Commit()
			}
			read := 0
			for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("head %d never read after %d reads", first+5, read)
				}
				select {
				case n := <-heads:
					read++
					if n == first+5 {
						if read > 2 {
							t.Fatalf("%d heads read to reach the newest of 5 new blocks: want it at once, or after one read before the rest came", read)
						}
						return
					}
				default:
				}
			}
		})
	}
}

// With an hour between ticks, a payment is minted a few blocks after its confirmations, the
// head's passes doing the work: the mint is sent at the head that confirms the payment, and
// recorded at the head that mines it.
func TestPaymentsFollowTheHead(t *testing.T) {
	t.Parallel()
	for _, transport := range transports {
		t.Run(transport, func(t *testing.T) {
			const confirmations = 2
			e := newEnvOn(t, devchain.Options{RPCAddr: "127.0.0.1:0"}, func(c *Config) { c.Confirmations = confirmations })
			c := e.client(transport)
			j := New(e.db, c, chain.LocalSigner(e.dc.Minter.Key), chain.LocalSigner(e.dc.Distributor.Key), e.cfg, e.j.log)
			stop, shutdown := context.WithCancel(t.Context())
			var wg sync.WaitGroup
			wg.Go(func() { j.Run(stop, t.Context(), time.Hour) })
			wg.Go(func() { j.FollowHead(stop, t.Context()) })
			defer func() { shutdown(); wg.Wait() }()

			paid := e.receipt(e.pay(0, e.dc.Payments, priceOne)).BlockNumber.Uint64()
			var recordedAt uint64
			for deadline := time.Now().Add(time.Minute); len(payments(t, e.db, "minted")) == 0; time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("the payment of block %d is not minted a minute later (head %d)", paid, e.head())
				}
				recordedAt = e.head()
			}
			node := e.checkNodes(e.buyer(0), 1)[0]
			mined := e.receipt(common.HexToHash(node.MintTx)).BlockNumber.Uint64()
			t.Logf("paid in block %d, mint mined in block %d, recorded at head %d or before (confirmations %d)", paid, mined, recordedAt, confirmations)
			if mined > paid+confirmations+2 || recordedAt > paid+confirmations+3 {
				t.Fatalf("paid in block %d, mint mined in block %d and recorded at head %d: want at most %d and %d",
					paid, mined, recordedAt, paid+confirmations+2, paid+confirmations+3)
			}
			var ticks int
			if err := e.db.DB().Get(&ticks, `SELECT count(*) FROM scheduler_ticks`); err != nil || ticks != 1 {
				t.Fatalf("%d ticks recorded (err %v): want the start's only, not one a block", ticks, err)
			}
		})
	}
}

// The continuous verifier follows the head: a payment pending when the reconciler last read its
// block holds that block back from final; once the head's payments pass settles it, the block is
// final and the verifier verifies it at the next head, with no tick.
func TestVerifiedAtTheHead(t *testing.T) {
	t.Parallel()
	const confirmations = 2
	scratch := storetest.New(t)
	e := newEnvOn(t, devchain.Options{EmptyBlockInterval: 200 * time.Millisecond}, func(c *Config) {
		c.Confirmations, c.VerifyInto = confirmations, scratch
	})
	e.logDeployment()
	paid := e.receipt(e.pay(0, e.dc.Payments, priceOne)).BlockNumber.Int64()
	for e.head() < uint64(paid)+confirmations {
		time.Sleep(50 * time.Millisecond)
	}
	j := e.restart()
	if sum, err := j.Reconcile(t.Context()); err != nil || int64(sum.ToBlock) < paid {
		t.Fatalf("reconcile: %+v, %v; want it past block %d", sum, err, paid)
	}
	if final, _, _ := e.db.DigestFrontier(t.Context()); final >= paid {
		t.Fatalf("block %d final before its payment was judged (final to %d)", paid, final)
	}
	stop, shutdown := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	wg.Go(func() { j.FollowHead(stop, t.Context()) })
	defer func() { shutdown(); wg.Wait() }()

	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		v, err := e.db.Verification(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if v.MismatchBlock != nil {
			t.Fatalf("the verifier found a mismatch at block %d: %+v", *v.MismatchBlock, v.Mismatch)
		}
		if v.VerifiedTo != nil && *v.VerifiedTo >= paid {
			break
		}
		if time.Now().After(deadline) {
			verified := "none"
			if v.VerifiedTo != nil {
				verified = fmt.Sprint(*v.VerifiedTo)
			}
			t.Fatalf("block %d is not verified a minute later (verified to %s, head %d)", paid, verified, e.head())
		}
	}
	if minted := payments(t, e.db, "minted"); len(minted) != 1 {
		t.Fatalf("%d payments minted, want 1", len(minted))
	}
}

// 50 payments in one block all get their mints in flight, in batches at consecutive nonces,
// before any is mined; the next block carries them all.
func TestPaymentsInOneBlockMintAtConsecutiveNonces(t *testing.T) {
	t.Parallel()
	const n = 50
	e := newEnvOn(t, devchain.Options{ManualMining: true}, func(c *Config) { c.ReceiptTimeout = time.Nanosecond })
	m := manualChain{e}
	m.payFrom(m.wallets(n))

	sum := mustPass(t, e.restart())
	if sum.Seen != n || sum.Minting != n || sum.Minted != 0 {
		t.Fatalf("summary %+v", sum)
	}
	var nonces []int64
	for _, p := range payments(t, e.db, "minting") {
		nonces = append(nonces, *p.MintNonce)
	}
	slices.Sort(nonces)
	nonces = slices.Compact(nonces)
	for i := range nonces {
		if nonces[i] != nonces[0]+int64(i) {
			t.Fatalf("mint nonces %v: want consecutive", nonces)
		}
	}
	txs := len(nonces)
	if txs < 2 || txs > n/5 {
		t.Fatalf("%d payments minted in %d transactions: want batches (of at most a quarter block's gas each)", n, txs)
	}
	if st, err := e.c.RoundState(t.Context()); err != nil || st.Nodes != 0 || e.dc.Pending() != txs {
		t.Fatalf("%d nodes on chain (err %v), %d transactions in the pool: want none mined, %d waiting", st.Nodes, err, e.dc.Pending(), txs)
	}

	m.commit(txs)
	if sum := mustPass(t, e.restart()); sum.Minted != n {
		t.Fatalf("after a block: %+v", sum)
	}
	blocks := map[uint64]bool{}
	var gas []uint64
	for _, p := range payments(t, e.db, "minted") {
		r := e.receipt(common.HexToHash(*p.MintTx))
		blocks[r.BlockNumber.Uint64()] = true
		gas = append(gas, r.GasUsed)
	}
	slices.Sort(gas)
	t.Logf("gas used by %d mints in %d transactions, each a wallet's first node (the dev chain's schedule): %d to %d a transaction", n, txs, gas[0], gas[len(gas)-1])
	if len(blocks) != 1 {
		t.Fatalf("the %d mints were mined in blocks %v, want one", n, blocks)
	}
}

// A pass with mints in flight costs the same JSON-RPC requests however many they are: it reads
// the minter's mined nonce, not a receipt per mint, and sends none again unless one waits too
// long. The requests of passes with 0, 1, 5, 50 and 100 mints in flight (none mined) are logged.
func TestPassCostDoesNotGrowWithMintsInFlight(t *testing.T) {
	t.Parallel()
	cost := map[int]int64{}
	for _, n := range []int{0, 1, 5, 50, 100} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			e := newEnvOn(t, devchain.Options{ManualMining: true}, func(c *Config) { c.ReceiptTimeout = time.Nanosecond })
			m := manualChain{e}
			if n > 0 {
				m.payFrom(m.wallets(n))
			}
			j := e.restart()
			ctx, calls := chain.CountCalls(t.Context())
			first, err := j.Payments(ctx)
			if err != nil || first.Minting != n {
				t.Fatalf("first pass: %+v, %v", first, err)
			}
			sending := calls.N()
			ctx, calls = chain.CountCalls(t.Context())
			sum, err := j.Payments(ctx)
			if err != nil || sum.Minting != n {
				t.Fatalf("second pass: %+v, %v", sum, err)
			}
			cost[n] = calls.N()
			t.Logf("%d mints in flight: the pass that sent them made %d requests, the next %d", n, sending, cost[n])
		})
	}
	if cost[1] != cost[5] || cost[5] != cost[50] || cost[50] != cost[100] {
		t.Fatalf("requests of a pass by mints in flight: %v, want as many with 1, 5, 50 or 100", cost)
	}
}

// A pass that fails after storing a mint it did not send leaves the next pass of the same
// instance to send it: the node may never have had it.
func TestAFailedPassLeavesItsMintsToBeSentAgain(t *testing.T) {
	t.Parallel()
	// Mined by hand, so that the mint waits in the pool where the test looks for it.
	m := manualChain{newEnvOn(t, devchain.Options{ManualMining: true})}
	e := m.env
	m.transfer(0, e.dc.Payments, priceOne, 0, 1)
	m.commit(1)
	j := e.restart()
	j.crash = crashAt("mint.stored", 1)
	if _, err := j.Payments(t.Context()); !errors.Is(err, errCrash) {
		t.Fatalf("pass: %v, want the crash after the mint was stored", err)
	}
	j.crash = nil
	if _, err := j.payments(t.Context(), 0); err != nil {
		t.Fatal(err)
	}
	stored := common.HexToHash(*payments(t, e.db, "minting")[0].MintTx)
	var tx json.RawMessage
	if err := e.dc.RPC().CallContext(t.Context(), &tx, "eth_getTransactionByHash", stored); err != nil {
		t.Fatal(err)
	}
	if string(tx) == "null" || len(tx) == 0 {
		t.Fatal("the mint the failed pass stored was not sent by the next pass")
	}
	m.commit(1)
	e.settle()
	e.checkNodes(e.buyer(0), 1)
}

// wallets makes n new wallets holding 1 ETH each, funded by dev buyer 5 in one block.
func (m manualChain) wallets(n int) []*ecdsa.PrivateKey {
	m.t.Helper()
	nonce, err := m.pendingNonce(m.buyer(5))
	if err != nil {
		m.t.Fatal(err)
	}
	keys := make([]*ecdsa.PrivateKey, n)
	for i := range keys {
		if keys[i], err = crypto.GenerateKey(); err != nil {
			m.t.Fatal(err)
		}
		m.transfer(5, crypto.PubkeyToAddress(keys[i].PublicKey), ether, nonce+uint64(i), 1)
	}
	m.commit(n)
	return keys
}

// payFrom has each of keys pay tier 1's price, all in one block.
func (m manualChain) payFrom(keys []*ecdsa.PrivateKey) {
	m.t.Helper()
	for _, k := range keys {
		tip := big.NewInt(params.GWei)
		tx, err := types.SignNewTx(k, types.LatestSignerForChainID(m.dc.ChainID()), &types.DynamicFeeTx{
			ChainID: m.dc.ChainID(), GasTipCap: tip, GasFeeCap: big.NewInt(100 * params.GWei), Gas: 21000, To: &m.dc.Payments, Value: priceOne,
		})
		if err != nil {
			m.t.Fatal(err)
		}
		// The pool takes a moment to see the block that funded the wallet.
		for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
			err := m.c.Send(m.t.Context(), tx)
			if err == nil {
				break
			}
			if !errors.Is(err, chain.ErrInsufficientFunds) || time.Now().After(deadline) {
				m.t.Fatal(err)
			}
		}
	}
	m.commit(len(keys))
}

// receipt is the receipt of a mined transaction.
func (e *env) receipt(hash common.Hash) *types.Receipt {
	e.t.Helper()
	r, err := e.c.Receipt(e.t.Context(), hash)
	if err != nil {
		e.t.Fatalf("receipt of %s: %v", hash, err)
	}
	return r
}

// head is the chain's head.
func (e *env) head() uint64 {
	e.t.Helper()
	n, err := e.c.HeadNumber(e.t.Context())
	if err != nil {
		e.t.Fatal(err)
	}
	return n
}
