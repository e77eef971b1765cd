package store

import (
	"context"
	"database/sql/driver"
	"encoding/json"
	"time"
)

// Actor is who did an operator action, and from which client address.
type Actor struct {
	Who string // an operator's address, or "admin key <fingerprint>"
	IP  string
}

// AuditAction names what an operator did; the audit stores it as written here.
type AuditAction string

const (
	ActionSignIn           AuditAction = "operator.sign-in"
	ActionSignOut          AuditAction = "operator.sign-out"
	ActionOperatorPut      AuditAction = "operator.put"
	ActionOperatorRemove   AuditAction = "operator.remove"
	ActionTierPut          AuditAction = "tier.put"
	ActionTierOnSale       AuditAction = "tier.on-sale"
	ActionTierOffSale      AuditAction = "tier.off-sale"
	ActionAllowlistPut     AuditAction = "tier.allowlist"
	ActionMintingHold      AuditAction = "minting.hold"
	ActionMintingResume    AuditAction = "minting.resume"
	ActionPassPayments     AuditAction = "pass.payments"
	ActionPassCredit       AuditAction = "pass.credit"
	ActionWebhookAdd       AuditAction = "webhook.add"
	ActionWebhookDelete    AuditAction = "webhook.delete"
	ActionWebhookRoll      AuditAction = "webhook.roll-secret"
	ActionWebhookEnable    AuditAction = "webhook.enable"
	ActionWebhookRedeliver AuditAction = "webhook.redeliver"
	// A treasury batch of any kind (AuditArgs.Kind) proposed, approved by an owner, and what the
	// chain made of it: executed or failed by the transaction its actor sent, or void once the
	// Safe took its nonce for another transaction.
	ActionBatchPropose AuditAction = "treasury-batch.propose"
	ActionBatchApprove AuditAction = "treasury-batch.approve"
	ActionBatchExecute AuditAction = "treasury-batch.execute"
	ActionReferralAdd  AuditAction = "referral-code.add"
	ActionReferralPut  AuditAction = "referral-code.put"
	// The screening's decisions.
	ActionPaymentRelease AuditAction = "payment.release"
	ActionDenylistPut    AuditAction = "denylist.put"
	ActionKYCPut         AuditAction = "kyc.put"
)

// AuditEntry is one operator action to record. Before and After are the changed value, written
// as JSON; nil for none.
type AuditEntry struct {
	Actor   Actor
	Action  AuditAction
	Target  string // which: a tier id, an address; "" for the service as a whole
	Before  any
	After   any
	Outcome AuditOutcome // what came of it: the operator is told it as a sentence
}

// AuditOutcomeCode says what came of an operator action (operator_audit.outcome_code); the
// sentence the operator reads is written from it and its AuditArgs where it is shown (the
// operator page, the admin API, the audit export), so the audit keeps no sentence.
type AuditOutcomeCode string

