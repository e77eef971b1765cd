package jobs

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"golang.org/x/sync/errgroup"

	"nodeledger/chain"
	"nodeledger/store"
)

// paymentsCursor names the payments scan's cursor.
const paymentsCursor = "payments"

// PaymentsSummary is what one payments pass did.
type PaymentsSummary struct {
	Ran       bool   `json:"ran"`
	Reason    string `json:"reason,omitempty"`
	FromBlock uint64 `json:"fromBlock,omitempty"`
	ToBlock   uint64 `json:"toBlock,omitempty"`
	Seen      int    `json:"seen"`     // payments found by the scan
	Minted    int    `json:"minted"`   // nodes recorded
	Rejected  int    `json:"rejected"` // payments that do not become a node, with their reason
	Minting   int    `json:"minting"`  // mint transactions still waiting for their receipt
	Rewound   int64  `json:"rewound"`  // blocks taken back after a reorg
	Failed    int    `json:"failedWithdrawals"`
}

// Payments runs one payments pass: scan the confirmed blocks for payments, check each, mint a
// node for each that checks out, and record each that does not with its reason. It can be
// stopped at any instant: every mint transaction is stored signed before it is sent, and the
// contract refuses a payment reference twice, so the next pass finishes the work without minting
// twice or dropping a payment.
func (j *Jobs) Payments(ctx context.Context) (PaymentsSummary, error) {
	ctx, cancel := context.WithTimeout(ctx, passTimeout)
	defer cancel()
	unlock, ok, err := j.store.TryLock(ctx, store.LockPayments)
	if err != nil {
		return PaymentsSummary{}, err
	}
	if !ok {
		return PaymentsSummary{Reason: "another payments pass is running"}, nil
	}
	defer unlock()

	sum := PaymentsSummary{Ran: true}
	defer func() { countPayments(sum) }()
	if err := j.scan(ctx, &sum); err != nil {
		return sum, err
	}
	if j.minter == nil {
		sum.Reason = "payments are recorded but not minted: MINTER_KEY is not set"
		return sum, nil
	}
	// Transactions an earlier pass stored go out again first, so that nonces handed out below
	// come after theirs.
	if err := j.resendMints(ctx); err != nil {
		return sum, err
	}
	j.minter.ResetNonce()
	// A hold stops new mints only: what was already sent is settled either way.
	held, err := j.store.MintingHeld(ctx)
	if err != nil {
		return sum, err
	}
	if held {
		sum.Reason = "minting is held by the operator: payments are recorded and wait"
	} else if err := j.checkPayments(ctx, &sum); err != nil {
		return sum, err
	}
	return sum, j.settleMints(ctx, &sum)
}

