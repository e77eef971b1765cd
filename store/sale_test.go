package store_test

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"nodeledger/store"
	"nodeledger/store/storetest"
)

func TestParseAllowlist(t *testing.T) {
	t.Parallel()
	const a, b = "0x00000000000000000000000000000000000000aa", "0x00000000000000000000000000000000000000BB"
	for _, tc := range []struct {
		name string
		csv  string
		want []store.AllowlistEntry
		err  *store.AllowlistLineError
	}{
		{"header, blank lines and any case", "address,allocation\n\n" + a + ",2\r\n  " + b + " , 1 \n\n",
			[]store.AllowlistEntry{{Address: a, Allocation: 2}, {Address: strings.ToLower(b), Allocation: 1}}, nil},
		{"header in capitals", "Address,Allocation\n" + a + ",1", []store.AllowlistEntry{{Address: a, Allocation: 1}}, nil},
		{"empty", "", []store.AllowlistEntry{}, nil},
		{"only a header", "address,allocation\n", []store.AllowlistEntry{}, nil},
		{"a bad address, by line", "address,allocation\n" + a + ",1\n\n0x12,3\n", nil,
			&store.AllowlistLineError{Line: 4, Problem: store.AllowlistAddress, Value: "0x12"}},
		{"a header after the first line is a bad address", a + ",1\naddress,allocation\n", nil,
			&store.AllowlistLineError{Line: 2, Problem: store.AllowlistAddress, Value: "address"}},
		{"allocation zero", a + ",0", nil, &store.AllowlistLineError{Line: 1, Problem: store.AllowlistAllocation, Value: "0"}},
		{"allocation not whole", a + ",1.5", nil, &store.AllowlistLineError{Line: 1, Problem: store.AllowlistAllocation, Value: "1.5"}},
		{"allocation too large", a + ",1000001", nil, &store.AllowlistLineError{Line: 1, Problem: store.AllowlistAllocation, Value: "1000001"}},
		{"three columns", a + ",1,x", nil, &store.AllowlistLineError{Line: 1, Problem: store.AllowlistColumns, Value: a + ",1,x"}},
		{"one column", a, nil, &store.AllowlistLineError{Line: 1, Problem: store.AllowlistColumns, Value: a}},
		{"a duplicate", a + ",1\n" + b + ",1\n" + strings.Replace(a, "aa", "AA", 1) + ",2\n", nil,
			&store.AllowlistLineError{Line: 3, Problem: store.AllowlistDuplicate, Value: a, FirstLine: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := store.ParseAllowlist(strings.NewReader(tc.csv))
			var le *store.AllowlistLineError
			switch {
			case tc.err == nil && err != nil:
				t.Fatalf("error %v", err)
			case tc.err != nil && (!errors.As(err, &le) || *le != *tc.err):
				t.Fatalf("error %#v, want %#v", err, tc.err)
			case tc.err == nil && fmt.Sprint(got) != fmt.Sprint(tc.want):
				t.Fatalf("entries %v, want %v", got, tc.want)
			}
		})
	}
}

// TestTierVersions: every change of a tier's sale settings is kept with the second it took effect,
// whoever makes it (PutTier, SetOnSale, plain SQL); a label alone is no change of the sale. TiersAt
// reads the settings in force at an instant, and the prices within the grace before it.
func TestTierVersions(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	ctx := t.Context()
	versions := func() int {
		t.Helper()
		var n int
		if err := db.DB().Get(&n, `SELECT count(*) FROM tier_versions WHERE tier = 7`); err != nil {
			t.Fatal(err)
		}
		return n
	}
	price := func(wei int64) store.Uint256 { return store.Uint256{Int: big.NewInt(wei)} }
	tier := store.Tier{ID: 7, Label: "Seven", PriceWei: price(100), MaxPerWallet: 2, HoldingWei: price(0), Enabled: true}
	if err := db.PutTier(ctx, tier); err != nil {
		t.Fatal(err)
	}
	tier.Label = "Renamed"
	if err := db.PutTier(ctx, tier); err != nil {
		t.Fatal(err)
	}
	if n := versions(); n != 1 {
		t.Fatalf("%d versions after a rename, want 1", n)
	}
	if err := db.SetOnSale(ctx, 7, false); err != nil {
		t.Fatal(err)
	}
	if _, err := db.DB().Exec(`UPDATE tiers SET on_sale = true, price_wei = 120 WHERE id = 7`); err != nil {
		t.Fatal(err)
	}
	if n := versions(); n != 3 {
		t.Fatalf("%d versions, want 3", n)
	}
	// Move the history back in time to read it at chosen instants: created an hour ago at 100,
	// off half an hour ago, on at 120 a minute ago.
	now := time.Now().Truncate(time.Second)
	if _, err := db.DB().Exec(`
		UPDATE tier_versions SET effective_at = $1::timestamptz - CASE WHEN on_sale AND price_wei = 100 THEN interval '1 hour'
			WHEN NOT on_sale THEN interval '30 minutes' ELSE interval '1 minute' END WHERE tier = 7`, now); err != nil {
		t.Fatal(err)
	}
	at := func(ago, grace time.Duration) string {
		t.Helper()
		tiers, err := db.TiersAt(ctx, now.Add(-ago), grace)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range tiers {
			if x.ID == 7 {
				return fmt.Sprintf("%s %v %v", x.PriceWei, x.Enabled, x.Prices)
			}
		}
		return "absent"
	}
	for _, tc := range []struct {
		ago, grace time.Duration
		want       string
	}{
		{2 * time.Hour, 0, "absent"},
		{time.Hour, 0, "100 true [100]"},
		{10 * time.Minute, 0, "100 false [100]"},
		{0, 0, "120 true [120]"},
		{0, 10 * time.Minute, "120 true [100 120]"},  // the price before the change, within the grace
		{0, 2 * time.Hour, "120 true [100 100 120]"}, // every version's price since (the same twice: on, then off)
	} {
		if got := at(tc.ago, tc.grace); got != tc.want {
			t.Errorf("%v ago, grace %v: %s, want %s", tc.ago, tc.grace, got, tc.want)
		}
	}
}

