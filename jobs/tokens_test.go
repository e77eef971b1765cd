package jobs

import (
	"errors"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/params"

	"nodeledger/chain"
	"nodeledger/chain/bindings"
	"nodeledger/chain/devchain"
	"nodeledger/jobs/sale"
	"nodeledger/store"
)

var tokenABI = bindings.NewTestToken()

// usdc is n whole dev USDC in its base units (6 decimals).
func usdc(n float64) *big.Int { return big.NewInt(int64(n * 1_000_000)) }

// withUSDC lists the dev chain's USDC as a payment token, as PAYMENT_TOKENS does at start, and
// prices tier 1 at 300 USDC beside its ETH price.
func (e *env) withUSDC() store.Token {
	e.t.Helper()
	tok := store.Token{Address: strings.ToLower(e.dc.USDC.Hex()), Symbol: "USDC", Decimals: 6}
	if err := e.db.PutTokens(e.t.Context(), []store.Token{tok}); err != nil {
		e.t.Fatal(err)
	}
	e.cfg.PaymentTokens = []store.Token{tok}
	e.j = e.restart()
	tiers, err := e.db.Tiers(e.t.Context())
	if err != nil {
		e.t.Fatal(err)
	}
	tiers[0].TokenPrices = store.TokenPrices{tok.Address: ledger(usdc(300))}
	if err := e.db.PutTier(e.t.Context(), tiers[0]); err != nil {
		e.t.Fatal(err)
	}
	return tok
}

// payToken sends amount of token from dev buyer i to `to` with transfer(); gas 0 estimates it
// (the transfer must succeed), else it is sent with that gas whatever it does.
func (e *env) payToken(i int, token, to common.Address, amount *big.Int, gas uint64) *types.Receipt {
	e.t.Helper()
	return e.transact(e.dc.Buyers[i].Key, token, tokenABI.PackTransfer(to, amount), nil, gas)
}

// asTokenOwner sends a call to token as the dev chain's owner, who deployed it.
func (e *env) asTokenOwner(token common.Address, data []byte) {
	e.t.Helper()
	if r := e.transact(e.dc.Owner.Key, token, data, nil, 0); r.Status != types.ReceiptStatusSuccessful {
		e.t.Fatalf("owner's call to %s reverted", token)
	}
}

func TestTokenPayments(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tok := e.withUSDC()
	payTo, coin := e.dc.Payments, e.dc.USDC

	exact := e.payToken(0, coin, payTo, usdc(300), 0)
	wrong := e.payToken(1, coin, payTo, usdc(250), 0)
	// A token that takes a fee is judged by what arrived: 1 % of 303.030303 is 3.030303.
	e.asTokenOwner(coin, tokenABI.PackSetFee(100))
	feeTaken := e.payToken(2, coin, payTo, usdc(303.030303), 0)
	e.asTokenOwner(coin, tokenABI.PackSetFee(0))
	// A transfer that reverts (USDC's blocklist) logs nothing: no payment.
	e.asTokenOwner(coin, tokenABI.PackSetBlocked(e.buyer(3), true))
	if r := e.payToken(3, coin, payTo, usdc(300), 100_000); r.Status != types.ReceiptStatusFailed {
		t.Fatal("a blocked payer's transfer went through")
	}
	// A token the sale does not list (the dev holding token) is no payment: its logs are not
	// even asked for.
	e.payToken(0, e.dc.Token, payTo, new(big.Int).Mul(big.NewInt(300), big.NewInt(params.Ether)), 0)
	// Two payments in one transaction: a batch of transferFrom, each its own Transfer log.
	batch := e.deploy("TokenBatch", bindings.TokenBatchMetaData.Bin)
	e.transact(e.dc.Buyers[4].Key, coin, tokenABI.PackApprove(batch, usdc(600)), nil, 0)
	multi := e.transact(e.dc.Buyers[4].Key, batch, bindings.NewTokenBatch().PackPay(coin, payTo, []*big.Int{usdc(300), usdc(300)}), nil, 0)
	if multi.Status != types.ReceiptStatusSuccessful {
		t.Fatal("the batch of two payments reverted")
	}

	sum := mustPass(t, e.j)
	if sum.Seen != 5 || sum.Minted != 4 || sum.Rejected != 1 {
		t.Fatalf("summary %+v, want 5 seen, 4 minted, 1 rejected", sum)
	}
	for i, want := range []int{1, 0, 1, 0, 2} {
		e.checkNodes(e.buyer(i), want)
	}

	for _, c := range []struct {
		tx     common.Hash
		amount *big.Int
		status store.BuyerStatus
	}{
		{exact.TxHash, usdc(300), store.BuyerMinted},
		{wrong.TxHash, usdc(250), store.BuyerRejected},
		{feeTaken.TxHash, usdc(300), store.BuyerMinted},
		{multi.TxHash, usdc(300), store.BuyerMinted},
	} {
		rec, err := e.db.PaymentByTx(t.Context(), strings.ToLower(c.tx.Hex()))
		if err != nil {
			t.Fatal(err)
		}
		doc := rec.Doc(false)
		if doc.Token == nil || *doc.Token != tok.Address || doc.Symbol != "USDC" || doc.Decimals != 6 ||
			doc.Amount.Cmp(c.amount) != 0 || doc.ValueWei.Sign() != 0 || doc.Status != c.status {
			t.Errorf("payment %s: %+v, want %s USDC units, %s", c.tx, doc, c.amount, c.status)
		}
	}

	rejected := payments(t, e.db, store.PaymentRejected)
	if len(rejected) != 1 {
		t.Fatalf("%d rejected", len(rejected))
	}
	r := sale.Read(rejected[0].Reason)
	want := "250 USDC is not the price of any tier on sale in USDC; the One tier costs 300 USDC."
	if r.Code != sale.WrongAmount || *r.Sentence() != want {
		t.Fatalf("reason %s: %q, want %q", r.Code, *r.Sentence(), want)
	}

	// Each payment of the batch minted under a reference of its own, never the transaction's.
	refs := map[string]bool{}
	for _, p := range payments(t, e.db, store.PaymentMinted) {
		if p.Token == nil || p.LogIndex == nil || p.PaymentRef == p.TxHash || refs[p.PaymentRef] {
			t.Fatalf("payment %+v", p)
		}
		refs[p.PaymentRef] = true
	}

	// Scanning the same blocks again records nothing twice.
	if _, err := e.db.DB().Exec(`DELETE FROM chain_cursors; DELETE FROM scanned_blocks`); err != nil {
		t.Fatal(err)
	}
	if sum := mustPass(t, e.restart()); sum.Minted != 0 || sum.Rejected != 0 {
		t.Fatalf("a second scan of the same blocks: %+v", sum)
	}
	var n int
	if err := e.db.DB().Get(&n, `SELECT count(*) FROM payments`); err != nil || n != 5 {
		t.Fatalf("%d payments in the ledger after a second scan (%v), want 5", n, err)
	}
}

