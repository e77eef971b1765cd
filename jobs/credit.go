package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/core/types"

	"nodeledger/chain"
	"nodeledger/store"
)

// Step boundaries of the credit pass, where a test may stop it as a crash would.
const (
	stepCreditWritten  = "credit.written"  // the round, its credits and batches are in the ledger
	stepCreditStored   = "credit.stored"   // a batch's transaction is signed and stored, not sent (the outbox's)
	stepCreditSent     = "credit.sent"     // a batch's transaction is sent (the outbox's)
	stepCreditMined    = "credit.mined"    // a batch's receipt is seen
	stepCreditRecorded = "credit.recorded" // a batch's credits are in the ledger
)

// CreditSummary is what a credit pass did. It answers the cron route as {ran: false, reason} or
// {ran: true, ...counts}.
type CreditSummary struct {
	Ran    bool   `json:"ran"`
	Reason string `json:"reason,omitempty"` // why the pass did not run
	// DistributionID is the round the pass worked on; 0 when no node was due.
	DistributionID int64 `json:"distributionId,omitempty"`
	// Resumed is true when the round was left pending by an earlier pass.
	Resumed          bool   `json:"resumed"`
	Nodes            int    `json:"nodes"`
	TotalWei         string `json:"totalWei"`
	Batches          int    `json:"batches"`
	ConfirmedBatches int    `json:"confirmedBatches"`
	// PendingBatches are batches whose receipt did not arrive within the receipt timeout; the
	// next pass picks the round up again.
	PendingBatches int    `json:"pendingBatches"`
	Status         string `json:"status,omitempty"` // of the round: pending or confirmed
	Note           string `json:"note,omitempty"`
}

// MarshalJSON leaves a pass that did not run at {ran: false, reason}: its zero counts would say
// it did something.
func (s CreditSummary) MarshalJSON() ([]byte, error) {
	if !s.Ran {
		return json.Marshal(struct {
			Ran    bool   `json:"ran"`
			Reason string `json:"reason"`
		}{false, s.Reason})
	}
	type plain CreditSummary
	return json.Marshal(plain(s))
}

// creditResigns bounds how often one pass signs a new transaction for a batch whose transaction
// reverted, so a batch that keeps failing surfaces as an error instead of spending gas in a loop.
const creditResigns = 3

// Credit runs one credit pass: it finishes a round an earlier pass left pending or, failing that,
// starts a round for the nodes due, and credits it on chain batch by batch. Every transaction is
// stored signed before it is sent and every batch is recorded once, guarded by its status, so the
// pass can be stopped at any instant and run again.
func (j *Jobs) Credit(ctx context.Context) (sum CreditSummary, err error) {
	if !j.cfg.DistEnabled {
		return CreditSummary{Reason: "distribution is switched off (DIST_ENABLED=false)"}, nil
	}
	if j.distributor == nil {
		return CreditSummary{Reason: "no distributor key is configured (DISTRIBUTOR_KEY)"}, nil
	}
	ctx, end, ok, err := j.startPass(ctx, store.LockCredit)
	if err != nil {
		return sum, fmt.Errorf("credit: %w", err)
	}
	defer end()
	if !ok {
		return CreditSummary{Reason: "another credit pass is running"}, nil
	}

	sum = CreditSummary{Ran: true, TotalWei: "0"}
	round, err := j.store.PendingRound(ctx)
	switch {
	case err == nil:
		sum.Resumed = true
	case errors.Is(err, store.ErrNotFound):
		round, err = j.startRound(ctx)
		if errors.Is(err, store.ErrNothingDue) {
			sum.Note = "no node is due for credit"
			return sum, nil
		}
		if err != nil {
			return sum, fmt.Errorf("credit: %w", err)
		}
		if err := j.step(stepCreditWritten); err != nil {
			return sum, err
		}
	default:
		return sum, fmt.Errorf("credit: %w", err)
	}
	sum.DistributionID, sum.Nodes, sum.TotalWei, sum.Batches = round.ID, round.NodeCount, round.TotalWei.String(), len(round.Batches)
	sum.Status = "pending"
	if err := j.creditRound(ctx, round, &sum); err != nil {
		return sum, fmt.Errorf("credit: round %d: %w", round.ID, err)
	}
	switch {
	case sum.ConfirmedBatches == sum.Batches:
		sum.Status = "confirmed"
	case sum.PendingBatches > 0:
		sum.Note = fmt.Sprintf("%d batch(es) not mined within %s; the next pass resumes the round", sum.PendingBatches, j.cfg.ReceiptTimeout)
	}
	return sum, nil
}

// startRound writes a round for the nodes due now, priced by the configured mode.
func (j *Jobs) startRound(ctx context.Context) (store.Round, error) {
	amounts, err := j.creditAmounts()
	if err != nil {
		return store.Round{}, err
	}
	return j.store.StartRound(ctx, store.NewRound{
		Mode:        j.cfg.DistMode,
		FundingMode: "value", // each credit call carries its batch's total
		BatchSize:   j.cfg.CreditBatch,
		Amounts:     amounts,
	})
}

