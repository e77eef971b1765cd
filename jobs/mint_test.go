package jobs

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"

	"nodeledger/chain"
	"nodeledger/chain/bindings"
	"nodeledger/chain/devchain"
	"nodeledger/store"
)

// TestMintBatch: the payments a pass finds good go out in one mintBatch transaction. An order the
// factory skips does not undo the others: a payment reference an earlier transaction minted
// (PaymentRefUsed) is recorded with that node, and a wallet the owner filled up in between
// (WalletFull) is rejected with the factory's reason; each node minted has its payment's owner
// and tier, in the ledger as on chain.
func TestMintBatch(t *testing.T) {
	t.Parallel()
	m := manualChain{newEnvOn(t, devchain.Options{ManualMining: true}, func(c *Config) { c.ReceiptTimeout = 300 * time.Millisecond })}
	ctx := t.Context()
	var paid []common.Hash
	for i := range 4 {
		paid = append(paid, m.transfer(i, m.dc.Payments, priceOne, 0, 1))
	}
	m.commit(4)
	// Buyer 1's payment was minted by a transaction the ledger never recorded (an instance that
	// died with it in flight), and buyer 2 holds a node the ledger does not know yet. The
	// reconciler is kept out (its lock held), or it would find the first from the chain's events.
	defer lockReconciler(t, m.db)()
	early := m.call(m.dc.Minter.Key, m.dc.Factory, m.c.MintData(m.buyer(1), 1, paid[1]), nil)
	m.call(m.dc.Minter.Key, m.dc.Factory, m.c.MintData(m.buyer(2), 1, common.Hash{0xb2}), nil)
	m.commit(2)

	if sum := mustPass(t, m.j); sum.Seen != 4 || sum.Minting != 4 {
		t.Fatalf("pass %+v", sum)
	}
	minting := payments(t, m.db, "minting")
	batch := *minting[0].MintTx
	for _, p := range minting {
		if *p.MintTx != batch {
			t.Fatalf("payment %d minted by %s, payment %d by %s: want one transaction", p.ID, *p.MintTx, minting[0].ID, batch)
		}
	}
	tx, _, err := ethclient.NewClient(m.dc.RPC()).TransactionByHash(ctx, common.HexToHash(batch))
	if err != nil {
		t.Fatal(err)
	}
	if nf := bindings.NewNodeFactory(); !bytes.HasPrefix(tx.Data(), nf.PackMintBatch(nil)[:4]) {
		t.Fatalf("the mint transaction calls %x, want mintBatch", tx.Data()[:4])
	}
	// The owner lowers the wallet limit to 1, ahead of the batch in its block.
	m.sendTx(m.dc.Owner.Key, m.dc.Factory, bindings.NewNodeFactory().PackSetMaxPerWallet(1), nil, m.ownerNonce(), 50)
	m.commit(2)
	if sum := mustPass(t, m.j); sum.Minted != 3 || sum.Rejected != 1 || sum.Minting != 0 {
		t.Fatalf("pass %+v", sum)
	}

	for _, i := range []int{0, 3} {
		if n := m.checkNodes(m.buyer(i), 1); n[0].MintTx != batch || n[0].Tier != 1 {
			t.Errorf("buyer %d: node %+v, want tier 1 minted by the batch", i, n[0])
		}
	}
	if n := m.checkNodes(m.buyer(1), 1); n[0].MintTx != strings.ToLower(early.Hex()) {
		t.Errorf("buyer 1's node was minted by %s, want the earlier transaction %s", n[0].MintTx, early.Hex())
	}
	if got := reasonOf(t, m.db, paid[1]); got != "minted" {
		t.Errorf("buyer 1's payment: %s", got)
	}
	if got := reasonOf(t, m.db, paid[2]); got != `{"code":"contract_refused","args":{"error":"WalletFull"}}` {
		t.Errorf("buyer 2's payment: %s", got)
	}
	r := m.receipt(common.HexToHash(batch))
	minted, skipped := m.c.MintsIn(r)
	if len(minted) != 2 || minted[1].ID.Int64() != minted[0].ID.Int64()+1 ||
		skipped[paid[1]] != "PaymentRefUsed" || skipped[paid[2]] != "WalletFull" {
		t.Errorf("the batch's receipt: minted %+v, skipped %v", minted, skipped)
	}
}

// ownerNonce is the factory owner's next nonce.
func (m manualChain) ownerNonce() uint64 {
	m.t.Helper()
	n, err := m.pendingNonce(m.dc.Owner.Address)
	if err != nil {
		m.t.Fatal(err)
	}
	return n
}

// TestMintBatchOutOfGas: a batch that reverts without the factory's reason (its gas ran out) is
// signed again, not refused: both payments are minted by the next transaction, once each.
func TestMintBatchOutOfGas(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := t.Context()
	e.pay(0, e.dc.Payments, priceOne)
	e.pay(1, e.dc.Payments, priceOne)
	// Without the minter key a pass records the payments and mints nothing.
	if sum := mustPass(t, New(e.db, e.c, nil, nil, e.cfg, e.restart().log)); sum.Seen != 2 {
		t.Fatalf("summary %+v", sum)
	}
	pending := payments(t, e.db, "pending")
	var orders []chain.MintOrder
	var ids []int64
	for i, p := range pending {
		orders = append(orders, chain.MintOrder{To: e.buyer(i), Tier: 1, PaymentRef: common.HexToHash(p.PaymentRef)})
		ids = append(ids, p.ID)
	}
	minter := e.c.NewSender(chain.LocalSigner(e.dc.Minter.Key), e.dc.ChainID())
	fees, err := minter.Fees(ctx)
	if err != nil {
		t.Fatal(err)
	}
	factory := e.dc.Factory
	starved, err := minter.SignWith(ctx, fees, 100_000, &factory, e.c.MintsData(orders), nil) // two nodes need more
	if err != nil {
		t.Fatal(err)
	}
	e.keepAndSend(starved, func(v store.SentTx) error {
		for _, id := range ids {
			if err := e.db.ClaimMint(ctx, id, 1, nil, nil); err != nil {
				return err
			}
		}
		_, err := e.db.KeepTx(ctx, store.TxFor{Mints: ids}, v)
		return err
	})
	deadline := time.Now().Add(time.Minute)
	r, err := e.c.Receipt(ctx, starved.Hash())
	for ; errors.Is(err, chain.ErrNotMined) && time.Now().Before(deadline); r, err = e.c.Receipt(ctx, starved.Hash()) {
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil || r.Status != types.ReceiptStatusFailed {
		t.Fatalf("the starved batch: %v, %+v; want mined reverted", err, r)
	}

	e.settle()
	first, second := e.checkNodes(e.buyer(0), 1)[0], e.checkNodes(e.buyer(1), 1)[0]
	if first.MintTx != second.MintTx || first.MintTx == hexLower(starved.Hash()) {
		t.Fatalf("nodes minted by %s and %s: want one transaction after the one out of gas (%s)", first.MintTx, second.MintTx, starved.Hash())
	}
	if n := len(payments(t, e.db, "rejected")); n != 0 {
		t.Fatalf("%d payments rejected", n)
	}
}
