package web

import (
	"log/slog"
	"math/big"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"nodeledger/chain"
	"nodeledger/chain/bindings"
	"nodeledger/chain/devchain"
	"nodeledger/jobs"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// TestRebuildTreasuryBatches: a sale whose treasury executed a refund batch (an ETH and a USDC
// refund) and a commission batch is rebuilt from the chain and the settings log alone: the
// batches are found in their executions' calldata, each transfer matched to the refund or the
// commissions it pays, and every event, batches included, is the live ledger's. With the source
// ledger there, what no chain holds (the audit, a webhook endpoint, a batch proposed and signed
// once, the executed batches' signatures) is copied over, row for row. A commission taken out of
// the live batch by hand is the one difference, at the batch's block.
func TestRebuildTreasuryBatches(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	e := newRefundEnvOf(t, db, true)
	ctx, dc := t.Context(), e.dc
	lower := func(a common.Address) string { return strings.ToLower(a.Hex()) }
	treasury, usdc := lower(dc.Treasury), store.Token{Address: lower(dc.USDC), Symbol: "USDC", Decimals: devchain.USDCDecimals}
	if _, err := db.LogDeployment(ctx, store.Deployment{ChainID: dc.ChainID().Int64(), Factory: lower(dc.Factory),
		PaymentsWallet: lower(dc.Payments), Treasury: &treasury, Tokens: []store.Token{usdc}, Confirmations: 1}); err != nil {
		t.Fatal(err)
	}
	wantStatus(t, e.s.adminDo(t, http.MethodPost, "/api/admin/referral-codes",
		`{"code": "Duo", "owner": "`+lower(dc.Buyers[3].Address)+`", "discountBps": 500, "commissionBps": 300}`, adminKey), http.StatusCreated)
	if _, _, err := e.j.Sale().Bind(ctx, lower(dc.Buyers[0].Address), "Duo", store.SignIn{}); err != nil {
		t.Fatal(err)
	}
	e.pay(0, 95e15) // minted under Duo: a commission owed
	e.pay(1, 150e15)
	e.send(dc.Buyers[2].Key, dc.USDC, bindings.NewTestToken().PackTransfer(dc.Payments, big.NewInt(250_000_000)), nil)
	e.send(dc.Owner.Key, dc.USDC, bindings.NewTestToken().PackMint(dc.Treasury, big.NewInt(1_000_000_000)), nil)
	for range 3 {
		e.pass()
	}
	execute := func(path, body string) {
		t.Helper()
		rec := e.s.adminDo(t, http.MethodPost, path, body, adminKey)
		wantStatus(t, rec, http.StatusCreated)
		b := decode[batchDoc](t, rec)
		e.approve(b.ID, e.sign(7, b.SafeTxHash))
		ready := e.approve(b.ID, e.sign(devchain.OwnerIndex, b.SafeTxHash))
		if ready == nil || ready.ExecData == nil {
			t.Fatalf("%s: not ready: %+v", path, ready)
		}
		if r := e.send(dc.Buyers[4].Key, dc.Treasury, common.FromHex(*ready.ExecData), nil); r.Status != types.ReceiptStatusSuccessful {
			t.Fatalf("%s: the batch reverted", path)
		}
		e.pass()
		e.pass()
		if got := e.get(b.ID); got.Status != "executed" {
			t.Fatalf("%s: %+v", path, got)
		}
	}
	execute("/api/admin/refund-batches", `{"payments": "all"}`)
	execute("/api/admin/commission-batches", `{"commissions": "all"}`)

	// Money the ledger did not move: two owners send 0.01 ETH out of the treasury in a Safe
	// transaction of their own (an outflow no batch explains, recorded as such), and USDC leaves
	// the payments wallet by hand (no row records it: the money identity names its block).
	cold := dc.Buyers[5].Address
	own := chain.SafeTx{To: cold, Value: big.NewInt(1e16), Nonce: big.NewInt(2)}
	ownHash := own.Hash(dc.ChainID(), dc.Treasury)
	sigs := map[common.Address][]byte{}
	for _, i := range []int{7, 8} {
		sigs[dc.Accounts[i].Address] = common.FromHex(e.sign(i, ownHash.Hex()))
	}
	ownBlock := e.send(dc.Buyers[4].Key, dc.Treasury, chain.ExecData(own, sigs), nil).BlockNumber.Int64()
	byHand := e.send(dc.Accounts[devchain.PaymentsIndex].Key, dc.USDC, bindings.NewTestToken().PackTransfer(cold, big.NewInt(1)), nil).BlockNumber.Int64()
	e.pass()

	// What no chain holds: a webhook endpoint, and a refund batch proposed and signed by one
	// owner, not executed.
	addWebhook(t, db, store.EventPaymentRefunded)
	e.pay(5, 2e17)
	e.pass()
	e.pass()
	rec := e.s.adminDo(t, http.MethodPost, "/api/admin/refund-batches", `{"payments": "all"}`, adminKey)
	wantStatus(t, rec, http.StatusCreated)
	open := decode[batchDoc](t, rec)
	e.approve(open.ID, e.sign(7, open.SafeTxHash))

	if _, err := e.j.Reconcile(ctx); err != nil {
		t.Fatal(err)
	}
	e.pass()
	final, ok, err := db.DigestFrontier(ctx)
	if err != nil || !ok {
		t.Fatalf("frontier %d, %v, %v", final, ok, err)
	}
	live, err := db.LedgerEvents(ctx, 0, final)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, ev := range live {
		kinds[ev.Kind]++
	}
	if kinds["batch"] != 2 || kinds["payment"] != 4 {
		t.Fatalf("the live ledger's events %v", kinds)
	}
	entries, err := db.SettingsLog(ctx, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	into := storetest.New(t)
	if _, err := jobs.Rebuild(ctx, into, e.c, entries, nil, uint64(final), slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	rebuilt, err := into.LedgerEvents(ctx, 0, final)
	if err != nil {
		t.Fatal(err)
	}
	if diffs := store.CompareEvents(live, rebuilt); len(diffs) != 0 {
		t.Fatalf("%d differences: %+v", len(diffs), diffs)
	}

	// Every wei and USDC unit in and out of the payments wallet and the treasury is a row of the
	// rebuild (payments, sweeps' fees, the batches' and the owners' transfers, what reached the
	// treasury), but the USDC sent by hand; the live ledger says the same, and lists the owners'
	// transfer as an outflow no batch explains.
	unexplained := func(ledger *store.Store) []store.EventDiff {
		t.Helper()
		diffs, err := jobs.IdentityOf(ctx, ledger, e.c, entries, 0, final, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		return diffs
	}
	for name, ledger := range map[string]*store.Store{"rebuilt": into, "live": db} {
		if diffs := unexplained(ledger); len(diffs) != 1 || diffs[0].Block != byHand || diffs[0].Key != "payments_wallet USDC" ||
			diffs[0].Live != "the ledger's rows move +0 USDC" || diffs[0].Rebuilt != "the chain's balance moves -0.000001 USDC" {
			t.Errorf("the %s ledger's money identity: %+v; want the USDC sent by hand at block %d", name, diffs, byHand)
		}
	}
	if out, err := db.UnexplainedOutflows(ctx, 10); err != nil || len(out) != 1 || out[0].To != lower(cold) ||
		out[0].ValueWei.String() != "10000000000000000" || out[0].BlockNumber != ownBlock {
		t.Errorf("unexplained outflows %+v, %v; want the owners' 0.01 ETH at block %d", out, err, ownBlock)
	}
	mustExec(t, into, `DELETE FROM treasury_outflows WHERE block_number = $1`, ownBlock)
	if diffs := unexplained(into); len(diffs) != 2 || diffs[0].Block != ownBlock || diffs[0].Key != "treasury ETH" {
		t.Errorf("the owners' transfer deleted from the rebuild: %+v; want a treasury ETH difference at block %d", diffs, ownBlock)
	}

	// The source ledger is there: what no chain holds is copied, row for row.
	kept, err := into.CopyKept(ctx, db)
	if err != nil || kept.Batches != 1 || kept.Rows["webhook_endpoints"] != 1 || kept.Rows["operator_audit"] == 0 {
		t.Fatalf("copied %+v, %v", kept, err)
	}
	for what, query := range map[string]string{
		"the audit":   `SELECT json_agg(a ORDER BY id)::text FROM operator_audit a`,
		"the webhook": `SELECT json_agg(w ORDER BY id)::text FROM webhook_endpoints w`,
		"the batches, with their payments and signatures": `SELECT json_agg(json_build_object('hash', b.safe_tx_hash, 'status', b.status,
			'payments', (SELECT json_agg(p.tx_hash ORDER BY bp.position) FROM treasury_batch_payments bp JOIN payments p ON p.id = bp.payment_id
				WHERE bp.batch_id = b.id AND bp.open),
			'approvals', (SELECT json_agg(encode(a.signature, 'hex') ORDER BY a.owner) FROM treasury_batch_approvals a WHERE a.batch_id = b.id))
			ORDER BY b.safe_tx_hash)::text FROM treasury_batches b`,
	} {
		var want, got string
		if err := db.DB().GetContext(ctx, &want, query); err != nil {
			t.Fatal(err)
		}
		if err := into.DB().GetContext(ctx, &got, query); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%s copied: %s\nthe source's: %s", what, got, want)
		}
	}
	if b, err := into.TreasuryBatches(ctx, 10); err != nil || !slices.ContainsFunc(b, func(b store.TreasuryBatch) bool {
		return b.SafeTxHash == open.SafeTxHash && b.Status == store.BatchProposed && len(b.Approvals) == 1
	}) {
		t.Fatalf("the open batch in the rebuilt ledger: %+v, %v", b, err)
	}

	mustExec(t, db, `UPDATE treasury_batch_commissions SET open = false`)
	live, err = db.LedgerEvents(ctx, 0, final)
	if err != nil {
		t.Fatal(err)
	}
	diffs := store.CompareEvents(live, rebuilt)
	if len(diffs) != 1 || diffs[0].Kind != "batch" || !slices.ContainsFunc(rebuilt, func(ev store.LedgerEvent) bool {
		return ev.Key == diffs[0].Key && ev.Block == diffs[0].Block
	}) {
		t.Fatalf("a commission taken out of its batch: %+v", diffs)
	}
}
