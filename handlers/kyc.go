package handlers

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/labstack/echo/v4"

	"nodeledger/store"
	"nodeledger/views"
)

// Identity checks (issue 52 §3). A buyer verifies on the provider's form (KYCConfig.FormURL, the
// wallet as its reference); the provider's signed webhooks change the wallet's status, kept as a
// history (store.KYCEvent); an admin may set it by hand. The judgement reads the status a wallet
// had when it paid (jobs/sale: identified).

// KYCConfig is where identity checks are done.
type KYCConfig struct {
	Provider store.KYCProvider // sumsub or blockpass; "": none (an admin's word only)
	Secret   string            // the webhooks' HMAC secret (KYC_WEBHOOK_SECRET)
	FormURL  string            // the provider's form, which the buy page links with the wallet
	// Dev: the provider is dev mode's stand-in page (/dev/kyc), which signs the provider's
	// webhooks itself.
	Dev bool
}

// maxKYCWebhook bounds a provider's webhook body: theirs are a few kilobytes.
const maxKYCWebhook = 64 << 10

var errKYCSignature = errorf(http.StatusUnauthorized, "The webhook's signature does not match: it is refused.")

// KYCWebhook answers POST /api/kyc/{provider}: a provider's webhook, verified by its signature
// over the raw body (Sumsub: X-Payload-Digest, HMAC of X-Payload-Digest-Alg, SHA-256 by default;
// Blockpass: X-Hub-Signature, HMAC-SHA256), recorded as the wallet's new status. A bad signature
// is 401 and logged; the same event delivered again changes nothing (recorded: false); an event
// that changes no status, or names no wallet, is taken and ignored, so the provider stops
// resending it.
func (h *Handlers) KYCWebhook(c echo.Context) error {
	k := h.cfg.KYC
	provider := store.KYCProvider(c.Param("provider"))
	if k.Provider == "" || provider != k.Provider {
		return errorf(http.StatusNotFound, "No identity provider sends its webhooks here.")
	}
	body, err := io.ReadAll(http.MaxBytesReader(c.Response(), c.Request().Body, maxKYCWebhook))
	if err != nil {
		return errorf(http.StatusRequestEntityTooLarge, "The webhook's body is larger than an identity provider sends.")
	}
	if !kycSigned(provider, []byte(k.Secret), body, c.Request().Header) {
		h.log.Warn("kyc: a webhook with a bad signature was refused", "provider", provider, "ip", c.RealIP())
		return errKYCSignature
	}
	e, ok, err := kycEvent(provider, body)
	if err != nil {
		return errorf(http.StatusBadRequest, "The webhook's body is not the provider's JSON.")
	}
	if !ok {
		return c.JSON(http.StatusOK, map[string]any{"recorded": false})
	}
	sum := sha256.Sum256(body)
	id := hex.EncodeToString(sum[:])
	e.Event = &id
	added, err := h.store.AddKYCEvent(c.Request().Context(), e)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"recorded": added, "status": e.Status})
}

// kycSigned tells whether body carries provider's signature under secret.
func kycSigned(provider store.KYCProvider, secret, body []byte, header http.Header) bool {
	var alg func() hash.Hash
	var got string
	switch provider {
	case store.KYCSumsub:
		switch header.Get("X-Payload-Digest-Alg") {
		case "", "HMAC_SHA256_HEX":
			alg = sha256.New
		case "HMAC_SHA512_HEX":
			alg = sha512.New
		default: // SHA-1 among them: not taken
			return false
		}
		got = header.Get("X-Payload-Digest")
	case store.KYCBlockpass:
		alg, got = sha256.New, strings.TrimPrefix(header.Get("X-Hub-Signature"), "sha256=")
	default:
		return false
	}
	sig, err := hex.DecodeString(got)
	if err != nil || len(sig) == 0 {
		return false
	}
	m := hmac.New(alg, secret)
	m.Write(body)
	return hmac.Equal(sig, m.Sum(nil))
}

// KYCSign is the signature header (name, value) provider puts on body under secret: what dev
// mode's stand-in page sends, and what tests sign with.
func KYCSign(provider store.KYCProvider, secret, body []byte) (string, string) {
	m := hmac.New(sha256.New, secret)
	m.Write(body)
	sig := hex.EncodeToString(m.Sum(nil))
	if provider == store.KYCBlockpass {
		return "X-Hub-Signature", "sha256=" + sig
	}
	return "X-Payload-Digest", sig
}