// TestClaimsNeverExceedTheSupply: many passes claiming a tier's last units at once, each on its
// own connection, claim exactly its supply; the others are told it is sold out and claim nothing.
// Signing the claimed payments' mints, in one batch and two versions, claims nothing more, and a
// node the reconciler records while the rest of its batch is still minting counts once.
func TestClaimsNeverExceedTheSupply(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	ctx := t.Context()
	const supply, payers = 3, 12
	n := supply
	if err := db.PutTier(ctx, store.Tier{ID: 1, Label: "One", PriceWei: store.Uint256{Int: big.NewInt(1)}, MaxPerWallet: payers,
		HoldingWei: store.Uint256{Int: big.NewInt(0)}, Enabled: true, Supply: &n}); err != nil {
		t.Fatal(err)
	}
	var ps []store.NewPayment
	for i := range payers {
		h := storetest.TxHash(fmt.Sprint("claim", i))
		ps = append(ps, store.NewPayment{TxHash: h, PaymentRef: h, From: fmt.Sprintf("0x%040x", i+1), ValueWei: big.NewInt(1),
			BlockNumber: 1, BlockHash: storetest.TxHash("block"), TxIndex: i, BlockTime: time.Now()})
	}
	if err := db.RecordScan(ctx, "payments", store.Scan{Blocks: []store.ScannedBlock{{Number: 1, Hash: storetest.TxHash("block")}},
		Payments: ps}); err != nil {
		t.Fatal(err)
	}
	pending, err := db.PaymentsByStatus(ctx, store.PaymentPending, 0)
	if err != nil || len(pending) != payers {
		t.Fatalf("%d pending, %v", len(pending), err)
	}
	t.Cleanup(func() { db.DB().Exec(`DELETE FROM outbox; DELETE FROM payments; DELETE FROM mint_batches`) })
	var wg sync.WaitGroup
	errs := make([]error, payers)
	for i, p := range pending {
		wg.Go(func() { errs[i] = db.ClaimMint(ctx, p.ID, 1, nil, nil) })
	}
	wg.Wait()
	claimed := 0
	for i, err := range errs {
		var so *store.SoldOutError
		switch {
		case err == nil:
			claimed++
		case !errors.As(err, &so) || so.Supply != supply || so.Sold != supply:
			t.Errorf("payment %d: %v", i, err)
		}
	}
	minting, err := db.PaymentsByStatus(ctx, store.PaymentMinting, 0)
	if err != nil {
		t.Fatal(err)
	}
	if claimed != supply || len(minting) != supply {
		t.Fatalf("%d claims succeeded and %d payments are minting, want %d", claimed, len(minting), supply)
	}
	// A payment claimed once is not claimed again, and signing its mint, in one version or two,
	// claims nothing more.
	if err := db.ClaimMint(ctx, minting[0].ID, 1, nil, nil); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a second claim: %v", err)
	}
	f, err := db.KeepTx(ctx, store.TxFor{Mints: []int64{minting[0].ID, minting[1].ID}}, storetest.SentTx("batch", 1))
	if err == nil {
		_, err = db.KeepTx(ctx, f, storetest.SentTx("batch, higher fees", 1))
	}
	if err != nil {
		t.Fatalf("a mint batch: %v", err)
	}
	// A payment in a batch already is in no other.
	if _, err := db.KeepTx(ctx, store.TxFor{Mints: []int64{minting[1].ID, minting[2].ID}}, storetest.SentTx("twice", 2)); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a payment signed in two batches: %v", err)
	}
	// The reconciler records one of those nodes before its payment's mint is settled.
	if _, _, err := db.RecordMint(ctx, minting[1].ID, store.NewNode{ChainNodeID: big.NewInt(1), Tier: 1, Owner: minting[1].From,
		PriceWei: big.NewInt(1), MintTx: storetest.TxHash("batch, higher fees")}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.DB().Exec(`DELETE FROM nodes`) })
	if sold, err := db.Sold(ctx, 1); err != nil || sold != supply {
		t.Fatalf("sold %d, %v; want %d", sold, err, supply)
	}
	if sold, err := db.SoldByTier(ctx); err != nil || sold[1] != supply {
		t.Fatalf("sold by tier %v, %v; want %d", sold, err, supply)
	}
	// A mint that reverts frees its unit for the next payment (those refused before stay refused:
	// the check rejected them).
	if err := db.RejectPayment(ctx, minting[2].ID, store.PaymentMinting, "contract_refused", struct{}{}, nil); err != nil {
		t.Fatal(err)
	}
	if sold, err := db.Sold(ctx, 1); err != nil || sold != supply-1 {
		t.Fatalf("sold after a revert %d, %v; want %d", sold, err, supply-1)
	}
	still, err := db.PaymentsByStatus(ctx, store.PaymentPending, 0)
	if err != nil || len(still) != payers-supply {
		t.Fatalf("%d pending, %v", len(still), err)
	}
	if err := db.ClaimMint(ctx, still[0].ID, 1, nil, nil); err != nil {
		t.Fatalf("the freed unit: %v", err)
	}
	var so *store.SoldOutError
	if err := db.ClaimMint(ctx, still[1].ID, 1, nil, nil); !errors.As(err, &so) {
		t.Fatalf("after the freed unit was taken: %v", err)
	}
}

