package web

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"nodeledger/chain"
	"nodeledger/chain/devchain"
	"nodeledger/handlers"
	"nodeledger/jobs"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// chromiumPath is Debian's chromium, which `make test` installs (.ci/setup); CHROMIUM overrides it.
func chromiumPath(t *testing.T) string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, p := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Fatal("chromium not found: `make test` installs Debian's chromium (.ci/setup), or set CHROMIUM")
	return ""
}

// TestBrowser runs the Playwright tests of web/testdata/browser in headless Chromium against the
// real handlers and an in-process dev chain. The files wait on chains and pages far more than they
// compute, so they run in browserLanes lanes at once, each a deployment of its own (chain, ledger,
// servers) whose files run one after another, all in one Chromium. Screenshots go to
// .data/artifacts/browser.
func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests: start Chromium")
	}
	// The race detector would slow the in-process chain under every page tenfold and watch no
	// code the route tests do not already run under it; make test runs this test without it.
	if raceDetector {
		t.Skip("browser tests run without -race: go test -run '^TestBrowser$' ./web (make test does)")
	}
	dir := filepath.Join("testdata", "browser")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "playwright-core")); err != nil {
		t.Fatal("playwright-core is not installed: `make test` installs it (npm ci in web/testdata/browser)")
	}
	endpoint := startChromium(t, dir, chromiumPath(t))
	artifacts, _ := filepath.Abs(filepath.Join("..", ".data", "artifacts", "browser"))
	files, _ := filepath.Glob(filepath.Join(dir, "*.test.mjs"))
	// BROWSER_ONLY=operator-live.test.mjs,… runs those files alone, to work on one of them.
	if only := os.Getenv("BROWSER_ONLY"); only != "" {
		files = slices.DeleteFunc(files, func(f string) bool { return !slices.Contains(strings.Split(only, ","), filepath.Base(f)) })
	}
	for i, lane := range browserLanes(files) {
		t.Run(fmt.Sprintf("lane %d", i+1), func(t *testing.T) {
			t.Parallel()
			runLane(t, endpoint, artifacts, lane)
		})
	}
	t.Logf("screenshots in %s", artifacts)
}

// lanes is how many deployments the browser files are spread over. They run at once only when
// go test's -parallel is at least this (its default is the number of cores): the Makefile says 3.
const lanes = 3

// browserLanes spreads files over lanes of about the same length, longest first, by their
// lines (a file's time follows them roughly); pages.test.mjs leads the first lane, since it starts
// from a ledger with no node, and looks.test.mjs follows it there, since it pictures the node
// pages.test.mjs makes.
func browserLanes(files []string) [][]string {
	size := map[string]int{}
	for _, f := range files {
		body, _ := os.ReadFile(f)
		size[f] = bytes.Count(body, []byte("\n"))
	}
	slices.SortStableFunc(files, func(a, b string) int {
		return cmp.Or(cmp.Compare(size[b], size[a]), cmp.Compare(a, b))
	})
	out := make([][]string, min(lanes, len(files)))
	load := make([]int, len(out))
	for _, f := range files {
		switch filepath.Base(f) {
		case "pages.test.mjs":
			out[0], load[0] = append([]string{f}, out[0]...), load[0]+size[f]
			continue
		case "looks.test.mjs":
			out[0], load[0] = append(out[0], f), load[0]+size[f]
			continue
		}
		i := slices.Index(load, slices.Min(load))
		out[i], load[i] = append(out[i], f), load[i]+size[f]
	}
	// pages and looks pinned together can leave a lane empty when few files run (BROWSER_ONLY).
	out = slices.DeleteFunc(out, func(lane []string) bool { return len(lane) == 0 })
	// Within a lane, in name order, as they ran when there was one lane: a file's journey may
	// leave what one after it does not expect (a USDC commission owed), not the other way round.
	for _, lane := range out {
		slices.SortFunc(lane[1:], strings.Compare)
		if filepath.Base(lane[0]) != "pages.test.mjs" {
			slices.SortFunc(lane, strings.Compare)
		}
	}
	return out
}

