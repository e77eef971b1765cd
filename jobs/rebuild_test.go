package jobs

import (
	"bytes"
	"errors"
	"log/slog"
	"math/big"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"nodeledger/chain"
	"nodeledger/chain/devchain"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// logDeployment logs the env's deployment, as the service does at its start.
func (e *env) logDeployment() {
	e.t.Helper()
	d := store.Deployment{ChainID: e.dc.ChainID().Int64(), Factory: lower(e.dc.Factory), PaymentsWallet: lower(e.dc.Payments),
		Tokens: e.cfg.PaymentTokens, Confirmations: e.cfg.Confirmations, ScanFrom: e.cfg.ScanFrom}
	d.WalletCodes.DiscountBps, d.WalletCodes.CommissionBps = e.cfg.WalletCodes.DiscountBps, e.cfg.WalletCodes.CommissionBps
	if e.cfg.Treasury != (common.Address{}) {
		treasury := lower(e.cfg.Treasury)
		d.Treasury = &treasury
	}
	if _, err := e.db.LogDeployment(e.t.Context(), d); err != nil {
		e.t.Fatal(err)
	}
}

// eventsOf are the events of blocks 0..to.
func eventsOf(t *testing.T, db *store.Store, to int64) []store.LedgerEvent {
	t.Helper()
	events, err := db.LedgerEvents(t.Context(), 0, to)
	if err != nil {
		t.Fatal(err)
	}
	return events
}

// TestRebuild: the ledger the passes built (payments minted under a code and at full price, one
// of a wrong amount, one refused for its holding and refunded by hand twice, a credit round, a
// withdrawal, a sweep) is rebuilt from the chain and its settings log alone into an empty
// database: every event up to the rebuild's end is the live ledger's, line for line, and so is
// every digest, and so are the nodes' figures. Each change then made to the live ledger's rows (a
// status, an amount, an extra commission, an inserted payment, a refund unmatched or deleted, a
// second payout of a refund passed off as another payment's refund, a credit or a sweep changed, a
// round lost) is the one difference against the rebuild, at its block
// with its row. A rebuild refuses a database that holds a ledger.
func TestRebuild(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) { c.DistPeriod = time.Millisecond }) // every node is due at once
	e.cfg.Treasury = e.dc.Treasury
	e.cfg.Sweep = SweepConfig{Signer: chain.LocalSigner(e.dc.Accounts[devchain.PaymentsIndex].Key), KeepWei: ether}
	e.j = e.restart()
	ctx := t.Context()
	e.logDeployment()
	owner := lower(e.buyer(4))
	addCode(t, e.db, store.ReferralCode{Code: "Alice5", Owner: owner, DiscountBps: 500, CommissionBps: 300, Enabled: true})
	e.bind(0, "alice5")
	coded := e.pay(0, e.dc.Payments, new(big.Int).Sub(priceOne, finney(5)))
	full := e.pay(1, e.dc.Payments, priceOne)
	wrong := e.pay(2, e.dc.Payments, new(big.Int).Add(priceOne, big.NewInt(1)))
	refused := e.pay(3, e.dc.Payments, priceTwo) // no DHT: refused, then refunded by hand
	e.settle()
	e.sendValue(e.dc.Accounts[devchain.PaymentsIndex].Key, e.buyer(3), nil, priceTwo)
	e.sendValue(e.dc.Accounts[devchain.PaymentsIndex].Key, e.buyer(3), nil, priceTwo) // the refund paid twice
	// A round the credit pass sends, a withdrawal of its credit, a sweep of the wallet.
	e.reconcile()
	e.settleCredit()
	e.send(e.dc.Buyers[0].Key, e.dc.Factory, factoryABI.PackWithdraw(big.NewInt(1), e.buyer(5), big.NewInt(300)), 0)
	if sum, err := e.j.Sweep(ctx); err != nil || sum.Sent == nil {
		t.Fatalf("sweep: %+v, %v", sum, err)
	}
	e.sweepUntilSettled(e.j)
	mustPass(t, e.j)
	e.reconcile()
	mustPass(t, e.j)
	cur, err := e.db.Cursor(ctx, store.PaymentsScanner)
	if err != nil {
		t.Fatal(err)
	}
	live := eventsOf(t, e.db, cur.Number)
	kinds := map[string]int{}
	for _, ev := range live {
		kinds[ev.Kind]++
	}
	if kinds["payment"] != 4 || kinds["node"] != 2 || kinds["transfer_out"] != 2 || kinds["withdrawal"] != 1 ||
		kinds["round"] != 1 || kinds["sweep"] != 1 {
		t.Fatalf("the live ledger's events: %v", kinds)
	}

	entries, err := e.db.SettingsLog(ctx, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	into := storetest.New(t)
	sum, err := Rebuild(ctx, into, e.c, entries, nil, uint64(cur.Number), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if sum.Payments != 4 || sum.Minted != 2 || sum.Unsettled != 0 || sum.ToBlock != uint64(cur.Number) {
		t.Errorf("summary %+v", sum)
	}
	rebuilt := eventsOf(t, into, cur.Number)
	if diffs := store.CompareEvents(live, rebuilt); len(diffs) != 0 || len(rebuilt) != len(live) {
		t.Fatalf("%d events rebuilt, %d live; differences: %+v", len(rebuilt), len(live), diffs)
	}

	// The digests, every event in, agree block by block; the nodes' figures are the live ones.
	liveDigests, _ := digestsNow(t, e.db)
	rebuiltDigests, to := digestsNow(t, into)
	if len(liveDigests) == 0 || to < cur.Number || len(rebuiltDigests) != len(liveDigests) {
		t.Fatalf("%d digests rebuilt to block %d, %d live", len(rebuiltDigests), to, len(liveDigests))
	}
	for i, d := range liveDigests {
		if r := rebuiltDigests[i]; r.Block != d.Block || r.BlockHash != d.BlockHash || !bytes.Equal(r.Digest, d.Digest) {
			t.Errorf("block %d: rebuilt digest %x, live %x", d.Block, r.Digest, d.Digest)
		}
	}

	nodes := `SELECT string_agg(concat_ws(' ', id, tier, owner, cumulative_wei, withdrawn_wei, balance_wei, status), ', ' ORDER BY id) FROM nodes`
	var liveNodes, rebuiltNodes string
	if err := e.db.DB().GetContext(ctx, &liveNodes, nodes); err != nil {
		t.Fatal(err)
	}
	if err := into.DB().GetContext(ctx, &rebuiltNodes, nodes); err != nil {
		t.Fatal(err)
	}
	if liveNodes != rebuiltNodes {
		t.Errorf("nodes rebuilt %s, live %s", rebuiltNodes, liveNodes)
	}

	// Every wei in and out of the payments wallet and the treasury is one row, in both ledgers:
	// the payments, the refunds by hand, the sweep and the gas the wallet paid for each.
	for name, ledger := range map[string]*store.Store{"live": e.db, "rebuilt": into} {
		if diffs, err := IdentityOf(ctx, ledger, e.c, entries, 0, cur.Number, slog.New(slog.DiscardHandler)); err != nil || len(diffs) != 0 {
			t.Errorf("the %s ledger's money identity: %+v, %v", name, diffs, err)
		}
	}
	// Each change to the live ledger's rows is found against the rebuild, at its block, with its
	// row.
	key := func(hash common.Hash) string { return hexLower(hash) + "/0/-" }
	block := func(hash common.Hash) int64 {
		var b int64
		if err := e.db.DB().GetContext(ctx, &b, `SELECT block_number FROM payments WHERE tx_hash = $1`, hexLower(hash)); err != nil {
			t.Fatal(err)
		}
		return b
	}
	var refundTx, sweepTx, twiceTx string
	var sweepBlock, roundBlock, twiceBlock int64
	if err := e.db.DB().GetContext(ctx, &refundTx, `SELECT refund_tx_hash FROM payments WHERE tx_hash = $1`, hexLower(refused)); err != nil {
		t.Fatal(err)
	}
	if err := e.db.DB().QueryRowContext(ctx, `SELECT tx_hash, block_number FROM outgoing_transfers WHERE tx_hash <> $1`, refundTx).
		Scan(&twiceTx, &twiceBlock); err != nil {
		t.Fatal(err)
	}
	if err := e.db.DB().QueryRowContext(ctx, `SELECT tx_hash, block_number FROM sweeps`).Scan(&sweepTx, &sweepBlock); err != nil {
		t.Fatal(err)
	}
	if err := e.db.DB().GetContext(ctx, &roundBlock, `SELECT block_number FROM distributions WHERE id = 1`); err != nil {
		t.Fatal(err)
	}
	forged := "0x" + strings.Repeat("ab", 32)
	for _, tamper := range []struct {
		name, do, undo string
		block          int64
		kind, key      string
	}{
		{"a payment's status", `ALTER TABLE payments DISABLE TRIGGER payments_move;
			UPDATE payments SET status = 'rejected', reason_code = 'wrong_amount', reason_args = '{}' WHERE tx_hash = '` + hexLower(full) + `';
			ALTER TABLE payments ENABLE TRIGGER payments_move`,
			`ALTER TABLE payments DISABLE TRIGGER payments_move;
			UPDATE payments SET status = 'minted', reason_code = NULL, reason_args = NULL WHERE tx_hash = '` + hexLower(full) + `';
			ALTER TABLE payments ENABLE TRIGGER payments_move`, block(full), "payment", key(full)},
		{"an amount", `UPDATE payments SET value_wei = value_wei + 1 WHERE tx_hash = '` + hexLower(wrong) + `'`,
			`UPDATE payments SET value_wei = value_wei - 1 WHERE tx_hash = '` + hexLower(wrong) + `'`, block(wrong), "payment", key(wrong)},
		{"an extra commission", `INSERT INTO commissions (payment_id, referrer, role, amount)
			SELECT id, '` + owner + `', 'parent', 1 FROM payments WHERE tx_hash = '` + hexLower(coded) + `'`,
			`DELETE FROM commissions WHERE role = 'parent'`, block(coded), "payment", key(coded)},
		{"an inserted payment", `INSERT INTO payments (tx_hash, payment_ref, from_address, value_wei, block_number, block_hash, status)
			SELECT '` + forged + `', '` + forged + `', from_address, value_wei, block_number, block_hash, 'pending'
			FROM payments WHERE tx_hash = '` + hexLower(wrong) + `'`,
			`DELETE FROM payments WHERE tx_hash = '` + forged + `'`, block(wrong), "payment", forged + "/0/-"},
		{"a refund unmatched", `UPDATE payments SET status = 'rejected', refund_tx_hash = NULL WHERE tx_hash = '` + hexLower(refused) + `'`,
			`UPDATE payments SET status = 'refunded', refund_tx_hash = '` + refundTx + `' WHERE tx_hash = '` + hexLower(refused) + `'`,
			0, "transfer_out", refundTx},
		{"a credit", `UPDATE credits SET amount_wei = amount_wei + 1 WHERE node_id = 2`,
			`UPDATE credits SET amount_wei = amount_wei - 1 WHERE node_id = 2`, roundBlock, "round", "1"},
		{"a round lost", `UPDATE distributions SET status = 'pending' WHERE id = 1`,
			`UPDATE distributions SET status = 'confirmed' WHERE id = 1`, roundBlock, "round", "1"},
		{"a second payout of a refund, passed off as another payment's refund",
			`UPDATE payments SET status = 'refunded', refund_tx_hash = '` + twiceTx + `' WHERE tx_hash = '` + hexLower(wrong) + `'`,
			`UPDATE payments SET status = 'rejected', refund_tx_hash = NULL WHERE tx_hash = '` + hexLower(wrong) + `'`,
			twiceBlock, "transfer_out", twiceTx},
		{"a sweep's amount", `UPDATE sweeps SET amount_wei = amount_wei - 1`, `UPDATE sweeps SET amount_wei = amount_wei + 1`,
			sweepBlock, "sweep", sweepTx},
	} {
		mustExec(t, e.db, tamper.do)
		diffs := store.CompareEvents(eventsOf(t, e.db, cur.Number), rebuilt)
		if len(diffs) != 1 || tamper.block != 0 && diffs[0].Block != tamper.block || diffs[0].Kind != tamper.kind || diffs[0].Key != tamper.key {
			t.Errorf("%s: differences %+v; want one %s %s at block %d", tamper.name, diffs, tamper.kind, tamper.key, tamper.block)
		}
		mustExec(t, e.db, tamper.undo)
		if diffs := store.CompareEvents(eventsOf(t, e.db, cur.Number), rebuilt); len(diffs) != 0 {
			t.Fatalf("%s undone: %+v", tamper.name, diffs)
		}
	}
	// A refund deleted outright: its transfer is missing from the live ledger, and the money
	// identity names its block too.
	var refundBlock int64
	if err := e.db.DB().GetContext(ctx, &refundBlock, `SELECT block_number FROM outgoing_transfers WHERE tx_hash = $1`, refundTx); err != nil {
		t.Fatal(err)
	}
	mustExec(t, e.db, `UPDATE payments SET status = 'rejected', refund_tx_hash = NULL WHERE refund_tx_hash IS NOT NULL`)
	mustExec(t, e.db, `DELETE FROM outgoing_transfers WHERE tx_hash = $1`, refundTx)
	if diffs := store.CompareEvents(eventsOf(t, e.db, cur.Number), rebuilt); len(diffs) != 1 || diffs[0].Key != refundTx || diffs[0].Live != "" || diffs[0].Rebuilt == "" {
		t.Errorf("a refund deleted: %+v", diffs)
	}
	if diffs, err := IdentityOf(ctx, e.db, e.c, entries, 0, cur.Number, slog.New(slog.DiscardHandler)); err != nil || len(diffs) != 1 ||
		diffs[0].Block != refundBlock || diffs[0].Key != "payments_wallet ETH" {
		t.Errorf("a refund deleted, the money identity: %+v, %v; want a payments_wallet ETH difference at block %d", diffs, err, refundBlock)
	}

	// Without the sweep's fee, the wallet's balance moves more at its block than the rows say.
	mustExec(t, into, `DELETE FROM wallet_fees WHERE tx_hash = $1`, sweepTx)
	if diffs, err := IdentityOf(ctx, into, e.c, entries, 0, cur.Number, slog.New(slog.DiscardHandler)); err != nil || len(diffs) != 1 ||
		diffs[0].Block != sweepBlock || diffs[0].Key != "payments_wallet ETH" {
		t.Errorf("the sweep's fee deleted: %+v, %v; want a payments_wallet ETH difference at block %d", diffs, err, sweepBlock)
	}

	if _, err := Rebuild(ctx, into, e.c, entries, nil, uint64(cur.Number), slog.New(slog.DiscardHandler)); !errors.Is(err, store.ErrNotEmpty) {
		t.Fatalf("a rebuild into a ledger: %v", err)
	}
}

// TestContinuousVerifier: the verifier rebuilds the ledger behind the passes into its scratch
// ledger and verifies it block by block as blocks become final, following the settings log as
// it grows; an amount changed by hand in a block it verified already is a mismatch at that block
// (the rows no longer give the block's digest), and a rebuild that disagrees with a block not yet
// verified is a mismatch there with the events that differ; set right, it verifies on.
func TestContinuousVerifier(t *testing.T) {
	t.Parallel()
	scratch := storetest.New(t)
	e := newEnv(t, func(c *Config) { c.VerifyInto = scratch })
	ctx := t.Context()
	e.logDeployment()
	verify := func() VerifySummary {
		t.Helper()
		sum, err := e.j.Verify(ctx)
		if err != nil || !sum.Ran {
			t.Fatalf("verify: %+v, %v", sum, err)
		}
		return sum
	}
	round := func() {
		t.Helper()
		e.settle()
		e.reconcile()
		mustPass(t, e.j)
	}
	first := e.pay(0, e.dc.Payments, priceOne)
	round()
	final, _, err := e.db.DigestFrontier(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if sum := verify(); sum.VerifiedTo != final || sum.MismatchBlock != 0 {
		t.Fatalf("first verify: %+v, the ledger final to %d", sum, final)
	}

	// A code added and bound after the first verify: the verifier replays it before judging.
	addCode(t, e.db, store.ReferralCode{Code: "Alice5", Owner: lower(e.buyer(4)), DiscountBps: 500, CommissionBps: 300, Enabled: true})
	e.bind(1, "alice5")
	e.pay(1, e.dc.Payments, new(big.Int).Sub(priceOne, finney(5)))
	round()
	final, _, _ = e.db.DigestFrontier(ctx)
	if sum := verify(); sum.VerifiedTo != final || sum.MismatchBlock != 0 {
		t.Fatalf("after a coded payment: %+v, the ledger final to %d", sum, final)
	}

	// A verified block's amount changed by hand.
	var block int64
	if err := e.db.DB().GetContext(ctx, &block, `SELECT block_number FROM payments WHERE tx_hash = $1`, hexLower(first)); err != nil {
		t.Fatal(err)
	}
	mustExec(t, e.db, `UPDATE payments SET value_wei = value_wei + 1 WHERE tx_hash = $1`, hexLower(first))
	if sum := verify(); sum.MismatchBlock != block {
		t.Fatalf("an amount changed in verified block %d: %+v", block, sum)
	}
	v, err := e.db.Verification(ctx)
	if err != nil || v.MismatchBlock == nil || *v.MismatchBlock != block {
		t.Fatalf("recorded %+v, %v", v, err)
	}
	mustExec(t, e.db, `UPDATE payments SET value_wei = value_wei - 1 WHERE tx_hash = $1`, hexLower(first))
	if sum := verify(); sum.MismatchBlock != 0 {
		t.Fatalf("set right: %+v", sum)
	}

	// A payment the rebuild judges otherwise, before it is verified: the rebuild has its tier
	// off sale (the scratch's own row, changed by hand).
	mustExec(t, scratch, `UPDATE tier_versions SET on_sale = false WHERE tier = 1`)
	third := e.pay(2, e.dc.Payments, priceOne)
	round()
	if err := e.db.DB().GetContext(ctx, &block, `SELECT block_number FROM payments WHERE tx_hash = $1`, hexLower(third)); err != nil {
		t.Fatal(err)
	}
	sum := verify()
	if sum.MismatchBlock != block || sum.VerifiedTo != block-1 {
		t.Fatalf("a payment judged otherwise at block %d: %+v", block, sum)
	}
	v, _ = e.db.Verification(ctx)
	if len(v.Mismatch) == 0 || v.Mismatch[0].Kind != "payment" || !strings.Contains(v.Mismatch[0].Live, `"verdict": "minted"`) ||
		!strings.Contains(v.Mismatch[0].Rebuilt, `"verdict": "rejected"`) {
		t.Fatalf("the mismatch recorded: %+v", v.Mismatch)
	}
}

// TestContinuousVerifierIdentity: USDC minted straight into the payments wallet is no payment (no
// one paid it) and no ledger row: the continuous verifier's money identity finds it at its block,
// a mismatch of kind balance, though every event agrees with the rebuild.
func TestContinuousVerifierIdentity(t *testing.T) {
	t.Parallel()
	scratch := storetest.New(t)
	e := newEnv(t, func(c *Config) { c.VerifyInto = scratch })
	e.withUSDC()
	e.logDeployment()
	ctx := t.Context()
	e.payToken(0, e.dc.USDC, e.dc.Payments, usdc(300), 0)
	minted := e.transact(e.dc.Owner.Key, e.dc.USDC, tokenABI.PackMint(e.dc.Payments, usdc(5)), nil, 0).BlockNumber.Int64()
	e.settle()
	e.reconcile()
	mustPass(t, e.j)
	sum, err := e.j.Verify(ctx)
	if err != nil || sum.MismatchBlock != minted || sum.VerifiedTo != minted-1 {
		t.Fatalf("verify: %+v, %v; want a mismatch at block %d", sum, err, minted)
	}
	v, err := e.db.Verification(ctx)
	if err != nil || len(v.Mismatch) != 1 || v.Mismatch[0].Kind != "balance" || v.Mismatch[0].Key != "payments_wallet USDC" ||
		v.Mismatch[0].Rebuilt != "the chain's balance moves +5 USDC" {
		t.Fatalf("the mismatch recorded: %+v, %v", v.Mismatch, err)
	}
}

// TestRebuildReusesReads: a payment the service judged late (more than stateKept blocks after
// its own, reading the chain at the head) is rebuilt the same when the rebuild reuses the
// service's reads (what verify does), and differs in its reads, named, when the rebuild reads the
// chain at the payment's block (a rebuild without the source ledger).
func TestRebuildReusesReads(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := t.Context()
	e.logDeployment()
	e.pay(0, e.dc.Payments, priceOne)
	late := e.pay(3, e.dc.Payments, priceTwo) // no DHT: the balance is read
	for range stateKept + 1 {
		e.dc.Commit()
	}
	e.settle()
	e.reconcile()
	mustPass(t, e.j)
	cur, err := e.db.Cursor(ctx, store.PaymentsScanner)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := e.db.SettingsLog(ctx, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	live := eventsOf(t, e.db, cur.Number)
	for _, tc := range []struct {
		name  string
		reads Reads
		diffs int
	}{{"reusing the service's reads", e.db, 0}, {"reading at each payment's block", nil, 2}} {
		into := storetest.New(t)
		if _, err := Rebuild(ctx, into, e.c, entries, tc.reads, uint64(cur.Number), slog.New(slog.DiscardHandler)); err != nil {
			t.Fatal(err)
		}
		diffs := store.CompareEvents(live, eventsOf(t, into, cur.Number))
		if len(diffs) != tc.diffs {
			t.Errorf("%s: %d differences, want %d: %+v", tc.name, len(diffs), tc.diffs, diffs)
		}
		for _, d := range diffs {
			if d.Kind != "payment" || !strings.Contains(d.Rebuilt, `"reads"`) {
				t.Errorf("%s: %+v", tc.name, d)
			}
		}
		if tc.diffs > 0 && !slices.ContainsFunc(diffs, func(d store.EventDiff) bool { return strings.HasPrefix(d.Key, hexLower(late)) }) {
			t.Errorf("%s: the late payment is not among the differences: %+v", tc.name, diffs)
		}
	}
}
