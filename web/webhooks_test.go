package web

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lib/pq"

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
	t.Parallel()
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatal("node is needed (make test installs it)")
	}
	db := storetest.New(t)
	storetest.Tier(t, db, 1, "Standard", "100000000000000000", true)
	dc, c := startDevChain(t)
	log := slog.New(slog.DiscardHandler)
	j := jobs.New(db, c, chain.LocalSigner(dc.Minter.Key), nil, jobs.Config{ChainID: dc.ChainID(),
		PaymentAddress: dc.Payments, Confirmations: 1, WebhookAllowPrivate: true}, log)
	cfg := handlers.Config{AdminKey: adminKey, PaymentAddress: strings.ToLower(dc.Payments.Hex())}
	s := newChainServer(t, db, c, j, cfg)
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
		strict := newChainServer(t, db, c, nil, cfg) // WEBHOOK_ALLOW_PRIVATE off
		rec := strict.adminDo(t, http.MethodPost, "/api/admin/webhooks", `{"url": "`+r.URL+`", "events": ["*"]}`, adminKey)
		wantStatus(t, rec, http.StatusBadRequest)
		if msg := errorMessage(t, rec); !strings.Contains(msg, "is not a public address") {
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
	go func() { defer close(done); j.DeliverWebhooks(ctx) }()
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

// TestWebhookTargetsRefused attacks the admin API and the operator page's add form with
// addresses in special-purpose ranges, the IPv6 forms that carry an IPv4 address among them,
// where WEBHOOK_ALLOW_PRIVATE is off: each is refused with a sentence, and nothing is stored.
func TestWebhookTargetsRefused(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	s := newServer(t, db, handlers.Config{AdminKey: adminKey, SessionSecret: sessionSecret}) // WEBHOOK_ALLOW_PRIVATE off
	admin := signedInOperator(t, s)
	for _, target := range []string{
		"http://0.1.2.3/hook", "http://198.18.0.1/hook", "http://198.19.255.255/hook", "http://192.0.0.170/hook",
		"http://240.0.0.1/hook", "http://255.255.255.255/hook", "https://192.0.2.1/hook", "https://203.0.113.10/hook",
		"http://[64:ff9b::7f00:1]/hook", "http://[64:ff9b::a9fe:a9fe]/latest/meta-data", "http://[64:ff9b:1::a00:1]/",
		"http://[2002:7f00:1::1]/hook", "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook", "http://[::127.0.0.1]/hook",
		"http://[::ffff:127.0.0.1]/hook", "http://[100::1]/hook", "http://[2001:db8::1]/hook", "http://[5f00::1]/hook",
		"http://[fd00::1]/hook", "http://[fe80::1%25eth0]/hook", "http://localhost:8080/hook",
	} {
		t.Run("admin API "+target, func(t *testing.T) {
			body, _ := json.Marshal(map[string]any{"url": target, "events": []string{"*"}})
			rec := s.adminDo(t, http.MethodPost, "/api/admin/webhooks", string(body), adminKey)
			wantStatus(t, rec, http.StatusBadRequest)
			if msg := errorMessage(t, rec); !strings.HasPrefix(msg, "url: the address's host ") || !strings.HasSuffix(msg, ".") {
				t.Errorf("%q", msg)
			}
		})
		t.Run("operator page "+target, func(t *testing.T) {
			rec := admin.form("/operator/webhooks", url.Values{"url": {target}, "events": {"*"}})
			wantStatus(t, rec, http.StatusUnprocessableEntity)
			if got := text(page(t, rec.Body), "webhook-problem"); !strings.HasPrefix(got, "url: the address's host ") {
				t.Errorf("%q", got)
			}
		})
	}
	var n int
	if err := db.DB().Get(&n, `SELECT count(*) FROM webhook_endpoints`); err != nil || n != 0 {
		t.Fatalf("%d webhooks stored by refused requests (%v)", n, err)
	}
}

// TestWebhooksFromPage manages a webhook with the operator page's forms, as an admin: a refused
// address comes back with its sentence and the form as posted; the secret is shown once, on the
// answer to the post, and never on the page again; rolling, switching on, redelivering and
// deleting each say what they did and are audited. A viewer and an operator get none of it, nor
// does a stranger, a post without the session's token, or a cookie replayed after sign-out.
func TestWebhooksFromPage(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	s := newServer(t, db, handlers.Config{AdminKey: adminKey, SessionSecret: sessionSecret}) // WEBHOOK_ALLOW_PRIVATE off

	// A global address: the documentation ranges are refused as webhook targets.
	const target = "https://93.184.215.14/hook"

	for _, role := range []string{"viewer", "operator"} {
		b := signedInOperator(t, s, role)
		doc := b.operatorPage()
		if count(doc, `[data-testid=add-webhook]`) != 0 {
			t.Fatalf("a %s is offered the webhook form", role)
		}
		rec := b.form("/operator/webhooks", url.Values{"url": {target}, "events": {"*"}})
		wantStatus(t, rec, http.StatusForbidden)
		if got := text(page(t, rec.Body), "error"); !strings.Contains(got, "Your role ("+role+") cannot change the webhooks.") {
			t.Fatalf("%s: %q", role, got)
		}
	}

	admin := signedInOperator(t, s)
	if doc := admin.operatorPage(); count(doc, `[data-testid=add-webhook]`) != 1 || count(doc, `[data-testid=webhooks-none]`) != 1 {
		t.Fatal("the admin misses the webhook form")
	}
	stored := func() (n int) {
		db.DB().Get(&n, `SELECT count(*) FROM webhook_endpoints`)
		return n
	}
	add := url.Values{"url": {target}, "events": {"*"}}

	// Attacks: no session, the admin's session without its token, the admin's cookie replayed
	// after sign-out; an address past 2048 characters.
	wantStatus(t, newBrowser(t, s, "203.0.113.98").form("/operator/webhooks", add), http.StatusUnauthorized)
	wantStatus(t, admin.form("/operator/webhooks", url.Values{"url": {target}, "events": {"*"}, "csrf": {""}}), http.StatusForbidden)
	leaving := signedInOperator(t, s)
	thief := newBrowser(t, s, "203.0.113.97")
	thief.cookies["nl_operator"], thief.csrf = leaving.cookies["nl_operator"], leaving.csrf
	wantRedirect(t, leaving.form("/operator/logout", nil))
	wantStatus(t, thief.form("/operator/webhooks", add), http.StatusUnauthorized)
	long := admin.form("/operator/webhooks", url.Values{"url": {target + "?" + strings.Repeat("a", 2048)}, "events": {"*"}})
	wantStatus(t, long, http.StatusUnprocessableEntity)
	if got := text(page(t, long.Body), "webhook-problem"); got != "url: the address is longer than 2048 characters." {
		t.Fatalf("a long address: %q", got)
	}
	if n := stored(); n != 0 {
		t.Fatalf("%d webhooks stored by refused requests", n)
	}
	for _, c := range []struct {
		form url.Values
		want string
	}{
		{url.Values{"url": {"http://127.0.0.1:8080/in"}, "events": {"payment.minted"}}, "is not a public address"},
		{url.Values{"url": {target}}, "at least one event"},
		{url.Values{"url": {"ftp://203.0.113.10/"}, "events": {"payment.minted"}}, "http or https"},
		{url.Values{"url": {target}, "events": {"payment.minted", "payment.paid"}}, `"payment.paid" is not an event`},
	} {
		rec := admin.form("/operator/webhooks", c.form)
		wantStatus(t, rec, http.StatusUnprocessableEntity)
		doc := page(t, rec.Body)
		if got := text(doc, "webhook-problem"); !strings.Contains(got, c.want) {
			t.Errorf("%v: %q, want it to say %q", c.form, got, c.want)
		}
		if got := doc.Find(`[data-testid=add-webhook] input[name=url]`).AttrOr("value", ""); got != c.form.Get("url") {
			t.Errorf("the form came back with the address %q, not %q", got, c.form.Get("url"))
		}
		if len(c.form["events"]) > 0 && count(doc, `input[name=events][value="payment.minted"][checked]`) != 1 {
			t.Errorf("%v: the form came back without its events", c.form)
		}
	}
	if n := stored(); n != 0 {
		t.Fatalf("%d webhooks stored by refused forms", n)
	}

	// Added: the answer shows the secret, the one the deliveries are signed with.
	rec := admin.form("/operator/webhooks", url.Values{"url": {target}, "events": {"payment.minted", "*"}})
	wantStatus(t, rec, http.StatusOK)
	if cc := rec.Header().Get("Cache-Control"); cc != "private, no-store" {
		t.Fatalf("the page with the secret is cached: %q", cc)
	}
	doc := page(t, rec.Body)
	var hook struct {
		ID     int64          `db:"id"`
		Secret string         `db:"secret"`
		Events pq.StringArray `db:"events"`
	}
	if err := db.DB().Get(&hook, `SELECT id, secret, events FROM webhook_endpoints`); err != nil {
		t.Fatal(err)
	}
	if got := text(doc, "webhook-secret"); got != hook.Secret || !strings.HasPrefix(got, "whsec_") || !reflect.DeepEqual([]string(hook.Events), []string{"*"}) {
		t.Fatalf("shown %q; stored %+v", got, hook)
	}
	id := strconv.FormatInt(hook.ID, 10)
	if got := text(doc, "outcome"); got != "Added webhook #"+id+": https://93.184.215.14/… gets every event." {
		t.Fatalf("outcome %q", got)
	}
	again := admin.do(http.MethodGet, "/operator", nil)
	if strings.Contains(again.Body.String(), hook.Secret) {
		t.Fatal("the page shows the secret again")
	}
	if count(page(t, again.Body), `[data-testid=webhook]`) != 1 {
		t.Fatal("the page does not list the webhook")
	}

	// Rolled: the new secret, once; the old one still signs.
	rec = admin.form("/operator/webhooks/"+id+"/roll-secret", nil)
	wantStatus(t, rec, http.StatusOK)
	doc = page(t, rec.Body)
	var rolled struct {
		Secret   string `db:"secret"`
		Previous string `db:"previous_secret"`
	}
	if err := db.DB().Get(&rolled, `SELECT secret, previous_secret FROM webhook_endpoints`); err != nil {
		t.Fatal(err)
	}
	if got := text(doc, "webhook-secret"); got != rolled.Secret || got == hook.Secret || rolled.Previous != hook.Secret ||
		!strings.Contains(text(doc, "webhook-secret-card"), "The old secret signs every delivery too until") {
		t.Fatalf("rolled: shown %q, stored %+v", got, rolled)
	}

	// Given up on, then switched on again; its delivery queued again.
	p := storetest.MintingPayment(t, db, "webhook-page", "0x"+strings.Repeat("cd", 20))
	if err := db.RejectPayment(t.Context(), p, store.PaymentPending, "wrong_amount", struct{}{}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := db.DB().Exec(`UPDATE webhook_endpoints SET disabled_at = now(), disabled_code = 'other', disabled_args = '{"text": "every try failed for 72h"}'`); err != nil {
		t.Fatal(err)
	}
	doc = admin.operatorPage()
	delivery := doc.Find(`[data-testid=deliveries] form:has([data-testid=redeliver])`).AttrOr("action", "")
	if count(doc, `[data-testid=webhook-off]`) != 1 || count(doc, `[data-testid=enable-webhook]`) != 1 || delivery == "" {
		t.Fatalf("the switched-off webhook: %s", htmlOf(doc.Find(`[data-testid=webhooks]`)))
	}
	wantRedirect(t, admin.form("/operator/webhooks/"+id+"/enable", nil))
	if got := text(admin.operatorPage(), "outcome"); got != "Switched webhook #"+id+" on: the delivery it gave up on is tried first." {
		t.Fatalf("outcome %q", got)
	}
	wantRedirect(t, admin.form(delivery, nil))
	doc = admin.operatorPage()
	if got := text(doc, "outcome"); !strings.HasPrefix(got, "Queued payment.rejected (evt_") || count(doc, `[data-testid=webhook-on]`) != 1 {
		t.Fatalf("outcome %q", got)
	}
	var deliveries int
	db.DB().Get(&deliveries, `SELECT count(*) FROM webhook_deliveries`)
	if deliveries != 2 {
		t.Fatalf("%d deliveries after the redelivery, want 2", deliveries)
	}
	wantStatus(t, admin.form("/operator/webhooks/"+id+"/deliveries/999999/redeliver", nil), http.StatusNotFound)

	wantRedirect(t, admin.form("/operator/webhooks/"+id+"/delete", nil))
	if n := stored(); n != 0 {
		t.Fatal("not deleted")
	}
	wantStatus(t, admin.form("/operator/webhooks/"+id+"/delete", nil), http.StatusNotFound)
	wantStatus(t, admin.form("/operator/webhooks/"+id+"/roll-secret", nil), http.StatusNotFound)

	var actions []string
	for _, r := range s.audit(t) {
		if strings.HasPrefix(r.Action, "webhook.") {
			actions = append([]string{r.Action}, actions...)
		}
	}
	want := []string{"webhook.add", "webhook.roll-secret", "webhook.enable", "webhook.redeliver", "webhook.delete"}
	if !reflect.DeepEqual(actions, want) {
		t.Fatalf("audited %v, want %v", actions, want)
	}
}

// TestWebhookURLsMasked adds an endpoint whose address carries its secret in the path and the
// query, as Slack's and Discord's do: once added, the address is shown as its scheme and host
// only, in the admin API's list and item, on the operator page, in the audit and its export;
// the whole address is what the deliveries go to.
func TestWebhookURLsMasked(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	s := newServer(t, db, handlers.Config{AdminKey: adminKey, SessionSecret: sessionSecret})
	const token, query = "XyZzYtOkEn0123456789", "sig=QuErYsEcReT"
	address := "https://93.184.215.14/services/T0AAA/B0BBB/" + token + "?" + query
	rec := s.adminDo(t, http.MethodPost, "/api/admin/webhooks", `{"url": "`+address+`", "events": ["*"]}`, adminKey)
	wantStatus(t, rec, http.StatusCreated)
	var stored string
	if err := db.DB().Get(&stored, `SELECT url FROM webhook_endpoints`); err != nil || stored != address {
		t.Fatalf("stored %q (%v), want the whole address for delivery", stored, err)
	}
	id := "/" + jsonInt(decode[struct {
		ID int64 `json:"id"`
	}](t, rec).ID)
	db.DB().Exec(`UPDATE webhook_endpoints SET disabled_at = now(), disabled_code = 'other', disabled_args = '{}'`) // so that switching it on answers the item
	shown := map[string]string{"the answer to the addition": rec.Body.String()}
	shown["the list"] = s.adminDo(t, http.MethodGet, "/api/admin/webhooks", "", adminKey).Body.String()
	item := s.adminDo(t, http.MethodPost, "/api/admin/webhooks"+id+"/enable", "", adminKey)
	wantStatus(t, item, http.StatusOK)
	shown["the item"] = item.Body.String()
	shown["the operator page"] = signedInOperator(t, s).do(http.MethodGet, "/operator", nil).Body.String()
	shown["the audit"] = s.adminDo(t, http.MethodGet, "/api/admin/audit", "", adminKey).Body.String()
	export := s.adminDo(t, http.MethodGet, "/api/admin/exports/audit.csv", "", adminKey)
	wantStatus(t, export, http.StatusOK)
	shown["the audit export"] = export.Body.String()
	wantStatus(t, s.adminDo(t, http.MethodDelete, "/api/admin/webhooks"+id, "", adminKey), http.StatusNoContent)
	shown["the audit, after the deletion"] = s.adminDo(t, http.MethodGet, "/api/admin/audit", "", adminKey).Body.String()
	for where, body := range shown {
		if strings.Contains(body, token) || strings.Contains(body, query) || strings.Contains(body, "T0AAA") {
			t.Errorf("%s shows the address's secret: %s", where, body)
		}
		if !strings.Contains(body, "https://93.184.215.14/…") {
			t.Errorf("%s does not show the address's scheme and host: %s", where, body)
		}
	}
}
