package jobs

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"math/big"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"nodeledger/chain"
	"nodeledger/chain/bindings"
	"nodeledger/jobs/sale"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

var sanctionsList = bindings.NewSanctionsList()

// screenedBy points the env's passes at oracle as their sanctions oracle.
func (e *env) screenedBy(oracle common.Address) {
	e.c = chain.New(e.dc.RPC(), chain.Config{Factory: e.dc.Factory, SanctionsOracle: oracle})
	e.j = e.restart()
}

// sanction lists (or, with listed false, delists) wallets on the dev oracle, as its owner.
func (e *env) sanction(listed bool, wallets ...common.Address) {
	e.t.Helper()
	data := sanctionsList.PackAddToSanctionsList(wallets)
	if !listed {
		data = sanctionsList.PackRemoveFromSanctionsList(wallets)
	}
	e.send(e.dc.Owner.Key, e.dc.SanctionsOracle, data, 0)
}

// release releases held payment p, as an admin would, to `to`.
func (e *env) release(p store.Payment, to store.ReleaseTo) {
	e.t.Helper()
	err := e.db.Audited(e.t.Context(), store.AuditEntry{Actor: store.Actor{Who: "0xadmin"}, Action: store.ActionPaymentRelease},
		func(tx store.Tx, a *store.AuditEntry) error {
			a.Outcome = store.AuditOutcome{Code: store.OutcomePaymentReleased}
			_, err := tx.ReleasePayment(e.t.Context(), p.ID, store.Release{To: to, Reason: "checked by hand", By: "0xadmin"})
			return err
		})
	if err != nil {
		e.t.Fatal(err)
	}
}

// paymentOf is the one payment of transaction tx.
func (e *env) paymentOf(tx common.Hash) store.PaymentRecord {
	e.t.Helper()
	r, err := e.db.PaymentByTx(e.t.Context(), strings.ToLower(tx.Hex()))
	if err != nil {
		e.t.Fatal(err)
	}
	return r
}

// heldOne is the one held payment of transaction tx, with the code it is held for.
func (e *env) heldOne(tx common.Hash, code store.ReasonCode) store.Payment {
	e.t.Helper()
	for _, p := range payments(e.t, e.db, store.PaymentHeld) {
		if p.TxHash == strings.ToLower(tx.Hex()) {
			if p.Reason == nil || p.Reason.Code != code {
				e.t.Fatalf("payment %s held for %+v, want %s", p.TxHash, p.Reason, code)
			}
			return p
		}
	}
	e.t.Fatalf("payment %s is %s, not held", tx.Hex(), e.paymentOf(tx).Status)
	return store.Payment{}
}

