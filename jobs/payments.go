package jobs

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
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
	Refunded  int    `json:"refunded"` // rejected payments the payments wallet was seen paying back
	// Unattributed counts the blocks where ETH reached the payments wallet that no transaction
	// explains and the RPC could not trace.
	Unattributed int `json:"unattributedInflows"`

	// Reasons says why each payment this pass rejected was rejected, in the order checked.
	Reasons []string `json:"reasons,omitempty"`
}

// Payments runs one payments pass: scan the confirmed blocks for payments, check each, mint a
// node for each that checks out, and record each that does not with its reason. It can be
// stopped at any instant: every mint transaction is stored signed before it is sent, and the
// contract refuses a payment reference twice, so the next pass finishes the work without minting
// twice or dropping a payment.
func (j *Jobs) Payments(ctx context.Context) (PaymentsSummary, error) {
	ctx, end, ok, err := j.startPass(ctx, store.LockPayments)
	if err != nil {
		return PaymentsSummary{}, err
	}
	defer end()
	if !ok {
		return PaymentsSummary{Reason: "another payments pass is running"}, nil
	}

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
	if err := j.settleMints(ctx, &sum); err != nil {
		return sum, err
	}
	// Last: a refund matches only a payment already rejected, and this pass may have rejected it.
	sum.Refunded, err = j.store.MatchRefunds(ctx)
	return sum, err
}

// scanChunk bounds the blocks one RecordScan covers: a pass cut off keeps the chunks it recorded.
const scanChunk = 200

// scan reads the blocks from the cursor to head - Confirmations, at most BlocksPerPass of them,
// and records the payments (and reverted withdraw calls) they hold chunk by chunk, rewinding
// first when the chain no longer has the block the cursor stands on.
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
		if from, sum.Rewound, err = j.checkCursor(ctx, paymentsCursor, cur, j.store.RewindScan); err != nil {
			return err
		}
	}
	if from > target {
		scanLag.Set(float64(head + 1 - from))
		return nil
	}
	to := min(target, from+j.cfg.BlocksPerPass-1)
	sum.FromBlock = from
	for start := from; start <= to; start += scanChunk {
		end := min(start+scanChunk-1, to)
		if err := j.scanBlocks(ctx, start, end, sum); err != nil {
			return err
		}
		scanLag.Set(float64(head - end))
		sum.ToBlock = end
	}
	return nil
}

