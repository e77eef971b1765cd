package web

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"nodeledger/chain"
	"nodeledger/handlers"
	"nodeledger/jobs"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// hookReceiver is a real HTTP server that keeps each request's raw body and signature.
type hookReceiver struct {
	*httptest.Server
	mu  sync.Mutex
	got []hookRequest
}

type hookRequest struct {
	Signature string
	Body      []byte
	Event     struct {
		ID   string                     `json:"id"`
		Type string                     `json:"type"`
		Data map[string]json.RawMessage `json:"data"`
	}
}

func newHookReceiver(t *testing.T) *hookReceiver {
	r := &hookReceiver{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var h hookRequest
		h.Body, _ = io.ReadAll(req.Body)
		h.Signature = req.Header.Get("Nodeledger-Signature")
		if err := json.Unmarshal(h.Body, &h.Event); err != nil {
			t.Errorf("a delivery that is not JSON: %s", h.Body)
		}
		r.mu.Lock()
		r.got = append(r.got, h)
		r.mu.Unlock()
		io.WriteString(w, "ok")
	}))
	t.Cleanup(r.Close)
	return r
}

// wait waits up to 20 s for the nth request (1-based).
func (r *hookReceiver) wait(t *testing.T, n int) hookRequest {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		r.mu.Lock()
		got := r.got
		r.mu.Unlock()
		if len(got) >= n {
			return got[n-1]
		}
	}
	t.Fatalf("the receiver did not get request %d", n)
	return hookRequest{}
}