// TestTierSoldFollowsItsRows: what each tier sold, kept by triggers, follows nodes recorded in
// one statement or one by one, moved between tiers and deleted, and payments claimed and freed.
func TestTierSoldFollowsItsRows(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	ctx := t.Context()
	for id := 1; id <= 2; id++ {
		if err := db.PutTier(ctx, store.Tier{ID: id, Label: fmt.Sprint("T", id), PriceWei: store.Uint256{Int: big.NewInt(1)}, MaxPerWallet: 9,
			HoldingWei: store.Uint256{Int: big.NewInt(0)}, Enabled: true}); err != nil {
			t.Fatal(err)
		}
	}
	sold := func(step string, want map[int]int) {
		t.Helper()
		got, err := db.SoldByTier(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: sold %v, want %v", step, got, want)
		}
		storetest.CheckSold(t, db)
	}
	for i, tier := range []int{1, 1, 2} {
		if _, _, err := db.InsertNode(ctx, store.NewNode{ChainNodeID: big.NewInt(int64(i + 1)), Tier: tier, Owner: fmt.Sprintf("0x%040x", 1),
			PriceWei: big.NewInt(1), MintTx: storetest.TxHash(fmt.Sprint("mint", i))}); err != nil {
			t.Fatal(err)
		}
	}
	sold("three nodes", map[int]int{1: 2, 2: 1})
	if _, err := db.DB().ExecContext(ctx, `INSERT INTO nodes (id, tier, owner, price_wei, mint_tx)
		SELECT g, 2, '0x'||repeat('2', 40), 1, '0x'||repeat('b', 64) FROM generate_series(10, 14) g`); err != nil {
		t.Fatal(err)
	}
	sold("five more in one statement", map[int]int{1: 2, 2: 6})
	if _, err := db.DB().ExecContext(ctx, `UPDATE nodes SET tier = 2 WHERE id = 1`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.DB().ExecContext(ctx, `UPDATE nodes SET owner = '0x'||repeat('3', 40)`); err != nil { // no tier changes
		t.Fatal(err)
	}
	sold("one moved to tier 2", map[int]int{1: 1, 2: 7})
	if _, err := db.DB().ExecContext(ctx, `DELETE FROM nodes WHERE id >= 12`); err != nil {
		t.Fatal(err)
	}
	sold("three deleted", map[int]int{1: 1, 2: 4})

	h := storetest.TxHash("paid")
	if err := db.RecordScan(ctx, "payments", store.Scan{Blocks: []store.ScannedBlock{{Number: 1, Hash: storetest.TxHash("block")}},
		Payments: []store.NewPayment{{TxHash: h, PaymentRef: h, From: fmt.Sprintf("0x%040x", 4), ValueWei: big.NewInt(1), BlockNumber: 1,
			BlockHash: storetest.TxHash("block"), BlockTime: time.Now()}}}); err != nil {
		t.Fatal(err)
	}
	pending, err := db.PaymentsByStatus(ctx, store.PaymentPending, 0)
	if err != nil || len(pending) != 1 {
		t.Fatalf("%d pending, %v", len(pending), err)
	}
	if err := db.ClaimMint(ctx, pending[0].ID, 1, nil, nil); err != nil {
		t.Fatal(err)
	}
	sold("a payment minting", map[int]int{1: 2, 2: 4})
	if err := db.RejectPayment(ctx, pending[0].ID, store.PaymentMinting, "contract_refused", struct{}{}, nil); err != nil {
		t.Fatal(err)
	}
	sold("its mint refused", map[int]int{1: 1, 2: 4})
}
