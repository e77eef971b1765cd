package jobs

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"nodeledger/chain"
	"nodeledger/jobs/sale"
	"nodeledger/store"
)

// Step boundaries of a mint, past the outbox's, where a test may stop the payments pass.
const (
	stepMintMined    step = "mint.mined"    // its receipt is seen
	stepMintRecorded step = "mint.recorded" // its node is in the ledger
)

// mintFor is what payment p's mint of a tier node is in the outbox for, under the referral code
// ref (nil: none; a mint signed anew keeps the one its first version recorded).
func mintFor(p store.Payment, tier int, ref *store.PaymentReferral) store.TxFor {
	return store.TxFor{PaymentID: p.ID, Tier: tier, Referral: ref}
}

// mintRound is what a pass reads of the chain once for every mint it signs or watches, each
// when first needed: the head, the fees, and the gas limit of a mint of each tier.
type mintRound struct {
	head uint64
	fees *chain.Fees
	gas  map[int]uint64
}

// resendMints sends again every stored mint transaction that has no receipt yet, fills any gap
// in the minter's nonces below them, and only then signs anew, at nonces the chain hands out, the
// mints whose nonce another transaction took: the payment reference keeps the payment from minting
// twice whichever of them lands. It costs a round trip or more per mint, so a pass runs it only
// after the instance started or a pass failed (resend): the node may have dropped them meanwhile.
func (j *Jobs) resendMints(ctx context.Context, r *mintRound) error {
	minting, err := j.store.PaymentsByStatus(ctx, store.PaymentMinting, 0)
	if err != nil {
		return err
	}
	txs, err := j.openMints(ctx, minting)
	if err != nil {
		return err
	}
	var waiting []uint64
	var dead []store.Payment
	for i, p := range minting {
		o := txs[i]
		state, err := j.minter.resume(ctx, o)
		switch {
		case err != nil:
			return fmt.Errorf("payment %d: resend mint: %w", p.ID, err)
		case state == txDead:
			j.log.Warn("payments: a mint transaction lost its nonce to another; signing anew", "payment", p.ID, "tx", o.newest().Hash())
			dead = append(dead, p)
		default:
			waiting = append(waiting, o.newest().Nonce())
		}
	}
	if err := j.minter.fillGaps(ctx, waiting); err != nil {
		return err
	}
	j.minter.sender.ResetNonce()
	for _, p := range dead {
		if err := j.signMint(ctx, p, *p.Tier, nil, r); err != nil {
			return err
		}
	}
	return nil
}

// openMints opens the mint transactions of payments, all minting, in one read of the outbox.
func (j *Jobs) openMints(ctx context.Context, payments []store.Payment) ([]*outTx, error) {
	rows, newest := make([]store.TxFor, len(payments)), make([][]byte, len(payments))
	for i, p := range payments {
		rows[i], newest[i] = mintFor(p, *p.Tier, nil), p.MintRaw
	}
	return j.minter.open(ctx, rows, newest)
}

// signMint signs payment p's mint of a tier node (under the referral code ref) at the minter's
// next nonce, stores it, and only then sends it. Its gas limit is that of the dearest mint of its
// tier, read once a pass (a buyer's first node costs more than their later ones, and several
// mints for one buyer can be under way at once); a mint that reverts anyway is mined reverted and
// settled as such (settleReverted).
func (j *Jobs) signMint(ctx context.Context, p store.Payment, tier int, ref *store.PaymentReferral, r *mintRound) error {
	if err := j.readRound(ctx, r); err != nil {
		return err
	}
	gas, ok := r.gas[tier]
	if !ok {
		var err error
		if gas, err = j.chain.MintGas(ctx, j.minter.sender.From, uint8(tier)); err != nil {
			return fmt.Errorf("payment %d: mint gas: %w", p.ID, err)
		}
		r.gas[tier] = gas
	}
	factory := j.chain.Factory()
	data := j.chain.MintData(common.HexToAddress(p.From), uint8(tier), common.HexToHash(p.PaymentRef))
	tx, err := j.minter.sender.SignWith(ctx, *r.fees, gas, &factory, data, nil)
	if err == nil {
		_, err = j.minter.post(ctx, mintFor(p, tier, ref), tx, r.head)
	}
	if err != nil {
		return fmt.Errorf("payment %d: mint: %w", p.ID, err)
	}
	return nil
}

// readRound reads the head and the fees into r, once.
func (j *Jobs) readRound(ctx context.Context, r *mintRound) error {
	if r.fees != nil {
		return nil
	}
	head, err := j.chain.HeadNumber(ctx)
	if err != nil {
		return err
	}
	fees, err := j.minter.sender.Fees(ctx)
	if err != nil {
		return err
	}
	r.head, r.fees, r.gas = head, &fees, map[int]uint64{}
	return nil
}