// A reorg that takes a token payment back takes back its events too, as for ETH.
func TestTokenPaymentReorg(t *testing.T) {
	t.Parallel()
	m := manualChain{newEnvOn(t, devchain.Options{ManualMining: true}, func(c *Config) {
		c.Confirmations = 1
		c.WebhookAllowPrivate = true
	})}
	tok := m.withUSDC()
	r := newReceiver(t, 0)
	addWebhook(t, m.db, r.URL, store.EventPaymentSeen, store.EventPaymentRejected)
	_, parent := m.head()
	m.call(m.dc.Buyers[0].Key, m.dc.USDC, tokenABI.PackTransfer(m.dc.Payments, usdc(250)), nil) // no tier's price: rejected
	m.commit(1)
	m.dc.Commit()
	if sum := mustPass(t, m.j); sum.Seen != 1 || sum.Rejected != 1 {
		t.Fatalf("summary %+v", sum)
	}
	m.reorgAwayPayment(parent, 0, 0, 4) // the same nonce spent elsewhere: the token transfer is gone
	if sum := mustPass(t, m.j); sum.Rewound == 0 || sum.Seen != 0 {
		t.Fatalf("summary %+v: want the token payment taken back", sum)
	}
	deliverWebhooks(t, m.j)
	got := r.waitFor(t, 4)
	var types []string
	for _, d := range got {
		types = append(types, d.Type)
		if p := d.Data.Payment; p == nil || p.Token == nil || *p.Token != tok.Address || p.Symbol != "USDC" || p.Amount.Cmp(usdc(250)) != 0 {
			t.Fatalf("%s carries %+v, want the USDC payment", d.Type, p)
		}
	}
	want := []string{"payment.seen", "payment.rejected", "payment.seen.reverted", "payment.rejected.reverted"}
	if !slices.Equal(types, want) {
		t.Fatalf("events %v, want %v", types, want)
	}
	if n := len(payments(t, m.db, store.PaymentRejected)); n != 0 {
		t.Fatalf("%d rejected payments left after the reorg", n)
	}
}

