//go:build long

package e2e

import (
	"database/sql"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/lib/pq"

	"nodeledger/chain"
	"nodeledger/chain/bindings"
	"nodeledger/store"
)

// TestChaos is `make chaos`: it runs the real binary against geth --dev, has buyers pay (right
// and wrong amounts) and withdraw, and kill -9s the server at a random moment of a payments pass
// (its own, at a new head, while payments wait), of a credit pass started through the cron
// route, of the reconciler pass its start-up tick runs, or of a payments pass replacing a mint
// the miner ignores (a tip spike), until each kind has been killed CHAOS_KILLS times (50) while
// under way. Each kill is followed by a fresh start. At the end, passes run to completion,
// and the ledger and the chain must agree: every good payment minted exactly once, every bad one
// recorded as rejected (or refunded: the payments wallet sends some back as the run goes), no
// node credited twice in a round, every node's owner, balance, credited and withdrawn equal to
// nodeInfo, and a webhook receiver subscribed from the start got payment.minted, .rejected and
// .refunded for every payment so settled. The payments wallet is swept to a treasury Safe as
// payments come in (a fourth kind of kill lands while a sweep is due), and at the end the
// treasury and the wallet hold every wei paid less the refunds and the wallet's fees, and the
// treasury exactly what the ledger's sweeps sent less what its refund batches paid: nothing swept
// twice, nothing lost. The treasury's owner proposes, signs and executes refund batches of the
// payments owed as the run goes, while refunds by hand from the payments wallet race them (a
// payment of a batch not ready yet may be refunded by hand; its batch must then be held, then
// void): no payment is paid back twice, and no wei leaves either wallet unexplained. CHAOS_SEED
// replays the random choices.
func TestChaos(t *testing.T) {
	target := 50
	if n, err := strconv.Atoi(os.Getenv("CHAOS_KILLS")); err == nil && n > 0 {
		target = n
	}
	seed := uint64(time.Now().UnixNano())
	if s, err := strconv.ParseUint(os.Getenv("CHAOS_SEED"), 10, 64); err == nil {
		seed = s
	}
	t.Logf("CHAOS_SEED=%d", seed)
	rng := rand.New(rand.NewPCG(seed, seed))
	ctx := t.Context()
	// A block a second, and a transaction waiting one block is replaced: fee bumps come quickly.
	// Rounds of either mode: a pool round's carry is arithmetic the ledger must repeat to the wei.
	mode := []string{"fixed", "pool"}[rng.IntN(2)]
	t.Logf("DIST_MODE=%s", mode)
	d := newDeployment(t, "DIST_PERIOD_SEC=1", "TICK_SEC=3600", "TX_BUMP_BLOCKS=1", "DIST_MODE="+mode, "DIST_POOL_WEI=1000000000",
		"WEBHOOK_ALLOW_PRIVATE=true")
	// Sweeps above 0.05 ETH (refunds by hand need the gas), once 0.02 ETH (two payments) waits.
	d.withTreasury(t, "SWEEP_KEEP_WEI=50000000000000000", "SWEEP_MIN_WEI=20000000000000000", "SWEEP_EVERY_BLOCKS=3")
	good := map[string]bool{} // payment tx → whether it pays a tier's price
	pay := func() string {
		tx, ok := d.pay(t, rng)
		good[tx] = ok
		return tx
	}
	bin, env, ledger, c := d.bin, d.env, d.ledger, d.chain
	hooks := newHookLog(t)
	s0 := startServer(t, bin, env)
	hooks.subscribe(t, s0, "payment.minted", "payment.rejected", "payment.refunded")
	s0.kill()
	refunds := 0  // sent from the payments wallet, each for the oldest payment rejected then
	executed := 0 // refund batches the treasury's owner executed

	kills := map[string]int{}
	missed := 0                               // kills that came after the pass had already answered
	durations := map[string][]time.Duration{} // of the passes that answered before their kill, sorted
	withdrawals, unseen := 0, 0
	kinds := []string{"payments", "credit", "reconciler", "replacement", "sweep"}
	for slices.ContainsFunc(kinds, func(k string) bool { return kills[k] < target }) {
		kind := "payments"
		for _, k := range kinds[1:] {
			if kills[k] < kills[kind] {
				kind = k
			}
		}
		if kind == "reconciler" {
			// It has no cron route: it runs last in the tick a server starts with. Its advisory
			// lock, seen in pg_locks, says when it is under way.
			if d.withdraw(t, rng) {
				withdrawals++
			}
			before := lastTick(t, ledger)
			s := startServer(t, bin, env)
			if !waitForLock(t, ledger, store.LockReconcile, before) {
				s.kill() // the pass came and went between two looks
				unseen++
				continue
			}
			time.Sleep(time.Duration(rng.IntN(5000)) * time.Microsecond)
			held := lockHeld(t, ledger, store.LockReconcile)
			s.kill()
			if !held {
				missed++
			} else if kills[kind]++; kills[kind]%10 == 0 {
				t.Logf("%d kills during %s passes", kills[kind], kind)
			}
			continue
		}
		if kind == "replacement" {
			// A tip spike: the miner asks 2 to 11 times the tip geth suggests, which the server's
			// mints offer, so the mint of a good payment waits while the server's own passes, at
			// each new head, bump its fees a version a block. It is killed a random moment after
			// the first bump. The suggestion moves with the tips in recent blocks (1 wei on a
			// quiet dev chain, the buyers' 1 gwei once their payments fill the blocks): a fixed
			// spike of a few wei would not hold the mint back.
			s := startQuiet(t, bin, env, ledger)
			last := pay()
			for !good[last] {
				last = pay()
			}
			suggested, err := d.eth.SuggestGasTipCap(ctx)
			if err != nil {
				t.Fatal(err)
			}
			waitConfirmed(t, d.eth, last, 1)
			before := replacements(t, ledger)
			d.minerTip(t, suggested.Int64()*int64(2+rng.IntN(10)))
			bumped := false
			for deadline := time.Now().Add(20 * time.Second); !bumped && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
				bumped = replacements(t, ledger) > before
			}
			time.Sleep(time.Duration(rng.IntN(1500)) * time.Millisecond)
			s.kill()
			switch {
			case !bumped:
				unseen++
			case settled(t, ledger, last):
				missed++
			default:
				if kills[kind]++; kills[kind]%10 == 0 {
					t.Logf("%d kills while a mint was being replaced", kills[kind])
				}
			}
			d.minerTip(t, 1)
			continue
		}
		if kind == "sweep" {
			// Enough paid for a sweep to be due: the server's sweep pass, after the payments pass
			// at a head, is killed a random moment after it takes its lock.
			s := startQuiet(t, bin, env, ledger)
			var txs []string
			for range 2 + rng.IntN(2) {
				tx := pay()
				for !good[tx] {
					tx = pay()
				}
				txs = append(txs, tx)
			}
			waitConfirmed(t, d.eth, txs[len(txs)-1], 1)
			killed := false
			for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); {
				if lockHeld(t, ledger, store.LockSweep) {
					time.Sleep(time.Duration(rng.IntN(20)) * time.Millisecond)
					killed = lockHeld(t, ledger, store.LockSweep)
					break
				}
			}
			s.kill()
			if !killed {
				missed++
			} else if kills[kind]++; kills[kind]%10 == 0 {
				t.Logf("%d kills during sweep passes", kills[kind])
			}
			continue
		}
		if kind == "payments" {
			// The server's own passes take the payments up at the next heads: it is killed a
			// random moment into one of them, while some of the payments are unsettled.
			s := startQuiet(t, bin, env, ledger)
			// A refund by hand, and one to three steps of the treasury's batches, in a random order.
			steps := []func(){func() {
				if rng.IntN(2) == 0 && d.refund(t, refunds) {
					refunds++
				}
			}}
			for range 1 + rng.IntN(3) {
				steps = append(steps, func() {
					if d.batchStep(t, s) {
						executed++
					}
				})
			}
			rng.Shuffle(len(steps), func(i, j int) { steps[i], steps[j] = steps[j], steps[i] })
			for _, step := range steps {
				step()
			}
			var txs []string
			for range 1 + rng.IntN(3) {
				txs = append(txs, pay())
			}
			waitConfirmed(t, d.eth, txs[len(txs)-1], 1)
			if killInPass(t, s, ledger, store.LockPayments, txs, time.Duration(rng.IntN(30))*time.Millisecond) {
				if kills[kind]++; kills[kind]%10 == 0 {
					t.Logf("%d kills during %s passes", kills[kind], kind)
				}
			} else {
				missed++
			}
			continue
		}
		s := startQuiet(t, bin, env, ledger)
		time.Sleep(time.Second) // DIST_PERIOD_SEC: every node is due again
		done := make(chan struct{})
		start := time.Now()
		go func() {
			defer close(done)
			s.post(fmt.Sprintf("/api/cron/%s", kind))
		}()
		// Within the pass, mostly: up to a little past the median pass of its kind.
		window := 2 * time.Second
		if ds := durations[kind]; len(ds) > 0 {
			window = ds[len(ds)/2] * 5 / 4
		}
		time.Sleep(time.Duration(rng.Int64N(int64(window))))
		select {
		case <-done:
			missed++
			durations[kind] = insertSorted(durations[kind], time.Since(start))
			s.kill()
		default:
			s.kill()
			<-done
			if kills[kind]++; kills[kind]%10 == 0 {
				t.Logf("%d kills during %s passes", kills[kind], kind)
			}
		}
	}
	t.Logf("kill -9 during a payments pass: %d, a credit pass: %d, a reconciler pass: %d, a replacement: %d, a sweep pass: %d; %d kills came after the pass had ended; %d passes not caught under way; %d withdrawals made; %d replacements",
		kills["payments"], kills["credit"], kills["reconciler"], kills["replacement"], kills["sweep"], missed, unseen, withdrawals, replacements(t, ledger))

	// A last server finishes what the kills left: every payment settled, the last round confirmed.
	s := startQuiet(t, bin, env, ledger)
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(time.Second) {
		s.post("/api/cron/payments")
		var unsettled int
		if err := ledger.DB().Get(&unsettled, `SELECT count(*) FROM payments WHERE status IN ('pending', 'minting')`); err != nil {
			t.Fatal(err)
		}
		var recorded int
		if err := ledger.DB().Get(&recorded, `SELECT count(*) FROM payments`); err != nil {
			t.Fatal(err)
		}
		var decided int
		if err := ledger.DB().Get(&decided, `SELECT count(*) FROM treasury_batches WHERE status IN ('executed', 'failed')`); err != nil {
			t.Fatal(err)
		}
		if unsettled == 0 && recorded == len(good) && refundsMatched(t, ledger) == refunds && decided == executed {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d payments recorded, %d unsettled, %d of %d refunds matched, %d of %d batches executed recorded, after a minute",
				recorded, len(good), unsettled, refundsMatched(t, ledger), refunds, decided, executed)
		}
	}
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(time.Second) {
		_, sum := s.send(t, http.MethodPost, "/api/cron/credit", "X-Cron-Key", cronKey, "")
		var pending int
		if err := ledger.DB().Get(&pending, `SELECT count(*) FROM distributions WHERE status = 'pending'`); err != nil {
			t.Fatal(err)
		}
		if pending == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a round still pending after a minute: %v", sum)
		}
	}

	s = reconciledToHead(t, d, s)
	d.checkSweeps(t, s)

	// Every Withdrawn event on chain is in the ledger. One that is not is named with its block and
	// the reconciler's cursor: below the cursor, the reconciler read past it and lost it.
	head, err := c.HeadNumber(ctx)
	if err != nil {
		t.Fatal(err)
	}
	events, err := c.Events(ctx, 0, head)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range events.Withdrawn {
		var n int
		if err := ledger.DB().Get(&n, `SELECT count(*) FROM withdrawals WHERE tx_hash = $1 AND log_index = $2`,
			strings.ToLower(w.TxHash.Hex()), w.LogIndex); err != nil {
			t.Fatal(err)
		}
		if n != 1 {
			r, err := d.eth.TransactionReceipt(ctx, w.TxHash)
			if err != nil {
				t.Fatal(err)
			}
			t.Errorf("withdrawal %s of node %s (block %d) is in the ledger %d times; the reconciler's cursor is at block %d",
				w.TxHash.Hex(), w.ID, r.BlockNumber, n, reconcileCursor(t, ledger))
		}
	}

	// Every payment: good ones minted once, bad ones rejected.
	rows, err := ledger.DB().QueryxContext(ctx, `
		SELECT p.tx_hash, p.status, count(n.id) FROM payments p LEFT JOIN nodes n ON n.payment_id = p.id
		GROUP BY p.id`)
	if err != nil {
		t.Fatal(err)
	}
	minted := 0
	for rows.Next() {
		var tx, status string
		var nodes int
		if err := rows.Scan(&tx, &status, &nodes); err != nil {
			t.Fatal(err)
		}
		isGood, ours := good[tx]
		switch {
		case !ours:
			t.Errorf("payment %s was never made", tx)
		case isGood && (status != "minted" || nodes != 1):
			t.Errorf("good payment %s: %s with %d nodes", tx, status, nodes)
		case !isGood && (status != "rejected" && status != "refunded" || nodes != 0):
			t.Errorf("bad payment %s: %s with %d nodes", tx, status, nodes)
		}
		minted += nodes
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	// The chain has exactly the ledger's nodes: a payment minted twice would show here.
	onChain := 0
	for _, b := range d.buyers {
		ids, err := c.NodesOf(ctx, b.addr)
		if err != nil {
			t.Fatal(err)
		}
		onChain += len(ids)
	}
	if onChain != minted {
		t.Fatalf("%d nodes on chain, %d minted in the ledger", onChain, minted)
	}
	// Every node agrees with nodeInfo; its credits add up to what the chain says it was credited,
	// and no round credited it twice.
	var nodes []struct {
		ChainID   string `db:"id"` // the chain node id
		Owner     string `db:"owner"`
		Balance   string `db:"balance_wei"`
		Credited  string `db:"cumulative_wei"`
		Withdrawn string `db:"withdrawn_wei"`
		Credits   string `db:"credits"`
		Twice     int    `db:"twice"`
	}
	if err := ledger.DB().SelectContext(ctx, &nodes, `
		SELECT n.id, n.owner, n.balance_wei, n.cumulative_wei, n.withdrawn_wei,
		       (SELECT coalesce(sum(c.amount_wei), 0) FROM credits c JOIN distributions d ON d.id = c.distribution_id
		         WHERE c.node_id = n.id AND d.status = 'confirmed') AS credits,
		       (SELECT count(*) FROM (SELECT 1 FROM credits c WHERE c.node_id = n.id
		         GROUP BY c.distribution_id HAVING count(*) > 1) x) AS twice
		FROM nodes n ORDER BY n.id`); err != nil {
		t.Fatal(err)
	}
	credited := 0
	for _, n := range nodes {
		id, _ := new(big.Int).SetString(n.ChainID, 10)
		info, err := c.NodeInfo(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if n.Owner != strings.ToLower(info.Owner.Hex()) || n.Balance != info.Balance.String() ||
			n.Credited != info.Credited.String() || n.Withdrawn != info.Withdrawn.String() || n.Credits != n.Credited || n.Twice != 0 {
			t.Errorf("node %s: ledger %+v, chain %+v", n.ChainID, n, info)
		}
		if info.Credited.Sign() > 0 {
			credited++
		}
	}
	var rounds int
	if err := ledger.DB().Get(&rounds, `SELECT count(*) FROM distributions WHERE status = 'confirmed'`); err != nil {
		t.Fatal(err)
	}
	goodOnes := 0
	for _, ok := range good {
		if ok {
			goodOnes++
		}
	}
	var batches struct {
		Refunded int `db:"refunded"`
		Void     int `db:"void"` // by a refund by hand of one of their payments
		Open     int `db:"open"`
	}
	if err := ledger.DB().Get(&batches, `SELECT (SELECT count(*) FROM payments WHERE refund_batch_id IS NOT NULL) AS refunded,
		count(*) FILTER (WHERE void_reason = 'refunded_elsewhere') AS void, count(*) FILTER (WHERE status IN ('proposed', 'ready')) AS open
		FROM treasury_batches`); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d payments: %d good, each minted once, %d rejected, %d of them refunded by hand and %d by %d treasury batches (%d batches void by a refund by hand, %d open at the end); %d nodes, %d of them credited; %d rounds confirmed; ledger = nodeInfo for every node",
		len(good), goodOnes, len(good)-goodOnes, refunds, batches.Refunded, executed, batches.Void, batches.Open, len(nodes), credited, rounds)
	missing, settled := hooks.settled(t, ledger, 2*time.Minute)
	for _, m := range missing {
		t.Error(m)
	}
	if len(missing) == 0 {
		t.Logf("webhooks: the events of all %d settled payments received, in order; %s", settled, hooks.summary())
	}
}