// The codes, each with the AuditArgs it carries.
const (
	OutcomeSignedIn  AuditOutcomeCode = "signed_in"  // Role
	OutcomeSignedOut AuditOutcomeCode = "signed_out" // none

	OutcomeOperatorAdded       AuditOutcomeCode = "operator_added"        // Address, Role
	OutcomeOperatorUnchanged   AuditOutcomeCode = "operator_unchanged"    // Address, Role
	OutcomeOperatorRoleChanged AuditOutcomeCode = "operator_role_changed" // Address, Role, Was
	OutcomeOperatorRemoved     AuditOutcomeCode = "operator_removed"      // Address
	// The OPERATORS setting put an operator on the list, or took it off, at a start: none.
	OutcomeOperatorSetBySetting     AuditOutcomeCode = "operator_set_by_setting"
	OutcomeOperatorRemovedBySetting AuditOutcomeCode = "operator_removed_by_setting"

	OutcomeTierOnSale  AuditOutcomeCode = "tier_on_sale"  // Tier
	OutcomeTierOffSale AuditOutcomeCode = "tier_off_sale" // Tier
	// OutcomeTierSaved: Tier and the tier's settings as saved, with the holding token's symbol
	// and decimals as the token told them then.
	OutcomeTierSaved      AuditOutcomeCode = "tier_saved"
	OutcomeAllowlistSaved AuditOutcomeCode = "allowlist_saved" // Tier, Wallets, Nodes

	OutcomeMintingHeld    AuditOutcomeCode = "minting_held"    // none
	OutcomeMintingResumed AuditOutcomeCode = "minting_resumed" // none

	OutcomePaymentsPass AuditOutcomeCode = "payments_pass" // Summary, Scan, At
	OutcomeCreditPass   AuditOutcomeCode = "credit_pass"   // Summary
	OutcomePassFailed   AuditOutcomeCode = "pass_failed"   // Failure

	OutcomeWebhookAdded       AuditOutcomeCode = "webhook_added"         // Webhook, URL (as shown), Events
	OutcomeWebhookDeleted     AuditOutcomeCode = "webhook_deleted"       // Webhook
	OutcomeWebhookRolled      AuditOutcomeCode = "webhook_secret_rolled" // Webhook, Until
	OutcomeWebhookEnabled     AuditOutcomeCode = "webhook_enabled"       // Webhook
	OutcomeWebhookRedelivered AuditOutcomeCode = "webhook_redelivered"   // Webhook, EventType, EventID

	// A sweep of the payments wallet to the treasury (the target): Sweep, AmountWei, TxHash.
	OutcomeSweepSent   AuditOutcomeCode = "sweep_sent"   // signed and stored, then sent
	OutcomeSweepDone   AuditOutcomeCode = "sweep_done"   // mined: the treasury has it
	OutcomeSweepFailed AuditOutcomeCode = "sweep_failed" // mined and reverted
	OutcomeSweepVoid   AuditOutcomeCode = "sweep_void"   // never mined: its nonce was taken
	// A treasury batch: Batch and its Kind always. Proposed: Refunds (a refund batch's payments)
	// or Commissions and Referrers (a commission batch's), AmountWei, Tokens, Nonce.
	OutcomeBatchProposed AuditOutcomeCode = "treasury_batch_proposed"
	OutcomeBatchApproved AuditOutcomeCode = "treasury_batch_approved" // Address (the owner), Approvals, Threshold
	OutcomeBatchExecuted AuditOutcomeCode = "treasury_batch_executed" // TxHash
	OutcomeBatchFailed   AuditOutcomeCode = "treasury_batch_failed"   // TxHash
	OutcomeBatchVoid     AuditOutcomeCode = "treasury_batch_void"     // Nonce
	// A batch the ledger voided: Payment, in it, was refunded by hand by TxHash in Block.
	OutcomeBatchVoidRefunded AuditOutcomeCode = "treasury_batch_void_refunded"
	// A transaction sent to execute a batch that the Safe refused: TxHash, SafeError.
	OutcomeBatchReverted AuditOutcomeCode = "treasury_batch_reverted"
	// A partner referral code made or changed: Code, Address (its owner), its terms (Discount,
	// Commission, Parent, ParentBps, Until for its expiry), Enabled.
	OutcomeReferralCodeSaved AuditOutcomeCode = "referral_code_saved"
	// A held payment released: Payment (its transaction), Address (its payer), HeldFor,
	// ReleaseTo, Reason (the admin's words).
	OutcomePaymentReleased AuditOutcomeCode = "payment_released"
	// The denylist replaced: Wallets.
	OutcomeDenylistSaved AuditOutcomeCode = "denylist_saved"
	// A wallet's identity check set by hand: Address, KYCStatus, Reason; or a list of wallets
	// marked verified: Wallets.
	OutcomeKYCSet AuditOutcomeCode = "kyc_set"

	// OutcomeOther: an outcome recorded before the codes that matched none of their sentences
	// (migration 0024): Text, as it was written.
	OutcomeOther AuditOutcomeCode = "other"
)

// AuditOutcomeCodes are every code (the CHECK of migration 0024 lists the same).
var AuditOutcomeCodes = []AuditOutcomeCode{OutcomeSignedIn, OutcomeSignedOut,
	OutcomeOperatorAdded, OutcomeOperatorUnchanged, OutcomeOperatorRoleChanged, OutcomeOperatorRemoved,
	OutcomeOperatorSetBySetting, OutcomeOperatorRemovedBySetting,
	OutcomeTierOnSale, OutcomeTierOffSale, OutcomeTierSaved, OutcomeAllowlistSaved,
	OutcomeMintingHeld, OutcomeMintingResumed,
	OutcomePaymentsPass, OutcomeCreditPass, OutcomePassFailed,
	OutcomeWebhookAdded, OutcomeWebhookDeleted, OutcomeWebhookRolled, OutcomeWebhookEnabled, OutcomeWebhookRedelivered,
	OutcomeSweepSent, OutcomeSweepDone, OutcomeSweepFailed, OutcomeSweepVoid,
	OutcomeBatchProposed, OutcomeBatchApproved, OutcomeBatchExecuted, OutcomeBatchFailed, OutcomeBatchVoid,
	OutcomeBatchReverted, OutcomeReferralCodeSaved, OutcomeBatchVoidRefunded,
	OutcomePaymentReleased, OutcomeDenylistSaved, OutcomeKYCSet, OutcomeOther}

