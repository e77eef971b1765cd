package contracts_test

import (
	"bytes"
	"fmt"
	"math/big"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/node"
)

// creditBatch is the batch size the per-node credit target is set for.
const (
	creditBatch         = 500
	creditGasPerNodeMax = 10_000
)

// osakaSchedule runs the simulated chain on Osaka, the fork mainnet runs today: go-ethereum's
// dev config also switches on the unreleased Amsterdam/Bogota gas schedule (EIP-8037/8038).
func osakaSchedule(_ *node.Config, ec *ethconfig.Config) {
	cfg := *ec.Genesis.Config
	cfg.AmsterdamTime, cfg.BogotaTime = nil, nil
	ec.Genesis.Config = &cfg
}

type gasFigures struct {
	mintFirstOfTier, mintFirst, mintLater    uint64
	withdrawExisting, withdrawNew, withdraw2 uint64
	creditFirst, creditLater                 uint64 // whole transaction
}

func (g gasFigures) String() string {
	return fmt.Sprintf("mint (first node of a tier, once per tier) %d, mint (first node of a wallet) %d, mint (later node of the wallet) %d; "+
		"withdraw to the owner %d, withdraw to a new address %d, second withdraw of a node %d; "+
		"credit of %d nodes, first credit %d total = %d/node, later round %d total = %d/node",
		g.mintFirstOfTier, g.mintFirst, g.mintLater, g.withdrawExisting, g.withdrawNew, g.withdraw2,
		creditBatch, g.creditFirst, g.creditFirst/creditBatch, g.creditLater, g.creditLater/creditBatch)
}

func measureGas(t *testing.T, c *chain) gasFigures {
	var g gasFigures
	// Node 1 opens tier 1 (its accumulator slot and its place in the tier list); the wallet's
	// nodes 2 and 3 are later nodes of that tier.
	wallet := c.users[0]
	_, r := c.mint(t, c.users[1].addr, 1, ref("gas-0"))
	g.mintFirstOfTier = r.GasUsed
	_, r = c.mint(t, wallet.addr, 1, ref("gas-1"))
	g.mintFirst = r.GasUsed
	_, r = c.mint(t, wallet.addr, 1, ref("gas-2"))
	g.mintLater = r.GasUsed

	// The rest of the batch's nodes, many mints per block (a mint to a fresh wallet costs the
	// most, and the first one here tells how much).
	var txs []*types.Transaction
	for i := 3; i < creditBatch; i++ {
		to := c.users[i%len(c.users)].addr
		txs = append(txs, c.send(t, c.minter, &c.factory, nil, nf.PackMint(to, uint8(i%3+1), ref(fmt.Sprintf("gas-%d", i))), 2*g.mintFirst))
		if len(txs)%100 == 0 || i == creditBatch-1 {
			c.commit(t)
			for _, tx := range txs {
				if c.receipt(t, tx).Status != types.ReceiptStatusSuccessful {
					t.Fatalf("mint failed (gas limit %d)", 2*g.mintFirst)
				}
			}
			txs = txs[:0]
		}
	}
	if n := c.nodeCount(t); n != creditBatch {
		t.Fatalf("nodeCount %d", n)
	}

	ids := make([]uint64, creditBatch)
	amounts := make([]*big.Int, creditBatch)
	total := new(big.Int)
	round := func(k int64) {
		total.SetInt64(0)
		for i := range ids {
			ids[i] = uint64(i + 1)
			// Realistic amounts: around 0.001-0.002 ether, all different.
			amounts[i] = add(milli(1+k), big.NewInt(int64(i)*1_000_003_007))
			total.Add(total, amounts[i])
		}
	}
	round(0)
	g.creditFirst = c.credit(t, 1, ids, amounts, total).GasUsed
	round(1)
	g.creditLater = c.credit(t, 2, ids, amounts, total).GasUsed

	g.withdrawExisting = c.withdraw(t, wallet, 2, wallet.addr, milli(1)).GasUsed
	g.withdraw2 = c.withdraw(t, wallet, 2, wallet.addr, milli(1)).GasUsed
	g.withdrawNew = c.withdraw(t, wallet, 3, common.HexToAddress("0x000000000000000000000000000000000000f00d"), milli(1)).GasUsed
	c.wantSolvent(t)
	return g
}

