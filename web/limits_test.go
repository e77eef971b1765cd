package web

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/labstack/echo/v4"

	"nodeledger/chain"
	"nodeledger/handlers"
	"nodeledger/jobs"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// wantRetryAfter checks a 429 that says, in whole seconds, when to come back.
func wantRetryAfter(t *testing.T, rec *httptest.ResponseRecorder) {
	t.Helper()
	wantStatus(t, rec, http.StatusTooManyRequests)
	if s, err := strconv.Atoi(rec.Header().Get("Retry-After")); err != nil || s < 1 {
		t.Fatalf("retry-after %q on a 429", rec.Header().Get("Retry-After"))
	}
}

func TestWrongKeys(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	const key, cronKey = "the-operators-admin-key-0123456789", "the-schedulers-cron-key-0123456789"
	const attacker, operator = "198.51.100.66:4000", "203.0.113.5:4000"

	t.Run("100 wrong admin keys from one address", func(t *testing.T) {
		s := newServer(t, db, handlers.Config{AdminKey: key})
		statuses := map[int]int{}
		for i := range 100 {
			rec := s.do(t, http.MethodGet, "/api/admin/tiers", attacker, "X-Admin-Key", fmt.Sprintf("guess-%d", i))
			statuses[rec.Code]++
			if rec.Code == http.StatusTooManyRequests {
				wantRetryAfter(t, rec)
			}
		}
		// freeAttempts wrong keys, the one that locks the address out, and then a wait that only
		// grows: a slow machine may see a 1 s wait end once or twice within the loop.
		if statuses[http.StatusUnauthorized] < freeAttempts+1 || statuses[http.StatusUnauthorized] > freeAttempts+4 ||
			statuses[http.StatusTooManyRequests] < 90 || len(statuses) != 2 {
			t.Fatalf("answers %v: want %d × 401 and then 429s", statuses, freeAttempts+1)
		}
		wantRetryAfter(t, s.do(t, http.MethodGet, "/api/admin/tiers", attacker, "X-Admin-Key", key)) // locked out, right key or not
		wantStatus(t, s.do(t, http.MethodGet, "/api/admin/tiers", operator, "X-Admin-Key", key), http.StatusOK)

		log := s.log.String()
		if strings.Contains(log, "guess-") || strings.Contains(log, key) {
			t.Fatalf("a key in the log:\n%s", log)
		}
		for _, want := range []string{
			`"msg":"credential refused","client":"198.51.100.66","method":"GET","route":"/api/admin/tiers","status":401`,
			`"msg":"client locked out after wrong credentials","client":"198.51.100.66"`,
			`"msg":"credential accepted","client":"203.0.113.5","method":"GET","route":"/api/admin/tiers","status":200`,
		} {
			if !strings.Contains(log, want) {
				t.Errorf("log lacks %s:\n%s", want, log)
			}
		}
	})

	t.Run("cron keys and the operator's sign-in", func(t *testing.T) {
		s := newServer(t, db, handlers.Config{AdminKey: key, CronKey: cronKey})
		for _, try := range []func(remote, k string) *httptest.ResponseRecorder{
			func(remote, k string) *httptest.ResponseRecorder {
				return s.do(t, http.MethodPost, "/api/cron/credit", remote, "X-Cron-Key", k)
			},
			func(remote, k string) *httptest.ResponseRecorder {
				return s.do(t, http.MethodPost, "/api/cron/payments", remote, "Authorization", "Bearer "+k)
			},
			func(remote, k string) *httptest.ResponseRecorder {
				// A sign-in with no nonce under way and a signature of nothing: 401 whether the
				// page signs in with the admin key or with a wallet.
				req := httptest.NewRequest(http.MethodPost, "/operator/login",
					strings.NewReader(`{"address":"`+alice+`","signature":"0x`+strings.Repeat("00", 65)+`"}`))
				req.Header.Set("Content-Type", "application/json")
				req.RemoteAddr = remote
				rec := httptest.NewRecorder()
				s.e.ServeHTTP(rec, req)
				return rec
			},
		} {
			remote := fmt.Sprintf("198.51.100.%d:1", len(s.log.String())%200) // a fresh address for each route
			for range freeAttempts + 1 {
				wantStatus(t, try(remote, "wrong"), http.StatusUnauthorized)
			}
			wantRetryAfter(t, try(remote, "wrong"))
		}
		// The right key from elsewhere: the credit pass runs.
		wantStatus(t, s.do(t, http.MethodPost, "/api/cron/credit", operator, "X-Cron-Key", cronKey), http.StatusOK)
		for _, want := range []string{`"route":"/operator/login","status":401`,
			`"route":"/api/cron/credit","status":200`, `"route":"/api/cron/payments","status":401`} {
			if !strings.Contains(s.log.String(), want) {
				t.Errorf("log lacks %s", want)
			}
		}
		if strings.Contains(s.log.String(), cronKey) || strings.Contains(s.log.String(), key) {
			t.Fatal("a key in the log")
		}
	})
}

