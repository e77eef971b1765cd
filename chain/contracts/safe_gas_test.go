package contracts_test

import (
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/node"

	ledger "nodeledger/chain"
	"nodeledger/chain/bindings"
)

// batchGasMax is the most a refund in a treasury batch of 100 may cost, as a fraction of a
// refund sent alone from the payments wallet (21,000 gas): the batch exists to pay less.
const batchGasMax = 0.75

// TestRefundBatchGas measures, on the mainnet schedule, a treasury Safe (1.4.1, two owners of
// two) paying 1, 10 and 100 refunds in one execTransaction each, against as many plain transfers,
// and prints the figures (run with -v). The payers have paid before, so their accounts exist,
// as a refund's payer's does.
func TestRefundBatchGas(t *testing.T) {
	t.Parallel()
	c := newChain(t, setup{users: 2, backendOpts: []func(*node.Config, *ethconfig.Config){osakaSchedule}})
	owners := c.users
	singleton, _ := c.deploy(t, c.owner, bindings.SafeMetaData.Bin, nil)
	proxies, _ := c.deploy(t, c.owner, bindings.SafeProxyFactoryMetaData.Bin, nil)
	multiSend, _ := c.deploy(t, c.owner, bindings.MultiSendCallOnlyMetaData.Bin, nil)
	handler, _ := c.deploy(t, c.owner, bindings.CompatibilityFallbackHandlerMetaData.Bin, nil)
	setupData := bindings.NewSafe().PackSetup([]common.Address{owners[0].addr, owners[1].addr}, big.NewInt(2), common.Address{}, nil,
		handler, common.Address{}, new(big.Int), common.Address{})
	pf := bindings.NewSafeProxyFactory()
	create := pf.PackCreateProxyWithNonce(singleton, setupData, new(big.Int))
	out, err := c.call(t, c.owner, &proxies, nil, create)
	if err != nil {
		t.Fatal(err)
	}
	treasury, err := pf.UnpackCreateProxyWithNonce(out)
	if err != nil {
		t.Fatal(err)
	}
	c.transact(t, c.owner, &proxies, nil, create)
	c.transact(t, c.owner, &treasury, ether(1_000), nil)

	// The first execution writes the Safe's nonce from zero (20,000 gas more than later ones):
	// a warm-up of 1 refund takes it, and the figures are those of a treasury in use.
	var lines []string
	for i, n := range []int{1, 1, 10, 100} {
		payouts := make([]ledger.Payout, n)
		singles := uint64(0)
		for j := range payouts {
			payouts[j] = ledger.Payout{To: newAccount(t).addr, Value: milli(10)}
			singles += c.transact(t, c.owner, &payouts[j].To, big.NewInt(1), nil).GasUsed // the payer's account exists
		}
		tx := ledger.Batch(multiSend, big.NewInt(int64(i)), payouts)
		hash := tx.Hash(c.chainID, treasury)
		sigs := map[common.Address][]byte{}
		for _, o := range owners {
			sig, err := crypto.Sign(hash[:], o.key)
			if err != nil {
				t.Fatal(err)
			}
			sig[64] += 27
			sigs[o.addr] = sig
		}
		r := c.transact(t, owners[0], &treasury, nil, ledger.ExecData(tx, sigs))
		for _, p := range payouts {
			if got, err := c.client.BalanceAt(t.Context(), p.To, nil); err != nil || got.Cmp(add(milli(10), big.NewInt(1))) != 0 {
				t.Fatalf("payer %s holds %v (%v) after the batch", p.To, got, err)
			}
		}
		if i == 0 {
			continue
		}
		per := float64(r.GasUsed) / float64(n)
		lines = append(lines, fmt.Sprintf("%d refunds: batch %d gas (%.0f a refund, %.2f× a transfer), %d single transfers %d gas",
			n, r.GasUsed, per, per/21_000, n, singles))
		if n == 100 && per > batchGasMax*21_000 {
			t.Errorf("a refund in a batch of 100 costs %.0f gas, over %.0f (%.2f × a plain transfer)", per, batchGasMax*21_000, batchGasMax)
		}
	}
	t.Logf("refund batch gas on the mainnet schedule: %s", strings.Join(lines, "; "))
}
