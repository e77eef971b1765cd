package handlers

import (
	"context"
	"crypto/hmac"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/labstack/echo/v4"

	"nodeledger/store"
	"nodeledger/views"
	"nodeledger/views/words"
)

// operatorPageHeld is how many of the oldest held payments the operator page lists.
const operatorPageHeld = 100

// screeningView is the operator page's screening section, with preview, the denylist upload being
// previewed (nil: none).
func (h *Handlers) screeningView(ctx context.Context, preview *views.DenylistPreview) (views.Screening, error) {
	sc := views.Screening{DenylistPreview: preview}
	if o := h.chain.SanctionsOracle(); o != (common.Address{}) {
		sc.Oracle = strings.ToLower(o.Hex())
	}
	held, err := h.store.HeldPayments(ctx, operatorPageHeld)
	if err != nil {
		return sc, err
	}
	counts, err := h.store.HeldCounts(ctx)
	if err != nil {
		return sc, err
	}
	for _, n := range counts {
		sc.HeldTotal += n
	}
	sc.Held = mapSlice(held, func(p store.HeldPayment) views.HeldRow {
		paid := views.ETH(p.ValueWei) + " ETH"
		if t := h.inToken(p.Payment); t != nil {
			paid = t.String()
		}
		return views.HeldRow{ID: p.ID, TxHash: p.TxHash, From: p.From, Paid: paid, Screening: heldLabel(p.Reason), CreatedAt: p.CreatedAt,
			ReleasedTo: p.ReleasedTo}
	})
	sc.Denylist, _, err = h.store.Denylist(ctx)
	return sc, err
}

// ReleaseFromPage answers POST /operator/held/{id}/release (fields to, reason): an admin releases
// a held payment, as the admin API does.
func (h *Handlers) ReleaseFromPage(c echo.Context) (string, error) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		return "", errorf(http.StatusBadRequest, "There is no such payment.")
	}
	to, reason := store.ReleaseTo(c.FormValue("to")), strings.TrimSpace(c.FormValue("reason"))
	p, err := h.releasePayment(c, id, to, reason)
	if err != nil {
		return "", err
	}
	return auditSentence(releaseOutcome(p, to, reason)) + " The next payments pass judges it.", nil
}

// denylistPreviewRows is how many of its first wallets the preview lists.
const denylistPreviewRows = 10

// PreviewDenylistFromPage answers POST /operator/denylist/preview: the chosen file (field csv) as
// it would be saved, or the line that refuses it (422), with nothing stored either way. As with
// allowlists, the preview carries the list back in its Save form with a MAC (listMAC).
func (h *Handlers) PreviewDenylistFromPage(c echo.Context) error {
	p := views.DenylistPreview{}
	entries, err := store.ParseWalletReasons(strings.NewReader(c.FormValue("csv")))
	if le := new(store.AllowlistLineError); errors.As(err, &le) {
		p.Problem = denylistProblem(le)
		return h.renderOperator(c, http.StatusUnprocessableEntity, operatorDraft{denylist: &p})
	} else if err != nil {
		return err
	}
	s, err := h.operatorSession(c)
	if err != nil {
		return err
	}
	p.Rows, p.First = len(entries), entries[:min(len(entries), denylistPreviewRows)]
	p.CSV = denylistText(entries)
	p.MAC = hex.EncodeToString(h.listMAC("denylist", s.CSRF, p.CSV))
	return h.renderOperator(c, http.StatusOK, operatorDraft{denylist: &p})
}

// SaveDenylistFromPage answers POST /operator/denylist: the list a preview showed (fields csv
// and mac) becomes the denylist from now on, audited like the admin API's upload; a list the
// preview did not show is refused (409).
func (h *Handlers) SaveDenylistFromPage(c echo.Context) error {
	s, err := h.operatorSession(c)
	if err != nil {
		return err
	}
	list := strings.ReplaceAll(c.FormValue("csv"), "\r\n", "\n") // a form's line breaks come back as CRLF
	mac, err := hex.DecodeString(c.FormValue("mac"))
	if err != nil || !hmac.Equal(mac, h.listMAC("denylist", s.CSRF, list)) {
		return errorf(http.StatusConflict, "This is not the denylist the preview showed: choose the file and preview it again, then save it.")
	}
	entries, err := store.ParseWalletReasons(strings.NewReader(list))
	if err != nil {
		return denylistError(err)
	}
	v, err := h.replaceDenylist(c, entries)
	if err != nil {
		return err
	}
	return h.redirectWithOutcome(c, "Saved the denylist: "+words.Count(v.Rows, "wallet", "wallets")+", in force from "+
		words.MinuteUTC(v.EffectiveAt)+".")
}

// denylistText writes entries as an upload the parser reads back to the same entries.
func denylistText(entries []store.WalletReason) string {
	var b strings.Builder
	b.WriteString("address,reason\n")
	for _, e := range entries {
		b.WriteString(e.Address + "," + e.Reason + "\n")
	}
	return b.String()
}
