package jobs

import (
	"bytes"
	"errors"
	"log/slog"
	"math/big"
	"testing"

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
	if _, err := e.db.LogDeployment(e.t.Context(), d); err != nil {
		e.t.Fatal(err)
	}
}

// rebuiltKinds are the events a rebuild writes so far: rounds, sweeps and treasury batches are
// not rebuilt yet (docs/operations.md).
var rebuiltKinds = map[string]bool{"payment": true, "node": true, "transfer_out": true, "inflow": true, "withdrawal": true}

// eventsOf are the events of blocks 0..to that a rebuild writes.
func eventsOf(t *testing.T, db *store.Store, to int64) []store.LedgerEvent {
	t.Helper()
	all, err := db.LedgerEvents(t.Context(), 0, to)
	if err != nil {
		t.Fatal(err)
	}
	var out []store.LedgerEvent
	for _, e := range all {
		if rebuiltKinds[e.Kind] {
			out = append(out, e)
		}
	}
	return out
}

// TestRebuild: the ledger the passes built (payments minted under a code and at full price, one
// of a wrong amount, one refused for its holding and refunded by hand, a withdrawal) is rebuilt
// from the chain and its settings log alone into an empty database: every event up to the
// rebuild's end is the live ledger's, line for line, and a rebuild refuses a database that holds
// a ledger.
func TestRebuild(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := t.Context()
	e.logDeployment()
	owner := lower(e.buyer(4))
	addCode(t, e.db, store.ReferralCode{Code: "Alice5", Owner: owner, DiscountBps: 500, CommissionBps: 300, Enabled: true})
	e.bind(0, "alice5")
	e.pay(0, e.dc.Payments, new(big.Int).Sub(priceOne, finney(5)))
	e.pay(1, e.dc.Payments, priceOne)
	e.pay(2, e.dc.Payments, new(big.Int).Add(priceOne, big.NewInt(1)))
	e.pay(3, e.dc.Payments, priceTwo) // no DHT: refused, then refunded by hand
	e.settle()
	e.sendValue(e.dc.Accounts[devchain.PaymentsIndex].Key, e.buyer(3), nil, priceTwo)
	// A credit made outside the service, and a withdrawal of it.
	e.sendValue(e.dc.Distributor.Key, e.dc.Factory, factoryABI.PackDistribute(big.NewInt(77), chain.RoundFixed, big.NewInt(1000), big.NewInt(2), e.weightsVersion()), big.NewInt(2000))
	e.send(e.dc.Buyers[0].Key, e.dc.Factory, factoryABI.PackWithdraw(big.NewInt(1), e.buyer(5), big.NewInt(300)), 0)
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
	if kinds["payment"] != 4 || kinds["node"] != 2 || kinds["transfer_out"] != 1 || kinds["withdrawal"] != 1 {
		t.Fatalf("the live ledger's events: %v", kinds)
	}

	entries, err := e.db.SettingsLog(ctx, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	into := storetest.New(t)
	sum, err := Rebuild(ctx, into, e.c, entries, uint64(cur.Number), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if sum.Payments != 4 || sum.Minted != 2 || sum.Unsettled != 0 || sum.ToBlock != uint64(cur.Number) {
		t.Errorf("summary %+v", sum)
	}
	rebuilt := eventsOf(t, into, cur.Number)
	if len(rebuilt) != len(live) {
		t.Fatalf("%d events rebuilt, %d live", len(rebuilt), len(live))
	}
	for i := range live {
		if rebuilt[i] != live[i] {
			t.Errorf("event %d:\n live    %+v\n rebuilt %+v", i, live[i], rebuilt[i])
		}
	}

	// No round, sweep or batch here: the digests, every kind of event in, agree block by block.
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

	if _, err := Rebuild(ctx, into, e.c, entries, uint64(cur.Number), slog.New(slog.DiscardHandler)); !errors.Is(err, store.ErrNotEmpty) {
		t.Fatalf("a rebuild into a ledger: %v", err)
	}
}