// PassFailure is the kind of error a pass run from the operator page failed with (pass_failed).
type PassFailure string

// The kinds, as handlers' Classify tells errors apart.
const (
	PassFailureLedger   PassFailure = "ledger_unavailable"
	PassFailureChain    PassFailure = "chain_unavailable" // #nosec G101 -- an error code, not a credential
	PassFailureSigner   PassFailure = "signer_refused"
	PassFailureTimedOut PassFailure = "timed_out"
	PassFailureInternal PassFailure = "internal"
)

// AuditOutcome is what came of an operator action: a code and the values it is told with.
type AuditOutcome struct {
	Code AuditOutcomeCode `json:"code"`
	Args AuditArgs        `json:"args"`
}

// Scan reads an outcome as auditOutcomeSQL builds it.
func (o *AuditOutcome) Scan(src any) error { return scanJSON(src, o) }

// AuditArgs are the values an AuditOutcome is told with; each code sets those it lists, the
// others are left zero and out of the JSON. They are kept as the action saw them: a tier or a
// token may change later, its audit entry does not.
type AuditArgs struct {
	Tier    *int         `json:"tier,omitempty"`
	Address string       `json:"address,omitempty"` // an operator's
	Role    OperatorRole `json:"role,omitempty"`
	Was     OperatorRole `json:"was,omitempty"` // the role before

	// A saved tier's settings (tier_saved).
	Label    string  `json:"label,omitempty"`
	PriceWei Uint256 `json:"priceWei,omitzero"`
	// Tokens are amounts of tokens: a saved tier's prices in them, what a sweep moved (AmountWei
	// is then unset), what a refund batch pays back in each besides AmountWei.
	Tokens         []TokenAmount `json:"tokens,omitempty"`
	MaxPerWallet   int           `json:"maxPerWallet,omitempty"`
	HoldingToken   *string       `json:"holdingToken,omitempty"`
	HoldingWei     Uint256       `json:"holdingWei,omitzero"`
	TokenSymbol    string        `json:"tokenSymbol,omitempty"`
	TokenDecimals  *int          `json:"tokenDecimals,omitempty"` // nil: the token could not be read
	Supply         *int          `json:"supply,omitempty"`
	StartsAt       *time.Time    `json:"startsAt,omitempty"`
	EndsAt         *time.Time    `json:"endsAt,omitempty"`
	AllowlistUntil *time.Time    `json:"allowlistUntil,omitempty"`
	OpensAfterTier *int          `json:"opensAfterTier,omitempty"`
	Enabled        bool          `json:"enabled,omitempty"`

	Wallets int   `json:"wallets,omitempty"` // an allowlist's rows
	Nodes   int64 `json:"nodes,omitempty"`   // its total allocation

	// Summary is a pass's summary as the pass gave it (the cron routes' answer); Scan where the
	// payments scan stood (nil when the chain could not be read) and At when the outcome was
	// told, which say why a pass that found nothing found nothing.
	Summary json.RawMessage `json:"summary,omitempty"`
	Scan    json.RawMessage `json:"scan,omitempty"`
	At      *time.Time      `json:"at,omitempty"`
	Failure PassFailure     `json:"failure,omitempty"`

	Webhook   int64       `json:"webhook,omitempty"`
	URL       string      `json:"url,omitempty"` // scheme and host, the rest masked
	Events    []EventType `json:"events,omitempty"`
	Until     *time.Time  `json:"until,omitempty"`
	EventType EventType   `json:"eventType,omitempty"`
	EventID   string      `json:"eventId,omitempty"`

	Sweep     int64   `json:"sweep,omitempty"`
	AmountWei Uint256 `json:"amountWei,omitzero"`
	TxHash    string  `json:"txHash,omitempty"`
	// A treasury batch: its id and kind; a refund batch's count of payments, or a commission
	// batch's of commissions and of referrers; its total, at which nonce of the treasury; an
	// approval's count against the threshold.
	Batch       int64     `json:"batch,omitempty"`
	Kind        BatchKind `json:"kind,omitempty"`
	Refunds     int       `json:"refunds,omitempty"`
	Commissions int       `json:"commissions,omitempty"`
	Referrers   int       `json:"referrers,omitempty"`
	Nonce       string    `json:"nonce,omitempty"`
	Payment     string    `json:"payment,omitempty"` // a payment's transaction
	Block       int64     `json:"block,omitempty"`
	Approvals   int       `json:"approvals,omitempty"`
	Threshold   int       `json:"threshold,omitempty"`
	// Why the Safe refused an execution: its error code ("GS020"), "out of gas", or "" when the
	// chain told nothing.
	SafeError string `json:"safeError,omitempty"`

	// A referral code's terms (referral_code_saved); Until is its expiry, Enabled its switch.
	Code          string  `json:"code,omitempty"`
	DiscountBps   int     `json:"discountBps,omitempty"`
	CommissionBps int     `json:"commissionBps,omitempty"`
	Parent        *string `json:"parent,omitempty"`
	ParentBps     *int    `json:"parentBps,omitempty"`

	// A held payment's release (payment_released).
	HeldFor   ReasonCode `json:"heldFor,omitempty"`
	ReleaseTo ReleaseTo  `json:"releaseTo,omitempty"`
	Reason    string     `json:"reason,omitempty"`
	KYCStatus KYCStatus  `json:"kycStatus,omitempty"` // a wallet's identity check set by hand

	Text string `json:"text,omitempty"`
}

