package jobs

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"sync"
	"syscall"
	"time"

	"nodeledger/jobs/sale"
	"nodeledger/store"
)

// How webhooks are delivered. Each instance delivers: it leases the endpoints whose next
// delivery is due (store.LeaseWebhooks: no two instances hold one endpoint) and sends each
// endpoint's deliveries one after another, oldest first; a failed one holds the rest of its
// endpoint's queue back until it is tried again, so an endpoint sees events in order.
const (
	webhookPoll     = time.Second      // how often an idle instance looks for due deliveries
	webhookLease    = 30 * time.Second // how long a lease lasts (three tries' time); renewed at each delivery
	webhookTimeout  = 10 * time.Second // a 2xx must come within this
	webhookParallel = 4                // endpoints one instance delivers to at once
	webhookBatch    = 100              // deliveries to one endpoint under one lease
	webhookFirstTry = 10 * time.Second // the first retry's wait, doubled at each failure
	webhookMaxWait  = time.Hour        // the longest wait between tries
	webhookGiveUp   = 72 * time.Hour   // a delivery failing this long switches its endpoint off
	webhookKeep     = 1024             // bytes of an answer kept in the log
	webhookPrune    = time.Hour        // how often an instance deletes the events past retention
)

// SignatureHeader carries a delivery's signatures: "t=<unix seconds>,v1=<hex>", with a second
// v1 while a rolled secret's predecessor still signs.
const SignatureHeader = "Nodeledger-Signature"

// pruneWebhooks deletes the events older than the retention that wait for no delivery.
func (j *Jobs) pruneWebhooks(ctx context.Context) {
	if j.cfg.WebhookRetention <= 0 {
		return
	}
	n, err := j.store.PruneWebhooks(ctx, time.Now().Add(-j.cfg.WebhookRetention))
	switch {
	case err != nil && ctx.Err() == nil:
		j.log.Warn("webhooks: pruning failed", "err", err)
	case n > 0:
		j.log.Info("webhooks: pruned the events past their retention", "events", n, "retention", j.cfg.WebhookRetention)
	}
}

// Sign is the signature header of body sent at t, with each secret.
func Sign(t time.Time, body []byte, secrets ...string) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	h := "t=" + ts
	for _, s := range secrets {
		mac := hmac.New(sha256.New, []byte(s))
		mac.Write([]byte(ts + "."))
		mac.Write(body)
		h += ",v1=" + hex.EncodeToString(mac.Sum(nil))
	}
	return h
}

// DeliverWebhooks delivers due webhook deliveries until ctx ends, and deletes the events past
// their retention once an hour.
func (j *Jobs) DeliverWebhooks(ctx context.Context) {
	client := webhookClient(j.cfg.WebhookAllowPrivate)
	var pruned time.Time
	for {
		if time.Since(pruned) >= webhookPrune {
			pruned = time.Now()
			j.pruneWebhooks(ctx)
		}
		n, err := j.deliverDue(ctx, client)
		if err != nil && ctx.Err() == nil {
			j.log.Warn("webhooks: delivery round failed", "err", err)
		}
		if n > 0 && err == nil {
			continue // more may be due
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(webhookPoll):
		}
	}
}

// deliverDue leases the endpoints with a due delivery and delivers to each; n counts the
// endpoints leased.
func (j *Jobs) deliverDue(ctx context.Context, client *http.Client) (n int, err error) {
	leases, err := j.store.LeaseWebhooks(ctx, token(), webhookParallel, webhookLease)
	if err != nil {
		return 0, err
	}
	var wg sync.WaitGroup
	errs := make([]error, len(leases))
	for i, l := range leases {
		wg.Go(func() { errs[i] = j.deliverTo(ctx, client, l) })
	}
	wg.Wait()
	return len(leases), errors.Join(errs...)
}

// deliverTo sends leased endpoint l its due deliveries in order, until one fails or none is due,
// and gives the lease up.
func (j *Jobs) deliverTo(ctx context.Context, client *http.Client, l store.Lease) error {
	defer j.store.ReleaseWebhook(context.WithoutCancel(ctx), l)
	for range webhookBatch {
		d, ok, err := j.store.NextDelivery(ctx, l, webhookLease)
		if err != nil || !ok {
			return err
		}
		o, err := j.deliver(ctx, client, l, d)
		if err != nil {
			return err
		}
		if err := j.store.RecordAttempt(ctx, l, d.ID, o); err != nil {
			if errors.Is(err, store.ErrNotFound) {
				return nil // the lease was lost: its next owner tries again
			}
			return err
		}
		webhookAttempts.WithLabelValues(attemptOutcome(o)).Inc()
		if !o.Delivered {
			return nil
		}
		webhookDelay.Observe(time.Since(d.CreatedAt).Seconds())
	}
	return nil
}

func attemptOutcome(o store.Outcome) string {
	switch {
	case o.Delivered:
		return "delivered"
	case o.Off != nil:
		return "given_up"
	}
	return "failed"
}