func TestGuard(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	newTestGuard := func() *guard {
		g := newGuard(slog.New(slog.DiscardHandler))
		g.now = func() time.Time { return now }
		return g
	}
	client := func(i int) netip.Addr { return netip.AddrFrom4([4]byte{10, 0, byte(i >> 8), byte(i)}) }

	t.Run("the wait doubles with each further wrong attempt, up to its cap", func(t *testing.T) {
		g := newTestGuard()
		for range freeAttempts {
			if wait, _, _ := g.enter(client(1)); wait != 0 {
				t.Fatalf("refused within the free attempts: wait %s", wait)
			}
		}
		var waits []time.Duration
		for range 14 {
			if _, lockout, _ := g.enter(client(1)); lockout == 0 {
				t.Fatal("an attempt past the free ones did not lock the client out")
			}
			wait, _, _ := g.enter(client(1))
			waits = append(waits, wait)
			now = now.Add(wait)
		}
		if waits[0] != time.Second || waits[1] != 2*time.Second || waits[2] != 4*time.Second || waits[9] != 512*time.Second ||
			waits[10] != longestWait || waits[13] != longestWait {
			t.Fatalf("waits %v", waits)
		}
		g.succeeded(client(1), now.Unix()/60)
		if wait, _, _ := g.enter(client(1)); wait != 0 {
			t.Fatalf("a right key did not clear the record: wait %s", wait)
		}
	})

	t.Run("a ceiling over all addresses", func(t *testing.T) {
		now = now.Truncate(time.Minute).Add(10 * time.Second)
		g := newTestGuard()
		for i := range attemptsPerMinute {
			if wait, _, over := g.enter(client(i)); wait != 0 || over {
				t.Fatalf("client %d past the ceiling or refused below it: wait %s", i, wait)
			}
		}
		// Past the ceiling a fresh address still reaches its gate, so that a right key can pass.
		if wait, _, over := g.enter(client(9999)); wait != 0 || !over {
			t.Fatalf("a fresh address past the ceiling: wait %s, past it %t; want let through, past it", wait, over)
		}
		// A wrong one holds its address until the minute ends, and spends its free attempts.
		if wait := g.chargeOverCap(client(9999)); wait != 50*time.Second {
			t.Fatalf("a wrong credential past the ceiling: wait %s, want until the minute ends", wait)
		}
		if wait, _, _ := g.enter(client(9999)); wait != 50*time.Second {
			t.Fatalf("the address of a wrong credential past the ceiling: wait %s, want until the minute ends", wait)
		}
		// A right one clears its address and takes its attempt back, as below the ceiling.
		g.enter(client(10000))
		g.succeeded(client(10000), now.Unix()/60)
		if g.clients[client(10000)] != nil || g.pending != attemptsPerMinute+1 {
			t.Fatalf("a right credential past the ceiling: record %v, %d pending", g.clients[client(10000)], g.pending)
		}
		now = now.Add(50 * time.Second)
		if wait, lockout, over := g.enter(client(9999)); wait != 0 || over || lockout != firstWait {
			t.Fatalf("in the next minute: wait %s, lockout %s, past the ceiling %t; want let through, its free attempts spent", wait, lockout, over)
		}
	})

	t.Run("a full table shares one record among new clients", func(t *testing.T) {
		g := newTestGuard()
		g.maxKeys = 10
		for i := range 10 {
			g.enter(client(i))
		}
		refused := 0
		for i := 10; i < 30; i++ { // fresh addresses, one attempt each
			if wait, _, _ := g.enter(client(i)); wait > 0 {
				refused++
			}
		}
		if len(g.clients) != 10 || refused == 0 || g.overflow.n != freeAttempts+1 {
			t.Fatalf("%d clients kept, %d of 20 new clients refused, overflow %+v", len(g.clients), refused, g.overflow)
		}
		now = now.Add(forgetAfter + time.Minute) // the old clients are forgotten: a newcomer gets its own record
		if wait, _, _ := g.enter(client(100)); wait != 0 || g.clients[client(100)] == nil {
			t.Fatalf("after the table was swept: wait %s, record %v", wait, g.clients[client(100)])
		}
	})
}

