package jobs

import (
	"context"
	"errors"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"nodeledger/jobs/sale"
	"nodeledger/store"
)

// PaymentsSummary is what one payments pass did.
type PaymentsSummary struct {
	Ran       bool   `json:"ran"`
	Reason    string `json:"reason,omitempty"`
	FromBlock uint64 `json:"fromBlock,omitempty"`
	ToBlock   uint64 `json:"toBlock,omitempty"`
	Seen      int    `json:"seen"`     // payments found by the scan
	Minted    int    `json:"minted"`   // nodes recorded
	Rejected  int    `json:"rejected"` // payments that do not become a node, with their reason
	Held      int    `json:"held"`     // payments the screening holds until an admin releases them
	Released  int    `json:"released"` // held payments an admin released, judged again
	Minting   int    `json:"minting"`  // payments whose mint transaction still waits for its receipt
	Rewound   int64  `json:"rewound"`  // blocks taken back after a reorg
	Failed    int    `json:"failedWithdrawals"`
	Refunded  int    `json:"refunded"` // rejected payments the payments wallet was seen paying back
	// Unattributed counts the blocks where ETH reached the payments wallet that neither its
	// transactions nor a trace attribute to a payment (a SELFDESTRUCT, or a block not traced).
	Unattributed int `json:"unattributedInflows"`
	// ScanRequests is how many JSON-RPC requests the scan of FromBlock..ToBlock made.
	ScanRequests int64 `json:"scanRpcRequests"`
	// DigestedTo is the last block of the ledger's digests once the pass ended (0: none yet).
	DigestedTo uint64 `json:"digestedToBlock,omitempty"`

	// Reasons says why each payment this pass's checks rejected or held was, in the order
	// checked: codes and their values (the cron route is for scripts; the operator page writes
	// them as sentences).
	Reasons []sale.Reason `json:"reasons,omitempty"`
}

// Payments runs one payments pass: scan the confirmed blocks for payments, check each, mint a
// node for each that checks out, and record each that does not with its reason. It can be
// stopped at any instant: every mint transaction is stored signed before it is sent, and the
// contract refuses a payment reference twice, so the next pass finishes the work without minting
// twice or dropping a payment. It waits up to ReceiptTimeout for its mints to be mined, so that
// its caller (the cron route, the operator's button) hears what it minted; the runner's passes,
// one a block, do not wait.
func (j *Jobs) Payments(ctx context.Context) (PaymentsSummary, error) {
	// Before the answer: a caller (the cron route, the operator page) may read what it minted next.
	defer j.sale.Forget()
	return j.payments(ctx, j.cfg.ReceiptTimeout)
}

