package jobs

import (
	"bytes"
	"encoding/json"
	"math/big"
	"slices"
	"strings"
	"testing"
	"time"

	"nodeledger/chain/devchain"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// digestsNow returns every digest stored and the digests' cursor (-1: none).
func digestsNow(t *testing.T, db *store.Store) ([]store.BlockDigest, int64) {
	t.Helper()
	d, err := db.StoredDigests(t.Context(), 0, 1<<62)
	if err != nil {
		t.Fatal(err)
	}
	cur, err := db.Cursor(t.Context(), store.DigestsCursor)
	if err != nil {
		return d, -1
	}
	return d, cur.Number
}

// reconcile runs a reconciler pass that must succeed.
func (e *env) reconcile() {
	e.t.Helper()
	if _, err := e.j.Reconcile(e.t.Context()); err != nil {
		e.t.Fatal(err)
	}
}

// TestLedgerDigests: the payments pass digests each block that holds ledger events once every
// pass that writes them has read it: a payment minted under a code (with its commissions and
// the chain reads its verdict depended on), one rejected for its holding (with the balance read,
// at the block it was read at), a refund by hand, the mint, a round. Recomputed from the ledger's
// rows and the chain's block hashes alone, every digest is the stored one; a row changed, added or
// deleted afterwards is named at its block (CheckDigests); and a rewind takes back the digests
// above the block it rewinds to.
func TestLedgerDigests(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := t.Context()
	owner := lower(e.buyer(4))
	addCode(t, e.db, store.ReferralCode{Code: "Alice5", Owner: owner, DiscountBps: 500, CommissionBps: 300, Enabled: true})
	e.bind(0, "alice5")
	minted := e.pay(0, e.dc.Payments, new(big.Int).Sub(priceOne, finney(5)))
	noHolding := e.pay(3, e.dc.Payments, priceTwo) // tier 2 needs 100 DHT; buyers 3.. hold none
	unlock := lockReconciler(t, e.db)
	e.settle()
	unlock()
	if d, cur := digestsNow(t, e.db); len(d) != 0 || cur != -1 {
		t.Fatalf("digested before the reconciler read a block: %d digests to %d", len(d), cur)
	}

	// What each verdict read of the chain is kept with it, at the block it was read at.
	reads := func(hash string) []store.ChainRead {
		t.Helper()
		var raw []byte
		if err := e.db.DB().GetContext(ctx, &raw, `SELECT judged_reads FROM payments WHERE tx_hash = $1`, hash); err != nil {
			t.Fatal(err)
		}
		var out []store.ChainRead
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		return out
	}
	paid := reads(hexLower(minted))
	if calls := callsOf(paid); !slices.Equal(calls, []string{"maxPerWallet()", "paused()"}) || string(paid[0].Result) != "5" ||
		string(paid[1].Result) != "false" || paid[0].Contract != lower(e.dc.Factory) {
		t.Errorf("the minted payment's reads: %+v", paid)
	}
	refused := reads(hexLower(noHolding))
	balance := refused[len(refused)-1]
	if balance.Call != "balanceOf("+lower(e.buyer(3))+")" ||
		balance.Contract != lower(e.dc.Token) || string(balance.Result) != `"0"` || balance.Block <= 0 {
		t.Errorf("the refused payment's holding read: %+v", refused)
	}

	// A refund by hand, a round, and the passes again.
	e.sendValue(e.dc.Accounts[devchain.PaymentsIndex].Key, e.buyer(3), nil, priceTwo)
	storetest.Due(t, e.db, time.Now().Add(-time.Minute))
	e.settleCredit()
	e.reconcile()
	sum := mustPass(t, e.j)
	stored, cur := digestsNow(t, e.db)
	if cur <= 0 || sum.DigestedTo != uint64(cur) {
		t.Fatalf("digested to %d, the pass says %d", cur, sum.DigestedTo)
	}
	events, err := e.db.LedgerEvents(ctx, 0, cur)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, ev := range events {
		kinds[ev.Kind]++
	}
	if kinds["payment"] != 2 || kinds["node"] != 1 || kinds["transfer_out"] != 1 || kinds["round"] != 1 {
		t.Fatalf("events by kind %v: %v", kinds, events)
	}
	for _, ev := range events {
		switch ev.Kind {
		case "transfer_out":
			if !strings.Contains(ev.Line, `"refund": "`+hexLower(noHolding)+`/0/-"`) {
				t.Errorf("the refund does not name its payment: %s", ev.Line)
			}
		case "payment":
			if strings.HasPrefix(ev.Key, hexLower(minted)) && (!strings.Contains(ev.Line, `"code": "Alice5"`) ||
				!strings.Contains(ev.Line, `"role": "owner"`) || !strings.Contains(ev.Line, `"verdict": "minted"`)) {
				t.Errorf("the minted payment's event: %s", ev.Line)
			}
			if strings.HasPrefix(ev.Key, hexLower(noHolding)) && (!strings.Contains(ev.Line, `"reason": "holding_too_low"`) ||
				!strings.Contains(ev.Line, `"verdict": "rejected"`)) {
				t.Errorf("the refused payment's event: %s", ev.Line)
			}
		}
	}

	// Recomputed from the rows and the chain's hashes, from the first block.
	var blocks []uint64
	for _, ev := range events {
		if !slices.Contains(blocks, uint64(ev.Block)) {
			blocks = append(blocks, uint64(ev.Block))
		}
	}
	got, err := e.c.BlockHashes(ctx, blocks)
	if err != nil {
		t.Fatal(err)
	}
	hashes := map[int64]string{}
	for b, h := range got {
		hashes[int64(b)] = hexLower(h)
	}
	again := store.Digests(make([]byte, 32), events, hashes)
	if len(again) != len(stored) || len(stored) != len(blocks) {
		t.Fatalf("%d digests recomputed, %d stored, %d blocks hold events", len(again), len(stored), len(blocks))
	}
	for i := range stored {
		if again[i].Block != stored[i].Block || again[i].BlockHash != stored[i].BlockHash || !bytes.Equal(again[i].Digest, stored[i].Digest) {
			t.Fatalf("block %d: recomputed %+v, stored %+v", stored[i].Block, again[i], stored[i])
		}
	}
	if n, m, err := e.db.CheckDigests(ctx, 0, cur); err != nil || m != nil || n != len(stored) {
		t.Fatalf("checked %d blocks, mismatch %+v, %v", n, m, err)
	}

	// Each change to a digested block's rows is found at that block, and only there.
	paymentBlock := func(hash string) int64 {
		var b int64
		if err := e.db.DB().GetContext(ctx, &b, `SELECT block_number FROM payments WHERE tx_hash = $1`, hash); err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, tamper := range []struct {
		name, do, undo string
		block          int64
	}{
		{"an amount", `UPDATE payments SET value_wei = value_wei + 1 WHERE tx_hash = '` + hexLower(minted) + `'`,
			`UPDATE payments SET value_wei = value_wei - 1 WHERE tx_hash = '` + hexLower(minted) + `'`, paymentBlock(hexLower(minted))},
		{"an extra commission", `INSERT INTO commissions (payment_id, referrer, role, amount)
			SELECT id, '` + owner + `', 'parent', 1 FROM payments WHERE tx_hash = '` + hexLower(minted) + `'`,
			`DELETE FROM commissions WHERE role = 'parent'`, paymentBlock(hexLower(minted))},
		{"a reason", `UPDATE payments SET reason_code = 'wrong_amount' WHERE tx_hash = '` + hexLower(noHolding) + `'`,
			`UPDATE payments SET reason_code = 'holding_too_low' WHERE tx_hash = '` + hexLower(noHolding) + `'`, paymentBlock(hexLower(noHolding))},
		{"an inserted payment", `INSERT INTO payments (tx_hash, payment_ref, from_address, value_wei, block_number, block_hash, status)
			SELECT '0x` + strings.Repeat("ab", 32) + `', '0x` + strings.Repeat("ab", 32) + `', from_address, value_wei, block_number, block_hash, 'pending'
			FROM payments WHERE tx_hash = '` + hexLower(minted) + `'`,
			`DELETE FROM payments WHERE tx_hash = '0x` + strings.Repeat("ab", 32) + `'`, paymentBlock(hexLower(minted))},
	} {
		mustExec(t, e.db, tamper.do)
		n, m, err := e.db.CheckDigests(ctx, 0, cur)
		if err != nil || m == nil || m.Block != tamper.block {
			t.Errorf("%s changed: checked %d, mismatch %+v, %v; want block %d", tamper.name, n, m, err, tamper.block)
		}
		mustExec(t, e.db, tamper.undo)
		if _, m, err := e.db.CheckDigests(ctx, 0, cur); err != nil || m != nil {
			t.Fatalf("%s restored: mismatch %+v, %v", tamper.name, m, err)
		}
	}

	// A refund deleted, and the payment it refunded owed again: found at the refund's block, which
	// holds only the gas the wallet paid for it now.
	var refundBlock int64
	if err := e.db.DB().GetContext(ctx, &refundBlock, `SELECT block_number FROM outgoing_transfers`); err != nil {
		t.Fatal(err)
	}
	mustExec(t, e.db, `UPDATE payments SET status = 'rejected', refund_tx_hash = NULL WHERE refund_tx_hash IS NOT NULL`)
	mustExec(t, e.db, `DELETE FROM outgoing_transfers`)
	if _, m, err := e.db.CheckDigests(ctx, 0, cur); err != nil || m == nil || m.Block != refundBlock || len(m.Events) != 1 || m.Events[0].Kind != "fee" {
		t.Errorf("a refund deleted: mismatch %+v, %v; want block %d, now with its fee alone", m, err, refundBlock)
	}

	// A rewind below the last digested block takes back the digests above it.
	first := stored[0]
	if _, err := e.db.RewindScan(ctx, store.PaymentsScanner, first.Block, first.BlockHash); err != nil {
		t.Fatal(err)
	}
	if d, c := digestsNow(t, e.db); len(d) != 1 || c != first.Block {
		t.Fatalf("after a rewind to %d: %d digests, to %d", first.Block, len(d), c)
	}
}

func callsOf(reads []store.ChainRead) []string {
	out := make([]string, len(reads))
	for i, r := range reads {
		out[i] = r.Call
	}
	return out
}
