package handlers

import (
	"cmp"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"time"

	"nodeledger/jobs"
	"nodeledger/jobs/sale"
	"nodeledger/store"
	"nodeledger/views"
	"nodeledger/views/words"
)

// paymentsOutcome tells a payments pass as sentences: what it minted and rejected and why, and,
// when it found nothing, why a payment just sent is not there yet (scan: nil when the chain could
// not be read).
func paymentsOutcome(sum jobs.PaymentsSummary, scan *jobs.ScanState, now time.Time) string {
	if !sum.Ran {
		return "The payments pass did not run: " + clause(sum.Reason) + "."
	}
	var out []string
	why := ""
	if reasons := rejectionClauses(sum.Reasons); len(reasons) > 0 {
		why = ": " + strings.Join(reasons, "; ")
	}
	switch {
	case sum.Minted > 0 && sum.Rejected > 0:
		out = append(out, fmt.Sprintf("Minted %s, rejected %d%s.", words.Count(sum.Minted, "node", "nodes"), sum.Rejected, why))
	case sum.Minted > 0:
		out = append(out, "Minted "+words.Count(sum.Minted, "node", "nodes")+".")
	case sum.Rejected > 0:
		out = append(out, fmt.Sprintf("Rejected %s%s.", words.Count(sum.Rejected, "payment", "payments"), why))
	case sum.Seen > 0:
		out = append(out, "Recorded "+words.Count(sum.Seen, "new payment", "new payments")+".")
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
		out = append(out, fmt.Sprintf("Took back %s after a reorganisation of the chain.", words.Count(int(sum.Rewound), "block", "blocks")))
	}
	if sum.Failed > 0 {
		out = append(out, fmt.Sprintf("Recorded %s.", words.Count(sum.Failed, "failed withdrawal", "failed withdrawals")))
	}
	if sum.Unattributed > 0 {
		out = append(out, fmt.Sprintf("ETH that no transaction explains arrived in %s: see Ledger against the chain.",
			words.Count(sum.Unattributed, "block", "blocks")))
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
		wait = "a payment waits for " + words.Count(int(scan.Confirmations), "confirmation", "confirmations")
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
	credited := fmt.Sprintf("%s %s ETH in round %d", words.Count(int(sum.Nodes), "node", "nodes"), total, sum.DistributionID)
	switch {
	case sum.Status == store.RoundConfirmed && sum.Resumed:
		return "Finished a round left pending: credited " + credited + "."
	case sum.Status == store.RoundConfirmed:
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

// rejectionClauses say why a pass rejected payments, to fit after a colon: grouped by code, in the
// order the codes first came, each distinct reason of a code once.
func rejectionClauses(reasons []sale.Reason) []string {
	var codes []store.ReasonCode
	byCode := map[store.ReasonCode][]string{}
	for _, r := range reasons {
		s := r.Sentence()
		if s == nil {
			continue
		}
		if _, seen := byCode[r.Code]; !seen {
			codes = append(codes, r.Code)
		}
		if c := clause(*s); !slices.Contains(byCode[r.Code], c) {
			byCode[r.Code] = append(byCode[r.Code], c)
		}
	}
	var out []string
	for _, code := range codes {
		out = append(out, byCode[code]...)
	}
	return out
}
