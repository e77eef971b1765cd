package handlers

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"nodeledger/jobs"
	"nodeledger/store"
	"nodeledger/views"
)

const (
	// operatorCookie is the operator's session, signed like the wallet sessions.
	operatorCookie = "nl_operator"
	operatorTTL    = 12 * time.Hour
)

// RequireOperatorPage gates the operator page: with no ADMIN_KEY it does not exist (404). Its
// forms post only from our own origin; the session cookie is SameSite=Lax, so a cross-site form
// post arrives without it.
func (h *Handlers) RequireOperatorPage(next echo.HandlerFunc) echo.HandlerFunc {
	ours := h.cfg.PublicURL.Scheme + "://" + h.cfg.PublicURL.Host
	return func(c echo.Context) error {
		if h.cfg.AdminKey == "" {
			return echo.ErrNotFound
		}
		if origin := c.Request().Header.Get("Origin"); c.Request().Method == http.MethodPost && origin != "" && origin != ours {
			return errorf(http.StatusForbidden, "Cross-site requests are not accepted here.")
		}
		return next(c)
	}
}

// operatorSignedIn reports whether the request carries a live operator session.
func (h *Handlers) operatorSignedIn(c echo.Context) bool {
	s, err := h.sessions.Get(c.Request(), operatorCookie)
	if err != nil || s.IsNew {
		return false
	}
	exp, ok := s.Values["exp"].(int64)
	return ok && time.Now().Unix() < exp
}

// OperatorPage answers GET /operator: the sign-in form, or the operator's dashboard.
func (h *Handlers) OperatorPage(c echo.Context) error {
	if !h.operatorSignedIn(c) {
		return render(c, http.StatusOK, views.OperatorSignIn(""))
	}
	return h.renderOperator(c, http.StatusOK, h.takeOutcome(c), nil)
}

// OperatorLogin answers POST /operator/login (a form with the admin key).
func (h *Handlers) OperatorLogin(c echo.Context) error {
	if !keyMatches(c.FormValue("key"), h.cfg.AdminKey) {
		return render(c, http.StatusUnauthorized, views.OperatorSignIn("That key is not the operator's."))
	}
	s, _ := h.sessions.New(c.Request(), operatorCookie)
	s.Options.MaxAge = int(operatorTTL.Seconds())
	s.Values["exp"] = time.Now().Add(operatorTTL).Unix()
	if err := s.Save(c.Request(), c.Response()); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/operator")
}

// OperatorLogout answers POST /operator/logout.
func (h *Handlers) OperatorLogout(c echo.Context) error {
	c.SetCookie(h.cookie(operatorCookie, "", -time.Second))
	return c.Redirect(http.StatusSeeOther, "/operator")
}

// OperatorAction wraps an operator action: a signed-in operator only; htmx gets the fragment
// with the action's outcome, a plain form post a 303 to /operator (Post/Redirect/Get, so a
// refresh never posts again) that shows the outcome once.
func (h *Handlers) OperatorAction(act func(c echo.Context) (string, error)) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !h.operatorSignedIn(c) {
			return errorf(http.StatusUnauthorized, "Sign in as the operator first.")
		}
		outcome, err := act(c)
		if err != nil {
			return err
		}
		if c.Request().Header.Get("HX-Request") == "true" {
			return render(c, http.StatusOK, views.OperatorOutcome(outcome))
		}
		return h.redirectWithOutcome(c, outcome)
	}
}

// operatorFlash carries an action's outcome across its redirect: signed like the sessions, so
// the page only ever shows a sentence the server wrote, and gone once shown or after a minute.
const (
	operatorFlash    = "nl_operator_flash"
	operatorFlashTTL = time.Minute
)

func (h *Handlers) redirectWithOutcome(c echo.Context, outcome string) error {
	s, _ := h.sessions.New(c.Request(), operatorFlash)
	s.Options.MaxAge = int(operatorFlashTTL.Seconds())
	s.Values["outcome"] = outcome
	if err := s.Save(c.Request(), c.Response()); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/operator")
}

