package treasury

import (
	"context"
	"errors"

	"github.com/ethereum/go-ethereum/common"

	"nodeledger/chain"
	"nodeledger/store"
)

// Settle decides, after the payments scan, what the chain made of the open refund
// batches beyond their executions (which the scan records): a batch whose nonce the treasury's
// nonce has passed at the scan's last block, without its hash executing, is void (another Safe
// transaction took the nonce; its payments are owed again). It also notes the batches a
// transaction above the confirmed blocks executes, which their buyers read as sent, follows
// the attempts to execute them until mined, and counts their approvals against the Safe's owners
// now. Nothing is read from the chain while no batch is open.
func (t *Treasury) Settle(ctx context.Context) error {
	if t.cfg.Safe == (common.Address{}) {
		return nil
	}
	safe := lower(t.cfg.Safe)
	open, err := t.store.OpenTreasuryBatches(ctx, safe)
	if err != nil || len(open) == 0 {
		return err
	}
	if err := t.followAttempts(ctx, open); err != nil {
		return err
	}
	if err := t.countApprovals(ctx, safe); err != nil {
		return err
	}
	cur, err := t.store.Cursor(ctx, store.PaymentsScanner)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	nonce, err := t.chain.SafeNonceAt(ctx, t.cfg.Safe, common.HexToHash(cur.Hash))
	if err != nil {
		return err
	}
	voided, err := t.store.VoidTreasuryBatches(ctx, safe, store.Uint256{Int: nonce}, cur.Number)
	if err != nil {
		return err
	}
	if len(voided) > 0 {
		t.log.Warn("treasury batches void: the treasury executed another transaction at their nonce; what they held is owed again",
			"batches", voided, "nonce", nonce, "block", cur.Number)
	}
	return t.noteSent(ctx, safe, uint64(cur.Number))
}

// countApprovals counts the open batches' approvals against the Safe's owners now: a signature
// of an owner since removed would make the execution revert (GS026), so it no longer counts, and
// a batch it made ready waits for another owner's.
func (t *Treasury) countApprovals(ctx context.Context, safe string) error {
	safeNow, err := t.chain.Safe(ctx, t.cfg.Safe)
	if err != nil {
		return err
	}
	now := owners(safeNow)
	unready, err := t.store.CountApprovals(ctx, safe, now, int(safeNow.Threshold))
	if err != nil {
		return err
	}
	if len(unready) > 0 {
		t.log.Warn("treasury batches no longer ready: an owner who signed them was removed from the treasury; they wait for another owner's signature",
			"batches", unready, "owners", now, "threshold", safeNow.Threshold)
	}
	return nil
}

// noteSent notes the batches a transaction above the confirmed blocks (past confirmed, up to the
// head) executes: their buyers read them as sent until the scan records them.
func (t *Treasury) noteSent(ctx context.Context, safe string, confirmed uint64) error {
	head, err := t.chain.HeadNumber(ctx)
	if err != nil {
		return err
	}
	sent := map[string]string{}
	if head > confirmed {
		execs, err := t.chain.SafeExecutions(ctx, t.cfg.Safe, confirmed+1, head)
		if err != nil {
			return err
		}
		for _, e := range execs {
			if e.Success {
				sent[lower(e.SafeTxHash)] = lower(e.TxHash)
			}
		}
	}
	return t.store.SetSentTreasuryBatches(ctx, safe, sent)
}

// followAttempts records what the chain made of the open batches' attempts not mined yet: the
// page or a script that sent one may be gone before it is mined. One the node no longer knows
// (dropped, or replaced by the wallet under another hash) stays sent while its batch is open.
func (t *Treasury) followAttempts(ctx context.Context, open []store.TreasuryBatch) error {
	for _, b := range open {
		for _, a := range b.Attempts {
			if a.Status != store.AttemptSent {
				continue
			}
			err := t.RecordAttempt(ctx, b, common.HexToHash(a.TxHash), a.ReportedBy)
			if err != nil && !errors.Is(err, chain.ErrUnknownTx) {
				return err
			}
		}
	}
	return nil
}

