package web

import (
	"fmt"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/ethereum/go-ethereum/common"

	"nodeledger/chain"
	"nodeledger/chain/bindings"
	"nodeledger/chain/devchain"
	"nodeledger/handlers"
	"nodeledger/jobs"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// screenedServer is a server whose passes and handlers screen payers against oracle on a dev
// chain, and check identities with kyc, with one tier of 0.1 ETH on sale.
func screenedServer(t *testing.T, oracle func(dc *devchain.Chain) common.Address, kyc handlers.KYCConfig) (*testServer, *devchain.Chain, *chain.Client, *jobs.Jobs, *store.Store) {
	t.Helper()
	db := storetest.New(t)
	storetest.Tier(t, db, 1, "Standard", "100000000000000000", true)
	dc, err := devchain.Start(t.Context(), devchain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dc.Close() })
	c := chain.New(dc.RPC(), chain.Config{Factory: dc.Factory, SanctionsOracle: oracle(dc)})
	j := jobs.New(db, c, chain.LocalSigner(dc.Minter.Key), chain.LocalSigner(dc.Distributor.Key),
		jobs.Config{ChainID: dc.ChainID(), PaymentAddress: dc.Payments}, slog.New(slog.DiscardHandler))
	s := newChainServer(t, db, c, j, handlers.Config{ChainID: 1337, PaymentAddress: strings.ToLower(dc.Payments.Hex()), AdminKey: adminKey,
		SessionSecret: sessionSecret, DistMode: "fixed", TickSec: 60, StaleAfterSec: 300, KYC: kyc})
	return s, dc, c, j, db
}

// sanction has the dev oracle's owner list wallet.
func sanction(t *testing.T, dc *devchain.Chain, c *chain.Client, wallet common.Address) {
	t.Helper()
	transact(t, dc, c, dc.Owner.Key, &dc.SanctionsOracle, bindings.NewSanctionsList().PackAddToSanctionsList([]common.Address{wallet}), nil)
}