// kycEvent reads a provider's webhook: the wallet it is about (its reference: Sumsub's
// externalUserId, Blockpass's refId) and its new status; ok is false for an event that changes
// no status or names no wallet.
func kycEvent(provider store.KYCProvider, body []byte) (e store.KYCEvent, ok bool, err error) {
	e.Provider = provider
	var ref string
	switch provider {
	case store.KYCSumsub:
		var w struct {
			Type           string `json:"type"`
			ExternalUserID string `json:"externalUserId"`
			ReviewResult   struct {
				ReviewAnswer      string   `json:"reviewAnswer"`
				ReviewRejectType  string   `json:"reviewRejectType"` // FINAL, or RETRY: the applicant may send again
				RejectLabels      []string `json:"rejectLabels"`
				ModerationComment string   `json:"moderationComment"`
			} `json:"reviewResult"`
		}
		if err := json.Unmarshal(body, &w); err != nil {
			return e, false, err
		}
		ref = w.ExternalUserID
		switch {
		case w.Type == "applicantReviewed" && w.ReviewResult.ReviewAnswer == "GREEN":
			e.Status = store.KYCVerified
		case w.Type == "applicantReviewed" && w.ReviewResult.ReviewAnswer == "RED" && w.ReviewResult.ReviewRejectType == "RETRY":
			// A document to send again: the check goes on, within the hold's days.
			e.Status = store.KYCPending
			e.Reason = kycReason(w.ReviewResult.ModerationComment, w.ReviewResult.RejectLabels)
		case w.Type == "applicantReviewed" && w.ReviewResult.ReviewAnswer == "RED":
			e.Status = store.KYCRejected
			e.Reason = kycReason(w.ReviewResult.ModerationComment, w.ReviewResult.RejectLabels)
		case w.Type == "applicantCreated" || w.Type == "applicantPending" || w.Type == "applicantOnHold":
			e.Status = store.KYCPending
		case w.Type == "applicantReset" || w.Type == "applicantDeleted":
			e.Status = store.KYCNone
		}
	case store.KYCBlockpass:
		var w struct {
			Event  string `json:"event"`
			RefID  string `json:"refId"`
			IsPing bool   `json:"isPing"`
		}
		if err := json.Unmarshal(body, &w); err != nil {
			return e, false, err
		}
		ref = w.RefID
		switch {
		case w.IsPing:
		case w.Event == "review.approved":
			e.Status = store.KYCVerified
		case w.Event == "review.rejected" || w.Event == "user.blocked":
			e.Status = store.KYCRejected
			e.Reason = kycReason(strings.TrimPrefix(w.Event, "user."), nil)
		case w.Event == "user.created" || w.Event == "user.readyToReview" || w.Event == "user.inReview":
			e.Status = store.KYCPending
		case w.Event == "user.deleted":
			e.Status = store.KYCNone
		}
	}
	if e.Status == "" || !common.IsHexAddress(ref) || !strings.HasPrefix(ref, "0x") {
		return e, false, nil
	}
	e.Address = strings.ToLower(ref)
	return e, true, nil
}

// kycReason is a provider's words for a rejection, kept for the buyer and the operator: its
// comment, else its labels; nil for none.
func kycReason(comment string, labels []string) *string {
	r := strings.TrimSpace(comment)
	if r == "" {
		r = strings.Join(labels, ", ")
	}
	if r == "" {
		return nil
	}
	if len(r) > 500 {
		r = r[:500]
	}
	return &r
}

// KYCStatus answers GET /api/kyc/{address}: the wallet's identity check now, {status} and
// nothing else, for the buy page.
func (h *Handlers) KYCStatus(c echo.Context) error {
	wallet, err := parseAddress(c.Param("address"))
	if err != nil {
		return err
	}
	e, err := h.store.KYCAt(c.Request().Context(), wallet, h.cfg.Now())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"status": e.Status})
}