// Value writes the args for the outcome_args column.
func (a AuditArgs) Value() (driver.Value, error) { return jsonValue(a) }

// AuditRecord is an audit entry as stored.
type AuditRecord struct {
	At      time.Time    `db:"at"`
	Actor   string       `db:"actor"`
	IP      string       `db:"ip"`
	Action  AuditAction  `db:"action"`
	Target  string       `db:"target"`
	Before  *string      `db:"before"` // JSON; nil for none
	After   *string      `db:"after"`
	Outcome AuditOutcome `db:"outcome"`
}

// Audited runs change and writes its audit entry in one transaction: both are kept, or neither
// (a change that fails leaves no entry; an entry that cannot be written undoes the change).
// change fills in the entry's Before, After and Outcome.
func (s *Store) Audited(ctx context.Context, e AuditEntry, change func(t Tx, e *AuditEntry) error) (err error) {
	defer wrap(&err, "Audited")
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	t := Tx{tx}
	if change != nil {
		if err := change(t, &e); err != nil {
			return err
		}
	}
	if err := t.audit(ctx, e); err != nil {
		return err
	}
	return tx.Commit()
}

func (t Tx) audit(ctx context.Context, e AuditEntry) error {
	before, err := jsonOrNull(e.Before)
	if err != nil {
		return err
	}
	after, err := jsonOrNull(e.After)
	if err != nil {
		return err
	}
	_, err = t.q.ExecContext(ctx, `
		INSERT INTO operator_audit (actor, ip, action, target, before, after, outcome_code, outcome_args)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		e.Actor.Who, e.Actor.IP, e.Action, e.Target, before, after, e.Outcome.Code, e.Outcome.Args)
	return err
}

// jsonOrNull is v as JSON for a jsonb column; nil stays SQL NULL.
func jsonOrNull(v any) (*string, error) {
	if v == nil {
		return nil, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	s := string(b)
	return &s, nil
}

// AuditLog returns the latest limit audit records, newest first.
func (s *Store) AuditLog(ctx context.Context, limit int) (_ []AuditRecord, err error) {
	defer wrap(&err, "AuditLog")
	var rs []AuditRecord
	err = s.db.SelectContext(ctx, &rs, `
		SELECT at, actor, ip, action, target, before, after, `+auditOutcomeSQL+` AS outcome
		FROM operator_audit
		ORDER BY id DESC
		LIMIT $1`, limit)
	return rs, err
}

// auditOutcomeSQL is an operator_audit row's outcome as one JSON value, {"code", "args"}, which
// AuditOutcome reads.
const auditOutcomeSQL = `json_build_object('code', outcome_code, 'args', outcome_args)`
