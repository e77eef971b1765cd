package jobs

import (
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"nodeledger/chain"
	"nodeledger/chain/bindings"
	"nodeledger/jobs/sale"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// payments returns the ledger's payments of status, by block.
func payments(t testing.TB, db *store.Store, status store.PaymentStatus) []store.Payment {
	t.Helper()
	ps, err := db.PaymentsByStatus(t.Context(), status, 0)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// mustPass runs a payments pass that must succeed.
func mustPass(t testing.TB, j *Jobs) PaymentsSummary {
	t.Helper()
	sum, err := j.Payments(t.Context())
	if err != nil {
		t.Fatalf("payments pass: %v (summary %+v)", err, sum)
	}
	return sum
}

// checkNodes asserts the ledger holds exactly want nodes for wallet and the chain agrees with
// each of them.
func (e *env) checkNodes(wallet common.Address, want int) []store.Node {
	e.t.Helper()
	nodes, err := e.db.NodesByOwner(e.t.Context(), strings.ToLower(wallet.Hex()))
	if err != nil {
		e.t.Fatal(err)
	}
	onChain, err := e.c.NodesOf(e.t.Context(), wallet)
	if err != nil {
		e.t.Fatal(err)
	}
	if len(nodes) != want || len(onChain) != want {
		e.t.Fatalf("%s: %d nodes in the ledger, %d on chain, want %d", wallet, len(nodes), len(onChain), want)
	}
	for _, n := range nodes {
		info, err := e.c.NodeInfo(e.t.Context(), n.ChainNodeID.Int)
		if err != nil {
			e.t.Fatal(err)
		}
		if info.Owner != wallet || int(info.Tier) != n.Tier || info.Balance.Cmp(n.BalanceWei.Int) != 0 {
			e.t.Fatalf("node %s: chain %+v, ledger %+v", n.ChainNodeID, info, n)
		}
	}
	return nodes
}

func TestPaymentMintsANode(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	hash := e.pay(0, e.dc.Payments, priceOne)

	sum := mustPass(t, e.j)
	if sum.Seen != 1 || sum.Minted != 1 || sum.Rejected != 0 || sum.Minting != 0 {
		t.Fatalf("summary %+v", sum)
	}
	nodes := e.checkNodes(e.buyer(0), 1)
	n := nodes[0]
	if n.Tier != 1 || n.PriceWei.Cmp(priceOne) != 0 || n.Status != "active" || n.ChainNodeID.Int64() != 1 {
		t.Fatalf("node %+v", n)
	}
	minted := payments(t, e.db, "minted")
	if len(minted) != 1 || minted[0].TxHash != strings.ToLower(hash.Hex()) || minted[0].PaymentRef != minted[0].TxHash {
		t.Fatalf("payments %+v", minted)
	}

	t.Run("a payment seen twice mints once", func(t *testing.T) {
		if _, err := e.db.DB().Exec(`DELETE FROM chain_cursors; DELETE FROM scanned_blocks`); err != nil {
			t.Fatal(err)
		}
		if sum := mustPass(t, e.restart()); sum.Minted != 0 || sum.Seen != 1 {
			t.Fatalf("rescan: %+v", sum)
		}
		e.checkNodes(e.buyer(0), 1)
	})
}

func TestPaymentsThatDoNotBecomeNodes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	wrongAmount := e.pay(0, e.dc.Payments, new(big.Int).Add(priceOne, big.NewInt(1)))
	offSale := e.pay(1, e.dc.Payments, priceOff)
	e.pay(2, e.buyer(5), priceOne) // to another address: not a payment at all
	for range 4 {                  // tier 1 allows 3 per wallet
		e.pay(2, e.dc.Payments, priceOne)
	}
	noTokens := e.pay(3, e.dc.Payments, priceTwo) // buyers 3.. hold no DHT

	sum := mustPass(t, e.j)
	if sum.Seen != 7 || sum.Minted != 3 || sum.Rejected != 4 {
		t.Fatalf("summary %+v", sum)
	}
	// The reasons as codes with the values checked; handlers' TestReasonSentences writes these
	// same reasons as the sentences their buyers read.
	reasons := map[string]string{}
	for _, p := range payments(t, e.db, "rejected") {
		b, err := json.Marshal(sale.Read(p.Reason))
		if err != nil {
			t.Fatal(err)
		}
		reasons[p.TxHash] = string(b)
	}
	const onSale = `"onSale":[{"id":1,"label":"One","priceWei":"100000000000000000"},{"id":2,"label":"Two","priceWei":"1000000000000000000"}]`
	for hash, want := range map[common.Hash]string{
		wrongAmount: `{"code":"wrong_amount","args":{"paidWei":"100000000000000001",` + onSale + `}}`,
		// The price of a tier switched off: that tier says why (the rule of the first candidate).
		offSale: `{"code":"closed","args":{"tier":3,"tierLabel":"Off"}}`,
		noTokens: fmt.Sprintf(`{"code":"holding_too_low","args":{"tier":2,"tierLabel":"Two","holdingToken":"%s","holdingWei":"%s","heldWei":"0","tokenSymbol":"DHT","tokenDecimals":18}}`,
			strings.ToLower(e.dc.Token.Hex()), holdingWei),
	} {
		if got := reasons[strings.ToLower(hash.Hex())]; got != want {
			t.Errorf("payment %s: reason\n%s, want\n%s", hash, got, want)
		}
	}
	if got, _ := json.Marshal(sum.Reasons); len(sum.Reasons) != 4 || !strings.HasPrefix(string(got), `[{"code":"wrong_amount"`) {
		t.Errorf("the pass's reasons: %s", got)
	}
	overAllowance := 0
	for _, r := range reasons {
		if r == `{"code":"wallet_limit","args":{"tier":1,"tierLabel":"One","maxPerWallet":3}}` {
			overAllowance++
		}
	}
	if overAllowance != 1 {
		t.Errorf("%d payments rejected over the allowance, want 1: %v", overAllowance, reasons)
	}
	e.checkNodes(e.buyer(0), 0)
	e.checkNodes(e.buyer(2), 3)
	e.checkNodes(e.buyer(3), 0)

	t.Run("holding the token buys tier 2", func(t *testing.T) {
		e.pay(1, e.dc.Payments, priceTwo)
		if sum := mustPass(t, e.j); sum.Minted != 1 {
			t.Fatalf("summary %+v", sum)
		}
		if nodes := e.checkNodes(e.buyer(1), 1); nodes[0].Tier != 2 {
			t.Fatalf("tier %d", nodes[0].Tier)
		}
	})
	t.Run("paused", func(t *testing.T) {
		e.send(e.dc.Owner.Key, e.dc.Factory, bindings.NewNodeFactory().PackSetPaused(true), 0)
		hash := e.pay(4, e.dc.Payments, priceOne)
		if sum := mustPass(t, e.j); sum.Rejected != 1 || sum.Minted != 0 {
			t.Fatalf("summary %+v", sum)
		}
		for _, p := range payments(t, e.db, "rejected") {
			if p.TxHash == strings.ToLower(hash.Hex()) && p.Reason.Code == sale.MintingPaused {
				return
			}
		}
		t.Fatal("the payment made while paused is not rejected as such")
	})
}

// send signs a call from key to `to` and waits for it to be mined; gas 0 estimates the gas, a
// fixed gas limit lets a call that reverts be sent anyway.
func (e *env) send(key *ecdsa.PrivateKey, to common.Address, data []byte, gas uint64) *types.Receipt {
	e.t.Helper()
	return e.transact(key, to, data, nil, gas)
}

// sendValue is send with wei attached, for a call that must succeed.
func (e *env) sendValue(key *ecdsa.PrivateKey, to common.Address, data []byte, value *big.Int) *types.Receipt {
	e.t.Helper()
	r := e.transact(key, to, data, value, 0)
	if r.Status != types.ReceiptStatusSuccessful {
		e.t.Fatalf("transaction %s reverted", r.TxHash)
	}
	return r
}

func (e *env) transact(key *ecdsa.PrivateKey, to common.Address, data []byte, value *big.Int, gas uint64) *types.Receipt {
	e.t.Helper()
	ctx := e.t.Context()
	var tx *types.Transaction
	var err error
	if gas == 0 {
		tx, err = e.c.NewSender(chain.LocalSigner(key), e.dc.ChainID()).Sign(ctx, &to, data, value)
	} else {
		var nonce uint64
		nonce, err = e.pendingNonce(crypto.PubkeyToAddress(key.PublicKey))
		if err == nil {
			tx, err = types.SignNewTx(key, types.LatestSignerForChainID(e.dc.ChainID()), &types.DynamicFeeTx{
				ChainID: e.dc.ChainID(), Nonce: nonce, GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(100e9),
				Gas: gas, To: &to, Value: value, Data: data,
			})
		}
	}
	if err != nil {
		e.t.Fatal(err)
	}
	if err := e.c.Send(ctx, tx); err != nil {
		e.t.Fatal(err)
	}
	r, err := e.c.WaitMined(ctx, tx.Hash(), 20*time.Millisecond)
	if err != nil {
		e.t.Fatal(err)
	}
	return r
}

func (e *env) pendingNonce(addr common.Address) (uint64, error) {
	var n hexutil.Uint64
	err := e.dc.RPC().CallContext(e.t.Context(), &n, "eth_getTransactionCount", addr, "pending")
	return uint64(n), err
}

// paymentSteps are the step boundaries of a payments pass, in order.
var paymentSteps = []string{"scan.fetched", "scan.recorded", "mint.claimed", "mint.stored", "mint.sent", "mint.mined", "mint.recorded"}

var errCrash = errors.New("crash")

// crashAt stops a pass at the n-th time it reaches step (1 is the first), as a crash would.
func crashAt(step string, n int) func(string) error {
	var mu sync.Mutex
	seen := 0
	return func(s string) error {
		mu.Lock()
		defer mu.Unlock()
		if s == step {
			if seen++; seen == n {
				return errCrash
			}
		}
		return nil
	}
}

// settle runs passes, as restarted processes, until no payment is left pending or minting.
func (e *env) settle() {
	e.t.Helper()
	for range 5 {
		mustPass(e.t, e.restart())
		if len(payments(e.t, e.db, "pending"))+len(payments(e.t, e.db, "minting")) == 0 {
			return
		}
	}
	e.t.Fatalf("payments still unsettled after 5 passes: %d pending, %d minting",
		len(payments(e.t, e.db, "pending")), len(payments(e.t, e.db, "minting")))
}

func TestPaymentsPassSurvivesACrashAtEveryStep(t *testing.T) {
	t.Parallel()
	for _, step := range paymentSteps {
		// Once a pass: the scan, and the one transaction minting both payments, recorded together.
		occurrences := []int{1}
		if step == "mint.claimed" {
			occurrences = []int{1, 2} // the first payment's claim, or the second's after the first went by
		}
		for _, n := range occurrences {
			t.Run(fmt.Sprintf("%s #%d", step, n), func(t *testing.T) {
				e := newEnv(t)
				// Buyer 1 pays under a referral code: 5 % off, 3 % of what it paid to buyer 4.
				addCode(t, e.db, store.ReferralCode{Code: "Crash", Owner: lower(e.buyer(4)), DiscountBps: 500, CommissionBps: 300, Enabled: true})
				e.bind(1, "Crash")
				e.pay(0, e.dc.Payments, priceOne)
				referred := e.pay(1, e.dc.Payments, finney(95))
				e.pay(3, e.dc.Payments, priceTwo) // rejected: buyer 3 holds no DHT

				j := e.restart()
				j.crash = crashAt(step, n)
				if _, err := j.Payments(t.Context()); !errors.Is(err, errCrash) {
					t.Fatalf("the pass did not stop at %s #%d: %v", step, n, err)
				}
				e.settle()

				e.checkNodes(e.buyer(0), 1)
				e.checkNodes(e.buyer(1), 1)
				e.checkNodes(e.buyer(3), 0)
				if m, r := len(payments(t, e.db, "minted")), len(payments(t, e.db, "rejected")); m != 2 || r != 1 {
					t.Fatalf("%d minted and %d rejected, want 2 and 1", m, r)
				}
				if total, _ := e.c.NodesOf(t.Context(), e.buyer(2)); len(total) != 0 {
					t.Fatal("a node for a wallet that paid nothing")
				}
				if got := earned(t, e.db, referred); len(got) != 1 || got["owner"] != lower(e.buyer(4))+" 2850000000000000" {
					t.Fatalf("the referred payment earned %v, want 0.00285 ETH for its code's owner, once", got)
				}
			})
		}
	}
}

// A mint batch stored but never sent, whose nonce another transaction of the minter then took:
// the next pass cannot send the stored bytes, signs the batch again at a new nonce, and still
// mints each payment once, both in one transaction.
func TestStoredMintWhoseNonceWasTaken(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.pay(0, e.dc.Payments, priceOne)
	e.pay(1, e.dc.Payments, priceOne)
	j := e.restart()
	j.crash = crashAt("mint.stored", 1)
	if _, err := j.Payments(t.Context()); !errors.Is(err, errCrash) {
		t.Fatalf("got %v", err)
	}
	minting := payments(t, e.db, "minting")
	if len(minting) != 2 || *minting[0].MintTx != *minting[1].MintTx {
		t.Fatalf("%d payments minting, want 2 in one stored transaction", len(minting))
	}
	stored := *minting[0].MintTx
	// The minter's next transaction is a plain transfer, which takes the stored batch's nonce.
	e.send(e.dc.Minter.Key, e.dc.Minter.Address, nil, 21000)
	e.settle()
	first, second := e.checkNodes(e.buyer(0), 1)[0], e.checkNodes(e.buyer(1), 1)[0]
	if first.MintTx == stored || first.MintTx != second.MintTx {
		t.Fatalf("nodes minted by %s and %s; want one transaction, not the stored one %s", first.MintTx, second.MintTx, stored)
	}
}

func TestTwoPaymentsPassesAtOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for i := range 3 {
		e.pay(i, e.dc.Payments, priceOne)
	}
	other, err := store.Open(t.Context(), storetest.URL(t, e.db))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	passes := []*Jobs{e.restart(), New(other, e.c, chain.LocalSigner(e.dc.Minter.Key), chain.LocalSigner(e.dc.Distributor.Key), e.cfg, e.j.log)}
	// The first pass holds its lock until released, so the second surely overlaps it.
	release := make(chan struct{})
	passes[0].crash = func(step string) error {
		if step == "scan.fetched" {
			<-release
		}
		return nil
	}
	sums := make([]PaymentsSummary, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); sums[0], errs[0] = passes[0].Payments(t.Context()) }()
	time.Sleep(200 * time.Millisecond) // let the first take the lock
	sums[1], errs[1] = passes[1].Payments(t.Context())
	close(release)
	wg.Wait()
	if errs[0] != nil || errs[1] != nil {
		t.Fatalf("errors %v", errs)
	}
	if !sums[0].Ran || sums[1].Ran || sums[1].Reason == "" {
		t.Fatalf("summaries %+v: want the first to run and the second to say why it did not", sums)
	}
	for i := range 3 {
		e.checkNodes(e.buyer(i), 1)
	}
}

