package web

import (
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/gorilla/sessions"

	"nodeledger/chain"
	"nodeledger/chain/bindings"
	"nodeledger/handlers"
	"nodeledger/jobs"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

var sessionSecret = []byte("test-session-secret-0123456789abcdef")

// browser keeps cookies between requests, as a browser does for one site.
type browser struct {
	t       *testing.T
	s       *testServer
	ip      string
	cookies map[string]*http.Cookie
	csrf    string // the operator page's CSRF token, which form adds to every form it posts
}

func newBrowser(t *testing.T, s *testServer, ip string) *browser {
	return &browser{t: t, s: s, ip: ip, cookies: map[string]*http.Cookie{}}
}

// do sends a request with the browser's cookies and a JSON body (when body is not nil), and
// keeps the cookies it is given; header holds extra name, value pairs.
func (b *browser) do(method, target string, body any, header ...string) *httptest.ResponseRecorder {
	b.t.Helper()
	var raw string
	if body != nil {
		enc, _ := json.Marshal(body)
		raw = string(enc)
		header = append([]string{"Content-Type", "application/json"}, header...)
	}
	rec := b.send(httptest.NewRequest(method, target, strings.NewReader(raw)), header...)
	checkAgainstOpenAPI(b.t, rec.req, rec.ResponseRecorder)
	return rec.ResponseRecorder
}

// sent is an answer with the request it answers.
type sent struct {
	*httptest.ResponseRecorder
	req *http.Request
}

// send serves req from the browser's address with its cookies and the given header pairs, and
// keeps the cookies the answer sets (and forgets those it expires).
func (b *browser) send(req *http.Request, header ...string) sent {
	b.t.Helper()
	req.RemoteAddr = b.ip + ":1234"
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	for _, c := range b.cookies {
		req.AddCookie(c)
	}
	rec := httptest.NewRecorder()
	b.s.e.ServeHTTP(rec, req)
	for _, c := range rec.Result().Cookies() {
		if c.MaxAge < 0 {
			delete(b.cookies, c.Name)
		} else {
			b.cookies[c.Name] = c
		}
	}
	return sent{rec, req}
}

type challenge struct {
	Nonce     string `json:"nonce"`
	Message   string `json:"message"`
	ExpiresAt string `json:"expiresAt"`
}

// personalSign signs msg as a wallet's personal_sign does: EIP-191, v of 27 or 28.
func personalSign(t *testing.T, key *ecdsa.PrivateKey, msg string) []byte {
	sig, err := crypto.Sign(accounts.TextHash([]byte(msg)), key)
	if err != nil {
		t.Fatal(err)
	}
	sig[64] += 27
	return sig
}

func addrOf(key *ecdsa.PrivateKey) string {
	return strings.ToLower(crypto.PubkeyToAddress(key.PublicKey).Hex())
}

// signIn runs the whole sign-in of key in b and fails the test unless it succeeds.
func (b *browser) signIn(key *ecdsa.PrivateKey) {
	b.t.Helper()
	ch := decode[challenge](b.t, b.do(http.MethodGet, "/api/auth/nonce?address="+addrOf(key), nil))
	rec := b.do(http.MethodPost, "/api/auth/verify", map[string]string{
		"address": addrOf(key), "signature": hexutil.Encode(personalSign(b.t, key, ch.Message))})
	wantStatus(b.t, rec, http.StatusOK)
}

// authServer serves the session routes over chain c (nil: a dev chain of the test's own, since
// a signature that no account made is checked with the wallet contract it may be) and passes j.
func authServer(t testing.TB, db *store.Store, c *chain.Client, j *jobs.Jobs, cfg handlers.Config) *testServer {
	t.Helper()
	if c == nil {
		_, c = startDevChain(t)
	}
	cfg.SessionSecret = sessionSecret
	cfg.ChainID = 1337
	return newChainServer(t, db, c, j, cfg)
}

func TestSignIn(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	s := authServer(t, db, nil, nil, handlers.Config{})
	key, _ := crypto.GenerateKey()
	b := newBrowser(t, s, "203.0.113.10")

	rec := b.do(http.MethodGet, "/api/auth/nonce?address="+addrOf(key), nil)
	wantStatus(t, rec, http.StatusOK)
	if rec.Header().Get("Cache-Control") != "private, no-store" {
		t.Fatalf("Cache-Control %q", rec.Header().Get("Cache-Control"))
	}
	ch := decode[challenge](t, rec)
	nonce := b.cookies["nl_nonce"]
	if nonce == nil || nonce.Value != ch.Nonce || !nonce.HttpOnly || nonce.SameSite != http.SameSiteLaxMode || nonce.Secure {
		t.Fatalf("nonce cookie %+v", nonce)
	}
	checksummed := crypto.PubkeyToAddress(key.PublicKey).Hex()
	for _, want := range []string{
		"127.0.0.1:8080 wants you to sign in with your Ethereum account:\n" + checksummed + "\n",
		"\nURI: http://127.0.0.1:8080\n", "\nVersion: 1\n", "\nChain ID: 1337\n", "\nNonce: " + ch.Nonce + "\n",
		"\nIssued At: ", "\nExpiration Time: ",
	} {
		if !strings.Contains(ch.Message, want) {
			t.Fatalf("message lacks %q:\n%s", want, ch.Message)
		}
	}

	sig := personalSign(t, key, ch.Message)
	body := map[string]string{"address": addrOf(key), "signature": hexutil.Encode(sig)}
	rec = b.do(http.MethodPost, "/api/auth/verify", body)
	wantStatus(t, rec, http.StatusOK)
	if got := decode[map[string]string](t, rec)["address"]; got != addrOf(key) {
		t.Fatalf("address %q", got)
	}
	session := b.cookies["nl_session"]
	if session == nil || !session.HttpOnly || session.SameSite != http.SameSiteLaxMode || session.MaxAge != 7*24*3600 || session.Path != "/" {
		t.Fatalf("session cookie %+v", session)
	}
	if b.cookies["nl_nonce"] != nil {
		t.Fatal("the nonce cookie outlived its use")
	}

	me := b.do(http.MethodGet, "/api/me", nil)
	wantStatus(t, me, http.StatusOK)
	if me.Header().Get("Cache-Control") != "private, no-store" {
		t.Fatalf("Cache-Control %q", me.Header().Get("Cache-Control"))
	}
	if got := strings.TrimSpace(me.Body.String()); got != `{"address":"`+addrOf(key)+`","nodes":[],"payments":[],"referrals":{"link":null,"codes":[],"owedWei":"0","paidWei":"0","owedTokens":[],"paidTokens":[]},"totals":{"balanceWei":"0","cumulativeWei":"0","withdrawnWei":"0"},"unrecorded":[]}` {
		t.Fatalf("me %s", got)
	}

	t.Run("the same signature again is refused", func(t *testing.T) {
		replay := newBrowser(t, s, "203.0.113.11")
		replay.cookies["nl_nonce"] = nonce
		rec := replay.do(http.MethodPost, "/api/auth/verify", body)
		wantStatus(t, rec, http.StatusUnauthorized)
		if msg := errorMessage(t, rec); !strings.Contains(msg, "used already or has lapsed") {
			t.Fatalf("message %q", msg)
		}
	})
	t.Run("logout ends the session, and a copy of its cookie", func(t *testing.T) {
		copied := newBrowser(t, s, "203.0.113.12")
		copied.cookies["nl_session"] = session
		wantStatus(t, copied.do(http.MethodGet, "/api/me", nil), http.StatusOK)
		time.Sleep(time.Millisecond) // sign-out time strictly after the session's issue time
		for range 2 {
			rec := b.do(http.MethodPost, "/api/auth/logout", nil)
			wantStatus(t, rec, http.StatusOK)
			if got := strings.TrimSpace(rec.Body.String()); got != `{"ok":true}` {
				t.Fatalf("logout %s", got)
			}
		}
		wantStatus(t, b.do(http.MethodGet, "/api/me", nil), http.StatusUnauthorized)
		wantStatus(t, copied.do(http.MethodGet, "/api/me", nil), http.StatusUnauthorized)
		// Signing in again works.
		b.signIn(key)
		wantStatus(t, b.do(http.MethodGet, "/api/me", nil), http.StatusOK)
	})
}

func TestSignInRefusals(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	s := authServer(t, db, nil, nil, handlers.Config{})
	key, _ := crypto.GenerateKey()
	other, _ := crypto.GenerateKey()
	ip := 20
	start := func(address string) (*browser, challenge) {
		ip++
		b := newBrowser(t, s, fmt.Sprintf("198.51.100.%d", ip))
		target := "/api/auth/nonce"
		if address != "" {
			target += "?address=" + address
		}
		return b, decode[challenge](t, b.do(http.MethodPost, target, nil))
	}
	verify := func(b *browser, address string, sig []byte) *httptest.ResponseRecorder {
		return b.do(http.MethodPost, "/api/auth/verify", map[string]string{"address": address, "signature": hexutil.Encode(sig)})
	}

	t.Run("v of 0 or 1 is accepted too", func(t *testing.T) {
		b, ch := start(addrOf(key))
		sig := personalSign(t, key, ch.Message)
		sig[64] -= 27
		wantStatus(t, verify(b, addrOf(key), sig), http.StatusOK)
	})
	t.Run("a nonce asked without an address", func(t *testing.T) {
		b, ch := start("")
		if strings.Contains(ch.Message, "0x") {
			t.Fatalf("message names an account: %s", ch.Message)
		}
		wantStatus(t, verify(b, addrOf(key), personalSign(t, key, ch.Message)), http.StatusOK)
	})
	for name, tc := range map[string]struct {
		sign    *ecdsa.PrivateKey
		claim   string
		mangle  func([]byte) []byte
		message string
	}{
		"another key's signature":          {sign: other, claim: addrOf(key), message: "does not match"},
		"a signature of the wrong length":  {sign: key, claim: addrOf(key), mangle: func(s []byte) []byte { return s[:64] }, message: "does not match"},
		"an empty signature":               {sign: key, claim: addrOf(key), mangle: func([]byte) []byte { return nil }, message: "does not match"},
		"a garbled signature":              {sign: key, claim: addrOf(key), mangle: func(s []byte) []byte { s[10] ^= 0xff; return s }, message: "does not match"},
		"a nonce bound to another account": {sign: other, claim: addrOf(other), message: "does not match"},
	} {
		t.Run("401 for "+name, func(t *testing.T) {
			b, ch := start(addrOf(key))
			sig := personalSign(t, tc.sign, ch.Message)
			if tc.mangle != nil {
				sig = tc.mangle(sig)
			}
			rec := verify(b, tc.claim, sig)
			wantStatus(t, rec, http.StatusUnauthorized)
			if msg := errorMessage(t, rec); !strings.Contains(msg, tc.message) {
				t.Fatalf("message %q", msg)
			}
		})
	}
	t.Run("401 for a lapsed nonce", func(t *testing.T) {
		b, ch := start(addrOf(key))
		mustExec(t, db, `UPDATE auth_nonces SET expires_at = now() - interval '1 second' WHERE nonce = $1`, ch.Nonce)
		wantStatus(t, verify(b, addrOf(key), personalSign(t, key, ch.Message)), http.StatusUnauthorized)
	})
	t.Run("401 without the nonce cookie", func(t *testing.T) {
		b, ch := start(addrOf(key))
		delete(b.cookies, "nl_nonce")
		wantStatus(t, verify(b, addrOf(key), personalSign(t, key, ch.Message)), http.StatusUnauthorized)
	})
	t.Run("a failed attempt spends the nonce", func(t *testing.T) {
		b, ch := start(addrOf(key))
		wantStatus(t, verify(b, addrOf(key), personalSign(t, other, ch.Message)), http.StatusUnauthorized)
		if b.cookies["nl_nonce"] != nil {
			t.Fatal("the nonce cookie survived a failed attempt")
		}
	})
	for name, body := range map[string]string{
		"not JSON":            `address=0x1`,
		"no signature":        `{"address":"` + addrOf(key) + `"}`,
		"an unknown field":    `{"address":"` + addrOf(key) + `","signature":"0x00","nonce":"x"}`,
		"a bad address":       `{"address":"0x12","signature":"0x00"}`,
		"a non-hex signature": `{"address":"` + addrOf(key) + `","signature":"zz"}`,
		"an array":            `[]`,
	} {
		t.Run("400 for "+name, func(t *testing.T) {
			b, _ := start(addrOf(key))
			req := httptest.NewRequest(http.MethodPost, "/api/auth/verify", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.AddCookie(b.cookies["nl_nonce"])
			rec := httptest.NewRecorder()
			s.e.ServeHTTP(rec, req)
			checkAgainstOpenAPI(t, req, rec)
			wantStatus(t, rec, http.StatusBadRequest)
		})
	}
	t.Run("cross-site requests are refused", func(t *testing.T) {
		b, ch := start(addrOf(key))
		body := map[string]string{"address": addrOf(key), "signature": hexutil.Encode(personalSign(t, key, ch.Message))}
		wantStatus(t, b.do(http.MethodPost, "/api/auth/verify", body, "Origin", "https://evil.example"), http.StatusForbidden)
		// A form-style body a cross-site page could send without a preflight.
		wantStatus(t, b.do(http.MethodPost, "/api/auth/logout", "x", "Content-Type", "text/plain"), http.StatusBadRequest)
		wantStatus(t, b.do(http.MethodPost, "/api/auth/logout", nil, "Origin", "http://127.0.0.1:8080"), http.StatusOK)
	})
}

func TestSessionCookie(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	s := authServer(t, db, nil, nil, handlers.Config{})
	key, _ := crypto.GenerateKey()
	b := newBrowser(t, s, "192.0.2.77")
	b.signIn(key)
	good := *b.cookies["nl_session"]

	// A cookie signed with our secret, as the server would make it, with given values.
	forge := func(values map[any]any) *http.Cookie {
		store := sessions.NewCookieStore(sessionSecret)
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		rec := httptest.NewRecorder()
		sess, _ := store.New(req, "nl_session")
		sess.Values = values
		if err := sess.Save(req, rec); err != nil {
			t.Fatal(err)
		}
		return rec.Result().Cookies()[0]
	}
	now := time.Now()
	for name, c := range map[string]*http.Cookie{
		"a tampered cookie":                     {Name: "nl_session", Value: good.Value[:len(good.Value)-4] + "AAAA"},
		"another address in a copied signature": {Name: "nl_session", Value: strings.Replace(good.Value, "a", "b", 1)},
		"an expired session": forge(map[any]any{"addr": addrOf(key), "iat": now.Add(-8 * 24 * time.Hour).UnixMicro(),
			"exp": now.Add(-24 * time.Hour).Unix()}),
		"a session without an expiry": forge(map[any]any{"addr": addrOf(key), "iat": now.UnixMicro()}),
		"a session signed with another secret": func() *http.Cookie {
			store := sessions.NewCookieStore([]byte("another-secret-another-secret-00"))
			req := httptest.NewRequest(http.MethodGet, "/", nil)
			rec := httptest.NewRecorder()
			sess, _ := store.New(req, "nl_session")
			sess.Values = map[any]any{"addr": addrOf(key), "iat": now.UnixMicro(), "exp": now.Add(time.Hour).Unix()}
			sess.Save(req, rec)
			return rec.Result().Cookies()[0]
		}(),
	} {
		t.Run("401 for "+name, func(t *testing.T) {
			v := newBrowser(t, s, "192.0.2.78")
			v.cookies["nl_session"] = c
			rec := v.do(http.MethodGet, "/api/me", nil)
			wantStatus(t, rec, http.StatusUnauthorized)
			if rec.Header().Get("Cache-Control") != "private, no-store" {
				t.Fatalf("Cache-Control %q on a session route's 401", rec.Header().Get("Cache-Control"))
			}
		})
	}
	t.Run("a visitor gets 401", func(t *testing.T) {
		wantStatus(t, newBrowser(t, s, "192.0.2.79").do(http.MethodGet, "/api/me", nil), http.StatusUnauthorized)
	})
}

func TestMeShowsNodesTheLedgerHasNotRecorded(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	dc, c := startDevChain(t)
	buyer := dc.Buyers[0]
	// Two nodes on chain; the ledger knows one.
	for i := range 2 {
		transact(t, dc, c, dc.Minter.Key, &dc.Factory, c.MintData(buyer.Address, 1, common.Hash{byte(i + 1)}), nil)
	}
	storetest.Node(t, db, "1", strings.ToLower(buyer.Address.Hex()), t0)
	s := authServer(t, db, c, nil, handlers.Config{})
	b := newBrowser(t, s, "192.0.2.90")
	b.signIn(buyer.Key)
	me := decode[struct {
		Nodes      []nodeBody          `json:"nodes"`
		Totals     map[string]string   `json:"totals"`
		Unrecorded []map[string]string `json:"unrecorded"`
	}](t, b.do(http.MethodGet, "/api/me", nil))
	if len(me.Nodes) != 1 || len(me.Unrecorded) != 1 || me.Unrecorded[0]["chainNodeId"] != "2" {
		t.Fatalf("me %+v", me)
	}
	if me.Totals["balanceWei"] != "7" || me.Totals["cumulativeWei"] != "10" || me.Totals["withdrawnWei"] != "3" {
		t.Fatalf("totals %v", me.Totals)
	}
}

func TestAuthRateLimits(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	s := authServer(t, db, nil, nil, handlers.Config{})
	b := newBrowser(t, s, "192.0.2.99")
	for i := 1; i <= 21; i++ {
		rec := b.do(http.MethodGet, "/api/auth/nonce", nil)
		if rec.Header().Get("X-Ratelimit-Limit") != "20" {
			t.Fatalf("limit %q", rec.Header().Get("X-Ratelimit-Limit"))
		}
		if i == 21 {
			wantStatus(t, rec, http.StatusTooManyRequests)
		}
	}
	for path, want := range map[string]string{"/api/auth/logout": "30", "/api/auth/verify": "20", "/api/nodes/sync": "20"} {
		if got := b.do(http.MethodPost, path, map[string]string{}).Header().Get("X-Ratelimit-Limit"); got != want {
			t.Errorf("%s: limit %q, want %s", path, got, want)
		}
	}
	if got := b.do(http.MethodGet, "/api/me", nil).Header().Get("X-Ratelimit-Limit"); got != "120" {
		t.Errorf("/api/me: limit %q", got)
	}
}

func TestSignInAsAContractWallet(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	dc, c := startDevChain(t)
	owner := dc.Buyers[1]
	code := append(common.FromHex(bindings.SignerWalletMetaData.Bin), bindings.NewSignerWallet().PackConstructor(owner.Address)...)
	r := transact(t, dc, c, owner.Key, nil, code, nil)
	wallet := strings.ToLower(r.ContractAddress.Hex())
	s := authServer(t, db, c, nil, handlers.Config{})

	b := newBrowser(t, s, "192.0.2.120")
	ch := decode[challenge](t, b.do(http.MethodGet, "/api/auth/nonce?address="+wallet, nil))
	// The wallet's owner key signs; the wallet vouches for it through isValidSignature.
	rec := b.do(http.MethodPost, "/api/auth/verify", map[string]string{"address": wallet, "signature": hexutil.Encode(personalSign(t, owner.Key, ch.Message))})
	wantStatus(t, rec, http.StatusOK)
	if me := decode[map[string]any](t, b.do(http.MethodGet, "/api/me", nil)); me["address"] != wallet {
		t.Fatalf("me %v", me)
	}

	t.Run("the wallet refuses a stranger's signature", func(t *testing.T) {
		stranger, _ := crypto.GenerateKey()
		b := newBrowser(t, s, "192.0.2.121")
		ch := decode[challenge](t, b.do(http.MethodGet, "/api/auth/nonce?address="+wallet, nil))
		rec := b.do(http.MethodPost, "/api/auth/verify", map[string]string{"address": wallet, "signature": hexutil.Encode(personalSign(t, stranger, ch.Message))})
		wantStatus(t, rec, http.StatusUnauthorized)
	})
}
