package contracts_test

import (
	"fmt"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

func TestTransfer(t *testing.T) {
	t.Parallel()
	c := newChain(t, setup{users: 3, maxPerWallet: 2})
	alice, bob, carol := c.users[0], c.users[1], c.users[2]
	for i := range 2 {
		c.mint(t, alice.addr, uint8(1+i), ref(fmt.Sprint("t", i)))
	}
	c.distribute(t, 1, fixedMode, u(700), []uint32{0, 10_000}, u(700)) // node 1 only: node 2's tier has weight 0

	t.Run("transfer hands the node and its balance over and emits Transferred", func(t *testing.T) {
		r := c.transact(t, alice, &c.factory, nil, nf.PackTransfer(u(1), bob.addr))
		ev := onlyEvent(t, c, r, nf.UnpackTransferredEvent)
		if ev.Id.Uint64() != 1 || ev.From != alice.addr || ev.To != bob.addr {
			t.Fatalf("event %+v", ev)
		}
		info := c.nodeInfo(t, 1)
		if info.NodeOwner != bob.addr || info.Balance.Uint64() != 700 {
			t.Fatalf("nodeInfo %+v", info)
		}
		if got := fmt.Sprint(c.nodesOf(t, alice.addr), c.nodesOf(t, bob.addr)); got != "[2] [1]" {
			t.Fatalf("nodesOf alice, bob: %s", got)
		}
		// The new owner withdraws; the old one no longer can.
		c.expectRevert(t, alice, &c.factory, nil, nf.PackWithdraw(u(1), alice.addr, u(1)), "NotNodeOwner")
		c.withdraw(t, bob, 1, bob.addr, u(700))
	})
	t.Run("transfer reverts for anyone but the owner, an unknown node, the zero address", func(t *testing.T) {
		c.expectRevert(t, alice, &c.factory, nil, nf.PackTransfer(u(1), carol.addr), "NotNodeOwner")
		c.expectRevert(t, alice, &c.factory, nil, nf.PackTransfer(u(9), carol.addr), "UnknownNode")
		c.expectRevert(t, alice, &c.factory, nil, nf.PackTransfer(u(2), common.Address{}), "ZeroAddress")
	})
	t.Run("transfer respects the total per wallet and works while paused", func(t *testing.T) {
		c.mint(t, carol.addr, 1, ref("c0"))
		c.mint(t, carol.addr, 1, ref("c1"))
		c.expectRevert(t, alice, &c.factory, nil, nf.PackTransfer(u(2), carol.addr), "WalletFull")
		c.transact(t, c.owner, &c.factory, nil, nf.PackSetPaused(true))
		c.transact(t, alice, &c.factory, nil, nf.PackTransfer(u(2), bob.addr))
		if got := fmt.Sprint(c.nodesOf(t, alice.addr), c.nodesOf(t, bob.addr)); got != "[] [1 2]" {
			t.Fatalf("nodesOf alice, bob: %s", got)
		}
	})
}
