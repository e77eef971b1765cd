package jobs

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"nodeledger/chain"
	"nodeledger/store"
)

// starve re-signs tx with key and a tip of 1 wei: the node's pool takes it, but the dev chain's
// miner, which asks for 1 mwei, never includes it, as a tip gone stale in a fee spike would leave it.
func (e *env) starve(tx *types.Transaction, sender *chain.Sender) *types.Transaction {
	key := e.dc.Minter.Key
	if sender.From == e.dc.Distributor.Address {
		key = e.dc.Distributor.Key
	}
	return e.resignWith(key, tx, func(d *types.DynamicFeeTx) { d.GasTipCap = big.NewInt(1) })
}

// keep stores tx with keep, as a pass stores a version in the outbox before it sends it.
func (e *env) keep(tx *types.Transaction, keep func(store.SentTx) error) {
	e.t.Helper()
	head, err := e.c.HeadNumber(e.t.Context())
	if err != nil {
		e.t.Fatal(err)
	}
	from, err := types.Sender(types.LatestSignerForChainID(tx.ChainId()), tx)
	if err != nil {
		e.t.Fatal(err)
	}
	v, err := sentTx(from, tx, head)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := keep(v); err != nil {
		e.t.Fatal(err)
	}
}

// keepAndSend keeps tx, then sends it.
func (e *env) keepAndSend(tx *types.Transaction, keep func(store.SentTx) error) {
	e.t.Helper()
	e.keep(tx, keep)
	if err := e.c.Send(e.t.Context(), tx); err != nil {
		e.t.Fatal(err)
	}
}

// stuckMint leaves buyer 0's payment minting with a mint transaction the miner ignores, as a pass
// that signed it before a fee spike would.
func (e *env) stuckMint() (store.Payment, *types.Transaction) {
	e.t.Helper()
	ctx := e.t.Context()
	e.pay(0, e.dc.Payments, priceOne)
	// Without the minter key a pass records the payment and mints nothing.
	if sum := mustPass(e.t, New(e.db, e.c, nil, nil, e.cfg, e.restart().log)); sum.Seen != 1 {
		e.t.Fatalf("summary %+v", sum)
	}
	p := payments(e.t, e.db, "pending")[0]
	minter := e.c.NewSender(chain.LocalSigner(e.dc.Minter.Key), e.dc.ChainID())
	factory := e.dc.Factory
	tx, err := minter.Sign(ctx, &factory, e.c.MintData(e.buyer(0), 1, common.HexToHash(p.PaymentRef)), nil)
	if err != nil {
		e.t.Fatal(err)
	}
	low := e.starve(tx, minter)
	e.keepAndSend(low, keepMint(ctx, e.db, p))
	return p, low
}

// keepMint keeps v as a pass keeps the first version of payment p's mint: p's unit claimed in
// tier 1, then v stored as a mint batch of one.
func keepMint(ctx context.Context, db *store.Store, p store.Payment) func(v store.SentTx) error {
	return func(v store.SentTx) error {
		if err := db.ClaimMint(ctx, p.ID, 1, nil, nil); err != nil {
			return err
		}
		_, err := db.KeepTx(ctx, store.TxFor{Mints: []int64{p.ID}}, v)
		return err
	}
}

// mintOf is the outbox's row for payment p's mint: the batch it is in.
func mintOf(t *testing.T, db *store.Store, p store.Payment) store.TxFor {
	t.Helper()
	var f store.TxFor
	if err := db.DB().Get(&f.MintBatch, `SELECT mint_batch FROM payments WHERE id = $1`, p.ID); err != nil {
		t.Fatal(err)
	}
	return f
}

// stuckCredit leaves a round of two nodes pending with a credit transaction the miner ignores.
func (e *env) stuckCredit() ([]store.Node, *types.Transaction) {
	e.t.Helper()
	nodes := e.mintDue(1, 2)
	round, data := e.pendingRound()
	distributor := e.c.NewSender(chain.LocalSigner(e.dc.Distributor.Key), e.dc.ChainID())
	factory := e.dc.Factory
	tx, err := distributor.Sign(e.t.Context(), &factory, data, round.Value())
	if err != nil {
		e.t.Fatal(err)
	}
	low := e.starve(tx, distributor)
	e.keepAndSend(low, func(v store.SentTx) error { return e.db.StoreRoundTx(e.t.Context(), round.ID, v) })
	return nodes, low
}

