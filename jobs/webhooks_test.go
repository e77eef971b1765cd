package jobs

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lib/pq"

	"nodeledger/chain/devchain"
	"nodeledger/jobs/sale"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// receiver is a real HTTP server that records the webhook deliveries it gets. fail answers the
// first fail requests with a 500.
type receiver struct {
	*httptest.Server
	mu   sync.Mutex
	got  []delivered
	fail int
}

type delivered struct {
	ID, Type, Signature string
	Body                []byte
	Data                store.EventData
}

func newReceiver(t *testing.T, fail int) *receiver {
	r := &receiver{fail: fail}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		var ev struct {
			ID   string          `json:"id"`
			Type string          `json:"type"`
			Data store.EventData `json:"data"`
		}
		if err := json.Unmarshal(body, &ev); err != nil {
			t.Errorf("a delivery that is not JSON: %s", body)
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		r.got = append(r.got, delivered{ev.ID, ev.Type, req.Header.Get(SignatureHeader), body, ev.Data})
		if r.fail > 0 {
			r.fail--
			http.Error(w, "not now", http.StatusInternalServerError)
			return
		}
		io.WriteString(w, "ok")
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) deliveries() []delivered {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.got)
}

// waitFor waits up to 20 s for the receiver to have got n requests.
func (r *receiver) waitFor(t *testing.T, n int) []delivered {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		got := r.deliveries()
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("the receiver got %d requests, want %d", len(got), n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// addWebhook adds an endpoint at url for events; its secret is "secret-<url>".
func addWebhook(t *testing.T, db *store.Store, url string, events ...store.EventType) store.Webhook {
	t.Helper()
	var w store.Webhook
	err := db.Audited(t.Context(), store.AuditEntry{Actor: store.Actor{Who: "test"}, Action: store.ActionWebhookAdd, Outcome: store.AuditOutcome{Code: store.OutcomeWebhookAdded}},
		func(tx store.Tx, _ *store.AuditEntry) error {
			var err error
			w, err = tx.AddWebhook(t.Context(), store.NewWebhook{URL: url, Events: events, Secret: "secret-" + url, CreatedBy: "test"})
			return err
		})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// recordSeen records n payments as the payments scan does, in blocks 1 to n, their hashes
// numbered from first: each is a payment.seen for the endpoints that want it.
func recordSeen(t *testing.T, db *store.Store, n, first int) {
	t.Helper()
	var scan store.Scan
	for i := range n {
		hash := fmt.Sprintf("0x%064x", first+i)
		scan.Payments = append(scan.Payments, store.NewPayment{TxHash: hash, PaymentRef: hash, From: "0x" + strings.Repeat("b", 40),
			ValueWei: ether, BlockNumber: int64(i + 1), BlockHash: fmt.Sprintf("0x%064x", i+1), BlockTime: time.Now()})
	}
	scan.Blocks = []store.ScannedBlock{{Number: int64(n), Hash: fmt.Sprintf("0x%064x", n)}}
	if err := db.RecordScan(t.Context(), "payments", scan); err != nil {
		t.Fatal(err)
	}
}

// deliverWebhooks runs j's delivery until the test ends.
func deliverWebhooks(t *testing.T, j *Jobs) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); j.DeliverWebhooks(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
}

// verify checks a signature header as a receiver would, written apart from Sign: t within five
// minutes, and one v1 the HMAC-SHA256 of "<t>.<body>" with secret.
func verify(header string, body []byte, secret string) bool {
	var ts string
	var sigs []string
	for part := range strings.SplitSeq(header, ",") {
		k, v, _ := strings.Cut(part, "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			sigs = append(sigs, v)
		}
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || time.Since(time.Unix(sec, 0)).Abs() > 5*time.Minute {
		return false
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ts + "." + string(body)))
	want := mac.Sum(nil)
	for _, s := range sigs {
		if got, err := hex.DecodeString(s); err == nil && hmac.Equal(got, want) {
			return true
		}
	}
	return false
}

// A payment seen and rejected sends payment.seen then payment.rejected, signed, each with the
// payment as it was then, its reason written as a sentence at delivery; an endpoint that does not
// want an event does not get it.
func TestWebhooksReportThePayment(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) {
		c.WebhookAllowPrivate = true
	})
	r, other := newReceiver(t, 0), newReceiver(t, 0)
	w := addWebhook(t, e.db, r.URL, store.EventAll)
	addWebhook(t, e.db, other.URL, store.EventRoundConfirmed)
	hash := e.pay(0, e.dc.Payments, priceOff) // off sale: rejected
	if sum := mustPass(t, e.j); sum.Rejected != 1 {
		t.Fatalf("summary %+v", sum)
	}
	deliverWebhooks(t, e.j)
	got := r.waitFor(t, 2)
	if got[0].Type != "payment.seen" || got[1].Type != "payment.rejected" || got[0].ID == got[1].ID {
		t.Fatalf("deliveries %+v", got)
	}
	for _, d := range got {
		if !verify(d.Signature, d.Body, "secret-"+w.URL) {
			t.Fatalf("%s: signature %q does not verify", d.Type, d.Signature)
		}
		if verify(d.Signature, d.Body, "another secret") {
			t.Fatal("a signature verifies with any secret")
		}
		if p := d.Data.Payment; p == nil || p.TxHash != strings.ToLower(hash.Hex()) {
			t.Fatalf("%s: data %+v", d.Type, d.Data)
		}
	}
	seen, rejected := got[0].Data.Payment, got[1].Data.Payment
	ledger, err := e.db.PaymentByTx(t.Context(), strings.ToLower(hash.Hex()))
	if err != nil {
		t.Fatal(err)
	}
	if seen.Status != store.BuyerMinting || seen.Reason != nil || seen.ReasonCode != nil ||
		rejected.Status != store.BuyerRejected || rejected.ReasonCode == nil || sale.Sentence(ledger.Reason) == nil ||
		rejected.Reason == nil || *rejected.Reason != *sale.Sentence(ledger.Reason) {
		t.Fatalf("the payment as each event saw it: %+v, then %+v", seen, rejected)
	}
	if want := e.j.Confirmations() + 1; seen.ConfirmationsNeeded != want || rejected.ConfirmationsNeeded != want {
		t.Fatalf("confirmationsNeeded %d and %d, want %d", seen.ConfirmationsNeeded, rejected.ConfirmationsNeeded, want)
	}
	var body struct {
		Version int `json:"version"`
	}
	if err := json.Unmarshal(got[1].Body, &body); err != nil || body.Version != store.EventVersion {
		t.Fatalf("the body's version: %d (%v)", body.Version, err)
	}
	time.Sleep(2 * webhookPoll)
	if n := len(other.deliveries()); n != 0 {
		t.Fatalf("an endpoint for round.confirmed got %d payment events", n)
	}
}

