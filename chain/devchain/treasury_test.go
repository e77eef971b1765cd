package devchain

import (
	"bytes"
	"errors"
	"math/big"
	"slices"
	"sort"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"

	"nodeledger/chain"
	"nodeledger/chain/bindings"
)

// TestTreasury: the dev chain's treasury is a real Safe 1.4.1 that chain reads; chain's hash of a
// Safe transaction is the Safe's own; and a transfer that two owners sign (EIP-712, 65-byte
// signatures in owner order) goes through execTransaction, while one signature, or a stranger's,
// does not.
func TestTreasury(t *testing.T) {
	ctx := t.Context()
	dc := startChain(t, ctx, freeAddr(t))
	c, err := chain.Dial(ctx, dc.RPCURL(), chain.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	s, err := c.Safe(ctx, dc.Treasury)
	if err != nil {
		t.Fatal(err)
	}
	var owners []common.Address
	for _, i := range TreasuryOwnerIndexes {
		owners = append(owners, dc.Accounts[i].Address)
	}
	if !sameAddresses(s.Owners, owners) || s.Threshold != TreasuryThreshold || s.Nonce.Sign() != 0 {
		t.Fatalf("treasury %+v, want owners %v, threshold %d, nonce 0", s, owners, TreasuryThreshold)
	}
	for name, addr := range map[string]common.Address{"the factory": dc.Factory, "an account": dc.Payments} {
		if _, err := c.Safe(ctx, addr); !errors.Is(err, chain.ErrNotASafe) {
			t.Errorf("%s read as a Safe: %v", name, err)
		}
	}

	// Fund the treasury, then have it pay a buyer 1 ETH.
	payee := dc.Buyers[0].Address
	send(t, dc, dc.Owner, &dc.Treasury, nil, big.NewInt(3*params.Ether))
	tx := chain.SafeTx{To: payee, Value: big.NewInt(params.Ether), Nonce: s.Nonce}
	hash := tx.Hash(dc.chainID, dc.Treasury)
	safe := bindings.NewSafe()
	out := call(t, dc, dc.Treasury, safe.PackGetTransactionHash(tx.To, tx.Value, tx.Data, tx.Operation, big.NewInt(0), big.NewInt(0),
		big.NewInt(0), common.Address{}, common.Address{}, tx.Nonce))
	if onChain, err := safe.UnpackGetTransactionHash(out); err != nil || common.Hash(onChain) != hash {
		t.Fatalf("the Safe's hash %x (%v), chain's %s", onChain, err, hash)
	}

	exec := func(signers ...Account) *types.Receipt {
		t.Helper()
		data := safe.PackExecTransaction(tx.To, tx.Value, tx.Data, tx.Operation, new(big.Int), new(big.Int), new(big.Int),
			common.Address{}, common.Address{}, signatures(t, hash, signers))
		return send(t, dc, dc.Buyers[1], &dc.Treasury, data, nil) // anyone may execute
	}
	before := balance(t, dc, payee)
	if r := exec(dc.Accounts[7]); r.Status == types.ReceiptStatusSuccessful {
		t.Fatal("one signature of a threshold of 2 went through")
	}
	if r := exec(dc.Accounts[7], dc.Accounts[3]); r.Status == types.ReceiptStatusSuccessful {
		t.Fatal("a stranger's signature counted")
	}
	if r := exec(dc.Accounts[8], dc.Accounts[7]); r.Status != types.ReceiptStatusSuccessful {
		t.Fatal("two owners' signatures were refused")
	}
	if got := new(big.Int).Sub(balance(t, dc, payee), before); got.Cmp(big.NewInt(params.Ether)) != 0 {
		t.Fatalf("the payee got %s wei", got)
	}
	if s, err := c.Safe(ctx, dc.Treasury); err != nil || s.Nonce.Cmp(big.NewInt(1)) != 0 {
		t.Fatalf("after one transaction: %+v, %v", s, err)
	}

	t.Run("three payouts in one batch that two owners approve", func(t *testing.T) {
		payees := []common.Address{dc.Buyers[0].Address, dc.Buyers[1].Address, dc.Buyers[2].Address}
		var payouts []chain.Payout
		before := make([]*big.Int, len(payees))
		for i, p := range payees {
			payouts = append(payouts, chain.Payout{To: p, Value: big.NewInt(int64(i+1) * params.GWei)})
			before[i] = balance(t, dc, p)
		}
		batch := chain.Batch(dc.MultiSend, big.NewInt(1), payouts)
		hash := batch.Hash(dc.chainID, dc.Treasury)
		sigs := map[common.Address][]byte{}
		for _, a := range []Account{dc.Accounts[8], dc.Owner} {
			sig := signatures(t, hash, []Account{a})
			signer, err := chain.SafeSigner(hash, sig, owners)
			if err != nil || signer != a.Address {
				t.Fatalf("an owner's signature: %s, %v", signer, err)
			}
			sigs[signer] = sig
		}
		if _, err := chain.SafeSigner(hash, signatures(t, hash, []Account{dc.Buyers[0]}), owners); !errors.Is(err, chain.ErrNotAnOwner) {
			t.Fatalf("a stranger's signature: %v", err)
		}
		r := send(t, dc, dc.Buyers[3], &dc.Treasury, chain.ExecData(batch, sigs), nil) // anyone may execute
		if r.Status != types.ReceiptStatusSuccessful {
			t.Fatal("the batch reverted")
		}
		executed := false
		for _, l := range r.Logs {
			if e, err := safe.UnpackExecutionSuccessEvent(l); err == nil && common.Hash(e.TxHash) == hash {
				executed = true
			}
		}
		if !executed {
			t.Fatal("no ExecutionSuccess of the batch's hash")
		}
		for i, p := range payees {
			if got := new(big.Int).Sub(balance(t, dc, p), before[i]); got.Cmp(payouts[i].Value) != 0 {
				t.Errorf("payee %d got %s wei, want %s", i, got, payouts[i].Value)
			}
		}
	})
}

// signatures are signers' signatures of a Safe transaction's hash as Safe 1.4.1 takes them: 65
// bytes each (r, s, v with v 27 or 28), in ascending order of the signer's address.
func signatures(t *testing.T, hash common.Hash, signers []Account) []byte {
	t.Helper()
	sorted := slices.Clone(signers)
	sort.Slice(sorted, func(i, j int) bool { return bytes.Compare(sorted[i].Address[:], sorted[j].Address[:]) < 0 })
	var out []byte
	for _, a := range sorted {
		sig, err := crypto.Sign(hash[:], a.Key)
		if err != nil {
			t.Fatal(err)
		}
		sig[64] += 27
		out = append(out, sig...)
	}
	return out
}

func sameAddresses(a, b []common.Address) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	less := func(x, y common.Address) int { return bytes.Compare(x[:], y[:]) }
	slices.SortFunc(a, less)
	slices.SortFunc(b, less)
	return slices.Equal(a, b)
}

