package web

import (
	"crypto/ecdsa"
	"log/slog"
	"math/big"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"

	"nodeledger/chain"
	"nodeledger/chain/bindings"
	"nodeledger/chain/devchain"
	"nodeledger/handlers"
	"nodeledger/jobs"
	"nodeledger/store/storetest"
)

// syncChain is a dev chain with helpers to make the transactions a sync is about.
type syncChain struct {
	t  *testing.T
	dc *devchain.Chain
	c  *chain.Client
}

// send signs a call from key and waits for it; gas 0 estimates, a fixed gas lets a revert through.
func (sc syncChain) send(key *ecdsa.PrivateKey, to common.Address, data []byte, gas uint64) *types.Receipt {
	sc.t.Helper()
	s := sc.c.NewSender(chain.LocalSigner(key), sc.dc.ChainID())
	var tx *types.Transaction
	var err error
	if gas == 0 {
		tx, err = s.Sign(sc.t.Context(), &to, data, nil)
	} else {
		var nonce hexutil.Uint64
		if err = sc.dc.RPC().CallContext(sc.t.Context(), &nonce, "eth_getTransactionCount", s.From, "pending"); err == nil {
			tx, err = types.SignNewTx(key, types.LatestSignerForChainID(sc.dc.ChainID()), &types.DynamicFeeTx{
				ChainID: sc.dc.ChainID(), Nonce: uint64(nonce), GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(100e9), Gas: gas, To: &to, Data: data})
		}
	}
	if err != nil {
		sc.t.Fatal(err)
	}
	if err := sc.c.Send(sc.t.Context(), tx); err != nil {
		sc.t.Fatal(err)
	}
	r, err := sc.c.WaitMined(sc.t.Context(), tx.Hash(), 20*time.Millisecond)
	if err != nil {
		sc.t.Fatal(err)
	}
	return r
}

func (sc syncChain) mint(to common.Address, ref byte) *types.Receipt {
	sc.t.Helper()
	return sc.send(sc.dc.Minter.Key, sc.dc.Factory, bindings.NewNodeFactory().PackMint(to, 1, common.Hash{ref}), 0)
}

func TestNodesSync(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	storetest.Tier(t, db, 1, "One", "1", true)
	dc, c := startDevChain(t)
	sc := syncChain{t: t, dc: dc, c: c}
	j := jobs.New(db, c, chain.LocalSigner(dc.Minter.Key), chain.LocalSigner(dc.Distributor.Key), jobs.Config{ChainID: dc.ChainID(), PaymentAddress: dc.Payments}, slog.New(slog.DiscardHandler))
	s := authServer(t, db, c, j, handlers.Config{})
	me, other := dc.Buyers[0], dc.Buyers[1]
	b := newBrowser(t, s, "192.0.2.140")

	t.Run("401 for a visitor", func(t *testing.T) {
		wantStatus(t, b.do(http.MethodPost, "/api/nodes/sync", map[string]string{"nodeId": "1"}), http.StatusUnauthorized)
	})
	b.signIn(me.Key)

	mine := sc.mint(me.Address, 1)      // node 1
	theirs := sc.mint(other.Address, 2) // node 2
	sync := func(body any) (int, map[string]any) {
		rec := b.do(http.MethodPost, "/api/nodes/sync", body)
		return rec.Code, decode[map[string]any](t, rec)
	}

	t.Run("by transaction hash, twice", func(t *testing.T) {
		for range 2 {
			status, body := sync(map[string]string{"txHash": mine.TxHash.Hex()})
			node, _ := body["node"].(map[string]any)
			if status != 200 || node["chainNodeId"] != "1" || node["mintTx"] != strings.ToLower(mine.TxHash.Hex()) {
				t.Fatalf("%d %v", status, body)
			}
		}
		nodes, _ := db.NodesByOwner(t.Context(), strings.ToLower(me.Address.Hex()))
		if len(nodes) != 1 {
			t.Fatalf("%d nodes recorded, want 1", len(nodes))
		}
	})
	t.Run("by node id, as a string or a number", func(t *testing.T) {
		for _, body := range []any{map[string]string{"nodeId": "1"}, map[string]int{"nodeId": 1}} {
			if status, resp := sync(body); status != 200 {
				t.Fatalf("%d %v", status, resp)
			}
		}
	})
	for name, tc := range map[string]struct {
		body   any
		status int
	}{
		"another wallet's node by id":   {map[string]string{"nodeId": "2"}, http.StatusForbidden},
		"another wallet's node by hash": {map[string]string{"txHash": theirs.TxHash.Hex()}, http.StatusForbidden},
		"a node never minted":           {map[string]string{"nodeId": "99"}, http.StatusNotFound},
		"a transaction never mined":     {map[string]string{"txHash": "0x" + strings.Repeat("ab", 32)}, http.StatusNotFound},
		"both fields":                   {map[string]string{"nodeId": "1", "txHash": mine.TxHash.Hex()}, http.StatusBadRequest},
		"neither field":                 {map[string]string{}, http.StatusBadRequest},
		"another field":                 {map[string]string{"owner": me.Address.Hex()}, http.StatusBadRequest},
		"a malformed hash":              {map[string]string{"txHash": "0x1234"}, http.StatusBadRequest},
		"a malformed id":                {map[string]string{"nodeId": "-1"}, http.StatusBadRequest},
		"an id that is an object":       {map[string]any{"nodeId": map[string]int{"x": 1}}, http.StatusBadRequest},
		"an array":                      {[]string{"1"}, http.StatusBadRequest},
	} {
		t.Run(name, func(t *testing.T) {
			if status, body := sync(tc.body); status != tc.status {
				t.Fatalf("status %d, want %d: %v", status, tc.status, body)
			}
		})
	}
	t.Run("400 for a transaction that failed on chain", func(t *testing.T) {
		// A mint that reverts: the buyer is not the minter.
		r := sc.send(me.Key, dc.Factory, bindings.NewNodeFactory().PackMint(me.Address, 1, common.Hash{9}), 300_000)
		if status, body := sync(map[string]string{"txHash": r.TxHash.Hex()}); status != http.StatusBadRequest || !strings.Contains(body["error"].(string), "failed") {
			t.Fatalf("%d %v", status, body)
		}
	})
	t.Run("400 for a transaction that minted no node", func(t *testing.T) {
		r := sc.send(me.Key, dc.Payments, nil, 0)
		if status, body := sync(map[string]string{"txHash": r.TxHash.Hex()}); status != http.StatusBadRequest || !strings.Contains(body["error"].(string), "without minting") {
			t.Fatalf("%d %v", status, body)
		}
	})
	t.Run("409 for a node transferred away between mint and sync, nothing recorded", func(t *testing.T) {
		r := sc.mint(me.Address, 3) // node 3
		sc.send(me.Key, dc.Factory, bindings.NewNodeFactory().PackTransfer(big.NewInt(3), other.Address), 0)
		status, body := sync(map[string]string{"txHash": r.TxHash.Hex()})
		if status != http.StatusConflict {
			t.Fatalf("%d %v", status, body)
		}
		if _, err := db.NodeByChainID(t.Context(), big.NewInt(3)); err == nil {
			t.Fatal("a 409 recorded the node")
		}
	})
}
