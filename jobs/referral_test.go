package jobs

import (
	"errors"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"nodeledger/chain"
	"nodeledger/jobs/sale"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// addCode makes a partner code as an admin would.
func addCode(t testing.TB, db *store.Store, r store.ReferralCode) {
	t.Helper()
	entry := store.AuditEntry{Action: store.ActionReferralAdd, Target: r.Code, Outcome: store.AuditOutcome{Code: store.OutcomeReferralCodeSaved}}
	if err := db.Audited(t.Context(), entry, func(tx store.Tx, _ *store.AuditEntry) error {
		_, err := tx.AddReferralCode(t.Context(), r, "test")
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

// putCode changes a partner code as an admin would.
func putCode(t testing.TB, db *store.Store, r store.ReferralCode) {
	t.Helper()
	entry := store.AuditEntry{Action: store.ActionReferralPut, Target: r.Code, Outcome: store.AuditOutcome{Code: store.OutcomeReferralCodeSaved}}
	if err := db.Audited(t.Context(), entry, func(tx store.Tx, _ *store.AuditEntry) error {
		_, _, err := tx.PutReferralCode(t.Context(), r.Code, r, "test")
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

// bind binds dev buyer i to code, as POST /api/referrals/bind does.
func (e *env) bind(i int, code string) {
	e.t.Helper()
	if _, _, err := e.j.Sale().Bind(e.t.Context(), lower(e.buyer(i)), code, store.SignIn{}); err != nil {
		e.t.Fatalf("bind buyer %d to %s: %v", i, code, err)
	}
}

func lower(a common.Address) string { return strings.ToLower(a.Hex()) }

// earned is what each referrer earned of payment hash, by role ("owner", "parent").
func earned(t testing.TB, db *store.Store, hash common.Hash) map[string]string {
	t.Helper()
	var rows []struct {
		Referrer string        `db:"referrer"`
		Role     string        `db:"role"`
		Amount   store.Uint256 `db:"amount"`
	}
	if err := db.DB().Select(&rows, `
		SELECT c.referrer, c.role, c.amount FROM commissions c JOIN payments p ON p.id = c.payment_id
		WHERE p.tx_hash = $1`, strings.ToLower(hash.Hex())); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, r := range rows {
		out[r.Role] = r.Referrer + " " + r.Amount.String()
	}
	return out
}

// discountOf is what payment hash's doc says of its code: "code discountWei", or "none".
func discountOf(t testing.TB, db *store.Store, hash common.Hash) string {
	t.Helper()
	p, err := db.PaymentByTx(t.Context(), strings.ToLower(hash.Hex()))
	if err != nil {
		t.Fatal(err)
	}
	d := p.Doc(false)
	if d.ReferralCode == nil {
		return "none"
	}
	return *d.ReferralCode + " " + d.Discount.String()
}

// TestReferralPurchases: a wallet bound to a code buys at its discount and the code's owner and
// the partner above earn their part of what was paid, to the wei; the full price buys too; a
// wallet's own address is a code while it holds a node; an expired code's discount is a wrong
// amount; terms changed after a payment do not change what it earns; a rejected payment earns
// nothing.
func TestReferralPurchases(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) { c.WalletCodes = sale.WalletCodes{DiscountBps: 200, CommissionBps: 150} })
	owner, parent := lower(e.buyer(4)), lower(e.buyer(5))
	addCode(t, e.db, store.ReferralCode{Code: "Alice5", Owner: owner, DiscountBps: 500, CommissionBps: 300,
		Parent: &parent, ParentBps: ptr(100), Enabled: true})
	// 0.1 ETH less 5 %: 0.095 ETH; the owner earns 3 % of that and the partner above 1 %.
	discounted := new(big.Int).Sub(priceOne, finney(5))

	e.bind(0, "alice5") // any case
	e.bind(1, "ALICE5")
	atDiscount := e.pay(0, e.dc.Payments, discounted)
	atFull := e.pay(1, e.dc.Payments, priceOne)
	unbound := e.pay(2, e.dc.Payments, discounted)
	e.settle()

	if got := reasonOf(t, e.db, atDiscount); got != "minted" {
		t.Fatalf("the discounted price from a bound wallet: %s", got)
	}
	if got, want := discountOf(t, e.db, atDiscount), "Alice5 5000000000000000"; got != want {
		t.Errorf("the discounted payment's code: %q, want %q", got, want)
	}
	want := map[string]string{"owner": owner + " 2850000000000000", "parent": parent + " 950000000000000"}
	if got := earned(t, e.db, atDiscount); len(got) != 2 || got["owner"] != want["owner"] || got["parent"] != want["parent"] {
		t.Errorf("the discounted payment earned %v, want %v", got, want)
	}
	if got := reasonOf(t, e.db, atFull); got != "minted" {
		t.Fatalf("the full price from a bound wallet: %s", got)
	}
	if got, want := discountOf(t, e.db, atFull), "Alice5 0"; got != want {
		t.Errorf("the full-price payment's code: %q, want %q", got, want)
	}
	if got := earned(t, e.db, atFull); got["owner"] != owner+" 3000000000000000" || got["parent"] != parent+" 1000000000000000" {
		t.Errorf("the full-price payment earned %v", got)
	}
	if got := reasonOf(t, e.db, unbound); !strings.HasPrefix(got, `{"code":"wrong_amount"`) {
		t.Errorf("the discounted price from a wallet bound to no code: %s", got)
	}
	if got := earned(t, e.db, unbound); len(got) != 0 || discountOf(t, e.db, unbound) != "none" {
		t.Errorf("a rejected payment earned %v under %s", got, discountOf(t, e.db, unbound))
	}

	stats, err := e.db.ReferralStats(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if s := stats["alice5"]; s.Code != "Alice5" || s.Uses != 2 || s.Volume.ETH.String() != "195000000000000000" ||
		s.Discount.ETH.String() != "5000000000000000" || s.Owed.ETH.String() != "7800000000000000" || s.Paid.ETH.String() != "0" {
		t.Errorf("the code's figures: %+v", s)
	}
	if owed, err := e.db.Commissions(t.Context(), store.CommissionOwed); err != nil || len(owed) != 4 ||
		owed[0].Code != "Alice5" || owed[0].Payment != strings.ToLower(atDiscount.Hex()) || owed[0].Status != store.CommissionOwed {
		t.Errorf("owed: %+v %v", owed, err)
	}

	t.Run("a node holder's address is a code", func(t *testing.T) {
		holder := lower(e.buyer(0)) // holds the node it bought above
		e.bind(2, holder)
		paid := e.pay(2, e.dc.Payments, new(big.Int).Sub(priceOne, finney(2)))
		e.settle()
		if got := reasonOf(t, e.db, paid); got != "minted" {
			t.Fatalf("2 %% off under a wallet code: %s", got)
		}
		if got := earned(t, e.db, paid); len(got) != 1 || got["owner"] != holder+" 1470000000000000" {
			t.Errorf("the wallet code earned %v", got)
		}
		if _, _, err := e.j.Sale().Bind(t.Context(), lower(e.buyer(3)), lower(e.buyer(3)), store.SignIn{}); !errors.Is(err, sale.ErrSelfReferral) {
			t.Errorf("a wallet bound to its own address: %v", err)
		}
		if _, _, err := e.j.Sale().Bind(t.Context(), lower(e.buyer(3)), lower(e.dc.Buyers[5].Address), store.SignIn{}); !errors.Is(err, sale.ErrCodeNotValid) {
			t.Errorf("a wallet that holds no node as a code: %v", err)
		}
		if _, _, err := e.j.Sale().Bind(t.Context(), owner, "Alice5", store.SignIn{}); !errors.Is(err, sale.ErrSelfReferral) {
			t.Errorf("the owner bound to its own code: %v", err)
		}
		if _, _, err := e.j.Sale().Bind(t.Context(), parent, "Alice5", store.SignIn{}); !errors.Is(err, sale.ErrSelfReferral) {
			t.Errorf("the partner above bound to the code it earns from: %v", err)
		}
	})

	t.Run("terms changed after a payment do not change what it earns", func(t *testing.T) {
		if err := e.db.HoldMinting(t.Context(), true); err != nil { // the pass records it and waits
			t.Fatal(err)
		}
		paid := e.pay(1, e.dc.Payments, discounted)
		mustPass(t, e.restart())
		waitPastBlock(t, e.db, paid)
		putCode(t, e.db, store.ReferralCode{Code: "Alice5", Owner: owner, DiscountBps: 1000, CommissionBps: 4000, Enabled: true})
		if err := e.db.HoldMinting(t.Context(), false); err != nil {
			t.Fatal(err)
		}
		e.settle()
		if got := reasonOf(t, e.db, paid); got != "minted" {
			t.Fatalf("a payment at the terms of its block: %s", got)
		}
		if got := earned(t, e.db, paid); got["owner"] != want["owner"] || got["parent"] != want["parent"] {
			t.Errorf("after the change the payment earned %v, want %v", got, want)
		}
	})

	t.Run("an expired code's discount is a wrong amount", func(t *testing.T) {
		putCode(t, e.db, store.ReferralCode{Code: "Alice5", Owner: owner, DiscountBps: 500, CommissionBps: 300,
			ExpiresAt: ptr(time.Now().Add(-time.Second)), Enabled: true})
		waitPastSecond(t)
		paid := e.pay(1, e.dc.Payments, discounted)
		full := e.pay(1, e.dc.Payments, priceOne)
		e.settle()
		if got := reasonOf(t, e.db, paid); !strings.HasPrefix(got, `{"code":"wrong_amount"`) {
			t.Errorf("the discount of an expired code: %s", got)
		}
		if got := reasonOf(t, e.db, full); got != "minted" {
			t.Errorf("the full price under an expired code: %s", got)
		}
		if got := earned(t, e.db, full); len(got) != 0 || discountOf(t, e.db, full) != "none" {
			t.Errorf("a payment under an expired code earned %v under %s", got, discountOf(t, e.db, full))
		}
	})
}

// waitPastBlock waits until the second after payment hash's block has begun, so that a change
// made then is in force after its block's time.
func waitPastBlock(t testing.TB, db *store.Store, hash common.Hash) {
	t.Helper()
	var stamped time.Time
	if err := db.DB().Get(&stamped, `SELECT block_time FROM payments WHERE tx_hash = $1`, strings.ToLower(hash.Hex())); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Until(stamped.Add(time.Second)))
}

// TestTwoInstancesEarnOnce: two instances, each with its own connection to the ledger, run the
// payments pass at the same time over the same payments bought under a code, and both record
// the mints they see mined: each payment earns its referrers once.
func TestTwoInstancesEarnOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	owner, parent := lower(e.buyer(4)), lower(e.buyer(5))
	addCode(t, e.db, store.ReferralCode{Code: "Twice", Owner: owner, DiscountBps: 500, CommissionBps: 300,
		Parent: &parent, ParentBps: ptr(100), Enabled: true})
	var paid []common.Hash
	for i := range 3 {
		e.bind(i, "Twice")
		paid = append(paid, e.pay(i, e.dc.Payments, finney(95)))
	}
	other, err := store.Open(t.Context(), storetest.URL(t, e.db))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	passes := []*Jobs{e.restart(), New(other, e.c, chain.LocalSigner(e.dc.Minter.Key), chain.LocalSigner(e.dc.Distributor.Key), e.cfg, e.j.log)}
	for round := 0; round < 4; round++ {
		var wg sync.WaitGroup
		start := make(chan struct{})
		for _, j := range passes {
			wg.Go(func() {
				<-start
				// Both may sign with the one minter key: a nonce one of them loses is an error
				// here, and the next round sends that mint again.
				_, _ = j.Payments(t.Context())
			})
		}
		close(start)
		wg.Wait()
	}
	e.settle()
	for i, h := range paid {
		if got := reasonOf(t, e.db, h); got != "minted" {
			t.Fatalf("payment %d: %s", i, got)
		}
		if got := earned(t, e.db, h); len(got) != 2 || got["owner"] != owner+" 2850000000000000" || got["parent"] != parent+" 950000000000000" {
			t.Errorf("payment %d earned %v", i, got)
		}
	}
	var rows int
	if err := e.db.DB().Get(&rows, `SELECT count(*) FROM commissions`); err != nil || rows != 6 {
		t.Fatalf("%d commission rows, want 2 a payment (%v)", rows, err)
	}
}

// TestBindAfterPayment: a binding counts for the payments of the blocks after the head it was
// made at, whatever the clock says. Bindings were kept to the second and compared with the
// block's time by <=, so a wallet that paid and then bound a code within the block's second was
// judged under it (issue 48 §8); here the binding's time is set as early as can be, and the
// payment already in a block is still judged without it, while the next one is judged under it.
func TestBindAfterPayment(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	addCode(t, e.db, store.ReferralCode{Code: "Alice5", Owner: lower(e.buyer(4)), DiscountBps: 500, CommissionBps: 300, Enabled: true})
	discounted := new(big.Int).Sub(priceOne, finney(5))
	before := e.pay(0, e.dc.Payments, discounted) // a block holds it before the wallet binds
	e.bind(0, "Alice5")
	if _, err := e.db.DB().Exec(`UPDATE referral_bindings SET bound_at = to_timestamp(0)`); err != nil {
		t.Fatal(err)
	}
	after := e.pay(0, e.dc.Payments, discounted)
	if sum := mustPass(t, e.j); sum.Minted != 1 || sum.Rejected != 1 {
		t.Fatalf("pass %+v: want the payment before the binding rejected, the one after minted", sum)
	}
	if got := discountOf(t, e.db, before); got != "none" {
		t.Fatalf("the payment a block held before the binding was judged under %q", got)
	}
	if got, want := discountOf(t, e.db, after), "Alice5 5000000000000000"; got != want {
		t.Fatalf("the payment after the binding: %q, want %q", got, want)
	}
}
