package contracts_test

import (
	"encoding/binary"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
)

// The randomized sequence test drives the factory with random mints, rounds (distribute, fixed
// and pool, crediting with the weights the owner set, each naming the weights version it was
// priced for, now and then a stale one; exactly paid, overpaid, partly paid from the surplus,
// underfunded), withdrawals (random amounts, too much, wrong sender, zero recipient), transfers,
// fundings of receive() and owner changes (pause, wallet limit, tier weights, some too large),
// predicting every outcome, success or the exact custom error, from a Go model of the contract,
// and checks the chain against the model as it goes.
//
// Transactions go out in batches of up to maxBatch per block. A transaction predicted to revert
// has its error checked with an eth_call on the latest block, so the batch's successful
// transactions are mined first; then it is sent anyway, and must fail on chain too. Within a
// block the transactions carry decreasing tips, which pins their order to the sending order
// (checked on every receipt), so the model is updated in sending order. After every block: every
// receipt's status and events, the nodes, payment refs, rounds, wallets and recipients the
// block touched, and the invariants (balance >= totalOutstanding == the sum of the model's node
// balances, the factory's exact ether balance, isSolvent, the tiers' accumulators and the pool
// carry); every sweepEvery steps and at the end,
// every node and wallet, and the sum over the chain's own nodeInfo balances.
//
// NODEFACTORY_SEED=<n> replays a run; NODEFACTORY_STEPS=<n> changes its length.
const (
	randomSteps = 2000
	maxBatch    = 12
	sweepEvery  = 500
)

type modelNode struct {
	owner     common.Address
	tier      uint8
	joined    *big.Int // its tier's perNode at mint
	withdrawn *big.Int
}

// modelTier is a tier as distribute sees it.
type modelTier struct {
	perNode *big.Int
	nodes   uint64
	weight  uint32 // set by the owner
}

type model struct {
	nodes        []*modelNode // node id i+1
	owned        map[common.Address][]uint64
	refs         map[[32]byte]bool
	rounds       map[uint64]bool
	paused       bool
	maxPerWallet uint32
	outstanding  *big.Int
	balance      *big.Int                    // the factory's ether
	sinks        map[common.Address]*big.Int // recipients that never send, so their balance is exact
	tiers        map[uint8]*modelTier
	tierOrder    []uint8 // tiers with nodes, newest first
	poolCarry    *big.Int
	version      uint64 // weightsVersion
}

func (m *model) surplus() *big.Int { return sub(m.balance, m.outstanding) }

// tier returns the model of a tier, creating it as the contract's zero slot.
func (m *model) tier(id uint8) *modelTier {
	if m.tiers[id] == nil {
		m.tiers[id] = &modelTier{perNode: new(big.Int)}
	}
	return m.tiers[id]
}

// credited is what the node was credited in all: its tier's rounds since its mint.
func (m *model) credited(n *modelNode) *big.Int {
	return sub(m.tiers[n.tier].perNode, n.joined)
}

func (m *model) nodeBalance(n *modelNode) *big.Int { return sub(m.credited(n), n.withdrawn) }

// op is one random step: a transaction and what the model says it does.
type op struct {
	kind    string
	desc    string
	from    *account
	value   *big.Int
	data    []byte
	gas     uint64
	wantErr string // "" when it must succeed

	apply  func()                               // updates the model; run at sending when it succeeds
	events func(t *testing.T, r *types.Receipt) // checks the receipt's events

	nodes  []uint64
	refs   [][32]byte
	rounds []uint64
	sinks  []common.Address
	wallet []common.Address
}

type randomRun struct {
	t     *testing.T
	c     *chain
	rng   *rand.Rand
	m     *model
	sinks []common.Address

	nextRef   int
	nextRound uint64
	stats     map[string]int
}

