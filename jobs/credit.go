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

// Step boundaries of the credit pass, where a test may stop it as a crash would; the outbox's
// (stepCreditStored, stepCreditSent, and those of a replacement) come between written and mined.
const (
	stepCreditWritten  step = "credit.written"  // the round and its credits are in the ledger
	stepCreditMined    step = "credit.mined"    // its receipt is seen
	stepCreditRecorded step = "credit.recorded" // the round's credits are in the ledger's balances
)

// CreditSummary is what a credit pass did. It answers the cron route as {ran: false, reason} or
// {ran: true, ...counts}.
type CreditSummary struct {
	Ran    bool   `json:"ran"`
	Reason string `json:"reason,omitempty"` // why the pass did not run
	// DistributionID is the round the pass worked on; 0 when none was due.
	DistributionID int64 `json:"distributionId,omitempty"`
	// Resumed is true when the round was left pending by an earlier pass.
	Resumed bool `json:"resumed"`
	// Nodes are the nodes the round credits: every node the chain had when it was priced.
	Nodes    int64  `json:"nodes"`
	TotalWei string `json:"totalWei"`
	TxHash   string `json:"txHash,omitempty"` // the transaction that credited the round, once known
	// Repriced is true when a node was minted or a tier's weight changed after the round was
	// priced, which the contract refuses (NodeCountChanged, WeightsChanged): the round was priced
	// again for the chain's count and weights.
	Repriced bool              `json:"repriced,omitempty"`
	Status   store.RoundStatus `json:"status,omitempty"` // of the round: pending or confirmed
	Note     string            `json:"note,omitempty"`
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

// Credit runs one credit pass: it finishes a round an earlier pass left pending or, failing that,
// starts one when the schedule says a round is due, and credits it on chain in one transaction,
// factory.distribute, whose gas does not depend on how many nodes there are. The round and its
// credits are written before the transaction is signed, the transaction stored before it is sent,
// and the round recorded once, guarded by its status, so the pass can be stopped at any instant
// and run again.
func (j *Jobs) Credit(ctx context.Context) (sum CreditSummary, err error) {
	if !j.cfg.DistEnabled {
		return CreditSummary{Reason: "distribution is switched off (DIST_ENABLED=false)"}, nil
	}
	if j.distributor == nil {
		return CreditSummary{Reason: "no distributor is configured (DISTRIBUTOR_SIGNER or DISTRIBUTOR_KEY)"}, nil
	}
	ctx, end, ok, err := j.startPass(ctx, store.LockCredit, store.PassCredit, &err)
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
		var behind *store.LedgerBehindError
		switch {
		case errors.Is(err, store.ErrNothingDue):
			sum.Note = "no node is due for credit"
			return sum, nil
		case errors.As(err, &behind):
			sum.Note = behindNote(behind)
			return sum, nil
		case err != nil:
			return sum, fmt.Errorf("credit: %w", err)
		}
		if err := j.step(stepCreditWritten); err != nil {
			return sum, err
		}
	default:
		return sum, fmt.Errorf("credit: %w", err)
	}
	sum.DistributionID, sum.Status = round.ID, store.RoundPending
	sum.setRound(round)
	if err := j.creditRound(ctx, round, &sum); err != nil {
		return sum, fmt.Errorf("credit: round %d: %w", round.ID, err)
	}
	return sum, nil
}

func (s *CreditSummary) setRound(r store.Round) {
	s.Nodes, s.TotalWei = r.ChainNodes, r.TotalWei.String()
}

func behindNote(e *store.LedgerBehindError) string {
	return fmt.Sprintf("the chain has %d nodes and the ledger has recorded %d of them so far; the round waits for the rest", e.ChainNodes, e.Known)
}

// startRound writes a round priced by the configured mode for the chain's nodes now.
func (j *Jobs) startRound(ctx context.Context) (store.Round, error) {
	var amount *big.Int
	switch j.cfg.DistMode {
	case store.DistFixed:
		amount = j.cfg.DistBaseWei
	case store.DistPool:
		amount = j.cfg.DistPoolWei
	default:
		return store.Round{}, fmt.Errorf("unknown distribution mode %q (want fixed or pool)", j.cfg.DistMode)
	}
	if amount == nil || amount.Sign() < 0 {
		return store.Round{}, fmt.Errorf("%s mode needs an amount (DIST_BASE_WEI or DIST_POOL_WEI)", j.cfg.DistMode)
	}
	r, err := j.roundState(ctx)
	if err != nil {
		return store.Round{}, err
	}
	r.Mode, r.AmountWei = j.cfg.DistMode, amount
	return j.store.StartRound(ctx, r)
}

