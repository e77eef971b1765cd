package jobs

import (
	"errors"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/core/types"

	"nodeledger/chain/devchain"
	"nodeledger/store"
)

// TestPaymentsSeenAtTheHead: a payment is in the ledger as seen at the head in the pass after its
// block, before its confirmations, in ETH and in a listed token, with what it paid and its block;
// a reorg that drops it takes it back there too, and a block that is no longer the head's is
// not read again.
func TestPaymentsSeenAtTheHead(t *testing.T) {
	t.Parallel()
	m := manualChain{newEnvOn(t, devchain.Options{ManualMining: true}, func(c *Config) { c.Confirmations = 2 })}
	tok := m.withUSDC()
	headPayment := func(tx string) (store.HeadPayment, error) {
		return m.db.HeadPaymentByTx(t.Context(), strings.ToLower(tx))
	}
	_, parent := m.head()
	eth := m.transfer(0, m.dc.Payments, priceOne, 0, 1)
	inUSDC := m.call(m.dc.Buyers[1].Key, m.dc.USDC, tokenABI.PackTransfer(m.dc.Payments, usdc(300)), nil)
	m.commit(2)
	block, _ := m.head()
	if sum := mustPass(t, m.j); sum.Seen != 0 {
		t.Fatalf("a payment without its confirmations was judged: %+v", sum)
	}

	p, err := headPayment(eth.Hex())
	if err != nil {
		t.Fatalf("the ETH payment at the head: %v", err)
	}
	if p.From != strings.ToLower(m.buyer(0).Hex()) || p.ValueWei.Cmp(priceOne) != 0 || p.Amount.Cmp(priceOne) != 0 ||
		p.Token != nil || p.Symbol != "ETH" || p.BlockNumber != int64(block) {
		t.Fatalf("the ETH payment at the head: %+v", p)
	}
	p, err = headPayment(inUSDC.Hex())
	if err != nil {
		t.Fatalf("the USDC payment at the head: %v", err)
	}
	if p.From != strings.ToLower(m.buyer(1).Hex()) || p.ValueWei.Sign() != 0 || p.Amount.Cmp(usdc(300)) != 0 ||
		p.Token == nil || *p.Token != tok.Address || p.Symbol != "USDC" || p.Decimals != 6 || p.BlockNumber != int64(block) {
		t.Fatalf("the USDC payment at the head: %+v", p)
	}
	// The next pass reads only the blocks after the one it recorded.
	if err := m.db.DB().Get(new(int64), `SELECT block_number FROM chain_cursors WHERE name = 'head' AND block_number = $1`, block); err != nil {
		t.Fatalf("the head's cursor is not at block %d: %v", block, err)
	}

	m.reorgAwayPayment(parent, 0, 0, 2) // one block fewer than the confirmations: still not judged
	if sum := mustPass(t, m.j); sum.Seen != 0 {
		t.Fatalf("after the reorg: %+v", sum)
	}
	if _, err := headPayment(eth.Hex()); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the payment a reorg dropped is still seen at the head (%v)", err)
	}
	m.checkNodes(m.buyer(0), 0)
}

// TestAPassAsksForLogsTwice: following the head, a payments pass asks eth_getLogs twice, whatever
// it reads: the factory's and the treasury's logs of the blocks it scans (for the scan and the
// reconciler), and the listed tokens' transfers from those blocks up to the head (for the scan
// and the payments seen at the head), each answer split between the two that use it.
func TestAPassAsksForLogsTwice(t *testing.T) {
	t.Parallel()
	const confirmations = 2
	e, proxy := newEnvBehindProxy(t, func(c *Config) { c.Confirmations = confirmations })
	e.withUSDC()
	pass := func() PaymentsSummary {
		t.Helper()
		before := proxy.Calls("eth_getLogs")
		sum := mustPass(t, e.j)
		if n := proxy.Calls("eth_getLogs") - before; n != 2 {
			t.Fatalf("the pass asked eth_getLogs %d times, want 2", n)
		}
		return sum
	}
	confirmed := e.payToken(0, e.dc.USDC, e.dc.Payments, usdc(300), 0)
	for range confirmations {
		e.dc.Commit()
	}
	atHead := e.payToken(1, e.dc.USDC, e.dc.Payments, usdc(300), 0)
	if sum := pass(); sum.Seen != 1 || sum.Minted != 1 {
		t.Fatalf("summary %+v: want the confirmed payment minted", sum)
	}
	if _, err := e.db.HeadPaymentByTx(t.Context(), strings.ToLower(atHead.TxHash.Hex())); err != nil {
		t.Fatalf("the payment at the head is not seen there: %v", err)
	}
	for range confirmations {
		e.dc.Commit()
	}
	if sum := pass(); sum.Seen != 1 || sum.Minted != 1 {
		t.Fatalf("summary %+v: want the payment seen at the head minted once confirmed", sum)
	}
	for _, r := range []*types.Receipt{confirmed, atHead} {
		if p, err := e.db.PaymentByTx(t.Context(), strings.ToLower(r.TxHash.Hex())); err != nil || p.Doc(false).Status != store.BuyerMinted {
			t.Fatalf("payment %s: %+v, %v", r.TxHash, p, err)
		}
	}
}
