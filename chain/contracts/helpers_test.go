package contracts_test

import (
	"bytes"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/rpc"

	"nodeledger/chain/bindings"
)

// The bindings are stateless ABI wrappers, safe to share between tests.
var (
	nf    = bindings.NewNodeFactory()
	nfABI = nf.GetABI()
	reent = bindings.NewReenterer()
)

var (
	gasTipCap = big.NewInt(1e9)   // 1 gwei, well above the simulated miner's minimum tip
	gasFeeCap = big.NewInt(100e9) // 100 gwei, far above the simulated chain's base fee
	panicSel  = []byte{0x4e, 0x48, 0x7b, 0x71}
	errorSel  = []byte{0x08, 0xc3, 0x79, 0xa0}
	uint88    = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 88), big.NewInt(1))
	uint128   = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 128), big.NewInt(1))
)

// ether returns n ether in wei; milli returns n thousandths of an ether.
func ether(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1e18)) }
func milli(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1e15)) }
func u(n uint64) *big.Int    { return new(big.Int).SetUint64(n) }

func add(a, b *big.Int) *big.Int { return new(big.Int).Add(a, b) }
func sub(a, b *big.Int) *big.Int { return new(big.Int).Sub(a, b) }

func ref(s string) [32]byte { return crypto.Keccak256Hash([]byte(s)) }

// account is a key with a locally tracked nonce: each account belongs to one chain, and every
// transaction it signs is sent, so the nonce never needs a round trip.
type account struct {
	key   *ecdsa.PrivateKey
	addr  common.Address
	nonce uint64
}

func newAccount(t testing.TB) *account {
	t.Helper()
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return &account{key: key, addr: crypto.PubkeyToAddress(key.PublicKey)}
}

// chain is a simulated chain with a deployed NodeFactory and funded accounts.
type chain struct {
	sim         *simulated.Backend
	client      simulated.Client
	chainID     *big.Int
	signer      types.Signer
	factory     common.Address
	owner       *account // deployer, the factory's owner
	minter      *account
	distributor *account
	users       []*account
	deployed    *types.Receipt    // the factory's deployment
	unmined     map[*account]bool // senders with transactions sent since the last commit
}

type setup struct {
	maxPerWallet     uint32
	users            int
	distributorFunds *big.Int // genesis balance of the distributor; default 1e9 ether
	bin              string   // the factory's bytecode; default NodeFactory's
	backendOpts      []func(*node.Config, *ethconfig.Config)
}