// PutKYC answers PUT /api/admin/kyc/{address}, body {"status": "verified" | "rejected" | "none",
// "reason": "…"}: an admin sets a wallet's identity check by hand (a buyer verified elsewhere),
// audited and kept in its history.
func (h *Handlers) PutKYC(c echo.Context) error {
	wallet, err := parseAddress(c.Param("address"))
	if err != nil {
		return err
	}
	var body struct {
		Status store.KYCStatus `json:"status"`
		Reason string          `json:"reason"`
	}
	if err := decodeBody(c, &body); err != nil {
		return err
	}
	reason := strings.TrimSpace(body.Reason)
	switch {
	case body.Status != store.KYCVerified && body.Status != store.KYCRejected && body.Status != store.KYCNone:
		return errorf(http.StatusBadRequest, `status must be "verified", "rejected" or "none".`)
	case reason == "" || len(reason) > 500:
		return errorf(http.StatusBadRequest, "A wallet's identity check is set with a reason, up to 500 characters: it is kept in the audit.")
	}
	who := h.actor(c).Who
	e := store.KYCEvent{Address: wallet, Status: body.Status, Provider: store.KYCAdmin, Reason: &reason, By: &who}
	err = h.audited(c, store.ActionKYCPut, wallet, func(tx store.Tx, a *store.AuditEntry) error {
		a.After = map[string]any{"status": body.Status, "reason": reason}
		a.Outcome = store.AuditOutcome{Code: store.OutcomeKYCSet, Args: store.AuditArgs{Address: wallet, KYCStatus: body.Status, Reason: reason}}
		_, err := tx.AddKYCEvents(c.Request().Context(), []store.KYCEvent{e})
		return err
	})
	if err != nil {
		return err
	}
	history, err := h.store.KYCHistory(c.Request().Context(), wallet)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"address": wallet, "status": body.Status, "history": history})
}

// kycView is wallet's identity check at now as its buyer follows it: a rejection's words only
// to the wallet's own session (a page of another wallet, /buy?wallet=, tells its status alone).
func (h *Handlers) kycView(ctx context.Context, wallet string, now time.Time) (*views.KYC, error) {
	e, err := h.store.KYCAt(ctx, wallet, now)
	if err != nil {
		return nil, err
	}
	k := &views.KYC{Status: e.Status, FormURL: h.cfg.KYC.kycFormURL(wallet)}
	if views.SiteOf(ctx).SignedIn == wallet {
		k.Reason = e.Reason
	}
	return k, nil
}

// meKYC is wallet's identity check for /me, while a tier the buy page shows requires one; nil
// otherwise.
func (h *Handlers) meKYC(ctx context.Context, wallet string) (*views.KYC, error) {
	tiers, err := h.sale.TiersNow(ctx)
	if err != nil {
		return nil, err
	}
	for _, t := range tiers {
		if t.KYCRequired && t.Phase != store.PhaseOff && t.Phase != store.PhaseEnded && t.Phase != store.PhaseSoldOut {
			return h.kycView(ctx, wallet, h.cfg.Now())
		}
	}
	return nil, nil
}

// kycFormURL is the provider's form for wallet (its reference), or "" when there is no provider.
func (k KYCConfig) kycFormURL(wallet string) string {
	if k.FormURL == "" {
		return ""
	}
	sep := "?"
	if strings.Contains(k.FormURL, "?") {
		sep = "&"
	}
	param := "externalUserId"
	if k.Provider == store.KYCBlockpass {
		param = "refId"
	}
	return fmt.Sprintf("%s%s%s=%s", k.FormURL, sep, param, wallet)
}

// PutKYCList answers PUT /api/admin/kyc: a text/csv body of `address,reason` lines, as the
// denylist's, marks each wallet verified (a launchpad's list of the buyers it verified, the
// reason saying so), audited, each kept in its wallet's history. A line that cannot be read
// refuses the whole upload (400, naming the line).
func (h *Handlers) PutKYCList(c echo.Context) error {
	if err := csvUpload(c, "A list of verified wallets is sent as text/csv: one address,reason line per wallet."); err != nil {
		return err
	}
	list, err := store.ParseWalletReasons(c.Request().Body)
	if err != nil {
		return listError(err, func(le *store.AllowlistLineError) string {
			return listProblem(le, "a list", "an address and a reason separated by a comma, such as 0x…,verified by the launchpad")
		})
	}
	who := h.actor(c).Who
	events := make([]store.KYCEvent, len(list))
	for i, w := range list {
		reason := w.Reason
		events[i] = store.KYCEvent{Address: w.Address, Status: store.KYCVerified, Provider: store.KYCList, Reason: &reason, By: &who}
	}
	var added int
	err = h.audited(c, store.ActionKYCPut, "", func(tx store.Tx, a *store.AuditEntry) (err error) {
		added, err = tx.AddKYCEvents(c.Request().Context(), events)
		a.After = map[string]any{"rows": len(list)}
		a.Outcome = store.AuditOutcome{Code: store.OutcomeKYCSet, Args: store.AuditArgs{Wallets: len(list), KYCStatus: store.KYCVerified}}
		return err
	})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"rows": len(list), "recorded": added})
}