// TestGuardBurst: attempts count as they arrive, so a burst sent in parallel gets no more
// through than one sent in a row.
func TestGuardBurst(t *testing.T) {
	t.Parallel()
	g := newGuard(slog.New(slog.DiscardHandler))
	release := make(chan struct{})
	var reached atomic.Int32
	e := echo.New()
	e.POST("/login", func(c echo.Context) error {
		reached.Add(1)
		<-release
		return echo.ErrUnauthorized
	}, g.middleware)
	var wg sync.WaitGroup
	codes := make(chan int, 50)
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req := httptest.NewRequest(http.MethodPost, "/login", nil)
			req.RemoteAddr = "198.51.100.9:1"
			rec := httptest.NewRecorder()
			e.ServeHTTP(rec, req)
			codes <- rec.Code
		}()
	}
	// Each attempt either waits in the handler or was refused.
	for refused := 0; int(reached.Load())+refused < 50; {
		select {
		case code := <-codes:
			if code == http.StatusTooManyRequests {
				refused++
			}
		case <-time.After(10 * time.Millisecond):
		}
	}
	close(release)
	wg.Wait()
	if n := reached.Load(); n != freeAttempts+1 {
		t.Fatalf("%d of 50 parallel attempts reached the handler, want %d", n, freeAttempts+1)
	}
}

func TestLimiterOverflow(t *testing.T) {
	t.Parallel()
	l := newLimiter(slog.New(slog.DiscardHandler))
	l.maxKeys = 3
	e := echo.New()
	e.GET("/r", func(c echo.Context) error { return c.NoContent(http.StatusOK) }, l.limit("r", 5))
	get := func(ip string) int {
		req := httptest.NewRequest(http.MethodGet, "/r", nil)
		req.RemoteAddr = ip + ":1"
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		return rec.Code
	}
	for i := range 3 {
		get(fmt.Sprintf("192.0.2.%d", i))
	}
	// The table is full: every new client shares one bucket of the route's allowance.
	for i := range 5 {
		if code := get(fmt.Sprintf("198.51.100.%d", i)); code != http.StatusOK {
			t.Fatalf("new client %d: %d within the shared allowance", i, code)
		}
	}
	if code := get("198.51.100.200"); code != http.StatusTooManyRequests {
		t.Fatalf("a new client past the shared allowance: %d, want 429 (never unlimited)", code)
	}
	if code := get("192.0.2.0"); code != http.StatusOK {
		t.Fatalf("a client in the table: %d", code)
	}
}

func TestLimitIPv6By64(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	s := newServer(t, db, handlers.Config{})
	remaining := func(remote string) string {
		return s.do(t, http.MethodGet, "/api/stats", remote).Header().Get("X-Ratelimit-Remaining")
	}
	if got := remaining("[2001:db8:1:2::1]:5000"); got != "119" {
		t.Fatalf("first request: remaining %s", got)
	}
	if got := remaining("[2001:db8:1:2:ffff:ffff:ffff:fffe]:5000"); got != "118" {
		t.Fatalf("another address of the same /64: remaining %s, want the bucket shared", got)
	}
	if got := remaining("[2001:db8:1:3::1]:5000"); got != "119" {
		t.Fatalf("another /64: remaining %s, want its own bucket", got)
	}
}

