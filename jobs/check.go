package jobs

import (
	"context"
	"errors"

	"nodeledger/jobs/sale"
	"nodeledger/store"
)

// claimRetries bounds how often a payment is judged again after the tier it was judged to buy
// sold its last unit to a pass running at the same time.
const claimRetries = 3

// mintPending signs what an earlier pass claimed and did not sign (it failed or died in
// between, perhaps judging a later payment), then judges the pending payments and signs what
// they claim: a judgement that keeps failing never holds back the payments claimed before it.
func (j *Jobs) mintPending(ctx context.Context, sum *PaymentsSummary, r *mintRound) error {
	if err := j.signClaimed(ctx, r); err != nil {
		return err
	}
	if err := j.checkPayments(ctx, sum, r.head); err != nil {
		return err
	}
	return j.signClaimed(ctx, r)
}

// checkPayments judges the ChecksPerPass earliest pending payments in chain order (block, place
// in the block, call in the transaction), so the earliest get a tier's last units: the ones that
// check out claim their unit (the pass then signs their mints together: signClaimed); the others
// are rejected with their reason. The rest wait for the next pass.
func (j *Jobs) checkPayments(ctx context.Context, sum *PaymentsSummary, head uint64) error {
	pending, err := j.store.PaymentsByStatus(ctx, store.PaymentPending, j.cfg.ChecksPerPass)
	if err != nil || len(pending) == 0 {
		return err
	}
	cs, err := j.sale.ReadChain(ctx, head)
	if err != nil {
		return err
	}
	cs = cs.ForMinting()
	for _, p := range pending {
		reason, reads, err := j.checkPayment(ctx, p, cs)
		if err != nil {
			return err
		}
		if reason == nil {
			continue
		}
		if err := j.store.RejectPayment(ctx, p.ID, store.PaymentPending, reason.Code, reason.Args, reads); err != nil {
			return err
		}
		sum.Rejected++
		sum.Reasons = append(sum.Reasons, *reason)
	}
	return nil
}

// checkPayment judges payment p at its block's time and claims its tier's unit, or says why not,
// with what the judgement read of the chain. When another pass claimed the last one meanwhile, p
// is judged again (a price step may take it) and rejected sold_out at worst.
func (j *Jobs) checkPayment(ctx context.Context, p store.Payment, cs sale.ChainState) (*sale.Reason, []store.ChainRead, error) {
	at := p.CreatedAt // a payment recorded before block times were kept
	if p.BlockTime != nil {
		at = *p.BlockTime
	}
	for try := 0; ; try++ {
		v, err := j.sale.JudgeWith(ctx, cs, p.From, p.Paid(), at, p.BlockNumber)
		reads := v.Reads
		if reads == nil { // judged without a call to the chain: none is needed again
			reads = []store.ChainRead{}
		}
		if err != nil || v.Reason != nil {
			return v.Reason, reads, err
		}
		var soldOut *store.SoldOutError
		err = j.store.ClaimMint(ctx, p.ID, v.Tier.ID, v.Referral, reads)
		switch {
		case err == nil:
			return nil, nil, j.step(stepMintClaimed)
		case !errors.As(err, &soldOut):
			return nil, nil, err
		case try+1 == claimRetries:
			return sale.SoldOutMeanwhile(v.Tier, soldOut.Supply, soldOut.Sold), reads, nil
		}
	}
}
