package handlers

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"nodeledger/store"
	"nodeledger/views"
	"nodeledger/views/words"
)

// The operator page uploads an allowlist in two steps: the file is previewed (read by the admin
// API's parser, store.ParseAllowlist, and nothing stored), then saved. Nothing is kept on the
// server between the two: the preview carries the list back in its Save form, written one
// `address,allocation` line per wallet, with a MAC of it under the session secret, bound to the
// tier and the operator's session. Save takes the list only with that MAC, so what is saved is
// exactly what the preview showed, for that tier, to that operator; a changed list, or a preview
// from another session, is refused. Any instance can take either step.

// allowlistPreviewRows is how many of its first wallets the preview lists.
const allowlistPreviewRows = 10

// PreviewAllowlistFromPage answers POST /operator/allowlist/preview: the chosen file (field csv)
// for tier (field tier), as it would be saved: how many wallets and nodes in all and the first
// wallets, or the line that refuses it (422), with nothing stored either way.
func (h *Handlers) PreviewAllowlistFromPage(c echo.Context) error {
	id, err := parseTierID(c.FormValue("tier"))
	if err != nil {
		return err
	}
	t, err := h.tier(c, id)
	if err != nil {
		return err
	}
	p := views.AllowlistPreview{Tier: id, Label: t.Label}
	entries, err := store.ParseAllowlist(strings.NewReader(c.FormValue("csv")))
	if le := new(store.AllowlistLineError); errors.As(err, &le) {
		p.Problem = allowlistProblem(le)
		return h.renderOperator(c, http.StatusUnprocessableEntity, operatorDraft{allowlist: &p})
	} else if err != nil {
		return err
	}
	s, err := h.operatorSession(c)
	if err != nil {
		return err
	}
	p.Rows, p.First = len(entries), entries[:min(len(entries), allowlistPreviewRows)]
	for _, e := range entries {
		p.TotalAllocation += int64(e.Allocation)
	}
	p.CSV = allowlistText(entries)
	p.MAC = hex.EncodeToString(h.allowlistMAC(id, s.CSRF, p.CSV))
	if len(entries) == 0 {
		// Saving no wallet over a list shuts its wallets out: the preview asks to confirm that.
		now, _, err := h.store.Allowlist(c.Request().Context(), id, time.Now())
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		p.Empties = now.Rows
	}
	return h.renderOperator(c, http.StatusOK, operatorDraft{allowlist: &p})
}

// SaveAllowlistFromPage answers POST /operator/allowlist: the list a preview showed (fields
// tier, csv and mac, from the preview's Save form) becomes the tier's allowlist from now on,
// audited like the admin API's upload. A list the preview did not show is refused (409), as is
// an empty one over a list that has wallets without the preview's confirm box ticked (409, the
// preview again).
func (h *Handlers) SaveAllowlistFromPage(c echo.Context) error {
	id, err := parseTierID(c.FormValue("tier"))
	if err != nil {
		return err
	}
	s, err := h.operatorSession(c)
	if err != nil {
		return err
	}
	// A browser sends a form's line breaks as CRLF (HTML's form encoding); the list went out with LF.
	list := strings.ReplaceAll(c.FormValue("csv"), "\r\n", "\n")
	mac, err := hex.DecodeString(c.FormValue("mac"))
	if err != nil || !hmac.Equal(mac, h.allowlistMAC(id, s.CSRF, list)) {
		return errorf(http.StatusConflict, "This is not the allowlist the preview showed for this tier: choose the file and preview it again, then save it.")
	}
	entries, err := store.ParseAllowlist(strings.NewReader(list))
	if err != nil {
		return allowlistError(err)
	}
	v, err := h.replaceAllowlist(c, id, entries, c.FormValue("confirm") == "true")
	if emptying := new(emptyingError); errors.As(err, &emptying) {
		// The preview again, asking for the confirmation it did not carry: nothing was stored.
		t, err := h.tier(c, id)
		if err != nil {
			return err
		}
		p := views.AllowlistPreview{Tier: id, Label: t.Label, CSV: list, MAC: c.FormValue("mac"), Empties: emptying.rows, Unconfirmed: true}
		return h.renderOperator(c, http.StatusConflict, operatorDraft{allowlist: &p})
	}
	if err != nil {
		return err
	}
	return h.redirectWithOutcome(c, fmt.Sprintf("Saved tier %d's allowlist: %s, %s in all, in force from %s.", id,
		words.Count(v.Rows, "wallet", "wallets"), words.Count(int(v.TotalAllocation), "node", "nodes"), words.MinuteUTC(v.EffectiveAt)))
}

// allowlistText writes entries as an upload the parser reads back to the same entries.
func allowlistText(entries []store.AllowlistEntry) string {
	var b strings.Builder
	b.WriteString("address,allocation\n")
	for _, e := range entries {
		b.WriteString(e.Address + "," + strconv.Itoa(e.Allocation) + "\n")
	}
	return b.String()
}

// allowlistMAC vouches that list was previewed for tier in the session whose CSRF token is csrf.
func (h *Handlers) allowlistMAC(tier int, csrf, list string) []byte {
	return h.listMAC("allowlist "+strconv.Itoa(tier), csrf, list)
}

// listMAC vouches that list was previewed as what (an allowlist of a tier, the denylist) in the
// session whose CSRF token is csrf.
func (h *Handlers) listMAC(what, csrf, list string) []byte {
	m := hmac.New(sha256.New, h.cfg.SessionSecret)
	fmt.Fprintf(m, "operator list preview\x00%s\x00%s\x00", what, csrf)
	m.Write([]byte(list))
	return m.Sum(nil)
}
