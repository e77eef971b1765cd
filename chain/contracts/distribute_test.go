package contracts_test

import (
	"fmt"
	"testing"
)

func TestDistribute(t *testing.T) {
	t.Parallel()
	t.Run("fixed credits each node the base times its tier's weight, from the first round after its mint", func(t *testing.T) {
		c := newChain(t, setup{users: 2})
		mintN(t, c, 3) // tiers 1, 2, 3
		// 1001 * 1.5 = 1501.5: the tier's amount is rounded down, and the round pays what it
		// credits. Tier 3 is past the array's end: weight 0.
		weights := []uint32{0, 10_000, 15_000}
		ev, _ := c.distribute(t, 1, fixedMode, u(1001), weights, u(2502))
		wantBig(t, "Distributed.total", ev.Total, u(2502))
		c.wantNode(t, 1, c.users[0].addr, 1, u(1001), u(0))
		c.wantNode(t, 2, c.users[1].addr, 2, u(1501), u(0))
		c.wantNode(t, 3, c.users[0].addr, 3, u(0), u(0))
		if !c.roundUsed(t, 1) || c.roundUsed(t, 2) {
			t.Fatal("roundUsed does not match the rounds sent")
		}

		c.mint(t, c.users[1].addr, 1, ref("late")) // node 4 joins from round 2 on
		c.wantNode(t, 4, c.users[1].addr, 1, u(0), u(0))
		ev, _ = c.distribute(t, 2, fixedMode, u(1001), weights, u(3503))
		wantBig(t, "Distributed.total", ev.Total, u(3503))
		c.wantNode(t, 1, c.users[0].addr, 1, u(2002), u(0))
		c.wantNode(t, 4, c.users[1].addr, 1, u(1001), u(0))
		if got := c.tier(t, 1); got.PerNode.Cmp(u(2002)) != 0 || got.Nodes != 2 || got.WeightBps != 10_000 {
			t.Fatalf("tiers(1) = %+v", got)
		}
		if got := view(t, c, nf.PackTierList(), nf.UnpackTierList); fmt.Sprint(got) != "[3 2 1]" {
			t.Fatalf("tierList() = %v", got)
		}
		wantBig(t, "totalOutstanding", c.totalOutstanding(t), u(6005))
		c.wantSolvent(t)
	})

	t.Run("a weight applies from the round that names it and never rewrites earlier credit", func(t *testing.T) {
		c := newChain(t, setup{users: 2})
		mintN(t, c, 1)
		c.distribute(t, 1, fixedMode, u(1000), []uint32{0, 10_000}, u(1000))
		wantWeights(t, c, map[uint8]uint32{1: 10_000})
		c.distribute(t, 2, fixedMode, u(1000), []uint32{0, 30_000}, u(3000))
		c.wantNode(t, 1, c.users[0].addr, 1, u(4000), u(0))
		wantWeights(t, c, map[uint8]uint32{1: 30_000})
		// A node minted now joins at the new weight; the first keeps what the old one gave it.
		c.mint(t, c.users[1].addr, 1, ref("late"))
		c.distribute(t, 3, fixedMode, u(1000), []uint32{0, 5_000}, u(1000))
		c.wantNode(t, 1, c.users[0].addr, 1, u(4500), u(0))
		c.wantNode(t, 2, c.users[1].addr, 1, u(500), u(0))
		wantWeights(t, c, map[uint8]uint32{1: 5_000})
		c.wantSolvent(t)
	})

	t.Run("a tier missing from the array gets 0 that round; tiers past the listed ones are ignored", func(t *testing.T) {
		c := newChain(t, setup{users: 2})
		mintN(t, c, 3) // tiers 1, 2, 3
		c.distribute(t, 1, fixedMode, u(100), []uint32{0, 10_000, 20_000, 30_000}, u(600))
		wantWeights(t, c, map[uint8]uint32{1: 10_000, 2: 20_000, 3: 30_000})
		// Tiers 2 and 3 are past the end: they get nothing and their weight reads 0.
		ev, _ := c.distribute(t, 2, fixedMode, u(100), []uint32{0, 10_000}, u(100))
		wantBig(t, "Distributed.total", ev.Total, u(100))
		wantWeights(t, c, map[uint8]uint32{1: 10_000, 2: 0, 3: 0})
		// An empty array credits nothing at all.
		ev, _ = c.distribute(t, 3, fixedMode, u(100), nil, nil)
		wantBig(t, "Distributed.total", ev.Total, u(0))
		wantWeights(t, c, map[uint8]uint32{1: 0, 2: 0, 3: 0})
		// Weights for tiers without nodes, up to the last tier id, change nothing of those tiers.
		long := make([]uint32, 256)
		for i := range long {
			long[i] = 40_000
		}
		long[1], long[2], long[3] = 10_000, 10_000, 10_000
		ev, _ = c.distribute(t, 4, fixedMode, u(100), long, u(300))
		wantBig(t, "Distributed.total", ev.Total, u(300))
		wantWeights(t, c, map[uint8]uint32{0: 0, 1: 10_000, 2: 10_000, 3: 10_000, 4: 0, 255: 0})
		c.wantNode(t, 1, c.users[0].addr, 1, u(300), u(0))
		c.wantNode(t, 2, c.users[1].addr, 2, u(300), u(0))
		c.wantNode(t, 3, c.users[0].addr, 3, u(400), u(0))
		c.wantSolvent(t)
	})

	t.Run("pool splits pro rata weight over the nodes and carries the remainder to the next pool round", func(t *testing.T) {
		c := newChain(t, setup{users: 2})
		mintN(t, c, 2)
		c.mint(t, c.users[0].addr, 1, ref("third")) // weight 10000 + 20000 + 10000
		weights := []uint32{0, 10_000, 20_000}
		// 1,000,003 / 40,000 = 25 wei per unit of weight, 3 wei left over.
		ev, _ := c.distribute(t, 1, poolMode, u(1_000_003), weights, u(1_000_003))
		wantBig(t, "Distributed.total", ev.Total, u(1_000_000))
		wantBig(t, "Distributed.carry", ev.Carry, u(3))
		wantBig(t, "poolCarry", c.poolCarry(t), u(3))
		c.wantNode(t, 1, c.users[0].addr, 1, u(250_000), u(0))
		c.wantNode(t, 2, c.users[1].addr, 2, u(500_000), u(0))
		c.wantNode(t, 3, c.users[0].addr, 1, u(250_000), u(0))
		// The 3 carried make 39,997 a whole 40,000: one wei per unit, nothing left.
		ev, _ = c.distribute(t, 2, poolMode, u(39_997), weights, u(39_997))
		wantBig(t, "Distributed.total", ev.Total, u(40_000))
		wantBig(t, "Distributed.carry", ev.Carry, u(0))
		c.wantNode(t, 2, c.users[1].addr, 2, u(520_000), u(0))
		c.wantNode(t, 3, c.users[0].addr, 1, u(260_000), u(0))
		// Other weights split the next round otherwise: 30,000 units of weight now, 1 wei each.
		ev, _ = c.distribute(t, 3, poolMode, u(30_000), []uint32{0, 5_000, 20_000}, u(30_000))
		wantBig(t, "Distributed.total", ev.Total, u(30_000))
		c.wantNode(t, 1, c.users[0].addr, 1, u(265_000), u(0))
		c.wantNode(t, 2, c.users[1].addr, 2, u(540_000), u(0))
		wantBig(t, "totalOutstanding", c.totalOutstanding(t), u(1_070_000))
		wantBig(t, "contract balance", c.balance(t, c.factory), u(1_070_000))
		c.wantSolvent(t)
	})

	t.Run("a pool round with no weight credits nothing and carries the pool, owed and paid by the round that credits it", func(t *testing.T) {
		c := newChain(t, setup{users: 1})
		c.distribute(t, 1, poolMode, u(5_000), []uint32{0, 10_000}, nil) // no node at all
		mintN(t, c, 1)                                                   // tier 1
		ev, _ := c.distribute(t, 2, poolMode, u(5_000), []uint32{0, 0}, nil)
		wantBig(t, "Distributed.total", ev.Total, u(0))
		wantBig(t, "poolCarry", c.poolCarry(t), u(10_000))
		wantBig(t, "totalOutstanding", c.totalOutstanding(t), u(0))
		// The carry was never paid in: the round that credits it pays it, to the wei.
		c.setWeights(t, 0, 10_000)
		c.unchanged(t, func() {
			c.expectRevert(t, c.distributor, &c.factory, u(9_999), c.packRound(t, 3, poolMode, u(0), 1), "Insolvent")
		})
		ev, _ = c.distribute(t, 3, poolMode, u(0), []uint32{0, 10_000}, u(10_000))
		wantBig(t, "Distributed.total", ev.Total, u(10_000))
		wantBig(t, "poolCarry", c.poolCarry(t), u(0))
		c.wantNode(t, 1, c.users[0].addr, 1, u(10_000), u(0))
		c.wantSolvent(t)
	})

	t.Run("the owner withdraws and transfers what rounds credited, paused or not", func(t *testing.T) {
		c := newChain(t, setup{users: 2})
		alice, bob := c.users[0], c.users[1]
		weights := []uint32{0, 10_000}
		id, _ := c.mint(t, alice.addr, 1, ref("n"))
		c.distribute(t, 1, fixedMode, u(700), weights, u(700))
		c.distribute(t, 2, poolMode, u(300), []uint32{0, 1}, u(300)) // the one unit of weight takes the pool
		c.wantNode(t, id, alice.addr, 1, u(1000), u(0))
		c.transact(t, c.owner, &c.factory, nil, nf.PackSetPaused(true))
		c.distribute(t, 3, fixedMode, u(50), weights, u(50))
		c.expectRevert(t, alice, &c.factory, nil, nf.PackWithdraw(u(id), alice.addr, u(1051)), "InsufficientBalance")
		c.withdraw(t, alice, id, alice.addr, u(1050))
		c.wantNode(t, id, alice.addr, 1, u(1050), u(1050))
		c.distribute(t, 4, fixedMode, u(5), weights, u(5))
		c.transact(t, alice, &c.factory, nil, nf.PackTransfer(u(id), bob.addr))
		c.withdraw(t, bob, id, bob.addr, u(5))
		c.wantNode(t, id, bob.addr, 1, u(1055), u(1055))
		wantBig(t, "totalOutstanding", c.totalOutstanding(t), u(0))
		c.wantSolvent(t)
	})
}