func TestRevertedWithdrawIsRecordedAsFailed(t *testing.T) {
	t.Parallel()
	// Read in a quiet range, the call is seen only when every block is (TestFailedWithdrawInAQuietRange).
	e := newEnv(t, func(c *Config) { c.ScanEveryBlock = true })
	e.pay(0, e.dc.Payments, priceOne)
	mustPass(t, e.j)
	// Node 1 has no balance: withdrawing from it reverts, and costs its owner gas.
	call := bindings.NewNodeFactory().PackWithdraw(big.NewInt(1), e.buyer(0), big.NewInt(5))
	r := e.send(e.dc.Buyers[0].Key, e.dc.Factory, call, 200_000)
	if r.Status != types.ReceiptStatusFailed {
		t.Fatal("the withdraw did not revert")
	}
	if sum := mustPass(t, e.j); sum.Failed != 1 {
		t.Fatalf("summary %+v", sum)
	}
	n, err := e.db.Node(t.Context(), big.NewInt(1), 10)
	if err != nil {
		t.Fatal(err)
	}
	if ws := n.Withdrawals; len(ws) != 1 || *ws[0].Status != "failed" || *ws[0].TxHash != strings.ToLower(r.TxHash.Hex()) ||
		ws[0].AmountWei.Int64() != 5 || *ws[0].ToAddress != strings.ToLower(e.buyer(0).Hex()) {
		t.Fatalf("withdrawals %+v", n.Withdrawals)
	}
	if n.BalanceWei.Sign() != 0 {
		t.Fatalf("a failed withdrawal changed the balance: %s", n.BalanceWei)
	}
}

