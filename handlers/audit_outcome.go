package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"nodeledger/chain"
	"nodeledger/jobs"
	"nodeledger/jobs/sale"
	"nodeledger/store"
	"nodeledger/views"
	"nodeledger/views/words"
)

// heldFor says what held a payment the screening held, after "held".
func heldFor(code store.ReasonCode) string {
	switch code {
	case sale.Sanctioned:
		return "by the sanctions screening"
	case sale.Denylisted:
		return "for the operator's denylist"
	}
	return "for " + strings.ToLower(sale.Entry(code).Label)
}

// auditSentence tells what came of an operator action, from its code and values: the one place
// the audit's sentences are written, for the flash an action answers with, the operator page's
// audit, GET /api/admin/audit and the audit export alike, so each says what the operator was told.
func auditSentence(o store.AuditOutcome) string {
	a := o.Args
	tier := 0
	if a.Tier != nil {
		tier = *a.Tier
	}
	switch o.Code {
	case store.OutcomeSignedIn:
		return fmt.Sprintf("Signed in as %s.", a.Role)
	case store.OutcomeSignedOut:
		return "Signed out."
	case store.OutcomeOperatorAdded:
		return fmt.Sprintf("Added %s as %s: it can sign in now.", a.Address, a.Role)
	case store.OutcomeOperatorUnchanged:
		return fmt.Sprintf("%s is already %s: nothing changed.", a.Address, a.Role)
	case store.OutcomeOperatorRoleChanged:
		return fmt.Sprintf("%s is now %s, no longer %s; its sessions ended.", a.Address, a.Role, a.Was)
	case store.OutcomeOperatorRemoved:
		return fmt.Sprintf("Removed %s from the operator list; its sessions ended.", a.Address)
	case store.OutcomeOperatorSetBySetting:
		return "Set by the OPERATORS setting."
	case store.OutcomeOperatorRemovedBySetting:
		return "Removed: the OPERATORS setting no longer names it."
	case store.OutcomeTierOnSale:
		// Switched on, a tier sells while its times and supply allow, which may not be now.
		return fmt.Sprintf("Tier %d is now switched on: it sells while its times and supply allow.", tier)
	case store.OutcomeTierOffSale:
		return fmt.Sprintf("Tier %d is now off sale.", tier)
	case store.OutcomeTierSaved:
		return tierSavedSentence(tier, a)
	case store.OutcomeAllowlistSaved:
		return fmt.Sprintf("Tier %d's allowlist is now %s, with %s in all.", tier,
			words.Count(a.Wallets, "wallet", "wallets"), words.Count(int(a.Nodes), "node", "nodes"))
	case store.OutcomeMintingHeld:
		return "Minting is held: payments are recorded and wait."
	case store.OutcomeMintingResumed:
		return "Minting resumed: the next payments pass mints the payments that waited."
	case store.OutcomeBatchProposed, store.OutcomeBatchApproved, store.OutcomeBatchExecuted,
		store.OutcomeBatchFailed, store.OutcomeBatchVoid, store.OutcomeBatchReverted, store.OutcomeBatchVoidRefunded:
		return batchSentence(o)
	case store.OutcomeReferralCodeSaved:
		return referralSavedSentence(a)
	case store.OutcomePaymentReleased:
		to := "to be minted"
		if a.ReleaseTo == store.ReleaseToRefund {
			to = "to be refunded"
		}
		return fmt.Sprintf("Released payment %s from %s, held %s, %s: %q.", a.Payment, a.Address, heldFor(a.HeldFor), to, a.Reason)
	case store.OutcomeKYCSet:
		if a.Address == "" { // a list uploaded
			return fmt.Sprintf("Marked %s verified, from a list.", words.Count(a.Wallets, "wallet", "wallets"))
		}
		return fmt.Sprintf("Set the identity check of %s to %s: %q.", a.Address, a.KYCStatus, a.Reason)
	case store.OutcomeDenylistSaved:
		return fmt.Sprintf("The denylist is now %s.", words.Count(a.Wallets, "wallet", "wallets"))
	case store.OutcomePaymentsPass:
		var sum jobs.PaymentsSummary
		var scan *jobs.ScanState
		if err := json.Unmarshal(a.Summary, &sum); err != nil {
			break
		}
		if a.Scan != nil {
			var s scanArgs
			if err := json.Unmarshal(a.Scan, &s); err != nil {
				break
			}
			scan = s.state()
		}
		at := time.Time{}
		if a.At != nil {
			at = *a.At
		}
		return paymentsOutcome(sum, scan, at)
	case store.OutcomeCreditPass:
		var sum jobs.CreditSummary
		if err := json.Unmarshal(a.Summary, &sum); err != nil {
			break
		}
		return creditOutcome(sum)
	case store.OutcomePassFailed:
		_, msg, _ := Classify(passFailures[a.Failure])
		return "Failed: " + msg
	case store.OutcomeWebhookAdded:
		return fmt.Sprintf("Added webhook #%d: %s gets %s.", a.Webhook, a.URL, eventNames(a.Events))
	case store.OutcomeWebhookDeleted:
		return fmt.Sprintf("Deleted webhook #%d, with its deliveries: nothing more goes to it.", a.Webhook)
	case store.OutcomeWebhookRolled:
		until := time.Time{}
		if a.Until != nil {
			until = *a.Until
		}
		return fmt.Sprintf("Rolled webhook #%d's secret: the old one signs too until %s.", a.Webhook, words.MinuteUTC(until))
	case store.OutcomeWebhookEnabled:
		return fmt.Sprintf("Switched webhook #%d on: the delivery it gave up on is tried first.", a.Webhook)
	case store.OutcomeWebhookRedelivered:
		return fmt.Sprintf("Queued %s (%s) again for webhook #%d.", a.EventType, a.EventID, a.Webhook)
	case store.OutcomeSweepSent:
		return fmt.Sprintf("Sweep %d: sending %s from the payments wallet to the treasury (transaction %s).", a.Sweep, swept(a), a.TxHash)
	case store.OutcomeSweepDone:
		return fmt.Sprintf("Sweep %d: the treasury received %s (transaction %s).", a.Sweep, swept(a), a.TxHash)
	case store.OutcomeSweepFailed:
		return fmt.Sprintf("Sweep %d of %s reverted (transaction %s): the payments wallet still holds it.", a.Sweep, swept(a), a.TxHash)
	case store.OutcomeSweepVoid:
		return fmt.Sprintf("Sweep %d of %s was never mined: another transaction of the payments wallet took its nonce. The next sweep pass decides afresh.",
			a.Sweep, swept(a))
	case store.OutcomeOther:
		return a.Text
	}
	// A summary that no longer reads (a pass's JSON changed shape), or a code this version does
	// not know: the code is still better than nothing.
	return string(o.Code)
}