// deliver makes one try of delivery d to l, and says what follows from it.
func (j *Jobs) deliver(ctx context.Context, client *http.Client, l store.Lease, d store.Due) (store.Outcome, error) {
	b, err := j.eventBody(d.Event)
	if err != nil {
		return store.Outcome{}, fmt.Errorf("event %s: %w", d.Event.ID, err)
	}
	start := time.Now()
	secrets := []string{l.Secret}
	if l.PreviousSecret != nil {
		secrets = append(secrets, *l.PreviousSecret)
	}
	o := store.Outcome{Attempt: store.Attempt{At: start}}
	status, answer, err := post(ctx, client, l.URL, b, Sign(start, b, secrets...), d.Event.ID)
	o.LatencyMs = int(time.Since(start).Milliseconds())
	switch {
	case err != nil:
		o.Failure = failureOf(err)
	default:
		o.StatusCode, o.Response = &status, answer
		o.Delivered = status >= 200 && status < 300
	}
	if o.Delivered {
		return o, nil
	}
	if ctx.Err() != nil {
		return o, ctx.Err() // shutting down: not the endpoint's failure
	}
	if start.Sub(d.TriesSince) >= webhookGiveUp {
		o.Off = &store.WebhookOff{Code: store.OffGaveUp, Args: store.WebhookOffArgs{EventID: d.Event.ID,
			Seconds: int64(webhookGiveUp / time.Second), StatusCode: o.StatusCode, Failure: o.Failure}}
		return o, nil
	}
	o.Retry = start.Add(retryAfter(d.Attempts + 1))
	return o, nil
}

// eventBody is event e as its deliveries carry it: its payload as the store wrote it when the
// event was, every document in the API's shape, the same on every try.
func (j *Jobs) eventBody(e store.Event) ([]byte, error) {
	b := e.Body()
	if p := b.Data.Payment; p != nil {
		completePayment(p, e.Payload.Reason, j.cfg)
	}
	return json.Marshal(b)
}

// completePayment fills in the two fields of a payment that are not the ledger's and so not in
// the stored payload (store.PaymentDoc): its reason as a sentence, written here at the edge from
// the code and values the payload keeps, and how many confirmations the scan waits for.
func completePayment(p *store.PaymentDoc, r *store.Reason, cfg Config) {
	p.Reason = sale.Sentence(r)
	p.ConfirmationsNeeded = cfg.Confirmations + 1
}

// retryAfter is how long to wait after the nth failed try: 10 s, doubled each time, at most an
// hour.
func retryAfter(n int) time.Duration {
	wait := webhookFirstTry
	for i := 1; i < n && wait < webhookMaxWait; i++ {
		wait *= 2
	}
	return min(wait, webhookMaxWait)
}

// post sends one delivery: the status of the answer and its first KB, or why none came.
func post(ctx context.Context, client *http.Client, target string, body []byte, signature, eventID string) (int, string, error) {
	ctx, cancel := context.WithTimeout(ctx, webhookTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "nodeledger-webhooks/1")
	req.Header.Set(SignatureHeader, signature)
	req.Header.Set("Nodeledger-Event-Id", eventID)
	res, err := client.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(res.Body, webhookKeep))
	return res.StatusCode, string(answer), nil
}

// failureOf says why a try got no answer, as a code and the values its sentence is told with,
// without Go's wording of the request (which holds the whole address).
func failureOf(err error) *store.TryFailure {
	var target *TargetError
	switch {
	case errors.As(err, &target) && target.Address != "":
		return &store.TryFailure{Code: store.TryPrivateAddress, Args: store.TryFailureArgs{Address: target.Address}}
	case errors.As(err, &target):
		return &store.TryFailure{Code: store.TryAddressUnchecked}
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, http.ErrHandlerTimeout):
		return &store.TryFailure{Code: store.TryTimedOut, Args: store.TryFailureArgs{Seconds: int(webhookTimeout / time.Second)}}
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return &store.TryFailure{Code: store.TryUnresolved, Args: store.TryFailureArgs{Error: dns.Err}}
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		return &store.TryFailure{Code: store.TryUnreachable, Args: store.TryFailureArgs{Error: op.Err.Error()}}
	}
	return &store.TryFailure{Code: store.TryUnreachable}
}

// token is a new lease owner's name.
func token() string {
	b := make([]byte, 12)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// TargetError is a webhook address the service will not send to. Address is the private address
// its host resolved to, when that is why.
type TargetError struct {
	Reason  string
	Address string
}

func (e *TargetError) Error() string { return e.Reason }

// CheckWebhookURL checks that raw is an address webhooks may be sent to: http or https, with a
// host, whose every address is public unless WEBHOOK_ALLOW_PRIVATE is set. The delivery's dialer
// checks the address it connects to again, so a name that resolves elsewhere later is refused
// then.
func (j *Jobs) CheckWebhookURL(ctx context.Context, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Hostname() == "" {
		return &TargetError{Reason: "the address must be an http or https URL with a host"}
	}
	if u.User != nil {
		return &TargetError{Reason: "the address must not carry a user name or password"}
	}
	if j.cfg.WebhookAllowPrivate {
		return nil
	}
	ips, err := net.DefaultResolver.LookupNetIP(ctx, "ip", u.Hostname())
	if err != nil || len(ips) == 0 {
		return &TargetError{Reason: "the address's host name does not resolve"}
	}
	for _, ip := range ips {
		if err := publicAddress(ip); err != nil {
			return err
		}
	}
	return nil
}

// webhookClient sends deliveries: no proxy, no redirect followed (a 3xx is an answer, not a
// 2xx), and, unless private addresses are allowed, a dialer that refuses to connect to one,
// whatever the name resolved to.
func webhookClient(allowPrivate bool) *http.Client {
	dialer := &net.Dialer{Timeout: webhookTimeout}
	if !allowPrivate {
		dialer.Control = refuseAtDial
	}
	return &http.Client{
		Transport: &http.Transport{
			Proxy:               nil,
			DialContext:         dialer.DialContext,
			TLSHandshakeTimeout: webhookTimeout,
			MaxIdleConnsPerHost: 2,
			IdleConnTimeout:     90 * time.Second,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// refuseAtDial is the delivery dialer's Control: it judges the address a connection is about to
// reach, after DNS, so a name that resolved to a public address when its endpoint was added, and
// to a private one since (or between the check and the dial), is refused all the same.
func refuseAtDial(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return &TargetError{Reason: "the address's host could not be checked"}
	}
	return publicAddress(ap.Addr())
}