// An endpoint that fails gets the same event again, the same id, after 10 s and then 20 s; the
// events behind it wait, so it sees them in order.
func TestWebhookRetriesInOrder(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) { c.WebhookAllowPrivate = true })
	r := newReceiver(t, 2)
	addWebhook(t, e.db, r.URL, store.EventPaymentSeen)
	e.pay(0, e.dc.Payments, priceOff)
	e.pay(1, e.dc.Payments, priceOff)
	mustPass(t, e.j)
	deliverWebhooks(t, e.j)

	wantWait := []time.Duration{10 * time.Second, 20 * time.Second}
	for try := range 2 {
		r.waitFor(t, try+1)
		var wait float64 // seconds
		var waits int
		deadline := time.Now().Add(time.Minute)
		for waits == 0 && time.Now().Before(deadline) { // the try is recorded just after its answer
			e.db.DB().QueryRow(`SELECT count(*), coalesce(max(extract(epoch FROM d.next_at - a.at)), 0) FROM webhook_deliveries d
				JOIN webhook_attempts a ON a.delivery_id = d.id AND a.id = (SELECT max(id) FROM webhook_attempts)
				WHERE d.attempts = $1 AND d.status = 'pending'`, try+1).Scan(&waits, &wait)
			time.Sleep(10 * time.Millisecond)
		}
		if got := time.Duration(wait * float64(time.Second)); waits != 1 || (got-wantWait[try]).Abs() > time.Second {
			t.Fatalf("after failure %d: next try in %s, want %s", try+1, got, wantWait[try])
		}
		if n := len(r.deliveries()); n != try+1 {
			t.Fatalf("%d requests while the first event waits for its retry", n)
		}
		mustExec(t, e.db, `UPDATE webhook_deliveries SET next_at = now() WHERE status = 'pending'`) // the wait, skipped
	}
	got := r.waitFor(t, 4)
	if got[0].ID != got[1].ID || got[1].ID != got[2].ID || got[3].ID == got[0].ID {
		t.Fatalf("ids %s %s %s %s: want the first three the same event, then the next", got[0].ID, got[1].ID, got[2].ID, got[3].ID)
	}
	if a, b := got[0].Data.Payment.BlockNumber, got[3].Data.Payment.BlockNumber; a > b {
		t.Fatalf("payment of block %d delivered after the one of block %d", b, a)
	}
}