// checkReplaced checks that the outbox holds low and one replacement or more at its nonce, each
// paying at least 10 % more than the one before, and that low itself was never mined.
func (e *env) checkReplaced(f store.TxFor, low *types.Transaction) []store.SentTx {
	e.t.Helper()
	all, err := e.db.TxVersions(e.t.Context(), f)
	if err != nil {
		e.t.Fatal(err)
	}
	vs := all[0]
	if len(vs) < 2 || vs[0].Hash != hexLower(low.Hash()) {
		e.t.Fatalf("outbox versions %+v: want the starved one and its replacements", vs)
	}
	for i := 1; i < len(vs); i++ {
		prev, v := vs[i-1], vs[i]
		if v.Nonce != prev.Nonce || v.TipWei.Cmp(bumpOf(prev.TipWei.Int)) < 0 || v.FeeCapWei.Cmp(bumpOf(prev.FeeCapWei.Int)) < 0 {
			e.t.Errorf("version %d (nonce %d, tip %s, cap %s) does not replace the one before (nonce %d, tip %s, cap %s)",
				i, v.Nonce, v.TipWei, v.FeeCapWei, prev.Nonce, prev.TipWei, prev.FeeCapWei)
		}
	}
	if _, err := e.c.Receipt(e.t.Context(), low.Hash()); !errors.Is(err, chain.ErrNotMined) {
		e.t.Errorf("the starved transaction: receipt err %v, want never mined", err)
	}
	return vs
}

// bumpOf is x × 1.1, the least a replacement pays.
func bumpOf(x *big.Int) *big.Int {
	y := new(big.Int).Mul(x, big.NewInt(110))
	return y.Quo(y, big.NewInt(100))
}

func TestOutboxReplacesAStarvedMint(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p, low := e.stuckMint()
	j := e.restart()
	sum := mustPass(t, j)
	if sum.Minted != 1 || sum.Minting != 0 {
		t.Fatalf("summary %+v", sum)
	}
	vs := e.checkReplaced(mintOf(t, e.db, p), low)
	nodes := e.checkNodes(e.buyer(0), 1)
	if mined := vs[len(vs)-1].Hash; nodes[0].MintTx != mined {
		t.Errorf("node's mint tx %s, want the replacement that was mined, %s", nodes[0].MintTx, mined)
	}
	h, err := j.Outbox(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if h.Waiting != 0 || h.Replacements != int64(len(vs)-1) || h.OldestAt != nil {
		t.Errorf("outbox health %+v, want nothing waiting and %d replacements", h, len(vs)-1)
	}
}

func TestOutboxReplacesAStarvedCredit(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	nodes, low := e.stuckCredit()
	sum := mustCredit(t, e.restart())
	if sum.Status != "confirmed" || !sum.Resumed {
		t.Fatalf("summary %+v", sum)
	}
	r, err := e.db.PendingRound(t.Context())
	if !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("pending round %+v, err %v", r, err)
	}
	d := checkRounds(t, e.db, 1)[0]
	vs := e.checkReplaced(store.TxFor{RoundID: d.ID}, low)
	e.checkCredited(nodes, wei(1_000_000, 2_000_000), 1)
	if d.TxHash == nil || *d.TxHash != vs[len(vs)-1].Hash {
		t.Errorf("round's transaction %v, want the replacement that was mined, %s", d.TxHash, vs[len(vs)-1].Hash)
	}
}

func TestOutboxWaitsAtTheFeeCap(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) { c.ReceiptTimeout = 2 * time.Second })
	p, low := e.stuckMint()
	e.cfg.MaxFeeWei = low.GasFeeCap() // no room for the 10 % a replacement needs
	j := e.restart()
	sum := mustPass(t, j)
	if sum.Minted != 0 || sum.Minting != 1 {
		t.Fatalf("summary %+v", sum)
	}
	h, err := j.Outbox(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if h.Waiting != 1 || h.AtCap != 1 || h.Replacements != 0 || h.OldestAt == nil {
		t.Fatalf("outbox health %+v, want one transaction waiting at the cap", h)
	}
	// The metrics read the same at a scrape, by kind.
	waiting := `
		# HELP nodeledger_txs_waiting Transactions the service sent that are not mined yet, by kind (mint, round, sweep).
		# TYPE nodeledger_txs_waiting gauge
		nodeledger_txs_waiting{kind="mint"} 1
		nodeledger_txs_waiting{kind="round"} 0
		nodeledger_txs_waiting{kind="sweep"} 0
	`
	if err := testutil.CollectAndCompare(j.Collector(), strings.NewReader(waiting), "nodeledger_txs_waiting"); err != nil {
		t.Error(err)
	}
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(j.Collector())
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		for _, m := range f.Metric {
			if f.GetName() == "nodeledger_tx_oldest_waiting_seconds" && m.Label[0].GetValue() == "mint" && m.GetGauge().GetValue() <= 0 {
				t.Errorf("the oldest mint waiting is %v s old", m.GetGauge().GetValue())
			}
		}
	}
	if vs, err := e.db.TxVersions(t.Context(), mintOf(t, e.db, p)); err != nil || len(vs[0]) != 1 {
		t.Fatalf("versions %v, err %v: want the starved one alone", vs, err)
	}

	// The operator raises the cap: the next pass replaces it and mints.
	e.cfg.MaxFeeWei = nil
	e.settle()
	e.checkReplaced(mintOf(t, e.db, p), low)
	e.checkNodes(e.buyer(0), 1)
}

