package jobs

import (
	"context"
	"errors"

	"github.com/ethereum/go-ethereum/common"

	"nodeledger/store"
)

// settleBatches decides, after the payments scan, what the chain made of the open refund
// batches beyond their executions (which the scan records): a batch whose nonce the treasury's
// nonce has passed at the scan's last block, without its hash executing, is void (another Safe
// transaction took the nonce; its payments are owed again). It also notes the batches a
// transaction above the confirmed blocks executes, which their buyers read as sent. Nothing is
// read from the chain while no batch is open.
func (j *Jobs) settleBatches(ctx context.Context) error {
	if j.cfg.Treasury == (common.Address{}) {
		return nil
	}
	safe := hexLower(j.cfg.Treasury)
	open, err := j.store.OpenRefundBatches(ctx, safe)
	if err != nil || len(open) == 0 {
		return err
	}
	cur, err := j.store.Cursor(ctx, paymentsCursor)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	nonce, err := j.chain.SafeNonceAt(ctx, j.cfg.Treasury, common.HexToHash(cur.Hash))
	if err != nil {
		return err
	}
	voided, err := j.store.VoidRefundBatches(ctx, safe, store.Uint256{Int: nonce}, cur.Number)
	if err != nil {
		return err
	}
	if len(voided) > 0 {
		j.log.Warn("refund batches void: the treasury executed another transaction at their nonce; their payments are owed again",
			"batches", voided, "nonce", nonce, "block", cur.Number)
	}
	head, err := j.chain.HeadNumber(ctx)
	if err != nil {
		return err
	}
	sent := map[string]string{}
	if head > uint64(cur.Number) {
		execs, err := j.chain.SafeExecutions(ctx, j.cfg.Treasury, uint64(cur.Number)+1, head)
		if err != nil {
			return err
		}
		for _, e := range execs {
			if e.Success {
				sent[hexLower(e.SafeTxHash)] = hexLower(e.TxHash)
			}
		}
	}
	return j.store.SetSentRefundBatches(ctx, safe, sent)
}