// withdraw has the owner of a random node with a balance take part of it out, straight from the
// contract, and waits for it to be mined; false when no node has a balance yet.
func (d *deployment) withdraw(t *testing.T, rng *rand.Rand) bool {
	t.Helper()
	var ids []string
	if err := d.ledger.DB().Select(&ids, `SELECT id FROM nodes ORDER BY id`); err != nil {
		t.Fatal(err)
	}
	if len(ids) == 0 {
		return false
	}
	id, _ := new(big.Int).SetString(ids[rng.IntN(len(ids))], 10)
	info, err := d.chain.NodeInfo(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if info.Balance.Sign() == 0 {
		return false
	}
	for _, b := range d.buyers {
		if b.addr == info.Owner {
			amount := big.NewInt(1 + rng.Int64N(info.Balance.Int64())) // 1..balance; credits here are 1,000 wei
			tx := b.call(t, d.eth, d.chain.Factory(), new(big.Int), bindings.NewNodeFactory().PackWithdraw(id, b.addr, amount), 200_000)
			waitConfirmed(t, d.eth, tx, 0)
			return true
		}
	}
	t.Fatalf("node %s belongs to %s, not a buyer", id, info.Owner)
	return false
}

// refund sends the oldest rejected payment's ETH back from the payments wallet, as an operator
// does, once the ledger has matched every refund sent before (so the ledger matches this one to
// that payment), and waits for it to be mined; false when there is none to refund yet, or the
// wallet cannot pay the gas. A payment in a refund batch that is not ready yet may be refunded
// so: the batch must not pay it again. One in a ready batch is not: the operator sees it about to
// be paid (and the batch may be executed already, the payments pass not having read it yet).
func (d *deployment) refund(t *testing.T, sent int) bool {
	t.Helper()
	if refundsMatched(t, d.ledger) != sent {
		return false
	}
	var p struct {
		From  string `db:"from_address"`
		Value string `db:"value_wei"`
	}
	err := d.ledger.DB().Get(&p, `
		SELECT from_address, value_wei FROM payments p WHERE status = 'rejected' AND NOT EXISTS (
			SELECT 1 FROM treasury_batch_payments bp JOIN treasury_batches b ON b.id = bp.batch_id
			WHERE bp.payment_id = p.id AND bp.open AND b.status = 'ready')
		ORDER BY block_number, id LIMIT 1`)
	if errors.Is(err, sql.ErrNoRows) {
		return false
	} else if err != nil {
		t.Fatal(err)
	}
	value, _ := new(big.Int).SetString(p.Value, 10)
	balance, err := d.eth.BalanceAt(t.Context(), d.payTo, nil)
	if err != nil {
		t.Fatal(err)
	}
	if gas := big.NewInt(21_000 * 100_000_000_000); balance.Cmp(new(big.Int).Add(value, gas)) < 0 {
		return false
	}
	d.wallet.known = false // the service's sweeps use the wallet's nonces too
	waitConfirmed(t, d.eth, d.wallet.send(t, d.eth, common.HexToAddress(p.From), value), 0)
	return true
}

// refundsMatched counts the payments the ledger has matched to a refund by hand.
func refundsMatched(t *testing.T, ledger *store.Store) int {
	t.Helper()
	var n int
	if err := ledger.DB().Get(&n, `SELECT count(*) FROM payments WHERE status = 'refunded' AND refund_batch_id IS NULL`); err != nil {
		t.Fatal(err)
	}
	return n
}

// batchStep moves the treasury's refund batches on by one step, as its owner does from a batch's
// page: with no batch open it proposes one of every payment owed; it signs the open batch; it
// executes the ready one when the service gives its execution data (it gives none while a refund
// by hand of one of its payments waits to be confirmed, nor once that refund voids the batch),
// and waits for it to be mined. It tells whether a batch executed.
func (d *deployment) batchStep(t *testing.T, s *server) bool {
	t.Helper()
	var open []int64
	if err := d.ledger.DB().Select(&open, `SELECT id FROM treasury_batches WHERE status IN ('proposed', 'ready') ORDER BY id`); err != nil {
		t.Fatal(err)
	}
	// One its owner executed is open until the payments pass reads the execution.
	open = slices.DeleteFunc(open, func(id int64) bool { return d.executed[id] })
	if len(open) == 0 {
		// 400 when nothing is owed, 409 when the treasury holds too little yet: no batch, as the page says.
		status, body := s.send(t, http.MethodPost, "/api/admin/treasury-batches", "X-Admin-Key", adminKey, `{"kind": "refunds", "payments": "all"}`)
		if status != http.StatusCreated && status != http.StatusBadRequest && status != http.StatusConflict {
			t.Fatalf("proposing a refund batch: %d %v", status, body)
		}
		return false
	}
	path := fmt.Sprintf("/api/admin/treasury-batches/%d", open[0])
	status, b := s.send(t, http.MethodGet, path, "X-Admin-Key", adminKey, "")
	if status != http.StatusOK {
		t.Fatalf("reading batch %d: %d %v", open[0], status, b)
	}
	exec, _ := b["execData"].(string)
	switch {
	case b["status"] == "proposed":
		sig, err := crypto.Sign(common.HexToHash(b["safeTxHash"].(string)).Bytes(), d.treasuryKey)
		if err != nil {
			t.Fatal(err)
		}
		sig[64] += 27
		status, body := s.send(t, http.MethodPost, path+"/approvals", "X-Admin-Key", adminKey, `{"signature": "`+hexutil.Encode(sig)+`"}`)
		if status != http.StatusOK && status != http.StatusConflict { // 409: void meanwhile
			t.Fatalf("approving batch %d: %d %v", open[0], status, body)
		}
	case exec != "":
		r, err := d.treasuryOwner.Transact(t.Context(), &d.treasury, common.FromHex(exec), nil)
		if err != nil || r.Status != types.ReceiptStatusSuccessful {
			t.Fatalf("executing batch %d: %v", open[0], err)
		}
		d.executed[open[0]] = true
		return true
	}
	return false
}

// killInPass kills s `after` into a pass that holds the advisory lock key while some of the
// payments of txs are unsettled, and tells whether it did; false when they were all settled
// first, or the pass had ended when its time came.
func killInPass(t *testing.T, s *server, ledger *store.Store, key int64, txs []string, after time.Duration) bool {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); {
		if settled(t, ledger, txs...) {
			s.kill()
			return false
		}
		if lockHeld(t, ledger, key) {
			time.Sleep(after)
			held := lockHeld(t, ledger, key)
			s.kill()
			return held && !settled(t, ledger, txs...)
		}
	}
	t.Fatalf("payments %v not settled within 30 s:\n%s", txs, s.out)
	return false
}