// A pass killed at each step of a replacement (after storing it, after sending it, after its
// receipt came and before it was recorded) leaves what the next pass finishes: one node, one
// credit, nothing lost.
func TestOutboxSurvivesACrashAtEveryReplacementStep(t *testing.T) {
	t.Parallel()
	for _, step := range []string{"mint.replaced", "mint.resent", "mint.mined"} {
		t.Run(step, func(t *testing.T) {
			e := newEnv(t)
			p, low := e.stuckMint()
			j := e.restart()
			j.crash = crashAt(step, 1)
			if _, err := j.Payments(t.Context()); !errors.Is(err, errCrash) {
				t.Fatalf("pass: err %v, want the crash at %s", err, step)
			}
			e.settle()
			e.checkReplaced(mintOf(t, e.db, p), low)
			e.checkNodes(e.buyer(0), 1)
			if ps := payments(t, e.db, "minted"); len(ps) != 1 {
				t.Errorf("%d payments minted, want 1", len(ps))
			}
		})
	}
	for _, step := range []string{"credit.replaced", "credit.resent", "credit.mined"} {
		t.Run(step, func(t *testing.T) {
			e := newEnv(t)
			nodes, low := e.stuckCredit()
			j := e.restart()
			j.crash = crashAt(step, 1)
			if _, err := j.Credit(t.Context()); !errors.Is(err, errCrash) {
				t.Fatalf("pass: err %v, want the crash at %s", err, step)
			}
			e.settleCredit()
			e.checkReplaced(store.TxFor{RoundID: checkRounds(t, e.db, 1)[0].ID}, low)
			e.checkCredited(nodes, wei(1_000_000, 2_000_000), 1)
		})
	}
}

// A nonce nobody sent keeps every later transaction of the key from being mined: the pass fills it.
func TestOutboxFillsANonceGap(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := t.Context()
	e.pay(0, e.dc.Payments, priceOne)
	mustPass(t, New(e.db, e.c, nil, nil, e.cfg, e.restart().log))
	p := payments(t, e.db, "pending")[0]
	minter := e.c.NewSender(chain.LocalSigner(e.dc.Minter.Key), e.dc.ChainID())
	factory := e.dc.Factory
	lost, err := minter.Sign(ctx, &minter.From, nil, nil) // signed, never sent: its nonce is the gap
	if err != nil {
		t.Fatal(err)
	}
	mint, err := minter.Sign(ctx, &factory, e.c.MintData(e.buyer(0), 1, common.HexToHash(p.PaymentRef)), nil)
	if err != nil {
		t.Fatal(err)
	}
	e.keepAndSend(mint, keepMint(ctx, e.db, p))

	sum := mustPass(t, e.restart())
	if sum.Minted != 1 {
		t.Fatalf("summary %+v", sum)
	}
	e.checkNodes(e.buyer(0), 1)
	var filler store.SentTx
	if err := e.db.DB().GetContext(ctx, &filler, `SELECT tx_hash, nonce FROM outbox WHERE mint_batch IS NULL AND distribution_id IS NULL`); err != nil {
		t.Fatalf("the filler in the outbox: %v", err)
	}
	r, err := e.c.Receipt(ctx, common.HexToHash(filler.Hash))
	if err != nil || uint64(filler.Nonce) != lost.Nonce() || r.Status != types.ReceiptStatusSuccessful {
		t.Errorf("filler %s at nonce %d (gap %d): receipt %v, err %v", filler.Hash, filler.Nonce, lost.Nonce(), r, err)
	}
}

// A row whose transaction lost its nonce and was signed anew at another is watched at the new
// nonce only: a receipt at the old one says nothing of it.
func TestOutboxWatchesTheCurrentNonceOnly(t *testing.T) {
	t.Parallel()
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	signer := types.LatestSignerForChainID(big.NewInt(1337))
	at := func(nonce uint64, tip int64) (*types.Transaction, store.SentTx) {
		tx := types.MustSignNewTx(key, signer, &types.DynamicFeeTx{ChainID: big.NewInt(1337), Nonce: nonce,
			GasTipCap: big.NewInt(tip), GasFeeCap: big.NewInt(100), Gas: 21000})
		v, err := sentTx(common.Address{1}, tx, nonce*10)
		if err != nil {
			t.Fatal(err)
		}
		return tx, v
	}
	_, old := at(4, 1)
	first, v1 := at(9, 1)
	second, v2 := at(9, 2)
	o := &outTx{}
	if err := o.add([]store.SentTx{old, v1, v2}, second); err != nil {
		t.Fatal(err)
	}
	if len(o.versions) != 2 || o.versions[0].Hash() != first.Hash() || o.newest().Hash() != second.Hash() || o.sentBlock != 90 {
		t.Fatalf("versions %v, sent at %d: want the two at nonce 9, sent at 90", o.hashes(), o.sentBlock)
	}
	// A row signed before the outbox existed has only its own newest.
	o = &outTx{}
	if err := o.add(nil, first); err != nil || len(o.versions) != 1 || o.sentBlock != 0 {
		t.Fatalf("versions %v, sent at %d, err %v", o.hashes(), o.sentBlock, err)
	}
}