// TestTierWeights: only the owner sets a tier's weight, within MAX_WEIGHT_BPS; each change bumps
// weightsVersion and applies from the next round on, never to what was credited.
func TestTierWeights(t *testing.T) {
	t.Parallel()
	c := newChain(t, setup{users: 2})
	mintN(t, c, 2) // tiers 1 and 2
	c.unchanged(t, func() {
		for _, from := range []*account{c.minter, c.distributor, c.users[0]} {
			c.expectRevert(t, from, &c.factory, nil, nf.PackSetTierWeight(1, 10_000), "NotOwner")
		}
		c.expectRevert(t, c.owner, &c.factory, nil, nf.PackSetTierWeight(1, 100_001), "WeightTooLarge")
	})
	if v := c.weightsVersion(t); v != 0 {
		t.Fatalf("weightsVersion %d before any change", v)
	}
	// A tier without nodes takes a weight too: its first nodes join at it.
	c.setTierWeight(t, 7, 100_000)
	c.setTierWeight(t, 1, 10_000)
	c.setTierWeight(t, 2, 20_000)
	wantWeights(t, c, map[uint8]uint32{1: 10_000, 2: 20_000, 7: 100_000})
	ev, _ := c.distribute(t, 1, fixedMode, u(100), []uint32{0, 10_000, 20_000}, u(300))
	wantBig(t, "Distributed.total", ev.Total, u(300))
	// The owner halves tier 2 after a round was priced: the round priced with version 3 is
	// refused, and the next one credits at the new weight; round 1's credit stays.
	priced := c.packRound(t, 2, fixedMode, u(100), 2)
	c.setTierWeight(t, 2, 10_000)
	c.unchanged(t, func() {
		c.expectRevert(t, c.distributor, &c.factory, u(300), priced, "WeightsChanged")
	})
	r := c.transact(t, c.distributor, &c.factory, u(200), c.packRound(t, 2, fixedMode, u(100), 2))
	wantBig(t, "Distributed.total", onlyEvent(t, c, r, nf.UnpackDistributedEvent).Total, u(200))
	c.wantNode(t, 1, c.users[0].addr, 1, u(200), u(0))
	c.wantNode(t, 2, c.users[1].addr, 2, u(300), u(0))
	if v := c.weightsVersion(t); v != 4 {
		t.Fatalf("weightsVersion %d after 4 changes", v)
	}
	c.wantSolvent(t)
}

