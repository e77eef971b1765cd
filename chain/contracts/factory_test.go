package contracts_test

import (
	"math/big"
	"slices"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"nodeledger/chain/bindings"
)

func TestDeployment(t *testing.T) {
	t.Parallel()
	t.Run("constructor sets roles and limit and emits RolesChanged and MaxPerWalletChanged", func(t *testing.T) {
		c := newChain(t, setup{maxPerWallet: 7})
		roles := onlyOf(t, c, c.deployed, nf.UnpackRolesChangedEvent)
		if roles.Owner != c.owner.addr || roles.Minter != c.minter.addr || roles.Distributor != c.distributor.addr {
			t.Fatalf("RolesChanged = %+v", roles)
		}
		if limit := onlyOf(t, c, c.deployed, nf.UnpackMaxPerWalletChangedEvent); limit.MaxPerWallet != 7 {
			t.Fatalf("MaxPerWalletChanged = %d, want 7", limit.MaxPerWallet)
		}
		if len(c.deployed.Logs) != 2 {
			t.Fatalf("deployment emitted %d logs, want 2", len(c.deployed.Logs))
		}
		if got := view(t, c, nf.PackOwner(), nf.UnpackOwner); got != c.owner.addr {
			t.Fatalf("owner() = %s, want the deployer %s", got, c.owner.addr)
		}
		if got := view(t, c, nf.PackMinter(), nf.UnpackMinter); got != c.minter.addr {
			t.Fatalf("minter() = %s", got)
		}
		if got := view(t, c, nf.PackDistributor(), nf.UnpackDistributor); got != c.distributor.addr {
			t.Fatalf("distributor() = %s", got)
		}
		if c.maxPerWallet(t) != 7 || c.paused(t) || c.nodeCount(t) != 0 || c.totalOutstanding(t).Sign() != 0 || !c.isSolvent(t) {
			t.Fatalf("fresh factory: %s", c.snapshot(t))
		}
	})

	t.Run("constructor reverts with ZeroAddress for a zero minter or distributor", func(t *testing.T) {
		c := newChain(t, setup{})
		bin := bindings.NodeFactoryMetaData.Bin
		c.expectRevert(t, c.owner, nil, nil, creation(bin, nf.PackConstructor(common.Address{}, c.distributor.addr, 5)), "ZeroAddress")
		c.expectRevert(t, c.owner, nil, nil, creation(bin, nf.PackConstructor(c.minter.addr, common.Address{}, 5)), "ZeroAddress")
	})
}

