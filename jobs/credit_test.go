package jobs

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"log/slog"
	"math/big"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/lib/pq"

	"nodeledger/chain"
	"nodeledger/chain/bindings"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// creditSteps are the step boundaries of a credit pass, in order.
var creditSteps = []string{"credit.written", "credit.stored", "credit.sent", "credit.mined", "credit.recorded"}

// mintSeq gives every minted test node an owner and payment reference of its own.
var mintSeq atomic.Int64

var nodeMintedID = bindings.NewNodeFactory().GetABI().Events["NodeMinted"].ID

// tierPrice is what a node of each test tier costs.
func tierPrice(tier int) *big.Int {
	return map[int]*big.Int{1: priceOne, 2: priceTwo, 3: priceOff}[tier]
}

// mintDue mints one node per tier given, each to an owner of its own, with the minter key, and
// records them in the ledger as due for credit since a minute ago.
func (e *env) mintDue(tiers ...int) []store.Node {
	e.t.Helper()
	ctx := e.t.Context()
	minter := e.c.NewSender(chain.LocalSigner(e.dc.Minter.Key), e.dc.ChainID())
	factory := e.dc.Factory
	txs := make([]*types.Transaction, len(tiers))
	owners := make([]common.Address, len(tiers))
	for i, tier := range tiers {
		seq := mintSeq.Add(1)
		owners[i] = common.BigToAddress(big.NewInt(0x10000 + seq))
		ref := common.BigToHash(big.NewInt(seq))
		tx, err := minter.Sign(ctx, &factory, e.c.MintData(owners[i], uint8(tier), ref), nil)
		if err != nil {
			e.t.Fatal(err)
		}
		if err := e.c.Send(ctx, tx); err != nil {
			e.t.Fatal(err)
		}
		txs[i] = tx
	}
	due := time.Now().Add(-time.Minute)
	nodes := make([]store.Node, len(tiers))
	for i, tx := range txs {
		r, err := e.c.WaitMined(ctx, tx.Hash(), 20*time.Millisecond)
		if err != nil || r.Status != types.ReceiptStatusSuccessful {
			e.t.Fatalf("mint %s: %v", tx.Hash(), err)
		}
		var id *big.Int
		for _, l := range r.Logs {
			if len(l.Topics) == 3 && l.Topics[0] == nodeMintedID {
				id = l.Topics[1].Big()
			}
		}
		if id == nil {
			e.t.Fatalf("mint %s: no NodeMinted log", tx.Hash())
		}
		n, _, err := e.db.InsertNode(ctx, store.NewNode{
			ChainNodeID:  id,
			Tier:         tiers[i],
			Owner:        strings.ToLower(owners[i].Hex()),
			PriceWei:     tierPrice(tiers[i]),
			MintTx:       strings.ToLower(tx.Hash().Hex()),
			NextCreditAt: &due,
		})
		if err != nil {
			e.t.Fatal(err)
		}
		nodes[i] = n
	}
	return nodes
}

