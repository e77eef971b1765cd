package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"nodeledger/chain"
	"nodeledger/chain/bindings"
	"nodeledger/chain/devchain"
	"nodeledger/jobs"
	"nodeledger/store"
	"nodeledger/store/pgdev"
	"nodeledger/store/storetest"
)

// TestDrill is the drill of issue 50 §7: lose the database, lose nothing. A sale runs on the dev
// chain with the whole service (ETH and USDC payments, payments under a referral code, wrong
// payments, a refund batch and a commission batch the treasury's owners sign and execute, a
// sweep, a credit round and a withdrawal), its passes cut off at random instants and the service
// restarted, and a reorg taken back. Then the settings log is exported, every money row is copied
// aside, and the database is dropped. `nodeledger rebuild --settings FILE` makes the ledger again
// from the chain and the export alone; its money rows are the copy's, row for row, table by
// table; and the service starts on it and goes on selling. drillPayments (drill_short_test.go,
// or drill_long_test.go under the build tag long: `make drill`) sets the sale's size.
//
// What differs by design, and is not compared: row ids and timestamps, the audit, webhook
// endpoints and deliveries, sessions, operators, the batches' approvals and execution attempts,
// batches never executed, the outbox's signed transactions, the head payments of the buyer's
// tracker.
func TestDrill(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	dc, err := devchain.Start(ctx, devchain.Options{RPCAddr: "127.0.0.1:0", EmptyBlockInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dc.Close() })
	d := &drill{t: t, dc: dc, c: chain.New(dc.RPC(), chain.Config{Factory: dc.Factory}), url: storetest.EmptyDatabase(t),
		rng: rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 50)), wallets: map[common.Address]devchain.Account{}}
	d.start()
	t.Cleanup(d.stop)
	usdc := strings.ToLower(dc.USDC.Hex())
	d.admin(http.MethodPut, "/api/admin/tiers/1", `{"label": "Standard", "priceWei": "100000000000000000", "maxPerWallet": 5,
		"enabled": true, "tokenPrices": [{"token": "`+usdc+`", "amount": "300000000"}]}`, http.StatusOK)
	d.admin(http.MethodPost, "/api/admin/referral-codes", `{"code": "Duo", "owner": "0x00000000000000000000000000000000000000d1",
		"discountBps": 500, "commissionBps": 300, "parent": "0x00000000000000000000000000000000000000d2", "parentBps": 100}`, http.StatusCreated)

	// The sale: each round, new buyers pay (two under the code, one at full price, one in USDC,
	// one a wrong amount in ETH and one in USDC), and the passes run cut off at random instants,
	// the service restarted between.
	usdcABI := bindings.NewTestToken()
	for round := range drillPayments / 6 {
		for range 2 {
			w := d.wallet()
			if _, _, err := d.a.passes.Sale().Bind(ctx, strings.ToLower(w.Address.Hex()), "Duo", store.SignIn{}); err != nil {
				t.Fatal(err)
			}
			d.pay(w, big.NewInt(95e15)) // 0.1 ETH less 5 %
		}
		d.pay(d.wallet(), big.NewInt(1e17))
		d.send(d.wallet(), dc.USDC, usdcABI.PackTransfer(dc.Payments, big.NewInt(300_000_000)), nil)
		d.pay(d.wallet(), big.NewInt(15e16+int64(round))) // wrong
		d.send(d.wallet(), dc.USDC, usdcABI.PackTransfer(dc.Payments, big.NewInt(250_000_000+int64(round))), nil)
		d.cutPasses()
		if round%2 == 1 {
			d.restart()
		}
	}
	d.settle()

	// A reorg: a wrong payment read and rejected, then its block and those above it replaced by
	// a longer chain without it (the pool here does not take a replaced block's transactions
	// back), in which another wallet pays: the ledger rewinds, forgets the payment and reads the
	// new one.
	parent := d.head()
	reorged := d.pay(d.wallet(), big.NewInt(12345))
	d.settle()
	height, err := d.c.HeadNumber(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := dc.Fork(parent); err != nil {
		t.Fatal(err)
	}
	instead := d.pay(d.wallet(), big.NewInt(54321))
	for n := uint64(0); n <= height; {
		dc.Commit()
		if n, err = d.c.HeadNumber(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if sum, err := d.a.passes.Payments(ctx); err != nil || sum.Rewound == 0 {
		t.Fatalf("the pass after the reorg: %+v, %v: want a rewind", sum, err)
	}
	d.settle()
	var held []string
	if err := d.db().DB().SelectContext(ctx, &held, `SELECT tx_hash FROM payments WHERE tx_hash IN ($1, $2)`, reorged, instead); err != nil ||
		!slices.Equal(held, []string{instead}) {
		t.Fatalf("after the reorg the ledger holds %v, %v: want the new chain's payment only", held, err)
	}

	// The treasury: a sweep of the payments wallet, then a refund batch of every wrong payment
	// and a commission batch of every commission owed, each signed by two owners and executed.
	d.send(d.dc.Owner, dc.Treasury, nil, big.NewInt(5e18)) // for the refunds, before the first sweep lands
	d.send(d.dc.Owner, dc.USDC, usdcABI.PackMint(dc.Treasury, big.NewInt(1_000_000_000_000)), nil)
	if sum, err := d.a.passes.Sweep(ctx); err != nil || sum.Sent == nil {
		t.Fatalf("sweep: %+v, %v", sum, err)
	}
	for settled := false; !settled; {
		dc.Commit()
		sum, err := d.a.passes.Sweep(ctx)
		if err != nil {
			t.Fatal(err)
		}
		settled = sum.Settled != nil
	}
	d.settle()
	d.execute("/api/admin/refund-batches", `{"payments": "all"}`)
	d.execute("/api/admin/commission-batches", `{"commissions": "all"}`)

	// A credit round, and a withdrawal of part of a node's credit.
	time.Sleep(1100 * time.Millisecond) // DIST_PERIOD_SEC=1: every node is due
	if sum, err := d.a.passes.Credit(ctx); err != nil || sum.Status != store.RoundConfirmed {
		t.Fatalf("credit: %+v, %v", sum, err)
	}
	var owner string
	if err := d.db().DB().GetContext(ctx, &owner, `SELECT owner FROM nodes WHERE id = 1`); err != nil {
		t.Fatal(err)
	}
	d.send(d.wallets[common.HexToAddress(owner)], dc.Factory, bindings.NewNodeFactory().PackWithdraw(big.NewInt(1), dc.Buyers[0].Address, big.NewInt(100)), nil)
	d.settle()

	live := d.money()
	for _, table := range []string{"payments", "nodes", "commissions", "batches", "sweeps", "rounds", "credits", "withdrawals"} {
		if len(live[table]) == 0 {
			t.Errorf("the live ledger has no %s: the drill does not try them", table)
		}
	}
	var to int64
	if err := d.db().DB().GetContext(ctx, &to, `SELECT block_number FROM chain_cursors WHERE name = 'payments'`); err != nil {
		t.Fatal(err)
	}
	var export bytes.Buffer
	if err := run(ctx, []string{"settings", "export"}, d.getenv("DATABASE_URL", d.url), &export, io.Discard); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "settings.jsonl")
	if err := os.WriteFile(file, export.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}

	// A witness of the ledger, for an outsider to check its digests with no node (§6).
	var witness, witnessLog bytes.Buffer
	if err := run(ctx, []string{"witness", "export"}, d.getenv("DATABASE_URL", d.url, "PAYMENTS_KEY", "", "MINTER_KEY", "",
		"DISTRIBUTOR_KEY", ""), &witness, &witnessLog); err != nil {
		t.Fatalf("witness export: %v", err)
	}
	t.Logf("%s (%d bytes)", strings.TrimSpace(witnessLog.String()), witness.Len())

	// The database is lost.
	d.stop()
	u, err := url.Parse(d.url)
	if err != nil {
		t.Fatal(err)
	}
	if err := pgdev.DropDatabase(ctx, storetest.ServerURL(), strings.TrimPrefix(u.Path, "/")); err != nil {
		t.Fatal(err)
	}

	// Rebuilt from the chain and the export alone: no DATABASE_URL, no key.
	d.url = storetest.EmptyDatabase(t)
	var out bytes.Buffer
	began := time.Now()
	if err := run(ctx, []string{"rebuild", "--into", d.url, "--settings", file, "--to-block", fmt.Sprint(to)},
		func(k string) string { return map[string]string{"ETH_RPC_URL": dc.RPCURL()}[k] }, &out, io.Discard); err != nil {
		t.Fatalf("rebuild: %v\n%s", err, out.String())
	}
	t.Logf("rebuild in %s: %s", time.Since(began).Round(time.Millisecond), strings.TrimSpace(out.String()))
	d.start()
	rebuilt := d.money()
	for table, rows := range live {
		if missing, extra := setDiff(rows, rebuilt[table]), setDiff(rebuilt[table], rows); len(missing)+len(extra) > 0 {
			t.Errorf("%s: %d rows of the lost ledger not rebuilt %q; %d rows rebuilt it did not hold %q", table, len(missing), missing, len(extra), extra)
		}
	}

	d.checkWitness(witness.Bytes())

	// The service goes on selling on the rebuilt ledger.
	tx := d.pay(d.wallet(), big.NewInt(1e17))
	d.settle()
	var status string
	if err := d.db().DB().GetContext(ctx, &status, `SELECT status FROM payments WHERE tx_hash = $1`, tx); err != nil || status != "minted" {
		t.Fatalf("a payment after the rebuild: %q, %v", status, err)
	}
}

// drill is the sale TestDrill runs: the dev chain, the service on the ledger at url (a, restarted
// by start), and a seeded random source for the instants passes are cut off at.
type drill struct {
	t      *testing.T
	dc     *devchain.Chain
	c      *chain.Client
	url    string
	a      *app
	ledger *store.Store // a pool of the test's own on the service's ledger
	rng    *rand.Rand
	// wallets are the buyers made for the drill, by address.
	wallets map[common.Address]devchain.Account
}

// getenv is the service's configuration on the dev chain, with kv on top.
func (d *drill) getenv(kv ...string) func(string) string {
	key := func(i int) string { return hex.EncodeToString(crypto.FromECDSA(d.dc.Accounts[i].Key)) }
	m := map[string]string{"ETH_RPC_URL": d.dc.RPCURL(), "CHAIN_ID": d.dc.ChainID().String(), "FACTORY_ADDRESS": d.dc.Factory.Hex(),
		"PAYMENT_ADDRESS": d.dc.Payments.Hex(), "PAYMENTS_KEY": key(devchain.PaymentsIndex),
		"MINTER_KEY": hex.EncodeToString(crypto.FromECDSA(d.dc.Minter.Key)), "DISTRIBUTOR_KEY": hex.EncodeToString(crypto.FromECDSA(d.dc.Distributor.Key)),
		"TREASURY_ADDRESS": d.dc.Treasury.Hex(), "MULTISEND_ADDRESS": d.dc.MultiSend.Hex(), "PAYMENT_TOKENS": d.dc.USDC.Hex(),
		"CONFIRMATIONS": "1", "DIST_ENABLED": "true", "DIST_PERIOD_SEC": "1", "DIST_BASE_WEI": "1000000", "ADMIN_KEY": drillAdminKey,
		"CRON_KEY": strings.Repeat("c", 32), "PUBLIC_URL": "https://nodes.example.com", "SESSION_SECRET": strings.Repeat("s", 32),
		"REFUND_POLICY": "within 2 working days", "VERIFY_LEDGER": "false", "DATABASE_URL": d.url}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

const drillAdminKey = "drill-admin-key-0123456789abcdef"

// start starts the service on d.url, as a new process would.
func (d *drill) start() {
	d.t.Helper()
	cfg, err := loadConfig(d.getenv())
	if err != nil {
		d.t.Fatal(err)
	}
	if d.a, err = newApp(d.t.Context(), cfg, slog.New(slog.DiscardHandler)); err != nil {
		d.t.Fatal(err)
	}
	if d.ledger, err = store.Open(d.t.Context(), d.url); err != nil {
		d.t.Fatal(err)
	}
}

// stop stops the service as a kill between passes would.
func (d *drill) stop() {
	if d.a != nil {
		d.a.Close()
		d.ledger.Close()
		d.a = nil
	}
}

// restart kills the service between passes and starts another on the same ledger.
func (d *drill) restart() {
	d.stop()
	d.start()
}

func (d *drill) db() *store.Store { return d.ledger }

// wallet is a new buyer, given 1 ETH and 1,000 USDC by the owner: one node a wallet, so a
// long drill meets no limit per wallet.
func (d *drill) wallet() devchain.Account {
	d.t.Helper()
	key, err := crypto.GenerateKey()
	if err != nil {
		d.t.Fatal(err)
	}
	w := devchain.Account{Key: key, Address: crypto.PubkeyToAddress(key.PublicKey)}
	d.send(d.dc.Owner, w.Address, nil, big.NewInt(1e18))
	d.send(d.dc.Owner, d.dc.USDC, bindings.NewTestToken().PackMint(w.Address, big.NewInt(1_000_000_000)), nil)
	d.wallets[w.Address] = w
	return w
}

// send sends a transaction from account from and waits for it.
func (d *drill) send(from devchain.Account, to common.Address, data []byte, value *big.Int) string {
	d.t.Helper()
	r, err := d.c.NewSender(chain.LocalSigner(from.Key), d.dc.ChainID()).Transact(d.t.Context(), &to, data, value)
	if err != nil || r.Status != types.ReceiptStatusSuccessful {
		d.t.Fatalf("a transaction from %s to %s: %v", from.Address, to, err)
	}
	return strings.ToLower(r.TxHash.Hex())
}

func (d *drill) pay(from devchain.Account, wei *big.Int) string {
	return d.send(from, d.dc.Payments, nil, wei)
}

func (d *drill) head() common.Hash {
	d.t.Helper()
	n, err := d.c.HeadNumber(d.t.Context())
	if err != nil {
		d.t.Fatal(err)
	}
	h, err := d.c.BlockHashes(d.t.Context(), []uint64{n})
	if err != nil {
		d.t.Fatal(err)
	}
	return h[n]
}

// cutPasses runs the payments and reconciler passes each cut off at a random instant of its
// first 50 ms (a crash mid-pass: what it had not committed is lost), then once whole.
func (d *drill) cutPasses() {
	d.t.Helper()
	d.dc.Commit()
	for range 2 {
		cut, cancel := context.WithTimeout(d.t.Context(), time.Duration(d.rng.IntN(50_000))*time.Microsecond)
		d.a.passes.Payments(cut)  //nolint:errcheck // cut off: its error is the cut
		d.a.passes.Reconcile(cut) //nolint:errcheck
		cancel()
	}
	if _, err := d.a.passes.Payments(d.t.Context()); err != nil {
		d.t.Fatal(err)
	}
}

// settle runs the passes until every payment has its verdict and the digests reach the
// reconciler, on a head one block above everything sent.
func (d *drill) settle() {
	d.t.Helper()
	ctx := d.t.Context()
	for range 20 {
		d.dc.Commit()
		if _, err := d.a.passes.Payments(ctx); err != nil {
			d.t.Fatal(err)
		}
		if _, err := d.a.passes.Reconcile(ctx); err != nil {
			d.t.Fatal(err)
		}
		var open int
		if err := d.db().DB().GetContext(ctx, &open, `SELECT count(*) FROM payments WHERE status IN ('pending', 'minting')`); err != nil {
			d.t.Fatal(err)
		}
		if open == 0 {
			if _, err := d.a.passes.Payments(ctx); err != nil {
				d.t.Fatal(err)
			}
			return
		}
	}
	d.t.Fatal("payments still wait for their verdict after 20 passes")
}

// admin sends an admin API request and checks its status; it returns the answer's body.
func (d *drill) admin(method, path, body string, want int) []byte {
	d.t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Admin-Key", drillAdminKey)
	rec := httptest.NewRecorder()
	d.a.http.Handler.ServeHTTP(rec, req)
	if rec.Code != want {
		d.t.Fatalf("%s %s: %d %s", method, path, rec.Code, rec.Body)
	}
	return rec.Body.Bytes()
}

// execute proposes a treasury batch at path, has two of the treasury's owners approve it, sends
// its execution from a buyer and settles it.
func (d *drill) execute(path, body string) {
	d.t.Helper()
	var b struct {
		ID         int64   `json:"id"`
		SafeTxHash string  `json:"safeTxHash"`
		ExecData   *string `json:"execData"`
	}
	if err := json.Unmarshal(d.admin(http.MethodPost, path, body, http.StatusCreated), &b); err != nil {
		d.t.Fatal(err)
	}
	for _, owner := range devchain.TreasuryOwnerIndexes[:devchain.TreasuryThreshold] {
		sig, err := crypto.Sign(common.HexToHash(b.SafeTxHash).Bytes(), d.dc.Accounts[owner].Key)
		if err != nil {
			d.t.Fatal(err)
		}
		sig[64] += 27
		approved := d.admin(http.MethodPost, fmt.Sprintf("/api/admin/refund-batches/%d/approvals", b.ID),
			`{"signature": "`+hexutil.Encode(sig)+`"}`, http.StatusOK)
		if err := json.Unmarshal(approved, &b); err != nil {
			d.t.Fatal(err)
		}
	}
	if b.ExecData == nil {
		d.t.Fatalf("%s: batch %d is not ready after two approvals", path, b.ID)
	}
	d.send(d.dc.Buyers[0], d.dc.Treasury, common.FromHex(*b.ExecData), nil)
	d.settle()
}

// moneySQL lists, table by table, every money row of a ledger by what names it on chain (a
// transaction, a node id, a round id, a Safe transaction hash; never a row id), one line a row.
var moneySQL = map[string]string{
	"payments": `SELECT concat_ws(' ', p.tx_hash, p.call_index, p.log_index, p.from_address, p.token, p.value_wei, p.amount,
		p.block_number, p.status, p.tier, p.reason_code, p.reason_args::text, p.judged_reads::text, p.usd_per_eth, p.refund_tx_hash,
		(SELECT b.safe_tx_hash FROM treasury_batches b WHERE b.id = p.refund_batch_id),
		(SELECT concat_ws(' ', r.code, r.owner, r.discount, r.commission_bps, r.parent, r.parent_bps) FROM payment_referrals r WHERE r.payment_id = p.id))
		FROM payments p`,
	"nodes": `SELECT concat_ws(' ', n.id, n.tier, n.owner, n.status, n.mint_tx, n.block_number, n.cumulative_wei, n.withdrawn_wei, n.balance_wei,
		(SELECT p.tx_hash FROM payments p WHERE p.id = n.payment_id)) FROM nodes n`,
	"refunds": `SELECT concat_ws(' ', tx_hash, to_address, value_wei, block_number) FROM outgoing_transfers`,
	"commissions": `SELECT concat_ws(' ', p.tx_hash, c.referrer, c.role, c.amount, (SELECT b.safe_tx_hash FROM treasury_batch_commissions bc
			JOIN treasury_batches b ON b.id = bc.batch_id WHERE bc.commission_id = c.id AND bc.open AND b.status = 'executed'))
		FROM commissions c JOIN payments p ON p.id = c.payment_id`,
	"batches": `SELECT concat_ws(' ', b.safe_tx_hash, b.kind, b.status, b.executed_tx, b.block_number, b.nonce, b.to_address, encode(b.data, 'hex'),
			(SELECT string_agg(p.tx_hash || ':' || bp.open, ',' ORDER BY bp.position) FROM treasury_batch_payments bp
				JOIN payments p ON p.id = bp.payment_id WHERE bp.batch_id = b.id))
		FROM treasury_batches b WHERE b.status IN ('executed', 'failed')`,
	"sweeps": `SELECT concat_ws(' ', tx_hash, from_address, to_address, token, amount_wei, status, block_number) FROM sweeps WHERE status IN ('swept', 'failed')`,
	"rounds": `SELECT concat_ws(' ', id, mode, amount_wei, chain_nodes, carry_wei, weights::text, weights_version, total_wei, node_count, tx_hash, block_number)
		FROM distributions WHERE status = 'confirmed'`,
	"credits": `SELECT concat_ws(' ', c.distribution_id, c.node_id, c.amount_wei) FROM credits c JOIN distributions d ON d.id = c.distribution_id
		WHERE d.status = 'confirmed'`,
	"withdrawals": `SELECT concat_ws(' ', tx_hash, log_index, node_id, to_address, amount_wei, status, block_number) FROM withdrawals`,
	"inflows":     `SELECT concat_ws(' ', block_number, block_hash, amount_wei) FROM unattributed_inflows`,
}

// money is every money row of the ledger, by table, sorted.
func (d *drill) money() map[string][]string {
	d.t.Helper()
	out := map[string][]string{}
	for table, query := range moneySQL {
		var rows []string
		if err := d.db().DB().SelectContext(d.t.Context(), &rows, query); err != nil {
			d.t.Fatalf("%s: %v", table, err)
		}
		slices.Sort(rows)
		out[table] = rows
	}
	return out
}

// setDiff is the lines of a not in b.
func setDiff(a, b []string) []string {
	var out []string
	for _, l := range a {
		if _, found := slices.BinarySearch(b, l); !found {
			out = append(out, l)
		}
	}
	return out
}

// checkWitness checks the witness with `verify --witness` alone (a PostgreSQL to rebuild in, no
// node, the ledger gone): its digests are recomputed; one digest changed in the file is found at
// its block, and an answer of the node taken out fails the check naming the call.
func (d *drill) checkWitness(witness []byte) {
	d.t.Helper()
	ctx := d.t.Context()
	verify := func(w []byte) (string, error) {
		file := filepath.Join(d.t.TempDir(), "witness.json")
		if err := os.WriteFile(file, w, 0o600); err != nil {
			d.t.Fatal(err)
		}
		var out bytes.Buffer
		err := run(ctx, []string{"verify", "--witness", file},
			func(k string) string { return map[string]string{"DATABASE_URL": storetest.EmptyDatabase(d.t)}[k] }, &out, io.Discard)
		return out.String(), err
	}
	out, err := verify(witness)
	if err != nil || !strings.HasPrefix(out, "verified the witness to block ") {
		d.t.Fatalf("verify --witness: %q, %v", out, err)
	}
	d.t.Log(strings.TrimSpace(out))

	var w jobs.Witness
	if err := json.Unmarshal(witness, &w); err != nil {
		d.t.Fatal(err)
	}
	changed := w.Digests[len(w.Digests)/2]
	w.Digests[len(w.Digests)/2].Digest = "0x" + strings.Repeat("00", 32)
	tampered, err := json.Marshal(w)
	if err != nil {
		d.t.Fatal(err)
	}
	if _, err := verify(tampered); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("differs from its rebuild at block %d", changed.Block)) {
		d.t.Errorf("a digest changed in the witness: %v", err)
	}
	w.Digests[len(w.Digests)/2] = changed
	i := slices.IndexFunc(w.Answers, func(a chain.Answer) bool { return strings.Contains(string(a.Call), "eth_getLogs") })
	w.Answers = slices.Delete(w.Answers, i, i+1)
	if tampered, err = json.Marshal(w); err != nil {
		d.t.Fatal(err)
	}
	if _, err := verify(tampered); err == nil || !strings.Contains(err.Error(), "the witness holds no answer to this call") {
		d.t.Errorf("an answer taken out of the witness: %v", err)
	}
}