// tierSavedOutcome is the outcome of saving tier t, with the holding token's symbol and
// decimals as the chain tells them now, so the audit says it in the token's units for good.
func (h *Handlers) tierSavedOutcome(ctx context.Context, t store.Tier) store.AuditOutcome {
	a := store.AuditArgs{Tier: &t.ID, Label: t.Label, PriceWei: t.PriceWei, Tokens: h.sale.TokenPrices(t), MaxPerWallet: t.MaxPerWallet,
		Supply: t.Supply, StartsAt: t.StartsAt, EndsAt: t.EndsAt, AllowlistUntil: t.AllowlistUntil,
		OpensAfterTier: t.OpensAfterTier, Enabled: t.Enabled}
	if t.HoldingToken != nil && t.HoldingWei.Int != nil && t.HoldingWei.Sign() > 0 {
		a.HoldingToken, a.HoldingWei = t.HoldingToken, t.HoldingWei
		if tok, err := h.chain.TokenInfo(ctx, common.HexToAddress(*t.HoldingToken)); err == nil {
			decimals := int(tok.Decimals)
			a.TokenSymbol, a.TokenDecimals = tok.Symbol, &decimals
		}
	}
	return store.AuditOutcome{Code: store.OutcomeTierSaved, Args: a}
}

// swept is what a sweep moved: "12.5 ETH", or "300 USDC".
func swept(a store.AuditArgs) string {
	if len(a.Tokens) == 1 {
		return a.Tokens[0].String()
	}
	return views.ReadableETH(a.AmountWei) + " ETH"
}