func TestRandomizedSequence(t *testing.T) {
	t.Parallel()
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("NODEFACTORY_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("NODEFACTORY_SEED: %v", err)
		}
	}
	steps := randomSteps
	if s := os.Getenv("NODEFACTORY_STEPS"); s != "" {
		var err error
		if steps, err = strconv.Atoi(s); err != nil {
			t.Fatalf("NODEFACTORY_STEPS: %v", err)
		}
	}
	t.Logf("seed %d (replay with NODEFACTORY_SEED=%d), %d steps", seed, seed, steps)

	const maxPerWallet = 4
	c := newChain(t, setup{users: 8, maxPerWallet: maxPerWallet})
	r := &randomRun{
		t:   t,
		c:   c,
		rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		m: &model{
			owned:        map[common.Address][]uint64{},
			refs:         map[[32]byte]bool{},
			rounds:       map[uint64]bool{},
			maxPerWallet: maxPerWallet,
			outstanding:  new(big.Int),
			balance:      new(big.Int),
			sinks:        map[common.Address]*big.Int{},
			tiers:        map[uint8]*modelTier{},
			poolCarry:    new(big.Int),
		},
		nextRound: 1,
		stats:     map[string]int{},
	}
	for i := range 4 {
		a := common.BytesToAddress(crypto.Keccak256([]byte(fmt.Sprintf("sink-%d-%d", seed, i))))
		r.sinks = append(r.sinks, a)
		r.m.sinks[a] = new(big.Int)
	}

	var batch []*op
	var txs []*types.Transaction
	dirty := false // the batch holds a transaction that changes state
	flush := func() {
		if len(batch) == 0 {
			return
		}
		r.commit(batch, txs)
		batch, txs, dirty = batch[:0], txs[:0], false
	}
	limit := 1 + r.rng.IntN(maxBatch)
	start := time.Now()
	for step := 1; step <= steps; step++ {
		o := r.next()
		o.desc = fmt.Sprintf("step %d: %s", step, o.desc)
		r.stats[o.kind+" "+outcome(o.wantErr)]++
		if o.wantErr != "" {
			// The eth_call runs on the latest block, so first mine the batch's successful
			// transactions; failed ones change nothing, so they may stay unmined.
			if dirty {
				flush()
			}
			_, err := c.call(t, o.from, &c.factory, o.value, o.data)
			if got := revertName(err); got != o.wantErr {
				t.Fatalf("%s: want revert %s, got %s (%v)", o.desc, o.wantErr, got, err)
			}
		}
		tip := add(gasTipCap, u(uint64(maxBatch-len(batch))))
		txs = append(txs, c.sendTip(t, o.from, &c.factory, o.value, o.data, o.gas, tip))
		batch = append(batch, o)
		if o.wantErr == "" {
			o.apply()
			dirty = true
		}
		if len(batch) >= limit {
			flush()
			limit = 1 + r.rng.IntN(maxBatch)
		}
		if step%sweepEvery == 0 || step == steps {
			flush()
			r.sweep()
		}
	}
	r.report(time.Since(start), steps)
}

func outcome(err string) string {
	if err == "" {
		return "ok"
	}
	return err
}

// --- random operations ---

func (r *randomRun) next() *op {
	switch n := r.rng.IntN(100); {
	case n < 25:
		return r.mint()
	case n < 50:
		return r.distribute()
	case n < 76:
		return r.withdraw()
	case n < 83:
		return r.transfer()
	case n < 88:
		return r.fund()
	case n < 91:
		return r.setPaused()
	case n < 96:
		return r.setTierWeight()
	default:
		return r.setMaxPerWallet()
	}
}

func (r *randomRun) user() *account { return r.c.users[r.rng.IntN(len(r.c.users))] }

// anyoneBut returns a random account other than a.
func (r *randomRun) anyoneBut(a common.Address) *account {
	all := append([]*account{r.c.owner, r.c.minter, r.c.distributor}, r.c.users...)
	for {
		if b := all[r.rng.IntN(len(all))]; b.addr != a {
			return b
		}
	}
}

func (r *randomRun) chance(percent int) bool { return r.rng.IntN(100) < percent }

// wei returns a random amount in [0, max].
func (r *randomRun) wei(max *big.Int) *big.Int {
	if max.Sign() <= 0 {
		return new(big.Int)
	}
	if max.IsUint64() && max.Uint64() < 1<<63 {
		return u(r.rng.Uint64N(max.Uint64() + 1))
	}
	var b [40]byte
	for i := 0; i < len(b); i += 8 {
		binary.BigEndian.PutUint64(b[i:], r.rng.Uint64())
	}
	return new(big.Int).Mod(new(big.Int).SetBytes(b[:]), add(max, big.NewInt(1)))
}

