package jobs

import (
	"context"
	"errors"
	"fmt"
	"maps"
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
	stepMintClaimed  step = "mint.claimed"  // a payment's unit is claimed, its mint not signed
	stepMintMined    step = "mint.mined"    // a mint transaction's receipt is seen
	stepMintRecorded step = "mint.recorded" // a mint transaction's nodes are in the ledger
)

// mintRound is what a pass reads of the chain once for every mint it signs or watches, each
// when first needed: the fees (with the head they were read at and its gas limit), and the gas
// limit of a single mint of each tier. Until the fees are read, head is the pass's scan's.
type mintRound struct {
	head uint64
	fees *chain.Fees
	gas  map[int]uint64
}

// resendMints sends again every stored mint transaction that has no receipt yet, fills any gap
// in the minter's nonces below them, and only then signs anew, at nonces the chain hands out, the
// mints whose nonce another transaction took: the payment references keep a payment from minting
// twice whichever of them lands. It costs a round trip or more per transaction, so a pass runs it
// only after the instance started or a pass failed (resend): the node may have dropped them
// meanwhile.
func (j *Jobs) resendMints(ctx context.Context, r *mintRound) error {
	batches, txs, err := j.openMints(ctx)
	if err != nil {
		return err
	}
	var waiting []uint64
	var dead []store.MintBatch
	for i, b := range batches {
		o := txs[i]
		state, err := j.minter.resume(ctx, o)
		switch {
		case err != nil:
			return fmt.Errorf("mint batch %d: resend: %w", b.ID, err)
		case state == txDead:
			j.log.Warn("payments: a mint transaction lost its nonce to another; signing anew", "batch", b.ID, "tx", o.newest().Hash())
			dead = append(dead, b)
		default:
			waiting = append(waiting, o.newest().Nonce())
		}
	}
	if err := j.minter.fillGaps(ctx, waiting); err != nil {
		return err
	}
	j.minter.sender.ResetNonce()
	for _, b := range dead {
		if err := j.signMints(ctx, b.ID, b.Payments, r); err != nil {
			return err
		}
	}
	return nil
}

// openMints opens the mint transactions under way, by nonce, in one read of the ledger and one
// of the outbox.
func (j *Jobs) openMints(ctx context.Context) ([]store.MintBatch, []*outTx, error) {
	batches, err := j.store.MintBatches(ctx)
	if err != nil || len(batches) == 0 {
		return nil, nil, err
	}
	rows, newest := make([]store.TxFor, len(batches)), make([][]byte, len(batches))
	for i, b := range batches {
		rows[i], newest[i] = store.TxFor{MintBatch: b.ID}, b.Raw
	}
	txs, err := j.minter.open(ctx, rows, newest)
	return batches, txs, err
}

// signClaimed signs the mints of the payments claimed and not signed yet, in chain order, as few
// transactions as batchSize allows.
func (j *Jobs) signClaimed(ctx context.Context, r *mintRound) error {
	claimed, err := j.store.ToSign(ctx)
	if err != nil || len(claimed) == 0 {
		return err
	}
	size, err := j.batchSize(ctx, claimed, r)
	if err != nil {
		return err
	}
	for batch := range slices.Chunk(claimed, size) {
		if err := j.signMints(ctx, 0, batch, r); err != nil {
			return err
		}
	}
	return nil
}

// batchSize is how many payments one mint transaction carries: MintBatch at most, and as many as
// a quarter of the block's gas holds at the gas limit of the dearest single mint among them, so
// that several batches fit in a block (a node in a batch costs less than a single mint, never
// more).
func (j *Jobs) batchSize(ctx context.Context, ps []store.Payment, r *mintRound) (int, error) {
	var dearest uint64
	for _, p := range ps {
		gas, err := j.tierGas(ctx, *p.Tier, r)
		if err != nil {
			return 0, err
		}
		dearest = max(dearest, gas)
	}
	return max(1, min(j.cfg.MintBatch, int(r.fees.BlockGas/4/dearest))), nil
}

// signMints signs one transaction minting payments' nodes (claimed, in their tiers) at the
// minter's next nonce, stores it and only then sends it: a new batch (batch 0), or batch again
// at a new nonce, its old one taken. One payment is a mint whose gas limit is that of the
// dearest mint of its tier, read once a pass (a buyer's first node costs more than their later
// ones, and several mints for one buyer can be under way at once); several are a mintBatch,
// signed with the node's estimate of it plus a margin. A mint that reverts anyway is mined
// reverted and settled as such (settle).
func (j *Jobs) signMints(ctx context.Context, batch int64, ps []store.Payment, r *mintRound) error {
	var gas uint64 // a batch: estimated as it is signed
	if len(ps) == 1 {
		var err error
		if gas, err = j.tierGas(ctx, *ps[0].Tier, r); err != nil {
			return err
		}
	}
	if err := j.readRound(ctx, r); err != nil {
		return err
	}
	row := store.TxFor{MintBatch: batch}
	orders := make([]chain.MintOrder, len(ps))
	for i, p := range ps {
		orders[i] = chain.MintOrder{To: common.HexToAddress(p.From), Tier: uint8(*p.Tier), PaymentRef: common.HexToHash(p.PaymentRef)}
		if batch == 0 {
			row.Mints = append(row.Mints, p.ID)
		}
	}
	factory := j.chain.Factory()
	tx, err := j.minter.sender.SignWith(ctx, *r.fees, gas, &factory, j.chain.MintsData(orders), nil)
	if err == nil {
		_, err = j.minter.post(ctx, row, tx, r.head)
	}
	if err != nil {
		return fmt.Errorf("%s: mint: %w", row, err)
	}
	return nil
}

