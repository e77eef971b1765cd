package web

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"nodeledger/chain"
	"nodeledger/chain/devchain"
	"nodeledger/handlers"
	"nodeledger/jobs"
	"nodeledger/store/storetest"
)

// fuzzClient gives each fuzz request an address of its own, so the rate limiter stays out of the way.
var fuzzClient atomic.Uint32

func nextIP() string {
	n := fuzzClient.Add(1)
	return fmt.Sprintf("10.%d.%d.%d", byte(n>>16), byte(n>>8), byte(n))
}

func nextClient() string { return nextIP() + ":1" }

// fuzzAnswer checks what every fuzzed request must get: never a 5xx, only the statuses the route
// documents, the envelope on every failure (do checks it against the OpenAPI document too).
func fuzzAnswer(t *testing.T, s *testServer, target string, allowed ...int) {
	rec := s.do(t, http.MethodGet, target, nextClient())
	for _, status := range allowed {
		if rec.Code == status {
			return
		}
	}
	t.Fatalf("GET %s: status %d, want one of %v; body %s", target, rec.Code, allowed, rec.Body)
}

func FuzzNodeRoute(f *testing.F) {
	db := storetest.New(f)
	storetest.Node(f, db, "1", alice, time.Now())
	for _, seed := range [][2]string{
		{"1", ""}, {"1", "200"}, {"0", "50"}, {maxU256, "1"}, {"-1", "0"}, {"abc", "x"},
		{"1/2", ""}, {"..", ""}, {"%00", "1"}, {" 1", "+5"}, {strings.Repeat("9", 100), "-1"},
		{"0000000000000000000000000000000000000000000000000000000000000000000000000000000001", "201"},
	} {
		f.Add(seed[0], seed[1])
	}
	s := newServer(f, db, handlers.Config{})
	f.Fuzz(func(t *testing.T, id, limit string) {
		target := "/api/node/" + url.PathEscape(id) + "?limit=" + url.QueryEscape(limit)
		fuzzAnswer(t, s, target, http.StatusOK, http.StatusBadRequest, http.StatusNotFound)
	})
}

func FuzzNodesRoute(f *testing.F) {
	db := storetest.New(f)
	for _, seed := range []string{alice, strings.ToUpper(alice), "0x", "0x123", "", "..", "%2F",
		alice + "0", "0x" + strings.Repeat("g", 40), "\x00"} {
		f.Add(seed)
	}
	s := newServer(f, db, handlers.Config{})
	f.Fuzz(func(t *testing.T, address string) {
		fuzzAnswer(t, s, "/api/nodes/"+url.PathEscape(address), http.StatusOK, http.StatusBadRequest, http.StatusNotFound)
	})
}

// fuzzNo5xx checks what every fuzzed request must get on a route with a body or a cookie: never a
// 5xx, and the envelope on every failure (checked against the OpenAPI document by the callers).
func fuzzNo5xx(t *testing.T, req *http.Request, rec *httptest.ResponseRecorder) {
	checkAgainstOpenAPI(t, req, rec)
	if rec.Code >= 500 {
		t.Fatalf("%s %s: status %d; body %s", req.Method, req.URL, rec.Code, rec.Body)
	}
}

func FuzzDistributionsLimit(f *testing.F) {
	db := storetest.New(f)
	for _, seed := range []string{"", "1", "50", "100", "101", "0", "-1", "1.5", "1e2", "0x10", " 7", "७", strings.Repeat("9", 40)} {
		f.Add(seed)
	}
	s := newServer(f, db, handlers.Config{})
	f.Fuzz(func(t *testing.T, limit string) {
		fuzzAnswer(t, s, "/api/distributions?limit="+url.QueryEscape(limit), http.StatusOK, http.StatusBadRequest)
	})
}

// FuzzSignInBody posts arbitrary bodies to /api/auth/verify after a real nonce: addresses,
// signatures and the JSON around them.
func FuzzSignInBody(f *testing.F) {
	db := storetest.New(f)
	for _, seed := range []string{
		`{"address":"` + alice + `","signature":"0x` + strings.Repeat("ab", 65) + `"}`,
		`{"address":"` + alice + `","signature":"0x"}`, `{"address":null,"signature":null}`, `{}`, `[]`, `null`, ``,
		`{"address":"` + alice + `","signature":"0x` + strings.Repeat("00", 64) + `1b"}`,
		`{"address":"` + alice + `","signature":"` + strings.Repeat("f", 10000) + `"}`,
		`{"address":1,"signature":true}`, `{"address":"` + alice + `"`, "\xff\xfe",
	} {
		f.Add(seed)
	}
	s := authServer(f, db, nil, nil, handlers.Config{})
	f.Fuzz(func(t *testing.T, body string) {
		b := newBrowser(t, s, nextIP())
		wantStatus(t, b.do(http.MethodPost, "/api/auth/nonce", nil), http.StatusOK)
		req := httptest.NewRequest(http.MethodPost, "/api/auth/verify", strings.NewReader(body))
		rec := b.send(req, "Content-Type", "application/json", "Origin", "http://127.0.0.1:8080")
		fuzzNo5xx(t, rec.req, rec.ResponseRecorder)
	})
}

