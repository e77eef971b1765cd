package chain

import (
	"crypto/ecdsa"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/params"

	"nodeledger/chain/bindings"
)

var ether = big.NewInt(params.Ether)

// testChain is a simulated chain that mines every few milliseconds, with a deployed factory.
type testChain struct {
	sim                        *simulated.Backend
	c                          *Client
	owner, minter, distributor *Sender
	buyer, minterKey           *ecdsa.PrivateKey
	chainID                    *big.Int
}

func newTestChain(t *testing.T) *testChain {
	t.Helper()
	keys := make([]*ecdsa.PrivateKey, 4)
	alloc := types.GenesisAlloc{}
	for i := range keys {
		keys[i], _ = crypto.GenerateKey()
		alloc[crypto.PubkeyToAddress(keys[i].PublicKey)] = types.Account{Balance: new(big.Int).Mul(big.NewInt(1000), ether)}
	}
	ipc := filepath.Join(t.TempDir(), "sim.ipc")
	sim := simulated.NewBackend(alloc, func(nc *node.Config, _ *ethconfig.Config) { nc.IPCPath = ipc })
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
				sim.Commit()
			}
		}
	}()
	t.Cleanup(func() { close(stop); <-done; sim.Close() })

	c, err := Dial(t.Context(), ipc, Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	tc := &testChain{sim: sim, c: c, chainID: big.NewInt(1337), buyer: keys[3], minterKey: keys[1]}
	tc.owner = tc.c.NewSender(LocalSigner(keys[0]), tc.chainID)
	tc.minter = tc.c.NewSender(LocalSigner(keys[1]), tc.chainID)
	tc.distributor = tc.c.NewSender(LocalSigner(keys[2]), tc.chainID)
	factory, err := tc.c.DeployFactory(t.Context(), tc.owner, tc.minter.From, tc.distributor.From, 5)
	if err != nil {
		t.Fatal(err)
	}
	tc.c.factory = factory
	return tc
}

// transact signs, sends and waits for a call from s, and fails the test unless it succeeds.
func (tc *testChain) transact(t *testing.T, s *Sender, to common.Address, data []byte, value *big.Int) *types.Receipt {
	t.Helper()
	r, err := s.Transact(t.Context(), &to, data, value)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("transaction %s reverted", r.TxHash)
	}
	return r
}