// tierGas is the gas limit of a single mint of tier, read once a pass.
func (j *Jobs) tierGas(ctx context.Context, tier int, r *mintRound) (uint64, error) {
	if err := j.readRound(ctx, r); err != nil {
		return 0, err
	}
	if gas, ok := r.gas[tier]; ok {
		return gas, nil
	}
	gas, err := j.chain.MintGas(ctx, j.minter.sender.From, uint8(tier))
	if err != nil {
		return 0, fmt.Errorf("tier %d: mint gas: %w", tier, err)
	}
	r.gas[tier] = gas
	return gas, nil
}

// readRound reads the fees into r once, and with them the head they were read at.
func (j *Jobs) readRound(ctx context.Context, r *mintRound) error {
	if r.fees != nil {
		return nil
	}
	fees, err := j.minter.sender.Fees(ctx)
	if err != nil {
		return err
	}
	r.head, r.fees, r.gas = fees.Head, &fees, map[int]uint64{}
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
		// The head moves while the pass waits: each look after the first reads it.
		ctx = chain.Moving(ctx)
		if r.head, err = j.chain.HeadNumber(ctx); err != nil {
			return err
		}
	}
}

// settleOnce looks once at every mint transaction under way (outbox.look: a bounded number of
// round trips however many there are), records what was mined, signs anew those whose nonce
// another transaction took, and nudges those that wait too long: the minter's next to be mined is
// replaced with higher fees once it has waited BumpBlocks blocks (or the node refused its fees),
// and one queued behind it is sent again every BumpBlocks blocks, in case the node dropped it.
// It returns how many payments' mints still wait.
func (j *Jobs) settleOnce(ctx context.Context, sum *PaymentsSummary, r *mintRound) (waiting int, _ error) {
	// By nonce: a mint stuck waiting for fees holds up those after it, so it is seen first.
	batches, txs, err := j.openMints(ctx)
	if err != nil || len(batches) == 0 {
		return 0, err
	}
	states, next, err := j.minter.look(ctx, txs)
	if err != nil {
		return 0, err
	}
	for i, b := range batches {
		o := txs[i]
		switch states[i] {
		case txMined:
			if err := j.step(stepMintMined); err != nil {
				return 0, err
			}
			if err := j.settle(ctx, b, o.receipt, o.mined(), r, sum); err != nil {
				return 0, err
			}
		case txDead:
			j.log.Warn("payments: a mint transaction lost its nonce to another; signing anew", "batch", b.ID, "tx", o.newest().Hash())
			j.minter.sender.ResetNonce()
			if err := j.signMints(ctx, b.ID, b.Payments, r); err != nil {
				return 0, err
			}
			waiting += len(b.Payments)
		default:
			waiting += len(b.Payments)
			if err := j.minter.nudge(ctx, o, next, r.head); err != nil {
				return 0, fmt.Errorf("mint batch %d: %w", b.ID, err)
			}
		}
	}
	return waiting, nil
}

// maxMintTries bounds how often a batch whose transaction reverted without the factory's reason
// (out of gas, most likely) is signed again before its payments are rejected.
const maxMintTries = 3