// scan reads the blocks from the cursor to head - Confirmations and records the payments (and
// reverted withdraw calls) they hold, rewinding first when the chain no longer has the block the
// cursor stands on.
func (j *Jobs) scan(ctx context.Context, sum *PaymentsSummary) error {
	head, err := j.chain.HeadNumber(ctx)
	if err != nil {
		return err
	}
	if head < j.cfg.Confirmations {
		return nil
	}
	target := head - j.cfg.Confirmations

	from := j.cfg.ScanFrom
	cur, err := j.store.Cursor(ctx, paymentsCursor)
	switch {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		return err
	default:
		if from, err = j.checkCursor(ctx, cur, sum); err != nil {
			return err
		}
	}
	if from > target {
		scanLag.Set(float64(head + 1 - from))
		return nil
	}
	to := min(target, from+j.cfg.BlocksPerPass-1)
	payTo, factory := j.cfg.PaymentAddress, j.chain.Factory()
	watched := []common.Address{factory}
	if payTo != (common.Address{}) {
		watched = append(watched, payTo)
	}
	// The blocks and the traces of their calls are read at once: the node serves both in parallel.
	var blocks []chain.Block
	var transfers []chain.InternalTransfer
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) {
		blocks, err = j.chain.Blocks(gctx, from, to, watched...)
		return err
	})
	g.Go(func() (err error) {
		transfers, err = j.internalTransfers(gctx, from, to)
		return err
	})
	if err := g.Wait(); err != nil {
		return err
	}
	if err := j.step("scan.fetched"); err != nil {
		return err
	}

	var scanned []store.ScannedBlock
	var payments []store.NewPayment
	var failed []store.FailedWithdrawal
	hashes := map[uint64]string{}
	for _, b := range blocks {
		hash := hexLower(b.Hash)
		hashes[b.Number] = hash
		scanned = append(scanned, store.ScannedBlock{Number: int64(b.Number), Hash: hash})
		for _, tx := range b.Txs {
			switch { // Blocks returns only the transactions sent to what the scan watches
			case *tx.To == payTo && payTo != (common.Address{}) && tx.Status == types.ReceiptStatusSuccessful && tx.Value.Sign() > 0:
				payments = append(payments, store.NewPayment{
					TxHash: hexLower(tx.Hash), PaymentRef: hexLower(tx.Hash), From: hexLower(tx.From),
					ValueWei: tx.Value, BlockNumber: int64(b.Number), BlockHash: hash,
				})
			case *tx.To == factory && tx.Status == types.ReceiptStatusFailed:
				if w, ok := j.chain.DecodeWithdraw(tx.Input); ok {
					failed = append(failed, store.FailedWithdrawal{ChainNodeID: w.ID, AmountWei: w.Amount,
						To: hexLower(w.To), TxHash: hexLower(tx.Hash), At: time.Unix(int64(b.Time), 0)})
				}
			}
		}
	}
	for _, t := range transfers {
		payments = append(payments, store.NewPayment{
			TxHash: hexLower(t.TxHash), CallIndex: t.Index, PaymentRef: hexLower(t.Ref()), From: hexLower(t.From),
			ValueWei: t.Value, BlockNumber: int64(t.Block), BlockHash: hashes[t.Block],
		})
	}
	if err := j.store.RecordScan(ctx, paymentsCursor, scanned, payments, failed); err != nil {
		return err
	}
	scanLag.Set(float64(head - to))
	sum.FromBlock, sum.ToBlock, sum.Seen, sum.Failed = from, to, len(payments), len(failed)
	return j.step("scan.recorded")
}

