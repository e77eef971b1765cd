package contracts_test

import (
	"fmt"
	"math/big"
	"testing"
)

func TestDistribute(t *testing.T) {
	t.Parallel()
	t.Run("fixed credits each node the base times its tier's weight, from the first round after its mint", func(t *testing.T) {
		c := newChain(t, setup{users: 2})
		c.setTierWeight(t, 1, 10_000)
		c.setTierWeight(t, 2, 15_000) // tier 3 keeps weight 0
		mintN(t, c, 3)                // tiers 1, 2, 3
		// 1001 * 1.5 = 1501.5: the tier's amount is rounded down, and the round pays what it credits.
		ev, _ := c.distribute(t, 1, fixedMode, u(1001), u(2502))
		wantBig(t, "Distributed.total", ev.Total, u(2502))
		c.wantNode(t, 1, c.users[0].addr, 1, u(1001), u(0))
		c.wantNode(t, 2, c.users[1].addr, 2, u(1501), u(0))
		c.wantNode(t, 3, c.users[0].addr, 3, u(0), u(0))

		c.mint(t, c.users[1].addr, 1, ref("late")) // node 4 joins from round 2 on
		c.wantNode(t, 4, c.users[1].addr, 1, u(0), u(0))
		ev, _ = c.distribute(t, 2, fixedMode, u(1001), u(3503))
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

	t.Run("a weight change applies from the next round and leaves what was credited", func(t *testing.T) {
		c := newChain(t, setup{users: 2})
		c.setTierWeight(t, 1, 10_000)
		mintN(t, c, 1)
		c.distribute(t, 1, fixedMode, u(1000), u(1000))
		c.unchanged(t, func() { c.setTierWeight(t, 1, 30_000) })
		c.distribute(t, 2, fixedMode, u(1000), u(3000))
		c.wantNode(t, 1, c.users[0].addr, 1, u(4000), u(0))
		c.wantSolvent(t)
	})

	t.Run("pool splits pro rata weight over the nodes and carries the remainder to the next pool round", func(t *testing.T) {
		c := newChain(t, setup{users: 2})
		c.setTierWeight(t, 1, 10_000)
		c.setTierWeight(t, 2, 20_000)
		mintN(t, c, 2)
		c.mint(t, c.users[0].addr, 1, ref("third")) // weight 10000 + 20000 + 10000
		// 1,000,003 / 40,000 = 25 wei per unit of weight, 3 wei left over.
		ev, _ := c.distribute(t, 1, poolMode, u(1_000_003), u(1_000_003))
		wantBig(t, "Distributed.total", ev.Total, u(1_000_000))
		wantBig(t, "Distributed.carry", ev.Carry, u(3))
		wantBig(t, "poolCarry", c.poolCarry(t), u(3))
		c.wantNode(t, 1, c.users[0].addr, 1, u(250_000), u(0))
		c.wantNode(t, 2, c.users[1].addr, 2, u(500_000), u(0))
		c.wantNode(t, 3, c.users[0].addr, 1, u(250_000), u(0))
		// The 3 carried make 39,997 a whole 40,000: one wei per unit, nothing left.
		ev, _ = c.distribute(t, 2, poolMode, u(39_997), u(39_997))
		wantBig(t, "Distributed.total", ev.Total, u(40_000))
		wantBig(t, "Distributed.carry", ev.Carry, u(0))
		c.wantNode(t, 2, c.users[1].addr, 2, u(520_000), u(0))
		c.wantNode(t, 3, c.users[0].addr, 1, u(260_000), u(0))
		wantBig(t, "totalOutstanding", c.totalOutstanding(t), u(1_040_000))
		wantBig(t, "contract balance", c.balance(t, c.factory), u(1_040_000))
		c.wantSolvent(t)
	})

	t.Run("a pool round with no weight credits nothing and carries the pool", func(t *testing.T) {
		c := newChain(t, setup{users: 1})
		c.distribute(t, 1, poolMode, u(5_000), u(5_000)) // no node at all
		mintN(t, c, 1)                                   // tier 1, weight 0
		ev, _ := c.distribute(t, 2, poolMode, u(5_000), u(5_000))
		wantBig(t, "Distributed.total", ev.Total, u(0))
		wantBig(t, "poolCarry", c.poolCarry(t), u(10_000))
		c.setTierWeight(t, 1, 10_000)
		ev, _ = c.distribute(t, 3, poolMode, u(0), nil) // paid from the carry
		wantBig(t, "Distributed.total", ev.Total, u(10_000))
		wantBig(t, "poolCarry", c.poolCarry(t), u(0))
		c.wantNode(t, 1, c.users[0].addr, 1, u(10_000), u(0))
		c.wantSolvent(t)
	})

	t.Run("nodeInfo adds both credit paths; the owner withdraws and transfers the sum, paused or not", func(t *testing.T) {
		c := newChain(t, setup{users: 2})
		alice, bob := c.users[0], c.users[1]
		c.setTierWeight(t, 1, 10_000)
		id, _ := c.mint(t, alice.addr, 1, ref("n"))
		c.credit(t, 1, []uint64{id}, bigs(700), u(700))
		c.distribute(t, 2, fixedMode, u(300), u(300))
		c.wantNode(t, id, alice.addr, 1, u(1000), u(0))
		c.transact(t, c.owner, &c.factory, nil, nf.PackSetPaused(true))
		c.distribute(t, 3, fixedMode, u(50), u(50))
		c.expectRevert(t, alice, &c.factory, nil, nf.PackWithdraw(u(id), alice.addr, u(1051)), "InsufficientBalance")
		c.withdraw(t, alice, id, alice.addr, u(1050))
		c.wantNode(t, id, alice.addr, 1, u(1050), u(1050))
		c.distribute(t, 4, fixedMode, u(5), u(5))
		c.transact(t, alice, &c.factory, nil, nf.PackTransfer(u(id), bob.addr))
		c.withdraw(t, bob, id, bob.addr, u(5))
		c.wantNode(t, id, bob.addr, 1, u(1055), u(1055))
		wantBig(t, "totalOutstanding", c.totalOutstanding(t), u(0))
		c.wantSolvent(t)
	})

	t.Run("distribute and setTierWeight revert, changing nothing", func(t *testing.T) {
		c := newChain(t, setup{users: 1})
		c.setTierWeight(t, 1, 10_000)
		mintN(t, c, 1)
		c.credit(t, 1, []uint64{1}, bigs(10), u(10))
		c.distribute(t, 2, fixedMode, u(10), u(10))
		pack := func(round uint64, mode uint8, amount *big.Int, nodes uint64) []byte {
			return nf.PackDistribute(u(round), mode, amount, u(nodes))
		}
		c.unchanged(t, func() {
			for _, from := range []*account{c.owner, c.minter, c.users[0]} {
				c.expectRevert(t, from, &c.factory, u(10), pack(3, fixedMode, u(10), 1), "NotDistributor")
			}
			c.expectRevert(t, c.distributor, &c.factory, u(10), pack(1, fixedMode, u(10), 1), "RoundUsed") // used by credit
			c.expectRevert(t, c.distributor, &c.factory, u(10), pack(2, poolMode, u(10), 1), "RoundUsed")
			c.expectRevert(t, c.distributor, &c.factory, nil, nf.PackCredit(u(2), bigs(1), bigs(1)), "RoundUsed")
			c.expectRevert(t, c.distributor, &c.factory, u(10), pack(3, fixedMode, u(10), 0), "NodeCountChanged")
			c.expectRevert(t, c.distributor, &c.factory, u(10), pack(3, fixedMode, u(10), 2), "NodeCountChanged")
			c.expectRevert(t, c.distributor, &c.factory, u(9), pack(3, fixedMode, u(10), 1), "Insolvent")
			c.expectRevert(t, c.distributor, &c.factory, nil, pack(3, poolMode, add(uint128, u(1)), 1), "AmountTooLarge")
			// Past what one node may be credited by rounds (uint88), however it is paid.
			c.expectRevert(t, c.distributor, &c.factory, nil, pack(3, fixedMode, new(big.Int).Lsh(u(1), 88), 1), "AmountTooLarge")
			c.expectRevert(t, c.minter, &c.factory, nil, nf.PackSetTierWeight(1, 1), "NotOwner")
			c.expectRevert(t, c.distributor, &c.factory, nil, nf.PackSetTierWeight(1, 1), "NotOwner")
		})
		if c.roundUsed(t, 3) {
			t.Fatal("a rejected round used its id")
		}
		if w := c.tier(t, 1).WeightBps; w != 10_000 {
			t.Fatalf("weight %d after rejected changes", w)
		}
		c.wantNode(t, 1, c.users[0].addr, 1, u(20), u(0))
	})

}