// FuzzSessionCookie sends arbitrary session cookies to /api/me: forged, truncated, re-encoded.
func FuzzSessionCookie(f *testing.F) {
	db := storetest.New(f)
	for _, seed := range []string{"", "x", "MTcwMDAwMDAwMHxhYmN8ZGVm", strings.Repeat("A", 4096), "a|b|c", "%00", "\"quoted\""} {
		f.Add(seed)
	}
	s := authServer(f, db, nil, nil, handlers.Config{})
	f.Fuzz(func(t *testing.T, value string) {
		req := httptest.NewRequest(http.MethodGet, "/api/me", nil)
		req.Header.Set("Cookie", "nl_session="+value)
		req.RemoteAddr = nextClient()
		rec := httptest.NewRecorder()
		s.e.ServeHTTP(rec, req)
		fuzzNo5xx(t, req, rec)
		if rec.Code != http.StatusUnauthorized && rec.Code != http.StatusBadRequest {
			t.Fatalf("cookie %q: status %d, want 401: no forged cookie signs anybody in", value, rec.Code)
		}

		// Signing out with it signs nobody out and fails nothing.
		req = httptest.NewRequest(http.MethodPost, "/api/auth/logout", strings.NewReader(value))
		req.Header.Set("Cookie", "nl_session="+value)
		req.Header.Set("Origin", "http://127.0.0.1:8080")
		req.RemoteAddr = nextClient()
		rec = httptest.NewRecorder()
		s.e.ServeHTTP(rec, req)
		fuzzNo5xx(t, req, rec)
	})
}

// FuzzSignInNonce asks for nonces for arbitrary addresses, and verifies a well-formed signature
// against an arbitrary nonce cookie: forged, lapsed, another browser's.
func FuzzSignInNonce(f *testing.F) {
	db := storetest.New(f)
	for _, seed := range [][2]string{
		{alice, "00112233445566778899aabbccddeeff"}, {"", ""}, {strings.ToUpper(alice), "x"}, {"0x12", "%00"},
		{alice + "00", strings.Repeat("f", 4096)}, {"not an address", "' OR 1=1 --"}, {"0x" + strings.Repeat("0", 40), "\"\""},
	} {
		f.Add(seed[0], seed[1])
	}
	s := authServer(f, db, nil, nil, handlers.Config{})
	body := `{"address":"` + alice + `","signature":"0x` + strings.Repeat("ab", 65) + `"}`
	f.Fuzz(func(t *testing.T, address, nonce string) {
		req := httptest.NewRequest(http.MethodGet, "/api/auth/nonce?address="+url.QueryEscape(address), nil)
		req.RemoteAddr = nextClient()
		rec := httptest.NewRecorder()
		s.e.ServeHTTP(rec, req)
		fuzzNo5xx(t, req, rec)

		req = httptest.NewRequest(http.MethodPost, "/api/auth/verify", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", "http://127.0.0.1:8080")
		req.AddCookie(&http.Cookie{Name: "nl_nonce", Value: url.QueryEscape(nonce)})
		req.RemoteAddr = nextClient()
		rec = httptest.NewRecorder()
		s.e.ServeHTTP(rec, req)
		fuzzNo5xx(t, req, rec)
		if rec.Code == http.StatusOK {
			t.Fatalf("nonce cookie %q signed in with a signature of nothing", nonce)
		}
	})
}

// FuzzSyncBody posts arbitrary bodies to /api/nodes/sync for a signed-in wallet, with a real
// chain behind: hashes and ids of every shape, and the JSON around them.
func FuzzSyncBody(f *testing.F) {
	for _, seed := range []string{
		`{"txHash":"0x` + strings.Repeat("ab", 32) + `"}`, `{"nodeId":"1"}`, `{"nodeId":1}`, `{"nodeId":1e3}`,
		`{"nodeId":"` + maxU256 + `"}`, `{"nodeId":-1}`, `{"txHash":null}`, `{"nodeId":{}}`, `{"txHash":"0x12"}`,
		`{"nodeId":"1","txHash":"0x"}`, `{}`, `[]`, `null`, ``, `{"nodeId":"1"`, `{"nodeId":"1"} {}`, "\xff",
	} {
		f.Add(seed)
	}
	db := storetest.New(f)
	dc, err := devchain.Start(f.Context(), devchain.Options{})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { dc.Close() })
	c := chain.New(dc.RPC(), chain.Config{Factory: dc.Factory, PriceFeed: dc.PriceFeed})
	j := jobs.New(db, c, chain.LocalSigner(dc.Minter.Key), chain.LocalSigner(dc.Distributor.Key), jobs.Config{ChainID: dc.ChainID(), PaymentAddress: dc.Payments}, slog.New(slog.DiscardHandler))
	s := authServer(f, db, c, j, handlers.Config{})
	f.Fuzz(func(t *testing.T, body string) {
		b := newBrowser(t, s, nextIP())
		b.signIn(dc.Buyers[0].Key)
		req := httptest.NewRequest(http.MethodPost, "/api/nodes/sync", strings.NewReader(body))
		rec := b.send(req, "Content-Type", "application/json", "Origin", "http://127.0.0.1:8080")
		fuzzNo5xx(t, rec.req, rec.ResponseRecorder)
	})
}

