package handlers

import (
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"nodeledger/store"
	"nodeledger/views/words"
)

// MaxListBody bounds a list upload (an allowlist, the denylist): store.MaxAllowlist lines
// of an allowlist's longest kind (an address, the largest allocation and a CRLF: 52 bytes, 5.2 MB
// in all) fit.
const MaxListBody = 6 << 20

// ErrListTooLarge is the 413 of a list upload larger than MaxListBody.
var ErrListTooLarge = errorf(http.StatusRequestEntityTooLarge,
	fmt.Sprintf("The list is too large: an upload is at most %d MB.", MaxListBody>>20))

// PutAllowlist answers PUT /api/admin/tiers/{id}/allowlist: a text/csv body of
// `address,allocation` lines (store.ParseAllowlist) replaces the tier's allowlist from now on,
// audited. A line that cannot be read refuses the whole upload (400, naming the line). An upload
// that lists no wallet over a list that has some is refused (409) unless ?confirm=true: a script
// that sends a missing file must not shut every listed wallet out of an allowlist phase.
func (h *Handlers) PutAllowlist(c echo.Context) error {
	id, err := parseTierID(c.Param("id"))
	if err != nil {
		return err
	}
	if err := csvUpload(c, "An allowlist is sent as text/csv: one address,allocation line per wallet."); err != nil {
		return err
	}
	// The body is bounded by MaxListBody where every body is bounded (web's bodyLimit).
	entries, err := store.ParseAllowlist(c.Request().Body)
	if err != nil {
		return allowlistError(err)
	}
	v, err := h.replaceAllowlist(c, id, entries, c.QueryParam("confirm") == "true")
	if emptying := new(emptyingError); errors.As(err, &emptying) {
		return errorf(http.StatusConflict, fmt.Sprintf("Tier %d's allowlist lists %s and this upload lists none: it would shut every one of them out. "+
			"To empty the list, send it again with ?confirm=true.", id, words.Count(emptying.rows, "wallet", "wallets")))
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"tier": strconv.Itoa(id), "rows": v.Rows,
		"totalAllocation": v.TotalAllocation, "effectiveAt": isoTime(&v.EffectiveAt)})
}

// emptyingError is an upload of no wallet over a list that has rows, not confirmed: nothing was
// stored.
type emptyingError struct{ rows int }

func (e *emptyingError) Error() string {
	return fmt.Sprintf("unconfirmed: empties an allowlist of %d", e.rows)
}

// replaceAllowlist makes entries tier id's allowlist from now on, audited, for the admin API and
// the operator page: a 404 when there is no such tier. No entries over a list that has some is
// an *emptyingError unless confirmed, judged against the list as locked in the same transaction.
func (h *Handlers) replaceAllowlist(c echo.Context, id int, entries []store.AllowlistEntry, confirmed bool) (store.AllowlistVersion, error) {
	ctx := c.Request().Context()
	var v store.AllowlistVersion
	err := h.audited(c, store.ActionAllowlistPut, strconv.Itoa(id), func(tx store.Tx, e *store.AuditEntry) (err error) {
		if len(entries) == 0 && !confirmed {
			n, err := tx.AllowlistRows(ctx, id)
			if err != nil {
				return err
			}
			if n > 0 {
				return &emptyingError{rows: n}
			}
		}
		if v, err = tx.ReplaceAllowlist(ctx, id, entries); err != nil {
			return err
		}
		e.After = map[string]any{"rows": v.Rows, "totalAllocation": v.TotalAllocation}
		e.Outcome = store.AuditOutcome{Code: store.OutcomeAllowlistSaved, Args: store.AuditArgs{Tier: &id, Wallets: v.Rows, Nodes: v.TotalAllocation}}
		return nil
	})
	if errors.Is(err, store.ErrNotFound) {
		return v, errorf(http.StatusNotFound, fmt.Sprintf("There is no tier %d.", id))
	}
	return v, err
}

// csvUpload refuses (415, saying refusal) a list upload whose body is not text/csv (or plain
// text): the one check of the admin API's list uploads.
func csvUpload(c echo.Context, refusal string) error {
	if mt, _, _ := mime.ParseMediaType(c.Request().Header.Get(echo.HeaderContentType)); mt != "text/csv" && mt != echo.MIMETextPlain {
		return errorf(http.StatusUnsupportedMediaType, refusal)
	}
	return nil
}