// TestTokenSweep: what the payments wallet holds of a listed token goes to the treasury with the
// token's transfer once no ETH is due, all of it and once; the wallet pays its gas in ETH above
// what it keeps; another waits SWEEP_EVERY_BLOCKS after the last.
func TestTokenSweep(t *testing.T) {
	t.Parallel()
	e := sweepEnv(t, new(big.Int).Mul(big.NewInt(100), ether))
	e.withUSDC()
	wallet, treasury, coin := e.dc.Payments, e.dc.Treasury, e.dc.USDC
	held := func(a common.Address) *big.Int {
		t.Helper()
		b, err := e.c.TokenBalance(t.Context(), coin, a)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	e.payToken(0, coin, wallet, usdc(300), 0)
	e.payToken(1, coin, wallet, usdc(250), 0)

	// The ETH above SWEEP_KEEP_WEI goes first, then the USDC.
	if first := e.sweepUntilSettled(e.j); first.Status != store.SweepSwept || first.Token != nil {
		t.Fatalf("first sweep %+v, want the ETH", first)
	}
	sum, err := e.j.Sweep(t.Context())
	if err != nil || sum.Sent == nil || sum.Sent.Token == nil || sum.Sent.AmountWei.Cmp(usdc(550)) != 0 {
		t.Fatalf("%+v, %v: want 550 USDC sent", sum, err)
	}
	done := e.sweepUntilSettled(e.j)
	if done.Status != store.SweepSwept || done.Token == nil || done.Symbol != "USDC" || done.Amount().String() != "550 USDC" {
		t.Fatalf("settled %+v, want 550 USDC swept", done)
	}
	if w, tr := held(wallet), held(treasury); w.Sign() != 0 || tr.Cmp(usdc(550)) != 0 {
		t.Fatalf("the wallet holds %s, the treasury %s USDC units: want 0 and 550", w, tr)
	}
	var audited []string
	if err := e.db.DB().Select(&audited, `SELECT outcome_args->'tokens'->0->>'amount' FROM operator_audit
		WHERE action = 'treasury.sweep' AND outcome_args ? 'tokens' ORDER BY id`); err != nil {
		t.Fatal(err)
	}
	if len(audited) != 2 || audited[0] != "550000000" || audited[1] != "550000000" {
		t.Fatalf("audit of the token sweep: %v, want sent and done of 550000000", audited)
	}

	// More USDC waits SWEEP_EVERY_BLOCKS (5) after the last token sweep.
	e.payToken(2, coin, wallet, usdc(300), 0)
	if sum, err := e.j.Sweep(t.Context()); err != nil || sum.Sent != nil {
		t.Fatalf("%+v, %v: want the USDC to wait", sum, err)
	}
	for e.head() < uint64(*done.BlockNumber)+5 {
		e.dc.Commit()
	}
	if sum, err := e.j.Sweep(t.Context()); err != nil || sum.Sent == nil || sum.Sent.AmountWei.Cmp(usdc(300)) != 0 {
		t.Fatalf("%+v, %v: want 300 USDC sent once SWEEP_EVERY_BLOCKS passed", sum, err)
	}
	if e.sweepUntilSettled(e.j).Status != store.SweepSwept || held(treasury).Cmp(usdc(850)) != 0 {
		t.Fatal("the second USDC sweep did not reach the treasury")
	}
}

// TestTokenLogFlood: behind a provider that caps an eth_getLogs answer (here at 20 logs, as
// Infura's at 10,000), a stranger's contract emitting more Transfer logs to the payments wallet
// than that in one block stopped every pass, since the scan asked for every contract's logs. It
// asks for the listed tokens' only now: the flood is not read, and a range of more listed
// payments than the cap is halved until each part passes. A single block of more listed payments
// than the cap cannot be read at all: the pass fails naming the block and the provider's words.
func TestTokenLogFlood(t *testing.T) {
	t.Parallel()
	e, proxy := newEnvBehindProxy(t)
	e.withUSDC()
	payTo, coin, junk := e.dc.Payments, e.dc.USDC, e.dc.Token // the dev holding token is not listed
	batch := e.deploy("TokenBatch", bindings.TokenBatchMetaData.Bin)
	units := func(n int) []*big.Int {
		out := make([]*big.Int, n)
		for i := range out {
			out[i] = big.NewInt(1)
		}
		return out
	}
	payMany := func(token common.Address, n int) {
		t.Helper()
		from := e.dc.Buyers[4].Key
		if token == junk {
			from = e.dc.Buyers[0].Key // a holder of the dev token
		}
		e.transact(from, token, tokenABI.PackApprove(batch, big.NewInt(int64(n))), nil, 0)
		if r := e.transact(from, batch, bindings.NewTokenBatch().PackPay(token, payTo, units(n)), nil, 0); r.Status != types.ReceiptStatusSuccessful {
			t.Fatal("the batch of transfers reverted")
		}
	}
	proxy.CapLogs(20)
	payMany(junk, 30) // the flood: 30 Transfer logs in one block, from a token nobody listed
	payMany(coin, 12) // 24 listed payments in two blocks: more than the cap over the range
	payMany(coin, 12)
	exact := e.payToken(0, coin, payTo, usdc(300), 0)
	sum := mustPass(t, e.j)
	if sum.Seen != 25 || sum.Minted != 1 || sum.Rejected != 24 {
		t.Fatalf("summary %+v, want the 25 USDC payments seen, 1 minted", sum)
	}
	if rec, err := e.db.PaymentByTx(t.Context(), strings.ToLower(exact.TxHash.Hex())); err != nil || rec.Doc(false).Status != store.BuyerMinted {
		t.Fatalf("the 300 USDC payment: %+v, %v", rec, err)
	}

	proxy.CapLogs(10)
	payMany(coin, 12) // one block of more listed payments than the cap
	_, err := e.j.Payments(t.Context())
	if !errors.Is(err, chain.ErrLogsRefused) || !strings.Contains(err.Error(), "query returned more than 10 results") {
		t.Fatalf("pass error %v, want the block's logs refused with the provider's words", err)
	}
	proxy.CapLogs(0)
	if sum := mustPass(t, e.j); sum.Seen != 12 {
		t.Fatalf("once the provider answers: %+v", sum)
	}
}
