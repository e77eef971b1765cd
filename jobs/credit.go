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
	stepCreditWritten  = "credit.written"  // the round and its credits are in the ledger
	stepCreditStored   = "credit.stored"   // the round's transaction is signed and stored, not sent (the outbox's)
	stepCreditSent     = "credit.sent"     // the round's transaction is sent (the outbox's)
	stepCreditMined    = "credit.mined"    // its receipt is seen
	stepCreditRecorded = "credit.recorded" // the round's credits are in the ledger's balances
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
	// Repriced is true when a node was minted after the round was priced, which the contract
	// refuses (NodeCountChanged): the round was priced again for the new count.
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
// amount are left to the caller.
func (j *Jobs) roundState(ctx context.Context) (store.NewRound, error) {
	st, err := j.chain.RoundState(ctx)
	if err != nil {
		return store.NewRound{}, err
	}
	return store.NewRound{ChainNodes: st.Nodes, CarryWei: st.PoolCarry, TierNodes: st.TierNodes}, nil
}

// creditResigns bounds how often one pass signs a new transaction for a round whose transaction
// reverted, so a round that keeps failing surfaces as an error instead of spending gas in a loop.
const creditResigns = 3

// roundOut is round id's credit in the outbox.
func (j *Jobs) roundOut(id int64) *outTx {
	return &outTx{kind: "credit", sender: j.distributor, keep: func(ctx context.Context, v store.SentTx) error {
		return j.store.StoreRoundTx(ctx, id, v)
	}}
}

// creditRound sends the round's transaction, or sends again the one an earlier pass stored, and
// records the round once it is mined. A stored transaction is sent again first, so that the nonce
// it holds is taken before the sender asks the chain for a nonce to sign anything new.
func (j *Jobs) creditRound(ctx context.Context, round store.Round, sum *CreditSummary) error {
	var o *outTx
	if len(round.Raw) > 0 {
		o = j.roundOut(round.ID)
		if err := j.load(ctx, o, store.TxFor{RoundID: round.ID}, round.Raw); err != nil {
			return err
		}
		alive, err := j.resume(ctx, o)
		if err != nil {
			return err
		}
		if !alive {
			j.log.Warn("credit: stored transaction lost its nonce to another; signing anew", "round", round.ID, "tx", o.newest().Hash())
			o = nil
		} else if err := j.fillGaps(ctx, j.distributor, []uint64{o.newest().Nonce()}); err != nil {
			return err
		}
	}

	deadline := time.Now().Add(j.cfg.ReceiptTimeout)
	for resigns := 0; ; resigns++ {
		if o == nil {
			if resigns > creditResigns {
				return fmt.Errorf("its transactions keep failing (%d this pass)", resigns)
			}
			// A new process, or a transaction dropped or replaced: the chain knows the next nonce.
			j.distributor.ResetNonce()
			var err error
			if o, round, err = j.sendRound(ctx, round, sum); o == nil || err != nil {
				return err
			}
		}
		r, tx, err := j.await(ctx, o, deadline)
		switch {
		case errors.Is(err, errNotMinedYet):
			sum.Note = fmt.Sprintf("the round's transaction was not mined within %s; the next pass takes it up again", j.cfg.ReceiptTimeout)
			return nil
		case errors.Is(err, chain.ErrNonceTaken):
			j.log.Warn("credit: transaction lost its nonce to another; signing anew", "round", round.ID, "tx", o.newest().Hash())
		case err != nil:
			return err
		default:
			if err := j.step(stepCreditMined); err != nil {
				return err
			}
			if r.Status == types.ReceiptStatusSuccessful {
				hash := hexLower(tx.Hash())
				j.checkDistributed(r, round)
				return j.recordRound(ctx, round, &hash, sum)
			}
			// Reverted: it cost gas and credited nothing. Signing anew answers why: a round id the
			// contract has seen means another transaction credited it already, a node minted since
			// it was priced means pricing it again. The round stays pending meanwhile; should the
			// pass stop here, the next one finds the same reverted receipt and comes back here.
			j.log.Warn("credit: transaction reverted; signing anew", "round", round.ID, "tx", tx.Hash())
		}
		o = nil
	}
}

// creditReprices bounds how often one pass prices a round again for nodes minted meanwhile.
const creditReprices = 3

// sendRound signs the round's distribute call, stores it, then sends it, and returns it in the
// outbox with the round as signed. When the contract answers that the round id was used, another
// transaction credited the round: it is recorded and no transaction is returned. When it answers
// that the chain's node count changed, a node was minted since the round was priced: the round is
// priced again for the chain's count and signed again. Safe even should an earlier version still
// be mined somewhere: each names the node count it was priced for, the contract refuses it unless
// that is nodeCount, and nodeCount, which has passed it, never goes back (but by a reorg, which
// would take the mint and the round back together).
func (j *Jobs) sendRound(ctx context.Context, round store.Round, sum *CreditSummary) (*outTx, store.Round, error) {
	for reprices := 0; ; reprices++ {
		o := j.roundOut(round.ID)
		// A failed send leaves the stored transaction for the next pass to send again.
		err := j.send(ctx, o, j.chain.Factory(), j.distributeData(round), round.Value())
		var rev *chain.RevertError
		switch {
		case errors.As(err, &rev) && rev.Name == "RoundUsed":
			j.log.Warn("credit: round id already used on chain; recording the round as credited", "round", round.ID)
			// Which transaction credited it is not known here: the ledger says null, not a wrong one.
			return nil, round, j.recordRound(ctx, round, nil, sum)
		case errors.As(err, &rev) && rev.Name == "NodeCountChanged" && reprices < creditReprices:
			st, err := j.roundState(ctx)
			if err != nil {
				return nil, round, err
			}
			j.log.Info("credit: a node was minted since the round was priced; pricing it again", "round", round.ID,
				"nodes", round.ChainNodes, "now", st.ChainNodes)
			repriced, err := j.store.RepriceRound(ctx, round.ID, round.Repriced(st))
			var behind *store.LedgerBehindError
			if errors.As(err, &behind) {
				sum.Note = behindNote(behind)
				return nil, round, nil
			}
			if err != nil {
				return nil, round, err
			}
			round, sum.Repriced = repriced, true
			sum.setRound(round)
			continue
		case err != nil:
			return nil, round, err
		}
		return o, round, nil
	}
}

// distributeData is the calldata of round's factory.distribute call.
func (j *Jobs) distributeData(round store.Round) []byte {
	weights := make([]uint32, len(round.Weights))
	for i, w := range round.Weights {
		weights[i] = uint32(w)
	}
	mode := chain.RoundFixed
	if round.Mode == store.DistPool {
		mode = chain.RoundPool
	}
	return j.chain.DistributeData(big.NewInt(round.ID), mode, round.AmountWei.Int, round.ChainNodes, weights)
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

// recordRound records the round credited on chain.
func (j *Jobs) recordRound(ctx context.Context, round store.Round, txHash *string, sum *CreditSummary) error {
	applied, err := j.store.ConfirmRound(ctx, round.ID, txHash, j.cfg.DistPeriod)
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