func (r *randomRun) mint() *op {
	c, m := r.c, r.m
	o := &op{kind: "mint", from: c.minter, gas: 1_500_000}
	to := r.user().addr
	tier := r.someTier()
	var pref [32]byte
	if len(r.m.refs) > 0 && r.chance(8) {
		pref = r.usedRef()
	} else {
		r.nextRef++
		pref = ref(fmt.Sprintf("payment-%d", r.nextRef))
	}
	if r.chance(6) {
		o.from = r.anyoneBut(c.minter.addr)
	}
	if r.chance(4) {
		to = common.Address{}
	}
	switch {
	case o.from != c.minter:
		o.wantErr = "NotMinter"
	case m.paused:
		o.wantErr = "MintingPaused"
	case to == (common.Address{}):
		o.wantErr = "ZeroAddress"
	case m.refs[pref]:
		o.wantErr = "PaymentRefUsed"
	case uint32(len(m.owned[to])) >= m.maxPerWallet:
		o.wantErr = "WalletFull"
	}
	id := uint64(len(m.nodes) + 1)
	o.desc = fmt.Sprintf("mint(to %s, tier %d, ref %x) from %s, want %s", to, tier, pref[:4], o.from.addr, outcome(o.wantErr))
	o.data = nf.PackMint(to, tier, pref)
	o.refs = [][32]byte{pref}
	o.wallet = []common.Address{to}
	if o.wantErr == "" {
		o.nodes = []uint64{id}
	}
	o.apply = func() {
		m.refs[pref] = true
		t := m.tier(tier)
		if t.nodes == 0 {
			m.tierOrder = append([]uint8{tier}, m.tierOrder...)
		}
		t.nodes++
		m.nodes = append(m.nodes, &modelNode{owner: to, tier: tier, joined: new(big.Int).Set(t.perNode), withdrawn: new(big.Int)})
		m.owned[to] = append(m.owned[to], id)
	}
	o.events = func(t *testing.T, rc *types.Receipt) {
		ev := onlyEvent(t, c, rc, nf.UnpackNodeMintedEvent)
		if ev.Id.Uint64() != id || ev.Owner != to || ev.Tier != tier || ev.PaymentRef != pref {
			t.Fatalf("%s: NodeMinted = {%s %s %d %x}, want id %d", o.desc, ev.Id, ev.Owner, ev.Tier, ev.PaymentRef, id)
		}
	}
	return o
}

// someTier is mostly one of a few tiers, so that rounds and weight changes meet many nodes of a
// tier, and now and then any tier (each tier with nodes adds to a round's gas).
func (r *randomRun) someTier() uint8 {
	if r.chance(90) {
		return uint8(1 + r.rng.IntN(4))
	}
	return uint8(r.rng.IntN(256))
}

// usedRef picks a used payment ref (refs are numbered, so pick by number and check).
func (r *randomRun) usedRef() [32]byte {
	for {
		p := ref(fmt.Sprintf("payment-%d", 1+r.rng.IntN(r.nextRef)))
		if r.m.refs[p] {
			return p
		}
	}
}

func (r *randomRun) unknownID() uint64 {
	if r.chance(30) {
		return 0
	}
	return uint64(len(r.m.nodes)) + 1 + r.rng.Uint64N(5)
}

// payFor picks what a round that credits sum sends: exactly sum, more, less with the surplus
// covering the rest, or too little.
func (r *randomRun) payFor(sum *big.Int) (*big.Int, string) {
	surplus := r.m.surplus()
	mode := "exact"
	value := new(big.Int).Set(sum)
	switch x := r.rng.IntN(100); {
	case x < 20:
		mode = "overpaid"
		value.Add(value, r.wei(milli(300)))
	case x < 40:
		mode = "from surplus"
		value.Sub(value, r.wei(minBig(sum, surplus)))
	case x < 55:
		mode = "underfunded"
		if sum.Cmp(surplus) > 0 {
			short := add(add(surplus, big.NewInt(1)), r.wei(sub(sub(sum, surplus), big.NewInt(1))))
			value.Sub(value, short)
		} else {
			value.SetInt64(0) // the surplus covers it all
		}
	}
	if value.Cmp(ether(1_000_000)) > 0 {
		value = r.wei(ether(1)) // a round past what anyone holds: send what we have
	}
	return value, mode
}

