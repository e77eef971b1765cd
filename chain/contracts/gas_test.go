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
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/node"
)

// osakaSchedule runs the simulated chain on Osaka, the fork mainnet runs today: go-ethereum's
// dev config also switches on the unreleased Amsterdam/Bogota gas schedule (EIP-8037/8038).
func osakaSchedule(_ *node.Config, ec *ethconfig.Config) {
	cfg := *ec.Genesis.Config
	cfg.AmsterdamTime, cfg.BogotaTime = nil, nil
	ec.Genesis.Config = &cfg
}

// gasFigure is one measured transaction: its gas, the whole transaction counted, and the most
// it may cost on the mainnet schedule, a few thousand gas above what it costs there, so that one
// more storage slot written from zero (20,000 gas) breaks the bound.
type gasFigure struct {
	what     string
	gas, max uint64
}

func measureGas(t *testing.T, c *chain) []gasFigure {
	wallet := c.users[0]
	mint := func(to common.Address, paymentRef string) uint64 {
		_, r := c.mint(t, to, 1, ref(paymentRef))
		return r.GasUsed
	}
	// Node 1 opens tier 1 (its accumulator slot and its place in the tier list); the wallet's
	// nodes 2 and 3 are later nodes of that tier.
	figures := []gasFigure{
		{"mint (first node of a tier, once per tier)", mint(c.users[1].addr, "gas-0"), 175_000},
		{"mint (first node of a wallet)", mint(wallet.addr, "gas-1"), 135_000},
		{"mint (later node of the wallet)", mint(wallet.addr, "gas-2"), 120_000},
	}
	c.distribute(t, 1, fixedMode, milli(10), []uint32{0, 10_000}, milli(30))
	withdraw := func(id uint64, to common.Address) uint64 {
		return c.withdraw(t, wallet, id, to, milli(1)).GasUsed
	}
	// A node's first withdrawal writes its withdrawn total's slot from zero; later ones rewrite it.
	figures = append(figures,
		gasFigure{"withdraw (a node's first, to its owner)", withdraw(2, wallet.addr), 72_000},
		gasFigure{"withdraw (a node's later one, to its owner)", withdraw(2, wallet.addr), 55_000},
		gasFigure{"withdraw (a node's first, to a new address)", withdraw(3, common.HexToAddress("0x000000000000000000000000000000000000f00d")), 100_000},
	)
	c.wantSolvent(t)
	return figures
}

// TestGas measures and prints the gas of mint and withdraw (run with -v), and holds each to its
// bound on the mainnet schedule.
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
			c := newChain(t, setup{users: 2, backendOpts: sched.opts})
			figures := measureGas(t, c)
			var line []string
			for _, g := range figures {
				line = append(line, fmt.Sprintf("%s %d", g.what, g.gas))
			}
			t.Logf("gas on %s: %s", sched.name, strings.Join(line, ", "))
			for _, g := range figures {
				if sched.assert && g.gas > g.max {
					t.Errorf("%s costs %d gas, over %d", g.what, g.gas, g.max)
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
	weights := []uint32{0, 10_000, 20_000, 5_000} // tiers 1, 2, 3
	base, pool := add(milli(1), u(7)), add(ether(10), u(3))
	gas := map[uint8][]uint64{}
	for _, size := range []uint64{10, 10_000, 100_000, 1_000_000} {
		c := newChain(t, setup{bin: strings.TrimSpace(string(bin)), backendOpts: []func(*node.Config, *ethconfig.Config){osakaSchedule}})
		fixedTotal := new(big.Int)
		for tier := uint8(1); tier <= 3; tier++ {
			w := weights[tier]
			n := size / 3
			if tier == 1 {
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
			ev, r := c.distribute(t, uint64(i+1), mode, amount, weights, value)
			if mode == fixedMode {
				wantBig(t, "fixed round total", ev.Total, fixedTotal)
			}
			owed.Add(owed, ev.Total)
			if i >= 2 {
				gas[mode] = append(gas[mode], r.GasUsed)
				t.Logf("round gas mode=%s nodes=%d gas=%d", map[uint8]string{fixedMode: "fixed", poolMode: "pool"}[mode], size, r.GasUsed)
			}
		}
		// The counted nodes have no owner or tier of their own for wantSolvent to sum, and there
		// are up to a million: check the totals.
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