// FuzzAdminTierBody puts arbitrary tiers: ids, prices and the JSON around them.
func FuzzAdminTierBody(f *testing.F) {
	db := storetest.New(f)
	for _, seed := range [][2]string{
		{"1", `{"label":"One","priceWei":"100000000000000000","maxPerWallet":3,"holdingWei":"0","holdingToken":null,"payoutBps":10000,"enabled":true}`},
		{"256", `{"label":"x"}`}, {"-1", `{}`}, {"abc", `[]`}, {"2", `{"priceWei":"-1"}`}, {"3", `{"priceWei":"1e18"}`},
		{"4", `{"label":"` + strings.Repeat("x", 1000) + `","priceWei":"` + maxU256 + `0"}`}, {"5", `{"holdingToken":"0x12"}`},
	} {
		f.Add(seed[0], seed[1])
	}
	s := newServer(f, db, handlers.Config{AdminKey: "fuzz-admin-key"})
	f.Fuzz(func(t *testing.T, id, body string) {
		rec := s.adminDo(t, http.MethodPut, "/api/admin/tiers/"+url.PathEscape(id), body, "fuzz-admin-key")
		if rec.Code >= 500 {
			t.Fatalf("PUT tier %q %q: status %d; body %s", id, body, rec.Code, rec.Body)
		}
	})
}

func FuzzPaymentRoute(f *testing.F) {
	db := storetest.New(f)
	seen := storetest.TxHash("seen")
	if _, err := db.DB().Exec(`INSERT INTO payments (tx_hash, payment_ref, from_address, value_wei, block_number, block_hash, status,
			reason_code, reason_args)
		VALUES ($1, $1, $2, 7, 3, $1, 'rejected', 'minting_paused', '{}')`, seen, alice); err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{seen, strings.ToUpper(seen), storetest.TxHash("unseen"), "0x", "0x12", "", "..", "%2F",
		seen + "0", "0x" + strings.Repeat("g", 64), "\x00", seen[2:]} {
		f.Add(seed)
	}
	// A real chain: a well-formed hash the ledger has not seen is looked up there (404), never 503.
	dc, c := startDevChain(f)
	s := newChainServer(f, db, c, nil, handlers.Config{PaymentAddress: strings.ToLower(dc.Payments.Hex())})
	f.Fuzz(func(t *testing.T, hash string) {
		fuzzAnswer(t, s, "/api/payments/"+url.PathEscape(hash), http.StatusOK, http.StatusBadRequest, http.StatusNotFound)
	})
}

func FuzzPaymentsFrom(f *testing.F) {
	db := storetest.New(f)
	for _, seed := range [][2]string{{alice, ""}, {strings.ToUpper(alice), "1"}, {"0x", "100"}, {"", "0"},
		{alice + "0", "101"}, {"0x" + strings.Repeat("g", 40), "-1"}, {"\x00", "1e2"}, {alice, " 5"}} {
		f.Add(seed[0], seed[1])
	}
	s := newServer(f, db, handlers.Config{})
	f.Fuzz(func(t *testing.T, from, limit string) {
		target := "/api/payments?from=" + url.QueryEscape(from) + "&limit=" + url.QueryEscape(limit)
		fuzzAnswer(t, s, target, http.StatusOK, http.StatusBadRequest)
	})
}