// distribute is a round: the model works out each tier's increment as the contract does, in the
// order of its tier list, and so which error comes first.
func (r *randomRun) distribute() *op {
	c, m := r.c, r.m
	o := &op{kind: "distribute", from: c.distributor}
	count := uint64(len(m.nodes))
	round := r.nextRound
	if len(m.rounds) > 0 && r.chance(6) {
		for {
			if x := 1 + r.rng.Uint64N(r.nextRound); m.rounds[x] {
				round = x
				break
			}
		}
	} else {
		r.nextRound += 1 + r.rng.Uint64N(3)
	}
	nodes := count
	if r.chance(5) {
		nodes = count + 1 + r.rng.Uint64N(3)
		if count > 0 && r.chance(50) {
			nodes = r.rng.Uint64N(count)
		}
	}
	mode, name := fixedMode, "fixed"
	if r.chance(50) {
		mode, name = poolMode, "pool"
	}
	var amount *big.Int
	switch x := r.rng.IntN(100); {
	case x < 3:
		amount = add(uint128, u(1+r.rng.Uint64N(1e18)))
	case x < 6:
		amount = add(uint88, u(r.rng.Uint64N(1e18))) // a tier's perNode would pass uint88
	case x < 10:
		amount = new(big.Int)
	case mode == fixedMode:
		amount = r.wei(u(1e16))
	default:
		amount = r.wei(ether(5))
	}
	if r.chance(5) {
		o.from = r.anyoneBut(c.distributor.addr)
	}
	version := m.version
	if r.chance(5) {
		version = m.version + 1 + r.rng.Uint64N(2)
		if m.version > 0 && r.chance(50) {
			version = r.rng.Uint64N(m.version)
		}
	}
	weights := map[uint8]uint32{}
	for _, id := range m.tierOrder {
		weights[id] = m.tiers[id].weight
	}

	// What the round does, if it gets that far.
	incs := map[uint8]*big.Int{}
	total := new(big.Int)
	carry := new(big.Int).Set(m.poolCarry)
	tooLarge := amount.Cmp(uint128) > 0
	if !tooLarge {
		unit := new(big.Int)
		if mode == poolMode {
			weight := new(big.Int)
			for _, id := range m.tierOrder {
				weight.Add(weight, new(big.Int).Mul(u(m.tiers[id].nodes), u(uint64(weights[id]))))
			}
			pool := add(amount, m.poolCarry)
			if weight.Sign() > 0 {
				unit.Div(pool, weight)
			}
			carry = sub(pool, new(big.Int).Mul(unit, weight))
		}
		for _, id := range m.tierOrder {
			t := m.tiers[id]
			w := u(uint64(weights[id]))
			inc := new(big.Int).Mul(unit, w)
			if mode == fixedMode {
				inc.Mul(amount, w).Div(inc, big.NewInt(10_000))
			}
			if inc.Sign() == 0 {
				continue
			}
			if add(t.perNode, inc).Cmp(uint88) > 0 {
				tooLarge = true
				break
			}
			incs[id] = inc
			total.Add(total, new(big.Int).Mul(inc, u(t.nodes)))
		}
	}
	var pay string
	o.value, pay = r.payFor(total)
	switch {
	case o.from != c.distributor:
		o.wantErr = "NotDistributor"
	case m.rounds[round]:
		o.wantErr = "RoundUsed"
	case nodes != count:
		o.wantErr = "NodeCountChanged"
	case version != m.version:
		o.wantErr = "WeightsChanged"
	case tooLarge:
		o.wantErr = "AmountTooLarge"
	case add(m.balance, o.value).Cmp(add(m.outstanding, total)) < 0:
		o.wantErr = "Insolvent"
	}
	if o.wantErr == "" {
		r.stats["distribute ok "+name]++
		switch o.value.Cmp(total) {
		case -1:
			r.stats["distribute ok paid partly from surplus"]++
		case 1:
			r.stats["distribute ok overpaid"]++
		}
	}
	o.desc = fmt.Sprintf("distribute(round %d, %s, amount %s, nodes %d, version %d) weights %v value %s (%s, total %s, carry %s) from %s, want %s",
		round, name, amount, nodes, version, weights, o.value, pay, total, carry, o.from.addr, outcome(o.wantErr))
	o.data = nf.PackDistribute(u(round), mode, amount, u(nodes), version)
	// The default dev chain prices a slot written from zero (EIP-8037) at about 100,000 gas, and a
	// round may write three (its roundUsed, and the first totalOutstanding and poolCarry).
	o.gas = 600_000 + 60_000*uint64(len(m.tierOrder))
	o.rounds = []uint64{round}
	// Every node changes: the block checks a few, the sweeps all.
	for range min(count, 6) {
		o.nodes = append(o.nodes, 1+r.rng.Uint64N(count))
	}
	o.apply = func() {
		m.rounds[round] = true
		for id, inc := range incs {
			m.tiers[id].perNode.Add(m.tiers[id].perNode, inc)
		}
		if mode == poolMode {
			m.poolCarry = carry
		}
		m.outstanding.Add(m.outstanding, total)
		m.balance.Add(m.balance, o.value)
	}
	o.events = func(t *testing.T, rc *types.Receipt) {
		ev := onlyEvent(t, c, rc, nf.UnpackDistributedEvent)
		if ev.RoundId.Uint64() != round || ev.Mode != mode || ev.Amount.Cmp(amount) != 0 || ev.Nodes.Uint64() != nodes ||
			ev.Total.Cmp(total) != 0 || ev.Carry.Cmp(carry) != 0 {
			t.Fatalf("%s: Distributed = {%s %d %s %s %s %s}", o.desc, ev.RoundId, ev.Mode, ev.Amount, ev.Nodes, ev.Total, ev.Carry)
		}
	}
	return o
}