func TestMint(t *testing.T) {
	t.Parallel()
	t.Run("mint assigns ids 1..n in order, records owner and tier and emits NodeMinted", func(t *testing.T) {
		c := newChain(t, setup{users: 2})
		a, b := c.users[0].addr, c.users[1].addr
		for i, m := range []struct {
			to   common.Address
			tier uint8
		}{{a, 1}, {b, 3}, {a, 255}} {
			id, _ := c.mint(t, m.to, m.tier, ref(string(rune('a'+i))))
			if id != uint64(i+1) {
				t.Fatalf("mint %d got id %d", i, id)
			}
			c.wantNode(t, id, m.to, m.tier, big.NewInt(0), big.NewInt(0))
		}
		if n := c.nodeCount(t); n != 3 {
			t.Fatalf("nodeCount = %d, want 3", n)
		}
		if got := c.nodesOf(t, a); !slices.Equal(got, []uint64{1, 3}) {
			t.Fatalf("nodesOf(a) = %v, want [1 3]", got)
		}
		if got := c.nodesOf(t, b); !slices.Equal(got, []uint64{2}) {
			t.Fatalf("nodesOf(b) = %v, want [2]", got)
		}
		if !c.paymentRefUsed(t, ref("a")) || !c.paymentRefUsed(t, ref("c")) || c.paymentRefUsed(t, ref("d")) {
			t.Fatal("paymentRefUsed does not match the minted refs")
		}
	})

	t.Run("mint reverts with NotMinter for any other sender", func(t *testing.T) {
		c := newChain(t, setup{users: 1})
		c.unchanged(t, func() {
			for _, from := range []*account{c.owner, c.distributor, c.users[0]} {
				c.expectRevert(t, from, &c.factory, nil, nf.PackMint(from.addr, 1, ref("p")), "NotMinter")
			}
		})
		if c.paymentRefUsed(t, ref("p")) {
			t.Fatal("a rejected mint used its payment ref")
		}
	})

	t.Run("mint reverts with MintingPaused when paused and works again after unpause", func(t *testing.T) {
		c := newChain(t, setup{users: 1})
		c.transact(t, c.owner, &c.factory, nil, nf.PackSetPaused(true))
		c.unchanged(t, func() {
			c.expectRevert(t, c.minter, &c.factory, nil, nf.PackMint(c.users[0].addr, 1, ref("p")), "MintingPaused")
		})
		c.transact(t, c.owner, &c.factory, nil, nf.PackSetPaused(false))
		if id, _ := c.mint(t, c.users[0].addr, 1, ref("p")); id != 1 {
			t.Fatalf("id %d after unpause, want 1", id)
		}
	})

	t.Run("mint reverts with ZeroAddress for a zero recipient", func(t *testing.T) {
		c := newChain(t, setup{})
		c.unchanged(t, func() {
			c.expectRevert(t, c.minter, &c.factory, nil, nf.PackMint(common.Address{}, 1, ref("p")), "ZeroAddress")
		})
	})

	t.Run("mint reverts with PaymentRefUsed for a reused payment reference", func(t *testing.T) {
		c := newChain(t, setup{users: 2})
		c.mint(t, c.users[0].addr, 1, ref("pay-1"))
		c.unchanged(t, func() {
			// Same wallet, another wallet, another tier: the payment can never mint twice.
			c.expectRevert(t, c.minter, &c.factory, nil, nf.PackMint(c.users[0].addr, 1, ref("pay-1")), "PaymentRefUsed")
			c.expectRevert(t, c.minter, &c.factory, nil, nf.PackMint(c.users[1].addr, 2, ref("pay-1")), "PaymentRefUsed")
		})
		// The zero reference is a reference like any other: usable once.
		c.mint(t, c.users[1].addr, 1, [32]byte{})
		c.expectRevert(t, c.minter, &c.factory, nil, nf.PackMint(c.users[1].addr, 1, [32]byte{}), "PaymentRefUsed")
	})

	t.Run("mint reverts with WalletFull past maxPerWallet and follows setMaxPerWallet", func(t *testing.T) {
		c := newChain(t, setup{users: 2, maxPerWallet: 2})
		a := c.users[0].addr
		c.mint(t, a, 1, ref("1"))
		c.mint(t, a, 1, ref("2"))
		c.unchanged(t, func() {
			c.expectRevert(t, c.minter, &c.factory, nil, nf.PackMint(a, 1, ref("3")), "WalletFull")
		})
		if c.paymentRefUsed(t, ref("3")) {
			t.Fatal("a WalletFull mint used its payment ref")
		}
		// Another wallet is not affected, and the rejected payment can still mint there.
		c.mint(t, c.users[1].addr, 1, ref("3"))
		// Raising the limit lets the full wallet mint again; lowering it below a wallet's holdings
		// keeps its nodes but stops further mints.
		c.transact(t, c.owner, &c.factory, nil, nf.PackSetMaxPerWallet(3))
		c.mint(t, a, 1, ref("4"))
		c.transact(t, c.owner, &c.factory, nil, nf.PackSetMaxPerWallet(1))
		c.expectRevert(t, c.minter, &c.factory, nil, nf.PackMint(a, 1, ref("5")), "WalletFull")
		if got := c.nodesOf(t, a); !slices.Equal(got, []uint64{1, 2, 4}) {
			t.Fatalf("nodesOf = %v, want [1 2 4]", got)
		}
		// A limit of zero stops minting to fresh wallets too.
		c.transact(t, c.owner, &c.factory, nil, nf.PackSetMaxPerWallet(0))
		c.expectRevert(t, c.minter, &c.factory, nil, nf.PackMint(common.HexToAddress("0x1234"), 1, ref("6")), "WalletFull")
	})
}

// mintN mints n nodes, to the chain's users in turn, and returns their ids.
func mintN(t *testing.T, c *chain, n int) []uint64 {
	t.Helper()
	var ids []uint64
	for i := range n {
		id, _ := c.mint(t, c.users[i%len(c.users)].addr, uint8(i%3+1), ref("node-"+string(rune('A'+i))))
		ids = append(ids, id)
	}
	return ids
}