// TestScreeningAPI: a payer the oracle lists is held, and its buyer reads so without the list's
// name; the admin API counts and lists it, refuses a release that is not one, and releases it
// once, to be minted. The denylist is uploaded as CSV and read back; a bad line is refused whole.
func TestScreeningAPI(t *testing.T) {
	t.Parallel()
	s, dc, c, j, _ := screenedServer(t, func(dc *devchain.Chain) common.Address { return dc.SanctionsOracle }, handlers.KYCConfig{})
	ctx := t.Context()
	sanction(t, dc, c, dc.Buyers[0].Address)
	paid := strings.ToLower(transact(t, dc, c, dc.Buyers[0].Key, &dc.Payments, nil, big.NewInt(1e17)).TxHash.Hex())
	if sum, err := j.Payments(ctx); err != nil || sum.Held != 1 {
		t.Fatalf("pass: %+v, %v", sum, err)
	}

	type payment struct {
		Status     string  `json:"status"`
		ReasonCode *string `json:"reasonCode"`
		Reason     *string `json:"reason"`
	}
	p := decode[payment](t, s.get(t, "/api/payments/"+paid))
	if p.Status != "held" || p.ReasonCode == nil || *p.ReasonCode != "sanctioned" || p.Reason == nil ||
		!strings.Contains(*p.Reason, "sanctions screening") || strings.Contains(strings.ToLower(*p.Reason), "ofac") {
		t.Fatalf("the payment as its buyer reads it: %+v %v %v", p, p.ReasonCode, p.Reason)
	}
	if msg := text(page(t, s.get(t, "/payment/"+paid).Body), "payment-message"); !strings.HasPrefix(msg, "Held: This payment cannot be accepted") {
		t.Fatalf("the tracker: %q", msg)
	}

	compliance := decode[struct {
		SanctionsOracle *string        `json:"sanctionsOracle"`
		Denylisted      int            `json:"denylisted"`
		Held            map[string]int `json:"held"`
	}](t, s.adminDo(t, http.MethodGet, "/api/admin/compliance", "", adminKey))
	if compliance.SanctionsOracle == nil || *compliance.SanctionsOracle != strings.ToLower(dc.SanctionsOracle.Hex()) ||
		compliance.Held["sanctioned"] != 1 || compliance.Held["denylisted"] != 0 {
		t.Fatalf("compliance: %+v", compliance)
	}
	held := decode[[]struct {
		ID         int64  `json:"id"`
		TxHash     string `json:"txHash"`
		ReasonCode string `json:"reasonCode"`
		Screening  string `json:"screening"`
	}](t, s.adminDo(t, http.MethodGet, "/api/admin/held-payments", "", adminKey))
	if len(held) != 1 || held[0].TxHash != paid || held[0].ReasonCode != "sanctioned" || held[0].Screening != "Sanctions screening" {
		t.Fatalf("held payments: %+v", held)
	}
	release := fmt.Sprintf("/api/admin/held-payments/%d/release", held[0].ID)
	for body, status := range map[string]int{
		`{"to": "burn", "reason": "x"}`:                                http.StatusBadRequest,
		`{"to": "mint"}`:                                               http.StatusBadRequest,
		`{"to": "mint", "reason": "   "}`:                              http.StatusBadRequest,
		`{"to": "mint", "reason": "` + strings.Repeat("a", 501) + `"}`: http.StatusBadRequest,
		`{"to": "mint", "reason": "ok", "extra": 1}`:                   http.StatusBadRequest,
	} {
		wantStatus(t, s.adminDo(t, http.MethodPost, release, body, adminKey), status)
	}
	wantStatus(t, s.adminDo(t, http.MethodPost, release, `{"to": "mint", "reason": "ok"}`, "guess"), http.StatusUnauthorized)
	wantStatus(t, s.adminDo(t, http.MethodPost, "/api/admin/held-payments/99999/release", `{"to": "mint", "reason": "ok"}`, adminKey), http.StatusNotFound)
	wantStatus(t, s.adminDo(t, http.MethodPost, "/api/admin/held-payments/x/release", `{"to": "mint", "reason": "ok"}`, adminKey), http.StatusBadRequest)
	wantStatus(t, s.adminDo(t, http.MethodPost, release, `{"to": "mint", "reason": "a false match: a namesake"}`, adminKey), http.StatusOK)
	wantStatus(t, s.adminDo(t, http.MethodPost, release, `{"to": "refund", "reason": "changed my mind"}`, adminKey), http.StatusConflict)
	if _, err := j.Payments(ctx); err != nil {
		t.Fatal(err)
	}
	p = decode[payment](t, s.get(t, "/api/payments/"+paid))
	if p.Status != "minted" {
		t.Fatalf("released to be minted, the payment is %s", p.Status)
	}
	audit := s.adminDo(t, http.MethodGet, "/api/admin/audit", "", adminKey).Body.String()
	if !strings.Contains(audit, "Released payment "+paid) || !strings.Contains(audit, "a false match: a namesake") {
		t.Fatalf("the audit does not tell the release: %s", audit)
	}

	// The denylist.
	wantStatus(t, s.adminCSV(t, "/api/admin/denylist", "application/json", `{}`), http.StatusUnsupportedMediaType)
	bad := s.adminCSV(t, "/api/admin/denylist", "text/csv", "address,reason\n0x00000000000000000000000000000000000000aa,ok\nnot-an-address,x\n")
	wantStatus(t, bad, http.StatusBadRequest)
	if msg := errorMessage(t, bad); msg != `Line 3: "not-an-address" is not an address.` {
		t.Fatalf("a bad line: %q", msg)
	}
	rec := s.adminCSV(t, "/api/admin/denylist", "text/csv",
		"address,reason\n0x00000000000000000000000000000000000000AA,chargeback, then threats\n0x00000000000000000000000000000000000000bb,\n")
	wantStatus(t, rec, http.StatusOK)
	list := decode[struct {
		Rows    int                  `json:"rows"`
		Entries []store.WalletReason `json:"entries"`
	}](t, s.adminDo(t, http.MethodGet, "/api/admin/denylist", "", adminKey))
	if list.Rows != 2 || len(list.Entries) != 2 || list.Entries[0].Address != "0x00000000000000000000000000000000000000aa" ||
		list.Entries[0].Reason != "chargeback, then threats" || list.Entries[1].Reason != "" {
		t.Fatalf("the denylist: %+v", list)
	}
}