// runLane runs files one after another, each in a node of its own, against a deployment of
// their own: a dev chain, a ledger and two servers.
func runLane(t *testing.T, endpoint, artifacts string, files []string) {
	db := storetest.New(t)
	dc, err := devchain.Start(t.Context(), devchain.Options{RPCAddr: "127.0.0.1:0", EmptyBlockInterval: browserBlockInterval})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dc.Close() })
	c := chain.New(dc.RPC(), chain.Config{Factory: dc.Factory, PriceFeed: dc.PriceFeed, SanctionsOracle: dc.SanctionsOracle})
	storetest.Tier(t, db, 1, "Standard", "100000000000000000", true)
	// The operators: the factory's owner an admin, as dev mode makes it, the payments wallet's
	// holder an operator, who refunds from the page, an admin who is not the factory's owner,
	// whose payout change the contract refuses, and the treasury's second owner (dev account 7)
	// a viewer, who signs refund batches on the page.
	secondOwner := dc.Accounts[devchain.TreasuryOwnerIndexes[1]]
	mustExec(t, db, `INSERT INTO operators (address, role) VALUES ($1, 'admin'), ($2, 'operator'), ($3, 'admin'), ($4, 'viewer')`,
		strings.ToLower(dc.Owner.Address.Hex()), strings.ToLower(dc.Payments.Hex()), strings.ToLower(dc.Buyers[2].Address.Hex()),
		strings.ToLower(secondOwner.Address.Hex()))
	const cronKey, adminKey = "browser-test-cron-key", "browser-test-admin-key"
	// The dev USDC is listed, as dev mode lists it (usdc.test.mjs prices its own tier in it).
	usdc := store.Token{Address: strings.ToLower(dc.USDC.Hex()), Symbol: "USDC", Decimals: devchain.USDCDecimals}
	if err := db.PutTokens(t.Context(), []store.Token{usdc}); err != nil {
		t.Fatal(err)
	}
	jcfg := jobs.Config{ChainID: dc.ChainID(), PaymentAddress: dc.Payments, PaymentTokens: []store.Token{usdc}, PriceSpreadBps: 300,
		DistEnabled: true, DistMode: "fixed", DistPeriod: time.Millisecond, DistBaseWei: big.NewInt(1000)}
	hcfg := handlers.Config{Price: c, CronKey: cronKey, AdminKey: adminKey, ChainID: 1337,
		WalletRPC: dc.RPCURL(), PaymentAddress: strings.ToLower(dc.Payments.Hex()),
		DistEnabled: true, DistMode: "fixed", DistPeriod: time.Millisecond, DistBaseWei: big.NewInt(1000), // as the passes above
		Explorer: "https://explorer.invalid", // links the pages show, never followed
		// Identity checks as dev mode does them: its stand-in form signs Sumsub's webhooks.
		KYC: handlers.KYCConfig{Provider: store.KYCSumsub, Secret: "browser-test-kyc-secret", Dev: true}}
	srv, s := browserServer(t, db, c, dc, jcfg, hcfg)
	// refunds.test.mjs and commissions.test.mjs have a server of their own over the same ledger
	// and chain, as a sale with a treasury runs: refunds and commissions go through the treasury
	// Safe, and the payments scan stays blocks behind the head, as on a real chain, so that a buyer
	// sees a refund sent before it is final. (The other files refund by hand from the payments
	// wallet, and read payments at the head.)
	jcfg.Treasury, jcfg.MultiSend, jcfg.Confirmations = dc.Treasury, dc.MultiSend, refundsConfirmations
	hcfg.Treasury = dc.Treasury
	refundsSrv, refundsS := browserServer(t, db, c, dc, jcfg, hcfg)
	treasuryEnv := []string{"BASE_URL=" + refundsSrv.URL, "TREASURY_ADDRESS=" + dc.Treasury.Hex(),
		"CONFIRMATIONS=" + strconv.Itoa(refundsConfirmations)}
	fileEnv := map[string][]string{"refunds.test.mjs": treasuryEnv, "commissions.test.mjs": treasuryEnv}

	key := func(a devchain.Account) string { return hexutil.Encode(crypto.FromECDSA(a.Key)) }
	env := append(os.Environ(), "BASE_URL="+srv.URL, "BROWSER_ENDPOINT="+endpoint, "RPC_URL="+dc.RPCURL(), "CHAIN_ID="+dc.ChainID().String(),
		"CRON_KEY="+cronKey, "ADMIN_KEY="+adminKey, "BUYER_KEY="+key(dc.Buyers[0]),
		"SECOND_BUYER_KEY="+key(dc.Buyers[1]), "THIRD_BUYER_KEY="+key(dc.Buyers[2]), "MINTER_KEY="+key(dc.Minter),
		"PAYMENTS_KEY="+key(dc.Accounts[devchain.PaymentsIndex]), "FUNDER_KEY="+key(dc.Owner), "TOKEN_ADDRESS="+dc.Token.Hex(),
		"USDC_ADDRESS="+dc.USDC.Hex(), "SANCTIONS_ORACLE="+dc.SanctionsOracle.Hex(), "PAYMENT_ADDRESS="+dc.Payments.Hex(),
		"SECOND_OWNER_KEY="+key(secondOwner), "ARTIFACTS="+artifacts)
	failed := []string{}
	for _, f := range files {
		began := time.Now()
		cmd := exec.Command("node", "--test", "--test-reporter=spec", f)
		cmd.Env = append(env, fileEnv[filepath.Base(f)]...) // the later value of a name wins
		out, err := cmd.CombinedOutput()
		t.Logf("%s (%s):\n%s", filepath.Base(f), time.Since(began).Round(100*time.Millisecond), out)
		if err != nil {
			failed = append(failed, filepath.Base(f))
		}
	}
	if len(failed) > 0 {
		t.Fatalf("browser tests failed in %s\nserver log:\n%s\nrefunds server log:\n%s", strings.Join(failed, ", "), s.log, refundsS.log)
	}
}

