package store_test

import (
	"context"
	"encoding/json"
	"math/big"
	"testing"

	"nodeledger/jobs/sale"
	"nodeledger/migrations"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// TestMigrationReadsReasonsIntoCodes: migration 0012 reads each sentence the checks wrote back
// into its code and arguments, amounts in wei, and keeps any other sentence as the text of
// 'other'.
func TestMigrationReadsReasonsIntoCodes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := storetest.Through(t, "0011_node_ids.sql")
	// Two tiers called Two: a label that names no one tier gives no tier id.
	if _, err := s.DB().Exec(`INSERT INTO tiers (id, label, price_wei, max_per_wallet, payout_bps, on_sale) VALUES
		(1, 'One', 100000000000000000, 3, 10000, true), (2, 'Two', 1000000000000000000, 1, 10000, true),
		(3, 'Two', 5, 1, 10000, false), (4, 'Gold, and more', 2000000000000000000, 1, 10000, true)`); err != nil {
		t.Fatal(err)
	}
	const token = "0x5fbdb2315678afecb367f032d93f642f64180aa3"
	legacy := []struct{ name, status, reason, want string }{
		{"wrong amount", "rejected",
			"0.100000000000000001 ETH is not the price of any tier on sale; the One tier costs 0.1 ETH and the Two tier 1 ETH.",
			`{"code":"wrong_amount","args":{"paidWei":"100000000000000001","onSale":[{"id":1,"label":"One","priceWei":"100000000000000000"},{"label":"Two","priceWei":"1000000000000000000"}]}}`},
		{"wrong amount, one tier, refunded since", "refunded",
			"0.15 ETH is not the price of any tier on sale; the One tier costs 0.1 ETH.",
			`{"code":"wrong_amount","args":{"paidWei":"150000000000000000","onSale":[{"id":1,"label":"One","priceWei":"100000000000000000"}]}}`},
		{"wrong amount, three tiers, a comma in a label", "rejected",
			"2 ETH is not the price of any tier on sale; the One tier costs 0.1 ETH, the Gold, and more tier 2.5 ETH and the Two tier 1 ETH.",
			`{"code":"wrong_amount","args":{"paidWei":"2000000000000000000","onSale":[{"id":1,"label":"One","priceWei":"100000000000000000"},{"id":4,"label":"Gold, and more","priceWei":"2500000000000000000"},{"label":"Two","priceWei":"1000000000000000000"}]}}`},
		{"no tier on sale", "rejected", "0.5 ETH was paid while no tier was on sale.",
			`{"code":"no_tier_on_sale","args":{"paidWei":"500000000000000000"}}`},
		{"paused", "rejected", "Minting was paused on the contract when this payment was checked.",
			`{"code":"minting_paused","args":{}}`},
		{"tier allowance", "rejected", "This wallet already holds the 3 One nodes a wallet may have.",
			`{"code":"wallet_limit","args":{"tier":1,"tierLabel":"One","maxPerWallet":3}}`},
		{"tier allowance of one", "rejected", "This wallet already holds the 1 Gold, and more node a wallet may have.",
			`{"code":"wallet_limit","args":{"tier":4,"tierLabel":"Gold, and more","maxPerWallet":1}}`},
		{"contract allowance", "rejected", "This wallet already holds 10 nodes, the most the contract allows one wallet.",
			`{"code":"contract_wallet_limit","args":{"maxPerWallet":10}}`},
		{"contract allowance of one", "rejected", "This wallet already holds 1 node, the most the contract allows one wallet.",
			`{"code":"contract_wallet_limit","args":{"maxPerWallet":1}}`},
		{"holding", "rejected", "The Two tier asks the wallet to hold 1000 units of the token " + token + "; it holds 7.",
			`{"code":"holding_too_low","args":{"tierLabel":"Two","holdingToken":"` + token + `","holdingWei":"1000","heldWei":"7"}}`},
		{"reverted", "rejected", "The contract refused the mint.", `{"code":"contract_refused","args":{}}`},
		{"reverted, wallet full", "rejected",
			"The contract refused the mint: this wallet already holds the most nodes it allows one wallet.",
			`{"code":"contract_refused","args":{"error":"WalletFull"}}`},
		{"reverted, paused", "rejected", "The contract refused the mint: minting was paused.",
			`{"code":"contract_refused","args":{"error":"MintingPaused"}}`},
		{"a sentence of no form", "rejected", "minting is paused",
			`{"code":"other","args":{"text":"minting is paused"}}`},
		{"a plural that does not agree", "rejected", "This wallet already holds the 1 One nodes a wallet may have.",
			`{"code":"other","args":{"text":"This wallet already holds the 1 One nodes a wallet may have."}}`},
		{"a list with words of no form", "rejected", "1 ETH is not the price of any tier on sale; the One tier costs 0.1 ETH or so.",
			`{"code":"other","args":{"text":"1 ETH is not the price of any tier on sale; the One tier costs 0.1 ETH or so."}}`},
	}
	insert := func(seed, status string, reason *string) {
		t.Helper()
		h := storetest.TxHash(seed)
		if status == "refunded" {
			if _, err := s.DB().Exec(`INSERT INTO outgoing_transfers (tx_hash, to_address, value_wei, block_number)
				VALUES ($1, '0x00000000000000000000000000000000000b0b01', 1, 9)`, storetest.TxHash("refund "+seed)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.DB().Exec(`INSERT INTO payments (tx_hash, payment_ref, from_address, value_wei, block_number,
				block_hash, status, reason, refund_tx_hash)
			VALUES ($1, $1, '0x00000000000000000000000000000000000b0b01', 1, 1, $1, $2, $3,
				CASE WHEN $2 = 'refunded' THEN $4 END)`, h, status, reason, storetest.TxHash("refund "+seed)); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range legacy {
		insert(l.name, l.status, &l.reason)
	}
	insert("rejected without a reason", "rejected", nil)
	minted := "A reason on a payment that minted."
	insert("minted", "minted", &minted)

	if _, err := s.Migrate(ctx, migrations.FS); err != nil {
		t.Fatal(err)
	}
	reason := func(seed string) *store.Reason {
		t.Helper()
		p, err := s.PaymentByTx(ctx, storetest.TxHash(seed))
		if err != nil {
			t.Fatal(err)
		}
		return p.Reason
	}
	for _, l := range legacy {
		t.Run(l.name, func(t *testing.T) {
			got, err := json.Marshal(sale.Read(reason(l.name)))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != l.want {
				t.Fatalf("%q became\n%s, want\n%s", l.reason, got, l.want)
			}
		})
	}
	if r := sale.Read(reason("rejected without a reason")); r == nil || r.Code != sale.Other || r.Args.Text != "" {
		t.Fatalf("a rejection without a reason: %+v", r)
	}
	if r := reason("minted"); r != nil {
		t.Fatalf("a minted payment has a reason: %+v", r)
	}
	t.Run("every rejected payment has a code, no other has one", func(t *testing.T) {
		_, err := s.DB().Exec(`UPDATE payments SET reason_code = NULL, reason_args = NULL WHERE tx_hash = $1`, storetest.TxHash("paused"))
		if err == nil {
			t.Fatal("a rejected payment lost its code")
		}
		_, err = s.DB().Exec(`UPDATE payments SET reason_code = 'other', reason_args = '{}' WHERE tx_hash = $1`, storetest.TxHash("minted"))
		if err == nil {
			t.Fatal("a minted payment took a code")
		}
	})
}

// TestRejectPaymentKeepsTheReason: a reason written is read back as it was by the reads of
// payments.
func TestRejectPaymentKeepsTheReason(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	ctx := t.Context()
	one := 1
	want := sale.Reason{Code: sale.WrongAmount, Args: sale.Args{
		PaidWei: store.Uint256{Int: bigInt("150000000000000000")},
		OnSale:  []sale.TierPrice{{ID: &one, Label: "One", PriceWei: store.Uint256{Int: bigInt("100000000000000000")}}},
	}}
	h := storetest.TxHash("p")
	if err := db.RecordScan(ctx, "payments", store.Scan{
		Blocks:   []store.ScannedBlock{{Number: 1, Hash: storetest.TxHash("b1")}},
		Payments: []store.NewPayment{{TxHash: h, PaymentRef: h, From: "0x00000000000000000000000000000000000b0b01", ValueWei: bigInt("150000000000000000"), BlockNumber: 1, BlockHash: storetest.TxHash("b1")}},
	}); err != nil {
		t.Fatal(err)
	}
	pending, err := db.PaymentsByStatus(ctx, store.PaymentPending, 0)
	if err != nil || len(pending) != 1 || pending[0].Reason != nil {
		t.Fatalf("pending %+v, %v", pending, err)
	}
	if err := db.RejectPayment(ctx, pending[0].ID, store.PaymentPending, want.Code, want.Args, nil); err != nil {
		t.Fatal(err)
	}
	wantJSON, _ := json.Marshal(want)
	same := func(what string, r *store.Reason) {
		t.Helper()
		if got, _ := json.Marshal(sale.Read(r)); string(got) != string(wantJSON) {
			t.Fatalf("%s: %s, want %s", what, got, wantJSON)
		}
	}
	rec, err := db.PaymentByTx(ctx, h)
	if err != nil || rec.Status != store.PaymentRejected {
		t.Fatalf("%+v, %v", rec, err)
	}
	same("PaymentByTx", rec.Reason)
	refunds, err := db.Refunds(ctx, 10)
	if err != nil || len(refunds) != 1 {
		t.Fatalf("refunds %+v, %v", refunds, err)
	}
	same("Refunds", refunds[0].Reason)
}

func bigInt(s string) *big.Int {
	n, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic(s)
	}
	return n
}
