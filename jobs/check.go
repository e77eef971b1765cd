package jobs

import (
	"context"
	"errors"
	"time"

	"nodeledger/jobs/sale"
	"nodeledger/store"
)

// claimRetries bounds how often a payment is judged again after the tier it was judged to buy
// sold its last unit to a pass running at the same time.
const claimRetries = 3

// mintPending signs what an earlier pass claimed and did not sign (it failed or died in
// between, perhaps judging a later payment), then judges the pending payments and signs what
// they claim: a judgement that keeps failing never holds back the payments claimed before it.
func (j *Jobs) mintPending(ctx context.Context, sum *PaymentsSummary, r *mintRound, upTo int64) error {
	if err := j.signClaimed(ctx, r); err != nil {
		return err
	}
	if err := j.checkPayments(ctx, sum, r.head, upTo); err != nil {
		return err
	}
	return j.signClaimed(ctx, r)
}

// checkPayments judges the ChecksPerPass earliest pending payments in chain order (block, place
// in the block, call in the transaction), so the earliest get a tier's last units: the ones that
// check out claim their unit (the pass then signs their mints together: signClaimed); the others
// are rejected with their reason. The rest wait for the next pass.
func (j *Jobs) checkPayments(ctx context.Context, sum *PaymentsSummary, head uint64, upTo int64) error {
	// A rebuild applies the service's identity decisions, replayed with the settings log: one it
	// made itself would be an entry the service's log does not have.
	if !j.cfg.Observe {
		if _, err := j.store.ResolveKYCHolds(ctx, time.Now(), upTo); err != nil {
			return err
		}
	}
	var err error
	if sum.Released, err = j.store.ApplyReleases(ctx, upTo); err != nil {
		return err
	}
	pending, err := j.store.PaymentsByStatus(ctx, store.PaymentPending, j.cfg.ChecksPerPass)
	if err != nil || len(pending) == 0 {
		return err
	}
	states, err := j.chainStates(ctx, pending, head)
	if err != nil {
		return err
	}
	recalled, err := j.recalled(ctx, pending)
	if err != nil {
		return err
	}
	released, err := j.store.Releases(ctx, refs(pending), upTo)
	if err != nil {
		return err
	}
	for _, p := range pending {
		cs := states[j.readAt(p.BlockNumber, head)]
		if reads, ok := recalled[p.PaymentRef]; ok {
			cs = cs.Recalling(reads)
		}
		if r, ok := released[p.PaymentRef]; ok {
			cs = cs.Releasing(r)
		}
		reason, reads, kept, err := j.checkPayment(ctx, p, cs)
		if err == nil {
			j.reached(stageJudged, p.BlockTime)
		}
		switch {
		case err != nil:
			return err
		case reason == nil:
			continue
		case kept: // held with its tier's unit
			sum.Held++
		case reason.Holds():
			err = j.store.HoldPayment(ctx, p.ID, reason.Code, reason.Args, reads)
			sum.Held++
		default:
			err = j.store.RejectPayment(ctx, p.ID, store.PaymentPending, reason.Code, reason.Args, reads)
			sum.Rejected++
		}
		if err != nil {
			return err
		}
		sum.Reasons = append(sum.Reasons, *reason)
	}
	return nil
}

// releasesUpTo is the block up to which the payments were judged when this pass began
// (store.JudgedUpToSQL): the releases of held payments recorded by then apply in this pass, in
// the service and in a rebuild alike, whose scan stops at each release's block (scan) so that it
// judges the same payments before the release as the service.
func (j *Jobs) releasesUpTo(ctx context.Context) (int64, error) {
	return j.store.JudgedUpTo(ctx)
}

// chainStates reads the chain once for each block the judgements of payments read it at
// (readAt), with what the sanctions oracle said of their payers there.
func (j *Jobs) chainStates(ctx context.Context, payments []store.Payment, head uint64) (map[uint64]sale.ChainState, error) {
	payers := map[uint64][]string{}
	type payer struct {
		at   uint64
		from string
	}
	seen := map[payer]bool{}
	for _, p := range payments {
		k := payer{j.readAt(p.BlockNumber, head), p.From}
		if !seen[k] {
			seen[k] = true
			payers[k.at] = append(payers[k.at], k.from)
		}
	}
	states := make(map[uint64]sale.ChainState, len(payers))
	for at, from := range payers {
		cs := j.sale.ChainAt(at)
		// A rebuild that reuses the service's reads recalls the oracle's answers instead.
		if j.cfg.ReadsFrom == nil {
			if err := j.sale.ReadSanctions(ctx, &cs, from); err != nil {
				return nil, err
			}
		}
		states[at] = cs.ForMinting()
	}
	return states, nil
}

// refs are the references of payments.
func refs(payments []store.Payment) []string {
	out := make([]string, len(payments))
	for i, p := range payments {
		out[i] = p.PaymentRef
	}
	return out
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
	return j.cfg.ReadsFrom.JudgedReads(ctx, refs(payments))
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
// with what the judgement read of the chain. A payment held for its wallet's identity check keeps
// its unit too (kept: the ledger has it held, for reason). When another pass claimed the last
// unit meanwhile, p is judged again (a price step may take it) and rejected sold_out at worst.
func (j *Jobs) checkPayment(ctx context.Context, p store.Payment, cs sale.ChainState) (_ *sale.Reason, _ []store.ChainRead, kept bool, _ error) {
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
		keeps := v.Reason != nil && v.Reason.Code == sale.KYCRequired && v.Reason.Holds()
		if err != nil || v.Reason != nil && !keeps {
			return v.Reason, reads, false, err
		}
		var soldOut *store.SoldOutError
		if keeps {
			err = j.store.HoldUnit(ctx, p.ID, v.Tier.ID, v.Referral, reads, v.Reason.Code, v.Reason.Args)
		} else {
			err = j.store.ClaimMint(ctx, p.ID, v.Tier.ID, v.Referral, reads)
		}
		switch {
		case err == nil:
			return v.Reason, nil, true, j.step(stepMintClaimed)
		case !errors.As(err, &soldOut):
			return nil, nil, false, err
		case try+1 == claimRetries:
			return sale.SoldOutMeanwhile(v.Tier, soldOut.Supply, soldOut.Sold), reads, false, nil
		}
	}
}