// internalTransfers traces blocks from..to for payments made by contract wallets, which are
// calls inside transactions. A node without the tracer is noted (health and the operator page say
// so) and the scan goes on with top-level payments only.
func (j *Jobs) internalTransfers(ctx context.Context, from, to uint64) ([]chain.InternalTransfer, error) {
	if j.cfg.PaymentAddress == (common.Address{}) {
		return nil, nil
	}
	transfers, err := j.chain.InternalTransfers(ctx, from, to, j.cfg.PaymentAddress)
	if errors.Is(err, chain.ErrTraceUnsupported) {
		if j.tracing.Swap(traceUnsupported) != traceUnsupported {
			j.log.Warn("the RPC does not serve debug_traceBlockByNumber: payments sent by contract wallets are not seen", "err", err)
		}
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	j.tracing.Store(traceServed)
	return transfers, nil
}

// checkCursor returns the next block to scan: the one after the cursor, or, when the chain
// replaced the cursor's block (a reorg deeper than the confirmations), the one after the last
// block both agree on, once the ledger is rewound to it.
func (j *Jobs) checkCursor(ctx context.Context, cur store.Cursor, sum *PaymentsSummary) (uint64, error) {
	for n := cur.Number; n >= 0; n-- {
		stored, err := j.store.ScannedHash(ctx, n)
		if errors.Is(err, store.ErrNotFound) {
			break // older than what the scan keeps: trust it
		}
		if err != nil {
			return 0, err
		}
		onChain, err := j.chain.Blocks(ctx, uint64(n), uint64(n))
		if err != nil {
			return 0, err
		}
		if hexLower(onChain[0].Hash) == stored {
			if n < cur.Number {
				forgotten, err := j.store.Rewind(ctx, paymentsCursor, n, stored)
				if err != nil {
					return 0, err
				}
				sum.Rewound = cur.Number - n
				j.log.Warn("reorg: payments scan rewound", "from", cur.Number, "to", n, "payments_forgotten", forgotten)
			}
			return uint64(n) + 1, nil
		}
	}
	return uint64(cur.Number) + 1, nil
}

// resendMints sends again every stored mint transaction that has no receipt yet. A transaction
// the node no longer accepts (its nonce was used by another) is signed anew: the payment
// reference keeps the payment from minting twice whichever of them lands.
func (j *Jobs) resendMints(ctx context.Context) error {
	minting, err := j.store.PaymentsByStatus(ctx, "minting")
	if err != nil {
		return err
	}
	for _, p := range minting {
		tx := new(types.Transaction)
		if err := tx.UnmarshalBinary(p.MintRaw); err != nil {
			return fmt.Errorf("payment %d: stored mint transaction: %w", p.ID, err)
		}
		if _, err := j.chain.Receipt(ctx, tx.Hash()); err == nil {
			continue // mined: settleMints records it
		} else if !errors.Is(err, chain.ErrNotMined) {
			return err
		}
		err := j.chain.Send(ctx, tx)
		if err != nil && isNonceUsed(err) {
			err = j.signMint(ctx, p, *p.Tier)
		}
		if err != nil {
			return fmt.Errorf("payment %d: resend mint: %w", p.ID, err)
		}
	}
	return nil
}

func isNonceUsed(err error) bool {
	msg := strings.ToLower(err.Error())
	return strings.Contains(msg, "nonce too low") || strings.Contains(msg, "replacement transaction underpriced")
}

// checkPayments checks each pending payment: the ones that check out get a mint transaction,
// signed and stored and then sent; the others are rejected with their reason.
func (j *Jobs) checkPayments(ctx context.Context, sum *PaymentsSummary) error {
	pending, err := j.store.PaymentsByStatus(ctx, "pending")
	if err != nil || len(pending) == 0 {
		return err
	}
	tiers, err := j.store.Tiers(ctx)
	if err != nil {
		return err
	}
	paused, err := j.chain.Paused(ctx)
	if err != nil {
		return err
	}
	walletMax, err := j.chain.MaxPerWallet(ctx)
	if err != nil {
		return err
	}
	for _, p := range pending {
		tier, reason, err := j.check(ctx, p, tiers, paused, walletMax)
		if err != nil {
			return err
		}
		if reason != "" {
			if err := j.store.RejectPayment(ctx, p.ID, reason); err != nil {
				return err
			}
			sum.Rejected++
			continue
		}
		if err := j.signMint(ctx, p, tier.ID); err != nil {
			return err
		}
	}
	return nil
}

// check decides whether payment p becomes a node of some tier, or why not.
func (j *Jobs) check(ctx context.Context, p store.Payment, tiers []store.Tier, paused bool, walletMax uint32) (store.Tier, string, error) {
	tier, ok := tierPriced(tiers, p.ValueWei.Int)
	if !ok {
		return store.Tier{}, fmt.Sprintf("%s wei is the price of no tier on sale", p.ValueWei), nil
	}
	if paused {
		return tier, "minting is paused", nil
	}
	ofTier, minting, err := j.store.WalletHoldings(ctx, p.From, tier.ID)
	if err != nil {
		return tier, "", err
	}
	if ofTier >= tier.MaxPerWallet {
		return tier, fmt.Sprintf("the wallet already holds the %d nodes of tier %d it may", tier.MaxPerWallet, tier.ID), nil
	}
	onChain, err := j.chain.NodesOf(ctx, common.HexToAddress(p.From))
	if err != nil {
		return tier, "", err
	}
	if len(onChain)+minting >= int(walletMax) {
		return tier, fmt.Sprintf("the wallet already holds the %d nodes in all the contract allows", walletMax), nil
	}
	if tier.HoldingToken != nil && tier.HoldingWei.Sign() > 0 {
		bal, err := j.chain.TokenBalance(ctx, common.HexToAddress(*tier.HoldingToken), common.HexToAddress(p.From))
		if err != nil {
			return tier, "", err
		}
		if bal.Cmp(tier.HoldingWei.Int) < 0 {
			return tier, fmt.Sprintf("the wallet holds %s of the token %s, below the tier's threshold of %s", bal, *tier.HoldingToken, tier.HoldingWei), nil
		}
	}
	return tier, "", nil
}

// tierPriced is the tier on sale whose price is exactly value (the lowest id if several are).
func tierPriced(tiers []store.Tier, value *big.Int) (store.Tier, bool) {
	for _, t := range tiers {
		if t.OnSale && t.PriceWei.Cmp(value) == 0 {
			return t, true
		}
	}
	return store.Tier{}, false
}

// signMint signs payment p's mint, stores it, and only then sends it.
func (j *Jobs) signMint(ctx context.Context, p store.Payment, tier int) error {
	factory := j.chain.Factory()
	data := j.chain.MintData(common.HexToAddress(p.From), uint8(tier), common.HexToHash(p.PaymentRef))
	tx, err := j.minter.Sign(ctx, &factory, data, nil)
	if err != nil {
		return fmt.Errorf("payment %d: sign mint: %w", p.ID, err)
	}
	raw, err := tx.MarshalBinary()
	if err != nil {
		return err
	}
	if err := j.store.StoreMintTx(ctx, p.ID, tier, tx.Nonce(), hexLower(tx.Hash()), raw); err != nil {
		return err
	}
	if err := j.step("mint.stored"); err != nil {
		return err
	}
	if err := j.chain.Send(ctx, tx); err != nil {
		return fmt.Errorf("payment %d: send mint: %w", p.ID, err)
	}
	return j.step("mint.sent")
}

// settleMints waits for the receipt of each mint transaction and records its node, or the reason
// it reverted. One still unmined when ReceiptTimeout runs out is left for the next pass.
func (j *Jobs) settleMints(ctx context.Context, sum *PaymentsSummary) error {
	minting, err := j.store.PaymentsByStatus(ctx, "minting")
	if err != nil {
		return err
	}
	deadline := time.Now().Add(j.cfg.ReceiptTimeout)
	for _, p := range minting {
		wait, cancel := context.WithDeadline(ctx, deadline)
		r, err := j.chain.WaitMined(wait, common.HexToHash(*p.MintTx), 200*time.Millisecond)
		cancel()
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			sum.Minting++
			continue
		}
		if err := j.step("mint.mined"); err != nil {
			return err
		}
		if err := j.settle(ctx, p, r, sum); err != nil {
			return err
		}
	}
	return nil
}