// verifyWithDocs runs docs/webhooks.md's JavaScript verify on a delivery, in Node.js.
func verifyWithDocs(t *testing.T, header string, body []byte, secret string) bool {
	t.Helper()
	doc, err := os.ReadFile("../docs/webhooks.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "```js\n")
	code, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("docs/webhooks.md has no JavaScript block")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "verify.mjs"), []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "body"), body, 0o644); err != nil {
		t.Fatal(err)
	}
	run := `import { verify } from './verify.mjs'; import { readFileSync } from 'node:fs';
		console.log(verify(process.env.HEADER, readFileSync('./body'), process.env.SECRET));`
	cmd := exec.Command("node", "--input-type=module", "-e", run)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "HEADER="+header, "SECRET="+secret)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v: %s", err, out)
	}
	return strings.TrimSpace(string(out)) == "true"
}

// TestWebhooksAdmin adds an endpoint through the admin API, mints a payment and checks what
// reaches a real receiver: payment.minted with the API's own payment and node, signed so that
// the docs' JavaScript verifies it; then the delivery log, a redelivery under a rolled secret,
// the audit, and the deletion. A private address is refused where WEBHOOK_ALLOW_PRIVATE is off.
func TestWebhooksAdmin(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatal("node is needed (make test installs it)")
	}
	storetest.Reset(t, db)
	storetest.Tier(t, db, 1, "Standard", "100000000000000000", true)
	dc, c := startDevChain(t)
	log := slog.New(slog.DiscardHandler)
	j := jobs.New(db, c, chain.LocalSigner(dc.Minter.Key), nil, jobs.Config{ChainID: dc.ChainID(),
		PaymentAddress: dc.Payments, Confirmations: 1, WebhookAllowPrivate: true}, log)
	cfg := handlers.Config{AdminKey: adminKey, PaymentAddress: strings.ToLower(dc.Payments.Hex())}
	s := newChainServer(t, c, j, cfg)
	r := newHookReceiver(t)
	admin := func(method, target, body string) *httptest.ResponseRecorder {
		return s.adminDo(t, method, "/api/admin/webhooks"+target, body, adminKey)
	}

	t.Run("bad endpoints are refused, each with its reason", func(t *testing.T) {
		wantStatus(t, s.adminDo(t, http.MethodGet, "/api/admin/webhooks", "", "a guess"), http.StatusUnauthorized)
		for body, want := range map[string]string{
			`{"url": "` + r.URL + `", "events": []}`:               "at least one event",
			`{"url": "` + r.URL + `", "events": ["payment.paid"]}`: `"payment.paid" is not an event`,
			`{"url": "ftp://example.com/", "events": ["*"]}`:       "http or https",
			`{"url": "` + r.URL + `", "events": ["*"], "x": 1}`:    "only the documented fields",
		} {
			rec := admin(http.MethodPost, "", body)
			wantStatus(t, rec, http.StatusBadRequest)
			if msg := errorMessage(t, rec); !strings.Contains(msg, want) {
				t.Errorf("%s: %q, want it to say %q", body, msg, want)
			}
		}
		strict := newChainServer(t, c, nil, cfg) // WEBHOOK_ALLOW_PRIVATE off
		rec := strict.adminDo(t, http.MethodPost, "/api/admin/webhooks", `{"url": "`+r.URL+`", "events": ["*"]}`, adminKey)
		wantStatus(t, rec, http.StatusBadRequest)
		if msg := errorMessage(t, rec); !strings.Contains(msg, "private, loopback or link-local") {
			t.Fatalf("a loopback receiver: %q", msg)
		}
	})

	rec := admin(http.MethodPost, "", `{"url": "`+r.URL+`/hook", "events": ["payment.minted", "payment.minted"]}`)
	wantStatus(t, rec, http.StatusCreated)
	hook := decode[struct {
		ID     int64    `json:"id"`
		URL    string   `json:"url"`
		Events []string `json:"events"`
		Secret string   `json:"secret"`
	}](t, rec)
	if !strings.HasPrefix(hook.Secret, "whsec_") || len(hook.Secret) < 40 || !reflect.DeepEqual(hook.Events, []string{"payment.minted"}) {
		t.Fatalf("created %+v", hook)
	}
	if list := admin(http.MethodGet, "", ""); strings.Contains(list.Body.String(), hook.Secret) || !strings.Contains(list.Body.String(), `"enabled":true`) {
		t.Fatalf("the list: %s", list.Body)
	}

	// A payment, minted; the deliveries run as an instance runs them.
	buyer := dc.Buyers[0]
	hash := strings.ToLower(transact(t, dc, c, buyer.Key, &dc.Payments, nil, big.NewInt(100_000_000_000_000_000)).TxHash.Hex())
	for i := 0; ; i++ {
		dc.Commit()
		if _, err := j.Payments(t.Context()); err != nil {
			t.Fatal(err)
		}
		if p, err := db.PaymentByTx(t.Context(), hash); err == nil && p.Status == store.PaymentMinted {
			break
		} else if i == 10 {
			t.Fatalf("not minted: %+v, %v", p, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); j.DeliverWebhooks(ctx, handlers.New(db, c, j, cfg, log).EventBody) }()
	defer func() { cancel(); <-done }()

	got := r.wait(t, 1)
	if got.Event.Type != "payment.minted" || !strings.HasPrefix(got.Event.ID, "evt_") {
		t.Fatalf("delivered %s", got.Body)
	}
	if !verifyWithDocs(t, got.Signature, got.Body, hook.Secret) {
		t.Fatalf("the docs' verify refuses %q", got.Signature)
	}
	if verifyWithDocs(t, got.Signature, append(got.Body, ' '), hook.Secret) || verifyWithDocs(t, got.Signature, got.Body, "whsec_wrong") {
		t.Fatal("the docs' verify accepts a changed body or another secret")
	}
	// The data are the API's own answers.
	sameJSON(t, "payment", got.Event.Data["payment"], s.get(t, "/api/payments/"+hash).Body.Bytes())
	var nodes []json.RawMessage
	json.Unmarshal(s.get(t, "/api/nodes/"+strings.ToLower(buyer.Address.Hex())).Body.Bytes(), &nodes)
	if len(nodes) != 1 {
		t.Fatalf("the buyer's nodes: %d", len(nodes))
	}
	sameJSON(t, "node", got.Event.Data["node"], nodes[0])

	// The log says how it went.
	var log1 []struct {
		ID      int64  `json:"id"`
		EventID string `json:"eventId"`
		Status  string `json:"status"`
		Tries   []struct {
			StatusCode *int   `json:"statusCode"`
			Response   string `json:"response"`
		} `json:"tries"`
	}
	id := "/" + jsonInt(hook.ID)
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		log1 = nil
		json.Unmarshal(admin(http.MethodGet, id+"/deliveries", "").Body.Bytes(), &log1)
		if len(log1) == 1 && log1[0].Status == "delivered" {
			break
		}
	}
	if len(log1) != 1 || log1[0].Status != "delivered" || log1[0].EventID != got.Event.ID || len(log1[0].Tries) != 1 ||
		log1[0].Tries[0].StatusCode == nil || *log1[0].Tries[0].StatusCode != 200 || log1[0].Tries[0].Response != "ok" {
		t.Fatalf("the log: %+v", log1)
	}

	// Rolled, then redelivered: the same event, signed by both secrets.
	rec = admin(http.MethodPost, id+"/roll-secret", "")
	wantStatus(t, rec, http.StatusOK)
	rolled := decode[struct {
		Secret string `json:"secret"`
	}](t, rec)
	wantStatus(t, admin(http.MethodPost, id+"/deliveries/"+jsonInt(log1[0].ID)+"/redeliver", ""), http.StatusAccepted)
	again := r.wait(t, 2)
	if again.Event.ID != got.Event.ID || strings.Count(again.Signature, "v1=") != 2 {
		t.Fatalf("redelivered %s with %q", again.Event.ID, again.Signature)
	}
	for _, secret := range []string{hook.Secret, rolled.Secret} {
		if !verifyWithDocs(t, again.Signature, again.Body, secret) {
			t.Fatalf("the redelivery does not verify with %s", secret)
		}
	}
	wantStatus(t, admin(http.MethodPost, id+"/deliveries/999999/redeliver", ""), http.StatusNotFound)

	audit := s.adminDo(t, http.MethodGet, "/api/admin/audit", "", adminKey).Body.String()
	for _, action := range []string{"webhook.add", "webhook.roll-secret", "webhook.redeliver"} {
		if !strings.Contains(audit, action) {
			t.Errorf("the audit has no %s", action)
		}
	}
	if strings.Contains(audit, hook.Secret) || strings.Contains(audit, rolled.Secret) {
		t.Fatal("the audit holds a secret")
	}

	wantStatus(t, admin(http.MethodDelete, id, ""), http.StatusNoContent)
	wantStatus(t, admin(http.MethodDelete, id, ""), http.StatusNotFound)
	wantStatus(t, admin(http.MethodGet, id+"/deliveries", ""), http.StatusNotFound)
	wantStatus(t, admin(http.MethodDelete, "/x", ""), http.StatusNotFound)
	if list := admin(http.MethodGet, "", ""); strings.TrimSpace(list.Body.String()) != "[]" {
		t.Fatalf("after the deletion: %s", list.Body)
	}
}

// sameJSON fails unless a and b are the same JSON value.
func sameJSON(t *testing.T, what string, a, b []byte) {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if !reflect.DeepEqual(x, y) {
		t.Fatalf("%s in the event:\n%s\nfrom the API:\n%s", what, a, b)
	}
}

func jsonInt(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