// settleMints records the node of each mint transaction mined, or the reason it reverted, and
// replaces or sends again those that wait too long (settleOnce). Until wait has passed, it looks
// again, more slowly as time goes by, while some wait: the cron route and the operator's button
// answer with what their pass minted. The runner's passes do not wait (wait 0): the next head
// runs the next pass.
func (j *Jobs) settleMints(ctx context.Context, sum *PaymentsSummary, r *mintRound, wait time.Duration) error {
	deadline := time.Now().Add(wait)
	for poll := 50 * time.Millisecond; ; poll = min(2*poll, time.Second) {
		waiting, err := j.settleOnce(ctx, sum, r)
		if err != nil {
			return err
		}
		left := time.Until(deadline)
		if waiting == 0 || left <= 0 {
			sum.Minting = waiting
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(min(poll, left)):
		}
	}
}

// settleOnce looks once at every mint transaction under way (outbox.look: a bounded number of
// round trips however many there are), records what was mined, signs anew those whose nonce
// another transaction took, and nudges those that wait too long: the minter's next to be mined is
// replaced with higher fees once it has waited BumpBlocks blocks (or the node refused its fees),
// and one queued behind it is sent again every BumpBlocks blocks, in case the node dropped it.
// It returns how many still wait.
func (j *Jobs) settleOnce(ctx context.Context, sum *PaymentsSummary, r *mintRound) (waiting int, _ error) {
	minting, err := j.store.PaymentsByStatus(ctx, store.PaymentMinting, 0)
	if err != nil || len(minting) == 0 {
		return 0, err
	}
	// In nonce order: a mint stuck waiting for fees holds up those after it, so it is seen first.
	slices.SortStableFunc(minting, func(a, b store.Payment) int { return cmp.Compare(*a.MintNonce, *b.MintNonce) })
	txs, err := j.openMints(ctx, minting)
	if err != nil {
		return 0, err
	}
	states, next, err := j.minter.look(ctx, txs)
	if err != nil {
		return 0, err
	}
	if slices.Contains(states, txWaiting) {
		if r.head, err = j.chain.HeadNumber(ctx); err != nil {
			return 0, err
		}
	}
	for i, p := range minting {
		o := txs[i]
		switch states[i] {
		case txMined:
			if err := j.step(stepMintMined); err != nil {
				return 0, err
			}
			if err := j.settle(ctx, p, o.receipt, o.mined(), sum); err != nil {
				return 0, err
			}
		case txDead:
			j.log.Warn("payments: a mint transaction lost its nonce to another; signing anew", "payment", p.ID, "tx", o.newest().Hash())
			j.minter.sender.ResetNonce()
			if err := j.signMint(ctx, p, *p.Tier, nil, r); err != nil {
				return 0, err
			}
			waiting++
		default:
			waiting++
			if err := j.minter.nudge(ctx, o, next, r.head); err != nil {
				return 0, fmt.Errorf("payment %d: %w", p.ID, err)
			}
		}
	}
	return waiting, nil
}

func (j *Jobs) settle(ctx context.Context, p store.Payment, r *types.Receipt, tx *types.Transaction, sum *PaymentsSummary) error {
	m, ok := j.chain.MintedIn(r)
	if r.Status != types.ReceiptStatusSuccessful || !ok {
		return j.settleReverted(ctx, p, tx, sum)
	}
	return j.recordMint(ctx, p, m, sum)
}

func (j *Jobs) recordMint(ctx context.Context, p store.Payment, m chain.Minted, sum *PaymentsSummary) error {
	next := time.Now().Add(j.cfg.DistPeriod)
	_, _, err := j.store.RecordMint(ctx, p.ID, store.NewNode{
		ChainNodeID: m.ID, Tier: int(m.Tier), Owner: hexLower(m.Owner), PriceWei: p.ValueWei.Int,
		MintTx: hexLower(m.TxHash), NextCreditAt: &next,
	})
	if err != nil {
		return err
	}
	sum.Minted++
	return j.step(stepMintRecorded)
}

// settleReverted handles a mint that reverted. The payment reference already used means an
// earlier transaction minted this payment's node: find it and record it. Any other reason (the
// wallet filled up, minting was paused in between) rejects the payment.
func (j *Jobs) settleReverted(ctx context.Context, p store.Payment, tx *types.Transaction, sum *PaymentsSummary) error {
	m, found, err := j.chain.FindMint(ctx, common.HexToHash(p.PaymentRef), uint64(p.BlockNumber))
	if err != nil {
		return err
	}
	if found {
		return j.recordMint(ctx, p, m, sum)
	}
	var re *chain.RevertError
	customError := ""
	if why := j.chain.Why(ctx, j.minter.sender.From, tx); errors.As(why, &re) {
		customError = re.Name
	}
	reason := sale.Refused(customError)
	if err := j.store.RejectPayment(ctx, p.ID, store.PaymentMinting, reason.Code, reason.Args); err != nil {
		return err
	}
	sum.Rejected++
	return nil
}