// TestSanctionsUnreadableHealth: an oracle that cannot be read holds payments back unjudged, and
// health says so at once (not after three failures), with its own code.
func TestSanctionsUnreadableHealth(t *testing.T) {
	t.Parallel()
	s, dc, c, j, _ := screenedServer(t, func(*devchain.Chain) common.Address { return common.HexToAddress("0x40c5") }, handlers.KYCConfig{})
	ctx := t.Context()
	r := transact(t, dc, c, dc.Buyers[0].Key, &dc.Payments, nil, big.NewInt(1e17))
	j.Tick(ctx)
	h := decode[struct {
		Degraded        bool `json:"degraded"`
		DegradedReasons []struct {
			Code string `json:"code"`
		} `json:"degradedReasons"`
	}](t, s.get(t, "/api/cron/health"))
	codes := []string{}
	for _, d := range h.DegradedReasons {
		codes = append(codes, d.Code)
	}
	if !h.Degraded || !slices.Contains(codes, "sanctions_unreadable") {
		t.Fatalf("health: %+v", h)
	}
	p := decode[struct {
		Status string `json:"status"`
	}](t, s.get(t, "/api/payments/"+strings.ToLower(r.TxHash.Hex())))
	if p.Status != "minting" { // seen, waiting for its check
		t.Fatalf("the payment is %s", p.Status)
	}
}

