package chain

import (
	"math/big"
	"slices"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"nodeledger/chain/bindings"
)

// TestSanctioned: the oracle is read at a block, so an address listed then and delisted later
// still reads listed at the first block; an oracle not deployed yet is an error, not "clear".
func TestSanctioned(t *testing.T) {
	t.Parallel()
	tc := newTestChain(t)
	ctx := t.Context()
	before, err := tc.c.HeadNumber(ctx)
	if err != nil {
		t.Fatal(err)
	}
	r, err := tc.owner.Transact(ctx, nil, common.FromHex(bindings.SanctionsListMetaData.Bin), nil)
	if err != nil || r.Status != 1 {
		t.Fatalf("deploying the oracle: %v", err)
	}
	oracle := r.ContractAddress
	listed, clear := crypto.PubkeyToAddress(tc.buyer.PublicKey), tc.minter.From
	added := tc.transact(t, tc.owner, oracle, sanctions.PackAddToSanctionsList([]common.Address{listed}), nil).BlockNumber.Uint64()
	removed := tc.transact(t, tc.owner, oracle, sanctions.PackRemoveFromSanctionsList([]common.Address{listed}), nil).BlockNumber.Uint64()

	for _, c := range []struct {
		block uint64
		want  []bool
	}{{added, []bool{true, false}}, {removed, []bool{false, false}}, {added - 1, []bool{false, false}}} {
		got, err := tc.c.Sanctioned(ctx, oracle, new(big.Int).SetUint64(c.block), []common.Address{listed, clear})
		if err != nil {
			t.Fatalf("block %d: %v", c.block, err)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("block %d: listed %v, want %v", c.block, got, c.want)
		}
	}
	if _, err := tc.c.Sanctioned(ctx, oracle, new(big.Int).SetUint64(before), []common.Address{listed}); err == nil {
		t.Error("an oracle not deployed yet read as an answer")
	}
	// Only its owner lists: a stranger's call reverts (refused at its gas estimate, or mined
	// failed) and lists nobody.
	stranger := tc.c.NewSender(LocalSigner(tc.buyer), tc.chainID)
	if r, err := stranger.Transact(ctx, &oracle, sanctions.PackAddToSanctionsList([]common.Address{clear}), nil); err == nil && r.Status == 1 {
		t.Fatal("a stranger's addToSanctionsList succeeded")
	}
	if got, err := tc.c.Sanctioned(ctx, oracle, nil, []common.Address{clear}); err != nil || got[0] {
		t.Errorf("after a stranger's call: listed %v, %v", got, err)
	}
}