// setTierWeight is the owner setting a tier's weight, now and then far past any real payoutBps
// or past MAX_WEIGHT_BPS, or someone else trying to.
func (r *randomRun) setTierWeight() *op {
	c, m := r.c, r.m
	tier := r.someTier()
	if len(m.tierOrder) > 0 && r.chance(70) {
		tier = m.tierOrder[r.rng.IntN(len(m.tierOrder))]
	}
	choices := []uint32{0, 1, 5_000, 10_000, 15_000, 20_000, uint32(r.rng.IntN(40_001)), maxWeightBps, maxWeightBps + 1}
	w := choices[r.rng.IntN(len(choices))]
	if r.chance(3) {
		w = r.rng.Uint32()
	}
	o := &op{kind: "setTierWeight", from: c.owner, gas: 200_000, data: nf.PackSetTierWeight(tier, w)}
	switch {
	case r.chance(10):
		o.from = r.anyoneBut(c.owner.addr)
		o.wantErr = "NotOwner"
	case w > maxWeightBps:
		o.wantErr = "WeightTooLarge"
	}
	o.desc = fmt.Sprintf("setTierWeight(%d, %d) from %s, want %s", tier, w, o.from.addr, outcome(o.wantErr))
	version := m.version + 1
	o.apply = func() {
		m.tier(tier).weight = w
		m.version = version
	}
	o.events = func(t *testing.T, rc *types.Receipt) {
		ev := onlyEvent(t, c, rc, nf.UnpackTierWeightChangedEvent)
		if ev.Tier != tier || ev.WeightBps != w || ev.WeightsVersion.Uint64() != version {
			t.Fatalf("%s: TierWeightChanged = %+v, want version %d", o.desc, ev, version)
		}
	}
	return o
}

// maxWeightBps is the factory's MAX_WEIGHT_BPS.
const maxWeightBps = 100_000

func minBig(a, b *big.Int) *big.Int {
	if a.Cmp(b) < 0 {
		return a
	}
	return b
}

func (r *randomRun) withdraw() *op {
	c, m := r.c, r.m
	o := &op{kind: "withdraw", gas: 400_000}
	count := uint64(len(m.nodes))
	var id uint64
	var owner common.Address
	if count == 0 || r.chance(3) {
		id = r.unknownID()
		o.from = r.user()
		owner = o.from.addr
	} else {
		id = 1 + r.rng.Uint64N(count)
		owner = m.nodes[id-1].owner
		o.from = r.accountOf(owner)
		if r.chance(8) {
			o.from = r.anyoneBut(owner)
		}
	}
	var to common.Address
	switch x := r.rng.IntN(100); {
	case x < 45:
		to = owner
	case x < 85:
		to = r.sinks[r.rng.IntN(len(r.sinks))]
	case x < 95:
		to = r.user().addr
	}
	bal := new(big.Int)
	if id >= 1 && id <= count {
		bal = m.nodeBalance(m.nodes[id-1])
	}
	var amount *big.Int
	switch x := r.rng.IntN(100); {
	case x < 40:
		amount = bal
	case x < 75:
		amount = r.wei(bal)
	case x < 90:
		amount = add(add(bal, big.NewInt(1)), r.wei(ether(1)))
	default:
		amount = new(big.Int)
	}
	switch {
	case id == 0 || id > count:
		o.wantErr = "UnknownNode"
	case o.from.addr != owner:
		o.wantErr = "NotNodeOwner"
	case to == (common.Address{}):
		o.wantErr = "ZeroAddress"
	case amount.Cmp(bal) > 0:
		o.wantErr = "InsufficientBalance"
	}
	o.desc = fmt.Sprintf("withdraw(id %d, to %s, amount %s) from %s (balance %s), want %s",
		id, to, amount, o.from.addr, bal, outcome(o.wantErr))
	o.data = nf.PackWithdraw(u(id), to, amount)
	if id >= 1 && id <= count {
		o.nodes = []uint64{id}
	}
	if _, ok := m.sinks[to]; ok {
		o.sinks = []common.Address{to}
	}
	o.apply = func() {
		n := m.nodes[id-1]
		n.withdrawn.Add(n.withdrawn, amount)
		m.outstanding.Sub(m.outstanding, amount)
		m.balance.Sub(m.balance, amount)
		if s, ok := m.sinks[to]; ok {
			s.Add(s, amount)
		}
	}
	o.events = func(t *testing.T, rc *types.Receipt) {
		ev := onlyEvent(t, c, rc, nf.UnpackWithdrawnEvent)
		if ev.Id.Uint64() != id || ev.Owner != owner || ev.To != to || ev.Amount.Cmp(amount) != 0 {
			t.Fatalf("%s: Withdrawn = {%s %s %s %s}", o.desc, ev.Id, ev.Owner, ev.To, ev.Amount)
		}
	}
	return o
}