// payments is Payments waiting up to wait for the mints under way to be mined.
func (j *Jobs) payments(ctx context.Context, wait time.Duration) (sum PaymentsSummary, err error) {
	ctx, end, ok, err := j.startPass(ctx, store.LockPayments, store.PassPayments, &err)
	if err != nil {
		return PaymentsSummary{}, err
	}
	defer end()
	if !ok {
		return PaymentsSummary{Reason: "another payments pass is running"}, nil
	}

	sum = PaymentsSummary{Ran: true}
	defer func() {
		if !j.cfg.Observe { // a rebuild's payments are not the service's
			countPayments(sum)
		}
	}()
	// Last, after a pass that did all it had to: what it settled is then final for the digests.
	// A digest that cannot be written now is written by a later pass; the sale goes on.
	defer func() {
		if err != nil {
			return
		}
		if to, derr := j.digest(ctx); derr != nil {
			j.log.Warn("payments: the ledger's digests cannot be written; a later pass writes them", "err", derr)
		} else {
			sum.DigestedTo = to
		}
	}()
	// The releases of held payments recorded by the time the payments up to here were judged
	// apply in this pass, before the payments it scans are judged (releasesUpTo).
	upTo, err := j.releasesUpTo(ctx)
	if err != nil {
		return sum, err
	}
	head, scanned, err := j.scan(ctx, &sum)
	if err != nil {
		return sum, err
	}
	// Last but for the digests, once this pass has recorded the mints it saw mined: the
	// reconciler takes up the blocks scanned.
	defer func() {
		if err != nil || scanned == nil {
			return
		}
		if rerr := j.reconcileScanned(ctx, *scanned); rerr != nil {
			j.log.Warn("payments: the reconciler cannot take up the blocks scanned; its own pass reads them",
				"from", scanned.from, "to", scanned.to, "err", rerr)
		}
	}()
	if j.cfg.Observe {
		return sum, j.observe(ctx, &sum, head, upTo)
	}
	// What the head holds is for the trackers: without it they read the chain, as they can.
	if err := j.followHead(ctx, head, scanned); err != nil {
		j.log.Warn("payments: the payments at the head cannot be read; trackers read the chain meanwhile", "head", head, "err", err)
	}
	if err := j.treasury.Settle(ctx); err != nil {
		return sum, err
	}
	if j.minter == nil {
		sum.Reason = "payments are recorded but not minted: no minter is configured (MINTER_SIGNER or MINTER_KEY)"
		return sum, nil
	}
	defer func() {
		if err != nil && !errors.Is(err, sale.ErrSanctionsUnreadable) { // the chain's writes were not in doubt
			j.resend.Store(true)
		}
	}()
	// Another instance may have signed with the minter since this one last did.
	j.minter.sender.ResetNonce()
	r := &mintRound{head: head} // the scan's, until the fees come with theirs
	// Transactions an earlier pass stored go out again first, so that nonces handed out below
	// come after theirs.
	if j.resend.Load() {
		if err := j.resendMints(ctx, r); err != nil {
			return sum, err
		}
		j.resend.Store(false)
	}
	// A hold stops new mints only: what was already sent is settled either way.
	held, err := j.store.MintingHeld(ctx)
	if err != nil {
		return sum, err
	}
	// An oracle that cannot be read stops the judgements (the payments wait, unscreened payments
	// are never minted), not the settling of what was sent; the pass then fails for it.
	var unscreened error
	if held {
		sum.Reason = "minting is held by the operator: payments are recorded and wait"
	} else if err := j.mintPending(ctx, &sum, r, upTo); errors.Is(err, sale.ErrSanctionsUnreadable) {
		unscreened = err
	} else if err != nil {
		return sum, err
	}
	if err := j.settleMints(ctx, &sum, r, wait); err != nil {
		return sum, err
	}
	// Last: a refund matches only a payment already rejected, and this pass may have rejected it.
	if sum.Refunded, err = j.store.MatchRefunds(ctx); err != nil {
		return sum, err
	}
	return sum, unscreened
}

// observe is the payments pass of a rebuild (Config.Observe), past its scan: the pending
// payments are judged and claimed as a pass judges them, each claimed one is settled from what
// the factory did for its reference (one still without either waits for the next pass), and
// refunds are matched.
func (j *Jobs) observe(ctx context.Context, sum *PaymentsSummary, head uint64, upTo int64) error {
	if err := j.checkPayments(ctx, sum, head, upTo); err != nil {
		return err
	}
	claimed, err := j.store.ToSign(ctx)
	if err != nil {
		return err
	}
	if len(claimed) > 0 {
		refs := make([]common.Hash, len(claimed))
		for i, p := range claimed {
			refs[i] = common.HexToHash(p.PaymentRef)
		}
		minted, skipped, err := j.chain.MintOutcomes(ctx, refs, uint64(claimed[0].BlockNumber))
		if err != nil {
			return err
		}
		var mints []mint
		for i, p := range claimed {
			if m, ok := minted[refs[i]]; ok {
				mints = append(mints, mint{p, m})
			} else if why, ok := skipped[refs[i]]; ok {
				if err := j.reject(ctx, p, why, sum); err != nil {
					return err
				}
			}
		}
		if err := j.recordMints(ctx, mints, sum); err != nil {
			return err
		}
	}
	sum.Refunded, err = j.store.MatchRefunds(ctx)
	return err
}