// TestOperatorScreening: the operator page lists held payments with which screening held each;
// only an admin releases one, with a reason, and the audit tells it. The denylist is previewed
// from a file, then saved as previewed; a list changed since the preview is refused, and only an
// admin may change it.
func TestOperatorScreening(t *testing.T) {
	t.Parallel()
	s, dc, c, j, db := screenedServer(t, func(dc *devchain.Chain) common.Address { return dc.SanctionsOracle }, handlers.KYCConfig{})
	ctx := t.Context()
	sanction(t, dc, c, dc.Buyers[0].Address)
	paid := strings.ToLower(transact(t, dc, c, dc.Buyers[0].Key, &dc.Payments, nil, big.NewInt(1e17)).TxHash.Hex())
	if sum, err := j.Payments(ctx); err != nil || sum.Held != 1 {
		t.Fatalf("pass: %+v, %v", sum, err)
	}

	viewer := signedInOperator(t, s, "viewer")
	doc := viewer.operatorPage()
	row := doc.Find(`[data-testid=held-payment][data-tx="` + paid + `"]`)
	if row.Length() != 1 || !strings.Contains(row.Text(), "Sanctions screening") || !strings.Contains(row.Text(), "0.1 ETH") {
		t.Fatalf("the held payment as a viewer sees it: %s", htmlOf(doc.Find(`#screening`).Parent()))
	}
	if row.Find(`[data-testid=release-form]`).Length() != 0 {
		t.Fatal("a viewer is offered a release")
	}
	if got := text(doc, "live-held-count"); got != "1" {
		t.Fatalf("the live card counts %q held", got)
	}
	held, err := db.HeldPayments(ctx, 10)
	if err != nil || len(held) != 1 {
		t.Fatalf("held: %+v, %v", held, err)
	}
	release := fmt.Sprintf("/operator/held/%d/release", held[0].ID)
	wantStatus(t, viewer.form(release, url.Values{"to": {"refund"}, "reason": {"checked"}}), http.StatusForbidden)

	admin := signedInOperator(t, s)
	if admin.operatorPage().Find(`[data-testid=held-payment] [data-testid=release-form]`).Length() != 1 {
		t.Fatal("an admin is offered no release")
	}
	wantStatus(t, admin.form(release, url.Values{"to": {"refund"}}), http.StatusBadRequest)
	wantRedirect(t, admin.form(release, url.Values{"to": {"refund"}, "reason": {"the payer asked for their money back"}}))
	doc = admin.operatorPage()
	if got := text(doc, "outcome"); !strings.HasPrefix(got, "Released payment "+paid) || !strings.Contains(got, "to be refunded") {
		t.Fatalf("the outcome: %q", got)
	}
	if got := text(doc, "released"); got != "Released to be refunded: the next payments pass applies it." ||
		doc.Find(`[data-testid=release-form]`).Length() != 0 {
		t.Fatalf("the held payment once released: %q", got)
	}
	if _, err := j.Payments(ctx); err != nil {
		t.Fatal(err)
	}
	if owed, n, err := db.RefundsOwed(ctx, 10); err != nil || n != 1 || owed[0].TxHash != paid {
		t.Fatalf("owed after the release: %+v %d %v", owed, n, err)
	}
	if admin.operatorPage().Find(`[data-testid=no-held]`).Length() != 1 {
		t.Fatal("the page still lists a held payment")
	}

	// The denylist, from a file.
	const a1, a2 = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8", "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc"
	rec := admin.upload("/operator/denylist/preview", url.Values{}, []byte("address,reason\n"+a1+",ok\n0x12,bad\n"))
	wantStatus(t, rec, http.StatusUnprocessableEntity)
	if got := text(page(t, rec.Body), "denylist-problem"); got != `Nothing was saved: the file is refused. Line 3: "0x12" is not an address.` {
		t.Fatalf("a bad file: %q", got)
	}
	rec = admin.upload("/operator/denylist/preview", url.Values{}, []byte(a1+",chargeback, twice\r\n"+"0x"+strings.ToUpper(a2[2:4])+a2[4:]+",\r\n"))
	wantStatus(t, rec, http.StatusOK)
	doc = page(t, rec.Body)
	if got := text(doc, "denylist-rows"); got != "2 wallets" {
		t.Fatalf("preview: %q", got)
	}
	if v, _, _ := db.Denylist(ctx); v.Rows != 0 || !v.EffectiveAt.IsZero() {
		t.Fatal("a preview saved the list")
	}
	save := url.Values{}
	doc.Find(`[data-testid=denylist-preview] form input[type=hidden]`).Each(func(_ int, in *goquery.Selection) {
		save.Set(in.AttrOr("name", ""), in.AttrOr("value", ""))
	})
	tampered := url.Values{"csv": {strings.Replace(save.Get("csv"), a1, a2[:len(a2)-1]+"f", 1)}, "mac": {save.Get("mac")}}
	wantStatus(t, admin.upload("/operator/denylist", tampered, nil), http.StatusConflict)
	operator := signedInOperator(t, s, "operator")
	wantStatus(t, operator.upload("/operator/denylist", save, nil), http.StatusForbidden)
	wantRedirect(t, admin.upload("/operator/denylist", save, nil))
	v, entries, err := db.Denylist(ctx)
	if err != nil || v.Rows != 2 || entries[0].Address != a2 || entries[1].Reason != "chargeback, twice" {
		t.Fatalf("saved: %+v %+v %v", v, entries, err)
	}
	if got := text(admin.operatorPage(), "denylist-now"); !strings.HasPrefix(got, "2 wallets, since") {
		t.Fatalf("the page after the save: %q", got)
	}
}

