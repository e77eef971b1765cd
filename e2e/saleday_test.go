package e2e

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"nodeledger/chain"
	"nodeledger/chain/bindings"
	"nodeledger/chain/gethdev"
	"nodeledger/jobs/sale"
	"nodeledger/store"
	"nodeledger/store/pgdev"
	"nodeledger/store/storetest"
	"nodeledger/views"
)

// The sale-day harness: geth --dev, several instances of the real binary on one database, buyers
// paying from funded wallets (some wrongly), trackers and pollers reading through the front, an
// instance kill -9ed now and then, and at the end every payment checked against the chain and the
// ledger. TestSaleDayShort runs it small in every `go test ./...`; TestSaleDay (build tag long,
// `make saleday`) runs the whole scenario and writes bench/SALEDAY.md.

// TestSaleDayShort is the sale day in small: 300 payments from 50 wallets, half of them in a
// listed USDC, about 5 % of them wrong (a bad amount, a tier that sells out while it is paid, a
// wallet over its tier's allowance), three instances that clients reach in turn, one of them
// kill -9ed mid-run. Every good payment must be exactly one node on chain and in the ledger, in
// the currency and amount it paid, every wrong one rejected with its reason, and the tier that
// sells out must hold exactly its supply.
func TestSaleDayShort(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds the binary and runs geth")
	}
	p := saleParams{
		instances: 3, blockSec: 1, confirmations: 1, wallets: 50,
		steady: 240, steadyFor: 24 * time.Second, burst: 60, burstFor: 5 * time.Second,
		trackers: 40, pollers: 10, killEvery: 12 * time.Second, maxKills: 1, drainFor: 75 * time.Second, usdc: true, screened: true,
	}
	r := runSaleDay(t, p)
	t.Log("\n" + r.summary())
	r.check(t)
}

// saleParams is one sale day's shape.
type saleParams struct {
	instances     int
	blockSec      int
	gasLimit      int // the chain's block gas limit; 0: geth --dev's own
	confirmations int
	wallets       int
	steady        int           // payments spread evenly over steadyFor
	steadyFor     time.Duration //
	burst         int           // payments then sent within burstFor
	burstFor      time.Duration
	trackers      int // clients each following one payment's tracker partial at a time, every 2 s
	pollers       int // clients each reading /api/tiers and /api/stats every 2 s
	killEvery     time.Duration
	maxKills      int           // 0: one every killEvery until the backlog has cleared
	drainFor      time.Duration // how long the backlog may take to clear after the last payment
	haproxy       bool          // the instances behind HAProxy; else clients take them in turn
	profiles      string        // where each instance's log and CPU profile of the burst's first 30 s go; "": no profile
	env           []string      // added to the instances' settings
	usdc          bool          // every other payment in USDC; else all in ETH
	// ha puts the ledger on a pg_auto_failover formation (store/pgdev.HA) instead of one server,
	// whose primary is kill -9ed dbKills times from the burst's start on, each once the last
	// one's old primary is back as the standby; an operator adds a referral code every second
	// through the front meanwhile, and every one acknowledged must be there at the end.
	ha      bool
	dbKills int
	// verifyAll has verify wait until the ledger holds every payment's and every mint's block
	// final (the reconciler reads it at its next tick) and cover the whole sale; else it verifies
	// the blocks final when the backlog cleared.
	verifyAll bool
	// screened screens the payers: a sanctions oracle lists 1 % of the wallets before the sale
	// (screenedOut), and tier 3 requires a verified identity, which a list an admin uploads gives
	// nine wallets in ten (verified): the others' first payment to it is held.
	screened bool
}

// screenedOut tells whether the sanctions oracle of a screened sale lists wallet i; verified,
// whether a screened sale's list of verified identities names it.
func screenedOut(i int) bool { return i%100 == 7 }
func verified(i int) bool    { return i%10 != 3 }

// Tiers of a sale day: tier 1 sells without limit, tier 2 has a supply the run exhausts, tier 3
// allows one node per wallet. tierBad stands for a payment of an amount no tier has.
const (
	tierBad = 0
	tierAny = 1
	tierCap = 2
	tierOne = 3
)

var (
	tierPrices = map[int]*big.Int{tierAny: big.NewInt(10_000_000_000_000_000), tierCap: big.NewInt(20_000_000_000_000_000),
		tierOne: big.NewInt(30_000_000_000_000_000)}
	badAmount = big.NewInt(12_345_000_000_000_000)
)

// salePayment is one payment a buyer makes, and what the chain and the ledger made of it.
type salePayment struct {
	wallet int
	tier   int
	usdc   bool // paid in the stablecoin: a transfer(paymentsWallet, amount) of it
	burst  bool
	tx     common.Hash
	ref    common.Hash // what the factory's mint names it by
	sentAt time.Time

	block, index uint64
	mined        bool
	want         store.ReasonCode // what the ledger must say: "" for a node
}

// saleSchedule is the run's payments, in the order they are sent: out of each 50, one of a bad
// amount, one to the tier that sells out, and one pair to the one-per-wallet tier from a wallet
// that has not paid it yet while there are such wallets (the second is over its allowance); the
// rest buy tier 1. Wallets take turns; every other payment is in USDC.
func saleSchedule(p saleParams) []*salePayment {
	var out []*salePayment
	pairs := 0
	add := func(n int, burst bool) {
		pay := func(w, tier int) {
			out = append(out, &salePayment{wallet: w, tier: tier, usdc: p.usdc && inUSDC(len(out)), burst: burst})
		}
		for i := 0; i < n; i++ {
			w := len(out) % p.wallets
			switch {
			case i%50 == 7:
				pay(w, tierBad)
			case i%50 == 21:
				pay(w, tierCap)
			case i%50 == 35 && i+1 < n:
				w, pairs = pairs%p.wallets, pairs+1
				pay(w, tierOne)
				pay(w, tierOne)
				i++
			default:
				pay(w, tierAny)
			}
		}
	}
	add(p.steady, false)
	add(p.burst, true)
	return out
}

// capSupply is tier 2's supply: half of what the steady phase pays it, so it sells out midway.
func capSupply(pays []*salePayment) int {
	n := 0
	for _, p := range pays {
		if p.tier == tierCap && !p.burst {
			n++
		}
	}
	return max(1, n/2)
}

type saleBuyer struct {
	mu    sync.Mutex
	key   *ecdsa.PrivateKey
	addr  common.Address
	nonce uint64
}

// saleDay is a deployment for a sale day.
type saleDay struct {
	p           saleParams
	geth        *gethdev.Node
	bin         string
	env         []string
	ledger      *store.Store
	chain       *chain.Client
	rpc         *rpc.Client
	payTo       common.Address
	usdc        common.Address // the stablecoin the sale lists
	usdcGas     uint64         // what a payment in it is signed with
	gethMetrics string         // where geth serves its metrics
	sends       atomic.Int64   // eth_sendRawTransaction calls the buyers made
	supply      int
	buyers      []*saleBuyer
	insts       []*instance
	front       []string // where clients go: HAProxy, or the instances in turn
	haproxy     string   // HAProxy's version, when it runs
	hooks       *hookLog // a webhook receiver of every event
	dir         string
	// referrers are the sale's code's owner and the partner above it.
	referrers [2]string
	minter    common.Address
	lag       *verifierLag // from the start of the payments
	dbWork    *dbWatch     // likewise
	ha        *pgdev.HA    // the ledger's formation, with ha
}

// singleMintGas is what the node estimates a mint of one node alone costs now: a wallet's first
// node, and a later one (buyer 0 holds nodes by the end).
func (s *saleDay) singleMintGas(ctx context.Context, t *testing.T) (first, later uint64) {
	t.Helper()
	estimate := func(to common.Address, ref common.Hash) uint64 {
		var gas hexutil.Uint64
		factory := s.chain.Factory()
		if err := s.rpc.CallContext(ctx, &gas, "eth_estimateGas", map[string]any{
			"from": s.minter, "to": &factory, "data": hexutil.Bytes(s.chain.MintData(to, 1, ref))}); err != nil {
			t.Fatal(err)
		}
		return uint64(gas)
	}
	return estimate(common.Address{0xfe, 0xed}, common.Hash{0xfe, 1}), estimate(s.buyers[0].addr, common.Hash{0xfe, 2})
}

// runSaleDay deploys, runs the sale and reads what came of it.
func runSaleDay(t *testing.T, p saleParams) *saleResult {
	t.Helper()
	pays := saleSchedule(p)
	start := time.Now()
	s := newSaleDay(t, p, capSupply(pays))
	t.Logf("deployed, %d wallets funded, %d instances up in %v", p.wallets, p.instances, time.Since(start).Round(time.Second))
	return s.run(t, pays)
}