// settle records what the mined transaction tx (its receipt rc) of batch b did for each of its
// payments still minting: the node it minted, or, for a payment it minted nothing for (its order
// skipped, or the whole transaction reverted), the node an earlier transaction minted for its
// payment reference, or else the reason it buys none. The factory's reason for an order skipped
// is in the receipt; for a transaction that reverted, the call is run again at the head to read
// it. A revert without one (out of gas) signs the batch again, maxMintTries times at most.
func (j *Jobs) settle(ctx context.Context, b store.MintBatch, rc *types.Receipt, tx *types.Transaction, r *mintRound, sum *PaymentsSummary) error {
	minted, skipped := j.chain.MintsIn(rc)
	nodes := map[common.Hash]chain.Minted{} // by payment reference
	if rc.Status == types.ReceiptStatusSuccessful {
		for _, m := range minted {
			nodes[m.PaymentRef] = m
		}
	}
	var left []store.Payment
	for _, p := range b.Payments {
		if _, ok := nodes[common.HexToHash(p.PaymentRef)]; !ok {
			left = append(left, p)
		}
	}
	if len(left) > 0 {
		earlier, err := j.earlierMints(ctx, left, skipped)
		if err != nil {
			return err
		}
		maps.Copy(nodes, earlier)
	}
	var again []store.Payment
	var mints []mint
	reverted, read := "", false // the factory's reason for the whole transaction, once read
	for _, p := range b.Payments {
		ref := common.HexToHash(p.PaymentRef)
		if m, ok := nodes[ref]; ok {
			mints = append(mints, mint{p, m})
			continue
		}
		why, ok := skipped[ref]
		if !ok {
			if !read {
				reverted, read = j.revertedFor(ctx, tx), true
			}
			why = reverted
		}
		if why == "" {
			again = append(again, p)
			continue
		}
		if err := j.reject(ctx, p, why, sum); err != nil {
			return err
		}
	}
	if err := j.recordMints(ctx, mints, sum); err != nil {
		return err
	}
	if len(again) == 0 {
		return nil
	}
	tries, err := j.store.MintTries(ctx, b.ID)
	if err != nil {
		return err
	}
	if tries < maxMintTries {
		j.log.Warn("payments: a mint transaction reverted without the factory's reason; signing it again", "batch", b.ID, "tx", tx.Hash(), "tries", tries)
		return j.signMints(ctx, b.ID, again, r)
	}
	for _, p := range again {
		if err := j.reject(ctx, p, "", sum); err != nil {
			return err
		}
	}
	return nil
}

// earlierMints finds the nodes earlier transactions minted for payments' references, from the
// first payment's block. A reference the factory said was used (skipped PaymentRefUsed) has a
// node: not found there (a reorg moved the payment past its mint), it is looked for from the
// scan's first block, and still not found (an endpoint that lags), the pass fails and the next
// one looks again, rather than reject a payment that has its node.
func (j *Jobs) earlierMints(ctx context.Context, payments []store.Payment, skipped map[common.Hash]string) (map[common.Hash]chain.Minted, error) {
	refs := make([]common.Hash, len(payments))
	for i, p := range payments {
		refs[i] = common.HexToHash(p.PaymentRef)
	}
	from := uint64(payments[0].BlockNumber)
	for {
		found, _, err := j.chain.MintOutcomes(ctx, refs, from)
		if err != nil {
			return nil, err
		}
		missing := slices.IndexFunc(refs, func(ref common.Hash) bool {
			_, ok := found[ref]
			return !ok && skipped[ref] == "PaymentRefUsed"
		})
		switch {
		case missing < 0:
			return found, nil
		case from > j.cfg.ScanFrom:
			from = j.cfg.ScanFrom
		default:
			return nil, fmt.Errorf("payment %d: the factory has used its reference, and no NodeMinted event from block %d holds it", payments[missing].ID, from)
		}
	}
}

// reject rejects payment p, minting, for the factory's reason why.
func (j *Jobs) reject(ctx context.Context, p store.Payment, why string, sum *PaymentsSummary) error {
	reason := sale.Refused(why)
	if err := j.store.RejectPayment(ctx, p.ID, store.PaymentMinting, reason.Code, reason.Args, nil); err != nil {
		return err
	}
	sum.Rejected++
	sum.Reasons = append(sum.Reasons, *reason)
	return nil
}

// revertedFor is the factory's custom error that tx reverted with, read by running its call again
// at the head ("" when it names none: it would now succeed, or ran out of gas).
func (j *Jobs) revertedFor(ctx context.Context, tx *types.Transaction) string {
	var re *chain.RevertError
	if why := j.chain.Why(ctx, j.minter.sender.From, tx); errors.As(why, &re) {
		return re.Name
	}
	return ""
}

// mint is a node the factory minted for a payment.
type mint struct {
	payment store.Payment
	node    chain.Minted
}

// recordMints records the nodes minted for payments, those of one mint transaction, together.
func (j *Jobs) recordMints(ctx context.Context, mints []mint, sum *PaymentsSummary) error {
	if len(mints) == 0 {
		return nil
	}
	next := time.Now().Add(j.cfg.DistPeriod)
	nodes := make([]store.NewNode, len(mints))
	for i, m := range mints {
		nodes[i] = store.NewNode{ChainNodeID: m.node.ID, Tier: int(m.node.Tier), Owner: hexLower(m.node.Owner), PriceWei: m.payment.ValueWei.Int,
			MintTx: hexLower(m.node.TxHash), PaymentID: &m.payment.ID, NextCreditAt: &next, Block: int64(m.node.Block)}
	}
	if err := j.store.RecordMints(ctx, nodes); err != nil {
		return err
	}
	for _, m := range mints {
		j.reached(stageMinted, m.payment.BlockTime)
	}
	sum.Minted += len(mints)
	return j.step(stepMintRecorded)
}