func TestWithdraw(t *testing.T) {
	t.Parallel()
	t.Run("withdraw pays the recipient, emits Withdrawn and updates the node", func(t *testing.T) {
		c := newChain(t, setup{users: 2})
		mintN(t, c, 2)
		c.distribute(t, 1, fixedMode, ether(1), []uint32{0, 20_000, 10_000}, ether(3)) // node 1: 2 ether, node 2: 1
		holder := c.users[0]
		sink := common.HexToAddress("0x00000000000000000000000000000000005151")

		c.withdraw(t, holder, 1, sink, milli(500))
		wantBig(t, "recipient balance", c.balance(t, sink), milli(500))
		wantBig(t, "contract balance", c.balance(t, c.factory), milli(2500))
		c.wantNode(t, 1, holder.addr, 1, ether(2), milli(500))
		wantBig(t, "totalOutstanding", c.totalOutstanding(t), milli(2500))

		// The rest, to the owner itself: it receives the amount less the gas it paid.
		before := c.balance(t, holder.addr)
		r := c.withdraw(t, holder, 1, holder.addr, milli(1500))
		fee := new(big.Int).Mul(u(r.GasUsed), r.EffectiveGasPrice)
		wantBig(t, "owner balance", c.balance(t, holder.addr), sub(add(before, milli(1500)), fee))
		c.wantNode(t, 1, holder.addr, 1, ether(2), ether(2))
		c.wantNode(t, 2, c.users[1].addr, 2, ether(1), big.NewInt(0))
		wantBig(t, "totalOutstanding", c.totalOutstanding(t), ether(1))
		wantBig(t, "contract balance", c.balance(t, c.factory), ether(1))
		c.wantSolvent(t)
	})

	t.Run("withdraw to the factory itself turns the amount into surplus", func(t *testing.T) {
		c := newChain(t, setup{users: 2})
		mintN(t, c, 2)
		c.distribute(t, 1, fixedMode, ether(1), []uint32{0, 10_000}, ether(1))
		c.withdraw(t, c.users[0], 1, c.factory, milli(400))
		wantBig(t, "contract balance", c.balance(t, c.factory), ether(1))
		wantBig(t, "totalOutstanding", c.totalOutstanding(t), milli(600))
		// The 0.4 ether now pays a round on its own.
		c.distribute(t, 2, fixedMode, milli(400), []uint32{0, 0, 10_000}, nil)
		c.wantNode(t, 2, c.users[1].addr, 2, milli(400), big.NewInt(0))
		wantBig(t, "contract balance", c.balance(t, c.factory), c.totalOutstanding(t))
		c.wantSolvent(t)
	})

	t.Run("withdraw of zero succeeds and emits Withdrawn with zero", func(t *testing.T) {
		c := newChain(t, setup{users: 1})
		mintN(t, c, 1)
		c.withdraw(t, c.users[0], 1, c.users[0].addr, big.NewInt(0))
		c.wantNode(t, 1, c.users[0].addr, 1, big.NewInt(0), big.NewInt(0))
	})

	t.Run("withdraw reverts with NotNodeOwner for anyone but the node's owner", func(t *testing.T) {
		c := newChain(t, setup{users: 2})
		mintN(t, c, 2) // node 1 to users[0], node 2 to users[1]
		c.distribute(t, 1, fixedMode, ether(1), []uint32{0, 10_000, 10_000}, ether(2))
		c.unchanged(t, func() {
			for _, from := range []*account{c.owner, c.minter, c.distributor, c.users[1]} {
				c.expectRevert(t, from, &c.factory, nil, nf.PackWithdraw(u(1), from.addr, milli(1)), "NotNodeOwner")
			}
		})
	})

	t.Run("withdraw reverts with UnknownNode for id 0 or an id past nodeCount", func(t *testing.T) {
		c := newChain(t, setup{users: 1})
		mintN(t, c, 1)
		c.unchanged(t, func() {
			for _, id := range []uint64{0, 2} {
				c.expectRevert(t, c.users[0], &c.factory, nil, nf.PackWithdraw(u(id), c.users[0].addr, big.NewInt(0)), "UnknownNode")
			}
		})
	})

	t.Run("withdraw reverts with ZeroAddress for a zero recipient", func(t *testing.T) {
		c := newChain(t, setup{users: 1})
		mintN(t, c, 1)
		c.distribute(t, 1, fixedMode, ether(1), []uint32{0, 10_000}, ether(1))
		c.unchanged(t, func() {
			c.expectRevert(t, c.users[0], &c.factory, nil, nf.PackWithdraw(u(1), common.Address{}, milli(1)), "ZeroAddress")
		})
	})

	t.Run("withdraw reverts with InsufficientBalance above the node's balance", func(t *testing.T) {
		c := newChain(t, setup{users: 1})
		mintN(t, c, 2)
		user := c.users[0]
		c.distribute(t, 1, fixedMode, ether(1), []uint32{0, 10_000}, ether(1)) // node 2's tier has weight 0
		// Surplus in the contract does not belong to any node, and a node minted after a round
		// has no part of it, though its tier does.
		c.fund(t, c.owner, ether(5))
		late, _ := c.mint(t, user.addr, 1, ref("late"))
		c.unchanged(t, func() {
			c.expectRevert(t, user, &c.factory, nil, nf.PackWithdraw(u(1), user.addr, add(ether(1), big.NewInt(1))), "InsufficientBalance")
			c.expectRevert(t, user, &c.factory, nil, nf.PackWithdraw(u(2), user.addr, big.NewInt(1)), "InsufficientBalance")
			c.expectRevert(t, user, &c.factory, nil, nf.PackWithdraw(u(late), user.addr, big.NewInt(1)), "InsufficientBalance")
		})
		c.withdraw(t, user, 1, user.addr, milli(400))
		c.expectRevert(t, user, &c.factory, nil, nf.PackWithdraw(u(1), user.addr, ether(1)), "InsufficientBalance")
		c.withdraw(t, user, 1, user.addr, milli(600))
		c.expectRevert(t, user, &c.factory, nil, nf.PackWithdraw(u(1), user.addr, big.NewInt(1)), "InsufficientBalance")
		c.wantSolvent(t)
	})
}