// TestBatchPaysNoSanctionedAddress: a refund owed to an address the oracle lists when the batch
// is proposed is left out of it, saying so; an address listed after the batch was proposed holds
// back its execution data, until the oracle lists it no more.
func TestBatchPaysNoSanctionedAddress(t *testing.T) {
	t.Parallel()
	db := storetest.New(t)
	e := newRefundEnv(t, db)
	dc := e.dc
	wrong := []string{e.pay(0, 150_000_000_000_000_000), e.pay(1, 250_000_000_000_000_000)}
	if sum := e.pass(); sum.Rejected != 2 {
		t.Fatalf("pass %+v", sum)
	}
	sanction := func(listed bool, who common.Address) {
		t.Helper()
		data := bindings.NewSanctionsList().PackAddToSanctionsList([]common.Address{who})
		if !listed {
			data = bindings.NewSanctionsList().PackRemoveFromSanctionsList([]common.Address{who})
		}
		if r := e.send(dc.Owner.Key, dc.SanctionsOracle, data, nil); r.Status != 1 {
			t.Fatal("the oracle's owner could not list")
		}
	}
	sanction(true, dc.Buyers[1].Address) // listed after its payment was rejected: owed, but never paid by a batch

	rec := e.s.adminDo(t, http.MethodPost, "/api/admin/refund-batches", `{"payments": "all"}`, adminKey)
	wantStatus(t, rec, http.StatusCreated)
	b := decode[struct {
		batchDoc
		LeftOut []leftOutDoc `json:"leftOut"`
	}](t, rec)
	if len(b.Refunds) != 1 || b.Refunds[0].TxHash != wrong[0] {
		t.Fatalf("the batch refunds %+v", b.Refunds)
	}
	if len(b.LeftOut) != 1 || b.LeftOut[0].Payment == nil || *b.LeftOut[0].Payment != wrong[1] || b.LeftOut[0].ReasonCode != "sanctioned" ||
		!strings.Contains(b.LeftOut[0].Reason, "sanctions oracle lists that address") {
		t.Fatalf("left out %+v", b.LeftOut)
	}

	e.approve(b.ID, e.sign(7, b.SafeTxHash))
	if ready := e.approve(b.ID, e.sign(devchain.OwnerIndex, b.SafeTxHash)); ready == nil || ready.ExecData == nil {
		t.Fatalf("after two owners: %+v", ready)
	}
	sanction(true, dc.Buyers[0].Address)
	held := e.get(b.ID)
	payee := strings.ToLower(dc.Buyers[0].Address.Hex())
	if held.ExecData != nil || held.HeldBy == nil || held.HeldBy.Code != "sanctioned" || !slices.Equal(held.HeldBy.Sanctioned, []string{payee}) ||
		!strings.Contains(held.HeldBy.Reason, "execution is withheld") {
		t.Fatalf("a ready batch to an address listed since: %+v (held by %+v)", held, held.HeldBy)
	}
	sanction(false, dc.Buyers[0].Address)
	if again := e.get(b.ID); again.ExecData == nil || again.HeldBy != nil {
		t.Fatalf("delisted, the batch is still held: %+v", again.HeldBy)
	}
}

// kycServer is screenedServer with identity checks from provider, tier 1 requiring them.
func kycServer(t *testing.T, provider store.KYCProvider) (*testServer, *devchain.Chain, *chain.Client, *jobs.Jobs, *store.Store) {
	t.Helper()
	s, dc, c, j, db := screenedServer(t, func(dc *devchain.Chain) common.Address { return dc.SanctionsOracle },
		handlers.KYCConfig{Provider: provider, Secret: kycSecret, FormURL: "https://kyc.invalid/form"})
	mustExec(t, db, `UPDATE tiers SET kyc_required = true WHERE id = 1`)
	return s, dc, c, j, db
}

const kycSecret = "kyc-webhook-secret-0123456789"

// kycWebhook posts body to the provider's webhook route, signed with secret.
func (s *testServer) kycWebhook(t *testing.T, provider store.KYCProvider, secret, body string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/api/kyc/"+string(provider), strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	name, value := handlers.KYCSign(provider, []byte(secret), []byte(body))
	req.Header.Set(name, value)
	rec := httptest.NewRecorder()
	s.e.ServeHTTP(rec, req)
	checkAgainstOpenAPI(t, req, rec)
	return rec
}

