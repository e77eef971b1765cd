package jobs

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"nodeledger/chain"
	"nodeledger/chain/devchain"
	"nodeledger/jobs/sale"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// finney is a thousandth of an ether: the sale tests' tiers are priced in it, apart from the
// test tiers' 0.1, 0.5 and 1 ETH.
func finney(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1e15)) }

// saleTier is a tier of the sale tests: on sale, 5 per wallet, no holding, priced in finney;
// set adjusts it before it is stored.
func (e *env) saleTier(id int, price int64, set func(*store.Tier)) store.Tier {
	e.t.Helper()
	t := store.Tier{ID: id, Label: fmt.Sprint("T", id), PriceWei: ledger(finney(price)), MaxPerWallet: 5,
		HoldingWei: ledger(new(big.Int)), Enabled: true}
	if set != nil {
		set(&t)
	}
	if err := e.db.PutTier(e.t.Context(), t); err != nil {
		e.t.Fatal(err)
	}
	return t
}

func ptr[T any](v T) *T { return &v }

// reasonOf is the reason payment hash was rejected with, as JSON; "" when it was not rejected.
func reasonOf(t testing.TB, db *store.Store, hash common.Hash) string {
	t.Helper()
	p, err := db.PaymentByTx(t.Context(), strings.ToLower(hash.Hex()))
	if err != nil {
		t.Fatal(err)
	}
	if p.Reason == nil {
		return string(p.Status)
	}
	b, err := json.Marshal(sale.Read(p.Reason))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// nodesOfTier counts the ledger's nodes of tier.
func nodesOfTier(t testing.TB, db *store.Store, tier int) int {
	t.Helper()
	var n int
	if err := db.DB().Get(&n, `SELECT count(*) FROM nodes WHERE tier = $1`, tier); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestSaleRules: each rule of the sale, and the reason a payment that breaks it is rejected with.
func TestSaleRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	now := time.Now().UTC().Truncate(time.Second)
	hour := time.Hour
	e.saleTier(10, 210, func(t *store.Tier) { t.Supply = ptr(0) })
	e.saleTier(11, 220, func(t *store.Tier) { t.StartsAt = ptr(now.Add(hour)) })
	e.saleTier(12, 230, func(t *store.Tier) { t.EndsAt = ptr(now.Add(-hour)) })
	e.saleTier(14, 250, func(t *store.Tier) { t.Supply = ptr(5) })
	e.saleTier(13, 240, func(t *store.Tier) { t.OpensAfterTier = ptr(14) })
	e.saleTier(15, 260, func(t *store.Tier) { t.AllowlistUntil = ptr(now.Add(hour)) })
	err := e.db.Audited(t.Context(), store.AuditEntry{Action: store.ActionAllowlistPut, Outcome: store.AuditOutcome{Code: store.OutcomeAllowlistSaved}}, func(tx store.Tx, _ *store.AuditEntry) error {
		_, err := tx.ReplaceAllowlist(t.Context(), 15, []store.AllowlistEntry{{Address: strings.ToLower(e.buyer(0).Hex()), Allocation: 1}})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	soldOut := e.pay(0, e.dc.Payments, finney(210))
	notYet := e.pay(0, e.dc.Payments, finney(220))
	ended := e.pay(0, e.dc.Payments, finney(230))
	off := e.pay(0, e.dc.Payments, priceOff)
	waiting := e.pay(0, e.dc.Payments, finney(240))
	listed := e.pay(0, e.dc.Payments, finney(260))
	overAllocation := e.pay(0, e.dc.Payments, finney(260))
	unlisted := e.pay(1, e.dc.Payments, finney(260))
	base := e.pay(1, e.dc.Payments, finney(250))

	e.settle()
	tier := func(id int, label string) string { return fmt.Sprintf(`"tier":%d,"tierLabel":"%s"`, id, label) }
	iso := func(t time.Time) string { return t.Format(time.RFC3339) }
	for _, tc := range []struct {
		name string
		hash common.Hash
		want string
	}{
		{"sold out", soldOut, `{"code":"sold_out","args":{` + tier(10, "T10") + `}}`}, // supply and sold 0: left out
		{"before its start", notYet, `{"code":"not_open","args":{` + tier(11, "T11") + `,"startsAt":"` + iso(now.Add(hour)) + `"}}`},
		{"after its end", ended, `{"code":"closed","args":{` + tier(12, "T12") + `,"endsAt":"` + iso(now.Add(-hour)) + `"}}`},
		{"switched off", off, `{"code":"closed","args":{` + tier(3, "Off") + `}}`},
		{"waiting for the tier before", waiting, `{"code":"not_open","args":{` + tier(13, "T13") + `,"afterTier":14,"afterTierLabel":"T14"}}`},
		{"listed", listed, "minted"},
		{"allocation used", overAllocation, `{"code":"allocation_used","args":{` + tier(15, "T15") + `,"allowlistUntil":"` + iso(now.Add(hour)) + `","allocation":1}}`},
		{"not listed", unlisted, `{"code":"not_allowlisted","args":{` + tier(15, "T15") + `,"allowlistUntil":"` + iso(now.Add(hour)) + `"}}`},
		{"a tier with a supply", base, "minted"},
	} {
		if got := reasonOf(t, e.db, tc.hash); got != tc.want {
			t.Errorf("%s: %s\nwant %s", tc.name, got, tc.want)
		}
	}
	if nodesOfTier(t, e.db, 15) != 1 || nodesOfTier(t, e.db, 14) != 1 {
		t.Errorf("nodes of tier 15: %d, of tier 14: %d; want 1 each", nodesOfTier(t, e.db, 15), nodesOfTier(t, e.db, 14))
	}

	t.Run("after the allowlist phase, maxPerWallet", func(t *testing.T) {
		// The phase ends (history moved back): buyer 1, never listed, buys; buyer 0 up to 5 in all.
		if _, err := e.db.DB().Exec(`UPDATE tiers SET allowlist_until = now() - interval '1 hour' WHERE id = 15`); err != nil {
			t.Fatal(err)
		}
		waitPastSecond(t)
		public := e.pay(1, e.dc.Payments, finney(260))
		e.settle()
		if got := reasonOf(t, e.db, public); got != "minted" {
			t.Fatalf("after the phase: %s", got)
		}
	})
}

// waitPastSecond waits for the wall clock's next second: a change made before it is in force for
// a block stamped after it.
func waitPastSecond(t testing.TB) {
	time.Sleep(time.Until(time.Now().Truncate(time.Second).Add(time.Second)))
}

// TestPaymentBeforeStartsAt: a payment in the block before a tier's start is not_open; one in
// the block stamped at its start buys it.
func TestPaymentBeforeStartsAt(t *testing.T) {
	t.Parallel()
	m := manualChain{newEnvOn(t, devchain.Options{ManualMining: true}, func(c *Config) { c.ReceiptTimeout = 300 * time.Millisecond })}
	_, headTime := m.headTime()
	starts := maxTime(headTime, time.Now()).Add(30 * time.Second).Truncate(time.Second)
	m.saleTier(10, 210, func(t *store.Tier) { t.StartsAt = &starts })

	before := m.transfer(0, m.dc.Payments, finney(210), 0, 1)
	m.commit(1)
	if _, at := m.headTime(); !at.Before(starts) {
		t.Fatalf("the first payment's block is stamped %v, not before the start %v", at, starts)
	}
	for _, at := m.headTime(); at.Before(starts.Add(-time.Second)); _, at = m.headTime() {
		m.dc.Commit()
	}
	at := m.transfer(1, m.dc.Payments, finney(210), 0, 1)
	m.commit(1)
	if _, stamp := m.headTime(); stamp.Before(starts) {
		t.Fatalf("the second payment's block is stamped %v, before the start %v", stamp, starts)
	}
	if sum := mustPass(t, m.j); sum.Rejected != 1 || sum.Minting != 1 {
		t.Fatalf("pass %+v", sum)
	}
	m.commit(1) // the mint
	mustPass(t, m.j)
	if got := reasonOf(t, m.db, before); !strings.HasPrefix(got, `{"code":"not_open"`) {
		t.Errorf("the block before the start: %s", got)
	}
	if got := reasonOf(t, m.db, at); got != "minted" {
		t.Errorf("the block at the start: %s", got)
	}
}

// headTime is the head block's number and time.
func (m manualChain) headTime() (uint64, time.Time) {
	m.t.Helper()
	n, _ := m.head()
	b, err := m.c.Blocks(m.t.Context(), n, n)
	if err != nil {
		m.t.Fatal(err)
	}
	return n, time.Unix(int64(b[0].Time), 0).UTC()
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// TestPriceChangeWithAPageOpen: the operator raises a tier's price while a buyer's page shows the
// old one. The old price, paid within the grace after the change, buys the tier at what was paid;
// paid after the grace it is a wrong amount.
func TestPriceChangeWithAPageOpen(t *testing.T) {
	t.Parallel()
	const grace = time.Minute
	m := manualChain{newEnvOn(t, devchain.Options{ManualMining: true}, func(c *Config) {
		c.ReceiptTimeout = 300 * time.Millisecond
		c.PriceGrace = grace
	})}
	tier := m.saleTier(10, 110, nil)
	waitPastSecond(t) // the page is opened: the old price has been in force a while
	tier.PriceWei = ledger(finney(130))
	if err := m.db.PutTier(t.Context(), tier); err != nil {
		t.Fatal(err)
	}
	var changed time.Time
	if err := m.db.DB().Get(&changed, `SELECT max(effective_at) FROM tier_versions WHERE tier = 10`); err != nil {
		t.Fatal(err)
	}

	within := m.transfer(0, m.dc.Payments, finney(110), 0, 1)
	m.commit(1)
	if _, at := m.headTime(); at.Before(changed) || at.After(changed.Add(grace)) {
		t.Fatalf("the payment within the grace is stamped %v, not within %v after the change at %v", at, grace, changed)
	}
	for _, at := m.headTime(); !at.After(changed.Add(grace)); _, at = m.headTime() {
		m.dc.Commit()
	}
	after := m.transfer(1, m.dc.Payments, finney(110), 0, 1)
	newPrice := m.transfer(2, m.dc.Payments, finney(130), 0, 1)
	m.commit(2)
	if sum := mustPass(t, m.j); sum.Rejected != 1 || sum.Minting != 2 {
		t.Fatalf("pass %+v", sum)
	}
	m.commit(1) // the mints, in one transaction
	mustPass(t, m.j)
	if got := reasonOf(t, m.db, within); got != "minted" {
		t.Errorf("the old price within the grace: %s", got)
	}
	if got := reasonOf(t, m.db, after); !strings.HasPrefix(got, `{"code":"wrong_amount"`) || !strings.Contains(got, `"priceWei":"130000000000000000"`) {
		t.Errorf("the old price after the grace: %s", got)
	}
	if got := reasonOf(t, m.db, newPrice); got != "minted" {
		t.Errorf("the new price: %s", got)
	}
	nodes := m.checkNodes(m.buyer(0), 1)
	if nodes[0].Tier != 10 || nodes[0].PriceWei.Cmp(finney(110)) != 0 {
		t.Errorf("the node bought at the old price: %+v, want tier 10 at what was paid", nodes[0])
	}
}

// TestTierTakenOffSaleAfterThePayment: a payment is judged by the rules in force at its block's
// time, not when a pass gets to it.
func TestTierTakenOffSaleAfterThePayment(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if err := e.db.HoldMinting(t.Context(), true); err != nil { // a pass records it and waits
		t.Fatal(err)
	}
	paid := e.pay(0, e.dc.Payments, priceOne)
	if sum := mustPass(t, e.j); sum.Seen != 1 {
		t.Fatalf("pass %+v", sum)
	}
	p, err := e.db.PaymentByTx(t.Context(), strings.ToLower(paid.Hex()))
	if err != nil {
		t.Fatal(err)
	}
	var stamped time.Time
	if err := e.db.DB().Get(&stamped, `SELECT block_time FROM payments WHERE tx_hash = $1`, p.TxHash); err != nil {
		t.Fatal(err)
	}
	// The dev chain may run ahead of the clock: the change is made after the block's second.
	time.Sleep(time.Until(stamped.Add(time.Second)))
	if err := e.db.SetOnSale(t.Context(), 1, false); err != nil {
		t.Fatal(err)
	}
	if err := e.db.HoldMinting(t.Context(), false); err != nil {
		t.Fatal(err)
	}
	e.settle()
	if got := reasonOf(t, e.db, paid); got != "minted" {
		t.Fatalf("a payment made while the tier was on sale: %s", got)
	}
	t.Run("a payment after the change is closed", func(t *testing.T) {
		late := e.pay(1, e.dc.Payments, priceOne)
		e.settle()
		if got := reasonOf(t, e.db, late); got != `{"code":"closed","args":{"tier":1,"tierLabel":"One"}}` {
			t.Fatalf("a payment after the tier went off sale: %s", got)
		}
	})
}

// TestLastUnitsRacedByTwoPasses: two passes, each with its own connection, check the same
// payments at once for a tier's last units (the advisory lock that keeps passes apart is not
// what keeps the supply). Exactly the supply is minted, to the earliest payments; the rest are
// sold_out.
func TestLastUnitsRacedByTwoPasses(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const supply, payers = 2, 5
	e.saleTier(10, 210, func(t *store.Tier) { t.Supply = ptr(supply) })
	if err := e.db.HoldMinting(t.Context(), true); err != nil {
		t.Fatal(err)
	}
	var paid []common.Hash
	for i := range payers {
		paid = append(paid, e.pay(i, e.dc.Payments, finney(210)))
	}
	if sum := mustPass(t, e.j); sum.Seen != payers {
		t.Fatalf("pass %+v", sum)
	}
	other, err := store.Open(t.Context(), storetest.URL(t, e.db))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	passes := []*Jobs{e.restart(), New(other, e.c, chain.LocalSigner(e.dc.Minter.Key), chain.LocalSigner(e.dc.Distributor.Key), e.cfg, e.j.log)}
	var wg sync.WaitGroup
	start := make(chan struct{})
	for _, j := range passes {
		wg.Go(func() {
			<-start
			// Both claim, then sign with the one minter key: a nonce one of them loses is an error
			// here, and its mint is signed anew by the passes that settle below.
			if err := j.checkPayments(t.Context(), &PaymentsSummary{}, 0, -1); err == nil {
				_ = j.signClaimed(t.Context(), &mintRound{})
			}
		})
	}
	close(start)
	wg.Wait()
	if err := e.db.HoldMinting(t.Context(), false); err != nil {
		t.Fatal(err)
	}
	e.settle()
	if n := nodesOfTier(t, e.db, 10); n != supply {
		t.Fatalf("%d nodes of tier 10, want its supply %d", n, supply)
	}
	for i, h := range paid {
		got := reasonOf(t, e.db, h)
		if want := "minted"; i < supply && got != want || i >= supply && !strings.HasPrefix(got, `{"code":"sold_out"`) {
			t.Errorf("payment %d: %s", i, got)
		}
	}
}

// TestLastUnitsInOneBlock: many payments in one block for a tier's last units: the earliest by
// their place in the block get them.
func TestLastUnitsInOneBlock(t *testing.T) {
	t.Parallel()
	m := manualChain{newEnvOn(t, devchain.Options{ManualMining: true}, func(c *Config) { c.ReceiptTimeout = 300 * time.Millisecond })}
	const supply, payers = 2, 5
	m.saleTier(10, 210, func(t *store.Tier) { t.Supply = ptr(supply) })
	var paid []common.Hash
	for i := range payers { // a higher tip comes first in the block: the last sent is mined first
		paid = append(paid, m.transfer(i, m.dc.Payments, finney(210), 0, int64(1+i)))
	}
	m.commit(payers)
	if sum := mustPass(t, m.j); sum.Minting != supply || sum.Rejected != payers-supply {
		t.Fatalf("pass %+v", sum)
	}
	m.commit(1) // the mints, in one transaction
	mustPass(t, m.j)
	for i, h := range paid {
		var index int
		if err := m.db.DB().Get(&index, `SELECT tx_index FROM payments WHERE tx_hash = $1`, strings.ToLower(h.Hex())); err != nil {
			t.Fatal(err)
		}
		got := reasonOf(t, m.db, h)
		if index < supply && got != "minted" || index >= supply && got != `{"code":"sold_out","args":{"tier":10,"tierLabel":"T10","supply":2,"sold":2}}` {
			t.Errorf("payment %d, at index %d of its block: %s", i, index, got)
		}
	}
}

// TestPriceStepOpensInTheSamePass: a tier that opens once another sells out takes the payments
// after the last unit of the one before, in the same pass; at the same price, the step takes
// over, and once both are sold out the rest are sold_out.
func TestPriceStepOpensInTheSamePass(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.saleTier(10, 210, func(t *store.Tier) { t.Supply = ptr(1) })
	e.saleTier(11, 210, func(t *store.Tier) { t.Supply = ptr(2); t.OpensAfterTier = ptr(10) })
	e.saleTier(12, 300, func(t *store.Tier) { t.OpensAfterTier = ptr(11) })
	early := e.pay(4, e.dc.Payments, finney(300)) // the next step, before the one before sold out
	var paid []common.Hash
	for i := range 4 {
		paid = append(paid, e.pay(i, e.dc.Payments, finney(210)))
	}
	late := e.pay(5, e.dc.Payments, finney(300))
	if sum := mustPass(t, e.j); sum.Rejected != 2 {
		t.Fatalf("pass %+v", sum)
	}
	e.settle()
	if nodesOfTier(t, e.db, 10) != 1 || nodesOfTier(t, e.db, 11) != 2 || nodesOfTier(t, e.db, 12) != 1 {
		t.Fatalf("nodes by tier: %d, %d, %d; want 1, 2, 1", nodesOfTier(t, e.db, 10), nodesOfTier(t, e.db, 11), nodesOfTier(t, e.db, 12))
	}
	for i, want := range []int{10, 11, 11} {
		if n := e.checkNodes(e.buyer(i), 1); n[0].Tier != want {
			t.Errorf("payment %d bought tier %d, want %d", i, n[0].Tier, want)
		}
	}
	if got := reasonOf(t, e.db, paid[3]); got != `{"code":"sold_out","args":{"tier":10,"tierLabel":"T10","supply":1,"sold":1}}` {
		t.Errorf("after both steps sold out: %s", got)
	}
	if got := reasonOf(t, e.db, early); got != `{"code":"not_open","args":{"tier":12,"tierLabel":"T12","afterTier":11,"afterTierLabel":"T11"}}` {
		t.Errorf("the next step too early: %s", got)
	}
	if got := reasonOf(t, e.db, late); got != "minted" {
		t.Errorf("the next step once open: %s", got)
	}
}

// TestJudgementsShareTheFactorysState: the judgements at one block read the factory's pause and
// allowance once between them, a judgement that stops before them reads neither, and a rebuild's
// that recalls the service's reads asks the chain nothing.
func TestJudgementsShareTheFactorysState(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	head, err := e.c.HeadNumber(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	buyer := strings.ToLower(e.dc.Buyers[0].Address.Hex())
	judge := func(cs sale.ChainState, wei *big.Int) (sale.Verdict, int64) {
		ctx, calls := chain.CountCalls(t.Context())
		v, err := e.j.sale.JudgeWith(ctx, cs, buyer, store.Money{Amount: wei}, time.Now(), int64(head))
		if err != nil {
			t.Fatal(err)
		}
		return v, calls.N()
	}
	at := e.j.sale.ChainAt(head).ForMinting()
	if v, n := judge(at, big.NewInt(12345)); v.Reason == nil || n != 0 {
		t.Fatalf("a wrong amount: %+v after %d requests, want rejected after none", v.Reason, n)
	}
	first, n := judge(at, priceOne)
	if first.Reason != nil || first.Tier.ID != 1 || n != 2 {
		t.Fatalf("the first judgement at the block: %+v, tier %d, after %d requests, want tier 1 after 2 (paused, maxPerWallet)", first.Reason, first.Tier.ID, n)
	}
	if v, n := judge(at, priceOne); v.Reason != nil || n != 0 {
		t.Fatalf("the second: %+v after %d requests, want none", v.Reason, n)
	}
	if v, n := judge(e.j.sale.ChainAt(head).ForMinting().Recalling(first.Reads), priceOne); v.Reason != nil || n != 0 ||
		fmt.Sprint(v.Reads) != fmt.Sprint(first.Reads) {
		t.Fatalf("recalled: %+v after %d requests, reads %v, want %v after none", v.Reason, n, v.Reads, first.Reads)
	}
}