// settled tells whether the ledger has settled every payment made by txs: minted, rejected or
// refunded.
func settled(t *testing.T, ledger *store.Store, txs ...string) bool {
	t.Helper()
	var n int
	if err := ledger.DB().Get(&n, `SELECT count(*) FROM payments WHERE tx_hash = ANY ($1) AND status IN ('minted', 'rejected', 'refunded')`,
		pq.Array(txs)); err != nil {
		t.Fatal(err)
	}
	return n == len(txs)
}

// lockHeld tells whether a session holds the advisory lock key in the ledger's database.
func lockHeld(t *testing.T, ledger *store.Store, key int64) bool {
	var held bool
	if err := ledger.DB().Get(&held, `
		SELECT EXISTS (SELECT 1 FROM pg_locks l JOIN pg_database d ON d.oid = l.database
		               WHERE l.locktype = 'advisory' AND d.datname = current_database()
		                 AND l.classid = 0 AND l.objid = $1 AND l.objsubid = 1 AND l.granted)`, key); err != nil {
		t.Fatal(err)
	}
	return held
}

// waitForLock waits until a session takes the advisory lock key, or until a tick after tick
// before has ended without being seen to take it.
func waitForLock(t *testing.T, ledger *store.Store, key int64, before int64) bool {
	for deadline := time.Now().Add(60 * time.Second); ; {
		if lockHeld(t, ledger, key) {
			return true
		}
		if tickEnded(t, ledger, before) {
			return false
		}
		if time.Now().After(deadline) {
			t.Fatalf("lock %#x not taken within a minute", key)
		}
	}
}