// Two instances deliver from one database: every event reaches the endpoint once, in order.
func TestTwoInstancesDeliverOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) { c.WebhookAllowPrivate = true })
	r := newReceiver(t, 0)
	addWebhook(t, e.db, r.URL, store.EventPaymentSeen)
	// Events queued straight in the ledger: 200 payments seen.
	recordSeen(t, e.db, 200, 1000)
	deliverWebhooks(t, e.j)
	deliverWebhooks(t, e.restart())
	r.waitFor(t, 200)
	time.Sleep(3 * webhookPoll) // a late duplicate would come now
	got := r.deliveries()
	seen := map[string]bool{}
	for i, d := range got {
		if seen[d.ID] {
			t.Fatalf("event %s delivered twice", d.ID)
		}
		seen[d.ID] = true
		if i > 0 && d.Data.Payment.BlockNumber < got[i-1].Data.Payment.BlockNumber {
			t.Fatalf("delivery %d is of block %d, after block %d", i, d.Data.Payment.BlockNumber, got[i-1].Data.Payment.BlockNumber)
		}
	}
	if len(got) != 200 {
		t.Fatalf("%d deliveries of 200 events", len(got))
	}
}

// TestWebhookAddresses attacks the address rule with every special-purpose block, the IPv6
// forms that carry an IPv4 address among them, as an address alone, as the dialer is shown it,
// and as a URL an admin adds; global unicast addresses, a block's neighbours among them, pass
// all three.
func TestWebhookAddresses(t *testing.T) {
	t.Parallel()
	j := New(storetest.New(t), nil, nil, nil, Config{}, slog.New(slog.DiscardHandler)) // WEBHOOK_ALLOW_PRIVATE off
	refused := []string{
		"0.0.0.0", "0.1.2.3", "10.1.2.3", "100.64.0.1", "100.127.255.255", "127.0.0.1", "127.255.255.254",
		"169.254.169.254", "172.16.0.1", "172.31.255.255", "192.0.0.1", "192.0.0.170", "192.0.2.1",
		"192.88.99.1", "192.168.1.1", "198.18.0.1", "198.19.255.255", "198.51.100.1", "203.0.113.10",
		"224.0.0.1", "239.255.255.250", "240.0.0.1", "255.255.255.254", "255.255.255.255",
		"::", "::1", "::ffff:127.0.0.1", "::ffff:169.254.169.254", "::127.0.0.1", "::8.8.8.8",
		"64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe", "64:ff9b::808:808", "64:ff9b:1::a00:1", "100::1",
		"2001::1", "2001:0:4136:e378:8000:63bf:80ff:fffe", "2001:2::1", "2001:1ff::1", "2001:db8::1",
		"2002:7f00:1::1", "2002:a9fe:a9fe::1", "2002:808:808::1", "3fff::1", "5f00::1", "fc00::1",
		"fd12:3456::1", "fe80::1", "fe80::1%eth0", "2002:7f00:1::1%eth0", "fec0::1", "ff02::1", "4000::1",
	}
	for _, a := range refused {
		t.Run(a, func(t *testing.T) {
			ip := netip.MustParseAddr(a)
			var target *TargetError
			if err := publicAddress(ip); !errors.As(err, &target) || !strings.Contains(target.Reason, "is not a public address") {
				t.Errorf("the rule: %v", err)
			}
			if err := refuseAtDial("tcp", netip.AddrPortFrom(ip, 443).String(), nil); !errors.As(err, &target) {
				t.Errorf("the dialer: %v", err)
			}
			if err := j.CheckWebhookURL(t.Context(), "https://"+hostOf(ip)+"/hook"); !errors.As(err, &target) {
				t.Errorf("the URL: %v", err)
			}
		})
	}
	public := []string{
		"8.8.8.8", "1.1.1.1", "93.184.215.14", "9.255.255.255", "11.0.0.0", "100.63.255.255", "100.128.0.0",
		"172.15.255.255", "172.32.0.0", "192.0.1.255", "192.0.3.0", "192.167.255.255", "192.169.0.0",
		"198.17.255.255", "198.20.0.0", "223.255.255.255", "::ffff:8.8.8.8",
		"2606:4700::1111", "2001:4860:4860::8888", "2001:200::1", "2a00:1450:4001::200e", "2003::1",
	}
	for _, a := range public {
		t.Run(a, func(t *testing.T) {
			ip := netip.MustParseAddr(a)
			if err := publicAddress(ip); err != nil {
				t.Errorf("the rule: %v", err)
			}
			if err := refuseAtDial("tcp", netip.AddrPortFrom(ip, 443).String(), nil); err != nil {
				t.Errorf("the dialer: %v", err)
			}
			if err := j.CheckWebhookURL(t.Context(), "https://"+hostOf(ip)+"/hook"); err != nil {
				t.Errorf("the URL: %v", err)
			}
		})
	}
}