func (j *Jobs) settle(ctx context.Context, p store.Payment, r *types.Receipt, sum *PaymentsSummary) error {
	m, ok := j.chain.MintedIn(r)
	if r.Status != types.ReceiptStatusSuccessful || !ok {
		return j.settleReverted(ctx, p, sum)
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
	return j.step("mint.recorded")
}

// settleReverted handles a mint that reverted. The payment reference already used means an
// earlier transaction minted this payment's node: find it and record it. Any other reason (the
// wallet filled up, minting was paused in between) rejects the payment.
func (j *Jobs) settleReverted(ctx context.Context, p store.Payment, sum *PaymentsSummary) error {
	m, found, err := j.chain.FindMint(ctx, common.HexToHash(p.PaymentRef), uint64(p.BlockNumber))
	if err != nil {
		return err
	}
	if found {
		return j.recordMint(ctx, p, m, sum)
	}
	tx := new(types.Transaction)
	if err := tx.UnmarshalBinary(p.MintRaw); err != nil {
		return err
	}
	reason := "the mint transaction reverted"
	var re *chain.RevertError
	if why := j.chain.Why(ctx, j.minter.From, tx); errors.As(why, &re) && re.Name != "" {
		reason += ": " + re.Name
	}
	if err := j.store.RejectPayment(ctx, p.ID, reason); err != nil {
		return err
	}
	sum.Rejected++
	return nil
}

// hexLower is the ledger's form of an address or hash.
func hexLower(v interface{ Hex() string }) string { return strings.ToLower(v.Hex()) }