func newSaleDay(t *testing.T, p saleParams, supply int) *saleDay {
	t.Helper()
	ctx := t.Context()
	gethMetrics := gethdev.FreeAddr(t)
	host, port, _ := net.SplitHostPort(gethMetrics)
	args := []string{"--dev.period", strconv.Itoa(p.blockSec), "--metrics", "--metrics.addr", host, "--metrics.port", port}
	if p.verifyAll {
		// A rebuild of the whole sale reads the chain's state at its first blocks: a full node
		// keeps the last 128 blocks' state only (docs/operations.md, "Rebuild").
		args = append(args, "--gcmode", "archive", "--state.scheme", "hash")
	}
	if p.gasLimit > 0 {
		// --dev.gaslimit is the genesis block's; --miner.gaslimit keeps the blocks at it.
		args = append(args, "--dev.gaslimit", strconv.Itoa(p.gasLimit), "--miner.gaslimit", strconv.Itoa(p.gasLimit))
	}
	s := &saleDay{p: p, geth: gethdev.Start(t, args...), gethMetrics: gethMetrics, bin: buildBinary(t), supply: supply, dir: t.TempDir()}
	deployerKey, deployer := hexKey(t)
	minterKey, minter := hexKey(t)
	s.minter = common.HexToAddress(minter)
	distributorKey, distributor := hexKey(t)
	s.buyers = make([]*saleBuyer, p.wallets)
	funded := []string{deployer, minter, distributor}
	for i := range s.buyers {
		k, err := crypto.GenerateKey()
		if err != nil {
			t.Fatal(err)
		}
		s.buyers[i] = &saleBuyer{key: k, addr: crypto.PubkeyToAddress(k.PublicKey)}
		funded = append(funded, strings.ToLower(s.buyers[i].addr.Hex()))
	}
	s.geth.FundAll(funded, 100)

	s.env = []string{"PATH=" + os.Getenv("PATH"), "ETH_RPC_URL=" + s.geth.URL(), "CHAIN_ID=1337", "REFUND_POLICY=within 2 working days",
		"DEPLOYER_KEY=" + deployerKey, "MINTER_KEY=" + minterKey, "DISTRIBUTOR_KEY=" + distributorKey}
	factory := deployFactory(t, s.bin, s.env, "-max-per-wallet", "100000")
	_, payments := hexKey(t)
	s.payTo = common.HexToAddress(payments)
	var dbURL string
	if p.ha {
		s.ha = storetest.HA(t)
		dbURL = s.ha.URL
	} else {
		dbURL = storetest.EmptyDatabase(t)
	}
	s.env = append(append(s.env, "FACTORY_ADDRESS="+factory, "DATABASE_URL="+dbURL, "PAYMENT_ADDRESS="+payments,
		"CRON_KEY="+cronKey, "ADMIN_KEY="+adminKey, "CONFIRMATIONS="+strconv.Itoa(p.confirmations),
		"PUBLIC_URL=http://127.0.0.1", "SESSION_SECRET=sale-day-session-secret-0123456789abcdef",
		"WEBHOOK_ALLOW_PRIVATE=true"), p.env...) // the receiver is this process

	if p.haproxy {
		s.env = append(s.env, "TRUSTED_PROXIES=127.0.0.1/32") // HAProxy connects from there
	}
	var err error
	if s.ledger, err = storetest.Open(ctx, dbURL); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.ledger.Close() })
	if s.rpc, err = rpc.DialOptions(ctx, s.geth.URL(), rpc.WithHTTPClient(&http.Client{
		Transport: &http.Transport{MaxIdleConnsPerHost: 64}, Timeout: 30 * time.Second})); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.rpc.Close)
	s.chain = chain.New(s.rpc, chain.Config{Factory: common.HexToAddress(factory)})

	// The tiers' weights are the factory's: its owner, the deployer, sets them.
	owner := s.chain.NewSender(chain.LocalSigner(mustKey(t, deployerKey)), big.NewInt(1337))
	factoryAddr := common.HexToAddress(factory)
	for tier := range uint8(3) {
		if r, err := owner.Transact(ctx, &factoryAddr, s.chain.SetTierWeightData(tier+1, 10000), nil); err != nil || r.Status != 1 {
			t.Fatalf("setTierWeight(%d): %v", tier+1, err)
		}
	}
	s.usdc, s.usdcGas = s.deployUSDC(t, owner)
	s.env = append(s.env, "PAYMENT_TOKENS="+s.usdc.Hex())
	if p.screened {
		s.env = append(s.env, "SANCTIONS_ORACLE="+s.deploySanctions(t, owner).Hex())
	}

	logs := cmp.Or(p.profiles, s.dir) // kept with the profiles, for the note on the run
	for i := range p.instances {
		in := &instance{name: fmt.Sprintf("instance %d", i+1), bin: s.bin, addr: gethdev.FreeAddr(t), metrics: gethdev.FreeAddr(t),
			env: s.env, log: filepath.Join(logs, fmt.Sprintf("instance-%d.log", i+1))}
		os.Remove(in.log) // a previous run's
		s.insts = append(s.insts, in)
		t.Cleanup(in.stop)
		if err := in.start(); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			s.putTiers(t, in)
			s.verifyIdentities(t, in)
			s.bindCodes(t, in)
			s.hooks = newHookLog(t)
			s.hooks.subscribe(t, &server{base: "http://" + in.addr}, "*")
		}
	}
	if p.haproxy {
		s.front = []string{s.startHAProxy(t)}
	} else {
		for _, in := range s.insts {
			s.front = append(s.front, "http://"+in.addr)
		}
	}
	return s
}

// putTiers puts the sale's three tiers on sale through the operator's API.
func (s *saleDay) putTiers(t *testing.T, in *instance) {
	t.Helper()
	srv := &server{base: "http://" + in.addr}
	bodies := map[int]string{
		tierAny: `{"label":"Standard","priceWei":"%s","tokenPrices":[%s],"maxPerWallet":100000,"payoutBps":10000,"enabled":true,"confirm":true}`,
		tierCap: `{"label":"Limited","priceWei":"%s","tokenPrices":[%s],"maxPerWallet":100000,"payoutBps":10000,"enabled":true,"supply":` + strconv.Itoa(s.supply) + `,"confirm":true}`,
		tierOne: `{"label":"One each","priceWei":"%s","tokenPrices":[%s],"maxPerWallet":1,"payoutBps":10000,"enabled":true,` +
			`"kycRequired":` + strconv.FormatBool(s.p.screened) + `,"confirm":true}`,
	}
	for tier := tierAny; tier <= tierOne; tier++ {
		usdcPrice := fmt.Sprintf(`{"token":%q,"amount":"%s"}`, s.usdc.Hex(), usdcPrices[tier])
		if status, body := srv.send(t, http.MethodPut, "/api/admin/tiers/"+strconv.Itoa(tier), "X-Admin-Key", adminKey,
			fmt.Sprintf(bodies[tier], tierPrices[tier], usdcPrice)); status != 200 {
			t.Fatalf("putting tier %d: %d %v", tier, status, body)
		}
	}
}

// deploySanctions deploys a sanctions oracle (Chainalysis's interface) as owner and lists the
// wallets screenedOut names, before the sale, and returns its address.
func (s *saleDay) deploySanctions(t *testing.T, owner *chain.Sender) common.Address {
	t.Helper()
	ctx := t.Context()
	r, err := owner.Transact(ctx, nil, common.FromHex(bindings.SanctionsListMetaData.Bin), nil)
	if err != nil || r.Status != 1 {
		t.Fatalf("deploying the sanctions oracle: %v", err)
	}
	var listed []common.Address
	for i, b := range s.buyers {
		if screenedOut(i) {
			listed = append(listed, b.addr)
		}
	}
	oracle := r.ContractAddress
	if r, err := owner.Transact(ctx, &oracle, bindings.NewSanctionsList().PackAddToSanctionsList(listed), nil); err != nil || r.Status != 1 {
		t.Fatalf("listing %d wallets: %v", len(listed), err)
	}
	return oracle
}

// verifyIdentities has an admin mark the wallets verified names as verified, with the list a
// launchpad would give (a screened sale only).
func (s *saleDay) verifyIdentities(t *testing.T, in *instance) {
	t.Helper()
	if !s.p.screened {
		return
	}
	var list strings.Builder
	list.WriteString("address,reason\n")
	for i, b := range s.buyers {
		if verified(i) {
			fmt.Fprintf(&list, "%s,verified by the launchpad\n", strings.ToLower(b.addr.Hex()))
		}
	}
	srv := &server{base: "http://" + in.addr}
	if status, body := srv.sendAs(t, http.MethodPut, "/api/admin/kyc", "text/csv", list.String(), "X-Admin-Key", adminKey); status != 200 {
		t.Fatalf("uploading the verified identities: %d %v", status, body)
	}
}

// startHAProxy starts HAProxy in front of the instances: round robin, a health check on
// /readyz, and a request that finds its instance dead (refused, or cut off without an answer)
// tried again on another, so a kill costs no client a 5xx where a retry can save it. The
// instances' own 5xx are not retried: they are what is measured.
func (s *saleDay) startHAProxy(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("haproxy")
	if err != nil {
		t.Fatal("haproxy not found: `make saleday` installs it (Debian's package)")
	}
	if out, err := exec.Command(bin, "-v").Output(); err == nil { // "HAProxy version 2.6.12-1+deb12u4 2026/10/17 - https://haproxy.org/"
		if f := strings.Fields(string(out)); len(f) >= 3 {
			s.haproxy = strings.Join(f[:3], " ")
		}
	}
	addr := gethdev.FreeAddr(t)
	var servers strings.Builder
	for i, in := range s.insts {
		fmt.Fprintf(&servers, "    server i%d %s check\n", i+1, in.addr)
	}
	cfg := fmt.Sprintf(`global
    maxconn 8000
defaults
    mode http
    timeout connect 2s
    timeout client 60s
    timeout server 30s
    timeout queue 10s
    timeout http-keep-alive 60s
    option http-keep-alive
    option forwardfor
    retries 3
    option redispatch 1
    retry-on conn-failure empty-response junk-response response-timeout
frontend sale
    bind %s
    default_backend instances
backend instances
    balance roundrobin
    option httpchk GET /readyz
    http-check expect status 200
    default-server inter 1s fall 2 rise 2
%s`, addr, servers.String())
	path := filepath.Join(s.dir, "haproxy.cfg")
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	logf, err := os.Create(s.haproxyLog())
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-db", "-f", path) // #nosec G204 -- the machine's haproxy with our configuration
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait(); logf.Close() })
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if resp, err := http.Get("http://" + addr + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return "http://" + addr
			}
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(logf.Name())
			t.Fatalf("HAProxy did not answer within 20 s:\n%s", log)
		}
	}
}

// instance is one nodeledger process, started again on the same addresses after a kill. Only
// the supervisor (or the test, while none runs) touches it.
type instance struct {
	name, bin, addr, metrics, log string
	env                           []string
	cmd                           *exec.Cmd
	exited                        chan struct{} // closed when the current life has ended
	up                            atomic.Bool
	lives, failedStarts           int
	hwmKB                         int                // the highest VmHWM of any of its lives
	rpcBefore                     map[string]float64 // RPC requests its earlier lives made, by what for
	rpcNow                        map[string]float64 // those of the current life, when last read
}

// start starts a life and waits until it answers /healthz; an error when it exits first (the
// server stops when it cannot reach the database at start) or is not answering within 30 s.
func (in *instance) start() error {
	logf, err := os.OpenFile(in.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	in.cmd = exec.Command(in.bin) // #nosec G204 -- the binary this test built
	in.cmd.Env = append(slices.Clone(in.env), "LISTEN_ADDR="+in.addr, "METRICS_ADDR="+in.metrics)
	in.cmd.Stdout, in.cmd.Stderr = logf, logf
	err = in.cmd.Start()
	logf.Close()
	if err != nil {
		return err
	}
	in.lives++
	exited, cmd := make(chan struct{}), in.cmd
	in.exited = exited
	go func() { cmd.Wait(); close(exited) }()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if resp, err := http.Get("http://" + in.addr + "/healthz"); err == nil {
			resp.Body.Close()
			in.up.Store(true)
			return nil
		}
		select {
		case <-exited:
			in.failedStarts++
			return fmt.Errorf("%s exited as it started: %s", in.name, tail(in.log))
		default:
		}
		if time.Now().After(deadline) {
			in.cmd.Process.Kill()
			<-exited
			in.failedStarts++
			return fmt.Errorf("%s did not start within 30 s: %s", in.name, tail(in.log))
		}
	}
}

// sample reads the process's peak resident memory and its RPC request count.
func (in *instance) sample() {
	if in.cmd == nil || !in.up.Load() {
		return
	}
	if kb := vmHWM(in.cmd.Process.Pid); kb > in.hwmKB {
		in.hwmKB = kb
	}
	if byCall, err := counts("http://"+in.metrics+"/metrics", requestsByCall); err == nil {
		in.rpcNow = byCall
	}
}