// scanBlocks reads blocks from..to and records what they hold, with the cursor moved to to.
// A payment sent by a contract wallet is a call inside a transaction, which only a trace shows;
// tracing costs the node as much as making the block, so only the blocks where the payments
// wallet's balance moved otherwise than its own transactions say are traced (and every block
// while the wallet has code: then its own calls can move ETH unseen). Where the RPC cannot
// trace, the ETH no transaction explains is recorded for the operator as an unattributed inflow.
func (j *Jobs) scanBlocks(ctx context.Context, from, to uint64, sum *PaymentsSummary) error {
	payTo, factory := j.cfg.PaymentAddress, j.chain.Factory()
	paid := payTo != (common.Address{})
	watched := []common.Address{factory}
	if paid {
		watched = append(watched, payTo)
	}
	// The blocks and the wallet's balances are read at once: the node serves both in parallel.
	var blocks []chain.Block
	var changes []chain.BalanceChange
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) {
		blocks, err = j.chain.Blocks(gctx, from, to, watched...)
		return err
	})
	if paid {
		g.Go(func() (err error) {
			changes, err = j.chain.BalanceChanges(gctx, from, to, payTo)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	hasCode := map[uint64]bool{}
	for _, c := range changes {
		hasCode[c.Block] = c.HasCode
	}
	// A transfer into the payments wallet while it has no code runs no code, so it cannot fail:
	// its receipt would tell nothing. Every other receipt counts (a failed withdraw call, what
	// the wallet's own transactions paid).
	if err := j.chain.Outcomes(ctx, blocks, func(b chain.Block, tx chain.Tx) bool {
		return !paid || tx.To == nil || *tx.To != payTo || tx.From == payTo || hasCode[b.Number]
	}); err != nil {
		return err
	}
	var trace []uint64
	unexplained := map[uint64]*big.Int{}
	for i, c := range changes {
		if c.Block == 0 {
			continue // the genesis block has no transaction to trace
		}
		if d := unexplainedWei(blocks[i], c, payTo); d.Sign() != 0 || c.HasCode {
			trace, unexplained[c.Block] = append(trace, c.Block), d
		}
	}
	transfers, traced, err := j.internalTransfers(ctx, trace)
	if err != nil {
		return err
	}
	if err := j.step("scan.fetched"); err != nil {
		return err
	}

	var scan store.Scan
	hashes := map[uint64]string{}
	for _, b := range blocks {
		hash := hexLower(b.Hash)
		hashes[b.Number] = hash
		scan.Blocks = append(scan.Blocks, store.ScannedBlock{Number: int64(b.Number), Hash: hash})
		for _, tx := range b.Txs {
			ok := tx.Status == types.ReceiptStatusSuccessful
			switch { // Blocks returns only the transactions to or from what the scan watches
			case tx.To == nil: // a contract the payments wallet created: no payment, no refund
			case paid && *tx.To == payTo && tx.From != payTo && ok && tx.Value.Sign() > 0:
				scan.Payments = append(scan.Payments, store.NewPayment{
					TxHash: hexLower(tx.Hash), PaymentRef: hexLower(tx.Hash), From: hexLower(tx.From),
					ValueWei: tx.Value, BlockNumber: int64(b.Number), BlockHash: hash,
				})
			case paid && tx.From == payTo && *tx.To != payTo && ok && tx.Value.Sign() > 0:
				scan.Outgoing = append(scan.Outgoing, store.OutgoingTransfer{
					TxHash: hexLower(tx.Hash), To: hexLower(*tx.To), ValueWei: tx.Value, BlockNumber: int64(b.Number),
				})
			case *tx.To == factory && tx.Status == types.ReceiptStatusFailed:
				if w, ok := j.chain.DecodeWithdraw(tx.Input); ok {
					scan.Failed = append(scan.Failed, store.FailedWithdrawal{ChainNodeID: w.ID, AmountWei: w.Amount,
						To: hexLower(w.To), TxHash: hexLower(tx.Hash), BlockNumber: int64(b.Number), At: time.Unix(int64(b.Time), 0)})
				}
			}
		}
	}
	for _, t := range transfers {
		scan.Payments = append(scan.Payments, store.NewPayment{
			TxHash: hexLower(t.TxHash), CallIndex: t.Index, PaymentRef: hexLower(t.Ref()), From: hexLower(t.From),
			ValueWei: t.Value, BlockNumber: int64(t.Block), BlockHash: hashes[t.Block],
		})
	}
	if !traced {
		for _, n := range trace {
			if d := unexplained[n]; d.Sign() > 0 {
				scan.Unattributed = append(scan.Unattributed, store.UnattributedInflow{
					BlockNumber: int64(n), BlockHash: hashes[n], AmountWei: store.Uint256{Int: d}})
			}
		}
	}
	if err := j.store.RecordScan(ctx, paymentsCursor, scan); err != nil {
		return err
	}
	sum.Seen += len(scan.Payments)
	sum.Failed += len(scan.Failed)
	sum.Unattributed += len(scan.Unattributed)
	return j.step("scan.recorded")
}

// unexplainedWei is how much more the payments wallet's balance rose in block b than its
// top-level transactions there say: value in from successful transactions to it, less value
// out of successful ones from it and the fees of all of its own, failed or not. Beacon
// withdrawals and fees of a block the wallet proposed are unexplained too: the block is traced
// for nothing, which is only slower.
func unexplainedWei(b chain.Block, c chain.BalanceChange, payTo common.Address) *big.Int {
	d := new(big.Int).Set(c.Delta)
	for _, tx := range b.Txs {
		ok := tx.Status == types.ReceiptStatusSuccessful
		if tx.From == payTo {
			d.Add(d, tx.Fee)
			if ok {
				d.Add(d, tx.Value)
			}
		}
		if tx.To != nil && *tx.To == payTo && ok {
			d.Sub(d, tx.Value)
		}
	}
	return d
}

// internalTransfers traces blocks for payments made by contract wallets, which are calls inside
// transactions. traced is false when the node does not serve the tracer: that is noted (health
// and the operator page say so) and the scan goes on without.
func (j *Jobs) internalTransfers(ctx context.Context, blocks []uint64) (_ []chain.InternalTransfer, traced bool, err error) {
	if len(blocks) == 0 {
		j.tracing.CompareAndSwap(traceUnknown, traceNotNeeded)
		return nil, true, nil
	}
	transfers, err := j.chain.InternalTransfers(ctx, blocks, j.cfg.PaymentAddress)
	if errors.Is(err, chain.ErrTraceUnsupported) {
		if j.tracing.Swap(traceUnsupported) != traceUnsupported {
			j.log.Warn("the RPC does not serve debug_traceBlockByNumber: ETH sent by contract wallets is recorded as unattributed inflows", "err", err)
		}
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	j.tracing.Store(traceServed)
	tracedBlocks.Add(float64(len(blocks)))
	return transfers, true, nil
}

// checkCursor returns the next block scanner name reads: the one after its cursor, or, when the
// chain replaced the cursor's block (a reorg deeper than the confirmations), the one after the
// last block both agree on, once rewind has taken the scanner's records back to it; rewound is
// how many blocks it took back. A block older than the hashes the scanner keeps is trusted.
func (j *Jobs) checkCursor(ctx context.Context, name string, cur store.Cursor,
	rewind func(ctx context.Context, name string, number int64, hash string) (forgotten int64, err error),
) (next uint64, rewound int64, err error) {
	for n := cur.Number; n >= 0; n-- {
		onChain, err := j.chain.Blocks(ctx, uint64(n), uint64(n))
		if err != nil {
			return 0, 0, err
		}
		hash := hexLower(onChain[0].Hash)
		stored, err := j.store.ScannedHash(ctx, name, n)
		switch {
		case errors.Is(err, store.ErrNotFound):
			stored = hash // older than the hashes kept: trusted
		case err != nil:
			return 0, 0, err
		}
		if stored != hash {
			continue
		}
		if n < cur.Number {
			forgotten, err := rewind(ctx, name, n, hash)
			if err != nil {
				return 0, 0, err
			}
			j.log.Warn("reorg: "+name+" rewound", "from", cur.Number, "to", n, "forgotten", forgotten)
		}
		return uint64(n) + 1, cur.Number - n, nil
	}
	return uint64(cur.Number) + 1, 0, nil
}

// resendMints sends again every stored mint transaction that has no receipt yet, fills any gap
// in the minter's nonces below them, and only then signs anew, at nonces the chain hands out, the
// mints whose nonce another transaction took: the payment reference keeps the payment from minting
// twice whichever of them lands.
func (j *Jobs) resendMints(ctx context.Context) error {
	minting, err := j.store.PaymentsByStatus(ctx, "minting")
	if err != nil {
		return err
	}
	var waiting []uint64
	var dead []store.Payment
	for _, p := range minting {
		o, err := j.mintOut(ctx, p, *p.Tier, true)
		if err != nil {
			return fmt.Errorf("payment %d: %w", p.ID, err)
		}
		alive, err := j.resume(ctx, o)
		switch {
		case err != nil:
			return fmt.Errorf("payment %d: resend mint: %w", p.ID, err)
		case alive:
			waiting = append(waiting, o.newest().Nonce())
		default:
			j.log.Warn("payments: a mint transaction lost its nonce to another; signing anew", "payment", p.ID, "tx", o.newest().Hash())
			dead = append(dead, p)
		}
	}
	if err := j.fillGaps(ctx, j.minter, waiting); err != nil {
		return err
	}
	j.minter.ResetNonce()
	for _, p := range dead {
		if err := j.signMint(ctx, p, *p.Tier); err != nil {
			return err
		}
	}
	return nil
}

// mintOut is payment p's mint in the outbox, with its stored versions when load is set.
func (j *Jobs) mintOut(ctx context.Context, p store.Payment, tier int, load bool) (*outTx, error) {
	o := &outTx{kind: "mint", sender: j.minter, keep: func(ctx context.Context, v store.SentTx) error {
		return j.store.StoreMintTx(ctx, p.ID, tier, v)
	}}
	if load {
		return o, j.load(ctx, o, store.TxFor{PaymentID: p.ID}, p.MintRaw)
	}
	return o, nil
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
			sum.Reasons = append(sum.Reasons, reason)
			continue
		}
		if err := j.signMint(ctx, p, tier.ID); err != nil {
			return err
		}
	}
	return nil
}

// check decides whether payment p becomes a node of some tier, or why not: a sentence its buyer
// reads on the payment's page, amounts in ETH.
func (j *Jobs) check(ctx context.Context, p store.Payment, tiers []store.Tier, paused bool, walletMax uint32) (store.Tier, string, error) {
	tier, ok := tierPriced(tiers, p.ValueWei.Int)
	if !ok {
		return store.Tier{}, notAPrice(p.ValueWei, tiers), nil
	}
	if paused {
		return tier, "Minting was paused on the contract when this payment was checked.", nil
	}
	ofTier, minting, err := j.store.WalletHoldings(ctx, p.From, tier.ID)
	if err != nil {
		return tier, "", err
	}
	if ofTier >= tier.MaxPerWallet {
		return tier, fmt.Sprintf("This wallet already holds the %s a wallet may have.", count(tier.MaxPerWallet, tier.Label+" node")), nil
	}
	onChain, err := j.chain.NodesOf(ctx, common.HexToAddress(p.From))
	if err != nil {
		return tier, "", err
	}
	if len(onChain)+minting >= int(walletMax) {
		return tier, fmt.Sprintf("This wallet already holds %s, the most the contract allows one wallet.", count(int(walletMax), "node")), nil
	}
	if tier.HoldingToken != nil && tier.HoldingWei.Sign() > 0 {
		bal, err := j.chain.TokenBalance(ctx, common.HexToAddress(*tier.HoldingToken), common.HexToAddress(p.From))
		if err != nil {
			return tier, "", err
		}
		if bal.Cmp(tier.HoldingWei.Int) < 0 {
			return tier, fmt.Sprintf("The %s tier asks the wallet to hold %s units of the token %s; it holds %s.",
				tier.Label, tier.HoldingWei, *tier.HoldingToken, bal), nil
		}
	}
	return tier, "", nil
}

// notAPrice says why value buys no tier, with the prices that do.
func notAPrice(value store.Uint256, tiers []store.Tier) string {
	var prices []string
	for _, t := range tiers {
		if t.OnSale {
			verb := "" // "the One tier costs 0.1 ETH and the Two tier 1 ETH"
			if len(prices) == 0 {
				verb = "costs "
			}
			prices = append(prices, fmt.Sprintf("the %s tier %s%s ETH", t.Label, verb, t.PriceWei.ETH()))
		}
	}
	n := len(prices)
	if n == 0 {
		return fmt.Sprintf("%s ETH was paid while no tier was on sale.", value.ETH())
	}
	list := prices[0]
	if n > 1 {
		list = strings.Join(prices[:n-1], ", ") + " and " + prices[n-1]
	}
	return fmt.Sprintf("%s ETH is not the price of any tier on sale; %s.", value.ETH(), list)
}

// count is "1 node" or "3 nodes".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// mintRefusals are the sentences for the contract's refusals of a mint that the checks could not
// foresee (the wallet filled up or minting was paused after the check); any other refusal is
// said without a cause.
var mintRefusals = map[string]string{
	"WalletFull":    "The contract refused the mint: this wallet already holds the most nodes it allows one wallet.",
	"MintingPaused": "The contract refused the mint: minting was paused.",
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

// signMint signs payment p's mint at the minter's next nonce, stores it, and only then sends it.
func (j *Jobs) signMint(ctx context.Context, p store.Payment, tier int) error {
	o, err := j.mintOut(ctx, p, tier, false)
	if err != nil {
		return err
	}
	data := j.chain.MintData(common.HexToAddress(p.From), uint8(tier), common.HexToHash(p.PaymentRef))
	if err := j.send(ctx, o, j.chain.Factory(), data, nil); err != nil {
		return fmt.Errorf("payment %d: mint: %w", p.ID, err)
	}
	return nil
}

// settleMints waits for each mint transaction to be mined, replacing those that wait too long,
// and records its node, or the reason it reverted. One still unmined when ReceiptTimeout runs
// out is left for the next pass.
func (j *Jobs) settleMints(ctx context.Context, sum *PaymentsSummary) error {
	minting, err := j.store.PaymentsByStatus(ctx, "minting")
	if err != nil {
		return err
	}
	// In nonce order: a mint stuck waiting for fees holds up those after it, so it is seen first.
	slices.SortStableFunc(minting, func(a, b store.Payment) int { return cmp.Compare(*a.MintNonce, *b.MintNonce) })
	deadline := time.Now().Add(j.cfg.ReceiptTimeout)
	for _, p := range minting {
		o, err := j.mintOut(ctx, p, *p.Tier, true)
		if err != nil {
			return fmt.Errorf("payment %d: %w", p.ID, err)
		}
		r, tx, err := j.await(ctx, o, deadline)
		switch {
		case errors.Is(err, errNotMinedYet):
			sum.Minting++
			continue
		case errors.Is(err, chain.ErrNonceTaken):
			j.log.Warn("payments: a mint transaction lost its nonce to another; signing anew", "payment", p.ID, "tx", o.newest().Hash())
			j.minter.ResetNonce()
			if err := j.signMint(ctx, p, *p.Tier); err != nil {
				return err
			}
			sum.Minting++
			continue
		case err != nil:
			return fmt.Errorf("payment %d: %w", p.ID, err)
		}
		if err := j.step("mint.mined"); err != nil {
			return err
		}
		if err := j.settle(ctx, p, r, tx, sum); err != nil {
			return err
		}
	}
	return nil
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
	return j.step("mint.recorded")
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
	reason := "The contract refused the mint."
	var re *chain.RevertError
	if why := j.chain.Why(ctx, j.minter.From, tx); errors.As(why, &re) && mintRefusals[re.Name] != "" {
		reason = mintRefusals[re.Name]
	}
	if err := j.store.RejectPayment(ctx, p.ID, reason); err != nil {
		return err
	}
	sum.Rejected++
	return nil
}

// hexLower is the ledger's form of an address or hash.
func hexLower(v interface{ Hex() string }) string { return strings.ToLower(v.Hex()) }