// transfer hands a node to a user; the model moves it between wallets as the contract does (the
// wallet's last node takes the place of the one that left).
func (r *randomRun) transfer() *op {
	c, m := r.c, r.m
	o := &op{kind: "transfer", gas: 1_000_000} // a new wallet slot is dear on the default dev chain (EIP-8037)
	count := uint64(len(m.nodes))
	var id uint64
	var owner common.Address
	// A transfer is 7 % of the steps: at 3 % of those, as a withdrawal asks, an unknown node
	// came about 4 times a run of 2,000 and never in about one run in 70.
	if count == 0 || r.chance(10) {
		id = r.unknownID()
		o.from = r.user()
		owner = o.from.addr
	} else {
		id = 1 + r.rng.Uint64N(count)
		owner = m.nodes[id-1].owner
		o.from = r.accountOf(owner)
		if r.chance(8) {
			o.from = r.anyoneBut(owner)
		}
	}
	to := r.user().addr
	if r.chance(6) {
		to = common.Address{}
	}
	switch {
	case id == 0 || id > count:
		o.wantErr = "UnknownNode"
	case o.from.addr != owner:
		o.wantErr = "NotNodeOwner"
	case to == (common.Address{}):
		o.wantErr = "ZeroAddress"
	case uint32(len(m.owned[to])) >= m.maxPerWallet:
		o.wantErr = "WalletFull"
	}
	o.desc = fmt.Sprintf("transfer(id %d, to %s) from %s, want %s", id, to, o.from.addr, outcome(o.wantErr))
	o.data = nf.PackTransfer(u(id), to)
	if id >= 1 && id <= count {
		o.nodes = []uint64{id}
	}
	o.wallet = []common.Address{o.from.addr, to}
	o.apply = func() {
		src := m.owned[owner]
		i := slices.Index(src, id)
		src[i] = src[len(src)-1]
		m.owned[owner] = src[:len(src)-1]
		m.owned[to] = append(m.owned[to], id)
		m.nodes[id-1].owner = to
	}
	o.events = func(t *testing.T, rc *types.Receipt) {
		ev := onlyEvent(t, c, rc, nf.UnpackTransferredEvent)
		if ev.Id.Uint64() != id || ev.From != owner || ev.To != to {
			t.Fatalf("%s: Transferred = {%s %s %s}", o.desc, ev.Id, ev.From, ev.To)
		}
	}
	return o
}

func (r *randomRun) accountOf(a common.Address) *account {
	for _, u := range r.c.users {
		if u.addr == a {
			return u
		}
	}
	r.t.Fatalf("no account %s", a)
	return nil
}

func (r *randomRun) fund() *op {
	m := r.m
	value := r.wei(ether(1))
	o := &op{kind: "fund", from: r.anyoneBut(common.Address{}), value: value, gas: 100_000}
	o.desc = fmt.Sprintf("send %s wei to receive() from %s", value, o.from.addr)
	o.apply = func() { m.balance.Add(m.balance, value) }
	o.events = func(t *testing.T, rc *types.Receipt) {
		if len(rc.Logs) != 0 {
			t.Fatalf("%s: %d logs", o.desc, len(rc.Logs))
		}
	}
	return o
}

func (r *randomRun) setPaused() *op {
	c, m := r.c, r.m
	p := r.chance(30)
	o := &op{kind: "setPaused", from: c.owner, gas: 200_000, data: nf.PackSetPaused(p)}
	if r.chance(15) {
		o.from = r.anyoneBut(c.owner.addr)
		o.wantErr = "NotOwner"
	}
	o.desc = fmt.Sprintf("setPaused(%t) from %s, want %s", p, o.from.addr, outcome(o.wantErr))
	o.apply = func() { m.paused = p }
	o.events = func(t *testing.T, rc *types.Receipt) {
		if ev := onlyEvent(t, c, rc, nf.UnpackPausedEvent); ev.Paused != p {
			t.Fatalf("%s: Paused(%t)", o.desc, ev.Paused)
		}
	}
	return o
}

func (r *randomRun) setMaxPerWallet() *op {
	c, m := r.c, r.m
	most := 0
	for _, ids := range m.owned {
		most = max(most, len(ids))
	}
	limit := uint32(max(0, most-2+r.rng.IntN(8))) // now and then below what a wallet holds
	o := &op{kind: "setMaxPerWallet", from: c.owner, gas: 200_000, data: nf.PackSetMaxPerWallet(limit)}
	if r.chance(15) {
		o.from = r.anyoneBut(c.owner.addr)
		o.wantErr = "NotOwner"
	}
	o.desc = fmt.Sprintf("setMaxPerWallet(%d) from %s, want %s", limit, o.from.addr, outcome(o.wantErr))
	o.apply = func() { m.maxPerWallet = limit }
	o.events = func(t *testing.T, rc *types.Receipt) {
		if ev := onlyEvent(t, c, rc, nf.UnpackMaxPerWalletChangedEvent); ev.MaxPerWallet != limit {
			t.Fatalf("%s: MaxPerWalletChanged(%d)", o.desc, ev.MaxPerWallet)
		}
	}
	return o
}

// --- checking ---