// send signs and sends a transaction from `from`, waits for its receipt and returns it, whatever
// its status.
func send(t *testing.T, dc *Chain, from Account, to *common.Address, data []byte, value *big.Int) *types.Receipt {
	t.Helper()
	ctx := t.Context()
	nonce, err := dc.client.PendingNonceAt(ctx, from.Address)
	if err != nil {
		t.Fatal(err)
	}
	// A reverting call cannot be estimated: it gets room, and its status says what happened.
	tx, err := types.SignNewTx(from.Key, types.LatestSignerForChainID(dc.chainID), &types.DynamicFeeTx{
		ChainID: dc.chainID, Nonce: nonce, GasTipCap: big.NewInt(params.GWei), GasFeeCap: big.NewInt(100 * params.GWei),
		Gas: 500_000, To: to, Value: value, Data: data})
	if err != nil {
		t.Fatal(err)
	}
	if err := dc.client.SendTransaction(ctx, tx); err != nil {
		t.Fatal(err)
	}
	r, err := bind.WaitMined(ctx, dc.client, tx.Hash())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func call(t *testing.T, dc *Chain, to common.Address, data []byte) []byte {
	t.Helper()
	out, err := dc.client.CallContract(t.Context(), ethereum.CallMsg{To: &to, Data: data}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func balance(t *testing.T, dc *Chain, addr common.Address) *big.Int {
	t.Helper()
	b, err := dc.client.BalanceAt(t.Context(), addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