// TestSanctionsScreening: a payer the oracle listed at the payment's block is held, whatever the
// oracle says later; it is neither minted nor owed a refund, and the oracle's answer is kept with
// the verdict. Released by an admin, one payment is minted (the screening waived) and another
// rejected for its hold, then owed its refund. The ledger's events, rebuilt from the chain and
// the settings log, are the live ones, and a block's digest does not change when its held
// payment is released.
func TestSanctionsScreening(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.screenedBy(e.dc.SanctionsOracle)
	e.logDeployment()
	ctx := t.Context()

	e.sanction(true, e.buyer(0), e.buyer(1))
	listedPaid := e.pay(0, e.dc.Payments, priceOne)
	refundPaid := e.pay(1, e.dc.Payments, priceOne)
	e.sanction(false, e.buyer(0)) // delisted after its payment: it stays held
	clearPaid := e.pay(2, e.dc.Payments, priceOne)
	sum := mustPass(t, e.j)
	if sum.Held != 2 || sum.Minted != 1 || sum.Rejected != 0 {
		t.Fatalf("pass: %+v", sum)
	}
	held := e.heldOne(listedPaid, sale.Sanctioned)
	toRefund := e.heldOne(refundPaid, sale.Sanctioned)
	e.checkNodes(e.buyer(0), 0)
	e.checkNodes(e.buyer(2), 1)
	if r := e.paymentOf(clearPaid); r.Status != store.PaymentMinted {
		t.Fatalf("the clear payer's payment is %s", r.Status)
	}
	// The oracle's answer at the payment's block, kept.
	reads, err := e.db.JudgedReads(ctx, []string{held.PaymentRef})
	if err != nil {
		t.Fatal(err)
	}
	oracle, call := strings.ToLower(e.dc.SanctionsOracle.Hex()), "isSanctioned("+lower(e.buyer(0))+")"
	if r := reads[held.PaymentRef]; len(r) != 1 || r[0].Contract != oracle || r[0].Call != call ||
		r[0].Block != held.BlockNumber || string(r[0].Result) != "true" {
		t.Fatalf("the held payment's reads: %+v", r)
	}
	// Owed nothing, and in no refund batch.
	if owed, n, err := e.db.RefundsOwed(ctx, 100); err != nil || n != 0 {
		t.Fatalf("refunds owed: %+v (%d), %v", owed, n, err)
	}
	// Passes again leave it held, the oracle's later answer notwithstanding.
	mustPass(t, e.restart())
	e.heldOne(listedPaid, sale.Sanctioned)
	digested, _ := digestsNow(t, e.db)

	e.release(held, store.ReleaseToMint)
	e.release(toRefund, store.ReleaseToRefund)
	if err := e.db.Audited(ctx, store.AuditEntry{Actor: store.Actor{Who: "0xadmin"}, Action: store.ActionPaymentRelease},
		func(tx store.Tx, a *store.AuditEntry) error {
			a.Outcome = store.AuditOutcome{Code: store.OutcomePaymentReleased}
			_, err := tx.ReleasePayment(ctx, held.ID, store.Release{To: store.ReleaseToRefund, Reason: "again", By: "0xadmin"})
			return err
		}); !errors.Is(err, store.ErrNotHeld) {
		t.Fatalf("a second release: %v", err)
	}
	e.settle()
	e.checkNodes(e.buyer(0), 1)
	e.checkNodes(e.buyer(1), 0)
	refunded := e.paymentOf(refundPaid)
	if refunded.Status != store.PaymentRejected || refunded.Reason == nil || refunded.Reason.Code != sale.Sanctioned {
		t.Fatalf("the payment released to be refunded: %s %+v", refunded.Status, refunded.Reason)
	}
	if s := sale.Sentence(refunded.Reason); s == nil || !strings.Contains(*s, "it is refunded") {
		t.Errorf("its sentence: %v", s)
	}
	if owed, n, err := e.db.RefundsOwed(ctx, 100); err != nil || n != 1 || owed[0].ID != toRefund.ID {
		t.Fatalf("refunds owed after the release: %+v (%d), %v", owed, n, err)
	}

	// The digests written while the payments were held still hold, and a rebuild from the chain
	// and the settings log (whose releases it applies as it judges) has the live events.
	mustPass(t, e.restart())
	after, _ := digestsNow(t, e.db)
	for i, d := range digested {
		if i >= len(after) || after[i].Block != d.Block || !bytes.Equal(after[i].Digest, d.Digest) {
			t.Fatalf("block %d's digest changed with the release", d.Block)
		}
	}
	if _, m, err := e.db.CheckDigests(ctx, 0, after[len(after)-1].Block); err != nil || m != nil {
		t.Fatalf("the digests against the ledger: %+v, %v", m, err)
	}
	live, _ := e.rebuildsAlike()
	var heldEvents int
	for _, ev := range live {
		var body struct {
			Body struct {
				Verdict string `json:"verdict"`
			} `json:"body"`
		}
		if err := json.Unmarshal([]byte(ev.Line), &body); err != nil {
			t.Fatal(err)
		}
		if ev.Kind == "payment" && body.Body.Verdict == "held" {
			heldEvents++
		}
	}
	if heldEvents != 2 {
		t.Errorf("%d payments digested as held, want 2", heldEvents)
	}
}

