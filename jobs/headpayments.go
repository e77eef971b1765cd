package jobs

import (
	"context"
	"errors"

	"github.com/ethereum/go-ethereum/common"

	"nodeledger/chain"
	"nodeledger/store"
)

// followHead records the payments of the blocks above the payments scan's reach, up to head
// (store.RecordHead): what a tracker shows while its payment confirms, so that no reader asks the
// chain about a payment the wallet received, however many watch. It reads each block once, as it
// arrives: the block with the payments wallet's transactions, and the listed tokens' Transfer
// logs to the wallet (read with the scan's when it followed the head: scanned); a reorg at the
// head is found and taken back as the scan's is (checkCursor).
// A contract wallet's payment, a call inside a transaction that only a trace shows, is left to
// the scan: its tracker reads the chain until the scan records it.
func (j *Jobs) followHead(ctx context.Context, head uint64, scanned *scannedBlocks) error {
	payTo := j.cfg.PaymentAddress
	if payTo == (common.Address{}) {
		return nil
	}
	from := head - min(head, j.cfg.Confirmations) + 1 // the scan reads up to head - Confirmations
	cur, err := j.store.Cursor(ctx, store.HeadScanner)
	switch {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		return err
	default:
		next, _, err := j.checkCursor(ctx, store.HeadScanner, cur, j.store.RewindHead)
		if err != nil {
			return err
		}
		from = max(from, next)
	}
	if from > head {
		return nil
	}
	blocks, err := j.chain.Blocks(ctx, from, head, payTo)
	if err != nil {
		return err
	}
	// A transfer into a wallet without code cannot fail; into one with code (or not known to have
	// none) its receipt says.
	last := j.lastWallet.Load()
	mayFail := last == nil || last.HasCode
	if err := j.chain.Outcomes(ctx, blocks, func(_ chain.Block, tx chain.Tx) bool {
		return mayFail && tx.To != nil && *tx.To == payTo
	}); err != nil {
		return err
	}
	seen := classify(blocks, j.watched())
	if len(j.cfg.PaymentTokens) > 0 {
		transfers, err := j.headTransfers(ctx, blocks, scanned)
		if err != nil {
			return err
		}
		seen.Payments = append(seen.Payments, j.tokenPayments(transfers)...)
	}
	return j.store.RecordHead(ctx, seen.Blocks, seen.Payments)
}

// headTransfers are the listed tokens' transfers to the payments wallet in blocks, read after
// them: from what the scan read past its range when it did (scanned.above), else asked for. A
// transfer of another block than the one read at its height is errReorgWhileReading.
func (j *Jobs) headTransfers(ctx context.Context, blocks []chain.Block, scanned *scannedBlocks) ([]chain.TokenTransfer, error) {
	from, head, payTo := blocks[0].Number, blocks[len(blocks)-1].Number, j.cfg.PaymentAddress
	var transfers []chain.TokenTransfer
	if scanned != nil && scanned.to < from && scanned.tokensTo >= head {
		for _, t := range scanned.above {
			if t.Block >= from && t.Block <= head && t.To == payTo {
				transfers = append(transfers, t)
			}
		}
	} else {
		var err error
		if transfers, err = j.chain.TokenTransfers(ctx, j.tokens(), []common.Address{payTo}, from, head); err != nil {
			return nil, err
		}
	}
	for _, t := range transfers {
		if i := int(t.Block - from); i >= len(blocks) || blocks[i].Number != t.Block || blocks[i].Hash != t.BlockHash {
			return nil, errReorgWhileReading
		}
	}
	return transfers, nil
}