// kill ends it with SIGKILL, as a crash or an OOM kill would, after a last sample.
func (in *instance) kill() {
	in.sample()
	in.up.Store(false)
	in.cmd.Process.Kill()
	<-in.exited
	in.rpcBefore, in.rpcNow = addCounts(in.rpcBefore, in.rpcNow, 1), nil
}

// stop ends it gracefully, at the end of the test.
func (in *instance) stop() {
	if in.cmd == nil || !in.up.Load() {
		return
	}
	in.up.Store(false)
	in.cmd.Process.Signal(os.Interrupt)
	select {
	case <-in.exited:
	case <-time.After(20 * time.Second):
		in.cmd.Process.Kill()
		<-in.exited
	}
}

func (in *instance) rpcRequests() map[string]float64 { return addCounts(in.rpcBefore, in.rpcNow, 1) }

// addCounts is a + sign × b, by key.
func addCounts(a, b map[string]float64, sign float64) map[string]float64 {
	out := maps.Clone(a)
	if out == nil {
		out = map[string]float64{}
	}
	for k, v := range b {
		out[k] += sign * v
	}
	return out
}

// vmHWM is a process's peak resident set in kB, 0 when it cannot be read.
func vmHWM(pid int) int {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return kb
		}
	}
	return 0
}

// counts reads a Prometheus page at url and sums, by key, the value of each line series matches
// (its first group the key, its second the value).
func counts(url string, series *regexp.Regexp) (map[string]float64, error) {
	c := http.Client{Timeout: 5 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if m := series.FindStringSubmatch(sc.Text()); m != nil {
			n, err := strconv.ParseFloat(m[2], 64)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", m[0], err)
			}
			out[m[1]] += n
		}
	}
	return out, sc.Err()
}

// requestsByCall is an instance's count of its RPC requests, by what for.
var requestsByCall = regexp.MustCompile(`^nodeledger_rpc_requests_total\{call="([^"]*)"\} ([0-9.e+]+)$`)

// cpuProfile saves 30 s of a process's CPU profile from its /debug/pprof.
func cpuProfile(metricsAddr, path string) error {
	c := http.Client{Timeout: 60 * time.Second}
	resp, err := c.Get("http://" + metricsAddr + "/debug/pprof/profile?seconds=30")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return fmt.Errorf("pprof answered %d", resp.StatusCode)
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o600)
}

// lastLine is the last non-empty line of a message.
func lastLine(msg string) string {
	lines := strings.Split(strings.TrimSpace(msg), "\n")
	return lines[len(lines)-1]
}

// tail is the end of a log file, for a failure's message.
func tail(path string) string {
	b, _ := os.ReadFile(path)
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

// httpStats gathers the answers a kind of client got.
type httpStats struct {
	mu        sync.Mutex
	latencies []time.Duration
	started   []time.Time // of each latency's request
	codes     map[int]int
	errors    map[string]int
	// When each 503 came, and how many came without retry-after.
	unavailable  []time.Time
	noRetryAfter int
	// 5xx answers HAProxy wrote itself (no instance ready to take it), not an instance.
	fromFront int
}

// answered adds an answer's code, and a 503's time and whether it said when to come back.
func (h *httpStats) answered(d time.Duration, resp *http.Response, body []byte, err error) {
	h.add(d, resp.StatusCode, err)
	if resp.StatusCode < 500 {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	// HAProxy's own error pages are "<html><body><h1>503 Service Unavailable</h1>…"; the
	// service's 5xx are JSON or its own pages.
	if bytes.HasPrefix(body, []byte("<html><body><h1>")) {
		h.fromFront++
	}
	if resp.StatusCode != http.StatusServiceUnavailable {
		return
	}
	h.unavailable = append(h.unavailable, time.Now())
	if resp.Header.Get("Retry-After") == "" {
		h.noRetryAfter++
	}
}

func (h *httpStats) add(d time.Duration, code int, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if err != nil {
		if h.errors == nil {
			h.errors = map[string]int{}
		}
		msg := err.Error()
		if i := strings.LastIndex(msg, ": "); i >= 0 { // the cause, without the URL
			msg = msg[i+2:]
		}
		h.errors[msg]++
		return
	}
	if h.codes == nil {
		h.codes = map[int]int{}
	}
	h.codes[code]++
	h.latencies = append(h.latencies, d)
	h.started = append(h.started, time.Now().Add(-d))
}

// since is the latencies of the requests started at from or later.
func (h *httpStats) since(from time.Time) []time.Duration {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []time.Duration
	for i, at := range h.started {
		if !at.Before(from) {
			out = append(out, h.latencies[i])
		}
	}
	return out
}

// client is one simulated person: its own source address on the loopback (Linux routes all of
// 127.0.0.0/8 there), so that the service's per-address limits see as many clients as there are.
type client struct {
	http *http.Client
	next int
}

func newClient(n int) *client {
	ip := net.IPv4(127, byte(1+n/62500), byte(n/250%250), byte(1+n%250))
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: ip}, Timeout: 5 * time.Second}
	return &client{http: &http.Client{Timeout: 30 * time.Second,
		Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 2, IdleConnTimeout: 90 * time.Second}}}
}

// get asks the front for path: HAProxy, or the next instance that is up.
func (c *client) get(ctx context.Context, s *saleDay, path string, stats *httpStats) (string, bool) {
	body, code := c.do(ctx, s, http.MethodGet, path, "", stats)
	return body, code == http.StatusOK
}

// do sends a request to the front (an operator's with the admin key when it has a body) and
// returns the answer's body and status, 0 when none came.
func (c *client) do(ctx context.Context, s *saleDay, method, path, body string, stats *httpStats) (string, int) {
	base := s.front[0]
	if !s.p.haproxy {
		for range s.insts {
			c.next++
			if in := s.insts[c.next%len(s.insts)]; in.up.Load() {
				base = "http://" + in.addr
				break
			}
		}
	}
	req, _ := http.NewRequestWithContext(ctx, method, base+path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Admin-Key", adminKey)
	}
	start := time.Now()
	resp, err := c.http.Do(req)
	if err != nil {
		if ctx.Err() == nil {
			stats.add(0, 0, err)
		}
		return "", 0
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if ctx.Err() != nil {
		return "", 0
	}
	stats.answered(time.Since(start), resp, b, err)
	if err != nil {
		return "", 0
	}
	return string(b), resp.StatusCode
}

// sleepCtx sleeps for d, or less when ctx ends; false when it ended.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	select {
	case <-ctx.Done():
		return false
	case <-time.After(d):
		return true
	}
}

// haproxyLog is where HAProxy's output goes (startHAProxy) and is read (checksFailed).
func (s *saleDay) haproxyLog() string { return filepath.Join(s.dir, "haproxy.log") }

// checksFailed reads HAProxy's log for the times its health checks took an instance out of the
// rotation ("Server instances/i2 is DOWN, reason: Layer7 timeout, …"), and the times none was
// left: by reason, as "1 × Layer4 connection problem; 2 × Layer7 timeout; no instance left: 1".
func checksFailed(log string) string {
	b, err := os.ReadFile(log)
	if err != nil {
		return "HAProxy's log unreadable: " + err.Error()
	}
	reasons, empty := map[string]int{}, 0
	for line := range strings.Lines(string(b)) {
		switch {
		case strings.Contains(line, "has no server available"):
			empty++
		case strings.Contains(line, " is DOWN"):
			_, why, _ := strings.Cut(line, "reason: ")
			why, _, _ = strings.Cut(why, ",")
			reasons[cmp.Or(strings.TrimSpace(why), "no reason given")]++
		}
	}
	var parts []string
	for _, why := range slices.Sorted(maps.Keys(reasons)) {
		parts = append(parts, fmt.Sprintf("%d × %s", reasons[why], why))
	}
	if empty > 0 {
		parts = append(parts, fmt.Sprintf("no instance left: %d", empty))
	}
	return strings.Join(parts, "; ")
}

// processKind names the run's processes for cpuWatch: the chain, the database, the front, the
// instances (every life), and this test, whose goroutines are the buyers, trackers, pollers and
// the webhook receiver.
func (s *saleDay) processKind(pid int, comm string) string {
	switch {
	case pid == os.Getpid():
		return "this test (senders, trackers, pollers, webhook receiver)"
	case comm == filepath.Base(s.bin):
		return "the instances"
	case strings.HasPrefix(comm, "geth"):
		return "geth"
	case comm == "postgres", strings.HasPrefix(comm, "pg_autoctl"):
		return "PostgreSQL"
	case comm == "haproxy":
		return "HAProxy"
	}
	return ""
}

// track is a tracker: it takes a payment just sent, reads its partial every 2 s as the page
// does until the payment is settled, then takes the next. sent: the page the Pay button opened
// (?sent=1), else a pasted hash's.
func (s *saleDay) track(ctx context.Context, c *client, payments <-chan common.Hash, sent bool, stats *httpStats) {
	for {
		var tx common.Hash
		select {
		case <-ctx.Done():
			return
		case tx = <-payments:
		}
		path := "/partials/payment/" + strings.ToLower(tx.Hex()) + "?since=" + strconv.FormatInt(time.Now().Unix(), 10)
		if sent {
			path += "&sent=1"
		}
		for {
			body, _ := c.get(ctx, s, path, stats)
			if st := dataStatus(body); st == "minted" || st == "rejected" || st == "refunded" || st == "held" {
				break
			}
			if !sleepCtx(ctx, 2*time.Second) {
				return
			}
		}
	}
}

// dataStatus is the tracker partial's data-status.
func dataStatus(body string) string {
	_, rest, ok := strings.Cut(body, `data-status="`)
	if !ok {
		return ""
	}
	st, _, _ := strings.Cut(rest, `"`)
	return st
}

// poll is a visitor of the sale's pages: /api/tiers and /api/stats every 2 s.
func (s *saleDay) poll(ctx context.Context, c *client, stats *httpStats) {
	for ctx.Err() == nil {
		c.get(ctx, s, "/api/tiers", stats)
		c.get(ctx, s, "/api/stats", stats)
		sleepCtx(ctx, 2*time.Second)
	}
}

// pay signs and sends p from its wallet, at the wallet's next nonce.
func (s *saleDay) pay(ctx context.Context, p *salePayment) error {
	b := s.buyers[p.wallet]
	b.mu.Lock()
	defer b.mu.Unlock()
	amount := price(p)
	call := &types.DynamicFeeTx{ChainID: big.NewInt(1337), Nonce: b.nonce, To: &s.payTo, Value: amount, Gas: 21_000,
		GasTipCap: big.NewInt(1_000_000_000), GasFeeCap: big.NewInt(100_000_000_000)}
	if p.usdc {
		call.To, call.Value, call.Data, call.Gas = &s.usdc, new(big.Int), chain.TokenTransferData(s.payTo, amount), s.usdcGas
	}
	tx, err := types.SignTx(types.NewTx(call), types.LatestSignerForChainID(big.NewInt(1337)), b.key)
	if err != nil {
		return err
	}
	raw, _ := tx.MarshalBinary()
	for try := 0; ; try++ {
		s.sends.Add(1)
		err = s.rpc.CallContext(ctx, nil, "eth_sendRawTransaction", hexutil.Bytes(raw))
		// A retry of a transaction that did arrive is told it is known, or its nonce used.
		if err == nil || (try > 0 && (strings.Contains(err.Error(), "already known") || strings.Contains(err.Error(), "nonce too low"))) {
			break
		}
		if try == 20 || ctx.Err() != nil {
			return fmt.Errorf("payment from wallet %d: %w", p.wallet, err)
		}
		time.Sleep(250 * time.Millisecond)
	}
	b.nonce++
	p.tx, p.sentAt = tx.Hash(), time.Now()
	return nil
}