// hostOf is ip as a URL's host, bracketed and its zone escaped when IPv6.
func hostOf(ip netip.Addr) string {
	if ip.Is4() {
		return ip.String()
	}
	return "[" + strings.Replace(ip.String(), "%", "%25", 1) + "]"
}

// An address that resolves to a private one is refused when the endpoint is added, and, should
// it resolve there later, when a delivery connects; and after three days of failures the
// endpoint is switched off, saying why.
func TestWebhookTargets(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, u := range []string{"http://127.0.0.1:8080/hook", "http://localhost/hook", "http://10.1.2.3/hook",
		"http://169.254.169.254/latest", "http://[::1]/hook", "http://100.64.0.1/", "ftp://example.com/", "http:///nohost",
		"https://user:pw@example.com/"} {
		if err := e.j.CheckWebhookURL(t.Context(), u); err == nil {
			t.Errorf("%s: accepted", u)
		}
	}
	if err := e.j.CheckWebhookURL(t.Context(), "https://93.184.215.14/hook"); err != nil {
		t.Fatalf("a public address: %v", err)
	}

	// The receiver listens on 127.0.0.1 and is addressed by a name that resolves there: the
	// dialer must judge the address DNS gave, not the name in the URL.
	r := newReceiver(t, 0)
	byName := strings.Replace(r.URL, "127.0.0.1", "localhost", 1)
	if byName == r.URL {
		t.Fatalf("the receiver is not on 127.0.0.1: %s", r.URL)
	}
	w := addWebhook(t, e.db, byName, store.EventPaymentSeen) // as if its name had resolved elsewhere when added
	e.pay(0, e.dc.Payments, priceOff)
	mustPass(t, e.j)
	mustExec(t, e.db, `UPDATE webhook_deliveries SET tries_since = now() - interval '72 hours'`)
	deliverWebhooks(t, e.j)
	deadline := time.Now().Add(time.Minute)
	var off *store.WebhookOff
	for off == nil && len(r.deliveries()) == 0 && time.Now().Before(deadline) {
		got, err := e.db.Webhook(t.Context(), w.ID)
		if err != nil {
			t.Fatal(err)
		}
		off = got.Off
		time.Sleep(20 * time.Millisecond)
	}
	if off == nil || off.Code != store.OffGaveUp || off.Args.Seconds != 72*3600 || off.Args.StatusCode != nil ||
		off.Args.Failure == nil || off.Args.Failure.Code != store.TryPrivateAddress || off.Args.Failure.Args.Address != "127.0.0.1" {
		t.Fatalf("the endpoint's state: %+v", off)
	}
	var failure string
	if err := e.db.DB().Get(&failure, `SELECT a.failure_code FROM webhook_attempts a`); err != nil || failure != string(store.TryPrivateAddress) {
		t.Fatalf("the try's failure: %q, %v", failure, err)
	}
	if n := len(r.deliveries()); n != 0 {
		t.Fatalf("%s, a name for a loopback address, got %d requests", byName, n)
	}
}

