package jobs

import (
	"context"
	"errors"

	"github.com/ethereum/go-ethereum/common"

	"nodeledger/chain"
	"nodeledger/store"
)

// RefundsAtHead are the transfers out of the payments wallet in the blocks the payments scan has
// not read yet (above its cursor, up to the head): a refund by hand that the ledger matches only
// once it is CONFIRMATIONS deep, and that a treasury batch paying the same payment must not pay
// again meanwhile.
func (j *Jobs) RefundsAtHead(ctx context.Context) ([]store.OutgoingTransfer, error) {
	payTo := j.cfg.PaymentAddress
	if payTo == (common.Address{}) {
		return nil, nil
	}
	from := uint64(0)
	cur, err := j.store.Cursor(ctx, store.PaymentsScanner)
	switch {
	case err == nil:
		from = uint64(cur.Number) + 1
	case !errors.Is(err, store.ErrNotFound):
		return nil, err
	}
	head, err := j.chain.HeadNumber(ctx)
	if err != nil || from > head {
		return nil, err
	}
	blocks, err := j.chain.Blocks(ctx, from, head, payTo)
	if err != nil {
		return nil, err
	}
	if err := j.chain.Outcomes(ctx, blocks, func(_ chain.Block, tx chain.Tx) bool { return tx.From == payTo }); err != nil {
		return nil, err
	}
	return classify(blocks, j.watched()).Outgoing, nil
}