// ErrOtherSafeTx is a transaction that executes another Safe transaction than the batch's.
var ErrOtherSafeTx = errors.New("the transaction executes another Safe transaction")

// RecordAttempt reads what the chain made of transaction hash, sent to execute batch b, and
// records it (chain.ErrUnknownTx, chain.ErrNotAnExecution or ErrOtherSafeTx for one it cannot
// be): the one way an attempt is recorded, when the page or a script reports it and as the
// payments pass follows it until mined. reportedBy is who told the service of it.
func (t *Treasury) RecordAttempt(ctx context.Context, b store.TreasuryBatch, hash common.Hash, reportedBy string) error {
	a, err := t.chain.SafeAttempt(ctx, common.HexToAddress(b.Safe), hash)
	if err != nil {
		return err
	}
	if !a.Call.SameCall(SafeTxOf(b)) {
		return ErrOtherSafeTx
	}
	rec := store.BatchAttempt{TxHash: lower(hash), Sender: lower(a.From), ReportedBy: reportedBy, Status: store.AttemptSent}
	if a.Mined {
		n := int64(a.BlockNumber)
		rec.BlockNumber, rec.Status = &n, store.AttemptMined
		if !a.Success {
			rec.Status, rec.Error = store.AttemptReverted, &a.Error
		}
		if !a.Success && a.Error == "GS013" && a.BlockNumber > 0 {
			if err := t.nameRefused(ctx, b, a.BlockNumber-1, &rec); err != nil {
				return err
			}
		}
	}
	return t.store.RecordBatchAttempt(ctx, b.ID, b.Safe, rec)
}

// nameRefused names, in rec, the first transfer of batch b the treasury could not make at block
// (the one before its execution reverted with GS013, a transfer failing), running each again
// alone; rec is left as it is when each goes through alone (the treasury held too little for
// them all).
func (t *Treasury) nameRefused(ctx context.Context, b store.TreasuryBatch, block uint64, rec *store.BatchAttempt) error {
	payouts := BatchPayouts(b)
	checks, err := t.chain.CheckPayouts(ctx, common.HexToAddress(b.Safe), block, payouts)
	if err != nil {
		return err
	}
	for i, c := range checks {
		if c.Refused {
			to, says := lower(payouts[i].To), c.Reason
			rec.RefusedTo, rec.RefusedSays = &to, &says
			return nil
		}
	}
	return nil
}

// BatchPayouts are batch b's transfers, in its order, as chain.Batch packed them.
func BatchPayouts(b store.TreasuryBatch) []chain.Payout {
	var out []chain.Payout
	for _, r := range b.Refunds {
		p := chain.Payout{To: common.HexToAddress(r.To), Value: r.ValueWei.Int}
		if r.Token != nil {
			p.Token, p.Value = common.HexToAddress(*r.Token), r.Amount.Int
		}
		out = append(out, p)
	}
	for _, p := range b.Payouts {
		payout := chain.Payout{To: common.HexToAddress(p.To), Value: p.ValueWei.Int}
		if p.InToken != nil {
			payout.Token, payout.Value = common.HexToAddress(p.InToken.Address), p.InToken.Amount.Int
		}
		out = append(out, payout)
	}
	return out
}

// SafeTxOf is batch b's SafeTx, as chain builds and hashes it.
func SafeTxOf(b store.TreasuryBatch) chain.SafeTx {
	return chain.SafeTx{To: common.HexToAddress(b.To), Value: b.Value.Int, Data: b.Data, Operation: b.Operation,
		SafeTxGas: b.SafeTxGas.Int, BaseGas: b.BaseGas.Int, GasPrice: b.GasPrice.Int, GasToken: common.HexToAddress(b.GasToken),
		RefundReceiver: common.HexToAddress(b.RefundReceiver), Nonce: b.Nonce.Int}
}