// errNoDevKYC is the dev verification page outside dev mode, where the provider's form stands.
var errNoDevKYC = errorf(http.StatusNotFound, "There is no such page: identity checks are done on the provider's form.")

// DevKYCPage answers GET /dev/kyc?externalUserId= (dev mode only): the stand-in for the
// provider's form, for the wallet the buy page's link names.
func (h *Handlers) DevKYCPage(c echo.Context) error {
	if !h.cfg.KYC.Dev {
		return errNoDevKYC
	}
	d := views.DevKYC{Outcome: c.QueryParam("outcome")}
	if q := c.QueryParam("externalUserId"); q != "" {
		wallet, err := parseAddress(q)
		if err != nil {
			return err
		}
		e, err := h.store.KYCAt(c.Request().Context(), wallet, h.cfg.Now())
		if err != nil {
			return err
		}
		d.Wallet, d.Status = wallet, e.Status
	}
	return render(c, http.StatusOK, views.DevKYCPage(d))
}

// DevKYCAnswer answers POST /dev/kyc (fields wallet, answer GREEN or RED; dev mode only): it sends
// Sumsub's applicantReviewed webhook for the wallet, signed with the secret, to this service's own
// webhook route over HTTP, as the provider would, and shows what came of it.
func (h *Handlers) DevKYCAnswer(c echo.Context) error {
	if !h.cfg.KYC.Dev {
		return errNoDevKYC
	}
	// A form's post (SameOrigin takes JSON only): another site's page may not answer for a wallet.
	if o := c.Request().Header.Get("Origin"); o != "" && o != h.cfg.PublicURL.Scheme+"://"+h.cfg.PublicURL.Host {
		return errorf(http.StatusForbidden, "Cross-site requests are not accepted here.")
	}
	wallet, err := parseAddress(c.FormValue("wallet"))
	if err != nil {
		return err
	}
	answer := c.FormValue("answer")
	if answer != "GREEN" && answer != "RED" {
		return errorf(http.StatusBadRequest, "The answer is GREEN or RED.")
	}
	review := map[string]any{"reviewAnswer": answer}
	if answer == "RED" {
		review["moderationComment"] = "the document could not be read"
		review["rejectLabels"] = []string{"UNSATISFACTORY_PHOTOS"}
	}
	body, err := json.Marshal(map[string]any{
		"applicantId": "dev-" + wallet[2:14], "inspectionId": "dev", "correlationId": fmt.Sprintf("dev-%d", time.Now().UnixNano()),
		"externalUserId": wallet, "levelName": "dev-level", "type": "applicantReviewed", "reviewResult": review,
		"reviewStatus": "completed", "createdAtMs": time.Now().UTC().Format("2006-01-02 15:04:05.000"),
	})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(c.Request().Context(), http.MethodPost, h.cfg.PublicURL.String()+"/api/kyc/sumsub", bytes.NewReader(body))
	if err != nil {
		return err
	}
	name, value := KYCSign(store.KYCSumsub, []byte(h.cfg.KYC.Secret), body)
	req.Header.Set(name, value)
	req.Header.Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
	client := &http.Client{Timeout: 10 * time.Second}
	outcome := "The provider's webhook was sent: your identity is verified."
	if answer == "RED" {
		outcome = "The provider's webhook was sent: your identity check is rejected."
	}
	res, err := client.Do(req)
	if err != nil {
		h.log.Warn("dev kyc: the webhook could not be sent", "err", err)
		outcome = "The webhook could not be sent to this service (PUBLIC_URL): the server's log says why."
	} else {
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			outcome = fmt.Sprintf("This service answered the webhook with %d.", res.StatusCode)
		}
	}
	return c.Redirect(http.StatusSeeOther, "/dev/kyc?externalUserId="+wallet+"&outcome="+url.QueryEscape(outcome))
}
