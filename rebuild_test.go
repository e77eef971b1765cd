package main

import (
	"bytes"
	"encoding/hex"
	"io"
	"log/slog"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"nodeledger/chain"
	"nodeledger/chain/devchain"
	"nodeledger/store/storetest"
)

// TestRebuildAndVerify: the ledger the service built on a chain (one payment minted, one of a
// wrong amount rejected) is rebuilt by `nodeledger rebuild` into an empty database from the chain
// and the settings log alone, and `nodeledger verify` finds the live ledger equal to its rebuild;
// once an amount is changed by hand, verify fails naming the block and the row. Both refuse to
// start with a signer setting.
func TestRebuildAndVerify(t *testing.T) {
	t.Parallel()
	dc, err := devchain.Start(t.Context(), devchain.Options{RPCAddr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dc.Close() })
	ctx := t.Context()
	url := storetest.EmptyDatabase(t)
	minterKey := hex.EncodeToString(crypto.FromECDSA(dc.Minter.Key))
	cfg, err := loadConfig(env("DATABASE_URL", url, "ETH_RPC_URL", dc.RPCURL(), "CHAIN_ID", dc.ChainID().String(),
		"FACTORY_ADDRESS", dc.Factory.Hex(), "PAYMENT_ADDRESS", dc.Payments.Hex(), "CONFIRMATIONS", "0", "MINTER_KEY", minterKey,
		"PUBLIC_URL", "https://nodes.example.com", "SESSION_SECRET", strings.Repeat("s", 32), "REFUND_POLICY", "within 2 working days"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := newApp(ctx, cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	db, err := storetest.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	storetest.Tier(t, db, 1, "One", "100000000000000000", true)
	c := chain.New(dc.RPC(), chain.Config{Factory: dc.Factory})
	for i, wei := range []int64{1e17, 1e17 + 1} {
		r, err := c.NewSender(chain.LocalSigner(dc.Buyers[i].Key), dc.ChainID()).Transact(ctx, &dc.Payments, nil, big.NewInt(wei))
		if err != nil || r.Status != types.ReceiptStatusSuccessful {
			t.Fatalf("payment %d: %v", i, err)
		}
	}
	for range 2 { // the second pass digests what the reconciler read after the first
		if sum, err := a.passes.Payments(ctx); err != nil || sum.Seen+sum.Minted == 0 && sum.DigestedTo == 0 {
			t.Fatalf("payments pass: %+v, %v", sum, err)
		}
		if _, err := a.passes.Reconcile(ctx); err != nil {
			t.Fatal(err)
		}
	}

	observe := env("DATABASE_URL", url, "ETH_RPC_URL", dc.RPCURL())
	var out bytes.Buffer
	if err := run(ctx, []string{"verify"}, observe, &out, io.Discard); err != nil || !strings.Contains(out.String(), " 0 differences") ||
		!strings.HasPrefix(out.String(), "verified blocks 0-") {
		t.Fatalf("verify: %q, %v", out.String(), err)
	}
	out.Reset()
	if err := run(ctx, []string{"rebuild", "--into", storetest.EmptyDatabase(t)}, observe, &out, io.Discard); err != nil ||
		!strings.Contains(out.String(), "2 payments (1 minted, 1 rejected, 0 without a verdict)") {
		t.Fatalf("rebuild: %q, %v", out.String(), err)
	}
	for _, cmd := range [][]string{{"verify"}, {"rebuild", "--into", storetest.EmptyDatabase(t)}} {
		err := run(ctx, cmd, env("DATABASE_URL", url, "ETH_RPC_URL", dc.RPCURL(), "MINTER_KEY", minterKey), io.Discard, io.Discard)
		if err == nil || err.Error() != "MINTER_KEY: a rebuild signs and sends nothing; unset it" {
			t.Errorf("%s with a signer setting: %v", cmd[0], err)
		}
	}

	if _, err := db.DB().Exec(`UPDATE payments SET value_wei = value_wei + 1 WHERE status = 'rejected'`); err != nil {
		t.Fatal(err)
	}
	var changed struct {
		Block int64  `db:"block_number"`
		Tx    string `db:"tx_hash"`
	}
	if err := db.DB().Get(&changed, `SELECT block_number, tx_hash FROM payments WHERE status = 'rejected'`); err != nil {
		t.Fatal(err)
	}
	err = run(ctx, []string{"verify"}, observe, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "1 differences, the first at block "+strconv.FormatInt(changed.Block, 10)) ||
		!strings.Contains(err.Error(), "payment "+changed.Tx+"/0/-:") || !strings.Contains(err.Error(), `"amount": "100000000000000002"`) {
		t.Fatalf("verify of a changed amount: %v", err)
	}
}