// takeOutcome returns the outcome the last redirect carried, and forgets it.
func (h *Handlers) takeOutcome(c echo.Context) string {
	s, err := h.sessions.Get(c.Request(), operatorFlash)
	if err != nil || s.IsNew {
		return ""
	}
	c.SetCookie(h.cookie(operatorFlash, "", -time.Second))
	outcome, _ := s.Values["outcome"].(string)
	return outcome
}

// RunPayments and RunCredit are the operator's buttons for the passes: the same functions the
// runner ticks and the cron routes run, told as sentences.
func (h *Handlers) RunPayments(c echo.Context) (string, error) {
	// Detached like the cron routes' passes; the pass bounds its own time.
	ctx := context.WithoutCancel(c.Request().Context())
	sum, err := h.jobs.Payments(ctx)
	if err != nil {
		return "", err
	}
	var scan *jobs.ScanState
	if s, err := h.jobs.ScanState(ctx); err == nil {
		scan = &s
	}
	return paymentsOutcome(sum, scan, time.Now()), nil
}

// RunCredit is the credit pass button.
func (h *Handlers) RunCredit(c echo.Context) (string, error) {
	sum, err := h.jobs.Credit(context.WithoutCancel(c.Request().Context()))
	if err != nil {
		return "", err
	}
	return creditOutcome(sum), nil
}

// paymentsOutcome tells a payments pass as sentences: what it minted and rejected and why, and,
// when it found nothing, why a payment just sent is not there yet (scan: nil when the chain could
// not be read).
func paymentsOutcome(sum jobs.PaymentsSummary, scan *jobs.ScanState, now time.Time) string {
	if !sum.Ran {
		return "The payments pass did not run: " + clause(sum.Reason) + "."
	}
	var out []string
	why := ""
	if reasons := distinctClauses(sum.Reasons); len(reasons) > 0 {
		why = ": " + strings.Join(reasons, "; ")
	}
	switch {
	case sum.Minted > 0 && sum.Rejected > 0:
		out = append(out, fmt.Sprintf("Minted %s, rejected %d%s.", views.Count(sum.Minted, "node", "nodes"), sum.Rejected, why))
	case sum.Minted > 0:
		out = append(out, "Minted "+views.Count(sum.Minted, "node", "nodes")+".")
	case sum.Rejected > 0:
		out = append(out, fmt.Sprintf("Rejected %s%s.", views.Count(sum.Rejected, "payment", "payments"), why))
	case sum.Seen > 0:
		out = append(out, "Recorded "+views.Count(sum.Seen, "new payment", "new payments")+".")
	}
	switch {
	case sum.Minting == 1:
		out = append(out, "1 mint is not mined yet: the next pass records it.")
	case sum.Minting > 1:
		out = append(out, fmt.Sprintf("%d mints are not mined yet: the next pass records them.", sum.Minting))
	}
	if sum.Reason != "" {
		out = append(out, sentence(sum.Reason))
	}
	if sum.Rewound > 0 {
		out = append(out, fmt.Sprintf("Took back %s after a reorganisation of the chain.", views.Count(int(sum.Rewound), "block", "blocks")))
	}
	if sum.Failed > 0 {
		out = append(out, fmt.Sprintf("Recorded %s.", views.Count(sum.Failed, "failed withdrawal", "failed withdrawals")))
	}
	if sum.Unattributed > 0 {
		out = append(out, fmt.Sprintf("ETH that no transaction explains arrived in %s: see Ledger against the chain.",
			views.Count(sum.Unattributed, "block", "blocks")))
	}
	if len(out) == 0 {
		return nothingNew(scan, now)
	}
	return strings.Join(out, " ")
}