// commit mines the batch and checks it: receipts in order, outcomes, events, then the state the
// batch touched.
func (r *randomRun) commit(batch []*op, txs []*types.Transaction) {
	t, c := r.t, r.c
	t.Helper()
	c.commit(t)
	var block uint64
	for i, o := range batch {
		rc := c.receipt(t, txs[i])
		if i == 0 {
			block = rc.BlockNumber.Uint64()
		}
		if rc.BlockNumber.Uint64() != block || rc.TransactionIndex != uint(i) {
			t.Fatalf("%s: mined at block %s index %d, want block %d index %d", o.desc, rc.BlockNumber, rc.TransactionIndex, block, i)
		}
		if o.wantErr == "" {
			if rc.Status != types.ReceiptStatusSuccessful {
				t.Fatalf("%s: failed on chain (gas used %d of %d)", o.desc, rc.GasUsed, o.gas)
			}
			o.events(t, rc)
		} else if rc.Status != types.ReceiptStatusFailed || len(rc.Logs) != 0 {
			t.Fatalf("%s: succeeded on chain or left logs", o.desc)
		}
	}

	nodes := map[uint64]bool{} // node id -> whether a withdrawal touched it
	kinds := map[string]bool{}
	refs := map[[32]byte]bool{}
	rounds := map[uint64]bool{}
	sinks := map[common.Address]bool{}
	wallets := map[common.Address]bool{}
	for _, o := range batch {
		kinds[o.kind] = true
		for _, id := range o.nodes {
			nodes[id] = nodes[id] || o.kind == "withdraw"
		}
		for _, x := range o.refs {
			refs[x] = true
		}
		for _, x := range o.rounds {
			rounds[x] = true
		}
		for _, x := range o.sinks {
			sinks[x] = true
		}
		for _, x := range o.wallet {
			wallets[x] = true
		}
	}
	where := fmt.Sprintf("after block %d (%s)", block, batch[len(batch)-1].desc)
	for id, withdrawn := range nodes {
		r.checkNode(id, where, withdrawn)
	}
	for x := range refs {
		if got := c.paymentRefUsed(t, x); got != r.m.refs[x] {
			t.Fatalf("%s: paymentRefUsed(%x) = %t, model %t", where, x, got, r.m.refs[x])
		}
	}
	for x := range rounds {
		if got := c.roundUsed(t, x); got != r.m.rounds[x] {
			t.Fatalf("%s: roundUsed(%d) = %t, model %t", where, x, got, r.m.rounds[x])
		}
	}
	for x := range sinks {
		wantBig(t, where+": recipient balance", c.balance(t, x), r.m.sinks[x])
	}
	for x := range wallets {
		if x != (common.Address{}) {
			r.checkWallet(x, where)
		}
	}
	r.checkTotals(where, kinds)
}

// checkNode checks nodeInfo(id) against the model, and totalWithdrawnByNode(id) too if asked, and
// returns the node's balance on chain.
func (r *randomRun) checkNode(id uint64, where string, withdrawn bool) *big.Int {
	t := r.t
	t.Helper()
	n := r.m.nodes[id-1]
	credited := r.m.credited(n)
	i := r.c.nodeInfo(t, id)
	if i.NodeOwner != n.owner || i.Tier != n.tier || i.Credited.Cmp(credited) != 0 || i.Withdrawn.Cmp(n.withdrawn) != 0 ||
		i.Balance.Cmp(sub(credited, n.withdrawn)) != 0 {
		t.Fatalf("%s: nodeInfo(%d) = {%s %d balance %s credited %s withdrawn %s}, model {%s %d credited %s withdrawn %s}",
			where, id, i.NodeOwner, i.Tier, i.Balance, i.Credited, i.Withdrawn, n.owner, n.tier, credited, n.withdrawn)
	}
	if withdrawn {
		wantBig(t, fmt.Sprintf("%s: totalWithdrawnByNode(%d)", where, id), r.c.totalWithdrawnByNode(t, id), n.withdrawn)
	}
	return sub(i.Credited, i.Withdrawn)
}

func (r *randomRun) checkWallet(a common.Address, where string) {
	t := r.t
	t.Helper()
	if got := r.c.nodesOf(t, a); !slices.Equal(got, r.m.owned[a]) {
		t.Fatalf("%s: nodesOf(%s) = %v, model %v", where, a, got, r.m.owned[a])
	}
}

