package jobs

import (
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"nodeledger/chain"
	"nodeledger/chain/clefdev"
)

// TestMintSignedByClef runs the payments pass with the minter's key in clef, not in the process:
// a payment becomes a node when clef's rules allow mint on the factory, and the pass says
// plainly that the signer refused when they do not.
func TestMintSignedByClef(t *testing.T) {
	clefdev.Path(t) // skipped here, before the chain starts, when there is no clef
	e := newEnv(t)
	passes := func(t *testing.T, factory common.Address) *Jobs {
		url := clefdev.Start(t, e.dc.Minter.Key, e.dc.ChainID().Int64(), factory)
		minter, err := chain.DialSigner(t.Context(), url, e.dc.Minter.Address)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(minter.Close)
		return New(db, e.c, minter, nil, e.cfg, slog.New(slog.DiscardHandler))
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
}