// TestKYCWebhooks: on a tier that requires a verified identity, an unverified wallet's payment is
// held until the provider's signed webhook verifies it (Sumsub's applicantReviewed GREEN, or
// Blockpass's review.approved), then minted. A webhook with a bad signature, or from another
// provider, changes nothing; one delivered again changes nothing; the wallet's status is public,
// and nothing else is.
func TestKYCWebhooks(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		provider store.KYCProvider
		approve  func(wallet string) string
	}{
		{store.KYCSumsub, func(w string) string {
			return `{"applicantId":"5cb56e8e0a975a35f333cb83","inspectionId":"5cb56e8e0a975a35f333cb84","correlationId":"req-a2","externalUserId":"` + w +
				`","levelName":"basic-kyc-level","type":"applicantReviewed","reviewResult":{"reviewAnswer":"GREEN"},"reviewStatus":"completed","createdAtMs":"2026-11-29 09:00:00.000"}`
		}},
		{store.KYCBlockpass, func(w string) string {
			return `{"guid":"6a7c","status":"approved","clientId":"nodeledger","event":"review.approved","recordId":"6a7c00","refId":"` + w +
				`","submitCount":1,"blockPassID":"5f2b","isArchived":false,"env":"prod","isPing":false}`
		}},
	} {
		t.Run(string(tc.provider), func(t *testing.T) {
			t.Parallel()
			s, dc, c, j, _ := kycServer(t, tc.provider)
			ctx := t.Context()
			wallet := strings.ToLower(dc.Buyers[0].Address.Hex())
			status := func() string {
				t.Helper()
				return decode[struct {
					Status string `json:"status"`
				}](t, s.get(t, "/api/kyc/"+wallet)).Status
			}
			if got := status(); got != "none" {
				t.Fatalf("before any check: %q", got)
			}
			paid := strings.ToLower(transact(t, dc, c, dc.Buyers[0].Key, &dc.Payments, nil, big.NewInt(1e17)).TxHash.Hex())
			if sum, err := j.Payments(ctx); err != nil || sum.Held != 1 {
				t.Fatalf("pass: %+v, %v", sum, err)
			}
			p := decode[struct {
				Status     string  `json:"status"`
				ReasonCode *string `json:"reasonCode"`
				Reason     *string `json:"reason"`
			}](t, s.get(t, "/api/payments/"+paid))
			if p.Status != "held" || p.ReasonCode == nil || *p.ReasonCode != "kyc_required" || p.Reason == nil ||
				!strings.HasPrefix(*p.Reason, "Identity check needed: verify by ") || !strings.HasSuffix(*p.Reason, ", or it is refunded.") {
				t.Fatalf("the held payment: %+v %v", p, p.Reason)
			}

			body := tc.approve(wallet)
			wantStatus(t, s.kycWebhook(t, tc.provider, "a-guessed-secret-0000", body), http.StatusUnauthorized)
			other := store.KYCSumsub
			if tc.provider == store.KYCSumsub {
				other = store.KYCBlockpass
			}
			wantStatus(t, s.kycWebhook(t, other, kycSecret, body), http.StatusNotFound)
			unsigned := httptest.NewRequest(http.MethodPost, "/api/kyc/"+string(tc.provider), strings.NewReader(body))
			rec := httptest.NewRecorder()
			s.e.ServeHTTP(rec, unsigned)
			wantStatus(t, rec, http.StatusUnauthorized)
			if got := status(); got != "none" {
				t.Fatalf("after refused webhooks: %q", got)
			}

			first := decode[struct {
				Recorded bool `json:"recorded"`
			}](t, s.kycWebhook(t, tc.provider, kycSecret, body))
			again := decode[struct {
				Recorded bool `json:"recorded"`
			}](t, s.kycWebhook(t, tc.provider, kycSecret, body))
			if !first.Recorded || again.Recorded || status() != "verified" {
				t.Fatalf("recorded %v, then %v; status %q", first.Recorded, again.Recorded, status())
			}
			if _, err := j.Payments(ctx); err != nil {
				t.Fatal(err)
			}
			if got := decode[struct {
				Status string `json:"status"`
			}](t, s.get(t, "/api/payments/"+paid)).Status; got != "minted" {
				t.Fatalf("verified, the payment is %s", got)
			}
		})
	}
}

