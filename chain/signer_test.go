package chain

import (
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"nodeledger/chain/bindings"
	"nodeledger/chain/clefdev"
	"nodeledger/chain/gethdev"
)

func TestLocalSigner(t *testing.T) {
	key, _ := crypto.GenerateKey()
	var s Signer = LocalSigner(key)
	if s.Address() != crypto.PubkeyToAddress(key.PublicKey) {
		t.Fatalf("Address = %s, want the key's", s.Address())
	}
	to := common.Address{1}
	chainID := big.NewInt(1337)
	tx := types.NewTx(&types.DynamicFeeTx{ChainID: chainID, Nonce: 7, GasTipCap: big.NewInt(1), GasFeeCap: big.NewInt(2),
		Gas: 21000, To: &to, Value: big.NewInt(3)})
	signed, err := s.SignTx(t.Context(), tx, chainID)
	if err != nil {
		t.Fatal(err)
	}
	signer := types.LatestSignerForChainID(chainID)
	if from, err := types.Sender(signer, signed); err != nil || from != s.Address() || signer.Hash(signed) != signer.Hash(tx) {
		t.Fatalf("signed by %s (%v), same transaction %v", from, err, signer.Hash(signed) == signer.Hash(tx))
	}
}

// TestClefSigner signs the minter's transactions through a real clef running the rules that
// docs/operations.md recommends: the chain sees the minter's mints, the signer refuses the rest.
func TestClefSigner(t *testing.T) {
	tc := newTestChain(t)
	ctx := t.Context()
	buyer := crypto.PubkeyToAddress(tc.buyer.PublicKey)
	url := clefdev.Start(t, tc.minterKey, tc.chainID.Int64(), clefdev.Rules(tc.c.factory))
	signer, err := DialSigner(ctx, url, tc.minter.From)
	if err != nil {
		t.Fatal(err)
	}
	defer signer.Close()
	minter := tc.c.NewSender(signer, tc.chainID)

	t.Run("a mint goes through", func(t *testing.T) {
		tc.transact(t, minter, tc.c.factory, tc.c.MintData(buyer, 1, common.Hash{1}), nil)
		if ids, err := tc.c.NodesOf(ctx, buyer); err != nil || fmt.Sprint(ids) != "[1]" {
			t.Fatalf("nodesOf: %v %v", ids, err)
		}
	})
	t.Run("a transfer to another address is refused", func(t *testing.T) {
		_, err := minter.Sign(ctx, &buyer, nil, big.NewInt(1))
		if !errors.Is(err, ErrSignerRefused) || !strings.Contains(err.Error(), "the signer refused the transaction (request denied)") {
			t.Fatalf("err = %v, want the signer's refusal", err)
		}
		// The refused transaction took no nonce: the next mint is mined.
		tc.transact(t, minter, tc.c.factory, tc.c.MintData(buyer, 1, common.Hash{2}), nil)
	})
	t.Run("a call to the factory other than mint or distribute is refused", func(t *testing.T) {
		data := tc.c.nf.PackNodeCount()
		if _, err := minter.Sign(ctx, &tc.c.factory, data, nil); !errors.Is(err, ErrSignerRefused) {
			t.Fatalf("err = %v, want the signer's refusal", err)
		}
	})
	t.Run("the nonce filler is signed", func(t *testing.T) {
		_, pending, err := tc.c.Nonces(ctx, minter.From)
		if err != nil {
			t.Fatal(err)
		}
		tx, err := minter.Fill(ctx, pending)
		if err != nil {
			t.Fatal(err)
		}
		if err := tc.c.Send(ctx, tx); err != nil {
			t.Fatal(err)
		}
		if _, err := tc.c.WaitMined(ctx, tx.Hash(), 10*time.Millisecond); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("an unreachable signer is the chain unavailable", func(t *testing.T) {
		gone := "http://" + gethdev.FreeAddr(t)
		s, err := DialSigner(ctx, gone, tc.minter.From)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		_, err = tc.c.NewSender(s, tc.chainID).Sign(ctx, &tc.c.factory, tc.c.MintData(buyer, 1, common.Hash{3}), nil)
		if !errors.Is(err, ErrUnavailable) || errors.Is(err, ErrSignerRefused) || strings.Contains(err.Error(), gone) {
			t.Fatalf("err = %v, want unavailable, without the URL", err)
		}
	})
}

// TestOperationsDocNamesTheSelectors holds docs/operations.md's clef rules and 4-byte file to the
// factory's ABI, as clefdev.Rules writes them: an operator who copies them approves exactly the
// calls the service makes (a stale distribute selector there would refuse every round).
func TestOperationsDocNamesTheSelectors(t *testing.T) {
	doc, err := os.ReadFile("../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	methods := bindings.NewNodeFactory().GetABI().Methods
	for _, name := range []string{"mint", "mintBatch", "distribute"} {
		m := methods[name]
		selector := hex.EncodeToString(m.ID)
		for _, want := range []string{`"0x` + selector + `"`, `"` + selector + `": "` + m.Sig + `"`} {
			if !strings.Contains(string(doc), want) {
				t.Errorf("docs/operations.md lacks %s for %s", want, m.Sig)
			}
		}
		if !strings.Contains(clefdev.Rules(common.Address{}), `"0x`+selector+`"`) {
			t.Errorf("clefdev.Rules lacks %s", m.Sig)
		}
	}
}
