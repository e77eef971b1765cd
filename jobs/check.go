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
	states := map[uint64]sale.ChainState{} // by the block read
	recalled, err := j.recalled(ctx, pending)
	if err != nil {
		return err
	}
	for _, p := range pending {
		at := j.readAt(p.BlockNumber, head)
		cs, ok := states[at]
		if !ok {
			if cs, err = j.sale.ReadChain(ctx, at); err != nil {
				return err
			}
			cs = cs.ForMinting()
			states[at] = cs
		}
		if reads, ok := recalled[p.PaymentRef]; ok {
			cs = cs.Recalling(reads)
		}
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

// Reads gives what a ledger's judgements of payments read of the chain, by payment reference
// (store.Store.JudgedReads; a witness's reads).
type Reads interface {
	JudgedReads(ctx context.Context, refs []string) (map[string][]store.ChainRead, error)
}

// recalled are the chain reads Config.ReadsFrom's judgements of payments made, by reference.
func (j *Jobs) recalled(ctx context.Context, payments []store.Payment) (map[string][]store.ChainRead, error) {
	if j.cfg.ReadsFrom == nil {
		return nil, nil
	}
	refs := make([]string, len(payments))
	for i, p := range payments {
		refs[i] = p.PaymentRef
	}
	return j.cfg.ReadsFrom.JudgedReads(ctx, refs)
}

// stateKept is how many blocks behind the head a full node is trusted to answer calls at:
// geth keeps the state of the last 128.
const stateKept = 100

// readAt is the block a judgement of a payment in block reads the chain at, the head being head:
// the payment's own block, so that the rules see the chain as the buyer paid into it and
// anyone can ask it again; the head for a payment the service judges so late (a ledger catching
// up) that a full node no longer has its block's state. The reads kept with the verdict say
// which. A rebuild reads at the payment's block always (an old one needs an archive node), but
// reuses the service's reads where it has them (Config.ReadsFrom, as verify does); without
// them, a payment the service judged late differs from its rebuild in its reads.
func (j *Jobs) readAt(block int64, head uint64) uint64 {
	if b := uint64(max(block, 0)); j.cfg.Observe || head < b+stateKept {
		return b
	}
	return head
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