// TestKYCAdmin: an admin sets a wallet's identity check by hand with a reason, audited; bad
// bodies are refused; compliance counts the hold and names the provider.
func TestKYCAdmin(t *testing.T) {
	t.Parallel()
	s, dc, _, _, db := kycServer(t, store.KYCSumsub)
	wallet := strings.ToLower(dc.Buyers[3].Address.Hex())
	for body, status := range map[string]int{
		`{"status": "approved", "reason": "x"}`:             http.StatusBadRequest,
		`{"status": "verified"}`:                            http.StatusBadRequest,
		`{"status": "verified", "reason": "x", "extra": 1}`: http.StatusBadRequest,
	} {
		wantStatus(t, s.adminDo(t, http.MethodPut, "/api/admin/kyc/"+wallet, body, adminKey), status)
	}
	wantStatus(t, s.adminDo(t, http.MethodPut, "/api/admin/kyc/0x12", `{"status": "verified", "reason": "x"}`, adminKey), http.StatusBadRequest)
	wantStatus(t, s.adminDo(t, http.MethodPut, "/api/admin/kyc/"+wallet, `{"status": "verified", "reason": "x"}`, "guess"), http.StatusUnauthorized)
	rec := s.adminDo(t, http.MethodPut, "/api/admin/kyc/"+wallet, `{"status": "verified", "reason": "on the launchpad's verified list"}`, adminKey)
	wantStatus(t, rec, http.StatusOK)
	if e, err := db.KYCAt(t.Context(), wallet, time.Now()); err != nil || e.Status != store.KYCVerified || e.Provider != store.KYCAdmin {
		t.Fatalf("the wallet's check: %+v %v", e, err)
	}
	if audit := s.adminDo(t, http.MethodGet, "/api/admin/audit", "", adminKey).Body.String(); !strings.Contains(audit, "Set the identity check of "+wallet+" to verified") {
		t.Fatalf("the audit: %s", audit)
	}
	// A webhook larger than a provider sends is refused before its signature is checked; an
	// address with a NUL byte is no address.
	big := `{"type":"applicantReviewed","externalUserId":"` + wallet + `","pad":"` + strings.Repeat("x", 70<<10) + `"}`
	wantStatus(t, s.kycWebhook(t, store.KYCSumsub, kycSecret, big), http.StatusRequestEntityTooLarge)
	wantStatus(t, s.get(t, "/api/kyc/0x%00"+wallet[2:]), http.StatusBadRequest)

	// A launchpad's list of the buyers it verified.
	listed := []string{strings.ToLower(dc.Buyers[4].Address.Hex()), strings.ToLower(dc.Buyers[5].Address.Hex())}
	bad := s.adminCSV(t, "/api/admin/kyc", "text/csv", "address,reason\n"+listed[0]+",ok\n0x12,x\n")
	wantStatus(t, bad, http.StatusBadRequest)
	if msg := errorMessage(t, bad); msg != `Line 3: "0x12" is not an address.` {
		t.Fatalf("a bad list: %q", msg)
	}
	rec = s.adminCSV(t, "/api/admin/kyc", "text/csv", "address,reason\n"+listed[0]+",verified by Launchpad X, 2026-11-20\n"+listed[1]+",\n")
	wantStatus(t, rec, http.StatusOK)
	for _, w := range listed {
		if e, err := db.KYCAt(t.Context(), w, time.Now()); err != nil || e.Status != store.KYCVerified || e.Provider != store.KYCList {
			t.Fatalf("%s from the list: %+v %v", w, e, err)
		}
	}
	compliance := decode[struct {
		KYCProvider *string        `json:"kycProvider"`
		KYCHoldDays int            `json:"kycHoldDays"`
		Held        map[string]int `json:"held"`
	}](t, s.adminDo(t, http.MethodGet, "/api/admin/compliance", "", adminKey))
	if compliance.KYCProvider == nil || *compliance.KYCProvider != "sumsub" || compliance.KYCHoldDays != 7 {
		t.Fatalf("compliance: %+v", compliance)
	}
	if _, ok := compliance.Held["kyc_required"]; !ok {
		t.Fatalf("compliance counts no kyc_required: %+v", compliance.Held)
	}
}