func TestPause(t *testing.T) {
	t.Parallel()
	t.Run("setPaused is owner only and emits Paused", func(t *testing.T) {
		c := newChain(t, setup{users: 1})
		c.unchanged(t, func() {
			for _, from := range []*account{c.minter, c.distributor, c.users[0]} {
				c.expectRevert(t, from, &c.factory, nil, nf.PackSetPaused(true), "NotOwner")
			}
		})
		for _, p := range []bool{true, true, false} {
			r := c.transact(t, c.owner, &c.factory, nil, nf.PackSetPaused(p))
			if ev := onlyEvent(t, c, r, nf.UnpackPausedEvent); ev.Paused != p {
				t.Fatalf("Paused(%t), want %t", ev.Paused, p)
			}
			if c.paused(t) != p {
				t.Fatalf("paused() = %t, want %t", !p, p)
			}
		}
	})

	t.Run("pause blocks minting only: rounds of both modes, withdraw and funding still work", func(t *testing.T) {
		c := newChain(t, setup{users: 2})
		mintN(t, c, 2)
		c.distribute(t, 1, fixedMode, ether(1), []uint32{0, 10_000, 10_000}, ether(2))
		c.transact(t, c.owner, &c.factory, nil, nf.PackSetPaused(true))

		c.expectRevert(t, c.minter, &c.factory, nil, nf.PackMint(c.users[0].addr, 1, ref("paused")), "MintingPaused")
		c.distribute(t, 2, fixedMode, milli(250), []uint32{0, 20_000, 10_000}, milli(750))
		c.distribute(t, 3, poolMode, milli(30), []uint32{0, 10_000, 20_000}, milli(30))
		c.withdraw(t, c.users[0], 1, c.users[0].addr, milli(1510))
		c.withdraw(t, c.users[1], 2, common.HexToAddress("0xabc"), milli(1270))
		c.fund(t, c.owner, milli(10))
		c.wantNode(t, 1, c.users[0].addr, 1, milli(1510), milli(1510))
		c.wantNode(t, 2, c.users[1].addr, 2, milli(1270), milli(1270))
		c.wantSolvent(t)
		if !c.paused(t) {
			t.Fatal("no longer paused")
		}
		c.transact(t, c.owner, &c.factory, nil, nf.PackSetPaused(false))
		c.mint(t, c.users[0].addr, 1, ref("paused"))
	})
}

