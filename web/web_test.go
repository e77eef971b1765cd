package web

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
	"github.com/labstack/echo/v4"

	"nodeledger/chain"
	"nodeledger/handlers"
	"nodeledger/jobs"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

// testLog keeps what the server logs, so tests can check what goes to the log and not to clients.
type testLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *testLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *testLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

type testServer struct {
	e   *echo.Echo
	h   *handlers.Handlers
	db  *store.Store // the ledger it serves
	log *testLog
}

// newServer serves the routes over db with cfg, and a chain that cannot be
// reached: every chain reading fails, as when the RPC is down.
func newServer(t testing.TB, db *store.Store, cfg handlers.Config) *testServer {
	t.Helper()
	return newServerWith(t, db, unreachableChain(t), nil, cfg, Options{})
}

// newChainServer serves the routes over db and chain c, with the passes j
// (nil: passes over c that hold no key).
func newChainServer(t testing.TB, db *store.Store, c *chain.Client, j *jobs.Jobs, cfg handlers.Config) *testServer {
	t.Helper()
	return newServerWith(t, db, c, j, cfg, Options{})
}

// newServerWith serves the routes over st, c and j (nil: passes over c that hold no key) with
// cfg and opts (its Log is the test's).
func newServerWith(t testing.TB, st *store.Store, c *chain.Client, j *jobs.Jobs, cfg handlers.Config, opts Options) *testServer {
	t.Helper()
	tl := &testLog{}
	opts.Log = slog.New(slog.NewJSONHandler(tl, nil))
	if j == nil {
		j = jobs.New(st, c, nil, nil, jobs.Config{}, opts.Log)
	}
	h := handlers.New(st, c, j, cfg, opts.Log)
	e := New(h, opts)
	audit := &weiAudit{}
	e.Use(audit.middleware) // Echo runs e.Use middleware on every route, whenever it was added
	t.Cleanup(func() { audit.check(t) })
	return &testServer{e: e, h: h, db: st, log: tl}
}

// followLedger runs the server's FollowLedger, as the service does (main.go), until the test
// ends.
func (s *testServer) followLedger(t testing.TB) {
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); s.h.FollowLedger(ctx) }()
	t.Cleanup(func() { stop(); <-done })
}

// unreachableChain is a client of an RPC address where nothing listens.
func unreachableChain(t testing.TB) *chain.Client {
	t.Helper()
	c, err := chain.Dial(context.Background(), "http://127.0.0.1:1", chain.Config{Factory: common.HexToAddress("0xfac7")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// do serves one request from the given client address and checks the answer against the OpenAPI
// document: its status, headers and body, or for an undocumented route the error envelope.
func (s *testServer) do(t *testing.T, method, target, remoteAddr string, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	if remoteAddr != "" {
		req.RemoteAddr = remoteAddr
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	s.e.ServeHTTP(rec, req)
	checkAgainstOpenAPI(t, req, rec)
	return rec
}

func (s *testServer) get(t *testing.T, target string) *httptest.ResponseRecorder {
	t.Helper()
	return s.do(t, http.MethodGet, target, "")
}

var (
	apiRouterOnce sync.Once
	apiRouter     routers.Router
	apiRouterErr  error
)

func openAPIRouter(t *testing.T) routers.Router {
	t.Helper()
	apiRouterOnce.Do(func() {
		loader := openapi3.NewLoader()
		var doc *openapi3.T
		doc, apiRouterErr = loader.LoadFromData(openAPI)
		if apiRouterErr != nil {
			return
		}
		if apiRouterErr = doc.Validate(context.Background()); apiRouterErr != nil {
			return
		}
		apiRouter, apiRouterErr = legacy.NewRouter(doc)
	})
	if apiRouterErr != nil {
		t.Fatalf("openapi.json: %v", apiRouterErr)
	}
	return apiRouter
}

func checkAgainstOpenAPI(t *testing.T, req *http.Request, rec *httptest.ResponseRecorder) {
	t.Helper()
	if wantsPage(req) {
		return // pages are HTML, not the API: their tests check them
	}
	if rec.Code >= 400 {
		checkEnvelope(t, rec)
	}
	route, params, err := openAPIRouter(t).FindRoute(req)
	if err != nil {
		// The operator surface is deliberately not documented: only its errors are checked.
		if rec.Code < 400 && !strings.HasPrefix(req.URL.Path, "/api/admin/") {
			t.Fatalf("%s %s answered %d but is not in the OpenAPI document", req.Method, req.URL, rec.Code)
		}
		return
	}
	opts := &openapi3filter.Options{IncludeResponseStatus: true}
	err = openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request: req, PathParams: params, Route: route, Options: opts,
		},
		Status:  rec.Code,
		Header:  rec.Header(),
		Body:    io.NopCloser(bytes.NewReader(rec.Body.Bytes())),
		Options: opts,
	})
	if err != nil {
		t.Fatalf("%s %s: response does not match the OpenAPI document: %v\nbody: %s", req.Method, req.URL, err, rec.Body)
	}
}

// checkEnvelope asserts the body is exactly {"error": "<a sentence>"} with a JSON content type.
func checkEnvelope(t *testing.T, rec *httptest.ResponseRecorder) {
	t.Helper()
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("error with content type %q, want application/json", ct)
	}
	var body map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatalf("error body is not JSON: %q", rec.Body)
	}
	msg, ok := body["error"].(string)
	if len(body) != 1 || !ok || msg == "" {
		t.Fatalf(`error body %s, want exactly {"error": "<sentence>"}`, rec.Body)
	}
}

// decode unmarshals the body into a value of type T.
func decode[T any](t *testing.T, rec *httptest.ResponseRecorder) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		t.Fatalf("body %q: %v", rec.Body, err)
	}
	return v
}

func wantStatus(t *testing.T, rec *httptest.ResponseRecorder, status int) {
	t.Helper()
	if rec.Code != status {
		t.Fatalf("status %d, want %d; body %s", rec.Code, status, rec.Body)
	}
}

func errorMessage(t *testing.T, rec *httptest.ResponseRecorder) string {
	t.Helper()
	return decode[map[string]string](t, rec)["error"]
}