// TestKYCBuyAndDevPage: the buy page tells a wallet that a tier requires a verified identity,
// where its check stands and where to verify, and the pre-check refuses to let it pay before it
// is verified; dev mode's stand-in form sends the provider's signed webhook to the service over
// HTTP, after which the wallet may pay.
func TestKYCBuyAndDevPage(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	public := &url.URL{Scheme: "http", Host: ln.Addr().String()}
	db := storetest.New(t)
	storetest.Tier(t, db, 1, "Standard", "100000000000000000", true)
	mustExec(t, db, `UPDATE tiers SET kyc_required = true WHERE id = 1`)
	dc, c := startDevChain(t)
	j := jobs.New(db, c, chain.LocalSigner(dc.Minter.Key), chain.LocalSigner(dc.Distributor.Key),
		jobs.Config{ChainID: dc.ChainID(), PaymentAddress: dc.Payments}, slog.New(slog.DiscardHandler))
	s := newChainServer(t, db, c, j, handlers.Config{ChainID: 1337, PaymentAddress: strings.ToLower(dc.Payments.Hex()), PublicURL: public,
		KYC: handlers.KYCConfig{Provider: store.KYCSumsub, Secret: kycSecret, FormURL: public.String() + "/dev/kyc", Dev: true}})
	srv := &http.Server{Handler: s.e, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln) //nolint:errcheck // closed below
	t.Cleanup(func() { srv.Close() })

	wallet := strings.ToLower(dc.Buyers[0].Address.Hex())
	doc := page(t, s.get(t, "/buy?wallet="+wallet).Body)
	card := doc.Find(`[data-testid=buy-tier][data-tier="1"]`)
	if card.Find(`[data-testid=kyc-required]`).Length() != 1 || card.Find(`[data-testid=kyc-status]`).AttrOr("data-status", "") != "none" {
		t.Fatalf("the card: %s", htmlOf(card))
	}
	link := card.Find(`[data-testid=kyc-verify]`).AttrOr("href", "")
	if link != public.String()+"/dev/kyc?externalUserId="+wallet {
		t.Fatalf("the verify link: %q", link)
	}
	if card.Find(`button[data-wallet=pay]`).Length() != 0 || !strings.Contains(card.Text(), "Verify your identity first") ||
		!strings.Contains(card.Text(), "A payment from it would be held until it is verified, and refunded if it is not within 7 days.") {
		t.Fatalf("an unverified wallet is offered to pay: %s", htmlOf(card))
	}
	check := decode[struct {
		OK         bool    `json:"ok"`
		ReasonCode *string `json:"reasonCode"`
		Reason     *string `json:"reason"`
	}](t, s.get(t, "/api/tiers/1/check/"+wallet))
	if check.OK || check.ReasonCode == nil || *check.ReasonCode != "kyc_required" || !strings.HasPrefix(*check.Reason, "Verify your identity first: ") {
		t.Fatalf("the pre-check: %+v", check)
	}

	// The stand-in form, over HTTP as a browser posts it.
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Get(link)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("the stand-in page: %v %v", res, err)
	}
	res.Body.Close()
	res, err = client.PostForm(public.String()+"/dev/kyc", url.Values{"wallet": {wallet}, "answer": {"GREEN"}})
	if err != nil || res.StatusCode != http.StatusSeeOther {
		t.Fatalf("the stand-in's answer: %v %v", res, err)
	}
	res.Body.Close()
	if loc := res.Header.Get("Location"); !strings.Contains(loc, "verified") {
		t.Fatalf("sent back to %q", loc)
	}
	doc = page(t, s.get(t, "/buy?wallet="+wallet).Body)
	card = doc.Find(`[data-testid=buy-tier][data-tier="1"]`)
	if card.Find(`[data-testid=kyc-status]`).AttrOr("data-status", "") != "verified" || card.Find(`button[data-wallet=pay]`).Length() != 1 {
		t.Fatalf("verified, the card: %s", htmlOf(card))
	}
	req, _ := http.NewRequest(http.MethodPost, public.String()+"/dev/kyc", strings.NewReader("wallet="+wallet+"&answer=RED"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "https://evil.invalid")
	if res, err := client.Do(req); err != nil || res.StatusCode != http.StatusForbidden {
		t.Fatalf("another site's post: %v %v", res, err)
	}
}