// creditAmounts returns the pricing of the configured mode: fixed pays every due node the base
// accrual scaled by its tier's payoutBps; pool shares the pool among the due nodes pro rata
// payoutBps, to the wei.
func (j *Jobs) creditAmounts() (func([]store.DueNode) ([]*big.Int, error), error) {
	switch j.cfg.DistMode {
	case "fixed":
		if j.cfg.DistBaseWei == nil || j.cfg.DistBaseWei.Sign() < 0 {
			return nil, errors.New("fixed mode needs a base amount (DistBaseWei)")
		}
		return func(due []store.DueNode) ([]*big.Int, error) { return fixedAmounts(j.cfg.DistBaseWei, due), nil }, nil
	case "pool":
		if j.cfg.DistPoolWei == nil || j.cfg.DistPoolWei.Sign() < 0 {
			return nil, errors.New("pool mode needs a pool amount (DistPoolWei)")
		}
		return func(due []store.DueNode) ([]*big.Int, error) { return poolAmounts(j.cfg.DistPoolWei, due), nil }, nil
	}
	return nil, fmt.Errorf("unknown distribution mode %q (want fixed or pool)", j.cfg.DistMode)
}

var bpsBase = big.NewInt(10000)

// fixedAmounts is base * payoutBps / 10000 for each node, rounded down.
func fixedAmounts(base *big.Int, due []store.DueNode) []*big.Int {
	out := make([]*big.Int, len(due))
	for i, n := range due {
		out[i] = new(big.Int).Mul(base, big.NewInt(n.PayoutBps))
		out[i].Quo(out[i], bpsBase)
	}
	return out
}

// poolAmounts splits pool pro rata payoutBps, so that the amounts add up to the pool exactly:
// each node gets its share rounded down, and what the rounding left over (fewer wei than there
// are paid nodes) goes 1 wei each to the first paid nodes by id, the same nodes on every run.
// When no due node has a payout rate the pool is not spent.
func poolAmounts(pool *big.Int, due []store.DueNode) []*big.Int {
	out := make([]*big.Int, len(due))
	sumBps := new(big.Int)
	for _, n := range due {
		sumBps.Add(sumBps, big.NewInt(n.PayoutBps))
	}
	left := new(big.Int).Set(pool)
	for i, n := range due {
		out[i] = new(big.Int)
		if sumBps.Sign() > 0 {
			out[i].Mul(pool, big.NewInt(n.PayoutBps))
			out[i].Quo(out[i], sumBps)
		}
		left.Sub(left, out[i])
	}
	if sumBps.Sign() == 0 {
		return out
	}
	one := big.NewInt(1)
	for i, n := range due {
		if left.Sign() == 0 {
			break
		}
		if n.PayoutBps > 0 {
			out[i].Add(out[i], one)
			left.Sub(left, one)
		}
	}
	return out
}

// creditTx is a batch with the transaction that should credit it.
type creditTx struct {
	batch *store.CreditBatch
	out   *outTx
}

// creditOut is batch b's credit in the outbox, with its stored versions when load is set.
func (j *Jobs) creditOut(ctx context.Context, b *store.CreditBatch, load bool) (*outTx, error) {
	o := &outTx{kind: "credit", sender: j.distributor, keep: func(ctx context.Context, v store.SentTx) error {
		return j.store.StoreBatchTx(ctx, b.ID, v)
	}}
	if load {
		return o, j.load(ctx, o, store.TxFor{BatchID: b.ID}, b.Raw)
	}
	return o, nil
}