// startChromium starts the one Chromium the files share (chromium.mjs in dir), stopped when the
// test ends, and returns the endpoint they connect to.
func startChromium(t *testing.T, dir, chromium string) string {
	t.Helper()
	cmd := exec.Command("node", "chromium.mjs")
	cmd.Dir, cmd.Env, cmd.Stderr = dir, append(os.Environ(), "CHROMIUM="+chromium), os.Stderr
	stdin, err := cmd.StdinPipe() // closed, it stops the browser, even if this process dies
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Wait() })
	endpoint, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasPrefix(endpoint, "ws://") {
		t.Fatalf("chromium.mjs printed %q (%v), not its endpoint", endpoint, err)
	}
	return strings.TrimSpace(endpoint)
}

// The browser's chain makes an empty block every browserBlockInterval at least, and the refunds
// server's payments scan stays refundsConfirmations blocks behind the head: a refund shows sent
// for about 8 s before the pass records it, room for a slow machine to see it.
const (
	browserBlockInterval = time.Second
	refundsConfirmations = 8
)

// browserServer serves the routes over db, c and a payments pass of jcfg
// (the dev chain's minter and distributor sign) with hcfg, at a local address the browser
// reaches, which is its PUBLIC_URL: the server's sign-in messages name it, and its session routes
// refuse any other Origin. It also serves POST /test/reconcile: the reconciler, which records
// withdrawals, has no cron route, and the tests run it when they wait for one (not on a timer:
// it would also record the node pages.test.mjs mints outside the service before that test shows
// it as unrecorded).
func browserServer(t *testing.T, db *store.Store, c *chain.Client, dc *devchain.Chain, jcfg jobs.Config, hcfg handlers.Config) (*httptest.Server, *testServer) {
	j := jobs.New(db, c, chain.LocalSigner(dc.Minter.Key), chain.LocalSigner(dc.Distributor.Key), jcfg, slog.New(slog.DiscardHandler))
	srv := httptest.NewUnstartedServer(nil)
	hcfg.PublicURL = &url.URL{Scheme: "http", Host: srv.Listener.Addr().String()}
	if hcfg.KYC.Dev {
		hcfg.KYC.FormURL = hcfg.PublicURL.String() + "/dev/kyc"
	}
	// Every file reads from one address, more than a visitor's minute allows: the limits are
	// lifted (limits_test.go attacks them).
	s := newServerWith(t, db, c, j, hcfg, Options{unlimited: true})
	// As the service does: the trackers keep what they read until the ledger announces a
	// change, and the pages, which poll until they see one, show each in time.
	s.followLedger(t)
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/test/reconcile" {
			s.e.ServeHTTP(w, r)
			return
		}
		sum, err := j.Reconcile(r.Context())
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(sum)
	})
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, s
}
