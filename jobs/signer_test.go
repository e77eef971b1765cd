package jobs

import (
	"errors"
	"log/slog"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"nodeledger/chain"
	"nodeledger/chain/clefdev"
	"nodeledger/chain/devchain"
	"nodeledger/store"
)

// TestMintSignedByClef runs the payments pass with the minter's key in clef, not in the process:
// a payment becomes a node when clef's rules allow mint on the factory, two in one mintBatch,
// and the pass says plainly that the signer refused when they do not.
func TestMintSignedByClef(t *testing.T) {
	t.Parallel()
	clefdev.Path(t) // skipped here, before the chain starts, when there is no clef
	e := newEnv(t)
	passes := func(t *testing.T, factory common.Address) *Jobs {
		url := clefdev.Start(t, e.dc.Minter.Key, e.dc.ChainID().Int64(), clefdev.Rules(factory))
		minter, err := chain.DialSigner(t.Context(), url, e.dc.Minter.Address)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(minter.Close)
		return New(e.db, e.c, minter, nil, e.cfg, slog.New(slog.DiscardHandler))
	}

	t.Run("rules for another factory refuse the mint", func(t *testing.T) {
		e.pay(0, e.dc.Payments, priceOne)
		_, err := passes(t, common.Address{0x99}).Payments(t.Context())
		if !errors.Is(err, chain.ErrSignerRefused) || !strings.Contains(err.Error(), "the signer refused the transaction (request denied)") {
			t.Fatalf("pass error %v, want the signer's refusal", err)
		}
		e.checkNodes(e.buyer(0), 0)
	})
	t.Run("rules for the factory let the mint through", func(t *testing.T) {
		if sum := mustPass(t, passes(t, e.dc.Factory)); sum.Minted != 1 {
			t.Fatalf("summary %+v", sum)
		}
		e.checkNodes(e.buyer(0), 1)
	})
	t.Run("and a batch", func(t *testing.T) {
		e.pay(1, e.dc.Payments, priceOne)
		e.pay(2, e.dc.Payments, priceOne)
		if sum := mustPass(t, passes(t, e.dc.Factory)); sum.Minted != 2 {
			t.Fatalf("summary %+v", sum)
		}
		if a, b := e.checkNodes(e.buyer(1), 1)[0], e.checkNodes(e.buyer(2), 1)[0]; a.MintTx != b.MintTx {
			t.Fatalf("nodes minted by %s and %s, want one mintBatch transaction", a.MintTx, b.MintTx)
		}
	})
}

// TestSweepSignedByClef runs the sweep pass with the payments wallet's key in clef under the
// rules docs/operations.md recommends: the sweep to the treasury goes through; rules written for
// another treasury refuse it (nothing is stored, nothing is swept); and the payments wallet's
// signer refuses a transfer anywhere else, and any call, even to the treasury, but a listed
// token's transfer to the treasury (the token sweep).
func TestSweepSignedByClef(t *testing.T) {
	t.Parallel()
	clefdev.Path(t)
	e := sweepEnv(t, new(big.Int))
	key := e.dc.Accounts[devchain.PaymentsIndex].Key
	signer := func(t *testing.T, treasury common.Address) *chain.ExternalSigner {
		url := clefdev.Start(t, key, e.dc.ChainID().Int64(), clefdev.SweepRules(treasury, e.dc.USDC))
		s, err := chain.DialSigner(t.Context(), url, e.dc.Payments)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		return s
	}
	passes := func(s chain.Signer) *Jobs {
		cfg := e.cfg
		cfg.Sweep.Signer = s
		return New(e.db, e.c, nil, nil, cfg, slog.New(slog.DiscardHandler))
	}

	t.Run("rules for another treasury refuse the sweep", func(t *testing.T) {
		_, err := passes(signer(t, common.Address{0x99})).Sweep(t.Context())
		if !errors.Is(err, chain.ErrSignerRefused) {
			t.Fatalf("pass error %v, want the signer's refusal", err)
		}
		if n := len(e.sweeps()); n != 0 {
			t.Fatalf("%d sweeps recorded, want none", n)
		}
	})
	t.Run("rules for the treasury let the sweep through, and nothing else", func(t *testing.T) {
		s := signer(t, e.dc.Treasury)
		j := passes(s)
		if sum, err := j.Sweep(t.Context()); err != nil || sum.Sent == nil {
			t.Fatalf("%+v, %v: want the sweep sent", sum, err)
		}
		if done := e.sweepUntilSettled(j); done.Status != store.SweepSwept {
			t.Fatalf("settled %+v, want swept", done)
		}
		sender := e.c.NewSender(s, e.dc.ChainID())
		buyer, treasury, coin, dht := e.buyer(0), e.dc.Treasury, e.dc.USDC, e.dc.Token
		call := func(to *common.Address, data []byte) error {
			_, err := sender.SignWith(t.Context(), chain.Fees{Tip: big.NewInt(1), Cap: big.NewInt(1e10)}, 100_000, to, data, nil)
			return err
		}
		for name, try := range map[string]func() error{
			"a transfer to a buyer":                func() error { _, err := sender.Sign(t.Context(), &buyer, nil, big.NewInt(1)); return err },
			"a call to the treasury":               func() error { return call(&treasury, []byte{0xaf, 0xfe, 0xd0, 0xe0}) },
			"a listed token's transfer to a buyer": func() error { return call(&coin, chain.TokenTransferData(buyer, big.NewInt(1))) },
			"a token not listed to the treasury":   func() error { return call(&dht, chain.TokenTransferData(treasury, big.NewInt(1))) },
			"a listed token's approve of the treasury": func() error {
				return call(&coin, tokenABI.PackApprove(treasury, big.NewInt(1)))
			},
		} {
			if err := try(); !errors.Is(err, chain.ErrSignerRefused) {
				t.Errorf("%s: %v, want the signer's refusal", name, err)
			}
		}
		// The token sweep goes through the same rules.
		e.withUSDC()
		e.payToken(0, coin, e.dc.Payments, usdc(300), 0)
		e.pay(1, e.dc.Payments, tenth) // its gas: below SWEEP_MIN_WEI, so the ETH waits
		j = passes(s)
		if sum, err := j.Sweep(t.Context()); err != nil || sum.Sent == nil || sum.Sent.Token == nil {
			t.Fatalf("%+v, %v: want the USDC sweep sent", sum, err)
		}
		if done := e.sweepUntilSettled(j); done.Status != store.SweepSwept || done.AmountWei.Cmp(usdc(300)) != 0 {
			t.Fatalf("settled %+v, want 300 USDC swept", done)
		}
	})
}