// rebuildsAlike rebuilds the env's ledger from the chain and its settings log alone into an
// empty database, requires its events to be the live ones, and returns the live events and the
// rebuilt ledger.
func (e *env) rebuildsAlike() ([]store.LedgerEvent, *store.Store) {
	e.t.Helper()
	t, ctx := e.t.(*testing.T), e.t.Context()
	cur, err := e.db.Cursor(ctx, store.PaymentsScanner)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := e.db.SettingsLog(ctx, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	into := storetest.New(t)
	if _, err := Rebuild(ctx, into, e.c, entries, nil, uint64(cur.Number), slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	live, rebuilt := eventsOf(t, e.db, cur.Number), eventsOf(t, into, cur.Number)
	if diffs := store.CompareEvents(live, rebuilt); len(diffs) != 0 || len(rebuilt) != len(live) {
		t.Fatalf("%d events rebuilt, %d live; differences: %+v", len(rebuilt), len(live), diffs)
	}
	return live, into
}

// TestDenylistScreening: a payer on the operator's denylist when it paid is held; one paid
// before its listing, or after its delisting, is not.
func TestDenylistScreening(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := t.Context()
	// Each payment is mined in a block of its own, each stamped later than the one before; a
	// list is made to take effect at the block time of the first payment it judges.
	before := e.pay(0, e.dc.Payments, priceOne)
	during := e.pay(0, e.dc.Payments, priceOne)
	other := e.pay(1, e.dc.Payments, priceOne)
	after := e.pay(1, e.dc.Payments, priceOne)
	e.denylist(e.blockTime(during), e.buyer(0), e.buyer(1))
	e.denylist(e.blockTime(after))
	sum := mustPass(t, e.j)
	if sum.Held != 2 || sum.Minted != 2 {
		t.Fatalf("pass: %+v", sum)
	}
	e.heldOne(during, sale.Denylisted)
	e.heldOne(other, sale.Denylisted)
	for _, tx := range []common.Hash{before, after} {
		if r := e.paymentOf(tx); r.Status != store.PaymentMinted {
			t.Errorf("payment %s: %s", tx.Hex(), r.Status)
		}
	}
	if v, entries, err := e.db.Denylist(ctx); err != nil || v.Rows != 0 || len(entries) != 0 {
		t.Fatalf("the denylist now: %+v %+v, %v", v, entries, err)
	}
}

// blockTime is the time of the block that holds transaction tx.
func (e *env) blockTime(tx common.Hash) time.Time {
	e.t.Helper()
	r, err := e.c.Receipt(e.t.Context(), tx)
	if err != nil || r == nil {
		e.t.Fatalf("receipt of %s: %v", tx.Hex(), err)
	}
	n := r.BlockNumber.Uint64()
	b, err := e.c.Blocks(e.t.Context(), n, n)
	if err != nil {
		e.t.Fatal(err)
	}
	return time.Unix(int64(b[0].Time), 0)
}

// denylist makes wallets the operator's denylist, as an admin does, and makes it take effect at
// instant at (the dev chain's clock runs ahead of the database's after its deploy).
func (e *env) denylist(at time.Time, wallets ...common.Address) {
	e.t.Helper()
	entries := make([]store.WalletReason, len(wallets))
	for i, w := range wallets {
		entries[i] = store.WalletReason{Address: lower(w), Reason: "fraud report"}
	}
	if err := e.db.Audited(e.t.Context(), store.AuditEntry{Actor: store.Actor{Who: "0xadmin"}, Action: store.ActionDenylistPut},
		func(tx store.Tx, a *store.AuditEntry) error {
			a.Outcome = store.AuditOutcome{Code: store.OutcomeDenylistSaved, Args: store.AuditArgs{Wallets: len(entries)}}
			_, err := tx.ReplaceDenylist(e.t.Context(), "0xadmin", entries)
			return err
		}); err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.db.DB().Exec(`UPDATE denylist_versions SET effective_at = $1 WHERE id = (SELECT max(id) FROM denylist_versions)`, at); err != nil {
		e.t.Fatal(err)
	}
}

// TestSanctionsAskedOnce: the oracle is asked of a payer once; its next payments are judged
// from the answer the ledger keeps and from the oracle's logs, which the scan reads with the
// factory's: a listing after the first payment holds the second, with no request to the oracle.
func TestSanctionsAskedOnce(t *testing.T) {
	t.Parallel()
	e, proxy := newEnvBehindProxy(t)
	c, err := chain.Dial(t.Context(), proxy.URL, chain.Config{Factory: e.dc.Factory, SanctionsOracle: e.dc.SanctionsOracle})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	e.c = c
	e.j = e.restart()
	asked := func() int64 { return proxy.Calls("eth_call " + lower(e.dc.SanctionsOracle)) }

	e.pay(0, e.dc.Payments, priceOne)
	e.pay(1, e.dc.Payments, priceOne)
	if sum := mustPass(t, e.j); sum.Minted != 2 {
		t.Fatalf("first pass: %+v", sum)
	}
	if n := asked(); n != 2 {
		t.Fatalf("the oracle was asked %d times of two payers", n)
	}
	e.sanction(true, e.buyer(0))
	listedPaid := e.pay(0, e.dc.Payments, priceOne)
	clearPaid := e.pay(1, e.dc.Payments, priceOne)
	if sum := mustPass(t, e.j); sum.Held != 1 || sum.Minted != 1 {
		t.Fatalf("second pass: %+v", sum)
	}
	if n := asked(); n != 2 {
		t.Fatalf("the oracle was asked %d times in all: its payers' second payments asked it again", n)
	}
	held := e.heldOne(listedPaid, sale.Sanctioned)
	if r := e.paymentOf(clearPaid); r.Status != store.PaymentMinted {
		t.Fatalf("the clear payer's second payment is %s", r.Status)
	}
	// The verdict keeps the oracle's answer at its payment's block, as if it had been asked.
	reads, err := e.db.JudgedReads(t.Context(), []string{held.PaymentRef})
	if err != nil {
		t.Fatal(err)
	}
	if r := reads[held.PaymentRef]; len(r) != 1 || r[0].Call != "isSanctioned("+lower(e.buyer(0))+")" ||
		r[0].Block != held.BlockNumber || string(r[0].Result) != "true" {
		t.Fatalf("the held payment's reads: %+v", r)
	}
}

// TestUnreadableOracle: an oracle that cannot be read (no contract at its address) holds
// payments back, unjudged, with the pass failing for that reason; once it answers, they are
// judged.
func TestUnreadableOracle(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := t.Context()
	e.screenedBy(common.HexToAddress("0x40C57923924B5c5c5455c48D93317139ADDaC8fb")) // nothing there on the dev chain
	paid := e.pay(0, e.dc.Payments, priceOne)
	_, err := e.j.Payments(ctx)
	if !errors.Is(err, sale.ErrSanctionsUnreadable) {
		t.Fatalf("the pass: %v", err)
	}
	if pe := passError(err); pe.Code != store.PassSanctionsUnreadable {
		t.Fatalf("recorded as %s", pe.Code)
	}
	if r := e.paymentOf(paid); r.Status != store.PaymentPending {
		t.Fatalf("the payment is %s while the oracle cannot be read", r.Status)
	}
	e.screenedBy(e.dc.SanctionsOracle)
	e.settle()
	if r := e.paymentOf(paid); r.Status != store.PaymentMinted {
		t.Fatalf("the payment is %s once the oracle answers", r.Status)
	}
}

// kycTier requires a verified identity on tier One.
func (e *env) kycTier() {
	e.t.Helper()
	if _, err := e.db.DB().Exec(`UPDATE tiers SET kyc_required = true WHERE id = 1`); err != nil {
		e.t.Fatal(err)
	}
}

// kyc records wallet's identity check as its provider would.
func (e *env) kyc(wallet common.Address, status store.KYCStatus) {
	e.t.Helper()
	if _, err := e.db.AddKYCEvent(e.t.Context(), store.KYCEvent{Address: lower(wallet), Status: status, Provider: store.KYCAdmin}); err != nil {
		e.t.Fatal(err)
	}
}

// TestKYCHolds: on a tier that requires a verified identity, a wallet verified before it paid is
// minted; one not verified is held with its node kept for it (counted as sold: the tier's last
// unit is not sold to another meanwhile), then minted once verified, or refunded when its check
// is rejected or its hold ends (the clock moved past it). Rebuilt from the chain and the settings
// log, the ledger's events are the live ones.
func TestKYCHolds(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.logDeployment()
	ctx := t.Context()
	e.kycTier()
	if _, err := e.db.DB().Exec(`UPDATE tiers SET supply = 4 WHERE id = 1`); err != nil {
		t.Fatal(err)
	}
	e.kyc(e.buyer(1), store.KYCVerified)
	waitPastSecond(t)
	unverified := e.pay(0, e.dc.Payments, priceOne)
	verified := e.pay(1, e.dc.Payments, priceOne)
	rejected := e.pay(2, e.dc.Payments, priceOne)
	expires := e.pay(3, e.dc.Payments, priceOne)
	late := e.pay(4, e.dc.Payments, priceOne) // the fifth of four: sold out, the held ones keeping theirs
	sum := mustPass(t, e.j)
	if sum.Held != 3 || sum.Minted != 1 || sum.Rejected != 1 {
		t.Fatalf("pass: %+v", sum)
	}
	held := e.heldOne(unverified, sale.KYCRequired)
	if held.Tier == nil || *held.Tier != 1 {
		t.Fatalf("the held payment keeps no tier: %+v", held)
	}
	if r := e.paymentOf(verified); r.Status != store.PaymentMinted {
		t.Fatalf("the wallet verified before it paid: %s", r.Status)
	}
	if r := e.paymentOf(late); r.Status != store.PaymentRejected || r.Reason.Code != sale.SoldOut {
		t.Fatalf("the fifth payment: %s %+v", r.Status, r.Reason)
	}
	if sold, err := e.db.Sold(ctx, 1); err != nil || sold != 4 {
		t.Fatalf("sold %d (%v), want the minted one and the three held", sold, err)
	}
	var until string
	if err := e.db.DB().Get(&until, `SELECT reason_args->>'until' FROM payments WHERE id = $1`, held.ID); err != nil || until == "" {
		t.Fatalf("the hold's end: %q %v", until, err)
	}

	// Verified after paying; rejected; and a hold whose end is moved into the past.
	e.kyc(e.buyer(0), store.KYCVerified)
	e.kyc(e.buyer(2), store.KYCRejected)
	expiring := e.heldOne(expires, sale.KYCRequired)
	if _, err := e.db.DB().Exec(`UPDATE payments SET reason_args = jsonb_set(reason_args, '{until}', '"2020-01-01T00:00:00Z"') WHERE id = $1`,
		expiring.ID); err != nil {
		t.Fatal(err)
	}
	e.settle()
	if r := e.paymentOf(unverified); r.Status != store.PaymentMinted {
		t.Fatalf("verified after paying, the payment is %s", r.Status)
	}
	for _, tx := range []common.Hash{rejected, expires} {
		r := e.paymentOf(tx)
		if r.Status != store.PaymentRejected || r.Reason == nil || r.Reason.Code != sale.KYCRequired {
			t.Fatalf("payment %s: %s %+v", tx.Hex(), r.Status, r.Reason)
		}
		if s := sale.Sentence(r.Reason); s == nil || !strings.Contains(*s, "it is refunded") {
			t.Errorf("its sentence: %v", s)
		}
	}
	if _, n, err := e.db.RefundsOwed(ctx, 100); err != nil || n != 3 {
		t.Fatalf("refunds owed %d (%v): the rejected, the expired and the sold out", n, err)
	}
	if sold, err := e.db.Sold(ctx, 1); err != nil || sold != 2 {
		t.Fatalf("sold %d (%v) once the holds are settled", sold, err)
	}

	_, into := e.rebuildsAlike()
	// The rebuild made no decision of its own: its settings log is the live one.
	var liveLog, rebuiltLog int
	if err := e.db.DB().Get(&liveLog, `SELECT count(*) FROM settings_log`); err != nil {
		t.Fatal(err)
	}
	if err := into.DB().Get(&rebuiltLog, `SELECT count(*) FROM settings_log`); err != nil || rebuiltLog != liveLog {
		t.Fatalf("the rebuilt settings log has %d entries, the live one %d (%v)", rebuiltLog, liveLog, err)
	}
}

// TestSanctionedReferrerEarnsNothing: a payment under a code whose owner the oracle lists at the
// payment's block mints, with the buyer's discount, and earns that owner nothing; the partner
// above, not listed, earns its share; the oracle's answers are kept with the verdict.
func TestSanctionedReferrerEarnsNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.screenedBy(e.dc.SanctionsOracle)
	owner, parent := lower(e.buyer(4)), lower(e.buyer(5))
	addCode(t, e.db, store.ReferralCode{Code: "Listed5", Owner: owner, DiscountBps: 500, CommissionBps: 300, Parent: &parent,
		ParentBps: new(100), Enabled: true})
	e.bind(0, "listed5")
	e.sanction(true, e.buyer(4))
	paid := e.pay(0, e.dc.Payments, new(big.Int).Sub(priceOne, finney(5)))
	if sum := mustPass(t, e.j); sum.Minted != 1 {
		t.Fatalf("pass: %+v", sum)
	}
	got := earned(t, e.db, paid)
	if _, ok := got["owner"]; ok || got["parent"] == "" {
		t.Fatalf("earned: %v, want the partner's share alone", got)
	}
	reads, err := e.db.JudgedReads(t.Context(), []string{e.paymentOf(paid).TxHash})
	if err != nil {
		t.Fatal(err)
	}
	var calls []string
	for _, r := range reads[e.paymentOf(paid).TxHash] {
		calls = append(calls, r.Call+"="+string(r.Result))
	}
	if !slices.Contains(calls, "isSanctioned("+owner+")=true") || !slices.Contains(calls, "isSanctioned("+parent+")=false") {
		t.Fatalf("the reads kept: %v", calls)
	}
}

// TestReorgForgetsAHeldPayment: a payment held for its identity check (its unit kept, under a
// code) in a block a reorg replaced is forgotten with its unit, and read again from the chain's
// block: held again, once, and what the tier sold is counted right (storetest.CheckSold).
func TestReorgForgetsAHeldPayment(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.kycTier()
	addCode(t, e.db, store.ReferralCode{Code: "Held5", Owner: lower(e.buyer(4)), DiscountBps: 500, CommissionBps: 300, Enabled: true})
	e.bind(0, "held5")
	e.pay(0, e.dc.Payments, new(big.Int).Sub(priceOne, finney(5)))
	if sum := mustPass(t, e.j); sum.Held != 1 {
		t.Fatalf("pass: %+v", sum)
	}
	held := payments(t, e.db, store.PaymentHeld)[0]
	fake := "0x" + strings.Repeat("ab", 32)
	mustExec(t, e.db, `UPDATE scanned_blocks SET hash = $1 WHERE scanner = 'payments' AND number >= $2`, fake, held.BlockNumber)
	mustExec(t, e.db, `UPDATE chain_cursors SET block_hash = $1 WHERE name = 'payments'`, fake)
	mustExec(t, e.db, `UPDATE payments SET block_hash = $1`, fake)
	if sum := mustPass(t, e.j); sum.Rewound == 0 || sum.Held != 1 {
		t.Fatalf("after the reorg: %+v", sum)
	}
	again := payments(t, e.db, store.PaymentHeld)
	if len(again) != 1 || again[0].ID == held.ID || again[0].BlockHash == fake {
		t.Fatalf("held after the rewind: %+v", again)
	}
	if sold, err := e.db.Sold(t.Context(), 1); err != nil || sold != 1 {
		t.Fatalf("sold %d (%v): the forgotten hold's unit is given back, the new one kept", sold, err)
	}
}