// allowlistError is the 400 of an allowlist upload that cannot be read, naming its line, or the
// 413 of one too large; any other error as it is.
func allowlistError(err error) error { return listError(err, allowlistProblem) }

// listError is the 400 of a list upload that cannot be read, said by problem, or the 413 of one
// too large; any other error as it is.
func listError(err error, problem func(*store.AllowlistLineError) string) error {
	var le *store.AllowlistLineError
	if tooLarge := new(http.MaxBytesError); errors.As(err, &tooLarge) {
		return ErrListTooLarge
	}
	if !errors.As(err, &le) {
		return err
	}
	return errorf(http.StatusBadRequest, problem(le))
}

// allowlistProblem says what is wrong with a line of an allowlist upload, for the admin API and
// the operator page's preview.
func allowlistProblem(le *store.AllowlistLineError) string {
	return listProblem(le, "an allowlist", "an address and an allocation separated by a comma, such as 0x…,2")
}

// listProblem says what is wrong with a line of a list upload (list: "an allowlist"), with what a
// line holds (columns) when it is not that.
func listProblem(le *store.AllowlistLineError, list, columns string) string {
	switch le.Problem {
	case store.AllowlistAddress:
		return fmt.Sprintf("Line %d: %q is not an address.", le.Line, le.Value)
	case store.AllowlistAllocation:
		return fmt.Sprintf("Line %d: %q is not an allocation: a whole number of nodes from 1 to %s.", le.Line, le.Value, words.Thousands(store.MaxAllocation))
	case store.DenylistReason:
		return fmt.Sprintf("Line %d: the reason is longer than %d characters.", le.Line, store.MaxDenylistReason)
	case store.AllowlistDuplicate:
		return fmt.Sprintf("Line %d: %s is on line %d already; each address may be listed once.", le.Line, le.Value, le.FirstLine)
	case store.AllowlistTooMany:
		return fmt.Sprintf("Line %d: %s has at most %s wallets.", le.Line, list, words.Thousands(store.MaxAllowlist))
	}
	return fmt.Sprintf("Line %d: expected %s.", le.Line, columns)
}

// AdminAllowlist answers GET /api/admin/tiers/{id}/allowlist: the tier's allowlist in force now,
// each wallet with the nodes of the tier it has (minted or being minted).
func (h *Handlers) AdminAllowlist(c echo.Context) error {
	id, err := parseTierID(c.Param("id"))
	if err != nil {
		return err
	}
	if _, err := h.tier(c, id); err != nil {
		return err
	}
	v, uses, err := h.store.Allowlist(c.Request().Context(), id, time.Now())
	if errors.Is(err, store.ErrNotFound) {
		err, v.Tier = nil, id
	}
	if err != nil {
		return err
	}
	var at *string
	if !v.EffectiveAt.IsZero() {
		at = isoTime(&v.EffectiveAt)
	}
	return c.JSON(http.StatusOK, map[string]any{"tier": strconv.Itoa(id), "effectiveAt": at, "rows": v.Rows,
		"totalAllocation": v.TotalAllocation, "entries": mapSlice(uses, func(u store.AllowlistUse) map[string]any {
			return map[string]any{"address": u.Address, "allocation": u.Allocation, "used": u.Used}
		})})
}

// AllowlistEntry answers GET /api/tiers/{id}/allowlist/{address}: whether the wallet is on the
// tier's allowlist in force now, its allocation (0 when not) and the nodes of the tier it has.
func (h *Handlers) AllowlistEntry(c echo.Context) error {
	id, err := parseTierID(c.Param("id"))
	if err != nil {
		return err
	}
	wallet, err := parseAddress(c.Param("address"))
	if err != nil {
		return err
	}
	if _, err := h.tier(c, id); err != nil {
		return err
	}
	ctx := c.Request().Context()
	allocation, err := h.store.Allocation(ctx, id, wallet, time.Now())
	if err != nil {
		return err
	}
	held, err := h.store.WalletHoldings(ctx, wallet, id)
	if err != nil {
		return err
	}
	used := held.OfTier
	return c.JSON(http.StatusOK, map[string]any{"listed": allocation > 0, "allocation": allocation, "used": used})
}