// tierSavedSentence tells a saved tier, the holding threshold in its token's units where the
// token told them.
func tierSavedSentence(id int, a store.AuditArgs) string {
	prices := []string{views.ETH(a.PriceWei) + " ETH"}
	for _, p := range a.Tokens {
		prices = append(prices, p.String())
	}
	s := fmt.Sprintf("Saved tier %d, %s: %s, %d per wallet", id, a.Label, words.OrList(prices), a.MaxPerWallet)
	if a.HoldingToken != nil && a.HoldingWei.Int != nil && a.HoldingWei.Sign() > 0 {
		if a.TokenDecimals != nil {
			s += fmt.Sprintf(", for holders of %s (the token %s)", store.Token{Symbol: a.TokenSymbol, Decimals: *a.TokenDecimals}.Units(a.HoldingWei.Int), *a.HoldingToken)
		} else {
			s += fmt.Sprintf(", for holders of %s base units of the token %s", a.HoldingWei.String(), *a.HoldingToken)
		}
	}
	if a.Supply != nil {
		s += ", " + words.Count(*a.Supply, "node", "nodes") + " in all"
	}
	if a.StartsAt != nil {
		s += ", from " + words.MinuteUTC(*a.StartsAt)
	}
	if a.EndsAt != nil {
		s += ", until " + words.MinuteUTC(*a.EndsAt)
	}
	if a.AllowlistUntil != nil {
		s += ", allowlist only until " + words.MinuteUTC(*a.AllowlistUntil)
	}
	if a.OpensAfterTier != nil {
		s += fmt.Sprintf(", opening once tier %d sells out", *a.OpensAfterTier)
	}
	return s + map[bool]string{true: ", switched on.", false: ", switched off."}[a.Enabled]
}

// paymentsPassOutcome is the outcome of a payments pass run from the page, told at now.
func paymentsPassOutcome(sum jobs.PaymentsSummary, scan *jobs.ScanState, now time.Time) (store.AuditOutcome, error) {
	a := store.AuditArgs{At: &now}
	var err error
	if a.Summary, err = json.Marshal(sum); err != nil {
		return store.AuditOutcome{}, err
	}
	if scan != nil {
		if a.Scan, err = json.Marshal(scanArgsOf(*scan)); err != nil {
			return store.AuditOutcome{}, err
		}
	}
	return store.AuditOutcome{Code: store.OutcomePaymentsPass, Args: a}, nil
}

// creditPassOutcome is the outcome of a credit pass run from the page.
func creditPassOutcome(sum jobs.CreditSummary) (store.AuditOutcome, error) {
	b, err := json.Marshal(sum)
	return store.AuditOutcome{Code: store.OutcomeCreditPass, Args: store.AuditArgs{Summary: b}}, err
}

// scanArgs is a jobs.ScanState as the audit keeps it, with names of its own: the audit outlives
// the struct's shape.
type scanArgs struct {
	LastRead      int64     `json:"lastRead"`
	Head          uint64    `json:"head"`
	Confirmations uint64    `json:"confirmations"`
	HeadTime      time.Time `json:"headTime,omitzero"`
	BlockTimeNs   int64     `json:"blockTimeNs,omitempty"`
}

func scanArgsOf(s jobs.ScanState) scanArgs {
	return scanArgs{LastRead: s.LastRead, Head: s.Head, Confirmations: s.Confirmations, HeadTime: s.HeadTime, BlockTimeNs: int64(s.BlockTime)}
}

func (s scanArgs) state() *jobs.ScanState {
	return &jobs.ScanState{LastRead: s.LastRead, Head: s.Head, Confirmations: s.Confirmations, HeadTime: s.HeadTime, BlockTime: time.Duration(s.BlockTimeNs)}
}

// passFailures are the kinds of error a pass run from the page fails with, each as an error
// that Classify tells as that kind: the audit says it in Classify's words. A pass returns no
// echo error (jobs does not import echo), so Classify's other answers do not arise.
var passFailures = map[store.PassFailure]error{
	store.PassFailureLedger:   store.ErrUnavailable,
	store.PassFailureChain:    chain.ErrUnavailable,
	store.PassFailureSigner:   chain.ErrSignerRefused,
	store.PassFailureTimedOut: context.DeadlineExceeded,
	store.PassFailureInternal: errors.New("internal"),
}

// passFailure is the outcome of a pass that failed with err, its kind picked in Classify's order.
func passFailure(err error) store.AuditOutcome {
	kind := store.PassFailureInternal
	switch {
	case errors.Is(err, store.ErrUnavailable):
		kind = store.PassFailureLedger
	case errors.Is(err, chain.ErrUnavailable):
		kind = store.PassFailureChain
	case errors.Is(err, chain.ErrSignerRefused):
		kind = store.PassFailureSigner
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		kind = store.PassFailureTimedOut
	}
	return store.AuditOutcome{Code: store.OutcomePassFailed, Args: store.AuditArgs{Failure: kind}}
}