// roundState reads what a round is priced from on chain, as the store takes it: the mode and
// amount are left to the caller. The weights are the factory's, at the block the count is read
// at, for every tier of the ledger (a tier without nodes too, so the round records each weight).
func (j *Jobs) roundState(ctx context.Context) (store.NewRound, error) {
	tiers, err := j.store.Tiers(ctx)
	if err != nil {
		return store.NewRound{}, err
	}
	ids := make([]uint8, len(tiers))
	for i, t := range tiers {
		ids[i] = uint8(t.ID)
	}
	st, err := j.chain.RoundState(ctx, ids...)
	if err != nil {
		return store.NewRound{}, err
	}
	return store.NewRound{ChainNodes: st.Nodes, CarryWei: st.PoolCarry, TierNodes: st.TierNodes,
		Weights: st.Weights, WeightsVersion: st.WeightsVersion}, nil
}

// creditResigns bounds how often one pass signs a new transaction for a round whose transaction
// reverted, so a round that keeps failing surfaces as an error instead of spending gas in a loop.
const creditResigns = 3

// roundOutcome is where a round stands once the pass has tried a transaction for it.
type roundOutcome int

const (
	roundUnsent roundOutcome = iota // no transaction of the round can be mined: sign one
	roundFailed                     // its transaction reverted or lost its nonce: sign anew
	roundDone                       // recorded, or left for the next pass with a note
)

// roundFor is what round id's credit is in the outbox for.
func roundFor(id int64) store.TxFor { return store.TxFor{RoundID: id} }

// creditRound credits the round on chain and records it: with the transaction an earlier pass
// stored, if it can still be mined, then with new ones while each fails.
func (j *Jobs) creditRound(ctx context.Context, round store.Round, sum *CreditSummary) error {
	o, alive, err := j.resumeRound(ctx, round)
	if err != nil {
		return err
	}
	deadline := time.Now().Add(j.cfg.ReceiptTimeout)
	out := roundUnsent
	if alive {
		out, err = j.awaitRound(ctx, round, o, deadline, sum)
	}
	failed := 0
	for err == nil && out != roundDone {
		if out == roundFailed {
			failed++
		}
		if failed > creditResigns {
			return fmt.Errorf("its transactions keep failing (%d this pass)", failed)
		}
		out, err = j.signRound(ctx, &round, deadline, sum)
	}
	return err
}

// resumeRound sends again the transaction an earlier pass stored for the round and fills any gap
// in the distributor's nonces below it. It comes first, so that the nonce it holds is taken before
// the sender asks the chain for a nonce to sign anything new. alive is false when there is none,
// or none that can be mined.
func (j *Jobs) resumeRound(ctx context.Context, round store.Round) (o *outTx, alive bool, err error) {
	if len(round.Raw) == 0 {
		return nil, false, nil
	}
	opened, err := j.distributor.open(ctx, []store.TxFor{roundFor(round.ID)}, [][]byte{round.Raw})
	if err != nil {
		return nil, false, err
	}
	o = opened[0]
	state, err := j.distributor.resume(ctx, o)
	if err != nil {
		return nil, false, err
	}
	if state == txDead {
		j.log.Warn("credit: stored transaction lost its nonce to another; signing anew", "round", round.ID, "tx", o.newest().Hash())
		return nil, false, nil
	}
	return o, true, j.distributor.fillGaps(ctx, []uint64{o.newest().Nonce()})
}

// signRound signs the round's transaction anew, at the nonce the chain says is next, and awaits
// it. When the contract answers that the round id was used, another transaction credited the
// round: it is recorded as credited.
func (j *Jobs) signRound(ctx context.Context, round *store.Round, deadline time.Time, sum *CreditSummary) (roundOutcome, error) {
	// A new process, or a transaction dropped or replaced: the chain knows the next nonce.
	j.distributor.sender.ResetNonce()
	o, err := j.submitRound(ctx, round, sum)
	var rev *chain.RevertError
	var behind *store.LedgerBehindError
	switch {
	case errors.As(err, &rev) && rev.Name == "RoundUsed":
		j.log.Warn("credit: round id already used on chain; recording the round as credited", "round", round.ID)
		// Which transaction credited it is not known here: the ledger says null, not a wrong one.
		return roundDone, j.recordRound(ctx, *round, nil, 0, sum)
	case errors.As(err, &behind):
		sum.Note = behindNote(behind)
		return roundDone, nil
	case err != nil:
		return roundDone, err
	}
	return j.awaitRound(ctx, *round, o, deadline, sum)
}

// creditReprices bounds how often one pass prices a round again for nodes minted meanwhile.
const creditReprices = 3

