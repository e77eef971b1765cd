package jobs

import (
	"bytes"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"nodeledger/chain"
	"nodeledger/chain/bindings"
	"nodeledger/chain/devchain"
)

var forwarderABI = bindings.NewForwarder()

// deployForwarder deploys a minimal contract wallet from buyer 0.
func (e *env) deployForwarder() common.Address {
	return e.deploy("the forwarder", bindings.ForwarderMetaData.Bin)
}

// deploy deploys the contract of bytecode bin (what, for a failure) from buyer 0.
func (e *env) deploy(what, bin string) common.Address {
	e.t.Helper()
	r, err := e.c.NewSender(chain.LocalSigner(e.dc.Buyers[0].Key), e.dc.ChainID()).Transact(e.t.Context(), nil, common.FromHex(bin), nil)
	if err != nil || r.Status != types.ReceiptStatusSuccessful {
		e.t.Fatalf("deploying %s: %v", what, err)
	}
	return r.ContractAddress
}

func TestPaymentsFromContractWallets(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	wallet := e.deployForwarder()
	payTo := e.dc.Payments
	e.sendValue(e.dc.Buyers[0].Key, wallet, forwarderABI.PackPay(payTo), priceOne)
	e.sendValue(e.dc.Buyers[0].Key, wallet, forwarderABI.PackPayTwice(payTo), new(big.Int).Mul(priceOne, big.NewInt(2)))
	// Transfers a revert undid are no payments.
	if r := e.send(e.dc.Buyers[0].Key, wallet, forwarderABI.PackPayThenRevert(payTo), 200_000); r.Status != types.ReceiptStatusFailed {
		t.Fatal("payThenRevert did not revert")
	}
	e.sendValue(e.dc.Buyers[0].Key, wallet, forwarderABI.PackPayInFailedCall(payTo), priceOne)

	sum := mustPass(t, e.j)
	if sum.Seen != 3 || sum.Minted != 3 || sum.Rejected != 0 {
		t.Fatalf("summary %+v", sum)
	}
	if got := e.j.InternalTransfers(); got != "traced" {
		t.Fatalf("InternalTransfers %q", got)
	}
	// The contract wallet paid, so it owns the nodes.
	e.checkNodes(wallet, 3)
	refs := map[string]bool{}
	for _, p := range payments(t, e.db, "minted") {
		if p.From != strings.ToLower(wallet.Hex()) || p.CallIndex < 1 || refs[p.PaymentRef] {
			t.Fatalf("payment %+v", p)
		}
		refs[p.PaymentRef] = true
	}
	if again := mustPass(t, e.restart()); again.Seen != 0 || again.Minted != 0 {
		t.Fatalf("second pass: %+v", again)
	}
}

// noTraceProxy serves the dev chain's JSON-RPC but refuses debug_* methods, as many providers do.
func noTraceProxy(t *testing.T, upstream string) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if bytes.Contains(body, []byte(`"debug_`)) {
			var reqs []struct {
				ID json.RawMessage `json:"id"`
			}
			json.Unmarshal(body, &reqs)
			var out []map[string]any
			for _, q := range reqs {
				out = append(out, map[string]any{"jsonrpc": "2.0", "id": q.ID,
					"error": map[string]any{"code": -32601, "message": "the method debug_traceBlockByNumber does not exist/is not available"}})
			}
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(out)
			return
		}
		resp, err := http.Post(upstream, "application/json", bytes.NewReader(body))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		w.Header().Set("Content-Type", "application/json")
		io.Copy(w, resp.Body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// On an RPC that cannot trace, top-level payments still mint, and ETH a contract wallet sent is
// recorded as an unattributed inflow of its exact amount, for the operator, until a reorg takes
// its block away.
func TestPaymentsWithoutTracing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	dc, err := devchain.Start(t.Context(), devchain.Options{RPCAddr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dc.Close() })
	c, err := chain.Dial(t.Context(), noTraceProxy(t, dc.RPCURL()), chain.Config{Factory: dc.Factory})
	if err != nil {
		t.Fatal(err)
	}
	e.dc, e.c = dc, c
	e.cfg.ChainID, e.cfg.PaymentAddress = dc.ChainID(), dc.Payments
	j := e.restart()

	wallet := e.deployForwarder()
	e.pay(0, dc.Payments, priceOne)
	if sum := mustPass(t, j); sum.Minted != 1 || sum.Unattributed != 0 {
		t.Fatalf("top-level payments must still mint: %+v", sum)
	}
	if got := j.InternalTransfers(); got != "not needed" {
		t.Fatalf("InternalTransfers %q before any block needed a trace", got)
	}

	paid := e.sendValue(dc.Buyers[0].Key, wallet, forwarderABI.PackPay(dc.Payments), priceOne)
	if sum := mustPass(t, j); sum.Seen != 0 || sum.Unattributed != 1 {
		t.Fatalf("summary %+v: want the contract wallet's payment unattributed", sum)
	}
	if got := j.InternalTransfers(); got != "unsupported" {
		t.Fatalf("InternalTransfers %q, want the gap said", got)
	}
	in, err := e.db.UnattributedInflows(t.Context(), 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(in) != 1 || in[0].BlockNumber != paid.BlockNumber.Int64() || in[0].BlockHash != hexLower(paid.BlockHash) ||
		in[0].AmountWei.Cmp(priceOne) != 0 {
		t.Fatalf("unattributed inflows %+v, want %s wei in block %d", in, priceOne, paid.BlockNumber)
	}
	if again := mustPass(t, e.restart()); again.Unattributed != 0 {
		t.Fatalf("second pass: %+v", again)
	}

	t.Run("a reorg forgets it with its block", func(t *testing.T) {
		// The ledger remembers other blocks from the inflow's on, as if they had been replaced:
		// the scan rewinds to the block before and reads the chain's blocks again. The inflow
		// recorded anew carries the chain's hash, not the one it was stored with.
		fake := "0x" + strings.Repeat("ab", 32)
		mustExec(t, e.db, `UPDATE scanned_blocks SET hash = $1 WHERE number >= $2`, fake, paid.BlockNumber.Int64())
		mustExec(t, e.db, `UPDATE chain_cursors SET block_hash = $1 WHERE name = 'payments'`, fake)
		mustExec(t, e.db, `UPDATE unattributed_inflows SET block_hash = $1`, fake)
		if sum := mustPass(t, e.restart()); sum.Rewound == 0 || sum.Unattributed != 1 {
			t.Fatalf("summary %+v: want a rewind and the inflow read again", sum)
		}
		in, err := e.db.UnattributedInflows(t.Context(), 10)
		if err != nil || len(in) != 1 || in[0].BlockHash != hexLower(paid.BlockHash) {
			t.Fatalf("after the rewind: %+v, %v", in, err)
		}
	})
}
