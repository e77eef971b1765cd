package web

import (
	"fmt"
	"io/fs"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/params"

	"nodeledger/chain"
	"nodeledger/chain/devchain"
	"nodeledger/chain/faultrpc"
	"nodeledger/handlers"
	"nodeledger/jobs"
	"nodeledger/migrations"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// passHealthBody is a pass in health's passes.
type passHealthBody struct {
	LastOKAt  *string `json:"lastOkAt"`
	LastError *string `json:"lastError"`
	Failures  int     `json:"failures"`
}

// signerHealthBody is what health says of the minter and the passes.
type signerHealthBody struct {
	MinterBalanceWei *string `json:"minterBalanceWei"`
	MinterMintsLeft  *int64  `json:"minterMintsLeft"`
	Degraded         bool    `json:"degraded"`
	Passes           struct {
		Payments  passHealthBody `json:"payments"`
		Credit    passHealthBody `json:"credit"`
		Reconcile passHealthBody `json:"reconcile"`
	} `json:"passes"`
}

// A minter out of ETH cannot send its mints: after three failed ticks health is degraded and
// says why in a sentence that names no address, URL or query, with the minter's balance; the
// health and operator pages say it too, and the buyer's page says the mint waits on the service.
// Funded again, the next tick mints and health is whole.
func TestHealthWhenTheMinterRunsDry(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	storetest.Tier(t, db, 1, "Standard", "100000000000000000", true)
	dc, c := startDevChain(t)
	j := jobs.New(db, c, chain.LocalSigner(dc.Minter.Key), chain.LocalSigner(dc.Distributor.Key), jobs.Config{ChainID: dc.ChainID(), PaymentAddress: dc.Payments},
		slog.New(slog.DiscardHandler))
	cfg := handlers.Config{DistMode: "fixed", TickSec: 60, StaleAfterSec: 300, AdminKey: adminKey, SessionSecret: sessionSecret,
		PaymentAddress: strings.ToLower(dc.Payments.Hex())}
	s := newChainServer(t, db, c, j, cfg)
	health := func() signerHealthBody {
		t.Helper()
		rec := s.get(t, "/api/cron/health")
		wantStatus(t, rec, http.StatusOK)
		return decode[signerHealthBody](t, rec)
	}

	if h := health(); h.Degraded || h.Passes.Payments.Failures != 0 || h.Passes.Payments.LastError != nil || h.MinterMintsLeft == nil || *h.MinterMintsLeft < 1000 {
		t.Fatalf("a funded minter that never ran: %+v", h)
	}

	// Drain the minter: all it holds but the fee of the transfer (signed with a quarter more gas
	// than it uses), to a buyer.
	balance, err := c.Balance(t.Context(), dc.Minter.Address)
	if err != nil {
		t.Fatal(err)
	}
	feeCap, err := c.FeeCap(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	sink := dc.Buyers[5].Address
	transact(t, dc, c, dc.Minter.Key, &sink, nil, new(big.Int).Sub(balance, new(big.Int).Mul(feeCap, big.NewInt(int64(params.TxGas*125/100)))))
	paid := transact(t, dc, c, dc.Buyers[0].Key, &dc.Payments, nil, big.NewInt(params.Ether/10))

	for i := range 3 {
		if sum := j.Tick(t.Context()); sum.PaymentsError == "" {
			t.Fatalf("tick %d with a dry minter: %+v", i+1, sum)
		}
	}
	left, err := c.Balance(t.Context(), dc.Minter.Address)
	if err != nil {
		t.Fatal(err)
	}
	h := health()
	p := h.Passes.Payments
	if !h.Degraded || p.Failures < 3 || p.LastError == nil || h.Passes.Reconcile.Failures != 0 {
		t.Fatalf("after 3 failed ticks: %+v", h)
	}
	if h.MinterBalanceWei == nil || *h.MinterBalanceWei != left.String() || h.MinterMintsLeft == nil || *h.MinterMintsLeft != 0 {
		t.Fatalf("minter balance %v, mints left %v: want %s and 0", h.MinterBalanceWei, h.MinterMintsLeft, left)
	}
	sentence := regexp.MustCompile(`^The minter cannot pay for gas: its balance is [0-9.,<> ]+ ETH, a mint needs about [0-9.,]+ ETH at today's fees\.`)
	if !sentence.MatchString(*p.LastError) {
		t.Fatalf("lastError %q does not say the minter cannot pay", *p.LastError)
	}
	for _, secret := range []string{"0x", "http", "127.0.0.1", "insufficient funds", "SELECT", "payment 1"} {
		if strings.Contains(*p.LastError, secret) {
			t.Fatalf("lastError %q carries %q", *p.LastError, secret)
		}
	}

	operator := signedInOperator(t, s)
	op := operator.operatorPage()
	if w := text(op, "signer-warning"); !strings.Contains(w, *p.LastError) || !strings.Contains(w, "degraded") {
		t.Fatalf("the operator page's warning %q lacks the sentence", w)
	}
	if low := text(op, "minter-low"); !strings.Contains(low, "The minter can pay for about 0 more mints at today's fees") {
		t.Fatalf("the operator page's minter note %q", low)
	}
	// One run of text: no space before a comma or a colon.
	if ep := text(op, "rpc-endpoint"); !regexp.MustCompile(`^endpoint 1, block [\d,]+: serves`).MatchString(ep) {
		t.Fatalf("the operator page's endpoint %q", ep)
	}
	// The status page leaves the service's own parts to the operators.
	if cards := page(t, s.get(t, "/health").Body).Find(`[data-testid=signer-warning], [data-testid=rpc-endpoint], [data-testid=service]`); cards.Length() != 0 {
		t.Fatalf("the status page shows the operators' cards: %s", htmlOf(cards))
	}
	tracker := page(t, s.get(t, "/payment/"+paid.TxHash.Hex()).Body)
	if !strings.Contains(text(tracker, "waiting-on-service"), "the service cannot pay the network's fee") {
		t.Fatalf("the payment page says %q", text(tracker, "payment-message"))
	}

	if !testing.Short() {
		screenshotHealth(t, s)
	}

	t.Run("funded again, the next tick mints and health is whole", func(t *testing.T) {
		transact(t, dc, c, dc.Buyers[1].Key, &dc.Minter.Address, nil, big.NewInt(params.Ether))
		if sum := j.Tick(t.Context()); sum.PaymentsError != "" || sum.Payments.Minted != 1 {
			t.Fatalf("tick after funding: %+v", sum)
		}
		h := health()
		if p := h.Passes.Payments; h.Degraded || p.Failures != 0 || p.LastError != nil || p.LastOKAt == nil {
			t.Fatalf("after recovery: %+v", h)
		}
		if h.MinterMintsLeft == nil || *h.MinterMintsLeft == 0 {
			t.Fatalf("mints left %v after funding", h.MinterMintsLeft)
		}
		if w := operator.operatorPage().Find(`[data-testid="signer-warning"]`); w.Length() != 0 {
			t.Fatalf("a warning stays: %q", w.Text())
		}
		tracker := page(t, s.get(t, "/payment/"+paid.TxHash.Hex()).Body)
		if tracker.Find(`[data-testid="waiting-on-service"]`).Length() != 0 || !strings.Contains(text(tracker, "payment-message"), "is minted") {
			t.Fatalf("the payment page after recovery: %q", text(tracker, "payment-message"))
		}
	})
}

// A minter whose balance pays for fewer mints than MINTER_LOW_MINTS makes health degraded
// before any buyer pays, not after a mint fails: /api/cron/health says degraded with the
// minter_low code and a sentence, and /health says the service is degraded. Funded, it is not.
func TestHealthDegradedBeforeTheMinterRunsDry(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	dc, c := startDevChain(t)
	j := jobs.New(db, c, chain.LocalSigner(dc.Minter.Key), chain.LocalSigner(dc.Distributor.Key), jobs.Config{ChainID: dc.ChainID(), PaymentAddress: dc.Payments},
		slog.New(slog.DiscardHandler))
	cfg := handlers.Config{DistMode: "fixed", TickSec: 60, StaleAfterSec: 300, MinterLowMints: 20, AdminKey: adminKey, SessionSecret: sessionSecret}
	s := newChainServer(t, db, c, j, cfg)
	type reason struct {
		Code   string `json:"code"`
		Reason string `json:"reason"`
	}
	type body struct {
		MinterMintsLeft *int64   `json:"minterMintsLeft"`
		Degraded        bool     `json:"degraded"`
		DegradedReasons []reason `json:"degradedReasons"`
	}
	health := func() body {
		t.Helper()
		rec := s.get(t, "/api/cron/health")
		wantStatus(t, rec, http.StatusOK)
		return decode[body](t, rec)
	}
	if h := health(); h.Degraded || len(h.DegradedReasons) != 0 || h.MinterMintsLeft == nil || *h.MinterMintsLeft < 20 {
		t.Fatalf("a funded minter: %+v", h)
	}

	// Leave the minter what pays for 5 mints (a little more: the transfer's fee is signed with a
	// quarter more gas than it uses), sending the rest to a buyer.
	f := j.Funds(t.Context())
	feeCap, err := c.FeeCap(t.Context())
	if err != nil || f.Minter == nil || f.MintCost == nil {
		t.Fatalf("funds %+v, fee cap: %v", f, err)
	}
	keep := new(big.Int).Mul(f.MintCost, big.NewInt(5))
	fee := new(big.Int).Mul(feeCap, big.NewInt(int64(params.TxGas*125/100)))
	sink := dc.Buyers[5].Address
	transact(t, dc, c, dc.Minter.Key, &sink, nil, new(big.Int).Sub(f.Minter, new(big.Int).Add(keep, fee)))

	h := health()
	if !h.Degraded || h.MinterMintsLeft == nil || *h.MinterMintsLeft < 1 || *h.MinterMintsLeft >= 20 || len(h.DegradedReasons) != 1 {
		t.Fatalf("a minter that pays for a few mints: %+v", h)
	}
	sentence := regexp.MustCompile(`^The minter can pay for about [0-9]+ more mints at today's fees: send it ETH before buyers wait for their nodes\.$`)
	if r := h.DegradedReasons[0]; r.Code != "minter_low" || !sentence.MatchString(r.Reason) {
		t.Fatalf("reason %+v", r)
	}
	operator := signedInOperator(t, s)
	if low := text(operator.operatorPage(), "minter-low"); !strings.Contains(low, "The service is degraded") ||
		!strings.Contains(low, "Send the minter ETH") {
		t.Fatalf("the operator page's minter note %q", low)
	}

	t.Run("funded again, not degraded", func(t *testing.T) {
		transact(t, dc, c, dc.Buyers[1].Key, &dc.Minter.Address, nil, big.NewInt(params.Ether))
		if h := health(); h.Degraded || len(h.DegradedReasons) != 0 || *h.MinterMintsLeft < 20 {
			t.Fatalf("after funding: %+v", h)
		}
		if w := operator.operatorPage().Find(`[data-testid="minter-low"]`); w.Length() != 0 {
			t.Fatalf("the warning stays: %q", w.Text())
		}
	})
}

// screenshotHealth shoots /status in headless Chromium at 1280 and 390 px wide, into
// .data/artifacts/browser, for a person to look at what buyers see while the minter cannot pay
// (the operator's warning is shot by the browser tests).
func screenshotHealth(t *testing.T, s *testServer) {
	t.Helper()
	srv := httptest.NewServer(s.e)
	defer srv.Close()
	artifacts, _ := filepath.Abs(filepath.Join("..", ".data", "artifacts", "browser"))
	if err := os.MkdirAll(artifacts, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, width := range []int{1280, 390} {
		shot := filepath.Join(artifacts, fmt.Sprintf("status-minter-dry-%d.png", width))
		os.Remove(shot)
		cmd := exec.CommandContext(t.Context(), chromiumPath(t), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
			fmt.Sprintf("--window-size=%d,1100", width), "--screenshot="+shot, srv.URL+"/health")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("chromium: %v\n%s", err, out)
		}
		if st, err := os.Stat(shot); err != nil || st.Size() == 0 {
			t.Fatalf("no screenshot at %d px: %v", width, err)
		}
	}
}

// rpcHealthBody is what health says of the RPC endpoints.
type rpcHealthBody struct {
	Degraded bool `json:"degraded"`
	RPC      struct {
		Status    string `json:"status"`
		Endpoints []struct {
			Endpoint     string `json:"endpoint"`
			Head         *int64 `json:"head"`
			BehindBlocks int64  `json:"behindBlocks"`
			State        string `json:"state"`
		} `json:"endpoints"`
	} `json:"rpc"`
}

// Of two RPC endpoints, one whose head stands still behind the other's is said stale on
// /api/cron/health and the operator page, and /health says one of them fails; health is degraded; when both fail it is unhealthy. The routes are
// public, so each endpoint is named by its place in ETH_RPC_URL only: neither the provider's
// host (which names the account), nor the port, nor the keys in the paths and queries show.
func TestHealthShowsRPCEndpoints(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	dc, a, b := twoEndpoints(t)
	for range 6 {
		dc.Commit()
	}
	a.FreezeHead(1)
	// Each reached by a host name, as a provider's per-customer host is, not by its address.
	aURL, bURL := strings.Replace(a.URL, "127.0.0.1", "localhost", 1), strings.Replace(b.URL, "127.0.0.1", "localhost", 1)
	const keyInPath, keyInQuery = "kEyInPaTh0123456789", "kEyInQuErY0123456789"
	c, err := chain.Dial(t.Context(), aURL+"/v2/"+keyInPath+","+bURL+"/?apikey="+keyInQuery, chain.Config{Factory: dc.Factory,
		CallTimeout: 2 * time.Second, Attempts: 1, HeadPoll: 20 * time.Millisecond, MinStale: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	s := newChainServer(t, db, c, nil, handlers.Config{DistMode: "fixed", TickSec: 60, StaleAfterSec: 300, AdminKey: adminKey, SessionSecret: sessionSecret})
	_, aPort, _ := strings.Cut(strings.TrimPrefix(a.URL, "http://"), ":")
	_, bPort, _ := strings.Cut(strings.TrimPrefix(b.URL, "http://"), ":")
	noKey := func(text string) {
		t.Helper()
		for _, key := range []string{keyInPath, keyInQuery, "apikey", "/v2/", "localhost", "127.0.0.1", ":" + aPort, ":" + bPort} {
			if strings.Contains(text, key) {
				t.Fatalf("%q shows %q of ETH_RPC_URL", text, key)
			}
		}
	}
	healthWhen := func(status string) rpcHealthBody {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(200 * time.Millisecond) { // within the route's 60 a minute
			rec := s.get(t, "/api/cron/health")
			wantStatus(t, rec, http.StatusOK)
			noKey(rec.Body.String())
			h := decode[rpcHealthBody](t, rec)
			if h.RPC.Status == status {
				return h
			}
			if time.Now().After(deadline) {
				t.Fatalf("rpc never %s: %+v", status, h)
			}
		}
	}

	h := healthWhen("degraded")
	eps := h.RPC.Endpoints
	if !h.Degraded || len(eps) != 2 || eps[0].Endpoint != "endpoint 1" || eps[0].State != "stale" || eps[0].Head == nil || *eps[0].Head != 1 ||
		eps[0].BehindBlocks < 5 || eps[1].Endpoint != "endpoint 2" || eps[1].State != "ok" || eps[1].BehindBlocks != 0 {
		t.Fatalf("a stale endpoint: %+v", h)
	}
	rec := s.get(t, "/health")
	noKey(rec.Body.String())
	if rpcCard := text(page(t, rec.Body), "rpc"); !strings.Contains(rpcCard, "one endpoint of several is failing") {
		t.Fatalf("the status page's chain card: %q", rpcCard)
	}
	op := signedInOperator(t, s).operatorPage()
	noKey(text(op, "service"))
	rpcCard := text(op, "rpc-endpoints")
	if !strings.Contains(rpcCard, "degraded") || !strings.Contains(rpcCard, "endpoint 1") || !strings.Contains(rpcCard, "stale: ") || !strings.Contains(rpcCard, "endpoint 2") {
		t.Fatalf("the operator page's RPC card: %q", rpcCard)
	}

	a.Fail(faultrpc.Reset)
	b.Fail(faultrpc.TooMany)
	h = healthWhen("unhealthy")
	if eps := h.RPC.Endpoints; !h.Degraded || eps[0].State != "failing" || eps[1].State != "failing" {
		t.Fatalf("both failing: %+v", h)
	}
}

// TestHealthSaysWhenTheDatabaseHasNoSyncStandby: with DB_REQUIRE_SYNC_STANDBY, health is
// degraded with db_no_sync_standby while the ledger's primary has no synchronous standby (a
// failover would lose its last writes), and not once one streams; database says what the primary
// says of its standbys.
func TestHealthSaysWhenTheDatabaseHasNoSyncStandby(t *testing.T) {
	t.Parallel()
	type body struct {
		Database        *struct{ Standbys, SynchronousStandbys int } `json:"database"`
		DegradedReasons []struct{ Code string }                      `json:"degradedReasons"`
	}
	health := func(db *store.Store) body {
		t.Helper()
		s := newServer(t, db, handlers.Config{DistMode: "fixed", TickSec: 60, StaleAfterSec: 300, RequireSyncStandby: true})
		rec := s.get(t, "/api/cron/health")
		wantStatus(t, rec, http.StatusOK)
		return decode[body](t, rec)
	}
	noSync := func(b body) bool {
		return slices.ContainsFunc(b.DegradedReasons, func(r struct{ Code string }) bool { return r.Code == "db_no_sync_standby" })
	}
	if h := health(storetest.New(t)); !noSync(h) || h.Database == nil || h.Database.Standbys != 0 {
		t.Errorf("one server alone: %+v", h)
	}
	pair := storetest.Pair(t)
	db, err := storetest.Open(t.Context(), pair.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if h := health(db); noSync(h) || h.Database == nil || h.Database.Standbys != 1 || h.Database.SynchronousStandbys != 1 {
		t.Errorf("a primary with its synchronous standby: %+v", h)
	}
}

// TestProbes: /livez answers while the process serves; /readyz answers 200 only while the
// ledger takes writes, holds every migration and an endpoint reads the chain within
// CONFIRMATIONS + 3 blocks of its head, and 503 with which of them fails otherwise. Neither is
// ever cached or limited, however often one client probes.
func TestProbes(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	dc, a, b := twoEndpoints(t)
	c, err := chain.Dial(t.Context(), a.URL+","+b.URL, chain.Config{Factory: dc.Factory,
		CallTimeout: 2 * time.Second, Attempts: 1, HeadPoll: 20 * time.Millisecond, MinStale: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	s := newChainServer(t, db, c, nil, handlers.Config{DistMode: "fixed"})
	probe := func(srv *testServer, path string, status int, says string) {
		t.Helper()
		var rec *httptest.ResponseRecorder
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			if rec = srv.get(t, path); rec.Code == status || time.Now().After(deadline) {
				break
			}
		}
		wantStatus(t, rec, status)
		if says != "" && !strings.Contains(errorMessage(t, rec), says) {
			t.Fatalf("%s: %s does not say %q", path, rec.Body, says)
		}
		if cc := rec.Header().Get("Cache-Control"); cc != "no-store" {
			t.Fatalf("%s: cache-control %q", path, cc)
		}
	}

	probe(s, "/readyz", http.StatusOK, "")
	for _, path := range []string{"/livez", "/healthz", "/readyz"} {
		for i := range 300 { // past any route's limit a minute
			if rec := s.do(t, http.MethodGet, path, "203.0.113.7:4000"); rec.Code != http.StatusOK {
				t.Fatalf("%s, probe %d from one client: %d %s", path, i+1, rec.Code, rec.Body)
			}
		}
	}

	// Endpoint 1 stuck 6 blocks behind, endpoint 2 gone: no endpoint reads the chain near its head.
	a.FreezeHead(1)
	for range 6 {
		dc.Commit()
	}
	for deadline := time.Now().Add(10 * time.Second); c.Endpoints()[0].Behind < 6; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("endpoint 2's head never passed endpoint 1's: %+v", c.Endpoints())
		}
	}
	probe(s, "/readyz", http.StatusOK, "") // endpoint 2 still serves
	b.Fail(faultrpc.Reset)
	probe(s, "/readyz", http.StatusServiceUnavailable, "no RPC endpoint answers within 3 blocks")
	probe(s, "/livez", http.StatusOK, "")
	b.Fail(faultrpc.None)
	probe(s, "/readyz", http.StatusOK, "")

	// An instance newer than the schema: another is still applying its migrations.
	last := lastMigration(t)
	mustExec(t, db, `DELETE FROM schema_migrations WHERE name = $1`, last)
	probe(s, "/readyz", http.StatusServiceUnavailable, "lacks 1 of this version's migrations")
	mustExec(t, db, `INSERT INTO schema_migrations (name) VALUES ($1)`, last)
	probe(s, "/readyz", http.StatusOK, "")

	// A pool that reaches a standby, or a session that is read-only, takes no writes.
	u, err := url.Parse(storetest.URL(t, db))
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("options", "-c default_transaction_read_only=on")
	u.RawQuery = q.Encode()
	ro, err := store.Open(t.Context(), u.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ro.Close() })
	readOnly := newChainServer(t, ro, c, nil, handlers.Config{DistMode: "fixed"})
	probe(readOnly, "/readyz", http.StatusServiceUnavailable, "takes no writes")
	probe(readOnly, "/livez", http.StatusOK, "")
}

// lastMigration is the name of the binary's last migration.
func lastMigration(t *testing.T) string {
	t.Helper()
	names, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil || len(names) == 0 {
		t.Fatal(names, err)
	}
	return slices.Max(names)
}

// TestStatusVerdict: /status (and /health) leads with one sentence from the live figures: how
// long minting takes after a payment confirms; quiet when none was minted lately; paused while
// the operator holds minting; delayed, and why, when the chain cannot be read, the scan is
// behind it, or a payment has waited long.
func TestStatusVerdict(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	dc, c := startDevChain(t)
	j := jobs.New(db, c, chain.LocalSigner(dc.Minter.Key), chain.LocalSigner(dc.Distributor.Key),
		jobs.Config{ChainID: dc.ChainID(), PaymentAddress: dc.Payments, Confirmations: 1}, slog.New(slog.DiscardHandler))
	storetest.Tier(t, db, 1, "Small", "100000000000000000", true)
	s := newChainServer(t, db, c, j, handlers.Config{PaymentAddress: strings.ToLower(dc.Payments.Hex())})
	// verdict waits out the head the handlers keep a second (headTTL).
	verdict := func(srv *testServer, want string) string {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			v := page(t, srv.get(t, "/status").Body).Find(`[data-testid=status-verdict]`)
			if got := v.AttrOr("data-verdict", ""); got == want {
				return squash(v.Find("strong").Text())
			} else if time.Now().After(deadline) {
				t.Fatalf("verdict %q, want %s: %q", got, want, squash(v.Text()))
			}
		}
	}
	tick := func() {
		t.Helper()
		dc.Commit()
		dc.Commit()
		if sum := j.Tick(t.Context()); sum.PaymentsError != "" {
			t.Fatalf("tick %+v", sum)
		}
	}

	tick()
	if got := verdict(s, "quiet"); got != "Payments are minted shortly after they confirm; none was minted in the last hour." {
		t.Fatalf("quiet: %q", got)
	}
	transact(t, dc, c, dc.Buyers[0].Key, &dc.Payments, nil, big.NewInt(1e17))
	tick()
	tick()
	if n, _ := db.UnsettledPayments(t.Context()); n != 0 {
		t.Fatalf("%d payments not settled", n)
	}
	if got := verdict(s, "minting"); !regexp.MustCompile(`^Payments are minted about \d+ s after they confirm\.$`).MatchString(got) {
		t.Fatalf("minting: %q", got)
	}
	if got := squash(page(t, s.get(t, "/health").Body).Find(`[data-testid=status-verdict] strong`).Text()); got != verdict(s, "minting") {
		t.Fatalf("/health says %q", got)
	}

	// Blocks the pass has not read: the scan falls behind the chain.
	for range 6 {
		dc.Commit()
	}
	if got := verdict(s, "delayed"); !regexp.MustCompile(`^Payments are delayed: the service is [4-9] blocks behind the chain\.$`).MatchString(got) {
		t.Fatalf("behind: %q", got)
	}
	tick()

	// A payment confirmed long ago and still not minted.
	mustExec(t, db, `INSERT INTO payments (tx_hash, from_address, value_wei, block_number, block_hash, payment_ref, created_at)
		VALUES ($1, $2, 1, 1, $1, $1, now() - interval '10 minutes')`, storetest.TxHash("waiting"), strings.ToLower(dc.Buyers[1].Address.Hex()))
	if got := verdict(s, "delayed"); got != "Payments are delayed: the oldest payment waiting confirmed 10 min ago." {
		t.Fatalf("waiting: %q", got)
	}

	if err := db.HoldMinting(t.Context(), true); err != nil {
		t.Fatal(err)
	}
	if got := verdict(s, "paused"); got != "Minting is paused by the operator: payments are recorded, and minted once it resumes." {
		t.Fatalf("paused: %q", got)
	}
	if err := db.HoldMinting(t.Context(), false); err != nil {
		t.Fatal(err)
	}

	dead := newServer(t, db, handlers.Config{})
	if got := verdict(dead, "delayed"); got != "Payments are delayed: the service cannot read the chain just now." {
		t.Fatalf("no chain: %q", got)
	}
}

// twoEndpoints is a dev chain served over HTTP behind two proxies that fail at will: the two RPC
// endpoints of a client the test dials.
func twoEndpoints(t *testing.T) (*devchain.Chain, *faultrpc.Proxy, *faultrpc.Proxy) {
	t.Helper()
	dc, err := devchainOverHTTP(t)
	if err != nil {
		t.Fatal(err)
	}
	return dc, faultrpc.New(t, dc.RPCURL()), faultrpc.New(t, dc.RPCURL())
}