// newChain starts a simulated chain, funds owner, minter, distributor and s.users users in the
// genesis alloc and deploys the factory from the owner. The chain is closed with the test.
func newChain(t testing.TB, s setup) *chain {
	t.Helper()
	c := &chain{owner: newAccount(t), minter: newAccount(t), distributor: newAccount(t)}
	for range s.users {
		c.users = append(c.users, newAccount(t))
	}
	alloc := types.GenesisAlloc{}
	for _, a := range append([]*account{c.owner, c.minter, c.distributor}, c.users...) {
		alloc[a.addr] = types.Account{Balance: ether(1_000_000_000)}
	}
	if s.distributorFunds != nil {
		alloc[c.distributor.addr] = types.Account{Balance: s.distributorFunds}
	}
	opts := append([]func(*node.Config, *ethconfig.Config){simulated.WithBlockGasLimit(100_000_000), patientMiner}, s.backendOpts...)
	c.sim = simulated.NewBackend(alloc, opts...)
	t.Cleanup(func() { _ = c.sim.Close() })
	c.client = c.sim.Client()
	id, err := c.client.ChainID(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	c.chainID = id
	c.signer = types.LatestSignerForChainID(id)

	if s.maxPerWallet == 0 {
		s.maxPerWallet = 5
	}
	if s.bin == "" {
		s.bin = bindings.NodeFactoryMetaData.Bin
	}
	c.factory, c.deployed = c.deploy(t, c.owner, s.bin,
		nf.PackConstructor(c.minter.addr, c.distributor.addr, s.maxPerWallet))
	return c
}

// patientMiner is a safeguard: the simulated miner stops filling a block after Miner.Recommit
// (2 s by default), leaving the rest of the sent transactions out of it. The blocks here (up to a
// hundred mints) build well within that, but on a loaded machine under -race a cut-off block
// would fail a test confusingly, with a missing receipt.
func patientMiner(_ *node.Config, ec *ethconfig.Config) {
	ec.Miner.Recommit = time.Minute
}

// deploy creates a contract from `from` and returns its address and the deployment receipt.
func (c *chain) deploy(t testing.TB, from *account, bin string, ctor []byte) (common.Address, *types.Receipt) {
	t.Helper()
	r := c.transact(t, from, nil, nil, creation(bin, ctor))
	if r.ContractAddress == (common.Address{}) {
		t.Fatal("deployment receipt has no contract address")
	}
	return r.ContractAddress, r
}

func creation(bin string, ctor []byte) []byte {
	return append(common.FromHex(bin), ctor...)
}

// msg is the call message for a transaction from `from`.
func msg(from *account, to *common.Address, value *big.Int, data []byte) ethereum.CallMsg {
	return ethereum.CallMsg{From: from.addr, To: to, Value: value, Data: data}
}

// send signs and submits a transaction with a fixed gas limit; it is mined at the next Commit.
func (c *chain) send(t testing.TB, from *account, to *common.Address, value *big.Int, data []byte, gas uint64) *types.Transaction {
	t.Helper()
	return c.sendTip(t, from, to, value, data, gas, gasTipCap)
}

// sendTip is send with a chosen priority fee: the simulated miner orders a block's transactions
// from different senders by tip first, so decreasing tips pin a batch to its sending order.
func (c *chain) sendTip(t testing.TB, from *account, to *common.Address, value *big.Int, data []byte, gas uint64, tip *big.Int) *types.Transaction {
	t.Helper()
	if value == nil {
		value = new(big.Int)
	}
	tx, err := types.SignNewTx(from.key, c.signer, &types.DynamicFeeTx{
		ChainID:   c.chainID,
		Nonce:     from.nonce,
		GasTipCap: tip,
		GasFeeCap: gasFeeCap,
		Gas:       gas,
		To:        to,
		Value:     value,
		Data:      data,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.client.SendTransaction(t.Context(), tx); err != nil {
		t.Fatalf("send: %v", err)
	}
	from.nonce++
	if c.unmined == nil {
		c.unmined = map[*account]bool{}
	}
	c.unmined[from] = true
	return tx
}

// commit mines the sent transactions into a block. The pool promotes a sender's second and later
// transactions to "pending" on a background loop that Commit does not wait for, and a block is
// built from pending transactions only; so first wait until the pool's pending nonce of every
// sender has caught up with what it sent.
func (c *chain) commit(t testing.TB) {
	t.Helper()
	for a := range c.unmined {
		for start := time.Now(); ; time.Sleep(time.Millisecond) {
			n, err := c.client.PendingNonceAt(t.Context(), a.addr)
			if err != nil {
				t.Fatal(err)
			}
			if n == a.nonce {
				break
			}
			if time.Since(start) > 10*time.Second {
				t.Fatalf("transactions of %s stuck in the pool: pending nonce %d, sent up to %d", a.addr, n, a.nonce)
			}
		}
	}
	clear(c.unmined)
	c.sim.Commit()
}

func (c *chain) receipt(t testing.TB, tx *types.Transaction) *types.Receipt {
	t.Helper()
	r, err := c.client.TransactionReceipt(t.Context(), tx.Hash())
	if err != nil {
		t.Fatalf("receipt of %s: %v", tx.Hash(), err)
	}
	return r
}

// transact estimates gas (failing the test, with the decoded error, if the transaction would
// revert), sends, mines, and checks that the transaction succeeded.
func (c *chain) transact(t testing.TB, from *account, to *common.Address, value *big.Int, data []byte) *types.Receipt {
	t.Helper()
	gas, err := c.client.EstimateGas(t.Context(), msg(from, to, value, data))
	if err != nil {
		t.Fatalf("transaction would revert: %s", describe(err))
	}
	tx := c.send(t, from, to, value, data, gas+gas/4)
	c.commit(t)
	r := c.receipt(t, tx)
	if r.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("transaction %s failed on chain", tx.Hash())
	}
	return r
}

// call runs the transaction as an eth_call against the latest block.
func (c *chain) call(t testing.TB, from *account, to *common.Address, value *big.Int, data []byte) ([]byte, error) {
	return c.client.CallContract(t.Context(), msg(from, to, value, data), nil)
}

// expectRevert asserts that the transaction reverts with the named custom error, both as an
// eth_call and as a gas estimate, and then sends it anyway with a fixed gas limit to check that
// it also fails when mined, leaving no logs.
func (c *chain) expectRevert(t testing.TB, from *account, to *common.Address, value *big.Int, data []byte, name string) {
	t.Helper()
	_, err := c.call(t, from, to, value, data)
	wantRevert(t, err, name)
	_, err = c.client.EstimateGas(t.Context(), msg(from, to, value, data))
	wantRevert(t, err, name)
	tx := c.send(t, from, to, value, data, 1_000_000)
	c.commit(t)
	r := c.receipt(t, tx)
	if r.Status != types.ReceiptStatusFailed {
		t.Fatalf("%s: transaction succeeded on chain", name)
	}
	if len(r.Logs) != 0 {
		t.Fatalf("%s: failed transaction left %d logs", name, len(r.Logs))
	}
}

// revertData extracts the revert data go-ethereum attaches to a failed eth_call or
// eth_estimateGas: the JSON-RPC error carries it as a hex string in its data field, exposed
// through rpc.DataError.
func revertData(err error) ([]byte, bool) {
	var de rpc.DataError
	if !errors.As(err, &de) {
		return nil, false
	}
	s, ok := de.ErrorData().(string)
	if !ok {
		return nil, false
	}
	data, derr := hexutil.Decode(s)
	return data, derr == nil
}

// revertName names the revert: a NodeFactory custom error by name (matched on its 4-byte
// selector), "Panic(0x..)", "Error(reason)", or a description when there is no revert data.
func revertName(err error) string {
	data, ok := revertData(err)
	switch {
	case !ok:
		return fmt.Sprintf("<no revert data: %v>", err)
	case len(data) < 4:
		return fmt.Sprintf("<revert data %x>", data)
	}
	for name, e := range nfABI.Errors {
		if bytes.Equal(e.ID[:4], data[:4]) {
			return name
		}
	}
	switch {
	case bytes.Equal(data[:4], panicSel) && len(data) == 36:
		return fmt.Sprintf("Panic(%#x)", new(big.Int).SetBytes(data[4:]))
	case bytes.Equal(data[:4], errorSel):
		return fmt.Sprintf("Error(%x)", data[4:])
	}
	return fmt.Sprintf("<unknown selector %x>", data[:4])
}

func describe(err error) string {
	if _, ok := revertData(err); ok {
		return revertName(err)
	}
	return err.Error()
}

// wantRevert asserts that err is a revert with the named custom error (or "Panic(0x11)").
func wantRevert(t testing.TB, err error, name string) {
	t.Helper()
	if err == nil {
		t.Fatalf("want revert %s, got success", name)
	}
	if got := revertName(err); got != name {
		t.Fatalf("want revert %s, got %s (%v)", name, got, err)
	}
}

// events decodes the receipt's logs of one event type, checking that every log came from the
// factory.
func events[E any](t testing.TB, c *chain, r *types.Receipt, unpack func(*types.Log) (*E, error)) []*E {
	t.Helper()
	var out []*E
	for _, l := range r.Logs {
		e, err := unpack(l)
		if errors.Is(err, bind.ErrEventSignatureMismatch) {
			continue
		}
		if err != nil {
			t.Fatalf("decode log: %v", err)
		}
		if l.Address != c.factory {
			t.Fatalf("event from %s, want the factory %s", l.Address, c.factory)
		}
		out = append(out, e)
	}
	return out
}

// onlyEvent asserts that the receipt holds exactly one log, of the given event type.
func onlyEvent[E any](t testing.TB, c *chain, r *types.Receipt, unpack func(*types.Log) (*E, error)) *E {
	t.Helper()
	evs := events(t, c, r, unpack)
	if len(r.Logs) != 1 || len(evs) != 1 {
		t.Fatalf("want exactly one %T log, receipt has %d logs (%d of that type)", *new(E), len(r.Logs), len(evs))
	}
	return evs[0]
}

// onlyOf asserts that the receipt holds exactly one log of the given event type, among others.
func onlyOf[E any](t testing.TB, c *chain, r *types.Receipt, unpack func(*types.Log) (*E, error)) *E {
	t.Helper()
	evs := events(t, c, r, unpack)
	if len(evs) != 1 {
		t.Fatalf("want one %T log, got %d", *new(E), len(evs))
	}
	return evs[0]
}

func wantBig(t testing.TB, what string, got, want *big.Int) {
	t.Helper()
	if got.Cmp(want) != 0 {
		t.Fatalf("%s = %s, want %s", what, got, want)
	}
}

// --- the factory's transactions ---

// mint mints a node from the minter and checks the NodeMinted event; it returns the new id.
func (c *chain) mint(t testing.TB, to common.Address, tier uint8, paymentRef [32]byte) (uint64, *types.Receipt) {
	t.Helper()
	r := c.transact(t, c.minter, &c.factory, nil, nf.PackMint(to, tier, paymentRef))
	ev := onlyEvent(t, c, r, nf.UnpackNodeMintedEvent)
	if ev.Owner != to || ev.Tier != tier || ev.PaymentRef != paymentRef {
		t.Fatalf("NodeMinted = %+v, want owner %s tier %d ref %x", ev, to, tier, paymentRef)
	}
	return ev.Id.Uint64(), r
}

// The values of NodeFactory.Mode.
const (
	fixedMode uint8 = 0
	poolMode  uint8 = 1
)

// distribute has the owner set each tier with nodes to weights[t] (0 past the array's end) where
// it differs, then sends round `round` from the distributor for the nodes minted so far and the
// weights' version, checks the Distributed event's echo of the call and returns the event (its
// total and carry are the caller's to check) with the receipt.
func (c *chain) distribute(t testing.TB, round uint64, mode uint8, amount *big.Int, weights []uint32, value *big.Int) (*bindings.NodeFactoryDistributed, *types.Receipt) {
	t.Helper()
	c.setWeights(t, weights...)
	nodes := c.nodeCount(t)
	r := c.transact(t, c.distributor, &c.factory, value, c.packRound(t, round, mode, amount, nodes))
	ev := onlyEvent(t, c, r, nf.UnpackDistributedEvent)
	wantBig(t, "Distributed.roundId", ev.RoundId, u(round))
	wantBig(t, "Distributed.amount", ev.Amount, amount)
	wantBig(t, "Distributed.nodes", ev.Nodes, u(nodes))
	if ev.Mode != mode {
		t.Fatalf("Distributed.mode = %d, want %d", ev.Mode, mode)
	}
	return ev, r
}

// setWeights has the owner set each tier with nodes to weights[t] (0 past the array's end) where
// it differs.
func (c *chain) setWeights(t testing.TB, weights ...uint32) {
	t.Helper()
	for _, tier := range view(t, c, nf.PackTierList(), nf.UnpackTierList) {
		w := uint32(0)
		if int(tier) < len(weights) {
			w = weights[tier]
		}
		if c.tier(t, tier).WeightBps != w {
			c.setTierWeight(t, tier, w)
		}
	}
}

// packRound is the calldata of a round for `nodes` nodes and the factory's weights version now.
func (c *chain) packRound(t testing.TB, round uint64, mode uint8, amount *big.Int, nodes uint64) []byte {
	t.Helper()
	return nf.PackDistribute(u(round), mode, amount, u(nodes), c.weightsVersion(t))
}

// setTierWeight sets a tier's weight from the owner and checks the TierWeightChanged event.
func (c *chain) setTierWeight(t testing.TB, tier uint8, w uint32) *types.Receipt {
	t.Helper()
	version := c.weightsVersion(t)
	r := c.transact(t, c.owner, &c.factory, nil, nf.PackSetTierWeight(tier, w))
	ev := onlyEvent(t, c, r, nf.UnpackTierWeightChangedEvent)
	if ev.Tier != tier || ev.WeightBps != w || uint64(ev.WeightsVersion.Uint64()) != version+1 {
		t.Fatalf("TierWeightChanged = %+v, want tier %d weight %d version %d", ev, tier, w, version+1)
	}
	return r
}

func (c *chain) weightsVersion(t testing.TB) uint64 {
	t.Helper()
	return view(t, c, nf.PackWeightsVersion(), nf.UnpackWeightsVersion).Uint64()
}

// withdraw withdraws from `from` and checks the Withdrawn event.
func (c *chain) withdraw(t testing.TB, from *account, id uint64, to common.Address, amount *big.Int) *types.Receipt {
	t.Helper()
	r := c.transact(t, from, &c.factory, nil, nf.PackWithdraw(u(id), to, amount))
	ev := onlyEvent(t, c, r, nf.UnpackWithdrawnEvent)
	if ev.Id.Uint64() != id || ev.Owner != from.addr || ev.To != to || ev.Amount.Cmp(amount) != 0 {
		t.Fatalf("Withdrawn = {id %s owner %s to %s amount %s}, want {%d %s %s %s}",
			ev.Id, ev.Owner, ev.To, ev.Amount, id, from.addr, to, amount)
	}
	return r
}

// fund sends plain ether to the factory's receive().
func (c *chain) fund(t testing.TB, from *account, value *big.Int) *types.Receipt {
	t.Helper()
	r := c.transact(t, from, &c.factory, value, nil)
	if len(r.Logs) != 0 {
		t.Fatalf("receive() emitted %d logs", len(r.Logs))
	}
	return r
}

// --- views ---

func view[T any](t testing.TB, c *chain, data []byte, unpack func([]byte) (T, error)) T {
	t.Helper()
	return viewAt(t, c, c.factory, data, unpack)
}

func viewAt[T any](t testing.TB, c *chain, addr common.Address, data []byte, unpack func([]byte) (T, error)) T {
	t.Helper()
	out, err := c.client.CallContract(t.Context(), ethereum.CallMsg{To: &addr, Data: data}, nil)
	if err != nil {
		t.Fatalf("view call: %s", describe(err))
	}
	v, err := unpack(out)
	if err != nil {
		t.Fatalf("unpack view: %v", err)
	}
	return v
}

func (c *chain) nodeInfo(t testing.TB, id uint64) bindings.NodeInfoOutput {
	t.Helper()
	return view(t, c, nf.PackNodeInfo(u(id)), nf.UnpackNodeInfo)
}

func (c *chain) nodesOf(t testing.TB, wallet common.Address) []uint64 {
	t.Helper()
	ids := view(t, c, nf.PackNodesOf(wallet), nf.UnpackNodesOf)
	out := make([]uint64, len(ids))
	for i, id := range ids {
		out[i] = id.Uint64()
	}
	return out
}

func (c *chain) nodeCount(t testing.TB) uint64 {
	t.Helper()
	return view(t, c, nf.PackNodeCount(), nf.UnpackNodeCount).Uint64()
}

func (c *chain) totalOutstanding(t testing.TB) *big.Int {
	t.Helper()
	return view(t, c, nf.PackTotalOutstanding(), nf.UnpackTotalOutstanding)
}

func (c *chain) totalWithdrawnByNode(t testing.TB, id uint64) *big.Int {
	t.Helper()
	return view(t, c, nf.PackTotalWithdrawnByNode(u(id)), nf.UnpackTotalWithdrawnByNode)
}

func (c *chain) isSolvent(t testing.TB) bool {
	t.Helper()
	return view(t, c, nf.PackIsSolvent(), nf.UnpackIsSolvent)
}

func (c *chain) paused(t testing.TB) bool {
	t.Helper()
	return view(t, c, nf.PackPaused(), nf.UnpackPaused)
}

func (c *chain) maxPerWallet(t testing.TB) uint32 {
	t.Helper()
	return view(t, c, nf.PackMaxPerWallet(), nf.UnpackMaxPerWallet)
}

func (c *chain) paymentRefUsed(t testing.TB, r [32]byte) bool {
	t.Helper()
	return view(t, c, nf.PackPaymentRefUsed(r), nf.UnpackPaymentRefUsed)
}

func (c *chain) tier(t testing.TB, tier uint8) bindings.TiersOutput {
	t.Helper()
	return view(t, c, nf.PackTiers(tier), nf.UnpackTiers)
}

func (c *chain) poolCarry(t testing.TB) *big.Int {
	t.Helper()
	return view(t, c, nf.PackPoolCarry(), nf.UnpackPoolCarry)
}

func (c *chain) roundUsed(t testing.TB, round uint64) bool {
	t.Helper()
	return view(t, c, nf.PackRoundUsed(u(round)), nf.UnpackRoundUsed)
}

func (c *chain) balance(t testing.TB, addr common.Address) *big.Int {
	t.Helper()
	b, err := c.client.BalanceAt(t.Context(), addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// snapshot renders everything the factory holds that the tests observe, for before/after
// comparisons around a reverted transaction.
func (c *chain) snapshot(t testing.TB) string {
	t.Helper()
	var b strings.Builder
	n := c.nodeCount(t)
	fmt.Fprintf(&b, "nodes=%d outstanding=%s balance=%s paused=%t max=%d solvent=%t\n",
		n, c.totalOutstanding(t), c.balance(t, c.factory), c.paused(t), c.maxPerWallet(t), c.isSolvent(t))
	for id := uint64(1); id <= n; id++ {
		i := c.nodeInfo(t, id)
		fmt.Fprintf(&b, "node %d: owner=%s tier=%d balance=%s credited=%s withdrawn=%s\n",
			id, i.NodeOwner, i.Tier, i.Balance, i.Credited, i.Withdrawn)
	}
	for _, a := range append([]*account{c.owner, c.minter, c.distributor}, c.users...) {
		fmt.Fprintf(&b, "nodesOf %s: %v\n", a.addr, c.nodesOf(t, a.addr))
	}
	for _, id := range view(t, c, nf.PackTierList(), nf.UnpackTierList) {
		x := c.tier(t, id)
		fmt.Fprintf(&b, "tier %d: perNode=%s nodes=%d weight=%d next=%d\n", id, x.PerNode, x.Nodes, x.WeightBps, x.Next)
	}
	fmt.Fprintf(&b, "poolCarry=%s\n", c.poolCarry(t))
	return b.String()
}

// unchanged runs f and asserts that the factory's observable state is the same afterwards.
func (c *chain) unchanged(t testing.TB, f func()) {
	t.Helper()
	before := c.snapshot(t)
	f()
	if after := c.snapshot(t); after != before {
		t.Fatalf("state changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// wantNode asserts nodeInfo(id) and totalWithdrawnByNode(id).
func (c *chain) wantNode(t testing.TB, id uint64, owner common.Address, tier uint8, credited, withdrawn *big.Int) {
	t.Helper()
	i := c.nodeInfo(t, id)
	if i.NodeOwner != owner || i.Tier != tier {
		t.Fatalf("node %d: owner %s tier %d, want %s %d", id, i.NodeOwner, i.Tier, owner, tier)
	}
	wantBig(t, fmt.Sprintf("node %d credited", id), i.Credited, credited)
	wantBig(t, fmt.Sprintf("node %d withdrawn", id), i.Withdrawn, withdrawn)
	wantBig(t, fmt.Sprintf("node %d balance", id), i.Balance, sub(credited, withdrawn))
	wantBig(t, fmt.Sprintf("totalWithdrawnByNode(%d)", id), c.totalWithdrawnByNode(t, id), withdrawn)
}

// wantSolvent asserts the accounting invariants over every node.
func (c *chain) wantSolvent(t testing.TB) {
	t.Helper()
	out := c.totalOutstanding(t)
	sum := new(big.Int)
	for id := uint64(1); id <= c.nodeCount(t); id++ {
		i := c.nodeInfo(t, id)
		sum.Add(sum, sub(i.Credited, i.Withdrawn))
	}
	wantBig(t, "sum of node balances", sum, out)
	if bal := c.balance(t, c.factory); bal.Cmp(out) < 0 {
		t.Fatalf("contract balance %s < totalOutstanding %s", bal, out)
	}
	if !c.isSolvent(t) {
		t.Fatal("isSolvent() = false")
	}
}
