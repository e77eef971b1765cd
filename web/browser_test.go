package web

import (
	"encoding/json"
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
// real handlers, the package's database and an in-process dev chain. Screenshots go to
// .data/artifacts/browser.
func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests: start Chromium")
	}
	dir := filepath.Join("testdata", "browser")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "playwright-core")); err != nil {
		t.Fatal("playwright-core is not installed: `make test` installs it (npm ci in web/testdata/browser)")
	}
	chromium := chromiumPath(t)
	storetest.Reset(t, db)
	dc, err := devchain.Start(t.Context(), devchain.Options{RPCAddr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dc.Close() })
	c := chain.New(dc.RPC(), chain.Config{Factory: dc.Factory, PriceFeed: dc.PriceFeed})
	storetest.Tier(t, db, 1, "Standard", "100000000000000000", true)
	// The operators: the factory's owner an admin, as dev mode makes it, the payments wallet's
	// holder an operator, who refunds from the page, an admin who is not the factory's owner,
	// whose payout change the contract refuses, and the treasury's second owner (dev account 7)
	// a viewer, who signs refund batches on the page.
	secondOwner := dc.Accounts[devchain.TreasuryOwnerIndexes[1]]
	mustExec(t, `INSERT INTO operators (address, role) VALUES ($1, 'admin'), ($2, 'operator'), ($3, 'admin'), ($4, 'viewer')`,
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
		Explorer: "https://explorer.invalid"} // links the pages show, never followed
	srv, s := browserServer(t, c, dc, jcfg, hcfg)
	// refunds.test.mjs and commissions.test.mjs have a server of their own over the same ledger
	// and chain, as a sale with a treasury runs: refunds and commissions go through the treasury
	// Safe, and the payments scan stays blocks behind the head, as on a real chain, so that a buyer
	// sees a refund sent before it is final. (The other files refund by hand from the payments
	// wallet, and read payments at the head.)
	jcfg.Treasury, jcfg.Confirmations = dc.Treasury, refundsConfirmations
	hcfg.Treasury, hcfg.MultiSend = dc.Treasury, dc.MultiSend
	refundsSrv, refundsS := browserServer(t, c, dc, jcfg, hcfg)
	treasuryEnv := []string{"BASE_URL=" + refundsSrv.URL, "TREASURY_ADDRESS=" + dc.Treasury.Hex(),
		"CONFIRMATIONS=" + strconv.Itoa(refundsConfirmations)}
	fileEnv := map[string][]string{"refunds.test.mjs": treasuryEnv, "commissions.test.mjs": treasuryEnv}

	artifacts, _ := filepath.Abs(filepath.Join("..", ".data", "artifacts", "browser"))
	// The files share the server and the chain, so they run one at a time, each in a node of its
	// own (node --test would order them by name): pages.test.mjs first, since it starts from a
	// ledger with no node, then the journeys in name order.
	files, _ := filepath.Glob(filepath.Join(dir, "*.test.mjs"))
	pages := filepath.Join(dir, "pages.test.mjs")
	files = append([]string{pages}, slices.DeleteFunc(files, func(f string) bool { return f == pages })...)
	// BROWSER_ONLY=operator-live.test.mjs,… runs those files alone, to work on one of them.
	if only := os.Getenv("BROWSER_ONLY"); only != "" {
		files = slices.DeleteFunc(files, func(f string) bool { return !slices.Contains(strings.Split(only, ","), filepath.Base(f)) })
	}
	key := func(a devchain.Account) string { return hexutil.Encode(crypto.FromECDSA(a.Key)) }
	env := append(os.Environ(), "BASE_URL="+srv.URL, "RPC_URL="+dc.RPCURL(), "CHAIN_ID="+dc.ChainID().String(),
		"CRON_KEY="+cronKey, "ADMIN_KEY="+adminKey, "BUYER_KEY="+key(dc.Buyers[0]),
		"SECOND_BUYER_KEY="+key(dc.Buyers[1]), "THIRD_BUYER_KEY="+key(dc.Buyers[2]), "MINTER_KEY="+key(dc.Minter),
		"PAYMENTS_KEY="+key(dc.Accounts[devchain.PaymentsIndex]), "FUNDER_KEY="+key(dc.Owner), "TOKEN_ADDRESS="+dc.Token.Hex(),
		"USDC_ADDRESS="+dc.USDC.Hex(),
		"SECOND_OWNER_KEY="+key(secondOwner),
		"CHROMIUM="+chromium, "ARTIFACTS="+artifacts)
	failed := []string{}
	for _, f := range files {
		cmd := exec.Command("node", "--test", "--test-reporter=spec", f)
		cmd.Env = append(env, fileEnv[filepath.Base(f)]...) // the later value of a name wins
		out, err := cmd.CombinedOutput()
		t.Logf("%s:\n%s", filepath.Base(f), out)
		if err != nil {
			failed = append(failed, filepath.Base(f))
		}
	}
	if len(failed) > 0 {
		t.Fatalf("browser tests failed in %s\nserver log:\n%s\nrefunds server log:\n%s", strings.Join(failed, ", "), s.log, refundsS.log)
	}
	t.Logf("screenshots in %s", artifacts)
}

// refundsConfirmations is how many blocks the refunds server's payments scan stays behind the
// head: the dev chain makes a block every 3 s at least, so a refund shows sent for about 15 s
// before the pass records it, room for a slow machine to see it.
const refundsConfirmations = 5

// browserServer serves the routes over the package's database, c and a payments pass of jcfg
// (the dev chain's minter and distributor sign) with hcfg, at a local address the browser
// reaches, which is its PUBLIC_URL: the server's sign-in messages name it, and its session routes
// refuse any other Origin. It also serves POST /test/reconcile: the reconciler, which records
// withdrawals, has no cron route, and the tests run it when they wait for one (not on a timer:
// it would also record the node pages.test.mjs mints outside the service before that test shows
// it as unrecorded).
func browserServer(t *testing.T, c *chain.Client, dc *devchain.Chain, jcfg jobs.Config, hcfg handlers.Config) (*httptest.Server, *testServer) {
	j := jobs.New(db, c, chain.LocalSigner(dc.Minter.Key), chain.LocalSigner(dc.Distributor.Key), jcfg, slog.New(slog.DiscardHandler))
	srv := httptest.NewUnstartedServer(nil)
	hcfg.PublicURL = &url.URL{Scheme: "http", Host: srv.Listener.Addr().String()}
	s := newChainServer(t, c, j, hcfg)
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