// mustCredit runs a credit pass that must not fail.
func mustCredit(t testing.TB, j *Jobs) CreditSummary {
	t.Helper()
	sum, err := j.Credit(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

// settleCredit runs credit passes, as restarted processes, until no round is pending.
func (e *env) settleCredit() {
	e.t.Helper()
	for range 3 {
		mustCredit(e.t, e.restart())
		if _, err := e.db.PendingRound(e.t.Context()); errors.Is(err, store.ErrNotFound) {
			return
		} else if err != nil {
			e.t.Fatal(err)
		}
	}
	e.t.Fatal("a round is still pending after 3 passes")
}

// checkCredited checks every node after rounds crediting it want[i] in all: what the contract
// credited, that the ledger's balance and cumulative total equal the chain's nodeInfo, and that
// the node has rounds credits, each listed on its page (store.Node).
func (e *env) checkCredited(nodes []store.Node, want []*big.Int, rounds int) {
	e.t.Helper()
	ctx := e.t.Context()
	for i, n := range nodes {
		info, err := e.c.NodeInfo(ctx, n.ChainNodeID.Int)
		if err != nil {
			e.t.Fatal(err)
		}
		got, err := e.db.Node(ctx, n.ChainNodeID.Int, 50)
		if err != nil {
			e.t.Fatal(err)
		}
		if info.Credited.Cmp(want[i]) != 0 {
			e.t.Errorf("node %s: the contract credited %s, want %s", n.ChainNodeID, info.Credited, want[i])
		}
		if got.CumulativeWei.Cmp(info.Credited) != 0 || got.BalanceWei.Cmp(info.Balance) != 0 {
			e.t.Errorf("node %s: ledger balance %s cumulative %s, chain balance %s credited %s",
				n.ChainNodeID, got.BalanceWei, got.CumulativeWei, info.Balance, info.Credited)
		}
		var count int
		if err := e.db.DB().GetContext(ctx, &count, `SELECT count(*) FROM credits WHERE node_id = $1`, n.ID); err != nil {
			e.t.Fatal(err)
		}
		if count != rounds || len(got.Credits) != rounds {
			e.t.Errorf("node %s: %d credits, %d listed, want %d", n.ChainNodeID, count, len(got.Credits), rounds)
		}
	}
}

// nextCredits reads each node's next credit as its page says it.
func (e *env) nextCredits(nodes []store.Node) []time.Time {
	e.t.Helper()
	out := make([]time.Time, len(nodes))
	for i, n := range nodes {
		d, err := e.db.Node(e.t.Context(), n.ChainNodeID.Int, 1)
		if err != nil || d.NextCreditAt == nil {
			e.t.Fatalf("node %s: next credit %v, err %v", n.ChainNodeID, d.NextCreditAt, err)
		}
		out[i] = *d.NextCreditAt
	}
	return out
}

// checkRounds checks that the ledger holds `rounds` rounds, every one confirmed, and returns them
// newest first.
func checkRounds(t *testing.T, db *store.Store, rounds int) []store.Distribution {
	t.Helper()
	ds, err := db.Distributions(t.Context(), 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != rounds {
		t.Fatalf("%d rounds, want %d", len(ds), rounds)
	}
	for _, d := range ds {
		if d.Status != "confirmed" || d.ConfirmedAt == nil || d.FundingMode != "value" {
			t.Errorf("round %d: status %s, tx %v, confirmed at %v, funding %s", d.ID, d.Status, d.TxHash, d.ConfirmedAt, d.FundingMode)
		}
	}
	return ds
}

// checkRoundTx checks that round d names the transaction that credited it: mined, successful.
func (e *env) checkRoundTx(d store.Distribution) {
	e.t.Helper()
	if d.TxHash == nil {
		e.t.Fatalf("round %d names no transaction", d.ID)
	}
	r, err := e.c.Receipt(e.t.Context(), common.HexToHash(*d.TxHash))
	if err != nil || r.Status != types.ReceiptStatusSuccessful {
		e.t.Errorf("round %d: transaction %s: receipt %v, err %v", d.ID, *d.TxHash, r, err)
	}
}

func wei(vs ...int64) []*big.Int {
	out := make([]*big.Int, len(vs))
	for i, v := range vs {
		out[i] = big.NewInt(v)
	}
	return out
}

func sumWei(vs []*big.Int) *big.Int {
	s := new(big.Int)
	for _, v := range vs {
		s.Add(s, v)
	}
	return s
}

func TestCreditFixedPaysEachTierItsRate(t *testing.T) {
	t.Parallel()
	e := newEnv(t) // fixed, base 1,000,000 wei
	nodes := e.mintDue(1, 2, 3)
	sum := mustCredit(t, e.j)
	want := wei(1_000_000, 2_000_000, 1_000_000) // the factory's payoutBps 10000, 20000, 10000
	if !sum.Ran || sum.Nodes != 3 || sum.TotalWei != "4000000" || sum.TxHash == "" || sum.Repriced ||
		sum.Status != "confirmed" || sum.Resumed || sum.DistributionID == 0 {
		t.Fatalf("summary %+v", sum)
	}
	if b, _ := json.Marshal(sum); !strings.Contains(string(b), `"ran":true`) || !strings.Contains(string(b), `"totalWei":"4000000"`) {
		t.Errorf("json %s", b)
	}
	e.checkCredited(nodes, want, 1)
	ds := checkRounds(t, e.db, 1)
	e.checkRoundTx(ds[0])
	if ds[0].Mode != "fixed" || ds[0].NodeCount != 3 || ds[0].TotalWei.Cmp(sumWei(want)) != 0 || ds[0].ID != sum.DistributionID ||
		roundWeights(t, e.db, ds[0].ID) != "{0,10000,20000,10000} v3" {
		t.Errorf("round %+v", ds[0])
	}
	for i, n := range nodes {
		d, err := e.db.Node(t.Context(), n.ChainNodeID.Int, 50)
		if err != nil {
			t.Fatal(err)
		}
		if cs := d.Credits; len(cs) != 1 || cs[0].AmountWei.Cmp(want[i]) != 0 || cs[0].DistributionID != ds[0].ID {
			t.Errorf("node %d credits %+v", n.ID, cs)
		}
	}

	t.Run("nodes keep their cadence", func(t *testing.T) {
		// Due a minute ago, credited now: next due a period after they were due, not after now.
		for _, at := range e.nextCredits(nodes) {
			if d := time.Until(at); d < 58*time.Minute || d > 59*time.Minute+30*time.Second {
				t.Errorf("next credit in %s, want one period after the round fell due", d)
			}
		}
	})

	t.Run("next pass finds nothing due", func(t *testing.T) {
		sum := mustCredit(t, e.restart())
		if !sum.Ran || sum.Nodes != 0 || sum.DistributionID != 0 || sum.Note == "" {
			t.Errorf("summary %+v", sum)
		}
		checkRounds(t, e.db, 1)
		e.checkCredited(nodes, want, 1)
	})

	t.Run("long overdue, the next round is a period from now", func(t *testing.T) {
		storetest.Due(t, e.db, time.Now().Add(-5*time.Hour))
		sum := mustCredit(t, e.restart())
		if sum.Nodes != 3 || sum.Status != "confirmed" {
			t.Fatalf("summary %+v", sum)
		}
		for _, at := range e.nextCredits(nodes) {
			if d := time.Until(at); d < 59*time.Minute || d > time.Hour {
				t.Errorf("next credit in %s, want an hour from now", d)
			}
		}
		e.checkCredited(nodes, wei(2_000_000, 4_000_000, 2_000_000), 2)
	})

	t.Run("a node minted after a round joins the next", func(t *testing.T) {
		late := e.mintDue(2)
		if d := time.Until(e.nextCredits(late)[0]); d < 59*time.Minute || d > time.Hour {
			t.Errorf("the new node's next credit in %s, want the schedule's next round", d)
		}
		if sum := mustCredit(t, e.restart()); sum.DistributionID != 0 {
			t.Fatalf("a round before the schedule's time: %+v", sum)
		}
		storetest.Due(t, e.db, time.Now().Add(-time.Minute))
		if sum := mustCredit(t, e.restart()); sum.Nodes != 4 || sum.TotalWei != "6000000" {
			t.Fatalf("summary %+v", sum)
		}
		e.checkCredited(nodes, wei(3_000_000, 6_000_000, 3_000_000), 3)
		e.checkCredited(late, wei(2_000_000), 1)
	})
}

// TestCreditPaysTheFactorysWeights: the round is priced with the weights the factory's owner set,
// read at the round's block, whatever else the ledger or an operator says.
func TestCreditPaysTheFactorysWeights(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	nodes := e.mintDue(1, 2, 3)
	e.setWeight(1, 30000) // the owner triples tier 1 before the round
	if sum := mustCredit(t, e.j); sum.TotalWei != "6000000" || sum.Repriced {
		t.Fatalf("summary %+v", sum)
	}
	e.checkCredited(nodes, wei(3_000_000, 2_000_000, 1_000_000), 1)
	if w := roundWeights(t, e.db, checkRounds(t, e.db, 1)[0].ID); w != "{0,30000,20000,10000} v4" {
		t.Errorf("round weights %s", w)
	}
}

// roundWeights is what the ledger recorded of the factory's weights for round id, and their
// version: "{0,10000} v1".
func roundWeights(t *testing.T, db *store.Store, id int64) string {
	t.Helper()
	var w string
	if err := db.DB().Get(&w, `SELECT weights::text || ' v' || weights_version FROM distributions WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	return w
}

func TestCreditPoolSplitsAsTheContract(t *testing.T) {
	t.Parallel()
	const pool = 1_000_003 // not a multiple of the weight: a remainder is carried
	e := newEnv(t, func(c *Config) { c.DistMode = "pool"; c.DistPoolWei = big.NewInt(pool) })
	nodes := e.mintDue(1, 2, 2, 3) // payoutBps 10000, 20000, 20000, 10000: a weight of 60,000
	// 1,000,003 / 60,000 = 16 wei per unit of weight: 160,000 or 320,000 a node, 40,003 carried.
	sum := mustCredit(t, e.j)
	if sum.TotalWei != "960000" || sum.Nodes != 4 || sum.Status != "confirmed" {
		t.Fatalf("summary %+v", sum)
	}
	e.checkCredited(nodes, wei(160_000, 320_000, 320_000, 160_000), 1)
	// The next pool adds the carry: 1,040,006 / 60,000 = 17, and 20,006 carried.
	storetest.Due(t, e.db, time.Now().Add(-time.Minute))
	if sum := mustCredit(t, e.restart()); sum.TotalWei != "1020000" {
		t.Fatalf("second round %+v", sum)
	}
	e.checkCredited(nodes, wei(330_000, 660_000, 660_000, 330_000), 2)
	ds := checkRounds(t, e.db, 2)
	if ds[0].Mode != "pool" || ds[1].Mode != "pool" {
		t.Errorf("rounds %+v", ds)
	}
	// Nothing is lost: what the rounds credited and what the contract carries are the two pools.
	st, err := e.c.RoundState(t.Context())
	if err != nil || st.PoolCarry.Int64() != 20_006 || ds[0].TotalWei.Int64()+ds[1].TotalWei.Int64()+st.PoolCarry.Int64() != 2*pool {
		t.Errorf("carry %v (err %v), rounds %s + %s", st.PoolCarry, err, ds[0].TotalWei, ds[1].TotalWei)
	}
	cv, err := e.c.Cover(t.Context())
	if err != nil || cv.Balance.Int64() != 2*pool || cv.Outstanding.Int64() != 960_000+1_020_000 {
		t.Errorf("cover %+v, err %v", cv, err)
	}
}

func TestCreditThatDoesNotRun(t *testing.T) {
	t.Parallel()
	t.Run("switched off", func(t *testing.T) {
		e := newEnv(t, func(c *Config) { c.DistEnabled = false })
		e.mintDue(1)
		sum := mustCredit(t, e.j)
		if sum.Ran || !strings.Contains(sum.Reason, "DIST_ENABLED") {
			t.Errorf("summary %+v", sum)
		}
		b, _ := json.Marshal(sum)
		if string(b) != `{"ran":false,"reason":"distribution is switched off (DIST_ENABLED=false)"}` {
			t.Errorf("json %s", b)
		}
		checkRounds(t, e.db, 0)
	})
	t.Run("no distributor key", func(t *testing.T) {
		e := newEnv(t)
		e.mintDue(1)
		j := New(e.db, e.c, chain.LocalSigner(e.dc.Minter.Key), nil, e.cfg, slog.New(slog.DiscardHandler))
		sum := mustCredit(t, j)
		if sum.Ran || !strings.Contains(sum.Reason, "DISTRIBUTOR_KEY") {
			t.Errorf("summary %+v", sum)
		}
		checkRounds(t, e.db, 0)
	})
	t.Run("no node due", func(t *testing.T) {
		e := newEnv(t)
		nodes := e.mintDue(1, 2)
		storetest.Due(t, e.db, time.Now().Add(time.Minute))
		sum := mustCredit(t, e.j)
		if !sum.Ran || sum.Nodes != 0 || sum.TotalWei != "0" || sum.Note == "" {
			t.Errorf("summary %+v", sum)
		}
		checkRounds(t, e.db, 0)
		e.checkCredited(nodes, wei(0, 0), 0)
	})
	t.Run("the chain has a node the ledger has not recorded", func(t *testing.T) {
		e := newEnv(t)
		nodes := e.mintDue(1, 2)
		e.mintDue(1)
		if _, err := e.db.DB().Exec(`DELETE FROM nodes WHERE id = 3`); err != nil {
			t.Fatal(err)
		}
		sum := mustCredit(t, e.j)
		if !sum.Ran || sum.DistributionID != 0 || !strings.Contains(sum.Note, "the chain has 3 nodes and the ledger has recorded 2") {
			t.Errorf("summary %+v", sum)
		}
		checkRounds(t, e.db, 0)
		e.checkCredited(nodes, wei(0, 0), 0)
	})
}

func TestCreditPassSurvivesACrashAtEveryStep(t *testing.T) {
	t.Parallel()
	for _, step := range creditSteps {
		t.Run(step, func(t *testing.T) {
			e := newEnv(t)
			nodes := e.mintDue(1, 2, 3)
			j := e.restart()
			j.crash = crashAt(step, 1)
			if _, err := j.Credit(t.Context()); !errors.Is(err, errCrash) {
				t.Fatalf("pass that crashed at %s: err %v", step, err)
			}
			e.settleCredit()
			e.checkCredited(nodes, wei(1_000_000, 2_000_000, 1_000_000), 1)
			e.checkRoundTx(checkRounds(t, e.db, 1)[0])
		})
	}
	// The pass dies with the round written; a node is minted before the next pass signs it: the
	// contract would refuse the round (NodeCountChanged), so it is priced again with the new node.
	t.Run("a node minted between the round and its transaction", func(t *testing.T) {
		e := newEnv(t)
		nodes := e.mintDue(1, 2)
		j := e.restart()
		j.crash = crashAt("credit.written", 1)
		if _, err := j.Credit(t.Context()); !errors.Is(err, errCrash) {
			t.Fatalf("err %v", err)
		}
		nodes = append(nodes, e.mintDue(3)...)
		sum := mustCredit(t, e.restart())
		if !sum.Resumed || !sum.Repriced || sum.Nodes != 3 || sum.TotalWei != "4000000" || sum.Status != "confirmed" {
			t.Errorf("summary %+v", sum)
		}
		e.checkCredited(nodes, wei(1_000_000, 2_000_000, 1_000_000), 1)
		e.checkRoundTx(checkRounds(t, e.db, 1)[0])
	})
	// The pass dies with the round written; the factory's owner halves tier 2 before the next pass
	// signs it: the contract would refuse the round (WeightsChanged), so it is priced again with
	// the chain's weights, and no node is credited at the old one.
	t.Run("a weight changed between the round and its transaction", func(t *testing.T) {
		e := newEnv(t)
		nodes := e.mintDue(1, 2, 3)
		j := e.restart()
		j.crash = crashAt("credit.written", 1)
		if _, err := j.Credit(t.Context()); !errors.Is(err, errCrash) {
			t.Fatalf("err %v", err)
		}
		e.setWeight(2, 5000)
		sum := mustCredit(t, e.restart())
		if !sum.Resumed || !sum.Repriced || sum.Nodes != 3 || sum.TotalWei != "2500000" || sum.Status != "confirmed" {
			t.Errorf("summary %+v", sum)
		}
		e.checkCredited(nodes, wei(1_000_000, 500_000, 1_000_000), 1)
		if w := roundWeights(t, e.db, checkRounds(t, e.db, 1)[0].ID); w != "{0,10000,5000,10000} v4" {
			t.Errorf("round weights %s", w)
		}
	})
	// The same, and the transaction was sent before the mint landed: it reverts, and the round is
	// priced again when it is signed anew.
	t.Run("a node minted after the round's transaction was signed", func(t *testing.T) {
		e := newEnv(t)
		nodes := e.mintDue(1, 2)
		round, data := e.pendingRound()
		factory := e.dc.Factory
		tx, err := e.c.NewSender(chain.LocalSigner(e.dc.Distributor.Key), e.dc.ChainID()).Sign(t.Context(), &factory, data, round.Value())
		if err != nil {
			t.Fatal(err)
		}
		e.storeRoundTx(round, tx)
		nodes = append(nodes, e.mintDue(3)...)
		if r := e.mustMine(tx); r.Status != types.ReceiptStatusFailed {
			t.Fatal("the stored transaction did not revert")
		}
		sum := mustCredit(t, e.restart())
		if !sum.Repriced || sum.Nodes != 3 || sum.Status != "confirmed" {
			t.Errorf("summary %+v", sum)
		}
		e.checkCredited(nodes, wei(1_000_000, 2_000_000, 1_000_000), 1)
		e.checkRoundTx(checkRounds(t, e.db, 1)[0])
	})
}

// pendingRound crashes a pass right after it wrote its round, and returns the round with the
// calldata that credits it.
func (e *env) pendingRound() (store.Round, []byte) {
	e.t.Helper()
	j := e.restart()
	j.crash = crashAt("credit.written", 1)
	if _, err := j.Credit(e.t.Context()); !errors.Is(err, errCrash) {
		e.t.Fatalf("err %v", err)
	}
	r, err := e.db.PendingRound(e.t.Context())
	if err != nil {
		e.t.Fatalf("pending round %+v: %v", r, err)
	}
	return r, j.distributeData(r)
}

// storeRoundTx records tx as the round's signed transaction, as a pass does before sending it.
func (e *env) storeRoundTx(r store.Round, tx *types.Transaction) {
	e.t.Helper()
	e.keep(tx, func(v store.SentTx) error { return e.db.StoreRoundTx(e.t.Context(), r.ID, v) })
}

// resign signs a copy of tx with another gas limit: same nonce, another transaction.
func (e *env) resign(tx *types.Transaction, gas uint64) *types.Transaction {
	return e.resignWith(e.dc.Distributor.Key, tx, func(d *types.DynamicFeeTx) { d.Gas = gas })
}

// resignWith signs a copy of tx, changed by change, with key.
func (e *env) resignWith(key *ecdsa.PrivateKey, tx *types.Transaction, change func(*types.DynamicFeeTx)) *types.Transaction {
	e.t.Helper()
	d := &types.DynamicFeeTx{
		ChainID: e.dc.ChainID(), Nonce: tx.Nonce(), GasTipCap: tx.GasTipCap(), GasFeeCap: tx.GasFeeCap(),
		Gas: tx.Gas(), To: tx.To(), Value: tx.Value(), Data: tx.Data(),
	}
	change(d)
	out, err := types.SignNewTx(key, types.LatestSignerForChainID(e.dc.ChainID()), d)
	if err != nil {
		e.t.Fatal(err)
	}
	return out
}

func (e *env) mustMine(tx *types.Transaction) *types.Receipt {
	e.t.Helper()
	if err := e.c.Send(e.t.Context(), tx); err != nil {
		e.t.Fatal(err)
	}
	r, err := e.c.WaitMined(e.t.Context(), tx.Hash(), 20*time.Millisecond)
	if err != nil {
		e.t.Fatal(err)
	}
	return r
}

// The stored transaction of a round will never credit it; the next pass has to find out why.
func TestCreditStoredTransactionThatFails(t *testing.T) {
	t.Parallel()
	want := wei(1_000_000, 2_000_000)
	t.Run("reverted because another transaction credited the round", func(t *testing.T) {
		e := newEnv(t)
		nodes := e.mintDue(1, 2)
		round, data := e.pendingRound()
		s := e.c.NewSender(chain.LocalSigner(e.dc.Distributor.Key), e.dc.ChainID())
		factory := e.dc.Factory
		other, err := s.Sign(t.Context(), &factory, data, round.Value())
		if err != nil {
			t.Fatal(err)
		}
		stored, err := s.Sign(t.Context(), &factory, data, round.Value()) // the next nonce, same call
		if err != nil {
			t.Fatal(err)
		}
		e.storeRoundTx(round, stored)
		if r := e.mustMine(other); r.Status != types.ReceiptStatusSuccessful {
			t.Fatal("the other transaction failed")
		}
		if r := e.mustMine(stored); r.Status != types.ReceiptStatusFailed {
			t.Fatal("the stored transaction did not revert")
		}
		sum := mustCredit(t, e.restart())
		if sum.Status != "confirmed" || !sum.Resumed {
			t.Errorf("summary %+v", sum)
		}
		e.checkCredited(nodes, want, 1)
		if d := checkRounds(t, e.db, 1)[0]; d.TxHash != nil {
			t.Errorf("round names transaction %s; which one credited it is not known", *d.TxHash)
		}
	})
	t.Run("its nonce went to another transaction that credited the round", func(t *testing.T) {
		e := newEnv(t)
		nodes := e.mintDue(1, 2)
		round, data := e.pendingRound()
		factory := e.dc.Factory
		other, err := e.c.NewSender(chain.LocalSigner(e.dc.Distributor.Key), e.dc.ChainID()).Sign(t.Context(), &factory, data, round.Value())
		if err != nil {
			t.Fatal(err)
		}
		e.storeRoundTx(round, e.resign(other, other.Gas()+1))
		if r := e.mustMine(other); r.Status != types.ReceiptStatusSuccessful {
			t.Fatal("the other transaction failed")
		}
		e.settleCredit()
		e.checkCredited(nodes, want, 1)
		if d := checkRounds(t, e.db, 1)[0]; d.TxHash != nil {
			t.Errorf("round names transaction %s; which one credited it is not known", *d.TxHash)
		}
	})
	t.Run("reverted out of gas: signed anew", func(t *testing.T) {
		e := newEnv(t)
		nodes := e.mintDue(1, 2)
		round, data := e.pendingRound()
		factory := e.dc.Factory
		tx, err := e.c.NewSender(chain.LocalSigner(e.dc.Distributor.Key), e.dc.ChainID()).Sign(t.Context(), &factory, data, round.Value())
		if err != nil {
			t.Fatal(err)
		}
		starved := e.resign(tx, 40_000) // past the intrinsic gas, short of the call's
		e.storeRoundTx(round, starved)
		sum := mustCredit(t, e.restart())
		if sum.Status != "confirmed" {
			t.Errorf("summary %+v", sum)
		}
		r, err := e.c.Receipt(t.Context(), starved.Hash())
		if err != nil || r.Status != types.ReceiptStatusFailed {
			t.Errorf("the stored transaction: receipt %v, err %v; want it sent and reverted", r, err)
		}
		e.checkCredited(nodes, want, 1)
		e.checkRoundTx(checkRounds(t, e.db, 1)[0]) // the new one, not the reverted one
	})
}

func TestCreditReceiptTimeoutLeavesTheRoundPending(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) { c.ReceiptTimeout = time.Nanosecond })
	nodes := e.mintDue(1, 2)
	sum := mustCredit(t, e.j)
	if sum.Status == "confirmed" {
		t.Log("the transaction was mined before the receipt was first asked for; the timeout was not exercised")
	} else if sum.Status != "pending" || sum.TxHash != "" || !strings.Contains(sum.Note, "next pass") {
		t.Errorf("summary %+v", sum)
	}
	e.cfg.ReceiptTimeout = 30 * time.Second
	e.settleCredit()
	e.checkCredited(nodes, wei(1_000_000, 2_000_000), 1)
	checkRounds(t, e.db, 1)
}

func TestTwoCreditPassesAtOnce(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		secondPool bool
	}{{"one connection pool", false}, {"two connection pools", true}} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			nodes := e.mintDue(1, 2, 3)
			s2 := e.db
			if tc.secondPool {
				var err error
				if s2, err = store.Open(t.Context(), storetest.URL(t, e.db)); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { s2.Close() })
			}
			passes := []*Jobs{e.restart(), New(s2, e.c, nil, chain.LocalSigner(e.dc.Distributor.Key), e.cfg, slog.New(slog.DiscardHandler))}
			// Whichever pass gets the lock waits, once its round is written, until the other has
			// returned: the two overlap for sure.
			done := []chan struct{}{make(chan struct{}), make(chan struct{})}
			for i, p := range passes {
				other := done[1-i]
				p.crash = func(step string) error {
					if step == "credit.written" {
						select {
						case <-other:
						case <-time.After(20 * time.Second):
							return errors.New("the other pass never returned")
						}
					}
					return nil
				}
			}
			sums := make([]CreditSummary, 2)
			errs := make([]error, 2)
			var wg sync.WaitGroup
			for i, p := range passes {
				wg.Go(func() {
					defer close(done[i])
					sums[i], errs[i] = p.Credit(context.WithoutCancel(t.Context()))
				})
			}
			wg.Wait()
			ran := 0
			for i := range passes {
				if errs[i] != nil {
					t.Fatalf("pass %d: %v", i, errs[i])
				}
				if sums[i].Ran {
					ran++
				} else if sums[i].Reason != "another credit pass is running" {
					t.Errorf("pass %d: %+v", i, sums[i])
				}
			}
			if ran != 1 {
				t.Fatalf("%d passes ran: %+v", ran, sums)
			}
			e.checkCredited(nodes, wei(1_000_000, 2_000_000, 1_000_000), 1)
			e.checkRoundTx(checkRounds(t, e.db, 1)[0])
		})
	}
}

// mintMany mints n nodes of tier 1, five to an owner, as fast as the dev chain takes them without
// its base fee climbing: signed here with one gas limit (no estimate per transaction), sent in
// chunks of about the block's gas target, each chunk mined before the next is sent (full blocks
// would raise the base fee 12.5% a block). It records the nodes in the ledger, due, in one
// statement.
func (e *env) mintMany(b *testing.B, n int) {
	b.Helper()
	ctx := b.Context()
	minter := e.dc.Minter
	var nonce hexutil.Uint64
	if err := e.dc.RPC().CallContext(ctx, &nonce, "eth_getTransactionCount", minter.Address, "pending"); err != nil {
		b.Fatal(err)
	}
	var head struct {
		GasLimit hexutil.Uint64 `json:"gasLimit"`
	}
	if err := e.dc.RPC().CallContext(ctx, &head, "eth_getBlockByNumber", "latest", false); err != nil {
		b.Fatal(err)
	}
	signer := types.LatestSignerForChainID(e.dc.ChainID())
	factory := e.dc.Factory
	// A mint to a new owner is the dearest kind: its estimate, with Sign's margin, holds for all.
	probe, err := e.c.NewSender(chain.LocalSigner(minter.Key), e.dc.ChainID()).Sign(ctx, &factory,
		e.c.MintData(common.BigToAddress(big.NewInt(0x100000)), 1, common.BigToHash(big.NewInt(0x100000))), nil)
	if err != nil {
		b.Fatal(err)
	}
	gas := probe.Gas()
	// One mint in five is to a new owner; the others cost about 70% of it, and the estimate is
	// gas/1.25: on average a mint uses about 0.6 of its gas limit.
	chunk := max(1, int(uint64(head.GasLimit)/2/(gas*6/10)))
	b.Logf("mint gas limit %d, %d mints a block (block gas limit %d)", gas, chunk, uint64(head.GasLimit))
	ids := make([]string, n)
	owners := make([]string, n)
	hashes := make([]string, n)
	for start := 0; start < n; start += chunk {
		var last *types.Transaction
		for i := start; i < min(start+chunk, n); i++ {
			owner := common.BigToAddress(big.NewInt(int64(0x100000 + i/5)))
			tx, err := types.SignNewTx(minter.Key, signer, &types.DynamicFeeTx{
				ChainID: e.dc.ChainID(), Nonce: uint64(nonce) + uint64(i), GasTipCap: big.NewInt(1e9),
				GasFeeCap: big.NewInt(100e9), Gas: gas, To: &factory,
				Data: e.c.MintData(owner, 1, common.BigToHash(big.NewInt(int64(0x100000+i)))),
			})
			if err != nil {
				b.Fatal(err)
			}
			if err := e.c.Send(ctx, tx); err != nil {
				b.Fatal(err)
			}
			ids[i] = big.NewInt(int64(i + 1)).String() // a fresh factory numbers its nodes from 1
			owners[i] = strings.ToLower(owner.Hex())
			hashes[i] = strings.ToLower(tx.Hash().Hex())
			last = tx
		}
		if r, err := e.c.WaitMined(ctx, last.Hash(), 50*time.Millisecond); err != nil || r.Status != types.ReceiptStatusSuccessful {
			b.Fatalf("mint %s: %v (receipt %+v)", last.Hash(), err, r)
		}
	}
	if info, err := e.c.NodeInfo(ctx, big.NewInt(int64(n))); err != nil || info.Owner != common.HexToAddress(owners[n-1]) {
		b.Fatalf("node %d on chain: %+v, %v", n, info, err)
	}
	_, err = e.db.DB().ExecContext(ctx, `
		INSERT INTO nodes (id, tier, owner, price_wei, mint_tx, next_credit_at)
		SELECT t.id, 1, t.owner, $4, t.hash, now() - interval '1 minute'
		FROM unnest($1::bigint[], $2::text[], $3::text[]) AS t (id, owner, hash)`,
		pq.Array(ids), pq.Array(owners), pq.Array(hashes), priceOne.String())
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkCreditPass10k times one full credit pass over 10,000 due nodes: round priced and
// written, its one transaction signed, stored, sent and mined, the round recorded.
func BenchmarkCreditPass10k(b *testing.B) {
	const nodes = 10_000
	e := newEnv(b)
	start := time.Now()
	e.mintMany(b, nodes)
	b.Logf("minted and recorded %d nodes in %s", nodes, time.Since(start).Round(time.Millisecond))
	for i := 0; i < b.N; i++ {
		if i > 0 {
			b.StopTimer()
			storetest.Due(b, e.db, time.Now().Add(-time.Minute))
			b.StartTimer()
		} else {
			b.ResetTimer()
		}
		j := e.restart()
		// Where the time goes: when each step was last reached, from the start of the pass.
		passStart := time.Now()
		var reached sync.Map
		j.crash = func(step string) error { reached.Store(step, time.Since(passStart)); return nil }
		sum, err := j.Credit(b.Context())
		if err != nil {
			b.Fatal(err)
		}
		if sum.Nodes != nodes || sum.Status != "confirmed" {
			b.Fatalf("summary %+v", sum)
		}
		for _, step := range creditSteps {
			if d, ok := reached.Load(step); ok {
				b.Logf("pass %d: %s last reached after %s", i, step, d.(time.Duration).Round(time.Millisecond))
			}
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*nodes), "ns/node")
	info, err := e.c.NodeInfo(b.Context(), big.NewInt(nodes))
	if err != nil || info.Credited.Cmp(new(big.Int).Mul(big.NewInt(int64(b.N)), e.cfg.DistBaseWei)) != 0 {
		b.Fatalf("node %d: %+v, %v", nodes, info, err)
	}
}
