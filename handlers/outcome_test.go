package handlers

import (
	"testing"
	"time"

	"nodeledger/jobs"
	"nodeledger/jobs/sale"
)

// TestPaymentsOutcomeGroupsReasonsByCode: a pass's rejections are said once each, grouped by code.
func TestPaymentsOutcomeGroupsReasonsByCode(t *testing.T) {
	paused := sale.Reason{Code: sale.MintingPaused}
	full := sale.Reason{Code: sale.ContractWalletLimit, Args: sale.Args{MaxPerWallet: 1}}
	sum := jobs.PaymentsSummary{Ran: true, Rejected: 3, Reasons: []sale.Reason{paused, full, paused}}
	want := "Rejected 3 payments: minting was paused on the contract when this payment was checked; " +
		"this wallet already holds 1 node, the most the contract allows one wallet."
	if got := paymentsOutcome(sum, nil, time.Now()); got != want {
		t.Fatalf("%q,\nwant %q", got, want)
	}
}