// creditRound sends what the round still needs and records each batch whose receipt arrives.
// Stored transactions are sent again first, so that the nonces they hold are taken before the
// sender asks the chain for a nonce to sign anything new.
func (j *Jobs) creditRound(ctx context.Context, round store.Round, sum *CreditSummary) error {
	var unsigned []*store.CreditBatch
	var sent []creditTx
	var waiting []uint64
	for i := range round.Batches {
		b := &round.Batches[i]
		switch {
		case b.Status == "confirmed":
			sum.ConfirmedBatches++
		case len(b.Raw) == 0:
			unsigned = append(unsigned, b)
		default:
			o, err := j.creditOut(ctx, b, true)
			if err != nil {
				return fmt.Errorf("batch %d: %w", b.ID, err)
			}
			alive, err := j.resume(ctx, o)
			if err != nil {
				return fmt.Errorf("batch %d: %w", b.ID, err)
			}
			if !alive {
				j.log.Warn("credit: stored transaction lost its nonce to another; signing anew", "batch", b.ID, "tx", o.newest().Hash())
				unsigned = append(unsigned, b)
				continue
			}
			sent = append(sent, creditTx{b, o})
			waiting = append(waiting, o.newest().Nonce())
		}
	}
	if err := j.fillGaps(ctx, j.distributor, waiting); err != nil {
		return err
	}
	if len(unsigned) > 0 {
		// A new process, or a transaction dropped or replaced: the chain knows the next nonce.
		j.distributor.ResetNonce()
	}
	for _, b := range unsigned {
		o, err := j.sendCredit(ctx, b, sum)
		if err != nil {
			return fmt.Errorf("batch %d: %w", b.ID, err)
		}
		if o != nil {
			sent = append(sent, creditTx{b, o})
		}
	}

	deadline := time.Now().Add(j.cfg.ReceiptTimeout)
	resigns := 0
	for len(sent) > 0 {
		ct := sent[0]
		sent = sent[1:]
		r, tx, err := j.await(ctx, ct.out, deadline)
		switch {
		case errors.Is(err, errNotMinedYet):
			sum.PendingBatches++
			continue // still checks the others once: they may have been mined together
		case errors.Is(err, chain.ErrNonceTaken):
			j.log.Warn("credit: transaction lost its nonce to another; signing anew", "batch", ct.batch.ID, "tx", ct.out.newest().Hash())
		case err != nil:
			return fmt.Errorf("batch %d: %w", ct.batch.ID, err)
		default:
			if err := j.step(stepCreditMined); err != nil {
				return err
			}
			if r.Status == types.ReceiptStatusSuccessful {
				hash := hexLower(tx.Hash())
				if err := j.recordCredit(ctx, ct.batch, &hash, sum); err != nil {
					return err
				}
				continue
			}
			// Reverted: it cost gas and credited nothing. Signing anew answers why: a round id the
			// contract has seen means another transaction credited this batch already. The batch
			// stays pending meanwhile (see store.CreditBatch.Status); should the pass stop here, the
			// next one finds the same reverted receipt and comes back to this point.
			j.log.Warn("credit: transaction reverted; signing anew", "batch", ct.batch.ID, "tx", tx.Hash())
		}
		if resigns++; resigns > creditResigns {
			return fmt.Errorf("batch %d: its transactions keep failing (%d this pass, the last %s)", ct.batch.ID, resigns, ct.out.newest().Hash())
		}
		j.distributor.ResetNonce()
		o, err := j.sendCredit(ctx, ct.batch, sum)
		if err != nil {
			return fmt.Errorf("batch %d: %w", ct.batch.ID, err)
		}
		if o != nil {
			sent = append(sent, creditTx{ct.batch, o})
		}
	}
	return nil
}

// sendCredit signs the batch's credit call, stores it, then sends it. When the contract answers
// that the batch's round id was used, another transaction credited the batch: it is recorded as
// confirmed and no transaction is returned.
func (j *Jobs) sendCredit(ctx context.Context, b *store.CreditBatch, sum *CreditSummary) (*outTx, error) {
	credits, err := j.store.BatchCredits(ctx, b.ID)
	if err != nil {
		return nil, err
	}
	ids := make([]*big.Int, len(credits))
	amounts := make([]*big.Int, len(credits))
	total := new(big.Int)
	for i, c := range credits {
		ids[i], amounts[i] = c.ChainNodeID.Int, c.AmountWei.Int
		total.Add(total, c.AmountWei.Int)
	}
	if total.Cmp(b.TotalWei.Int) != 0 || len(credits) != b.NodeCount {
		return nil, fmt.Errorf("ledger inconsistent: %d credits of %s wei, batch says %d of %s", len(credits), total, b.NodeCount, b.TotalWei)
	}
	o, err := j.creditOut(ctx, b, false)
	if err != nil {
		return nil, err
	}
	// A failed send leaves the stored transaction for the next pass to send again.
	err = j.send(ctx, o, j.chain.Factory(), j.chain.CreditData(big.NewInt(b.ID), ids, amounts), b.TotalWei.Int)
	var rev *chain.RevertError
	if errors.As(err, &rev) && rev.Name == "RoundUsed" {
		j.log.Warn("credit: round id already used on chain; recording the batch as credited", "batch", b.ID)
		// Which transaction credited it is not known here: the ledger says null, not a wrong one.
		return nil, j.recordCredit(ctx, b, nil, sum)
	}
	if err != nil {
		return nil, err
	}
	return o, nil
}

// recordCredit records a batch credited on chain.
func (j *Jobs) recordCredit(ctx context.Context, b *store.CreditBatch, txHash *string, sum *CreditSummary) error {
	c, err := j.store.ConfirmBatch(ctx, b.ID, txHash, j.cfg.DistPeriod)
	if err != nil {
		return err
	}
	if !c.Applied {
		j.log.Warn("credit: batch was recorded already", "batch", b.ID)
	}
	b.Status = "confirmed"
	sum.ConfirmedBatches++
	return j.step(stepCreditRecorded)
}