// lastTick is the id of the newest scheduler tick recorded, 0 before any.
func lastTick(t *testing.T, ledger *store.Store) int64 {
	var id int64
	if err := ledger.DB().Get(&id, `SELECT coalesce(max(id), 0) FROM scheduler_ticks`); err != nil {
		t.Fatal(err)
	}
	return id
}

// tickEnded tells whether a tick newer than tick before has ended.
func tickEnded(t *testing.T, ledger *store.Store, before int64) bool {
	var ended bool
	if err := ledger.DB().Get(&ended, `SELECT EXISTS (SELECT 1 FROM scheduler_ticks WHERE id > $1 AND finished_at IS NOT NULL)`, before); err != nil {
		t.Fatal(err)
	}
	return ended
}

// startQuiet starts a server and waits until the tick it runs as it starts is over, so that
// the pass the test starts next is the only one under way.
func startQuiet(t *testing.T, bin string, env []string, ledger *store.Store) *server {
	t.Helper()
	before := lastTick(t, ledger)
	s := startServer(t, bin, env)
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if tickEnded(t, ledger, before) {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("the start-up tick did not finish within a minute:\n%s", s.out)
		}
	}
}

// reconciledToHead starts the server again until a reconciler pass has read up to the head the
// chain has now, and returns the server that did. Here only start-up ticks run the reconciler
// (TICK_SEC=3600), and a pass reads up to head - CONFIRMATIONS: the last withdrawals can sit in
// blocks no pass has read yet, so the chain is moved on by a block before each start.
func reconciledToHead(t *testing.T, d *deployment, s *server) *server {
	t.Helper()
	head, err := d.chain.HeadNumber(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(60 * time.Second); reconcileCursor(t, d.ledger) < int64(head); {
		if time.Now().After(deadline) {
			t.Fatalf("the reconciler's cursor is at block %d after a minute, not %d", reconcileCursor(t, d.ledger), head)
		}
		waitConfirmed(t, d.eth, d.buyers[0].send(t, d.eth, d.buyers[0].addr, big.NewInt(1)), 0)
		s.kill()
		s = startQuiet(t, d.bin, d.env, d.ledger)
	}
	return s
}

// reconcileCursor is the last block the reconciler has read; -1 before its first pass.
func reconcileCursor(t *testing.T, ledger *store.Store) int64 {
	t.Helper()
	var n int64 = -1
	if err := ledger.DB().Get(&n, `SELECT coalesce(max(block_number), -1) FROM chain_cursors WHERE name = 'reconcile'`); err != nil {
		t.Fatal(err)
	}
	return n
}

// replacements counts the transactions the outbox signed again at a nonce that had one.
func replacements(t *testing.T, ledger *store.Store) int {
	t.Helper()
	var n int
	if err := ledger.DB().Get(&n, `SELECT count(*) - count(DISTINCT (sender, nonce)) FROM outbox`); err != nil {
		t.Fatal(err)
	}
	return n
}

// minerTip sets the least tip, in wei, geth's miner takes a transaction for.
func (d *deployment) minerTip(t *testing.T, wei int64) {
	t.Helper()
	if _, err := d.geth.RPC("miner_setGasPrice", fmt.Sprintf("%#x", wei)); err != nil {
		t.Fatal(err)
	}
}

// post calls a cron route and ignores the answer: the server may be killed before it comes.
func (s *server) post(path string) {
	req, _ := http.NewRequest(http.MethodPost, s.base+path, nil)
	req.Header.Set("X-Cron-Key", cronKey)
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
	}
}