func TestPagesLimited(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	s := newServer(t, db, handlers.Config{AdminKey: "the-operators-admin-key-0123456789"})
	const client = "198.51.100.7:1"
	unknown := "/payment/0x" + strings.Repeat("ab", 32)
	for i := 1; i <= 60; i++ {
		if rec := s.do(t, http.MethodGet, unknown, client); rec.Code == http.StatusTooManyRequests {
			t.Fatalf("request %d refused within the allowance", i)
		}
	}
	rec := s.do(t, http.MethodGet, unknown, client)
	wantRetryAfter(t, rec)
	if !strings.Contains(rec.Body.String(), "slow down") || !strings.Contains(rec.Header().Get("Content-Type"), "text/html") {
		t.Fatalf("the page's 429: %s %s", rec.Header().Get("Content-Type"), rec.Body)
	}
	for path, want := range map[string]string{
		"/": "120", "/partials/stats": "120", "/node/1": "60", "/wallet/" + alice: "60", "/distributions": "60",
		"/health": "60", "/buy": "60", "/payment": "60", "/partials/payment/0x" + strings.Repeat("ab", 32): "60",
		"/me": "120", "/readyz": "", "/livez": "", "/operator": "60", "/operator/drift": "30", "/operator/live": "120",
	} {
		if got := s.do(t, http.MethodGet, path, "192.0.2.50:1").Header().Get("X-Ratelimit-Limit"); got != want {
			t.Errorf("%s: limit %q, want %s", path, got, want)
		}
	}
}

// startHTTP serves s over a real socket with the service's HTTP server.
func startHTTP(t *testing.T, s *testServer) string {
	t.Helper()
	srv := httptest.NewUnstartedServer(s.e)
	srv.Config = HTTPServer(s.e)
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL
}

// onlyReader hides a reader's length, so that the client sends its body chunked.
type onlyReader struct{ io.Reader }

func TestBodyLimit(t *testing.T) {
	// Not parallel: it sets TMPDIR for the process.
	db := storetest.New(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // os.TempDir: where net/http spools a multipart form's files
	s := newServer(t, db, handlers.Config{AdminKey: "the-operators-admin-key-0123456789"})
	base := startHTTP(t, s)

	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("key", "guess")
	fw, _ := mw.CreateFormFile("upload", "big.bin")
	fw.Write(bytes.Repeat([]byte("x"), 40<<20))
	mw.Close()

	post := func(path, ctype string, r io.Reader) *http.Response {
		t.Helper()
		resp, err := http.Post(base+path, ctype, r)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		io.Copy(io.Discard, resp.Body)
		return resp
	}
	t.Run("40 MB multipart to the operator's sign-in", func(t *testing.T) {
		start := time.Now()
		resp := post("/operator/login", mw.FormDataContentType(), bytes.NewReader(body.Bytes()))
		if took := time.Since(start); resp.StatusCode != http.StatusRequestEntityTooLarge || took > time.Second {
			t.Fatalf("%d after %s, want 413 at once", resp.StatusCode, took)
		}
	})
	t.Run("the same, chunked", func(t *testing.T) {
		resp := post("/operator/login", mw.FormDataContentType(), onlyReader{bytes.NewReader(body.Bytes())})
		if resp.StatusCode != http.StatusUnsupportedMediaType {
			t.Fatalf("chunked multipart: %d, want 415", resp.StatusCode)
		}
	})
	t.Run("an oversize url-encoded form, chunked", func(t *testing.T) {
		form := "key=" + strings.Repeat("k", 1<<20)
		resp := post("/operator/login", "application/x-www-form-urlencoded", onlyReader{strings.NewReader(form)})
		if resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Fatalf("chunked 1 MB form: %d, want 413", resp.StatusCode)
		}
	})
	t.Run("JSON and routes without a body", func(t *testing.T) {
		big := bytes.Repeat([]byte(" "), maxBody+1)
		req, _ := http.NewRequest(http.MethodPut, base+"/api/admin/tiers/1", bytes.NewReader(big))
		req.Header.Set("X-Admin-Key", "the-operators-admin-key-0123456789")
		req.Header.Set("Content-Type", "application/json")
		for _, req := range []*http.Request{req, httptest.NewRequest(http.MethodGet, base+"/api/stats", bytes.NewReader(big))} {
			req.RequestURI = ""
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusRequestEntityTooLarge {
				t.Errorf("%s %s with %d bytes: %d, want 413", req.Method, req.URL.Path, len(big), resp.StatusCode)
			}
		}
	})
	files, _ := os.ReadDir(tmp)
	for _, f := range files {
		t.Errorf("left in the temp folder: %s", f.Name())
	}
}