// submitRound signs the round's distribute call and submits it to the outbox. When the contract
// answers that the chain's node count changed, a node was minted since the round was priced;
// when it answers that the weights changed, the factory's owner set a tier's weight: either way
// the round is priced again for the chain's state and signed again; a ledger that has not
// recorded every node yet answers store.LedgerBehindError. Safe even should an earlier version
// still be mined somewhere: each names the node count and weights version it was priced for,
// the contract refuses it unless those are nodeCount and weightsVersion, and neither, once past
// it, ever goes back (but by a reorg, which would take the mint or weight change and the round
// back together).
func (j *Jobs) submitRound(ctx context.Context, round *store.Round, sum *CreditSummary) (*outTx, error) {
	for reprices := 0; ; reprices++ {
		// A failed send leaves the stored transaction for the next pass to send again.
		o, err := j.distributor.submit(ctx, roundFor(round.ID), j.chain.Factory(), j.distributeData(*round), round.Value())
		var rev *chain.RevertError
		if !errors.As(err, &rev) || (rev.Name != "NodeCountChanged" && rev.Name != "WeightsChanged") || reprices >= creditReprices {
			return o, err
		}
		if err := j.repriceRound(ctx, round, sum); err != nil {
			return nil, err
		}
	}
}

// repriceRound prices the round again for the nodes and weights the chain has now.
func (j *Jobs) repriceRound(ctx context.Context, round *store.Round, sum *CreditSummary) error {
	st, err := j.roundState(ctx)
	if err != nil {
		return err
	}
	j.log.Info("credit: a node was minted or a weight changed since the round was priced; pricing it again", "round", round.ID,
		"nodes", round.ChainNodes, "now", st.ChainNodes, "weights_version", round.WeightsVersion, "now_version", st.WeightsVersion)
	repriced, err := j.store.RepriceRound(ctx, round.ID, round.Repriced(st))
	if err != nil {
		return err
	}
	*round, sum.Repriced = repriced, true
	sum.setRound(*round)
	return nil
}

// awaitRound waits for o, the round's transaction, to be mined, and records the round when it
// credited it.
func (j *Jobs) awaitRound(ctx context.Context, round store.Round, o *outTx, deadline time.Time, sum *CreditSummary) (roundOutcome, error) {
	state, err := j.distributor.await(ctx, o, deadline)
	switch {
	case err != nil:
		return roundDone, err
	case state == txWaiting:
		sum.Note = fmt.Sprintf("the round's transaction was not mined within %s; the next pass takes it up again", j.cfg.ReceiptTimeout)
		return roundDone, nil
	case state == txDead:
		j.log.Warn("credit: transaction lost its nonce to another; signing anew", "round", round.ID, "tx", o.newest().Hash())
		return roundFailed, nil
	}
	if err := j.step(stepCreditMined); err != nil {
		return roundDone, err
	}
	if o.receipt.Status != types.ReceiptStatusSuccessful {
		// Reverted: it cost gas and credited nothing. Signing anew answers why: a round id the
		// contract has seen means another transaction credited it already, a node minted since
		// it was priced means pricing it again. The round stays pending meanwhile; should the
		// pass stop here, the next one finds the same reverted receipt and comes back here.
		j.log.Warn("credit: transaction reverted; signing anew", "round", round.ID, "tx", o.mined().Hash())
		return roundFailed, nil
	}
	hash := hexLower(o.mined().Hash())
	j.checkDistributed(o.receipt, round)
	return roundDone, j.recordRound(ctx, round, &hash, o.receipt.BlockNumber.Int64(), sum)
}

// distributeData is the calldata of round's factory.distribute call: it names no weights, only
// the version of the factory's weights the round was priced with.
func (j *Jobs) distributeData(round store.Round) []byte {
	mode := chain.RoundFixed
	if round.Mode == store.DistPool {
		mode = chain.RoundPool
	}
	return j.chain.DistributeData(big.NewInt(round.ID), mode, round.AmountWei.Int, round.ChainNodes, uint64(round.WeightsVersion))
}

// checkDistributed compares what the chain says the round credited with the ledger's credits:
// they are priced by the same arithmetic, so a difference is a bug, or a weight or count read
// wrong, and the chain is right. The round is recorded all the same (the chain has credited it);
// the drift report then shows which nodes differ.
func (j *Jobs) checkDistributed(r *types.Receipt, round store.Round) {
	total, ok := j.chain.DistributedIn(r)
	if !ok || total.Cmp(round.TotalWei.Int) != 0 {
		j.log.Error("credit: the chain credited the round differently from the ledger", "round", round.ID,
			"ledger_wei", round.TotalWei, "chain_wei", total, "tx", r.TxHash)
	}
}

// recordRound records the round credited on chain by txHash in block (nil and 0: not known).
func (j *Jobs) recordRound(ctx context.Context, round store.Round, txHash *string, block int64, sum *CreditSummary) error {
	applied, err := j.store.ConfirmRound(ctx, round.ID, txHash, block, j.cfg.DistPeriod)
	if err != nil {
		return err
	}
	if !applied {
		j.log.Warn("credit: round was recorded already", "round", round.ID)
	}
	sum.Status = store.RoundConfirmed
	if txHash != nil {
		sum.TxHash = *txHash
	}
	return j.step(stepCreditRecorded)
}