// TestGas measures and prints the gas of mint, withdraw and credit (run with -v), and holds
// credit to at most 10,000 gas per node in a 500-node batch, first credit and later rounds,
// counting the whole transaction (intrinsic and calldata gas included).
func TestGas(t *testing.T) {
	t.Parallel()
	for _, sched := range []struct {
		name   string
		opts   []func(*node.Config, *ethconfig.Config)
		assert bool
	}{
		{"osaka (mainnet schedule)", []func(*node.Config, *ethconfig.Config){osakaSchedule}, true},
		{"simulated default (bogota: EIP-8037/8038 repricing)", nil, false},
	} {
		t.Run(sched.name, func(t *testing.T) {
			c := newChain(t, setup{users: 10, maxPerWallet: creditBatch, backendOpts: sched.opts})
			g := measureGas(t, c)
			t.Logf("gas on %s: %s", sched.name, g)
			for _, m := range []struct {
				what string
				gas  uint64
			}{{"first credit", g.creditFirst}, {"later credit", g.creditLater}} {
				perNode := m.gas / creditBatch
				if perNode > creditGasPerNodeMax {
					if sched.assert {
						t.Errorf("%s costs %d gas per node, over the %d target", m.what, perNode, creditGasPerNodeMax)
					} else {
						t.Logf("%s costs %d gas per node here, over the %d target", m.what, perNode, creditGasPerNodeMax)
					}
				}
			}
		})
	}
}

// Round gas targets: a round (distribute) costs the same at any number of nodes, within
// roundGasSpread, and at most roundGasMax, the whole transaction counted.
const (
	roundGasMax    = 100_000
	roundGasSpread = 0.05
)

// TestRoundGas measures a round in each mode at 10 to 1,000,000 nodes over three tiers, on
// the mainnet schedule, and prints one line per size and mode (run with -v). The nodes are
// counted in by BulkFactory (test/BulkFactory.sol), whose addNodes raises a tier's node count as
// mints do: a round reads nothing else of the nodes. Its ABI and bytecode are read from build/:
// abigen would declare NodeFactory's output types a second time in the bindings package.
func TestRoundGas(t *testing.T) {
	t.Parallel()
	bin, err := os.ReadFile("build/BulkFactory.bin")
	if err != nil {
		t.Fatal(err)
	}
	abiJSON, err := os.ReadFile("build/BulkFactory.abi")
	if err != nil {
		t.Fatal(err)
	}
	bulk, err := abi.JSON(bytes.NewReader(abiJSON))
	if err != nil {
		t.Fatal(err)
	}
	weights := []uint32{10_000, 20_000, 5_000} // tiers 1, 2, 3
	base, pool := add(milli(1), u(7)), add(ether(10), u(3))
	gas := map[uint8][]uint64{}
	for _, size := range []uint64{10, 10_000, 100_000, 1_000_000} {
		c := newChain(t, setup{bin: strings.TrimSpace(string(bin)), backendOpts: []func(*node.Config, *ethconfig.Config){osakaSchedule}})
		fixedTotal := new(big.Int)
		for i, w := range weights {
			tier := uint8(i + 1)
			c.setTierWeight(t, tier, w)
			n := size / 3
			if i == 0 {
				n += size % 3
			}
			data, err := bulk.Pack("addNodes", tier, n)
			if err != nil {
				t.Fatal(err)
			}
			c.transact(t, c.owner, &c.factory, nil, data)
			perNode := new(big.Int).Div(new(big.Int).Mul(base, big.NewInt(int64(w))), big.NewInt(10_000))
			fixedTotal.Add(fixedTotal, new(big.Int).Mul(perNode, u(n)))
		}
		if got := c.nodeCount(t); got != size {
			t.Fatalf("nodeCount %d, want %d", got, size)
		}
		// The first round of each mode, then the measured one.
		owed := new(big.Int)
		for i, mode := range []uint8{fixedMode, poolMode, fixedMode, poolMode} {
			amount, value := base, fixedTotal
			if mode == poolMode {
				amount, value = pool, pool
			}
			ev, r := c.distribute(t, uint64(i+1), mode, amount, value)
			if mode == fixedMode {
				wantBig(t, "fixed round total", ev.Total, fixedTotal)
			}
			owed.Add(owed, ev.Total)
			if i >= 2 {
				gas[mode] = append(gas[mode], r.GasUsed)
				t.Logf("round gas nodes=%d mode=%s gas=%d", size, map[uint8]string{fixedMode: "fixed", poolMode: "pool"}[mode], r.GasUsed)
			}
		}
		// The counted nodes have no accounts for wantSolvent to sum: check the totals.
		wantBig(t, "totalOutstanding", c.totalOutstanding(t), owed)
		if !c.isSolvent(t) {
			t.Fatal("isSolvent() = false")
		}
	}
	for mode, gs := range gas {
		lo, hi := slices.Min(gs), slices.Max(gs)
		if hi > roundGasMax {
			t.Errorf("mode %d: a round costs up to %d gas, over %d", mode, hi, roundGasMax)
		}
		if float64(hi-lo) > roundGasSpread*float64(lo) {
			t.Errorf("mode %d: round gas %v varies by more than %.0f %% with the number of nodes", mode, gs, 100*roundGasSpread)
		}
	}
}