// run makes the payments with clients reading and instances killed, waits for the backlog to
// clear, and reads the outcome.
func (s *saleDay) run(t *testing.T, pays []*salePayment) *saleResult {
	t.Helper()
	ctx := t.Context()
	r := &saleResult{p: s.p, supply: s.supply, pays: pays, haproxy: s.haproxy, commissionWei: new(big.Int), commissionUSDC: new(big.Int),
		held: map[store.ReasonCode]int{}}
	var err error
	if r.startBlock, err = s.chain.HeadNumber(ctx); err != nil {
		t.Fatal(err)
	}
	rpcAtStart := map[string]float64{}
	for _, in := range s.insts {
		in.sample()
		rpcAtStart = addCounts(rpcAtStart, in.rpcRequests(), 1)
	}
	s.calls(t) // from here on

	// The supervisor samples every instance every 2 s and kill -9s one in turn every killEvery,
	// starting it again at once. A start that fails (a machine too busy to answer the database
	// within the server's start-up timeout) is tried again 2 s later, as a process supervisor
	// would; only an instance that stays down for 5 minutes fails the test.
	superStop, superDone := make(chan struct{}), make(chan error, 1)
	start := time.Now()
	s.lag = startVerifierLag(ctx, s.ledger)
	s.dbWork = startDBWatch(ctx, s.ledger)
	go func() {
		tick := time.NewTicker(2 * time.Second)
		defer tick.Stop()
		next := start.Add(s.p.killEvery)
		downSince := map[*instance]time.Time{}
		for {
			select {
			case <-superStop:
				for _, in := range s.insts {
					in.sample()
				}
				var err error
				for in, since := range downSince {
					err = fmt.Errorf("%s down since %v", in.name, since.Sub(start).Round(time.Second))
				}
				superDone <- err
				return
			case <-tick.C:
			}
			for _, in := range s.insts {
				in.sample()
			}
			for in, since := range downSince {
				if err := in.start(); err != nil {
					t.Logf("%s: starting again failed (%d so far): %s", in.name, in.failedStarts, lastLine(err.Error()))
					if time.Since(since) > 5*time.Minute {
						superDone <- err
						<-superStop
						return
					}
					continue
				}
				delete(downSince, in)
			}
			if s.p.killEvery > 0 && time.Now().After(next) && (s.p.maxKills == 0 || r.kills < s.p.maxKills) {
				in := s.insts[r.kills%len(s.insts)]
				if !in.up.Load() {
					continue // still down from its last kill
				}
				in.kill()
				r.kills++
				killed := time.Now()
				r.killedAt = append(r.killedAt, killed)
				if err := in.start(); err != nil {
					t.Logf("%s: starting again failed (%d so far): %s", in.name, in.failedStarts, lastLine(err.Error()))
					downSince[in] = killed
				} else {
					t.Logf("%v in: kill -9 of %s, answering again %v later", killed.Sub(start).Round(time.Second), in.name, time.Since(killed).Round(10*time.Millisecond))
				}
				next = next.Add(s.p.killEvery)
			}
		}
	}()

	// Stopped in any case, a failure included: no instance is started again after the test.
	stopSupervisor := sync.OnceValue(func() error { close(superStop); return <-superDone })
	defer stopSupervisor()

	// Readers: trackers and pollers, until the backlog has cleared.
	readCtx, stopReading := context.WithCancel(ctx)
	var readers, profiling sync.WaitGroup
	stopReaders := sync.OnceFunc(func() { stopReading(); readers.Wait(); profiling.Wait() })
	defer stopReaders()
	toTrack := make(chan common.Hash)
	for i := range s.p.trackers {
		readers.Add(1)
		// Nine buyers in ten follow the tracker their Pay button opened (?sent=1); the tenth pasted
		// its hash (a wallet app's payment, a payment from elsewhere).
		go func() { defer readers.Done(); s.track(readCtx, newClient(i), toTrack, i%10 != 9, &r.trackers) }()
	}
	for i := range s.p.pollers {
		readers.Add(1)
		go func() { defer readers.Done(); s.poll(readCtx, newClient(s.p.trackers+i), &r.pollers) }()
	}
	if s.ha != nil {
		r.ha = &failoverRun{}
		readers.Add(1)
		go func() { defer readers.Done(); r.ha.acked = s.operatorWrites(readCtx, &r.ha.writes) }()
	}

	// Buyers: payments handed out on schedule to senders.
	queue := make(chan *salePayment, len(pays))
	var senders sync.WaitGroup
	sendErrs := make(chan error, len(pays))
	for range 32 {
		senders.Add(1)
		go func() {
			defer senders.Done()
			for p := range queue {
				if err := s.pay(ctx, p); err != nil {
					sendErrs <- err
					continue
				}
				select {
				case toTrack <- p.tx:
				default: // every tracker is busy
				}
			}
		}()
	}
	schedule := func(ps []*salePayment, over time.Duration) {
		from := time.Now()
		for i, p := range ps {
			if d := time.Until(from.Add(over * time.Duration(i) / time.Duration(len(ps)))); d > 0 {
				time.Sleep(d)
			}
			queue <- p
		}
	}
	steady := slices.IndexFunc(pays, func(p *salePayment) bool { return p.burst })
	if steady < 0 {
		steady = len(pays)
	}
	cpu := watchCPU(s.processKind)
	schedule(pays[:steady], s.p.steadyFor)
	r.burstAt = time.Now()
	r.cpuSteady, cpu = cpu.Stop(), watchCPU(s.processKind)
	failedOver := make(chan struct{}) // closed when the kills of the ledger's primary are done
	if s.ha != nil {
		go func() { defer close(failedOver); r.ha.failovers = s.failovers(ctx, t, s.p.dbKills) }()
	} else {
		close(failedOver)
	}
	if r.burstBlock, err = s.chain.HeadNumber(ctx); err != nil {
		t.Fatal(err)
	}
	r.steadyCalls = s.calls(t)
	if s.p.profiles != "" {
		for i, in := range s.insts {
			profiling.Add(1)
			go func() {
				defer profiling.Done()
				if err := cpuProfile(in.metrics, filepath.Join(s.p.profiles, fmt.Sprintf("instance-%d-burst.pprof", i+1))); err != nil {
					t.Logf("%s: no profile of the burst: %v", in.name, err)
				}
			}()
		}
	}
	schedule(pays[steady:], s.p.burstFor)
	close(queue)
	senders.Wait()
	close(sendErrs)
	for err := range sendErrs {
		t.Fatal(err)
	}
	if r.sentBlock, err = s.chain.HeadNumber(ctx); err != nil {
		t.Fatal(err)
	}
	r.burstCalls = s.calls(t)
	r.sentIn = time.Since(start)

	// The backlog clears when the ledger has settled every payment (and the failovers are over).
	drainStart := time.Now()
	for ; ; time.Sleep(time.Second) {
		var settled int
		if err := s.ledger.DB().GetContext(ctx, &settled, `SELECT count(*) FROM payments WHERE status IN ('minted', 'rejected', 'refunded', 'held')`); err != nil {
			if s.ha != nil && time.Since(drainStart) < s.p.drainFor {
				continue // the primary is down: the standby takes over
			}
			t.Fatal(err)
		}
		if settled >= len(pays) && r.settled < len(pays) {
			r.drained = time.Since(drainStart)
			if r.ha != nil {
				r.ha.clearedAt = time.Now()
			}
		}
		r.settled = settled
		select {
		case <-failedOver:
		default:
			continue
		}
		if settled >= len(pays) || time.Since(drainStart) > s.p.drainFor {
			break
		}
	}
	if r.settled < len(pays) {
		r.drained = time.Since(drainStart)
	}
	r.cpu = cpu.Stop()
	t.Logf("%d payments sent in %v; %d settled %v later", len(pays), r.sentIn.Round(time.Second), r.settled, r.drained.Round(time.Second))
	stopReaders()
	if err := stopSupervisor(); err != nil {
		t.Fatal(err)
	}
	r.drainCalls = s.calls(t)
	if s.p.haproxy {
		r.frontDowns = checksFailed(s.haproxyLog())
	}
	if r.ha != nil {
		unavailability(r.ha.failovers, r.clients())
		r.ha.lost = s.lostWrites(t, r.ha.acked)
	}
	if r.endBlock, err = s.chain.HeadNumber(ctx); err != nil {
		t.Fatal(err)
	}
	for _, in := range s.insts {
		r.rpcByCall = addCounts(r.rpcByCall, in.rpcRequests(), 1)
		r.peakKB = append(r.peakKB, in.hwmKB)
		r.lives = append(r.lives, in.lives)
		r.failedStarts += in.failedStarts
	}
	r.rpcByCall = addCounts(r.rpcByCall, rpcAtStart, -1)
	for _, n := range r.rpcByCall {
		r.rpcRequests += n
	}
	s.read(t, r)
	r.hooksMissing, _ = s.hooks.settled(t, s.ledger, 2*time.Minute)
	r.hooks = s.hooks.summary()
	s.verify(t, r)
	return r
}