// insertSorted adds d to the sorted ds.
func insertSorted(ds []time.Duration, d time.Duration) []time.Duration {
	i := sort.Search(len(ds), func(i int) bool { return ds[i] >= d })
	return append(ds[:i], append([]time.Duration{d}, ds[i:]...)...)
}

// withTreasury deploys Safe's contracts (1.4.1: the singleton, the proxy factory, the fallback
// handler) and a treasury Safe of one owner from a fresh account, and has the servers sweep the
// payments wallet to it, signing with the wallet's key, with the sweep settings env.
func (d *deployment) withTreasury(t *testing.T, env ...string) {
	t.Helper()
	ctx := t.Context()
	key, owner := hexKey(t)
	d.geth.Fund(owner, 10)
	sender := d.chain.NewSender(chain.LocalSigner(mustKey(t, key)), big.NewInt(1337))
	transact := func(to *common.Address, data []byte) *types.Receipt {
		r, err := sender.Transact(ctx, to, data, nil)
		if err != nil || r.Status != types.ReceiptStatusSuccessful {
			t.Fatalf("deploying the treasury: %v", err)
		}
		return r
	}
	d.treasuryKey, d.treasuryOwner, d.executed = mustKey(t, key), sender, map[int64]bool{}
	singleton := transact(nil, common.FromHex(bindings.SafeMetaData.Bin)).ContractAddress
	multiSend := transact(nil, common.FromHex(bindings.MultiSendCallOnlyMetaData.Bin)).ContractAddress
	factory := transact(nil, common.FromHex(bindings.SafeProxyFactoryMetaData.Bin)).ContractAddress
	handler := transact(nil, common.FromHex(bindings.CompatibilityFallbackHandlerMetaData.Bin)).ContractAddress
	setup := bindings.NewSafe().PackSetup([]common.Address{common.HexToAddress(owner)}, big.NewInt(1), common.Address{}, nil, handler,
		common.Address{}, new(big.Int), common.Address{})
	pf := bindings.NewSafeProxyFactory()
	create := pf.PackCreateProxyWithNonce(singleton, setup, new(big.Int))
	out, err := d.eth.CallContract(ctx, ethereum.CallMsg{From: common.HexToAddress(owner), To: &factory, Data: create}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d.treasury, err = pf.UnpackCreateProxyWithNonce(out); err != nil {
		t.Fatal(err)
	}
	transact(&factory, create)
	d.env = append(append(d.env, "TREASURY_ADDRESS="+d.treasury.Hex(), "MULTISEND_ADDRESS="+multiSend.Hex(),
		"PAYMENTS_KEY="+hexutil.Encode(crypto.FromECDSA(d.wallet.key))), env...)
}

// checkSweeps has the sweep under way, if any, settled, then checks the money: the treasury holds
// exactly what the ledger's sweeps sent less what its executed refund batches paid (a sweep sent
// twice, one the ledger lost, or a batch that paid more than the ledger says would show), and the
// treasury and the payments wallet together hold every wei paid less the refunds, by hand and by
// batch, and the wallet's fees. Every transaction of the wallet is a refund the ledger recorded or
// a sweep: its nonce counts them. No payment was paid back twice, and the drift report explains
// every wei out of either wallet.
func (d *deployment) checkSweeps(t *testing.T, s *server) {
	t.Helper()
	ctx := t.Context()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(time.Second) {
		s.post("/api/cron/payments") // a sweep pass follows the payments pass at each head
		var sending int
		if err := d.ledger.DB().Get(&sending, `SELECT count(*) FROM sweeps WHERE status = 'sending'`); err != nil {
			t.Fatal(err)
		}
		if sending == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a sweep still under way after a minute")
		}
	}
	sum := func(query string) *big.Int {
		var v string
		if err := d.ledger.DB().Get(&v, query); err != nil {
			t.Fatal(err)
		}
		n, _ := new(big.Int).SetString(v, 10)
		return n
	}
	swept := sum(`SELECT coalesce(sum(amount_wei), 0)::text FROM sweeps WHERE status = 'swept'`)
	paid := sum(`SELECT coalesce(sum(value_wei), 0)::text FROM payments`)
	refunded := sum(`SELECT coalesce(sum(value_wei), 0)::text FROM outgoing_transfers`)
	batchPaid := sum(`SELECT coalesce(sum(bp.value_wei), 0)::text FROM treasury_batch_payments bp
		JOIN treasury_batches b ON b.id = bp.batch_id WHERE b.status = 'executed' AND bp.open`)
	var twice int
	if err := d.ledger.DB().Get(&twice, `
		SELECT count(*) FROM payments p WHERE p.refund_batch_id IS NOT NULL AND EXISTS (
			SELECT 1 FROM outgoing_transfers o WHERE o.to_address = p.from_address AND o.value_wei = p.value_wei
				AND NOT EXISTS (SELECT 1 FROM payments q WHERE q.refund_tx_hash = o.tx_hash))`); err != nil {
		t.Fatal(err)
	}
	unexplained, err := d.ledger.UnexplainedOutflows(ctx, 100)
	if err != nil {
		t.Fatal(err)
	}
	var txs []string
	if err := d.ledger.DB().Select(&txs, `SELECT tx_hash FROM outgoing_transfers UNION ALL
		SELECT tx_hash FROM sweeps WHERE status IN ('swept', 'failed')`); err != nil {
		t.Fatal(err)
	}
	fees := new(big.Int)
	for _, h := range txs {
		r, err := d.eth.TransactionReceipt(ctx, common.HexToHash(h))
		if err != nil {
			t.Fatalf("receipt of %s: %v", h, err)
		}
		fees.Add(fees, new(big.Int).Mul(new(big.Int).SetUint64(r.GasUsed), r.EffectiveGasPrice))
	}
	nonce, err := d.eth.NonceAt(ctx, d.payTo, nil)
	if err != nil {
		t.Fatal(err)
	}
	treasury, err := d.eth.BalanceAt(ctx, d.treasury, nil)
	if err != nil {
		t.Fatal(err)
	}
	wallet, err := d.eth.BalanceAt(ctx, d.payTo, nil)
	if err != nil {
		t.Fatal(err)
	}
	var counts struct {
		Swept int `db:"swept"`
		Void  int `db:"void"`
	}
	if err := d.ledger.DB().Get(&counts, `SELECT count(*) FILTER (WHERE status = 'swept') AS swept,
		count(*) FILTER (WHERE status = 'void') AS void FROM sweeps`); err != nil {
		t.Fatal(err)
	}
	want := new(big.Int).Sub(new(big.Int).Sub(new(big.Int).Sub(paid, refunded), batchPaid), fees)
	switch {
	case uint64(len(txs)) != nonce:
		t.Errorf("the payments wallet sent %d transactions; the ledger knows %d (refunds and sweeps)", nonce, len(txs))
	case treasury.Cmp(new(big.Int).Sub(swept, batchPaid)) != 0:
		t.Errorf("the treasury holds %s wei; the ledger's sweeps sent %s and its batches paid %s", treasury, swept, batchPaid)
	case new(big.Int).Add(treasury, wallet).Cmp(want) != 0:
		t.Errorf("treasury %s + wallet %s wei; paid %s - refunded by hand %s - by batch %s - fees %s = %s",
			treasury, wallet, paid, refunded, batchPaid, fees, want)
	case twice > 0:
		t.Errorf("%d payments refunded by a batch were also paid back by hand", twice)
	case len(unexplained) > 0:
		t.Errorf("%d transfers out of the wallets unexplained: %+v", len(unexplained), unexplained)
	case counts.Swept == 0:
		t.Error("nothing was swept")
	default:
		t.Logf("sweeps: %d reached the treasury (%s wei), %d void; refund batches paid %s wei; treasury + wallet = paid - refunds - fees, to the wei; nothing paid back twice, nothing unexplained",
			counts.Swept, swept, counts.Void, batchPaid)
	}
}
