package contracts_test

import (
	"fmt"
	"math/big"
	"slices"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/node"

	"nodeledger/chain/bindings"
)

// The values of NodeFactory.Skip.
const (
	skipZeroAddress    uint8 = 1
	skipPaymentRefUsed uint8 = 2
	skipWalletFull     uint8 = 3
)

type order = bindings.NodeFactoryMintOrder

// mintBatch sends orders from the minter and returns the NodeMinted and MintSkipped events of its
// receipt, in log order, with the receipt.
func (c *chain) mintBatch(t testing.TB, orders []order) ([]*bindings.NodeFactoryNodeMinted, []*bindings.NodeFactoryMintSkipped, *types.Receipt) {
	t.Helper()
	r := c.transact(t, c.minter, &c.factory, nil, nf.PackMintBatch(orders))
	return events(t, c, r, nf.UnpackNodeMintedEvent), events(t, c, r, nf.UnpackMintSkippedEvent), r
}

func TestMintBatch(t *testing.T) {
	t.Parallel()
	t.Run("mintBatch mints each order as mint does, ids in order", func(t *testing.T) {
		c := newChain(t, setup{users: 2})
		a, b := c.users[0].addr, c.users[1].addr
		c.mint(t, a, 1, ref("before"))
		orders := []order{{To: a, Tier: 1, PaymentRef: ref("1")}, {To: b, Tier: 3, PaymentRef: ref("2")}, {To: a, Tier: 2, PaymentRef: ref("3")}}
		// What it returns, read as a call before it is sent.
		out, err := c.call(t, c.minter, &c.factory, nil, nf.PackMintBatch(orders))
		if err != nil {
			t.Fatal(err)
		}
		ret, err := nf.UnpackMintBatch(out)
		if err != nil || ret.FirstId.Uint64() != 2 || ret.Minted.Uint64() != 3 {
			t.Fatalf("mintBatch returns %+v, %v; want first id 2, 3 minted", ret, err)
		}
		minted, skipped, _ := c.mintBatch(t, orders)
		if len(skipped) != 0 || len(minted) != 3 {
			t.Fatalf("%d minted, %d skipped; want 3 and 0", len(minted), len(skipped))
		}
		for i, o := range orders {
			ev := minted[i]
			if ev.Id.Uint64() != uint64(i+2) || ev.Owner != o.To || ev.Tier != o.Tier || ev.PaymentRef != o.PaymentRef {
				t.Errorf("NodeMinted %d = %+v, want id %d for %+v", i, ev, i+2, o)
			}
			c.wantNode(t, uint64(i+2), o.To, o.Tier, u(0), u(0))
			if !c.paymentRefUsed(t, o.PaymentRef) {
				t.Errorf("order %d's payment reference is not used", i)
			}
		}
		if n := c.nodeCount(t); n != 4 {
			t.Fatalf("nodeCount = %d, want 4", n)
		}
		if got := c.nodesOf(t, a); !slices.Equal(got, []uint64{1, 2, 4}) {
			t.Fatalf("nodesOf(a) = %v, want [1 2 4]", got)
		}
		// The tiers count their nodes as mints do: a round credits each of them.
		for tier, want := range map[uint8]uint64{1: 2, 2: 1, 3: 1} {
			if got := c.tier(t, tier).Nodes; got != want {
				t.Errorf("tier %d has %d nodes, want %d", tier, got, want)
			}
		}
		c.distribute(t, 1, fixedMode, milli(10), []uint32{0, 10_000, 10_000, 10_000}, milli(40))
		for id := uint64(1); id <= 4; id++ {
			wantBig(t, "credited", c.nodeInfo(t, id).Credited, milli(10))
		}
		c.wantSolvent(t)
	})

	t.Run("an order mint would refuse is skipped with why, the others minted", func(t *testing.T) {
		c := newChain(t, setup{users: 3, maxPerWallet: 2})
		a, b, full := c.users[0].addr, c.users[1].addr, c.users[2].addr
		c.mint(t, a, 1, ref("used"))
		c.mint(t, full, 1, ref("f1"))
		c.mint(t, full, 1, ref("f2"))
		orders := []order{
			{To: b, Tier: 1, PaymentRef: ref("used")},    // minted before
			{To: b, Tier: 1, PaymentRef: ref("new")},     // minted
			{To: a, Tier: 2, PaymentRef: ref("new")},     // used earlier in this batch
			{To: full, Tier: 1, PaymentRef: ref("full")}, // a wallet at its limit
			{To: common.Address{}, Tier: 1, PaymentRef: ref("zero")},
			{To: a, Tier: 2, PaymentRef: ref("a2")}, // a's second: minted
			{To: a, Tier: 2, PaymentRef: ref("a3")}, // a's third, over the limit its second reached in this batch
		}
		minted, skipped, r := c.mintBatch(t, orders)
		if r.Status != types.ReceiptStatusSuccessful {
			t.Fatal("the batch reverted")
		}
		if len(minted) != 2 || minted[0].PaymentRef != ref("new") || minted[0].Owner != b || minted[0].Id.Uint64() != 4 ||
			minted[1].PaymentRef != ref("a2") || minted[1].Owner != a || minted[1].Id.Uint64() != 5 {
			t.Fatalf("minted %+v, want ids 4 (b, new) and 5 (a, a2)", minted)
		}
		want := []struct {
			ref   [32]byte
			owner common.Address
			why   uint8
		}{{ref("used"), b, skipPaymentRefUsed}, {ref("new"), a, skipPaymentRefUsed}, {ref("full"), full, skipWalletFull},
			{ref("zero"), common.Address{}, skipZeroAddress}, {ref("a3"), a, skipWalletFull}}
		if len(skipped) != len(want) {
			t.Fatalf("%d skipped, want %d", len(skipped), len(want))
		}
		for i, w := range want {
			if s := skipped[i]; s.PaymentRef != w.ref || s.Owner != w.owner || s.Reason != w.why {
				t.Errorf("MintSkipped %d = %+v, want ref %x owner %s reason %d", i, s, w.ref, w.owner, w.why)
			}
		}
		// A skipped order's reference stays free: another mint may use it.
		for _, r := range [][32]byte{ref("full"), ref("zero"), ref("a3")} {
			if c.paymentRefUsed(t, r) {
				t.Errorf("skipped reference %x is used", r)
			}
		}
		if n := c.nodeCount(t); n != 5 {
			t.Fatalf("nodeCount = %d, want 5", n)
		}
		// A batch of nothing but refusals mints nothing and still succeeds.
		minted, skipped, _ = c.mintBatch(t, []order{{To: a, Tier: 1, PaymentRef: ref("used")}})
		if len(minted) != 0 || len(skipped) != 1 || c.nodeCount(t) != 5 {
			t.Fatalf("a batch of a used reference: %d minted, %d skipped, nodeCount %d", len(minted), len(skipped), c.nodeCount(t))
		}
	})

	t.Run("mintBatch is the minter's, and paused with mint", func(t *testing.T) {
		c := newChain(t, setup{users: 1})
		orders := []order{{To: c.users[0].addr, Tier: 1, PaymentRef: ref("p")}}
		c.unchanged(t, func() {
			for _, from := range []*account{c.owner, c.distributor, c.users[0]} {
				c.expectRevert(t, from, &c.factory, nil, nf.PackMintBatch(orders), "NotMinter")
			}
		})
		c.transact(t, c.owner, &c.factory, nil, nf.PackSetPaused(true))
		c.unchanged(t, func() {
			c.expectRevert(t, c.minter, &c.factory, nil, nf.PackMintBatch(orders), "MintingPaused")
		})
	})
}