// checkTotals checks the contract-wide invariants: what is owed matches the model and the sum of
// the model's node balances, the ether held covers it (exactly the model's ether), and isSolvent;
// and the node count and settings, when the batch (nil: everything) had an operation that could
// change them.
func (r *randomRun) checkTotals(where string, kinds map[string]bool) {
	t, c, m := r.t, r.c, r.m
	t.Helper()
	sum := new(big.Int)
	for _, n := range m.nodes {
		sum.Add(sum, m.nodeBalance(n))
	}
	if sum.Cmp(m.outstanding) != 0 {
		t.Fatalf("%s: model out of step: node balances sum to %s, outstanding %s", where, sum, m.outstanding)
	}
	out := c.totalOutstanding(t)
	wantBig(t, where+": totalOutstanding", out, m.outstanding)
	bal := c.balance(t, c.factory)
	wantBig(t, where+": factory balance", bal, m.balance)
	if bal.Cmp(out) < 0 {
		t.Fatalf("%s: balance %s < totalOutstanding %s", where, bal, out)
	}
	if !c.isSolvent(t) {
		t.Fatalf("%s: isSolvent() = false", where)
	}
	all := kinds == nil
	if all || kinds["mint"] || kinds["distribute"] {
		r.checkTiers(where)
	}
	if all || kinds["mint"] {
		if n := c.nodeCount(t); n != uint64(len(m.nodes)) {
			t.Fatalf("%s: nodeCount = %d, model %d", where, n, len(m.nodes))
		}
	}
	if all || kinds["setPaused"] {
		if p := c.paused(t); p != m.paused {
			t.Fatalf("%s: paused = %t, model %t", where, p, m.paused)
		}
	}
	if all || kinds["setMaxPerWallet"] {
		if x := c.maxPerWallet(t); x != m.maxPerWallet {
			t.Fatalf("%s: maxPerWallet = %d, model %d", where, x, m.maxPerWallet)
		}
	}
}

// checkTiers checks the tier list, every tier the model knows and the pool carry.
func (r *randomRun) checkTiers(where string) {
	t, c, m := r.t, r.c, r.m
	t.Helper()
	if got := view(t, c, nf.PackTierList(), nf.UnpackTierList); !slices.Equal(got, m.tierOrder) {
		t.Fatalf("%s: tierList() = %v, model %v", where, got, m.tierOrder)
	}
	if got := c.weightsVersion(t); got != m.version {
		t.Fatalf("%s: weightsVersion() = %d, model %d", where, got, m.version)
	}
	for id, mt := range m.tiers {
		if got := c.tier(t, id); got.PerNode.Cmp(mt.perNode) != 0 || got.Nodes != mt.nodes || got.WeightBps != mt.weight {
			t.Fatalf("%s: tiers(%d) = {perNode %s nodes %d weight %d}, model {%s %d %d}",
				where, id, got.PerNode, got.Nodes, got.WeightBps, mt.perNode, mt.nodes, mt.weight)
		}
	}
	wantBig(t, where+": poolCarry", c.poolCarry(t), m.poolCarry)
}

// sweep checks every node, wallet and recipient, and sums the chain's own node balances.
func (r *randomRun) sweep() {
	t, c := r.t, r.c
	t.Helper()
	where := fmt.Sprintf("full sweep at %d nodes", len(r.m.nodes))
	sum := new(big.Int)
	for id := uint64(1); id <= uint64(len(r.m.nodes)); id++ {
		sum.Add(sum, r.checkNode(id, where, true))
	}
	wantBig(t, where+": sum over nodes of credited - withdrawn vs totalOutstanding", sum, c.totalOutstanding(t))
	for _, a := range c.users {
		r.checkWallet(a.addr, where)
	}
	for _, s := range r.sinks {
		wantBig(t, where+": recipient balance", c.balance(t, s), r.m.sinks[s])
	}
	r.checkTotals(where, nil)
}

// report logs what the run covered and fails when an outcome the run is meant to exercise never
// came up.
func (r *randomRun) report(took time.Duration, steps int) {
	t := r.t
	var lines []string
	for k, v := range r.stats {
		lines = append(lines, fmt.Sprintf("%s=%d", k, v))
	}
	sort.Strings(lines)
	t.Logf("%d steps in %s, %d nodes, outstanding %s, surplus %s; outcomes: %s",
		steps, took.Round(time.Millisecond), len(r.m.nodes), r.m.outstanding, r.m.surplus(), strings.Join(lines, " "))
	if steps < randomSteps {
		return
	}
	for _, k := range []string{
		"mint ok", "mint NotMinter", "mint MintingPaused", "mint ZeroAddress", "mint PaymentRefUsed", "mint WalletFull",
		"distribute ok fixed", "distribute ok pool", "distribute ok paid partly from surplus", "distribute ok overpaid",
		"distribute NotDistributor", "distribute RoundUsed", "distribute NodeCountChanged", "distribute WeightsChanged",
		"distribute AmountTooLarge",
		"distribute Insolvent", "transfer ok", "transfer UnknownNode", "transfer NotNodeOwner", "transfer ZeroAddress",
		"transfer WalletFull",
		"withdraw ok", "withdraw UnknownNode", "withdraw NotNodeOwner", "withdraw ZeroAddress", "withdraw InsufficientBalance",
		"fund ok", "setPaused ok", "setPaused NotOwner", "setMaxPerWallet ok", "setMaxPerWallet NotOwner",
		"setTierWeight ok", "setTierWeight NotOwner", "setTierWeight WeightTooLarge",
	} {
		if r.stats[k] == 0 {
			t.Errorf("the run never produced %q", k)
		}
	}
}
