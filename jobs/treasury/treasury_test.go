package treasury

import (
	"errors"
	"log/slog"
	"math/big"
	"os"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/params"

	"nodeledger/chain"
	"nodeledger/chain/bindings"
	"nodeledger/chain/devchain"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

// TestProposeRefuses: a batch the treasury cannot pay is never proposed, and says why in values
// its caller writes as a sentence: the treasury holds less than it pays; the chain refuses every
// transfer (a payee that reverts on taking ETH); one transfer alone is past the batch's gas cap.
// Nothing is written to the ledger.
func TestProposeRefuses(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	dc, err := devchain.Start(ctx, devchain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer dc.Close()
	c := chain.New(dc.RPC(), chain.Config{Factory: dc.Factory})
	db := storetest.New(t)
	treasury := func(maxGas uint64) *Treasury {
		return New(db, c, Config{ChainID: dc.ChainID().Int64(), Safe: dc.Treasury, MultiSend: dc.MultiSend, BatchMaxGas: maxGas},
			slog.New(slog.DiscardHandler))
	}
	sender := c.NewSender(chain.LocalSigner(dc.Buyers[5].Key), dc.ChainID())
	eth := big.NewInt(params.Ether)
	refund := func(to common.Address) Item {
		return Item{Payout: chain.Payout{To: to, Value: eth}, Payment: 1, PaymentTx: "0x01"}
	}
	propose := func(tr *Treasury, items ...Item) error {
		_, err := tr.Propose(ctx, store.AuditEntry{Action: store.ActionBatchPropose}, store.BatchRefunds, items, "test",
			func(store.TreasuryBatch) store.AuditOutcome {
				return store.AuditOutcome{Code: store.OutcomeBatchProposed}
			})
		return err
	}

	var uncovered *UncoveredError
	if err := propose(treasury(0), refund(dc.Buyers[0].Address)); !errors.As(err, &uncovered) ||
		uncovered.Token != nil || uncovered.Held.Sign() != 0 || uncovered.Want.Cmp(eth) != 0 {
		t.Fatalf("an empty treasury: %v, want what it holds (0) and what the batch pays (1 ETH)", err)
	}

	if r, err := sender.Transact(ctx, &dc.Treasury, nil, new(big.Int).Mul(eth, big.NewInt(5))); err != nil || r.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("funding the treasury: %v", err)
	}
	deployed, err := sender.Transact(ctx, nil, common.FromHex(bindings.RejecterMetaData.Bin), nil)
	if err != nil || deployed.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("deploying the rejecter: %v", err)
	}
	var nothing *NothingPayableError
	if err := propose(treasury(0), refund(deployed.ContractAddress)); !errors.As(err, &nothing) || len(nothing.LeftOut) != 1 ||
		nothing.LeftOut[0].Payment != "0x01" || nothing.LeftOut[0].ChainSays == "" {
		t.Fatalf("a payee that refuses ETH: %v, want it left out with what the chain said", err)
	}

	var tooLarge *TooLargeError
	if err := propose(treasury(100_000), refund(dc.Buyers[0].Address)); !errors.As(err, &tooLarge) || tooLarge.Limit != 100_000 ||
		tooLarge.Gas <= tooLarge.Limit {
		t.Fatalf("a cap below one transfer: %v, want the transfer's gas and the cap", err)
	}

	if n, err := db.TreasuryBatches(ctx, 10); err != nil || len(n) != 0 {
		t.Fatalf("batches in the ledger: %v, %v; want none", n, err)
	}
}