// A reorg that takes a payment back sends .reverted for what was said of it, with the same data.
func TestWebhooksRevertOnReorg(t *testing.T) {
	t.Parallel()
	m := manualChain{newEnvOn(t, devchain.Options{ManualMining: true}, func(c *Config) {
		c.Confirmations = 1
		c.WebhookAllowPrivate = true
	})}
	r := newReceiver(t, 0)
	addWebhook(t, m.db, r.URL, store.EventPaymentSeen, store.EventPaymentRejected)
	_, parent := m.head()
	m.transfer(0, m.dc.Payments, priceOff, 0, 1) // off sale: rejected
	m.commit(1)
	m.dc.Commit()
	if sum := mustPass(t, m.j); sum.Rejected != 1 {
		t.Fatalf("summary %+v", sum)
	}
	m.reorgAwayPayment(parent, 0, 0, 4)
	if sum := mustPass(t, m.j); sum.Rewound == 0 {
		t.Fatalf("no rewind: %+v", sum)
	}
	deliverWebhooks(t, m.j)
	got := r.waitFor(t, 4)
	var types []string
	for _, d := range got {
		types = append(types, d.Type)
	}
	want := []string{"payment.seen", "payment.rejected", "payment.seen.reverted", "payment.rejected.reverted"}
	if !slices.Equal(types, want) {
		t.Fatalf("events %v, want %v", types, want)
	}
	for i := range 2 {
		a, b := got[i].Data.Payment, got[i+2].Data.Payment
		if a == nil || b == nil || a.TxHash != b.TxHash || a.Status != b.Status {
			t.Fatalf("%s and %s carry different data: %+v, %+v", got[i].Type, got[i+2].Type, a, b)
		}
	}
}

