package web

import (
	"log/slog"
	"math/big"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"nodeledger/chain"
	"nodeledger/chain/devchain"
	"nodeledger/handlers"
	"nodeledger/jobs"
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
	const cronKey, adminKey = "browser-test-cron-key", "browser-test-admin-key"
	j := jobs.New(db, c, dc.Minter.Key, dc.Distributor.Key, jobs.Config{ChainID: dc.ChainID(), PaymentAddress: dc.Payments,
		DistEnabled: true, DistMode: "fixed", DistPeriod: time.Millisecond, DistBaseWei: big.NewInt(1000)},
		slog.New(slog.DiscardHandler))
	// The server must know the origin the browser reaches it at: its sign-in messages name it, and
	// its session routes refuse any other Origin.
	srv := httptest.NewUnstartedServer(nil)
	public := &url.URL{Scheme: "http", Host: srv.Listener.Addr().String()}
	s := newChainServer(t, c, j, handlers.Config{Price: c, CronKey: cronKey, AdminKey: adminKey, ChainID: 1337,
		PaymentAddress: strings.ToLower(dc.Payments.Hex()), PublicURL: public})
	srv.Config.Handler = s.e
	srv.Start()
	defer srv.Close()

	artifacts, _ := filepath.Abs(filepath.Join("..", ".data", "artifacts", "browser"))
	cmd := exec.Command("node", "--test", "--test-reporter=spec", filepath.Join(dir, "pages.test.mjs"))
	cmd.Env = append(os.Environ(), "BASE_URL="+srv.URL, "RPC_URL="+dc.RPCURL(), "CHAIN_ID="+dc.ChainID().String(),
		"CRON_KEY="+cronKey, "ADMIN_KEY="+adminKey, "BUYER_KEY="+hexutil.Encode(crypto.FromECDSA(dc.Buyers[0].Key)),
		"SECOND_BUYER_KEY="+hexutil.Encode(crypto.FromECDSA(dc.Buyers[1].Key)),
		"THIRD_BUYER_KEY="+hexutil.Encode(crypto.FromECDSA(dc.Buyers[2].Key)),
		"MINTER_KEY="+hexutil.Encode(crypto.FromECDSA(dc.Minter.Key)),
		"CHROMIUM="+chromium, "ARTIFACTS="+artifacts)
	out, err := cmd.CombinedOutput()
	t.Logf("browser tests:\n%s", out)
	if err != nil {
		t.Fatalf("browser tests failed: %v\nserver log:\n%s", err, s.log)
	}
	t.Logf("screenshots in %s", artifacts)
}