func TestOwnerSettings(t *testing.T) {
	t.Parallel()
	t.Run("setMaxPerWallet is owner only and emits MaxPerWalletChanged", func(t *testing.T) {
		c := newChain(t, setup{users: 1})
		c.unchanged(t, func() {
			for _, from := range []*account{c.minter, c.distributor, c.users[0]} {
				c.expectRevert(t, from, &c.factory, nil, nf.PackSetMaxPerWallet(9), "NotOwner")
			}
		})
		r := c.transact(t, c.owner, &c.factory, nil, nf.PackSetMaxPerWallet(9))
		if ev := onlyEvent(t, c, r, nf.UnpackMaxPerWalletChangedEvent); ev.MaxPerWallet != 9 || c.maxPerWallet(t) != 9 {
			t.Fatalf("MaxPerWalletChanged(%d), maxPerWallet() = %d, want 9", ev.MaxPerWallet, c.maxPerWallet(t))
		}
	})

	t.Run("setRoles is owner only", func(t *testing.T) {
		c := newChain(t, setup{users: 1})
		c.unchanged(t, func() {
			for _, from := range []*account{c.minter, c.distributor, c.users[0]} {
				c.expectRevert(t, from, &c.factory, nil, nf.PackSetRoles(from.addr, from.addr, from.addr), "NotOwner")
			}
		})
	})

	t.Run("setRoles reverts with ZeroAddress for any zero role", func(t *testing.T) {
		c := newChain(t, setup{})
		o, m, d, z := c.owner.addr, c.minter.addr, c.distributor.addr, common.Address{}
		c.unchanged(t, func() {
			c.expectRevert(t, c.owner, &c.factory, nil, nf.PackSetRoles(z, m, d), "ZeroAddress")
			c.expectRevert(t, c.owner, &c.factory, nil, nf.PackSetRoles(o, z, d), "ZeroAddress")
			c.expectRevert(t, c.owner, &c.factory, nil, nf.PackSetRoles(o, m, z), "ZeroAddress")
		})
	})

	t.Run("setRoles hands every role over and emits RolesChanged", func(t *testing.T) {
		c := newChain(t, setup{users: 4})
		newOwner, newMinter, newDistributor, holder := c.users[0], c.users[1], c.users[2], c.users[3]
		c.mint(t, holder.addr, 1, ref("before"))
		r := c.transact(t, c.owner, &c.factory, nil, nf.PackSetRoles(newOwner.addr, newMinter.addr, newDistributor.addr))
		ev := onlyEvent(t, c, r, nf.UnpackRolesChangedEvent)
		if ev.Owner != newOwner.addr || ev.Minter != newMinter.addr || ev.Distributor != newDistributor.addr {
			t.Fatalf("RolesChanged = %+v", ev)
		}
		c.expectRevert(t, c.minter, &c.factory, nil, nf.PackMint(holder.addr, 1, ref("after")), "NotMinter")
		c.expectRevert(t, c.distributor, &c.factory, milli(1), c.packRound(t, 1, fixedMode, milli(1), 1), "NotDistributor")
		c.expectRevert(t, c.owner, &c.factory, nil, nf.PackSetPaused(true), "NotOwner")
		c.expectRevert(t, c.owner, &c.factory, nil, nf.PackSetTierWeight(1, 10_000), "NotOwner")
		c.transact(t, newOwner, &c.factory, nil, nf.PackSetTierWeight(1, 10_000))

		c.transact(t, newMinter, &c.factory, nil, nf.PackMint(holder.addr, 1, ref("after")))
		c.transact(t, newDistributor, &c.factory, milli(2), c.packRound(t, 1, fixedMode, milli(1), 2))
		c.transact(t, newOwner, &c.factory, nil, nf.PackSetPaused(true))
		// Nodes stay with their owners whoever holds the roles.
		c.withdraw(t, holder, 1, holder.addr, milli(1))
		c.wantNode(t, 2, holder.addr, 1, milli(1), big.NewInt(0))
		c.wantSolvent(t)
	})
}

func TestViews(t *testing.T) {
	t.Parallel()
	t.Run("nodeInfo and totalWithdrawnByNode revert with UnknownNode for unminted ids", func(t *testing.T) {
		c := newChain(t, setup{users: 1})
		mintN(t, c, 1)
		for _, id := range []uint64{0, 2} {
			_, err := c.call(t, c.users[0], &c.factory, nil, nf.PackNodeInfo(u(id)))
			wantRevert(t, err, "UnknownNode")
			_, err = c.call(t, c.users[0], &c.factory, nil, nf.PackTotalWithdrawnByNode(u(id)))
			wantRevert(t, err, "UnknownNode")
		}
	})

	t.Run("nodesOf is empty for a wallet without nodes", func(t *testing.T) {
		c := newChain(t, setup{users: 1})
		mintN(t, c, 1)
		if got := c.nodesOf(t, c.minter.addr); len(got) != 0 {
			t.Fatalf("nodesOf(minter) = %v", got)
		}
	})
}