// auditJSON is an audit entry as GET /api/admin/audit lists it: the outcome as the operator was
// told it, and its code for scripts.
func auditJSON(r store.AuditRecord) map[string]any {
	return map[string]any{"at": isoTime(&r.At), "actor": r.Actor, "ip": r.IP, "action": r.Action,
		"target": r.Target, "before": rawJSON(r.Before), "after": rawJSON(r.After),
		"outcome": auditSentence(r.Outcome), "outcomeCode": r.Outcome.Code}
}

// tellOutcomes writes each audit outcome of an export's row, the fields at (its code and values
// as JSON: store.Export.OutcomeFields), as the sentence the operator was told.
func tellOutcomes(fields []string, at []int) error {
	for _, i := range at {
		var o store.AuditOutcome
		if err := json.Unmarshal([]byte(fields[i]), &o); err != nil {
			return fmt.Errorf("an audit outcome: %w", err)
		}
		fields[i] = auditSentence(o)
	}
	return nil
}

// referralSavedSentence tells a partner code's terms as saved, in force from that second.
func referralSavedSentence(a store.AuditArgs) string {
	s := fmt.Sprintf("Saved referral code %s of %s: %s off for the buyer, %s to its owner", a.Code, a.Address,
		views.Percent(a.DiscountBps), views.Percent(a.CommissionBps))
	if a.Parent != nil && a.ParentBps != nil {
		s += fmt.Sprintf(", %s to the partner above, %s", views.Percent(*a.ParentBps), *a.Parent)
	}
	if a.Until != nil {
		s += ", until " + views.UTC(*a.Until)
	} else {
		s += ", with no end"
	}
	if a.Enabled {
		return s + "; switched on, in force from now."
	}
	return s + "; switched off: it gives nothing from now."
}

// auditRowSentence is how the operator page tells an audit entry: what changed, from what to
// what, where the entry keeps the value before and after (a tier's settings); else its outcome.
func auditRowSentence(r store.AuditRecord) string {
	if r.Action == store.ActionTierPut && r.Before != nil && r.After != nil {
		var before, after tierJSON
		if json.Unmarshal([]byte(*r.Before), &before) == nil && json.Unmarshal([]byte(*r.After), &after) == nil {
			if changes := tierChanges(before, after); len(changes) > 0 {
				return fmt.Sprintf("Changed tier %s (%s): %s.", after.ID, after.Label, strings.Join(changes, "; "))
			}
		}
	}
	return auditSentence(r.Outcome)
}

// tierChanges are the settings of a tier (as the audit keeps it) that differ from before to
// after, each "its price from 0.1 to 0.12 ETH".
func tierChanges(before, after tierJSON) []string {
	var out []string
	changed := func(what, from, to string) {
		if from != to {
			out = append(out, what+" from "+from+" to "+to)
		}
	}
	at := func(t *string) string {
		if t == nil {
			return "none"
		}
		if v, err := time.Parse(time.RFC3339Nano, *t); err == nil {
			return words.MinuteUTC(v)
		}
		return *t
	}
	supply := func(n *int) string {
		if n == nil {
			return "no limit"
		}
		return words.Thousands(*n)
	}
	eth := func(wei string) string {
		if v, ok := new(big.Int).SetString(wei, 10); ok {
			return views.ETH(v)
		}
		return wei + " wei"
	}
	changed("its label", strconv.Quote(before.Label), strconv.Quote(after.Label))
	if before.PriceWei != after.PriceWei {
		out = append(out, "its price from "+eth(before.PriceWei)+" to "+eth(after.PriceWei)+" ETH")
	}
	changed("its limit per wallet", strconv.Itoa(before.MaxPerWallet), strconv.Itoa(after.MaxPerWallet))
	changed("its supply", supply(before.Supply), supply(after.Supply))
	changed("its start", at(before.StartsAt), at(after.StartsAt))
	changed("its end", at(before.EndsAt), at(after.EndsAt))
	changed("its allowlist phase's end", at(before.AllowlistUntil), at(after.AllowlistUntil))
	if before.Enabled != after.Enabled {
		out = append(out, map[bool]string{true: "switched it on", false: "switched it off"}[after.Enabled])
	}
	if before.KYCRequired != after.KYCRequired {
		out = append(out, map[bool]string{true: "required an identity check", false: "dropped the identity check"}[after.KYCRequired])
	}
	return out
}