// TestRPCURLHidden: providers put their key in the RPC URL, and Go's HTTP errors quote the URL.
// Nothing the service logs, answers or stores holds it.
func TestRPCURLHidden(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	const secret = "SECRETKEY42"
	rpcURL := "http://rpcuser" + secret + ":rpcpass" + secret + "@127.0.0.1:1/v3/" + secret + "?apikey=" + secret
	c, err := chain.Dial(t.Context(), rpcURL, chain.Config{Factory: common.HexToAddress("0xfac7"), Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	if _, err := c.HeadNumber(t.Context()); !errors.Is(err, chain.ErrUnavailable) || strings.Contains(err.Error(), secret) ||
		!strings.Contains(err.Error(), "127.0.0.1:1") || !strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("error %q: want the host and the cause, not the URL's secrets, and still ErrUnavailable", err)
	}

	passLog := &testLog{}
	j := jobs.New(db, c, nil, nil, jobs.Config{ChainID: big.NewInt(1337), PaymentAddress: common.HexToAddress("0xbeef")},
		slog.New(slog.NewJSONHandler(passLog, nil)))
	if sum := j.Tick(t.Context()); sum.ReconcileError == "" || sum.PaymentsError == "" {
		t.Fatalf("the passes did not fail on an RPC that does not answer: %+v", sum)
	}
	var stored string
	if err := db.DB().QueryRow(`SELECT summary::text FROM scheduler_ticks ORDER BY id DESC LIMIT 1`).Scan(&stored); err != nil {
		t.Fatal(err)
	}

	s := newServerWith(t, db, c, j, handlers.Config{CronKey: "the-schedulers-cron-key-0123456789", DistMode: store.DistFixed}, Options{})
	var answers strings.Builder
	for _, path := range []string{"/api/cron/health", "/api/cover", "/health", "/api/cron/payments"} {
		answers.WriteString(s.do(t, http.MethodGet, path, "", "X-Cron-Key", "the-schedulers-cron-key-0123456789").Body.String())
	}
	for what, text := range map[string]string{"stored tick summary": stored, "passes' log": passLog.String(),
		"answers": answers.String(), "server log": s.log.String()} {
		if strings.Contains(text, secret) || strings.Contains(text, "rpcuser") {
			t.Errorf("the RPC URL's secrets in the %s:\n%s", what, text)
		}
	}
	if !strings.Contains(stored, "127.0.0.1:1") {
		t.Errorf("the stored summary does not say which RPC failed: %s", stored)
	}
}

// TestGuardPastTheCap attacks the overall cap on unproven credentials (issue 32): a dozen
// addresses that fill it with wrong admin keys, none locked out, must not shut out the right
// admin key, the right cron key or an operator's sign-in; a wrong one past the cap is answered
// 429 with retry-after, not 401, and holds its address until the minute ends.
func TestGuardPastTheCap(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	const key, cronKey = "the-operators-admin-key-0123456789", "the-schedulers-cron-key-0123456789"
	now := time.Date(2026, 5, 1, 10, 0, 10, 0, time.UTC)
	s := newServerWith(t, db, unreachableChain(t), nil,
		handlers.Config{AdminKey: key, CronKey: cronKey, SessionSecret: sessionSecret},
		Options{now: func() time.Time { return now }})
	admin := func(remote, k string) *httptest.ResponseRecorder {
		t.Helper()
		return s.do(t, http.MethodGet, "/api/admin/tiers", remote, "X-Admin-Key", k)
	}
	for i := range attemptsPerMinute / freeAttempts { // 12 addresses, each within its free attempts
		for j := range freeAttempts {
			wantStatus(t, admin(fmt.Sprintf("198.51.100.%d:1", i+1), fmt.Sprintf("guess-%d-%d", i, j)), http.StatusUnauthorized)
		}
	}

	t.Run("the right admin key", func(t *testing.T) {
		wantStatus(t, admin("203.0.113.1:1", key), http.StatusOK)
	})
	t.Run("the right cron key", func(t *testing.T) {
		wantStatus(t, s.do(t, http.MethodPost, "/api/cron/credit", "203.0.113.2:1", "X-Cron-Key", cronKey), http.StatusOK)
	})
	t.Run("an operator's sign-in", func(t *testing.T) {
		wantStatus(t, newBrowser(t, s, "203.0.113.3").operatorSignIn(addOperator(t, db, "viewer")), http.StatusOK)
	})
	t.Run("a wrong admin key", func(t *testing.T) {
		rec := admin("203.0.113.4:1", "guess-past-the-cap")
		wantRetryAfter(t, rec)
		if got := rec.Header().Get("Retry-After"); got != "50" {
			t.Fatalf("retry-after %s, want 50: the minute's end", got)
		}
		if got := errorMessage(t, rec); got != errTooManyAttempts.Message {
			t.Fatalf("sentence %q: more than a locked-out client is told", got)
		}
		// Its address is held for its own wrong key, right key or not, as any locked-out client.
		wantRetryAfter(t, admin("203.0.113.4:1", key))
	})
	t.Run("a wrong cron key", func(t *testing.T) {
		wantRetryAfter(t, s.do(t, http.MethodPost, "/api/cron/payments", "203.0.113.5:1", "Authorization", "Bearer guess"))
	})
	t.Run("wrong sign-ins", func(t *testing.T) {
		other, _ := crypto.GenerateKey()
		wantRetryAfter(t, newBrowser(t, s, "203.0.113.6").operatorSignIn(other)) // 403 below the cap: not an operator
		b := newBrowser(t, s, "203.0.113.7")
		ch := decode[challenge](t, b.do(http.MethodGet, "/api/auth/nonce?address="+addrOf(other), nil))
		forged := fmt.Sprintf(`{"address": %q, "signature": %q}`, alice, hexutil.Encode(personalSign(t, other, ch.Message)))
		rec := b.send(httptest.NewRequest(http.MethodPost, "/operator/login", strings.NewReader(forged)),
			"Content-Type", "application/json", "Accept", "application/json").ResponseRecorder
		wantRetryAfter(t, rec) // 401 below the cap: the signature is not alice's
	})
	t.Run("the next minute", func(t *testing.T) {
		now = now.Add(50 * time.Second)
		wantStatus(t, admin("203.0.113.8:1", "guess-next-minute"), http.StatusUnauthorized)
	})

	log := s.log.String()
	if strings.Contains(log, "guess-") || strings.Contains(log, key) || strings.Contains(log, cronKey) {
		t.Fatalf("a key in the log:\n%s", log)
	}
	for _, want := range []string{
		`"msg":"credential accepted","client":"203.0.113.1","method":"GET","route":"/api/admin/tiers","status":200`,
		`"msg":"credential refused past the overall cap","client":"203.0.113.4","method":"GET","route":"/api/admin/tiers","status":401`,
		`"msg":"credential refused past the overall cap","client":"203.0.113.6","method":"POST","route":"/operator/login","status":403`,
	} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %s:\n%s", want, log)
		}
	}
}

// TestGuardLogsRefusals: every refused sign-in counts as an attempt, so each is logged with its
// status, not only the 401s: a wallet not on the operator list (403) and a malformed body (400).
func TestGuardLogsRefusals(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	s := newServer(t, db, handlers.Config{SessionSecret: sessionSecret})
	stranger, _ := crypto.GenerateKey()
	wantStatus(t, newBrowser(t, s, "198.51.100.31").operatorSignIn(stranger), http.StatusForbidden)
	b := newBrowser(t, s, "198.51.100.32")
	rec := b.send(httptest.NewRequest(http.MethodPost, "/operator/login", strings.NewReader(`{"address":"`+alice+`"}`)),
		"Content-Type", "application/json", "Accept", "application/json").ResponseRecorder
	wantStatus(t, rec, http.StatusBadRequest)

	log := s.log.String()
	for _, want := range []string{
		`"msg":"credential refused","client":"198.51.100.31","method":"POST","route":"/operator/login","status":403`,
		`"msg":"credential refused","client":"198.51.100.32","method":"POST","route":"/operator/login","status":400`,
	} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %s:\n%s", want, log)
		}
	}
}