func TestNodesAndCover(t *testing.T) {
	tc := newTestChain(t)
	ctx := t.Context()
	buyer := crypto.PubkeyToAddress(tc.buyer.PublicKey)

	cv, err := tc.c.Cover(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if cv.Balance.Sign() != 0 || cv.Outstanding.Sign() != 0 || !cv.Solvent || cv.Paused || !cv.Covered() {
		t.Fatalf("fresh factory: %+v", cv)
	}

	for i := range 2 {
		tc.transact(t, tc.minter, tc.c.factory, tc.c.MintData(buyer, 1, common.Hash{byte(i + 1)}), nil)
	}
	ids, err := tc.c.NodesOf(ctx, buyer)
	if err != nil || fmt.Sprint(ids) != "[1 2]" {
		t.Fatalf("nodesOf: %v %v", ids, err)
	}
	// Tier 1 at 1.5×, set by the owner (weights version 1): a base of 200 credits each node 300.
	tc.transact(t, tc.owner, tc.c.factory, tc.c.SetTierWeightData(1, 15000), nil)
	r := tc.transact(t, tc.distributor, tc.c.factory, tc.c.DistributeData(big.NewInt(7), RoundFixed, big.NewInt(200), 2, 1), big.NewInt(1000))
	if total, ok := tc.c.DistributedIn(r); !ok || total.Int64() != 600 {
		t.Fatalf("DistributedIn: %v %v, want 600", total, ok)
	}

	info, err := tc.c.NodeInfo(ctx, big.NewInt(1))
	if err != nil {
		t.Fatal(err)
	}
	if info.Owner != buyer || info.Tier != 1 || info.Balance.Int64() != 300 || info.Credited.Int64() != 300 || info.Withdrawn.Sign() != 0 {
		t.Fatalf("nodeInfo(1): %+v", info)
	}
	st, err := tc.c.RoundState(ctx, 1, 4)
	if err != nil || st.Nodes != 2 || st.PoolCarry.Sign() != 0 || st.Block == 0 || fmt.Sprint(st.TierNodes) != "map[1:2]" ||
		fmt.Sprint(st.Weights) != "map[1:15000 4:0]" || st.WeightsVersion != 1 {
		t.Fatalf("RoundState: %+v %v", st, err)
	}
	if _, err := tc.c.NodeInfo(ctx, big.NewInt(99)); !errors.Is(err, ErrUnknownNode) {
		t.Fatalf("nodeInfo(99): %v, want ErrUnknownNode", err)
	}

	cv, err = tc.c.Cover(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if cv.Balance.Int64() != 1000 || cv.Outstanding.Int64() != 600 || !cv.Covered() || !cv.Solvent || cv.Block == 0 {
		t.Fatalf("after a round: %+v", cv)
	}

	// A pool of 30,001 over a weight of 30,000: 1 wei per unit, 1 wei carried to the next pool.
	tc.transact(t, tc.distributor, tc.c.factory, tc.c.DistributeData(big.NewInt(8), RoundPool, big.NewInt(30001), 2, 1), big.NewInt(30001))
	if st, err := tc.c.RoundState(ctx); err != nil || st.Nodes != 2 || st.PoolCarry.Int64() != 1 {
		t.Fatalf("RoundState after a pool round: %+v %v", st, err)
	}
	if info, err := tc.c.NodeInfo(ctx, big.NewInt(2)); err != nil || info.Credited.Int64() != 300+15000 {
		t.Fatalf("nodeInfo(2) after a pool round: %+v %v", info, err)
	}

	t.Run("paused shows", func(t *testing.T) {
		tc.transact(t, tc.owner, tc.c.factory, tc.c.nf.PackSetPaused(true), nil)
		cv, err := tc.c.Cover(ctx)
		if err != nil || !cv.Paused {
			t.Fatalf("got %+v, %v", cv, err)
		}
	})
	t.Run("a revert names the custom error", func(t *testing.T) {
		to := tc.c.factory
		_, err := tc.minter.Sign(ctx, &to, tc.c.MintData(buyer, 1, common.Hash{9}), nil)
		var re *RevertError
		if !errors.As(err, &re) || re.Name != "MintingPaused" {
			t.Fatalf("minting while paused: %v", err)
		}
	})
}

func TestBlocksAndLogs(t *testing.T) {
	tc := newTestChain(t)
	ctx := t.Context()
	buyer := crypto.PubkeyToAddress(tc.buyer.PublicKey)
	payTo := common.HexToAddress("0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc")
	buyerSender := tc.c.NewSender(LocalSigner(tc.buyer), tc.chainID)

	start, err := tc.c.HeadNumber(ctx)
	if err != nil {
		t.Fatal(err)
	}
	transfer := tc.transact(t, buyerSender, payTo, nil, ether)
	mint := tc.transact(t, tc.minter, tc.c.factory, tc.c.MintData(buyer, 2, transfer.TxHash), nil)
	end, _ := tc.c.HeadNumber(ctx)

	blocks, err := tc.c.Blocks(ctx, start+1, end, payTo, tc.c.factory)
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != int(end-start) {
		t.Fatalf("%d blocks for %d..%d", len(blocks), start+1, end)
	}
	var found []Tx
	for i, b := range blocks {
		if b.Number != start+1+uint64(i) || (i > 0 && b.ParentHash != blocks[i-1].Hash) {
			t.Fatalf("block %d out of order or unlinked", b.Number)
		}
		found = append(found, b.Txs...)
	}
	if len(found) != 2 {
		t.Fatalf("found %d transactions, want 2", len(found))
	}
	if tx := found[0]; tx.Hash != transfer.TxHash || tx.From != buyer || *tx.To != payTo || tx.Value.Cmp(ether) != 0 {
		t.Fatalf("transfer: %+v", tx)
	}
	if tx := found[1]; tx.Hash != mint.TxHash || *tx.To != tc.c.factory || len(tx.Input) == 0 {
		t.Fatalf("mint: %+v", tx)
	}
	t.Run("outcomes from the receipts", func(t *testing.T) {
		if err := tc.c.Outcomes(ctx, blocks, func(Block, Tx) bool { return true }); err != nil {
			t.Fatal(err)
		}
		for _, r := range []*types.Receipt{transfer, mint} {
			var tx Tx
			for _, b := range blocks {
				for _, x := range b.Txs {
					if x.Hash == r.TxHash {
						tx = x
					}
				}
			}
			fee := new(big.Int).Mul(new(big.Int).SetUint64(r.GasUsed), r.EffectiveGasPrice)
			if tx.Status != types.ReceiptStatusSuccessful || tx.Fee == nil || tx.Fee.Sign() == 0 || tx.Fee.Cmp(fee) != 0 {
				t.Fatalf("%s: status %d fee %v, want 1 and %s", r.TxHash, tx.Status, tx.Fee, fee)
			}
		}
		// A transaction need leaves out is taken as successful, its fee unknown.
		again, err := tc.c.Blocks(ctx, start+1, end, payTo)
		if err != nil {
			t.Fatal(err)
		}
		if err := tc.c.Outcomes(ctx, again, func(Block, Tx) bool { return false }); err != nil {
			t.Fatal(err)
		}
		for _, b := range again {
			for _, tx := range b.Txs {
				if tx.Status != types.ReceiptStatusSuccessful || tx.Fee != nil {
					t.Fatalf("left out: %+v", tx)
				}
			}
		}
	})
	t.Run("only the watched transactions", func(t *testing.T) {
		blocks, err := tc.c.Blocks(ctx, start+1, end, payTo)
		if err != nil {
			t.Fatal(err)
		}
		var txs []Tx
		for _, b := range blocks {
			txs = append(txs, b.Txs...)
		}
		if len(txs) != 1 || txs[0].Hash != transfer.TxHash {
			t.Fatalf("watching the payments address: %+v", txs)
		}
		bare, err := tc.c.Blocks(ctx, start+1, end)
		if err != nil || len(bare) != len(blocks) || bare[0].Hash != blocks[0].Hash || len(bare[0].Txs)+len(bare[len(bare)-1].Txs) != 0 {
			t.Fatalf("watching nothing: %+v, %v", bare, err)
		}
	})

	t.Run("many batches, in order", func(t *testing.T) {
		head := end
		for head < 3*fullBlocksPerBatch { // the chain mines empty blocks every few milliseconds
			time.Sleep(10 * time.Millisecond)
			head, _ = tc.c.HeadNumber(ctx)
		}
		all, err := tc.c.Blocks(ctx, 0, head, payTo, tc.c.factory)
		if err != nil || len(all) != int(head+1) {
			t.Fatalf("%d blocks for 0..%d, %v", len(all), head, err)
		}
		for i, b := range all {
			if b.Number != uint64(i) || (i > 0 && b.ParentHash != all[i-1].Hash) {
				t.Fatalf("block %d out of order or unlinked", b.Number)
			}
		}
		if got := all[start+1].Hash; got != blocks[0].Hash {
			t.Fatalf("block %d: %s, then %s", start+1, blocks[0].Hash, got)
		}
	})
	t.Run("balance changes", func(t *testing.T) {
		changes, err := tc.c.BalanceChanges(ctx, 0, end, payTo)
		if err != nil || len(changes) != int(end+1) {
			t.Fatalf("%d changes for 0..%d, %v", len(changes), end, err)
		}
		for _, ch := range changes {
			want := new(big.Int)
			if ch.Block == transfer.BlockNumber.Uint64() {
				want = ether
			}
			if ch.Delta.Cmp(want) != 0 || ch.HasCode {
				t.Fatalf("block %d: %+v, want a change of %s and no code", ch.Block, ch, want)
			}
		}
		n := mint.BlockNumber.Uint64()
		factory, err := tc.c.BalanceChanges(ctx, n, n, tc.c.factory)
		if err != nil || len(factory) != 1 || !factory[0].HasCode || factory[0].Delta.Sign() != 0 {
			t.Fatalf("the factory in block %d: %+v, %v", n, factory, err)
		}
	})

	minted := bindings.NewNodeFactory().GetABI().Events["NodeMinted"].ID
	logs, err := tc.c.FactoryLogs(ctx, 0, end, []common.Hash{minted})
	if err != nil || len(logs) != 1 {
		t.Fatalf("NodeMinted logs: %d, %v", len(logs), err)
	}
	ev, err := tc.c.nf.UnpackNodeMintedEvent(&logs[0])
	if err != nil || ev.Owner != buyer || ev.Tier != 2 || ev.PaymentRef != transfer.TxHash || ev.Id.Int64() != 1 {
		t.Fatalf("event %+v, %v", ev, err)
	}
}

func TestSendTwice(t *testing.T) {
	tc := newTestChain(t)
	to := tc.c.factory
	buyer := crypto.PubkeyToAddress(tc.buyer.PublicKey)
	a, err := tc.minter.Sign(t.Context(), &to, tc.c.MintData(buyer, 1, common.Hash{1}), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := tc.minter.Sign(t.Context(), &to, tc.c.MintData(buyer, 1, common.Hash{2}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if b.Nonce() != a.Nonce()+1 {
		t.Fatalf("nonces %d then %d", a.Nonce(), b.Nonce())
	}
	// The stored bytes of a transaction sent before a crash can be sent again: while it waits in
	// the pool, and once it is mined.
	for range 2 {
		if err := tc.c.Send(t.Context(), a); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tc.c.WaitMined(t.Context(), a.Hash(), 5*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if err := tc.c.Send(t.Context(), a); err != nil {
		t.Fatalf("sending a mined transaction again: %v", err)
	}
	if err := tc.c.Send(t.Context(), b); err != nil {
		t.Fatal(err)
	}
	for _, tx := range []*types.Transaction{a, b} {
		if r, err := tc.c.WaitMined(t.Context(), tx.Hash(), 5*time.Millisecond); err != nil || r.Status != 1 {
			t.Fatalf("%s: %v", tx.Hash(), err)
		}
	}
}

// geth indexes a block's receipts a moment before its head moves there; a read right after
// Transact must still see the transaction's block. The window is narrow: before waitMined waited
// for the head, 2 runs in 5 of 1,500 transfers under -race caught it; 300 is what the
// suite can afford.
func TestTransactSeesItsBlock(t *testing.T) {
	tc := newTestChain(t)
	to := crypto.PubkeyToAddress(tc.buyer.PublicKey)
	for i := range 300 {
		r := tc.transact(t, tc.owner, to, nil, big.NewInt(1))
		head, err := tc.c.HeadNumber(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if head < r.BlockNumber.Uint64() {
			t.Fatalf("transfer %d: head %d is below its block %d", i, head, r.BlockNumber)
		}
	}
}

func TestPriceFeed(t *testing.T) {
	tc := newTestChain(t)
	agg := bindings.NewMockAggregator()
	code := append(common.FromHex(bindings.MockAggregatorMetaData.Bin), agg.PackConstructor(8, "ETH / USD", big.NewInt(3141_59000000))...)
	r, err := tc.owner.Transact(t.Context(), nil, code, nil)
	if err != nil {
		t.Fatal(err)
	}
	feed := New(tc.c.endpoints[0].rpc, Config{PriceFeed: r.ContractAddress})
	if usd, err := feed.USDPerETH(t.Context()); err != nil || usd != 3141.59 {
		t.Fatalf("got %v, %v", usd, err)
	}
	tc.transact(t, tc.owner, r.ContractAddress, agg.PackSetAnswer(big.NewInt(0)), nil)
	if usd, err := feed.USDPerETH(t.Context()); err == nil {
		t.Fatalf("a zero answer gave a price: %v", usd)
	}
	if _, err := tc.c.USDPerETH(t.Context()); !errors.Is(err, ErrNoPriceFeed) {
		t.Fatalf("without a feed: %v", err)
	}
}

func TestUnavailable(t *testing.T) {
	t.Run("nothing listening", func(t *testing.T) {
		c, err := Dial(t.Context(), "http://127.0.0.1:1", Config{})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if _, err := c.Cover(t.Context()); !errors.Is(err, ErrUnavailable) {
			t.Fatalf("got %v, want ErrUnavailable", err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("gave up after %v", d)
		}
	})
	t.Run("transient failures are retried with backoff", func(t *testing.T) {
		var calls atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			if calls.Add(1) <= 2 {
				http.Error(w, "overloaded", http.StatusServiceUnavailable)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"jsonrpc":"2.0","id":1,"result":"0x2a"}`)
		}))
		defer srv.Close()
		c, _ := Dial(t.Context(), srv.URL, Config{})
		if n, err := c.HeadNumber(t.Context()); err != nil || n != 42 {
			t.Fatalf("got %d, %v after %d calls", n, err, calls.Load())
		}
		if calls.Load() != 3 {
			t.Fatalf("%d calls, want 2 failures and a success", calls.Load())
		}
	})
	t.Run("errors of the request are not retried", func(t *testing.T) {
		var calls atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			calls.Add(1)
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"invalid argument"}}`)
		}))
		defer srv.Close()
		c, _ := Dial(t.Context(), srv.URL, Config{})
		_, err := c.HeadNumber(t.Context())
		if err == nil || errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "invalid argument") || calls.Load() != 1 {
			t.Fatalf("got %v after %d calls", err, calls.Load())
		}
	})
}

// TestCountCalls: a count sees each request made with its context, a batch's elements one each,
// and an enclosing count sees what an inner one counts.
func TestCountCalls(t *testing.T) {
	tc := newTestChain(t)
	outer, all := CountCalls(t.Context())
	inner, blocks := CountCalls(outer)
	for head := uint64(0); head < 9; time.Sleep(10 * time.Millisecond) {
		head, _ = tc.c.HeadNumber(t.Context())
	}
	if _, err := tc.c.Blocks(inner, 0, 9); err != nil { // 10 blocks without transactions: one batch
		t.Fatal(err)
	}
	if _, err := tc.c.HeadNumber(outer); err != nil {
		t.Fatal(err)
	}
	if blocks.N() != 10 || all.N() != 11 {
		t.Fatalf("counted %d requests for 10 blocks and %d in all, want 10 and 11", blocks.N(), all.N())
	}
	if _, err := tc.c.HeadNumber(t.Context()); err != nil {
		t.Fatal(err)
	}
	if all.N() != 11 {
		t.Fatalf("a request made without the count's context was counted: %d", all.N())
	}
}

// TestAtHead: work a head started reads that head without asking the node, and work that waits
// for the head to move (Moving) asks again.
func TestAtHead(t *testing.T) {
	tc := newTestChain(t)
	ctx, calls := CountCalls(t.Context())
	at := AtHead(ctx, 7)
	if n, err := tc.c.HeadNumber(at); n != 7 || err != nil || calls.N() != 0 {
		t.Fatalf("at head 7: %d, %v after %d requests, want 7 after none", n, err, calls.N())
	}
	// The test chain makes a block every 5 ms: the head asked for is between the heads read
	// just before and just after it (uncounted), not one of them.
	before, err := tc.c.HeadNumber(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	moving := Moving(at)
	n, err := tc.c.HeadNumber(moving)
	after, afterErr := tc.c.HeadNumber(t.Context())
	if afterErr != nil {
		t.Fatal(afterErr)
	}
	if n < before || n > after || err != nil || calls.N() != 1 {
		t.Fatalf("moving: %d, %v after %d requests, want %d to %d after one", n, err, calls.N(), before, after)
	}
	if Moving(moving) != moving || Moving(ctx) != ctx {
		t.Fatal("a context that asks already was wrapped again: a waiting loop would nest one a turn")
	}
}

// TestFollowedHead: a head the node pushed stays the head past a reader's maxAge, until the
// subscription has been silent for headQuiet; a head the follower asked for does not.
func TestFollowedHead(t *testing.T) {
	c := &Client{}
	if _, ok := c.FollowedHead(time.Second); ok {
		t.Fatal("a head without a follower")
	}
	for _, tc := range []struct {
		pushed bool
		age    time.Duration
		want   bool
	}{{true, 500 * time.Millisecond, true}, {true, 5 * time.Second, true}, {true, headQuiet + time.Second, false},
		{false, 500 * time.Millisecond, true}, {false, 5 * time.Second, false}} {
		c.followed.Store(&followedHead{n: 42, at: time.Now().Add(-tc.age), pushed: tc.pushed})
		if n, ok := c.FollowedHead(time.Second); ok != tc.want || ok && n != 42 {
			t.Errorf("pushed %v, %s old: %d %v, want %v", tc.pushed, tc.age, n, ok, tc.want)
		}
	}
}

// TierWeights reads the tiers again only when the factory's weightsVersion moved: one request a
// read otherwise, and a weight the owner sets is read at once.
func TestTierWeightsFollowTheirVersion(t *testing.T) {
	tc := newTestChain(t)
	read := func() (map[int]uint32, int64) {
		ctx, calls := CountCalls(t.Context())
		w, err := tc.c.TierWeights(ctx, []uint8{1, 2})
		if err != nil {
			t.Fatal(err)
		}
		return w, calls.N()
	}
	first, _ := read()
	again, n := read()
	if fmt.Sprint(again) != fmt.Sprint(first) || n != 1 {
		t.Fatalf("a second read: %v in %d requests, want %v in 1", again, n, first)
	}
	tc.transact(t, tc.owner, tc.c.factory, tc.c.SetTierWeightData(1, 15000), nil)
	if w, n := read(); w[1] != 15000 || w[2] != first[2] || n <= 1 {
		t.Fatalf("after the owner set tier 1's weight: %v in %d requests, want 15000 read anew", w, n)
	}
	if w, n := read(); w[1] != 15000 || n != 1 {
		t.Fatalf("then: %v in %d requests", w, n)
	}
	// While the head the passes follow stays where the version was read, nothing is asked; at
	// the next head, the version is.
	tc.c.followed.Store(&followedHead{n: 1000, at: time.Now()})
	if w, n := read(); w[1] != 15000 || n != 1 {
		t.Fatalf("at a followed head: %v in %d requests, want 1", w, n)
	}
	if w, n := read(); w[1] != 15000 || n != 0 {
		t.Fatalf("at the same followed head: %v in %d requests, want none", w, n)
	}
	tc.c.followed.Store(&followedHead{n: 1001, at: time.Now()})
	if w, n := read(); w[1] != 15000 || n != 1 {
		t.Fatalf("at the next followed head: %v in %d requests, want 1", w, n)
	}
}