func TestOperatorHoldsMinting(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if err := e.db.HoldMinting(t.Context(), true); err != nil {
		t.Fatal(err)
	}
	e.pay(0, e.dc.Payments, priceOne)
	e.pay(1, e.dc.Payments, priceOff)
	sum := mustPass(t, e.j)
	if sum.Seen != 2 || sum.Minted != 0 || sum.Rejected != 0 || !strings.Contains(sum.Reason, "held") {
		t.Fatalf("summary while held %+v", sum)
	}
	if len(payments(t, e.db, "pending")) != 2 {
		t.Fatal("held payments must wait, recorded and unchecked")
	}
	if err := e.db.HoldMinting(t.Context(), false); err != nil {
		t.Fatal(err)
	}
	if sum := mustPass(t, e.j); sum.Minted != 1 || sum.Rejected != 1 {
		t.Fatalf("summary after resuming %+v", sum)
	}
	e.checkNodes(e.buyer(0), 1)
}

// A pass checks the ChecksPerPass earliest pending payments and leaves the rest to the next: in
// a backlog of thousands, each pass ends and records what was mined.
func TestAPassChecksABoundedShareOfABacklog(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) { c.ChecksPerPass = 2 })
	var paid []string
	for i := range 5 {
		paid = append(paid, strings.ToLower(e.pay(i%len(e.dc.Buyers), e.dc.Payments, priceOne).Hex()))
	}
	for i, upTo := range []int{2, 4, 5} {
		mustPass(t, e.j)
		var minted []string
		for _, p := range payments(t, e.db, store.PaymentMinted) {
			minted = append(minted, p.TxHash)
		}
		if !slices.Equal(minted, paid[:upTo]) { // in chain order, the earliest first
			t.Fatalf("after pass %d: minted %v, want the first %d of %v", i+1, minted, upTo, paid)
		}
	}
}