// verify runs `nodeledger verify` over the whole sale once it has settled (issue 50 §8): the
// ledger rebuilt from the chain and its settings log, and compared event by event. It also reads
// where the instances' continuous verifier stood against the payments scan.
func (s *saleDay) verify(t *testing.T, r *saleResult) {
	t.Helper()
	var dbURL string
	for _, kv := range s.env {
		if v, ok := strings.CutPrefix(kv, "DATABASE_URL="); ok {
			dbURL = v
		}
	}
	for deadline := time.Now().Add(3 * time.Minute); s.p.verifyAll; time.Sleep(time.Second) {
		var final, last int64
		if err := s.ledger.DB().QueryRowContext(t.Context(), `
			SELECT greatest((SELECT max(block_number) FROM payments), (SELECT max(block_number) FROM nodes))`).Scan(&last); err != nil {
			t.Fatal(err)
		}
		final, _, err := s.ledger.DigestFrontier(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if final >= last || time.Now().After(deadline) {
			break
		}
	}
	// Where the verifier, the ledger's final blocks and the scan stood at that instant.
	v, err := s.ledger.Verification(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	r.verifiedTo, r.verifierMismatch = v.VerifiedTo, v.MismatchBlock
	if r.finalTo, _, err = s.ledger.DigestFrontier(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := s.ledger.DB().GetContext(t.Context(), &r.scannedTo, `SELECT block_number FROM chain_cursors WHERE name = 'payments'`); err != nil {
		t.Fatal(err)
	}
	// Then how long after the ledger held each block final the verifier verified it: the
	// sampling goes on until it has verified every block final at that instant, or for 3
	// minutes more. The chain goes on making blocks, each final a moment later and verified
	// within the verifier's step: the blocks past that instant are not waited for.
	for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline); time.Sleep(time.Second) {
		now, err := s.ledger.Verification(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if now.VerifiedTo != nil && *now.VerifiedTo >= r.finalTo || now.MismatchBlock != nil {
			break
		}
	}
	r.verifierWait, r.verifierWaitBlock, r.verifierLate = s.lag.longest(r.finalTo)
	s.dbWork.log(t)
	cmd := exec.CommandContext(t.Context(), s.bin, "verify")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "DATABASE_URL=" + dbURL, "ETH_RPC_URL=" + s.geth.URL()}
	began := time.Now()
	out, err := cmd.CombinedOutput()
	r.verifyIn, r.verifyOut = time.Since(began), strings.TrimSpace(string(out))
	if err != nil {
		r.verifyOut += " (" + err.Error() + ")"
	}
	r.verified = err == nil && strings.Contains(r.verifyOut, " 0 differences")
	t.Logf("verify in %v: %s", r.verifyIn.Round(time.Second), lastLine(r.verifyOut))
}

// saleResult is what a sale day measured.
type saleResult struct {
	p       saleParams
	supply  int
	pays    []*salePayment
	haproxy string

	startBlock, endBlock uint64
	burstBlock           uint64 // the head when the burst began
	sentBlock            uint64 // the head when the last payment was sent
	burstAt              time.Time
	sentIn, drained      time.Duration
	cpuSteady, cpu       string // where the machine's CPU went in the steady phase, and from the burst until the backlog cleared (cpuWatch)
	frontDowns           string // the instances HAProxy's checks took out of its rotation, and why (checksFailed)
	settled, kills       int
	killedAt             []time.Time
	failedStarts         int // lives that exited or hung as they started
	trackers, pollers    httpStats
	rpcRequests          float64
	rpcByCall            map[string]float64 // the instances' own count, by what for

	// What `nodeledger verify` said of the whole sale, and in how long; where the continuous
	// verifier stood (nil: it verified no block) against the payments scan.
	verified                     bool
	verifyOut                    string
	verifyIn                     time.Duration
	verifiedTo, verifierMismatch *int64
	// The longest the verifier took to verify a block after the ledger held it final, and that
	// block; late: some block final was never verified while it was watched.
	verifierWait       time.Duration
	verifierWaitBlock  int64
	verifierLate       bool
	scannedTo, finalTo int64

	// What the instances asked of the chain, by method (geth's count, less the buyers' sends):
	// in the steady phase, in the burst, and from the last payment until the backlog cleared.
	steadyCalls, burstCalls, drainCalls map[string]float64
	peakKB                              []int
	lives                               []int

	notMined, lost, doubled, wrongReason int
	// held counts the payments the screening holds as it should, by reason (a screened sale).
	held map[store.ReasonCode]int
	// Minted payments of coded wallets, what they earned their referrers, and payments whose
	// discount or commissions are not what the code's terms make them.
	coded int
	// Payments in USDC the ledger minted and rejected, and the USDC amounts it recorded.
	usdcMinted, usdcRejected int
	usdcAmountsWrong         int
	commissionWei            *big.Int
	commissionUSDC           *big.Int // base units
	commissionsWrong         int
	// Payments the ledger had not settled when the run stopped waiting: recorded and waiting
	// (pending, minting, or minted on chain and not recorded yet), or in blocks the scan had not
	// read. Slow, not lost: the next passes go on with them.
	unsettled, unscanned             int
	problems                         []string // the first few, named
	capOnChain, capInLedger          int
	steadyBlocks, burstBlocks        []uint64 // payment block → mint block, of each node
	steadySecs, burstSecs            []uint64
	steadySeen                       []uint64 // seconds from a steady payment's block to the scan recording it
	gasLimit                         uint64
	mintTxs, mintNodes               int          // mint transactions of the run, and the nodes they minted
	mintedAt                         []uint64     // the block of each node minted
	nodeGas                          uint64       // gas a node minted cost, over the run's mint transactions
	singleGas                        float64      // what the burst's nodes would cost minted one a transaction (estimated)
	burstMints, burstSpan, burstPeak uint64       // nodes minted from the burst's first mint until the backlog cleared, over how many blocks; the most in one
	ha                               *failoverRun // with ha
	hooks                            string       // what the webhook receiver got
	hooksMissing                     []string     // settled payments whose events it did not all get, in order
}

// clientStats is what one kind of client got, named for the summary; target: it is held to the
// trackers' latency target.
type clientStats struct {
	name   string
	st     *httpStats
	target bool
}

// clients are the run's kinds of client: trackers and pollers, and with ha the operator writing.
func (r *saleResult) clients() []clientStats {
	cs := []clientStats{{"trackers (/partials/payment/{tx})", &r.trackers, true}, {"pollers (/api/tiers, /api/stats)", &r.pollers, false}}
	if r.ha != nil {
		cs = append(cs, clientStats{"an operator adding a referral code every second (POST /api/admin/referral-codes)", &r.ha.writes, false})
	}
	return cs
}

func (r *saleResult) problem(format string, args ...any) {
	if len(r.problems) < 20 {
		r.problems = append(r.problems, fmt.Sprintf(format, args...))
	}
}

type rpcReceipt struct {
	BlockNumber      hexutil.Uint64 `json:"blockNumber"`
	TransactionIndex hexutil.Uint64 `json:"transactionIndex"`
	Status           hexutil.Uint64 `json:"status"`
	GasUsed          hexutil.Uint64 `json:"gasUsed"`
	Logs             []struct {
		Index hexutil.Uint64 `json:"logIndex"`
	} `json:"logs"`
}

type rpcHeader struct {
	Timestamp hexutil.Uint64 `json:"timestamp"`
	GasLimit  hexutil.Uint64 `json:"gasLimit"`
}

// batch makes calls of one method, one per element of args (each call's arguments), 500 to a
// batch.
func batch[T any](ctx context.Context, c *rpc.Client, method string, args [][]any) ([]*T, error) {
	out := make([]*T, len(args))
	for from := 0; from < len(args); from += 500 {
		var elems []rpc.BatchElem
		for i := from; i < min(from+500, len(args)); i++ {
			elems = append(elems, rpc.BatchElem{Method: method, Args: args[i], Result: &out[i]})
		}
		if err := c.BatchCallContext(ctx, elems); err != nil {
			return nil, err
		}
		for _, e := range elems {
			if e.Error != nil {
				return nil, e.Error
			}
		}
	}
	return out, nil
}

// read settles what each payment should have become, and checks it against the chain's
// NodeMinted events and the ledger.
func (s *saleDay) read(t *testing.T, r *saleResult) {
	t.Helper()
	ctx := t.Context()
	args := make([][]any, len(r.pays))
	for i, p := range r.pays {
		args[i] = []any{p.tx}
	}
	receipts, err := batch[rpcReceipt](ctx, s.rpc, "eth_getTransactionReceipt", args)
	if err != nil {
		t.Fatal(err)
	}
	for i, rc := range receipts {
		p := r.pays[i]
		if rc == nil || rc.Status != 1 {
			r.notMined++
			r.problem("payment %s was not mined", p.tx.Hex())
			continue
		}
		p.mined, p.block, p.index, p.ref = true, uint64(rc.BlockNumber), uint64(rc.TransactionIndex), p.tx
		if p.usdc && len(rc.Logs) == 1 { // its Transfer
			p.ref = chain.TokenTransfer{TxHash: p.tx, LogIndex: uint(rc.Logs[0].Index)}.Ref()
		}
	}

	// What each must become, in chain order: tier 2's first `supply` payments a node, the rest
	// sold_out; each wallet's first payment to tier 3 a node, the rest wallet_limit.
	order := slices.Clone(r.pays)
	slices.SortFunc(order, func(a, b *salePayment) int {
		return cmp.Or(cmp.Compare(a.block, b.block), cmp.Compare(a.index, b.index))
	})
	capSold, oneHeld := 0, map[int]bool{}
	for _, p := range order {
		if s.p.screened && screenedOut(p.wallet) { // held before any rule, taking no unit
			p.want = sale.Sanctioned
			continue
		}
		switch p.tier {
		case tierBad:
			p.want = sale.WrongAmount
		case tierCap:
			if capSold < r.supply {
				capSold++
			} else {
				p.want = sale.SoldOut
			}
		case tierOne:
			switch {
			case oneHeld[p.wallet]:
				p.want = sale.WalletLimit
			case s.p.screened && !verified(p.wallet): // held with its unit: the wallet's one
				p.want = sale.KYCRequired
			}
			oneHeld[p.wallet] = true
		}
	}

	events, err := s.chain.Events(ctx, r.startBlock, r.endBlock)
	if err != nil {
		t.Fatal(err)
	}
	minted := map[common.Hash][]chain.Minted{}
	for _, m := range events.Minted {
		minted[m.PaymentRef] = append(minted[m.PaymentRef], m)
		if m.Tier == tierCap {
			r.capOnChain++
		}
	}
	var rows []struct {
		TxHash string `db:"tx_hash"`
		Status string `db:"status"`
		Reason string `db:"reason"`
		Nodes  int    `db:"nodes"`
		NodeID string `db:"node_id"`
		Seen   int64  `db:"seen"` // when the scan recorded it, unix seconds
		// What it paid: ETH, or an amount of a token.
		ValueWei string `db:"value_wei"`
		Token    string `db:"token"`
		Amount   string `db:"amount"`
	}
	if err := s.ledger.DB().SelectContext(ctx, &rows, `
		SELECT p.tx_hash, p.status, coalesce(p.reason_code, '') AS reason, count(n.id) AS nodes,
		       coalesce(min(n.id)::text, '') AS node_id, floor(extract(epoch FROM p.created_at))::bigint AS seen,
		       p.value_wei::text, coalesce(p.token, '') AS token, coalesce(p.amount::text, '') AS amount
		FROM payments p LEFT JOIN nodes n ON n.payment_id = p.id GROUP BY p.id`); err != nil {
		t.Fatal(err)
	}
	ledger := map[common.Hash]int{}
	for i, row := range rows {
		ledger[common.HexToHash(row.TxHash)] = i
	}
	cursor, err := s.ledger.Cursor(ctx, "payments")
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		t.Fatal(err)
	}
	if err := s.ledger.DB().GetContext(ctx, &r.capInLedger, `SELECT count(*) FROM nodes WHERE tier = $1`, tierCap); err != nil {
		t.Fatal(err)
	}

	headers := map[uint64]*rpcHeader{}
	var blocks [][]any
	for b := r.startBlock; b <= r.endBlock; b++ {
		blocks = append(blocks, []any{hexutil.Uint64(b), false}) // without its transactions
	}
	hs, err := batch[rpcHeader](ctx, s.rpc, "eth_getBlockByNumber", blocks)
	if err != nil {
		t.Fatal(err)
	}
	for i, h := range hs {
		headers[r.startBlock+uint64(i)] = h
	}
	r.gasLimit = uint64(hs[len(hs)-1].GasLimit)

	var burstFirst, clearBlock uint64 = 0, 0
	late := map[uint64]int{} // steady nodes minted past the target, by their payment's block
	defer func() {
		logLate(t, late, headers, r.killedAt)
		logSlow(t, "trackers", &r.trackers, r.killedAt)
	}()
	for _, p := range r.pays {
		if !p.mined {
			continue
		}
		nodes := minted[p.ref]
		i, recorded := ledger[p.tx]
		var row struct {
			Status, Reason, NodeID string
			Nodes                  int
		}
		if recorded {
			row.Status, row.Reason, row.Nodes, row.NodeID = rows[i].Status, rows[i].Reason, rows[i].Nodes, rows[i].NodeID
			if p.usdc {
				switch {
				case rows[i].Token != strings.ToLower(s.usdc.Hex()) || rows[i].Amount != price(p).String() || rows[i].ValueWei != "0":
					r.usdcAmountsWrong++
					r.problem("payment %s of %s USDC base units: the ledger has %q of %q, %s wei", p.tx.Hex(), price(p), rows[i].Amount, rows[i].Token, rows[i].ValueWei)
				case row.Status == "minted":
					r.usdcMinted++
				case row.Status == "rejected":
					r.usdcRejected++
				}
			}
			if h := headers[p.block]; h != nil && !p.burst {
				r.steadySeen = append(r.steadySeen, uint64(max(0, rows[i].Seen-int64(h.Timestamp))))
			}
		}
		waiting := row.Status == string(store.PaymentPending) || row.Status == string(store.PaymentMinting)
		held := p.want == sale.Sanctioned || p.want == sale.KYCRequired
		if held && row.Status == string(store.PaymentHeld) {
			r.held[p.want]++
		}
		switch {
		case len(nodes) > 1 || row.Nodes > 1 || (p.want != "" && (len(nodes) > 0 || row.Nodes > 0)):
			r.doubled++
			r.problem("payment %s (tier %d, want %q): %d nodes on chain, ledger %s with %d", p.tx.Hex(), p.tier, p.want, len(nodes), row.Status, row.Nodes)
		case !recorded && int64(p.block) > cursor.Number:
			r.unscanned++
		case recorded && waiting && row.Nodes == 0:
			r.unsettled++
		case !recorded || (p.want == "" && (len(nodes) == 0 || row.Nodes == 0 || row.Status != "minted")) ||
			(p.want != "" && !held && row.Status != "rejected" && row.Status != "refunded") || (held && row.Status != "held"):
			r.lost++
			r.problem("payment %s (tier %d, want %q): %d nodes on chain, ledger %q with %d", p.tx.Hex(), p.tier, p.want, len(nodes), row.Status, row.Nodes)
		case p.want != "" && row.Reason != string(p.want):
			r.wrongReason++
			r.problem("payment %s (tier %d): rejected %s, want %s", p.tx.Hex(), p.tier, row.Reason, p.want)
		case p.want == "" && nodes[0].ID.String() != row.NodeID:
			r.lost++
			r.problem("payment %s: node %s on chain, %s in the ledger", p.tx.Hex(), nodes[0].ID, row.NodeID)
		case p.want == "":
			m := nodes[0]
			blocks, secs := m.Block-p.block, uint64(headers[m.Block].Timestamp-headers[p.block].Timestamp)
			if p.burst {
				r.burstBlocks, r.burstSecs = append(r.burstBlocks, blocks), append(r.burstSecs, secs)
				if burstFirst == 0 || m.Block < burstFirst {
					burstFirst = m.Block
				}
			} else {
				r.steadyBlocks, r.steadySecs = append(r.steadyBlocks, blocks), append(r.steadySecs, secs)
				if blocks > uint64(r.p.confirmations+3) {
					late[p.block]++
				}
			}
			clearBlock = max(clearBlock, m.Block)
		}
	}

	// The burst's pace: nodes a block from its first mint until the last node, against what a
	// block holds of mints sent one a transaction (the gas limit over a single mint's gas).
	perBlock := map[uint64]uint64{}
	var mintTxs [][]any
	seen := map[common.Hash]bool{}
	firstOf := map[common.Address]*big.Int{} // each wallet's first node
	for _, m := range events.Minted {
		if f, ok := firstOf[m.Owner]; !ok || m.ID.Cmp(f) < 0 {
			firstOf[m.Owner] = m.ID
		}
	}
	var burstFirsts uint64
	for _, m := range events.Minted {
		r.mintedAt = append(r.mintedAt, m.Block)
		if burstFirst > 0 && m.Block >= burstFirst && m.Block <= clearBlock {
			r.burstMints++
			perBlock[m.Block]++
			r.burstPeak = max(r.burstPeak, perBlock[m.Block])
			if firstOf[m.Owner].Cmp(m.ID) == 0 {
				burstFirsts++
			}
		}
		if !seen[m.TxHash] {
			seen[m.TxHash] = true
			mintTxs = append(mintTxs, []any{m.TxHash})
		}
	}
	if burstFirst > 0 {
		r.burstSpan = clearBlock - burstFirst + 1
	}
	mintReceipts, err := batch[rpcReceipt](ctx, s.rpc, "eth_getTransactionReceipt", mintTxs)
	if err != nil {
		t.Fatal(err)
	}
	var gas uint64
	for _, rc := range mintReceipts {
		gas += uint64(rc.GasUsed)
	}
	r.mintTxs, r.mintNodes = len(mintReceipts), len(events.Minted)
	if r.mintNodes > 0 {
		r.nodeGas = gas / uint64(r.mintNodes)
	}
	if r.burstMints > 0 {
		first, later := s.singleMintGas(ctx, t)
		r.singleGas = (float64(burstFirsts)*float64(first) + float64(r.burstMints-burstFirsts)*float64(later)) / float64(r.burstMints)
	}
	s.checkCommissions(t, r)
	if r.lost+r.doubled+r.wrongReason+r.notMined+r.unsettled+r.unscanned+r.commissionsWrong+r.usdcAmountsWrong > 0 {
		for _, in := range s.insts {
			t.Logf("%s's log ends:\n%s", in.name, tail(in.log))
		}
	}
}

// check fails the test on what must never happen, whatever the speed.
func (r *saleResult) check(t *testing.T) {
	t.Helper()
	if r.notMined+r.lost+r.doubled+r.wrongReason > 0 {
		t.Errorf("%d payments not mined, %d lost, %d doubled, %d rejected for another reason than expected:\n%s",
			r.notMined, r.lost, r.doubled, r.wrongReason, strings.Join(r.problems, "\n"))
	}
	if r.usdcAmountsWrong > 0 {
		t.Errorf("%d payments in USDC recorded with another amount or token than they paid:\n%s", r.usdcAmountsWrong, strings.Join(r.problems, "\n"))
	}
	if r.commissionsWrong > 0 {
		t.Errorf("%d of %d coded payments' discounts or commissions are not their code's terms:\n%s", r.commissionsWrong, r.coded,
			strings.Join(r.problems, "\n"))
	}
	if r.unsettled+r.unscanned > 0 {
		t.Errorf("%d payments waiting in the ledger and %d not scanned when the run stopped waiting for them", r.unsettled, r.unscanned)
	}
	if !r.verified {
		t.Errorf("nodeledger verify of the sale: %s", r.verifyOut)
	}
	if r.verifierMismatch != nil {
		t.Errorf("the continuous verifier found the ledger differs at block %d", *r.verifierMismatch)
	}
	if r.capOnChain != r.supply || r.capInLedger != r.supply {
		t.Errorf("the tier that sold out (supply %d) has %d nodes on chain, %d in the ledger", r.supply, r.capOnChain, r.capInLedger)
	}
	if r.ha != nil {
		r.ha.check(t, r.p.dbKills)
	}
	for _, c := range r.clients() {
		st := c.st
		for code, n := range st.codes {
			// A request that meets a failover answers 503, and says when to come back.
			if code >= 500 && !(code == http.StatusServiceUnavailable && r.ha != nil) {
				t.Errorf("%d answers %d", n, code)
			}
		}
		if st.noRetryAfter > 0 {
			t.Errorf("%d answers 503 without retry-after", st.noRetryAfter)
		}
	}
	if r.kills == 0 && r.p.killEvery > 0 {
		t.Error("no instance was killed: the run was shorter than killEvery")
	}
	if len(r.hooksMissing) > 0 {
		t.Errorf("%d settled payments' webhook events did not all arrive, in order:\n%s", len(r.hooksMissing),
			strings.Join(r.hooksMissing[:min(20, len(r.hooksMissing))], "\n"))
	}
}

var errNoSamples = errors.New("no samples")

// logLate writes to the run's log the steady payments whose node came past the target, by their
// block, with how long before the block's time an instance was last killed: whether a tail
// follows the kills or the load.
func logLate(t *testing.T, late map[uint64]int, headers map[uint64]*rpcHeader, kills []time.Time) {
	var lines []string
	for _, b := range slices.Sorted(maps.Keys(late)) {
		since := "no kill before"
		if h := headers[b]; h != nil {
			at := time.Unix(int64(h.Timestamp), 0)
			for _, k := range kills {
				if k.Before(at) {
					since = fmt.Sprintf("%v after a kill", at.Sub(k).Round(time.Second))
				}
			}
		}
		lines = append(lines, fmt.Sprintf("block %d: %d (%s)", b, late[b], since))
	}
	t.Logf("steady nodes past the target, by their payment's block: %d blocks\n%s", len(lines), strings.Join(lines, "\n"))
}

// logSlow writes to the run's log when a kind of client's answers over 100 ms came, by the 10 s
// they started in, against the instants of the kills: whether the tail follows the kills or the
// load.
func logSlow(t *testing.T, kind string, h *httpStats, kills []time.Time) {
	h.mu.Lock()
	slow, all := map[time.Time]int{}, map[time.Time]int{}
	for i, at := range h.started {
		b := at.Truncate(10 * time.Second)
		all[b]++
		if h.latencies[i] > 100*time.Millisecond {
			slow[b]++
		}
	}
	h.mu.Unlock()
	var lines []string
	for _, b := range slices.SortedFunc(maps.Keys(slow), time.Time.Compare) {
		lines = append(lines, fmt.Sprintf("%s: %d of %d", b.Format(time.TimeOnly), slow[b], all[b]))
	}
	var at []string
	for _, k := range kills {
		at = append(at, k.Format(time.TimeOnly))
	}
	t.Logf("%s' answers over 100 ms, by the 10 s they started in (kills at %s):\n%s", kind, strings.Join(at, ", "), strings.Join(lines, "\n"))
}

// percentile is the p-th percentile (0–100) of xs, by the nearest rank.
func percentile[T cmp.Ordered](xs []T, p float64) (T, error) {
	var zero T
	if len(xs) == 0 {
		return zero, errNoSamples
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(float64(len(s))*p/100+0.999999) - 1
	return s[max(0, min(i, len(s)-1))], nil
}

// summary is the run's figures and its targets, in Markdown.
func (r *saleResult) summary() string {
	var b strings.Builder
	p := r.p
	wrong := map[store.ReasonCode]int{}
	burst, inUSDC := 0, [2]int{} // payments in USDC, steady and burst
	for _, pay := range r.pays {
		if pay.want != "" {
			wrong[pay.want]++
		}
		if pay.burst {
			burst++
		}
		if pay.usdc {
			inUSDC[map[bool]int{false: 0, true: 1}[pay.burst]]++
		}
	}
	nWrong := wrong[sale.WrongAmount] + wrong[sale.SoldOut] + wrong[sale.WalletLimit]
	front := "clients taking the instances in turn"
	if p.haproxy {
		front = "behind " + cmp.Or(r.haproxy, "HAProxy")
	}
	blocks := r.endBlock - r.startBlock
	db := "one PostgreSQL"
	if p.ha {
		db = fmt.Sprintf("a pg_auto_failover formation (a monitor, a primary and its synchronous standby; its primary kill -9ed %d times from the burst on)", p.dbKills)
	}
	fmt.Fprintf(&b, "Chain: geth --dev, a block every %d s, block gas limit %s. Service: %d instances of the real binary on %s, %s, "+
		"CONFIRMATIONS=%d, settings added: %s.\n\n", p.blockSec, thousands(r.gasLimit), p.instances, db, front, p.confirmations, cmp.Or(strings.Join(p.env, " "), "none"))
	fmt.Fprintf(&b, "Load: %d wallets; %d payments over %v, then %d within %v (%d in all, %d of them in USDC, a 6-decimals ERC-20 the sale lists, sent as transfer(paymentsWallet, amount); "+
		"%d wrong: %d a bad amount, %d to tier 2 after it sold its %d, %d over tier 3's one per wallet); "+
		"%d trackers reading their payment's partial every 2 s (nine in ten as the Pay button opens it, with sent=1; one in ten as a pasted hash's), %d clients reading /api/tiers and /api/stats every 2 s, each from its own address. "+
		"Faults: %d kill -9 (one instance every %v, restarted at once; lives per instance %v, of which %d failed to start and were started again 2 s later). Sent in %v; the backlog cleared %v after the last payment "+
		"(%d of %d settled); blocks %d to %d (%d).\n\n",
		p.wallets, len(r.pays)-burst, p.steadyFor, burst, p.burstFor, len(r.pays), inUSDC[0]+inUSDC[1], nWrong, wrong[sale.WrongAmount], wrong[sale.SoldOut], r.supply,
		wrong[sale.WalletLimit], p.trackers, p.pollers, r.kills, p.killEvery, r.lives, r.failedStarts, r.sentIn.Round(time.Second), r.drained.Round(time.Second),
		r.settled, len(r.pays), r.startBlock, r.endBlock, blocks)

	b.WriteString("| figure | value | target | holds |\n|---|---|---|---|\n")
	row := func(figure, value, target string, holds *bool) {
		h := ""
		if holds != nil {
			h = map[bool]string{true: "holds", false: "**misses**"}[*holds]
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", figure, value, target, h)
	}
	yes := func(v bool) *bool { return &v }
	lat := func(name string, bs, ss []uint64, target *uint64) {
		if len(bs) == 0 {
			row(name, "no nodes", "", nil)
			return
		}
		b50, _ := percentile(bs, 50)
		b95, _ := percentile(bs, 95)
		b99, _ := percentile(bs, 99)
		s50, _ := percentile(ss, 50)
		s95, _ := percentile(ss, 95)
		s99, _ := percentile(ss, 99)
		value := fmt.Sprintf("p50 %d, p95 %d, p99 %d blocks (%d s, %d s, %d s), %d nodes", b50, b95, b99, s50, s95, s99, len(bs))
		if target == nil {
			row(name, value, "", nil)
			return
		}
		row(name, value, fmt.Sprintf("p99 ≤ CONFIRMATIONS + 3 = %d blocks", *target), yes(b99 <= *target))
	}
	steadyTarget := uint64(p.confirmations + 3)
	lat("payment block → node minted, steady", r.steadyBlocks, r.steadySecs, &steadyTarget)
	lat("payment block → node minted, burst", r.burstBlocks, r.burstSecs, nil)
	if len(r.steadySeen) > 0 {
		s50, _ := percentile(r.steadySeen, 50)
		s99, _ := percentile(r.steadySeen, 99)
		row("of which payment block → recorded by the scan, steady", fmt.Sprintf("p50 %d s, p99 %d s (CONFIRMATIONS alone: %d s)", s50, s99, p.confirmations*p.blockSec), "", nil)
	}
	if r.singleGas > 0 && r.burstSpan > 0 {
		capacity := float64(r.gasLimit) / r.singleGas
		pace := float64(r.burstMints) / float64(r.burstSpan)
		row("nodes minted per block, burst (from its first mint until the backlog cleared)",
			fmt.Sprintf("%.1f (%d nodes over %d blocks, at most %d in one); single-mint capacity %.0f (gas limit %s ÷ %s gas, the node's estimate of a mint alone for the burst's mix of first and later nodes) = %.2f×",
				pace, r.burstMints, r.burstSpan, r.burstPeak, capacity, thousands(r.gasLimit), thousands(uint64(r.singleGas)), pace/capacity),
			"≥ 0.8 × single-mint capacity", yes(pace >= 0.8*capacity))
	}
	if r.mintTxs > 0 {
		row("mint transactions (the whole run)", fmt.Sprintf("%s for %s nodes (%.1f a transaction); %s gas a node, %.2f× a single mint's",
			thousands(uint64(r.mintTxs)), thousands(uint64(r.mintNodes)), float64(r.mintNodes)/float64(r.mintTxs),
			thousands(r.nodeGas), float64(r.nodeGas)/r.singleGas), "", nil)
	}
	row("nodes of tier 2 (supply "+strconv.Itoa(r.supply)+")", fmt.Sprintf("%d on chain, %d in the ledger", r.capOnChain, r.capInLedger),
		"exactly the supply", yes(r.capOnChain == r.supply && r.capInLedger == r.supply))
	row("payments lost / doubled", fmt.Sprintf("%d / %d (rejected for another reason: %d; not mined: %d)", r.lost, r.doubled, r.wrongReason, r.notMined),
		"0 / 0, with the kills", yes(r.lost == 0 && r.doubled == 0 && r.wrongReason == 0 && r.notMined == 0))
	if p.screened {
		row(fmt.Sprintf("payments the screening holds (1 wallet in 100 listed by the sanctions oracle; tier 3 requires an identity, which %d wallets in 10 have)", 9),
			fmt.Sprintf("%d sanctioned and %d awaiting their identity check held, of %d and %d expected; none minted or refunded",
				r.held[sale.Sanctioned], r.held[sale.KYCRequired], wrong[sale.Sanctioned], wrong[sale.KYCRequired]),
			"exactly those, each with its reason", yes(r.held[sale.Sanctioned] == wrong[sale.Sanctioned] && r.held[sale.KYCRequired] == wrong[sale.KYCRequired]))
	}
	row("payments in USDC, as the ledger recorded them", fmt.Sprintf("%d minted, %d rejected for their reason; %d with another amount or token than they paid",
		r.usdcMinted, r.usdcRejected, r.usdcAmountsWrong), "each the amount that arrived, judged in USDC", yes(r.usdcAmountsWrong == 0))
	row(fmt.Sprintf("payments under a referral code (3 wallets in 10 bound to %s: %d bps off, %d + %d bps to its owner and partner)",
		saleCode, saleDiscountBps, saleOwnerBps, saleParentBps),
		fmt.Sprintf("%d minted, %s ETH and %s USDC earned; %d not at the code's terms", r.coded, views.ETH(r.commissionWei),
			store.Uint256{Int: r.commissionUSDC}.Units(usdcDecimals), r.commissionsWrong),
		"every discount and commission to the base unit, in the currency paid", yes(r.commissionsWrong == 0))
	row("payments not settled when the run stopped waiting", fmt.Sprintf("%d waiting in the ledger, %d in blocks the scan had not read", r.unsettled, r.unscanned),
		"0", yes(r.unsettled+r.unscanned == 0))
	row("`nodeledger verify` of the whole sale, once settled (rebuilt from the chain and the settings log)",
		fmt.Sprintf("%s, in %v", lastLine(r.verifyOut), r.verifyIn.Round(time.Second)), "0 differences", yes(r.verified))
	behind := "verified no block"
	if r.verifiedTo != nil {
		behind = fmt.Sprintf("block %d: %d behind the last block the ledger held final (%d), %d behind the payments scan (%d)",
			*r.verifiedTo, r.finalTo-*r.verifiedTo, r.finalTo, r.scannedTo-*r.verifiedTo, r.scannedTo)
	}
	row("the continuous verifier at the instant the backlog had cleared", behind, "", nil)
	wait := fmt.Sprintf("%v (%.1f blocks), block %d", r.verifierWait.Round(time.Second),
		r.verifierWait.Seconds()/float64(p.blockSec), r.verifierWaitBlock)
	if r.verifierLate {
		wait += ", still not verified when the watch ended"
	}
	row("the continuous verifier: the longest a block waited to be verified once the ledger held it final (sampled every second)", wait,
		"within 10 blocks of the payments pass", yes(!r.verifierLate && r.verifierWait <= 10*time.Duration(p.blockSec)*time.Second))
	for _, c := range r.clients() {
		n50, _ := percentile(c.st.latencies, 50)
		n99, _ := percentile(c.st.latencies, 99)
		fivexx, others := 0, []string{}
		for _, code := range slices.Sorted(maps.Keys(c.st.codes)) {
			if code >= 500 && !(code == http.StatusServiceUnavailable && r.ha != nil) {
				fivexx += c.st.codes[code]
			}
			if code != 200 {
				others = append(others, fmt.Sprintf("%d × %d", c.st.codes[code], code))
			}
		}
		for _, e := range slices.Sorted(maps.Keys(c.st.errors)) {
			others = append(others, fmt.Sprintf("%d × %s", c.st.errors[e], e))
		}
		if c.st.fromFront > 0 {
			others = append(others, fmt.Sprintf("(%d of the 5xx written by HAProxy, not by an instance)", c.st.fromFront))
		}
		value := fmt.Sprintf("%d answers, p50 %v, p99 %v; not 2xx: %s", len(c.st.latencies), n50.Round(100*time.Microsecond),
			n99.Round(100*time.Microsecond), cmp.Or(strings.Join(others, ", "), "none"))
		switch {
		case r.ha != nil: // what a failover costs is the 503s, counted below
			row(c.name, value, "no 5xx but 503 with retry-after", yes(fivexx == 0 && c.st.noRetryAfter == 0))
		case c.target:
			row(c.name, value, "p99 ≤ 100 ms, no 5xx", yes(n99 <= 100*time.Millisecond && fivexx == 0))
			if burst := c.st.since(r.burstAt); len(burst) > 0 && !r.burstAt.IsZero() {
				b50, _ := percentile(burst, 50)
				b99, _ := percentile(burst, 99)
				row("of which from the burst's start until the backlog cleared", fmt.Sprintf("%d answers, p50 %v, p99 %v",
					len(burst), b50.Round(100*time.Microsecond), b99.Round(100*time.Microsecond)), "", nil)
			}
		default:
			row(c.name, value, "no 5xx", yes(fivexx == 0))
		}
	}
	mbs := []string{}
	peak := 0
	for _, kb := range r.peakKB {
		mbs = append(mbs, fmt.Sprintf("%.0f MB", float64(kb)/1024))
		peak = max(peak, kb)
	}
	if p.haproxy {
		row("instances HAProxy's /readyz checks took out of its rotation (its log)", cmp.Or(r.frontDowns, "none"), "", nil)
	}
	row("the machine's CPU by process (/proc): steady phase", r.cpuSteady, "", nil)
	row("the machine's CPU by process (/proc): from the burst's start until the backlog cleared", r.cpu, "", nil)
	row("peak RSS (VmHWM) of each instance, over its lives", strings.Join(mbs, ", "), "≤ 200 MB each", yes(peak <= 200*1024))
	row("webhook receiver, every event (`*`)", r.hooks, "every settled payment's events, in order",
		yes(len(r.hooksMissing) == 0))
	if blocks > 0 {
		row("RPC requests per block (all instances)", fmt.Sprintf("%.1f (%.0f requests over %d blocks)", r.rpcRequests/float64(blocks), r.rpcRequests, blocks), "", nil)
		row("RPC requests per block, by what for (the instances' count, whole run)", byMethod(r.rpcByCall, float64(blocks)), "", nil)
	}
	// Token payments are read from Transfer logs over each pass's range: the scan's eth_getLogs a
	// block must not grow when the USDC payments a block do.
	phases := []struct {
		name     string
		from, to uint64
		calls    map[string]float64
		usdc     int
	}{{"steady", r.startBlock, r.burstBlock, r.steadyCalls, inUSDC[0]}, {"burst", r.burstBlock, r.sentBlock, r.burstCalls, inUSDC[1]},
		{"until the backlog cleared", r.sentBlock, r.endBlock, r.drainCalls, 0}}
	var logs, methods, asked []string
	holds, flat := true, true
	for _, ph := range phases {
		if ph.to <= ph.from {
			continue
		}
		n := float64(ph.to - ph.from)
		perBlock := ph.calls["eth_getLogs"] / n
		holds = holds && perBlock <= float64(p.instances)
		logs = append(logs, fmt.Sprintf("%s %.2f with %.1f USDC payments a block (blocks %d–%d)", ph.name, perBlock, float64(ph.usdc)/n, ph.from, ph.to))
		// What the chain must be asked a block does not depend on who watches: the new block, the
		// wallet's state, and for each mint its share of a send and a receipt. A mint is a node:
		// a batch of 17 is 17 mints in one transaction.
		all, sends, mints := 0.0, ph.calls["eth_sendRawTransaction"]/n, 0.0
		for _, c := range ph.calls {
			all += c
		}
		for _, b := range r.mintedAt {
			if b > ph.from && b <= ph.to {
				mints++
			}
		}
		mints /= n
		flat = flat && all/n <= 20+2*mints
		asked = append(asked, fmt.Sprintf("%s %.1f with %.1f mints a block, in %.1f transactions sent (≤ %.1f)", ph.name, all/n, mints, sends, 20+2*mints))
		methods = append(methods, fmt.Sprintf("%s: %s", ph.name, byMethod(ph.calls, n)))
	}
	if len(logs) > 0 {
		row("eth_getLogs a block (all instances; geth's count)", strings.Join(logs, "; "),
			fmt.Sprintf("≤ %d (a range a pass per instance), however many token payments", p.instances), yes(holds))
		row("the instances' requests a block, by method (geth's count)", strings.Join(methods, "; "), "", nil)
		row(fmt.Sprintf("the instances' requests a block, against the nodes they minted, with %d trackers (geth's count)", p.trackers), strings.Join(asked, "; "),
			"≤ 20 + 2 × the mints (nodes minted) a block, in each phase, however many trackers", yes(flat))
	}
	if r.ha != nil {
		r.ha.rows(row)
	}
	return b.String()
}

// thousands writes n with thousands separators.
func thousands(n uint64) string {
	s := strconv.FormatUint(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// verifierLag samples, every second, the last block the ledger holds final and the last the
// continuous verifier has verified, to tell how long after the ledger held each block final the
// verifier verified it.
type verifierLag struct {
	stop, done chan struct{}
	samples    []lagSample
}

type lagSample struct {
	at              time.Time
	final, verified int64 // verified -1: none yet
}

func startVerifierLag(ctx context.Context, ledger *store.Store) *verifierLag {
	l := &verifierLag{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(l.done)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for stopping := false; ; {
			final, ok, err := ledger.DigestFrontier(ctx)
			v, verr := ledger.Verification(ctx)
			if ok && err == nil && verr == nil { // a sample the database did not answer is skipped
				s := lagSample{at: time.Now(), final: final, verified: -1}
				if v.VerifiedTo != nil {
					s.verified = *v.VerifiedTo
				}
				l.samples = append(l.samples, s)
			}
			if stopping {
				return
			}
			select {
			case <-l.stop:
				// One last sample: the watch stops once a read of its own saw the verifier
				// reach its block, up to a second after this loop's last sample.
				stopping = true
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	return l
}

// longest stops the sampling and returns the longest a block up to block upTo waited, from the
// first sample that held it final to the first that had it verified, and which; blocks final
// before the first sample are not counted. late is true when one was not verified by the last
// sample (its wait then runs to it).
func (l *verifierLag) longest(upTo int64) (wait time.Duration, block int64, late bool) {
	close(l.stop)
	<-l.done
	if len(l.samples) == 0 {
		return 0, 0, false
	}
	last := l.samples[len(l.samples)-1]
	f, v := 0, 0 // the first sample holding b final, and verified
	for b := l.samples[0].final + 1; b <= min(last.final, upTo); b++ {
		for l.samples[f].final < b {
			f++
		}
		for v < len(l.samples) && l.samples[v].verified < b {
			v++
		}
		verifiedAt, missing := last.at, v == len(l.samples)
		if !missing {
			verifiedAt = l.samples[v].at
		}
		if w := verifiedAt.Sub(l.samples[f].at); w > wait {
			wait, block = w, b
		}
		late = late || missing
	}
	return wait, block, late
}

// dbWatch samples, every second, the work the ledger's PostgreSQL does of its own beside the
// service's queries: its autovacuum workers on the ledger's tables, and its checkpoints. The
// run's log gets them as spans to set beside the trackers' slow answers (logSlow): whether a
// tail follows the database's own work.
type dbWatch struct {
	stop, done chan struct{}
	spans      []dbSpan
}

// dbSpan is one piece of that work, from the first sample that saw it to the last.
type dbSpan struct {
	what     string
	from, to time.Time
}

func startDBWatch(ctx context.Context, ledger *store.Store) *dbWatch {
	w := &dbWatch{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		open, last := map[string]time.Time{}, time.Time{}
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			// An autovacuum worker's query names its work ("autovacuum: VACUUM ANALYZE
			// public.payments"); the checkpointer waits on CheckpointerMain between checkpoints.
			var now []string
			err := ledger.DB().SelectContext(ctx, &now, `
				SELECT query FROM pg_stat_activity
				WHERE backend_type = 'autovacuum worker' AND datname = current_database()
				UNION ALL
				SELECT 'checkpoint' FROM pg_stat_activity
				WHERE backend_type = 'checkpointer' AND wait_event IS DISTINCT FROM 'CheckpointerMain'`)
			if err == nil { // a sample the database did not answer is skipped
				at, seen := time.Now(), map[string]bool{}
				for _, what := range now {
					seen[what] = true
					if _, ok := open[what]; !ok {
						open[what] = at
					}
				}
				for what, from := range open {
					if !seen[what] {
						w.spans = append(w.spans, dbSpan{what, from, last})
						delete(open, what)
					}
				}
				last = at
			}
			select {
			case <-w.stop:
				for what, from := range open {
					w.spans = append(w.spans, dbSpan{what, from, last})
				}
				return
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	return w
}

// log stops the sampling and writes the spans to the run's log, in the order they began.
func (w *dbWatch) log(t *testing.T) {
	close(w.stop)
	<-w.done
	slices.SortFunc(w.spans, func(a, b dbSpan) int { return a.from.Compare(b.from) })
	lines := make([]string, len(w.spans))
	for i, s := range w.spans {
		lines[i] = fmt.Sprintf("%s–%s: %s", s.from.Format(time.TimeOnly), s.to.Format(time.TimeOnly), s.what)
	}
	t.Logf("the database's own work, sampled every second (autovacuum on the ledger's tables, checkpoints):\n%s", strings.Join(lines, "\n"))
}

func TestChecksFailed(t *testing.T) {
	t.Parallel()
	log := filepath.Join(t.TempDir(), "haproxy.log")
	// HAProxy 2.6's own lines, as `haproxy -db` writes them.
	lines := `[WARNING]  (572) : Server instances/i1 is DOWN, reason: Layer4 connection problem, info: "Connection refused", check duration: 0ms. 2 active and 0 backup servers left.
[WARNING]  (572) : Server instances/i2 is DOWN, reason: Layer7 timeout, check duration: 1001ms. 1 active and 0 backup servers left.
[WARNING]  (572) : Server instances/i3 is DOWN, reason: Layer7 timeout, check duration: 1001ms. 0 active and 0 backup servers left.
[ALERT]    (572) : backend 'instances' has no server available!
[WARNING]  (572) : Server instances/i3 is UP, reason: Layer7 check passed, code: 200, check duration: 2ms. 1 active and 0 backup servers online.
`
	if err := os.WriteFile(log, []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	want := "1 × Layer4 connection problem; 2 × Layer7 timeout; no instance left: 1"
	if got := checksFailed(log); got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}