// nothingNew says why a pass found nothing: a payment is read only once it is Confirmations deep.
func nothingNew(scan *jobs.ScanState, now time.Time) string {
	if scan == nil {
		return "Nothing new."
	}
	var why []string
	if scan.LastRead < 0 {
		why = append(why, "no block has been read yet")
	} else {
		why = append(why, fmt.Sprintf("block %d is the last one read", scan.LastRead))
	}
	why = append(why, fmt.Sprintf("the chain is at %d", scan.Head))
	if scan.BlockTime > 0 && !scan.HeadTime.IsZero() {
		// A head stamped ahead of our clock waits one block time, not more.
		if wait := min(scan.HeadTime.Add(scan.BlockTime).Sub(now), scan.BlockTime); wait > 0 {
			why = append(why, fmt.Sprintf("next block in about %d s", int((wait+time.Second-1)/time.Second)))
		} else {
			why = append(why, fmt.Sprintf("the last block was made %d s ago", int(now.Sub(scan.HeadTime)/time.Second)))
		}
	}
	wait := "a payment is read as soon as it is in a block"
	if scan.Confirmations > 0 {
		wait = "a payment waits for " + views.Count(int(scan.Confirmations), "confirmation", "confirmations")
	}
	return fmt.Sprintf("Nothing new: %s (%s).", wait, strings.Join(why, "; "))
}

// creditOutcome tells a credit pass as a sentence.
func creditOutcome(sum jobs.CreditSummary) string {
	if !sum.Ran {
		return "The credit pass did not run: " + clause(sum.Reason) + "."
	}
	if sum.DistributionID == 0 {
		return "No round: " + clause(sum.Note) + "."
	}
	total := "–"
	if wei, ok := new(big.Int).SetString(sum.TotalWei, 10); ok {
		total = views.ETH(wei)
	}
	credited := fmt.Sprintf("%s %s ETH in round %d", views.Count(int(sum.Nodes), "node", "nodes"), total, sum.DistributionID)
	switch {
	case sum.Status == "confirmed" && sum.Resumed:
		return "Finished a round left pending: credited " + credited + "."
	case sum.Status == "confirmed":
		return "Credited " + credited + "."
	}
	return "Crediting " + credited + ": " + clause(cmp.Or(sum.Note, "its transaction is not mined yet; the next pass finishes the round")) + "."
}

// clause makes a pass's reason fit after a colon: no final period, a lower-case first word
// unless it is an acronym ("ETH") or a number.
func clause(s string) string {
	s = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(s), "."))
	first, _, _ := strings.Cut(s, " ")
	if len(first) > 1 && first[1] >= 'a' && first[1] <= 'z' {
		s = strings.ToLower(s[:1]) + s[1:]
	}
	return s
}