// TestMintBatchGas holds a node minted in a batch of 50 to at most 0.75 × the gas of one mint in
// a transaction of its own, on the mainnet schedule, the whole transactions counted, for the
// sale's usual node (a wallet's first, of a tier already open) and for a wallet's later node;
// run with -v for the figures.
func TestMintBatchGas(t *testing.T) {
	t.Parallel()
	const size, bound = 50, 0.75
	c := newChain(t, setup{users: 1, maxPerWallet: 10, backendOpts: []func(*node.Config, *ethconfig.Config){osakaSchedule}})
	c.mint(t, c.users[0].addr, 1, ref("opens tier 1"))
	wallets := make([]common.Address, size+1)
	for i := range wallets {
		wallets[i] = common.BigToAddress(big.NewInt(int64(0x10000 + i)))
	}
	for _, kind := range []string{"a wallet's first node", "a wallet's later node"} {
		_, single := c.mint(t, wallets[size], 1, ref(kind+" single"))
		orders := make([]order, size)
		for i := range orders {
			orders[i] = order{To: wallets[i], Tier: 1, PaymentRef: ref(fmt.Sprintf("%s %d", kind, i))}
		}
		minted, _, r := c.mintBatch(t, orders)
		if len(minted) != size {
			t.Fatalf("%d of %d minted", len(minted), size)
		}
		per := float64(r.GasUsed) / size
		t.Logf("%s: one mint %d gas; in a batch of %d, %.0f a node (%d in all) = %.2f×", kind, single.GasUsed, size, per, r.GasUsed, per/float64(single.GasUsed))
		if per > bound*float64(single.GasUsed) {
			t.Errorf("%s: %.0f gas a node in a batch of %d, over %.2f × a single mint's %d", kind, per, size, bound, single.GasUsed)
		}
	}
}
