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
	"nodeledger/store"
)

// Step boundaries of a mint, past the outbox's, where a test may stop the payments pass.
const (
	stepMintMined    step = "mint.mined"    // its receipt is seen
	stepMintRecorded step = "mint.recorded" // its node is in the ledger
)

// mintFor is what payment p's mint of a tier node is in the outbox for.
func mintFor(p store.Payment, tier int) store.TxFor {
	return store.TxFor{PaymentID: p.ID, Tier: tier}
}

// resendMints sends again every stored mint transaction that has no receipt yet, fills any gap
// in the minter's nonces below them, and only then signs anew, at nonces the chain hands out, the
// mints whose nonce another transaction took: the payment reference keeps the payment from minting
// twice whichever of them lands.
func (j *Jobs) resendMints(ctx context.Context) error {
	minting, err := j.store.PaymentsByStatus(ctx, store.PaymentMinting)
	if err != nil {
		return err
	}
	var waiting []uint64
	var dead []store.Payment
	for _, p := range minting {
		o, err := j.minter.open(ctx, mintFor(p, *p.Tier), p.MintRaw)
		if err != nil {
			return fmt.Errorf("payment %d: %w", p.ID, err)
		}
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
		if err := j.signMint(ctx, p, *p.Tier); err != nil {
			return err
		}
	}
	return nil
}

// signMint signs payment p's mint at the minter's next nonce, stores it, and only then sends it.
func (j *Jobs) signMint(ctx context.Context, p store.Payment, tier int) error {
	data := j.chain.MintData(common.HexToAddress(p.From), uint8(tier), common.HexToHash(p.PaymentRef))
	if _, err := j.minter.submit(ctx, mintFor(p, tier), j.chain.Factory(), data, nil); err != nil {
		return fmt.Errorf("payment %d: mint: %w", p.ID, err)
	}
	return nil
}

// settleMints waits for each mint transaction to be mined, replacing those that wait too long,
// and records its node, or the reason it reverted. One still unmined when ReceiptTimeout runs
// out is left for the next pass.
func (j *Jobs) settleMints(ctx context.Context, sum *PaymentsSummary) error {
	minting, err := j.store.PaymentsByStatus(ctx, store.PaymentMinting)
	if err != nil {
		return err
	}
	// In nonce order: a mint stuck waiting for fees holds up those after it, so it is seen first.
	slices.SortStableFunc(minting, func(a, b store.Payment) int { return cmp.Compare(*a.MintNonce, *b.MintNonce) })
	deadline := time.Now().Add(j.cfg.ReceiptTimeout)
	for _, p := range minting {
		if err := j.settleMint(ctx, p, deadline, sum); err != nil {
			return err
		}
	}
	return nil
}

// settleMint awaits payment p's mint until deadline and records what it did. A mint whose nonce
// another transaction took is signed anew, for the next pass to settle.
func (j *Jobs) settleMint(ctx context.Context, p store.Payment, deadline time.Time, sum *PaymentsSummary) error {
	o, err := j.minter.open(ctx, mintFor(p, *p.Tier), p.MintRaw)
	if err != nil {
		return fmt.Errorf("payment %d: %w", p.ID, err)
	}
	state, err := j.minter.await(ctx, o, deadline)
	switch {
	case err != nil:
		return fmt.Errorf("payment %d: %w", p.ID, err)
	case state == txWaiting:
		sum.Minting++
		return nil
	case state == txDead:
		j.log.Warn("payments: a mint transaction lost its nonce to another; signing anew", "payment", p.ID, "tx", o.newest().Hash())
		j.minter.sender.ResetNonce()
		if err := j.signMint(ctx, p, *p.Tier); err != nil {
			return err
		}
		sum.Minting++
		return nil
	}
	if err := j.step(stepMintMined); err != nil {
		return err
	}
	return j.settle(ctx, p, o.receipt, o.mined(), sum)
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
	reason := store.Reason{Code: store.ReasonContractRefused}
	var re *chain.RevertError
	if why := j.chain.Why(ctx, j.minter.sender.From, tx); errors.As(why, &re) {
		reason.Args.Error = re.Name
	}
	if err := j.store.RejectPayment(ctx, p.ID, store.PaymentMinting, reason); err != nil {
		return err
	}
	sum.Rejected++
	return nil
}