// wantWeights asserts each tier's weight.
func wantWeights(t *testing.T, c *chain, want map[uint8]uint32) {
	t.Helper()
	for tier, w := range want {
		if got := c.tier(t, tier).WeightBps; got != w {
			t.Fatalf("tiers(%d).weightBps = %d, want %d", tier, got, w)
		}
	}
}

func TestRoundRules(t *testing.T) {
	t.Parallel()

	t.Run("distribute reverts, changing nothing, and a reverted round does not use up its id", func(t *testing.T) {
		c := newChain(t, setup{users: 1})
		mintN(t, c, 1)
		c.distribute(t, 1, fixedMode, u(10), []uint32{0, 10_000}, u(10))
		c.distribute(t, 2, poolMode, u(10), []uint32{0, 1}, u(10))
		c.setWeights(t, 0, 20_000)
		c.unchanged(t, func() {
			for _, from := range []*account{c.owner, c.minter, c.users[0]} {
				c.expectRevert(t, from, &c.factory, u(20), c.packRound(t, 3, fixedMode, u(10), 1), "NotDistributor")
			}
			// The same round again, in the other mode, with another amount, and an empty one.
			c.expectRevert(t, c.distributor, &c.factory, u(10), c.packRound(t, 1, fixedMode, u(10), 1), "RoundUsed")
			c.expectRevert(t, c.distributor, &c.factory, u(10), c.packRound(t, 1, poolMode, u(10), 1), "RoundUsed")
			c.expectRevert(t, c.distributor, &c.factory, u(40), c.packRound(t, 2, fixedMode, u(20), 1), "RoundUsed")
			c.expectRevert(t, c.distributor, &c.factory, nil, c.packRound(t, 2, fixedMode, u(0), 1), "RoundUsed")
			c.expectRevert(t, c.distributor, &c.factory, u(20), c.packRound(t, 3, fixedMode, u(10), 0), "NodeCountChanged")
			c.expectRevert(t, c.distributor, &c.factory, u(20), c.packRound(t, 3, fixedMode, u(10), 2), "NodeCountChanged")
			c.expectRevert(t, c.distributor, &c.factory, u(19), c.packRound(t, 3, fixedMode, u(10), 1), "Insolvent")
			c.expectRevert(t, c.distributor, &c.factory, nil, c.packRound(t, 3, poolMode, add(uint128, u(1)), 1), "AmountTooLarge")
			// A round priced before the owner's last weight change.
			stale := nf.PackDistribute(u(3), fixedMode, u(10), u(1), c.weightsVersion(t)-1)
			c.expectRevert(t, c.distributor, &c.factory, u(20), stale, "WeightsChanged")
		})
		if c.roundUsed(t, 3) {
			t.Fatal("a rejected round used its id")
		}
		c.wantNode(t, 1, c.users[0].addr, 1, u(20), u(0))
		c.distribute(t, 3, fixedMode, u(10), []uint32{0, 20_000}, u(20))
		wantWeights(t, c, map[uint8]uint32{1: 20_000})
		c.wantNode(t, 1, c.users[0].addr, 1, u(40), u(0))
	})

	t.Run("a round with no nodes is accepted and uses its id", func(t *testing.T) {
		c := newChain(t, setup{})
		ev, _ := c.distribute(t, 9, fixedMode, milli(1), []uint32{0, 10_000}, milli(1))
		wantBig(t, "Distributed.total", ev.Total, u(0))
		if !c.roundUsed(t, 9) {
			t.Fatal("empty round not marked used")
		}
		wantBig(t, "contract balance", c.balance(t, c.factory), milli(1))
		wantBig(t, "totalOutstanding", c.totalOutstanding(t), u(0))
	})

	t.Run("distribute reverts with Insolvent when value plus surplus falls short, by one wei", func(t *testing.T) {
		c := newChain(t, setup{users: 1})
		mintN(t, c, 2) // tiers 1 and 2
		c.distribute(t, 1, fixedMode, ether(1), []uint32{0, 10_000}, ether(1))
		c.setWeights(t, 0, 0, 10_000)
		c.unchanged(t, func() {
			// Ether already owed to node 1 is not surplus: an unpaid round cannot reuse it.
			c.expectRevert(t, c.distributor, &c.factory, nil, c.packRound(t, 2, fixedMode, milli(1), 2), "Insolvent")
		})
		c.setWeights(t, 0, 10_000, 10_000)
		c.unchanged(t, func() {
			c.expectRevert(t, c.distributor, &c.factory, sub(ether(2), u(1)), c.packRound(t, 2, fixedMode, ether(1), 2), "Insolvent")
			c.expectRevert(t, c.distributor, &c.factory, sub(ether(2), u(1)), c.packRound(t, 2, poolMode, ether(2), 2), "Insolvent")
		})
		c.fund(t, c.users[0], milli(300))
		c.setWeights(t, 0, 0, 10_000)
		c.unchanged(t, func() {
			// Surplus 0.3 plus value 0.2 covers 0.5 but not 0.5 + 1 wei.
			c.expectRevert(t, c.distributor, &c.factory, milli(200), c.packRound(t, 2, fixedMode, add(milli(500), u(1)), 2), "Insolvent")
		})
		c.distribute(t, 2, fixedMode, milli(500), []uint32{0, 0, 10_000}, milli(200))
		wantBig(t, "contract balance", c.balance(t, c.factory), c.totalOutstanding(t)) // no surplus left
		c.expectRevert(t, c.distributor, &c.factory, nil, c.packRound(t, 3, fixedMode, u(1), 2), "Insolvent")
		// Exactly covered by the value alone, in either mode.
		c.distribute(t, 3, fixedMode, u(1), []uint32{0, 0, 10_000}, u(1))
		c.distribute(t, 4, poolMode, u(2), []uint32{0, 1, 1}, u(2))
		c.wantNode(t, 1, c.users[0].addr, 1, add(ether(1), u(1)), u(0))
		c.wantNode(t, 2, c.users[0].addr, 2, add(milli(500), u(2)), u(0))
		c.wantSolvent(t)
	})

	t.Run("a round can be paid from surplus sent to receive()", func(t *testing.T) {
		c := newChain(t, setup{users: 2})
		mintN(t, c, 2)
		c.fund(t, c.users[1], ether(2))
		if !c.isSolvent(t) || c.totalOutstanding(t).Sign() != 0 {
			t.Fatal("funding changed what is owed")
		}
		c.distribute(t, 1, fixedMode, ether(1), []uint32{0, 10_000, 10_000}, nil)
		wantBig(t, "totalOutstanding", c.totalOutstanding(t), ether(2))
		c.wantSolvent(t)
	})

	t.Run("an overpaid round leaves a surplus that pays a later round", func(t *testing.T) {
		c := newChain(t, setup{users: 1})
		mintN(t, c, 1)
		c.distribute(t, 1, fixedMode, milli(100), []uint32{0, 10_000}, milli(150))
		wantBig(t, "contract balance", c.balance(t, c.factory), milli(150))
		c.distribute(t, 2, poolMode, milli(50), []uint32{0, 10_000}, nil)
		wantBig(t, "totalOutstanding", c.totalOutstanding(t), milli(150))
		c.wantNode(t, 1, c.users[0].addr, 1, milli(150), u(0))
		c.wantSolvent(t)
	})

	t.Run("distribute reverts with AmountTooLarge above a uint128 amount or a uint88 accumulator", func(t *testing.T) {
		c := newChain(t, setup{users: 1})
		mintN(t, c, 1)
		user := c.users[0]
		c.unchanged(t, func() {
			// The amount is bounded whatever it would credit.
			c.expectRevert(t, c.distributor, &c.factory, nil, c.packRound(t, 1, fixedMode, add(uint128, u(1)), 1), "AmountTooLarge")
			c.expectRevert(t, c.distributor, &c.factory, nil, c.packRound(t, 1, poolMode, add(uint128, u(1)), 1), "AmountTooLarge")
		})
		// Past what one node may be credited by rounds (uint88), however it is paid.
		c.setWeights(t, 0, 10_000)
		c.unchanged(t, func() {
			c.expectRevert(t, c.distributor, &c.factory, nil, c.packRound(t, 1, fixedMode, add(uint88, u(1)), 1), "AmountTooLarge")
		})
		c.setWeights(t, 0, 1)
		c.unchanged(t, func() {
			c.expectRevert(t, c.distributor, &c.factory, nil, c.packRound(t, 1, poolMode, add(uint88, u(1)), 1), "AmountTooLarge")
		})
		// At the maximum itself the amount is accepted (here crediting nothing).
		c.distribute(t, 1, fixedMode, uint128, []uint32{0, 0}, nil)
		// The accumulator fills up to its maximum, and then not one wei more.
		c.distribute(t, 2, fixedMode, uint88, []uint32{0, 10_000}, uint88)
		c.unchanged(t, func() {
			c.expectRevert(t, c.distributor, &c.factory, u(1), c.packRound(t, 3, fixedMode, u(1), 1), "AmountTooLarge")
		})
		c.setWeights(t, 0, 1)
		c.unchanged(t, func() {
			c.expectRevert(t, c.distributor, &c.factory, u(1), c.packRound(t, 3, poolMode, u(1), 1), "AmountTooLarge")
		})
		c.distribute(t, 3, fixedMode, milli(1), []uint32{0, 0}, nil) // weight 0 still goes
		c.withdraw(t, user, 1, user.addr, uint88)
		c.wantNode(t, 1, user.addr, 1, uint88, uint88)
		c.wantSolvent(t)
	})
}