// sentence makes a pass's reason a sentence of its own.
func sentence(s string) string {
	s = clause(s)
	if s == "" {
		return ""
	}
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// distinctClauses are the reasons, each once, in their first order.
func distinctClauses(reasons []string) []string {
	var out []string
	for _, r := range reasons {
		if r = clause(r); r != "" && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

// HoldMintingFromPage is the operator page's hold and release of minting.
func (h *Handlers) HoldMintingFromPage(c echo.Context) (string, error) {
	held := c.FormValue("held") == "true"
	if err := h.store.HoldMinting(c.Request().Context(), held); err != nil {
		return "", err
	}
	if held {
		return "Minting is held: payments are recorded and wait.", nil
	}
	return "Minting resumed: the next payments pass mints the payments that waited.", nil
}

// SetTierOnSale is the operator's on/off-sale toggle of a tier.
func (h *Handlers) SetTierOnSale(c echo.Context) (string, error) {
	id, err := parseTierID(c.Param("id"))
	if err != nil {
		return "", err
	}
	onSale := c.FormValue("onSale") == "true"
	err = h.store.SetOnSale(c.Request().Context(), id, onSale)
	if errors.Is(err, store.ErrNotFound) {
		return "", errorf(http.StatusNotFound, fmt.Sprintf("There is no tier %d.", id))
	}
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("Tier %d is now %s.", id, map[bool]string{true: "on sale", false: "off sale"}[onSale]), nil
}

// SaveTierFromPage answers POST /operator/tiers: the tier form, in ETH, checked by the same
// check as the admin API's PUT. A form with problems comes back with a sentence next to each
// field (422: nothing was stored, so posting it again changes nothing); a good one is stored and
// redirected like every action.
func (h *Handlers) SaveTierFromPage(c echo.Context) error {
	if !h.operatorSignedIn(c) {
		return errorf(http.StatusUnauthorized, "Sign in as the operator first.")
	}
	f := views.TierForm{
		Editing: c.FormValue("editing") == "true", ID: c.FormValue("id"), Label: c.FormValue("label"),
		PriceETH: c.FormValue("price"), MaxPerWallet: c.FormValue("maxPerWallet"), HoldingToken: c.FormValue("holdingToken"),
		HoldingAmount: c.FormValue("holdingAmount"), Multiplier: c.FormValue("payout"), OnSale: c.FormValue("onSale") == "true",
	}
	t, problems := tierFromForm(f).check()
	if len(problems) > 0 {
		f.Problems = problems
		return h.renderOperator(c, http.StatusUnprocessableEntity, "", &f)
	}
	if err := h.store.PutTier(c.Request().Context(), t); err != nil {
		return err
	}
	return h.redirectWithOutcome(c, tierSaved(t))
}

// tierSaved is the outcome of a saved tier.
func tierSaved(t store.Tier) string {
	s := fmt.Sprintf("Saved tier %d, %s: %s ETH, %d per wallet, payout %s", t.ID, t.Label, views.ETH(t.PriceWei),
		t.MaxPerWallet, views.Multiplier(t.PayoutBps))
	if t.HoldingToken != nil && t.HoldingWei.Sign() > 0 {
		s += fmt.Sprintf(", for holders of %s of the token %s", t.HoldingWei.String(), *t.HoldingToken)
	}
	return s + map[bool]string{true: ", on sale.", false: ", off sale."}[t.OnSale]
}

// tierFromForm reads the operator's form into a draft for the shared check, with a sentence
// for each field it cannot read.
func tierFromForm(f views.TierForm) tierDraft {
	d := tierDraft{label: f.Label, token: strings.TrimSpace(f.HoldingToken), onSale: f.OnSale, problems: tierProblems{}}
	if id := strings.TrimSpace(f.ID); digitsRe.MatchString(id) && len(id) <= 3 {
		d.id, _ = strconv.Atoi(id)
	} else {
		d.problems["id"] = "The tier number must be a whole number from 0 to 255."
	}
	switch price, tooPrecise := parseDecimal(f.PriceETH, 18); {
	case strings.TrimSpace(f.PriceETH) == "":
		d.problems["price"] = "The price is required: an amount in ETH, such as 0.1."
	case tooPrecise:
		d.problems["price"] = "The price has more than 18 decimals: the smallest amount is 0.000000000000000001 ETH."
	case price == nil:
		d.problems["price"] = "The price must be an amount in ETH, such as 0.1."
	default:
		d.price = price
	}
	if n := strings.TrimSpace(f.MaxPerWallet); digitsRe.MatchString(n) && len(n) <= 9 {
		v, _ := strconv.Atoi(n)
		d.maxPerWallet = &v
	} else {
		d.problems["maxPerWallet"] = "The allowance per wallet must be a whole number, such as 3."
	}
	if a := strings.TrimSpace(f.HoldingAmount); a != "" {
		if d.holding, _ = weiField(&a); d.holding == nil {
			d.problems["holdingAmount"] = "The holding amount must be a whole number of the token's smallest unit, such as 1000000000000000000 for 1 token of 18 decimals."
		}
	}
	m := strings.Trim(strings.TrimSpace(f.Multiplier), "×xX ")
	switch bps, tooPrecise := parseDecimal(m, 4); {
	case tooPrecise || bps == nil:
		d.problems["payout"] = "The payout multiplier must be a number such as 1 or 1.5, with at most 4 decimals."
	case !bps.IsInt64() || bps.Int64() > maxPayoutBps:
		d.problems["payout"] = "The payout multiplier must be from 0× to 100×."
	default:
		v := int(bps.Int64())
		d.payoutBps = &v
	}
	return d
}

// decimalRe is a plain decimal number: "1", "0.1", ".5", "2.".
var decimalRe = regexp.MustCompile(`^([0-9]*)(?:\.([0-9]*))?$`)

// parseDecimal reads a decimal number exactly, in units of 10^-places ("0.1" with 18 places is
// 100000000000000000): integer arithmetic, never a float. tooPrecise: more decimals than places
// (trailing zeros aside).
func parseDecimal(s string, places int) (x *big.Int, tooPrecise bool) {
	m := decimalRe.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil || m[1]+m[2] == "" || len(m[1]) > 80 {
		return nil, false
	}
	frac := strings.TrimRight(m[2], "0")
	if len(frac) > places {
		return nil, true
	}
	x, _ = new(big.Int).SetString(m[1]+frac+strings.Repeat("0", places-len(frac)), 10)
	return x, false
}

// renderOperator renders the dashboard with the outcome of the last action, and the tier form:
// form when it comes back with problems, else empty or, with ?edit=id, the tier to edit.
func (h *Handlers) renderOperator(c echo.Context, status int, outcome string, form *views.TierForm) error {
	ctx := c.Request().Context()
	o := views.Operator{Outcome: outcome, Now: time.Now(), PaymentAddress: h.cfg.PaymentAddress}
	var err error
	if o.Tiers, err = h.store.Tiers(ctx); err != nil {
		return err
	}
	if o.Refunds, err = h.store.Refunds(ctx, 50); err != nil {
		return err
	}
	if o.Held, err = h.store.MintingHeld(ctx); err != nil {
		return err
	}
	if o.Unattributed, err = h.store.UnattributedInflows(ctx, 20); err != nil {
		return err
	}
	if form != nil {
		o.TierForm = *form
	} else {
		o.TierForm = tierForm(o.Tiers, c.QueryParam("edit"))
	}
	o.InternalTransfers = h.jobs.InternalTransfers()
	if ob, err := h.jobs.Outbox(ctx); err == nil {
		o.Outbox, o.MaxFeeWei = &ob, h.jobs.MaxFee()
	}
	if rep, err := h.jobs.Drift(ctx, 0, 200); err == nil {
		o.Drift = driftView(rep)
	}
	return render(c, status, views.OperatorPage(o))
}

// tierForm is the tier form filled with the tier edit names, or empty with the number after
// the last tier's (tiers come ordered by number).
func tierForm(tiers []store.Tier, edit string) views.TierForm {
	for _, t := range tiers {
		if strconv.Itoa(t.ID) != edit {
			continue
		}
		f := views.TierForm{Editing: true, ID: edit, Label: t.Label, PriceETH: views.ETH(t.PriceWei),
			MaxPerWallet: strconv.Itoa(t.MaxPerWallet), Multiplier: strings.TrimSuffix(views.Multiplier(t.PayoutBps), "×"), OnSale: t.OnSale}
		if t.HoldingToken != nil {
			f.HoldingToken, f.HoldingAmount = *t.HoldingToken, t.HoldingWei.String()
		}
		return f
	}
	next := "1"
	if n := len(tiers); n > 0 && tiers[n-1].ID < 255 {
		next = strconv.Itoa(tiers[n-1].ID + 1)
	} else if n > 0 {
		next = "" // the last number is taken: the operator picks a free one
	}
	return views.TierForm{ID: next, MaxPerWallet: "1", Multiplier: "1"}
}

// driftView is a drift report as the operator page shows it.
func driftView(rep jobs.DriftReport) *views.Drift {
	d := &views.Drift{Checked: rep.Checked, Unattributed: rep.Unattributed}
	for _, n := range rep.Nodes {
		d.Nodes = append(d.Nodes, views.NodeDrift{ChainNodeID: n.ChainNodeID, Field: n.Field, Ledger: n.Ledger, Chain: n.Chain})
	}
	for _, p := range rep.Payments {
		d.Payments = append(d.Payments, p.TxHash)
	}
	return d
}