func TestReentrancy(t *testing.T) {
	t.Parallel()
	// deployReenterer deploys a Reenterer for the factory, mints it a node (of tier 2) and
	// credits it in a round.
	deployReenterer := func(t *testing.T, c *chain, credit *big.Int) (common.Address, uint64) {
		t.Helper()
		addr, _ := c.deploy(t, c.owner, bindings.ReentererMetaData.Bin, reent.PackConstructor(c.factory))
		id, _ := c.mint(t, addr, 2, ref("reenterer"))
		c.distribute(t, 1, fixedMode, credit, []uint32{0, 0, 10_000}, credit)
		return addr, id
	}
	check := func(t *testing.T, c *chain, r common.Address, id uint64, credited, withdrawn *big.Int, factoryBefore *big.Int, rec *types.Receipt) {
		t.Helper()
		if !viewAt(t, c, r, reent.PackReentryFailed(), reent.UnpackReentryFailed) {
			t.Fatal("reentryFailed() = false: the inner withdraw succeeded")
		}
		wantBig(t, "reentries", viewAt(t, c, r, reent.PackReentries(), reent.UnpackReentries), big.NewInt(1))
		// Paid exactly once.
		wantBig(t, "Reenterer balance", c.balance(t, r), withdrawn)
		wantBig(t, "factory balance", c.balance(t, c.factory), sub(factoryBefore, withdrawn))
		c.wantNode(t, id, r, 2, credited, withdrawn)
		wantBig(t, "totalOutstanding", c.totalOutstanding(t), sub(credited, withdrawn))
		evs := events(t, c, rec, nf.UnpackWithdrawnEvent)
		if len(evs) != 1 || evs[0].Owner != r || evs[0].To != r || evs[0].Amount.Cmp(withdrawn) != 0 {
			t.Fatalf("want one Withdrawn(%d, reenterer, reenterer, %s), got %d events", id, withdrawn, len(evs))
		}
		c.wantSolvent(t)
	}

	t.Run("a re-entered withdraw of the whole balance fails and the balance is paid once", func(t *testing.T) {
		c := newChain(t, setup{users: 1})
		r, id := deployReenterer(t, c, ether(3))
		before := c.balance(t, c.factory)
		rec := c.transact(t, c.users[0], &r, nil, reent.PackWithdraw(u(id), ether(3)))
		check(t, c, r, id, ether(3), ether(3), before, rec)
	})

	t.Run("the guard stops a re-entry that the remaining balance would allow", func(t *testing.T) {
		// The node keeps 2 ether after the first 1 ether leaves, so the inner withdraw of 1 ether
		// passes every check (owner, recipient, balance) except the reentrancy guard.
		c := newChain(t, setup{users: 1})
		r, id := deployReenterer(t, c, ether(3))
		before := c.balance(t, c.factory)
		rec := c.transact(t, c.users[0], &r, nil, reent.PackWithdraw(u(id), ether(1)))
		check(t, c, r, id, ether(3), ether(1), before, rec)
	})

	t.Run("withdraw to a contract that rejects ether reverts with TransferFailed and changes nothing", func(t *testing.T) {
		c := newChain(t, setup{users: 1})
		rejecter, _ := c.deploy(t, c.owner, bindings.RejecterMetaData.Bin, nil)
		mintN(t, c, 1)
		c.distribute(t, 1, fixedMode, ether(1), []uint32{0, 10_000}, ether(1))
		c.unchanged(t, func() {
			c.expectRevert(t, c.users[0], &c.factory, nil, nf.PackWithdraw(u(1), rejecter, milli(500)), "TransferFailed")
		})
		wantBig(t, "Rejecter balance", c.balance(t, rejecter), big.NewInt(0))
		// The balance is still there, for a recipient that accepts it.
		c.withdraw(t, c.users[0], 1, c.users[0].addr, ether(1))
		c.wantSolvent(t)
	})
}