// Events past their retention go, with their deliveries and tries, once none of their deliveries
// is pending: an instance prunes as it starts delivering. Two instances pruning at once delete
// every event once, and neither fails.
func TestWebhooksPruned(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) { c.WebhookAllowPrivate, c.WebhookRetention = true, 24*time.Hour })
	r := newReceiver(t, 0)
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close() // nothing listens: its deliveries stay pending
	up, gone := addWebhook(t, e.db, r.URL, store.EventPaymentSeen), addWebhook(t, e.db, down.URL, store.EventPaymentSeen)
	recordSeen(t, e.db, 4, 5000)
	var events []int64
	if err := e.db.DB().Select(&events, `SELECT id FROM webhook_events ORDER BY id`); err != nil || len(events) != 4 {
		t.Fatalf("events %v: %v", events, err)
	}

	ctx, stop := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { defer close(done); e.j.DeliverWebhooks(ctx) }()
	r.waitFor(t, 4)
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		var tried int
		e.db.DB().Get(&tried, `SELECT count(*) FROM webhook_deliveries WHERE (endpoint_id = $1 AND status = 'delivered')
			OR (endpoint_id = $2 AND attempts > 0)`, up.ID, gone.ID)
		if tried >= 5 { // all four delivered, and the first try of the unreachable one made
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d deliveries made or tried", tried)
		}
	}
	stop()
	<-done

	// The first three events are two days old; the unreachable endpoint gave up on the first two.
	mustExec(t, e.db, `UPDATE webhook_events SET created_at = now() - interval '2 days' WHERE id = ANY ($1)`, pq.Array(events[:3]))
	mustExec(t, e.db, `UPDATE webhook_deliveries SET status = 'failed' WHERE endpoint_id = $1 AND event_id = ANY ($2)`, gone.ID, pq.Array(events[:2]))
	deliverWebhooks(t, e.restart())
	var left []int64
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		left = nil
		if err := e.db.DB().Select(&left, `SELECT id FROM webhook_events ORDER BY id`); err != nil {
			t.Fatal(err)
		}
		if len(left) < 4 || time.Now().After(deadline) {
			break
		}
	}
	if !slices.Equal(left, events[2:]) {
		t.Fatalf("events left %v, want %v: the third waits for a delivery, the fourth is a day from its retention", left, events[2:])
	}
	var orphans int
	e.db.DB().Get(&orphans, `SELECT (SELECT count(*) FROM webhook_deliveries WHERE event_id = ANY ($1))
		+ (SELECT count(*) FROM webhook_attempts a WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.id = a.delivery_id))`,
		pq.Array(events[:2]))
	if orphans != 0 {
		t.Fatalf("%d deliveries or tries of the pruned events are left", orphans)
	}

	// 12,000 old events, pruned by two instances at once: all gone, each deleted once.
	mustExec(t, e.db, `INSERT INTO webhook_events (type, subject, data, created_at)
		SELECT 'payment.seen', 'payment:' || g, '{}', now() - interval '40 days' FROM generate_series(1, 12000) g`)
	var wg sync.WaitGroup
	counts := make([]int, 2)
	errs := make([]error, 2)
	for i := range 2 {
		wg.Go(func() { counts[i], errs[i] = e.db.PruneWebhooks(t.Context(), time.Now().Add(-24*time.Hour)) })
	}
	wg.Wait()
	if errs[0] != nil || errs[1] != nil || counts[0]+counts[1] != 12000 {
		t.Fatalf("pruned %v (%v)", counts, errs)
	}
	t.Logf("two prunes at once deleted %d and %d events", counts[0], counts[1])
}

// A redelivery asked for while the prune deletes its event is "not found", as it is once the
// event is gone, not a failure: the prune holds the event, the redelivery waits on it, and
// finds it gone when the prune commits.
func TestRedeliveryRacingThePrune(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *Config) { c.WebhookAllowPrivate = true })
	w := addWebhook(t, e.db, "http://127.0.0.1:9/hook", store.EventPaymentSeen)
	recordSeen(t, e.db, 1, 7000)
	var delivery, event int64
	if err := e.db.DB().QueryRow(`SELECT id, event_id FROM webhook_deliveries`).Scan(&delivery, &event); err != nil {
		t.Fatal(err)
	}
	mustExec(t, e.db, `UPDATE webhook_deliveries SET status = 'failed'`)

	prune, err := e.db.DB().BeginTx(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer prune.Rollback()
	if _, err := prune.Exec(`DELETE FROM webhook_events WHERE id = $1`, event); err != nil {
		t.Fatal(err)
	}
	redelivered := make(chan error, 1)
	go func() {
		redelivered <- e.db.Audited(context.Background(), store.AuditEntry{Actor: store.Actor{Who: "test"}, Action: store.ActionWebhookRedeliver,
			Outcome: store.AuditOutcome{Code: store.OutcomeWebhookRedelivered}},
			func(tx store.Tx, _ *store.AuditEntry) error {
				_, err := tx.Redeliver(context.Background(), w.ID, delivery)
				return err
			})
	}()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		var waiting bool
		e.db.DB().QueryRow(`SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE datname = current_database()
			AND wait_event_type = 'Lock' AND query LIKE '%INSERT INTO webhook_deliveries%')`).Scan(&waiting)
		if waiting {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the redelivery did not wait on the prune")
		}
	}
	if err := prune.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := <-redelivered; !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the redelivery of a pruned event: %v, want store.ErrNotFound", err)
	}
}
