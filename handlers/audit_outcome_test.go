package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"nodeledger/chain"
	"nodeledger/jobs"
	"nodeledger/jobs/sale"
	"nodeledger/migrations"
	"nodeledger/store"
	"nodeledger/store/storetest"
)

// auditCase is an operator action's outcome as the handlers record it now, the sentence the
// operator is told, and the code migration 0024 reads that sentence back into when an older
// release stored it as words: the same code where the sentence has a fixed form, other where it
// does not (a saved tier, a pass).
type auditCase struct {
	action   store.AuditAction
	outcome  store.AuditOutcome
	want     string
	migrated store.AuditOutcomeCode
}

func auditCases(t *testing.T) []auditCase {
	const (
		op    = "0x00000000000000000000000000000000000a11ce"
		token = "0x5fbdb2315678afecb367f032d93f642f64180aa3"
	)
	at := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	parent, parentBps := "0x00000000000000000000000000000000000b0b00", 100
	const sweepTx = "0x4444444444444444444444444444444444444444444444444444444444444444"
	twelveAndHalf, _ := new(big.Int).SetString("12500000000000000000", 10)
	usdc := func(amount int64) store.TokenAmount {
		return store.TokenAmount{Token: store.Token{Address: "0x00000000000000000000000000000000000000cc", Symbol: "USDC", Decimals: 6}, Amount: store.Uint256{Int: big.NewInt(amount)}}
	}
	sweep := store.AuditArgs{Sweep: 4, AmountWei: store.Uint256{Int: twelveAndHalf}, TxHash: sweepTx}
	o := func(code store.AuditOutcomeCode, a store.AuditArgs) store.AuditOutcome {
		return store.AuditOutcome{Code: code, Args: a}
	}
	wei := func(s string) store.Uint256 {
		n, _ := new(big.Int).SetString(s, 10)
		return store.Uint256{Int: n}
	}
	must := func(o store.AuditOutcome, err error) store.AuditOutcome {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	gold := store.AuditArgs{Tier: new(4), Label: "Gold", PriceWei: wei("250000000000000000"), MaxPerWallet: 2,
		HoldingToken: new(token), HoldingWei: wei("5000000000000000000"), TokenSymbol: "DHT", TokenDecimals: new(18),
		Supply: new(5000), StartsAt: new(at.Add(2 * time.Hour)), EndsAt: new(at.Add(50*time.Hour + 30*time.Second)),
		AllowlistUntil: new(at.Add(3 * time.Hour)), OpensAfterTier: new(3), Enabled: true}
	unread := store.AuditArgs{Tier: new(5), Label: "Plain, and more", PriceWei: wei("1"), MaxPerWallet: 1,
		HoldingToken: new(token), HoldingWei: wei("7")}
	paused := sale.Reason{Code: sale.MintingPaused}
	return []auditCase{
		{store.ActionSignIn, o(store.OutcomeSignedIn, store.AuditArgs{Role: store.RoleViewer}), "Signed in as viewer.", store.OutcomeSignedIn},
		{store.ActionSignOut, o(store.OutcomeSignedOut, store.AuditArgs{}), "Signed out.", store.OutcomeSignedOut},
		{store.ActionOperatorPut, o(store.OutcomeOperatorAdded, store.AuditArgs{Address: op, Role: store.RoleOperator}),
			"Added " + op + " as operator: it can sign in now.", store.OutcomeOperatorAdded},
		{store.ActionOperatorPut, o(store.OutcomeOperatorUnchanged, store.AuditArgs{Address: op, Role: store.RoleAdmin}),
			op + " is already admin: nothing changed.", store.OutcomeOperatorUnchanged},
		{store.ActionOperatorPut, o(store.OutcomeOperatorRoleChanged, store.AuditArgs{Address: op, Role: store.RoleAdmin, Was: store.RoleViewer}),
			op + " is now admin, no longer viewer; its sessions ended.", store.OutcomeOperatorRoleChanged},
		{store.ActionOperatorRemove, o(store.OutcomeOperatorRemoved, store.AuditArgs{Address: op}),
			"Removed " + op + " from the operator list; its sessions ended.", store.OutcomeOperatorRemoved},
		{store.ActionOperatorPut, o(store.OutcomeOperatorSetBySetting, store.AuditArgs{}), "Set by the OPERATORS setting.", store.OutcomeOperatorSetBySetting},
		{store.ActionOperatorRemove, o(store.OutcomeOperatorRemovedBySetting, store.AuditArgs{}),
			"Removed: the OPERATORS setting no longer names it.", store.OutcomeOperatorRemovedBySetting},
		{store.ActionTierOnSale, o(store.OutcomeTierOnSale, store.AuditArgs{Tier: new(3)}),
			"Tier 3 is now switched on: it sells while its times and supply allow.", store.OutcomeTierOnSale},
		{store.ActionTierOffSale, o(store.OutcomeTierOffSale, store.AuditArgs{Tier: new(0)}), "Tier 0 is now off sale.", store.OutcomeTierOffSale},
		{store.ActionTierPut, o(store.OutcomeTierSaved, gold),
			"Saved tier 4, Gold: 0.25 ETH, 2 per wallet, for holders of 5 DHT (the token " + token + "), 5000 nodes in all, " +
				"from 2026-11-26 12:00 UTC, until 2026-11-28 12:00:30 UTC, allowlist only until 2026-11-26 13:00 UTC, " +
				"opening once tier 3 sells out, switched on.", store.OutcomeOther},
		{store.ActionTierPut, o(store.OutcomeTierSaved, unread),
			"Saved tier 5, Plain, and more: 0.000000000000000001 ETH, 1 per wallet, for holders of 7 base units of the token " + token +
				", switched off.", store.OutcomeOther},
		{store.ActionAllowlistPut, o(store.OutcomeAllowlistSaved, store.AuditArgs{Tier: new(2), Wallets: 3, Nodes: 1200}),
			"Tier 2's allowlist is now 3 wallets, with 1200 nodes in all.", store.OutcomeAllowlistSaved},
		{store.ActionAllowlistPut, o(store.OutcomeAllowlistSaved, store.AuditArgs{Tier: new(2), Wallets: 1, Nodes: 1}),
			"Tier 2's allowlist is now 1 wallet, with 1 node in all.", store.OutcomeAllowlistSaved},
		{store.ActionAllowlistPut, o(store.OutcomeAllowlistSaved, store.AuditArgs{Tier: new(10)}),
			"Tier 10's allowlist is now 0 wallets, with 0 nodes in all.", store.OutcomeAllowlistSaved},
		{store.ActionMintingHold, o(store.OutcomeMintingHeld, store.AuditArgs{}), "Minting is held: payments are recorded and wait.", store.OutcomeMintingHeld},
		{store.ActionMintingResume, o(store.OutcomeMintingResumed, store.AuditArgs{}),
			"Minting resumed: the next payments pass mints the payments that waited.", store.OutcomeMintingResumed},
		{store.ActionPassPayments, must(paymentsPassOutcome(jobs.PaymentsSummary{Ran: true, Seen: 3, Minted: 2, Rejected: 1,
			Reasons: []sale.Reason{paused}}, nil, at)),
			"Minted 2 nodes, rejected 1: minting was paused on the contract when this payment was checked.", store.OutcomeOther},
		{store.ActionPassPayments, must(paymentsPassOutcome(jobs.PaymentsSummary{Ran: true},
			&jobs.ScanState{LastRead: 10, Head: 12, Confirmations: 2, HeadTime: at.Add(-3 * time.Second), BlockTime: 5 * time.Second}, at)),
			"Nothing new: a payment waits for 2 confirmations (block 10 is the last one read; the chain is at 12; next block in about 2 s).", store.OutcomeOther},
		{store.ActionPassPayments, must(paymentsPassOutcome(jobs.PaymentsSummary{Reason: "another payments pass is running"}, nil, at)),
			"The payments pass did not run: another payments pass is running.", store.OutcomeOther},
		{store.ActionPassCredit, must(creditPassOutcome(jobs.CreditSummary{Reason: "distribution is switched off (DIST_ENABLED=false)"})),
			"The credit pass did not run: distribution is switched off (DIST_ENABLED=false).", store.OutcomeOther},
		{store.ActionPassCredit, must(creditPassOutcome(jobs.CreditSummary{Ran: true, DistributionID: 7, Nodes: 3,
			TotalWei: "1500000000000000000", Status: store.RoundConfirmed})), "Credited 3 nodes 1.5 ETH in round 7.", store.OutcomeOther},
		{store.ActionPassCredit, passFailure(fmt.Errorf("store.Round: %w: dial tcp", store.ErrUnavailable)),
			"Failed: The ledger database cannot be reached right now; please retry in a little while.", store.OutcomePassFailed},
		{store.ActionPassPayments, passFailure(fmt.Errorf("head: %w", chain.ErrUnavailable)),
			"Failed: The chain cannot be read right now; please retry in a little while.", store.OutcomePassFailed},
		{store.ActionPassPayments, passFailure(fmt.Errorf("mint: %w", chain.ErrSignerRefused)),
			"Failed: The signer refused the transaction: its rules do not allow it. The signer's log says which rule.", store.OutcomePassFailed},
		{store.ActionPassCredit, passFailure(fmt.Errorf("wait: %w", context.Canceled)),
			"Failed: A service this route depends on is unavailable; please retry in a little while.", store.OutcomePassFailed},
		{store.ActionPassCredit, passFailure(errors.New("pq: relation does not exist")),
			"Failed: Something went wrong on our side; please retry in a little while.", store.OutcomePassFailed},
		{store.ActionWebhookAdd, o(store.OutcomeWebhookAdded, store.AuditArgs{Webhook: 1, URL: "https://hooks.slack.com:8443/…", Events: []store.EventType{store.EventAll}}),
			"Added webhook #1: https://hooks.slack.com:8443/… gets every event.", store.OutcomeWebhookAdded},
		{store.ActionWebhookAdd, o(store.OutcomeWebhookAdded, store.AuditArgs{Webhook: 12, URL: "https://203.0.113.10/…",
			Events: []store.EventType{"payment.seen", "payment.minted.reverted", "tier.sold_out"}}),
			"Added webhook #12: https://203.0.113.10/… gets payment.seen, payment.minted.reverted and tier.sold_out.", store.OutcomeWebhookAdded},
		{store.ActionWebhookAdd, o(store.OutcomeWebhookAdded, store.AuditArgs{Webhook: 2, URL: "http://example.com/…", Events: []store.EventType{"round.confirmed"}}),
			"Added webhook #2: http://example.com/… gets round.confirmed.", store.OutcomeWebhookAdded},
		{store.ActionWebhookDelete, o(store.OutcomeWebhookDeleted, store.AuditArgs{Webhook: 3}),
			"Deleted webhook #3, with its deliveries: nothing more goes to it.", store.OutcomeWebhookDeleted},
		{store.ActionWebhookRoll, o(store.OutcomeWebhookRolled, store.AuditArgs{Webhook: 3, Until: new(at.Add(24*time.Hour + 5*time.Second + 123*time.Millisecond))}),
			"Rolled webhook #3's secret: the old one signs too until 2026-11-27 10:00:05 UTC.", store.OutcomeWebhookRolled},
		{store.ActionWebhookRoll, o(store.OutcomeWebhookRolled, store.AuditArgs{Webhook: 4, Until: new(at.Add(24*time.Hour + 999*time.Millisecond))}),
			"Rolled webhook #4's secret: the old one signs too until 2026-11-27 10:00 UTC.", store.OutcomeWebhookRolled},
		{store.ActionWebhookEnable, o(store.OutcomeWebhookEnabled, store.AuditArgs{Webhook: 3}),
			"Switched webhook #3 on: the delivery it gave up on is tried first.", store.OutcomeWebhookEnabled},
		{store.ActionWebhookRedeliver, o(store.OutcomeWebhookRedelivered, store.AuditArgs{Webhook: 3, EventType: "payment.rejected", EventID: "evt_0123456789abcdef0123456789abcdef"}),
			"Queued payment.rejected (evt_0123456789abcdef0123456789abcdef) again for webhook #3.", store.OutcomeWebhookRedelivered},
		// Sweeps came after migration 0024: it has no sentence of theirs to read back.
		{store.ActionSweep, o(store.OutcomeSweepSent, sweep), "Sweep 4: sending 12.5 ETH from the payments wallet to the treasury (transaction " + sweepTx + ").", store.OutcomeOther},
		{store.ActionSweep, o(store.OutcomeSweepDone, sweep), "Sweep 4: the treasury received 12.5 ETH (transaction " + sweepTx + ").", store.OutcomeOther},
		{store.ActionSweep, o(store.OutcomeSweepFailed, sweep), "Sweep 4 of 12.5 ETH reverted (transaction " + sweepTx + "): the payments wallet still holds it.", store.OutcomeOther},
		{store.ActionSweep, o(store.OutcomeSweepVoid, sweep),
			"Sweep 4 of 12.5 ETH was never mined: another transaction of the payments wallet took its nonce. The next sweep pass decides afresh.", store.OutcomeOther},
		{store.ActionBatchPropose, o(store.OutcomeBatchProposed, store.AuditArgs{Batch: 4, Refunds: 3,
			AmountWei: store.Uint256{Int: big.NewInt(1_500_000_000_000_000_000)}, Nonce: "7"}),
			"Proposed refund batch 4: 3 refunds, 1.5 ETH in all, at the treasury's nonce 7; it waits for the owners' signatures.", store.OutcomeOther},
		{store.ActionSweep, o(store.OutcomeSweepDone, store.AuditArgs{Sweep: 5, TxHash: sweepTx, Tokens: []store.TokenAmount{usdc(550_000_000)}}),
			"Sweep 5: the treasury received 550 USDC (transaction " + sweepTx + ").", store.OutcomeOther},
		{store.ActionBatchPropose, o(store.OutcomeBatchProposed, store.AuditArgs{Batch: 5, Refunds: 2,
			AmountWei: store.Uint256{Int: big.NewInt(150_000_000_000_000_000)}, Tokens: []store.TokenAmount{usdc(250_500_000)}, Nonce: "8"}),
			"Proposed refund batch 5: 2 refunds, 0.15 ETH and 250.5 USDC in all, at the treasury's nonce 8; it waits for the owners' signatures.", store.OutcomeOther},
		{store.ActionBatchApprove, o(store.OutcomeBatchApproved, store.AuditArgs{Batch: 4, Address: op, Approvals: 1, Threshold: 2}),
			op + " approved refund batch 4: 1 of 2 signatures.", store.OutcomeOther},
		{store.ActionBatchExecute, o(store.OutcomeBatchExecuted, store.AuditArgs{Batch: 4, TxHash: sweepTx}),
			"Refund batch 4 executed by transaction " + sweepTx + ": its payments are refunded.", store.OutcomeOther},
		{store.ActionBatchExecute, o(store.OutcomeBatchFailed, store.AuditArgs{Batch: 4, TxHash: sweepTx}),
			"Refund batch 4 failed in transaction " + sweepTx + ": the treasury paid nothing, and its payments are owed a refund again.", store.OutcomeOther},
		{store.ActionBatchExecute, o(store.OutcomeBatchVoid, store.AuditArgs{Batch: 4, Nonce: "7"}),
			"Refund batch 4 is void: the treasury executed another transaction at its nonce 7. Its payments are owed a refund again.", store.OutcomeOther},
		{store.ActionBatchExecute, o(store.OutcomeBatchVoid, store.AuditArgs{Batch: 5, Kind: store.BatchCommissions, Nonce: "8"}),
			"Commission batch 5 is void: the treasury executed another transaction at its nonce 8. Its commissions are owed again.", store.OutcomeOther},
		{store.ActionBatchExecute, o(store.OutcomeBatchVoidRefunded, store.AuditArgs{Batch: 4, Payment: "0xaa", TxHash: sweepTx, Block: 12}),
			"Refund batch 4 is void: payment 0xaa in it was refunded by hand in " + sweepTx + " at block 12, and executed it would pay it twice. " +
				"The rest of its payments are owed a refund again.", store.OutcomeOther},
		{store.ActionBatchPropose, o(store.OutcomeBatchProposed, store.AuditArgs{Batch: 6, Kind: store.BatchCommissions,
			Commissions: 5, Referrers: 3, AmountWei: store.Uint256{Int: big.NewInt(12_300_000_000_000_000)}, Nonce: "2"}),
			"Proposed commission batch 6: 5 commissions to 3 referrers, 0.0123 ETH in all, at the treasury's nonce 2; it waits for the owners' signatures.",
			store.OutcomeOther},
		{store.ActionBatchExecute, o(store.OutcomeBatchExecuted, store.AuditArgs{Batch: 6, Kind: store.BatchCommissions, TxHash: "0xab"}),
			"Commission batch 6 executed by transaction 0xab: its commissions are paid.", store.OutcomeOther},
		{store.ActionBatchExecute, o(store.OutcomeBatchReverted, store.AuditArgs{Batch: 4, TxHash: sweepTx, SafeError: "GS020"}),
			"Transaction " + sweepTx + ", sent to execute refund batch 4, reverted. It carried fewer owners' signatures than the treasury's threshold (GS020). " +
				"The treasury paid nothing, and the batch waits for another attempt.", store.OutcomeOther},
		{store.ActionTierOnSale, o(store.OutcomeOther, store.AuditArgs{Text: "Tier 1 is now on sale."}), "Tier 1 is now on sale.", store.OutcomeOther},
		{store.ActionReferralAdd, o(store.OutcomeReferralCodeSaved, store.AuditArgs{Code: "Alice5", Address: op, DiscountBps: 500,
			CommissionBps: 250, Parent: &parent, ParentBps: &parentBps, Until: &at, Enabled: true}),
			"Saved referral code Alice5 of " + op + ": 5 % off for the buyer, 2.5 % to its owner, 1 % to the partner above, " + parent +
				", until 2026-11-26 10:00:00 UTC; switched on, in force from now.", store.OutcomeOther},
		{store.ActionReferralPut, o(store.OutcomeReferralCodeSaved, store.AuditArgs{Code: "Alice5", Address: op, CommissionBps: 300}),
			"Saved referral code Alice5 of " + op + ": 0 % off for the buyer, 3 % to its owner, with no end; switched off: it gives nothing from now.", store.OutcomeOther},
		{store.ActionPaymentRelease, o(store.OutcomePaymentReleased, store.AuditArgs{Payment: sweepTx, Address: op, HeldFor: "sanctioned",
			ReleaseTo: store.ReleaseToMint, Reason: "a namesake, not the listed person"}),
			"Released payment " + sweepTx + " from " + op + ", held by the sanctions screening, to be minted: \"a namesake, not the listed person\".", store.OutcomeOther},
		{store.ActionPaymentRelease, o(store.OutcomePaymentReleased, store.AuditArgs{Payment: sweepTx, Address: op, HeldFor: "denylisted",
			ReleaseTo: store.ReleaseToRefund, Reason: "pay it back"}),
			"Released payment " + sweepTx + " from " + op + ", held for the operator's denylist, to be refunded: \"pay it back\".", store.OutcomeOther},
		{store.ActionDenylistPut, o(store.OutcomeDenylistSaved, store.AuditArgs{Wallets: 2}), "The denylist is now 2 wallets.", store.OutcomeOther},
		{store.ActionKYCPut, o(store.OutcomeKYCSet, store.AuditArgs{Address: op, KYCStatus: store.KYCVerified, Reason: "on the launchpad's list"}),
			"Set the identity check of " + op + " to verified: \"on the launchpad's list\".", store.OutcomeOther},
		{store.ActionKYCPut, o(store.OutcomeKYCSet, store.AuditArgs{Wallets: 3, KYCStatus: store.KYCVerified}),
			"Marked 3 wallets verified, from a list.", store.OutcomeOther},
	}
}

// TestAuditOutcomes: every outcome the handlers record is stored as its code and values and
// read back into the sentence the operator was told; every code has a case here, and the
// table's CHECK lists the codes.
func TestAuditOutcomes(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	cases := auditCases(t)
	for _, c := range cases {
		if err := s.Audited(ctx, store.AuditEntry{Actor: store.Actor{Who: "admin", IP: "127.0.0.1"}, Action: c.action, Outcome: c.outcome}, nil); err != nil {
			t.Fatalf("%s: %v", c.want, err)
		}
	}
	rs, err := s.AuditLog(ctx, 1000)
	if err != nil {
		t.Fatal(err)
	}
	slices.Reverse(rs)
	if len(rs) != len(cases) {
		t.Fatalf("%d entries, want %d", len(rs), len(cases))
	}
	for i, c := range cases {
		if rs[i].Outcome.Code != c.outcome.Code {
			t.Errorf("stored as %q, want %q", rs[i].Outcome.Code, c.outcome.Code)
		}
		if got := auditSentence(rs[i].Outcome); got != c.want {
			t.Errorf("read back as\n  %q\nwant\n  %q", got, c.want)
		}
	}

	t.Run("every code has a case", func(t *testing.T) {
		for _, code := range store.AuditOutcomeCodes {
			if !slices.ContainsFunc(cases, func(c auditCase) bool { return c.outcome.Code == code }) {
				t.Errorf("no case of %s", code)
			}
		}
	})
	t.Run("the CHECK lists the codes", func(t *testing.T) {
		var def string
		if err := s.DB().Get(&def, `SELECT pg_get_constraintdef(oid) FROM pg_constraint
			WHERE conrelid = 'operator_audit'::regclass AND conname = 'operator_audit_outcome_code_check'`); err != nil {
			t.Fatal(err)
		}
		var listed []store.AuditOutcomeCode
		for _, m := range regexp.MustCompile(`'([a-z_]+)'`).FindAllStringSubmatch(def, -1) {
			listed = append(listed, store.AuditOutcomeCode(m[1]))
		}
		if !slices.Equal(listed, store.AuditOutcomeCodes) {
			t.Fatalf("the CHECK lists %v,\nthe store %v", listed, store.AuditOutcomeCodes)
		}
		if _, err := s.DB().Exec(`INSERT INTO operator_audit (actor, ip, action, target, outcome_code, outcome_args)
			VALUES ('admin', '', 'tier.put', '', 'saved', '{}')`); err == nil {
			t.Fatal("an outcome code the store does not know was stored")
		}
	})
}

// TestAuditOutcomesMigration upgrades an audit whose outcomes are sentences: each sentence the
// handlers write today (TestAuditOutcomes' cases, as words) reads back the same after the
// migration, with its code where its form is fixed; a sentence of another form, an older
// wording or one that would read back otherwise, keeps its words as other's. The audit stays
// append-only.
func TestAuditOutcomesMigration(t *testing.T) {
	ctx := context.Background()
	s := storetest.Through(t, "0023_webhook_failure_codes.sql")
	type row struct {
		action   store.AuditAction
		sentence string
		code     store.AuditOutcomeCode
	}
	var rows []row
	for _, c := range auditCases(t) {
		rows = append(rows, row{c.action, c.want, c.migrated})
	}
	rows = append(rows, []row{
		// Read back, each would say something else: they stay as they were.
		{store.ActionAllowlistPut, "Tier 2's allowlist is now 1 wallets, with 2 nodes in all.", store.OutcomeOther},
		{store.ActionAllowlistPut, "Tier 2's allowlist is now 2 wallet, with 2 nodes in all.", store.OutcomeOther},
		{store.ActionAllowlistPut, "Tier 02's allowlist is now 2 wallets, with 2 nodes in all.", store.OutcomeOther},
		{store.ActionWebhookRoll, "Rolled webhook #3's secret: the old one signs too until 2026-11-27 10:00:00 UTC.", store.OutcomeOther},
		{store.ActionWebhookAdd, "Added webhook #4: https://x.example/… gets payment.seen and payment.minted and tier.sold_out.", store.OutcomeOther},
		{store.ActionWebhookAdd, "Added webhook #4: https://x.example/… gets payment.seen, payment.minted, and tier.sold_out.", store.OutcomeOther},
		{store.ActionPassCredit, "Failed: the chain said no.", store.OutcomeOther},
		{store.ActionSignIn, "Signed in as root.", store.OutcomeOther},
		// A sentence is read back only for the action that writes it.
		{store.ActionOperatorPut, "Signed out.", store.OutcomeOther},
		{"filler", "", store.OutcomeOther},
	}...)
	for _, r := range rows {
		if _, err := s.DB().ExecContext(ctx, `INSERT INTO operator_audit (actor, ip, action, target, outcome)
			VALUES ('admin', '127.0.0.1', $1, '', $2)`, r.action, r.sentence); err != nil {
			t.Fatal(err)
		}
	}
	applied, err := s.Migrate(ctx, migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	if len(applied) == 0 || applied[0] != "0024_audit_outcome_codes.sql" {
		t.Fatalf("applied %v", applied)
	}
	rs, err := s.AuditLog(ctx, 1000)
	if err != nil {
		t.Fatal(err)
	}
	slices.Reverse(rs)
	if len(rs) != len(rows) {
		t.Fatalf("%d entries, want %d", len(rs), len(rows))
	}
	for i, r := range rows {
		if got := auditSentence(rs[i].Outcome); got != r.sentence {
			stored, _ := json.Marshal(rs[i].Outcome)
			t.Errorf("%q\nreads back as %q from %s", r.sentence, got, stored)
		}
		if rs[i].Outcome.Code != r.code {
			t.Errorf("%q: code %q, want %q", r.sentence, rs[i].Outcome.Code, r.code)
		}
	}
	if _, err := s.DB().ExecContext(ctx, `UPDATE operator_audit SET outcome_code = 'other'`); err == nil {
		t.Fatal("the audit is no longer append-only")
	}
}

// A tier's change reads as what changed, from what to what; an entry with nothing to compare
// reads as its outcome.
func TestAuditRowSentence(t *testing.T) {
	supply := 100
	ends := "2026-12-31T23:00:00Z"
	before := tierJSON{ID: "1", Label: "Standard", PriceWei: "100000000000000000", MaxPerWallet: 5, Enabled: true}
	after := before
	after.PriceWei, after.MaxPerWallet, after.Supply, after.EndsAt, after.Enabled = "120000000000000000", 10, &supply, &ends, false
	js := func(v any) *string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		return &s
	}
	r := store.AuditRecord{Action: store.ActionTierPut, Before: js(before), After: js(after),
		Outcome: store.AuditOutcome{Code: store.OutcomeTierSaved}}
	want := "Changed tier 1 (Standard): its price from 0.1 to 0.12 ETH; its limit per wallet from 5 to 10; its supply from no limit to 100; " +
		"its end from none to 2026-12-31 23:00 UTC; switched it off."
	if got := auditRowSentence(r); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	r.Before = nil // a new tier: what was saved
	if got := auditRowSentence(r); !strings.HasPrefix(got, "Saved tier 0") {
		t.Errorf("a new tier: %q", got)
	}
	signIn := store.AuditRecord{Action: store.ActionSignIn, Outcome: store.AuditOutcome{Code: store.OutcomeSignedIn, Args: store.AuditArgs{Role: "admin"}}}
	if got := auditRowSentence(signIn); got != "Signed in as admin." {
		t.Errorf("a sign-in: %q", got)
	}
}
