package jobs

import (
	"cmp"
	"context"
	"errors"
	"math/big"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"golang.org/x/sync/errgroup"

	"nodeledger/chain"
	"nodeledger/store"
)

// scanChunk bounds the blocks one RecordScan covers: a pass cut off keeps the chunks it recorded.
const scanChunk = 200

// scan reads the blocks from the cursor to head - Confirmations, at most BlocksPerPass of them,
// and records the payments (and reverted withdraw calls) they hold chunk by chunk, rewinding
// first when the chain no longer has the block the cursor stands on. Unless ScanEveryBlock is
// set, ranges where the payments wallet's balance and nonce did not move are recorded unread
// (scanQuiet). It returns the head it read, and what it hands the reconciler: the factory's
// events of the blocks recorded, read with its own logs (reconcileScanned).
func (j *Jobs) scan(ctx context.Context, sum *PaymentsSummary) (head uint64, handed *scannedBlocks, err error) {
	ctx, calls := chain.CountCalls(ctx)
	defer func() {
		sum.ScanRequests = calls.N()
		if j.cfg.Observe { // a rebuild's scan is not the service's
			return
		}
		scanRequests.Add(float64(calls.N()))
		if sum.ToBlock >= sum.FromBlock && sum.ToBlock > 0 {
			scanBlocks.Add(float64(sum.ToBlock - sum.FromBlock + 1))
		}
	}()
	if head, err = j.chain.HeadNumber(ctx); err != nil {
		return 0, nil, err
	}
	if head < j.cfg.Confirmations {
		return head, nil, nil
	}
	target := head - j.cfg.Confirmations
	if j.cfg.ScanTo > 0 {
		target = min(target, j.cfg.ScanTo)
	}

	from := j.cfg.ScanFrom
	var at *store.Cursor // where the pass starts from: nil before the first block
	cur, err := j.store.Cursor(ctx, store.PaymentsScanner)
	switch {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		return head, nil, err
	default:
		if from, sum.Rewound, err = j.checkCursor(ctx, store.PaymentsScanner, cur, j.store.RewindScan); err != nil {
			return head, nil, err
		}
		if sum.Rewound == 0 {
			at = &cur
		}
	}
	if from > target {
		if !j.cfg.Observe {
			scanLag.Set(float64(head + 1 - from))
		}
		return head, nil, nil
	}
	to := min(target, from+j.cfg.BlocksPerPass-1)
	if j.cfg.Observe { // a rebuild stops where a release applies after (releasesUpTo)
		b, ok, err := j.store.NextRelease(ctx, int64(from))
		if err != nil {
			return head, nil, err
		}
		if ok {
			to = min(to, uint64(b))
		}
	}
	sum.FromBlock = from
	p := scanPass{Jobs: j, head: head, sum: sum}
	// The wallet's states come before the logs, and with them the hash of the range's last block
	// (read alone when the blocks are read one by one): the reconciler's, which it must read
	// before its events, as its own pass does (Reconcile).
	quiet := !j.cfg.ScanEveryBlock && j.cfg.PaymentAddress != (common.Address{})
	var known map[uint64]chain.WalletState
	var last common.Hash
	if quiet {
		if known, err = j.walletStates(ctx, cur, from, to); err != nil {
			return head, nil, err
		}
		last = known[to].Hash
	} else {
		hashes, err := j.chain.BlockHashes(ctx, []uint64{to})
		if err != nil {
			return head, nil, err
		}
		last = hashes[to]
	}
	// The logs are read once for the whole range and recorded with the chunks that hold them: a
	// range quiet for the payments wallet's ETH may hold a refund batch, or token payments. The
	// factory's events come with the treasury's, for the reconciler.
	logs, err := j.chain.LedgerLogs(ctx, j.cfg.Treasury, from, to)
	if err != nil {
		return head, nil, err
	}
	p.execs, p.received, p.sanctions = logs.Executions, logs.Received, logs.Sanctions
	whole := to
	// A rebuild's range ends before the next execution, so that the payments before it are judged
	// first, as the service judged them: the batch it records pays what was owed then.
	if i := slices.IndexFunc(p.execs, func(e chain.SafeExecution) bool { return e.BlockNumber > from }); j.cfg.Observe && i >= 0 {
		to, p.execs = p.execs[i].BlockNumber-1, p.execs[:i]
		if quiet {
			states, err := j.chain.WalletStates(ctx, j.cfg.PaymentAddress, to)
			if err != nil {
				return head, nil, err
			}
			known[to] = states[0]
		}
	}
	if err := j.safeTxNonces(ctx, p.execs); err != nil { // of the executions this pass records only
		return head, nil, err
	}
	var above []chain.TokenTransfer // past the range up to tokensTo, for followHead
	var tokensTo uint64
	if len(j.cfg.PaymentTokens) > 0 {
		// Following the head, the transfers up to it come in the same eth_getLogs, for followHead.
		tokensTo = to
		if !j.cfg.Observe && to == target {
			tokensTo = head
		}
		transfers, err := j.chain.TokenTransfers(ctx, j.tokens(), j.tokenRecipients(), from, tokensTo)
		if err != nil {
			return head, nil, err
		}
		i, _ := slices.BinarySearchFunc(transfers, to+1, func(t chain.TokenTransfer, b uint64) int { return cmp.Compare(t.Block, b) })
		transfers, above = transfers[:i], transfers[i:]
		p.tokenPayments, p.tokensIn = j.tokenPayments(transfers), j.treasuryTokensIn(transfers)
	}
	if !quiet {
		err = p.read(ctx, from, to)
	} else if err = p.scanQuiet(ctx, walletRange{from: from, to: to, before: known[max(from, 1)-1], after: known[to]}, known); err == nil {
		atEnd := known[to]
		j.lastWallet.Store(&atEnd)
	}
	if err != nil {
		return head, nil, err
	}
	if to < whole { // a range cut short holds events past its end
		return head, nil, nil
	}
	return head, &scannedBlocks{at: at, from: from, to: to, last: last, events: logs.Factory, above: above, tokensTo: tokensTo}, nil
}

// scannedBlocks is what a scan hands the reconciler (reconcileScanned): blocks from..to, which it
// recorded standing on at before them (nil: on no block, or after a rewind), the hash of block to
// read before its logs, and the factory's events there, read with its own logs; and followHead
// what it read above them.
type scannedBlocks struct {
	at       *store.Cursor
	from, to uint64
	last     common.Hash
	events   chain.FactoryEvents
	// above are the listed tokens' transfers past block to up to block tokensTo, read with the
	// scan's (up to the head when it followed it), for followHead.
	above    []chain.TokenTransfer
	tokensTo uint64
}

// walletStates reads the payments wallet's state before block from and at block to, the scan's
// cursor standing on cur, and at the middles of the first two halvings of from..to. The state
// at the cursor is the one the last pass read at its range's end, when that is still the block
// the cursor stands on: a pass following the head then reads the wallet once a block, and a
// quiet block costs no block read. The middles come in the same batch as the ends: a range that
// moved is split without a round trip a level (scanQuiet), and one that did not wastes a few
// requests a pass.
func (j *Jobs) walletStates(ctx context.Context, cur store.Cursor, from, to uint64) (map[uint64]chain.WalletState, error) {
	before, wanted := max(from, 1)-1, append(firstMiddles(from, to, 2), to)
	known := make(map[uint64]chain.WalletState, len(wanted)+1)
	if last := j.lastWallet.Load(); last != nil && from == last.Block+1 && hexLower(last.Hash) == cur.Hash {
		known[before] = *last
	} else {
		wanted = append(wanted, before)
	}
	states, err := j.chain.WalletStates(ctx, j.cfg.PaymentAddress, wanted...)
	if err != nil {
		return nil, err
	}
	for _, st := range states {
		known[st.Block] = st
	}
	return known, nil
}

// firstMiddles are the blocks where the first levels of halvings of from..to split it, as
// quietRanges halves it.
func firstMiddles(from, to uint64, levels int) []uint64 {
	mid, long := middle(from, to)
	if levels == 0 || !long {
		return nil
	}
	return append(append(firstMiddles(from, mid, levels-1), mid), firstMiddles(mid+1, to, levels-1)...)
}

// middle is the block where a range that moved is halved, and whether from..to is long enough
// to be halved rather than read.
func middle(from, to uint64) (mid uint64, long bool) {
	return from + (to-from)/2, to-from >= quietBlocks
}

// quietBlocks is the longest range the scan reads block by block rather than split in two to
// look for a quiet half. Reading a block costs about three requests (the block, the wallet's
// balance and code), a split four (the wallet's balance, nonce and code and the block's hash at
// the middle). Measured over 10,000 quiet blocks with 24 transfers (BenchmarkQuietScanRequests):
// 1,099 requests at 4, 1,285 at 8, 1,750 at 16, against 30,413 reading every block. Where every
// block pays the wallet every split is spent for nothing: 400 such blocks cost 1,601 requests at
// 8 against 1,231 read one by one.
const quietBlocks = 8

// scanPass is one payments pass's scan of blocks, up to a chain head.
type scanPass struct {
	*Jobs
	head     uint64
	sum      *PaymentsSummary
	execs    []chain.SafeExecution // the treasury's executions in the pass's range
	received []chain.SafeReceived  // and the ETH it received there
	// sanctions are the sanctions oracle's changes to its list in the pass's range.
	sanctions []chain.SanctionsChange
	// tokenPayments are the payments in listed tokens in the pass's range; tokensIn the transfers
	// of listed tokens to the treasury that are no sweeps.
	tokenPayments []store.NewPayment
	tokensIn      []tokenInflow
}

// confirmed times the payments a scan recorded reaching the ledger.
func (j *Jobs) confirmed(payments []store.NewPayment) {
	for _, p := range payments {
		j.reached(stageConfirmed, &p.BlockTime)
	}
}

// errReorgWhileReading is a block whose hash changed between two reads of one pass: the next
// pass reads the range again.
var errReorgWhileReading = errors.New("payments scan: the chain reorganised while the pass read it")

// withLogs adds to scan, a record of blocks from..to, what the pass's logs hold there (the
// treasury's executions, token payments, the sanctions oracle's changes), and the hashes of
// their blocks to its blocks, so that a reorg that takes one back is noticed there (checkCursor)
// and rewinds it. A block read with another hash than its log's is errReorgWhileReading.
func (p scanPass) withLogs(scan *store.Scan, from, to uint64) error {
	for _, e := range p.execs {
		if e.BlockNumber < from || e.BlockNumber > to {
			continue
		}
		exec := store.SafeExecution{Safe: hexLower(p.cfg.Treasury), SafeTxHash: hexLower(e.SafeTxHash), Success: e.Success,
			TxHash: hexLower(e.TxHash), From: hexLower(e.From), BlockNumber: int64(e.BlockNumber)}
		for _, t := range e.TokensOut {
			exec.TokensOut = append(exec.TokensOut, store.TokenMove{Token: hexLower(t.Token), To: hexLower(t.To), Amount: store.Uint256{Int: t.Value}})
		}
		if p.cfg.Observe {
			exec.Batch = observedBatch(e)
		}
		eth, ok := e.ETHOut()
		if !ok {
			p.log.Warn("payments scan: what a Safe transaction of the treasury sent in ETH cannot be read from its call: the money identity will not hold at its block",
				"safe_tx_hash", exec.SafeTxHash, "tx", exec.TxHash)
		}
		for _, o := range eth {
			exec.Outflows = append(exec.Outflows, store.TokenMove{To: hexLower(o.To), Amount: store.Uint256{Int: o.Value}})
		}
		exec.Outflows = append(exec.Outflows, exec.TokensOut...)
		scan.SafeExecutions = append(scan.SafeExecutions, exec)
		if err := withBlock(scan, int64(e.BlockNumber), hexLower(e.BlockHash)); err != nil {
			return err
		}
	}
	for _, t := range p.tokenPayments {
		if t.BlockNumber < int64(from) || t.BlockNumber > int64(to) {
			continue
		}
		scan.Payments = append(scan.Payments, t)
		if err := withBlock(scan, t.BlockNumber, t.BlockHash); err != nil {
			return err
		}
	}
	for _, r := range p.received {
		// What the payments wallet sends the treasury is a sweep, recorded as one.
		if r.BlockNumber < from || r.BlockNumber > to || r.From == p.cfg.PaymentAddress {
			continue
		}
		scan.TreasuryIn = append(scan.TreasuryIn, store.TreasuryInflow{TxHash: hexLower(r.TxHash), LogIndex: int(r.LogIndex),
			From: hexLower(r.From), Amount: r.Value, BlockNumber: int64(r.BlockNumber)})
		if err := withBlock(scan, int64(r.BlockNumber), hexLower(r.BlockHash)); err != nil {
			return err
		}
	}
	for _, in := range p.tokensIn {
		if in.BlockNumber < int64(from) || in.BlockNumber > int64(to) {
			continue
		}
		scan.TreasuryIn = append(scan.TreasuryIn, in.TreasuryInflow)
		if err := withBlock(scan, in.BlockNumber, in.blockHash); err != nil {
			return err
		}
	}
	return p.withSanctions(scan, from, to)
}

// withSanctions adds to scan the sanctions oracle's changes in blocks from..to, which the
// judgements then know without asking the oracle of a payer again (sale.ReadSanctions).
func (p scanPass) withSanctions(scan *store.Scan, from, to uint64) error {
	oracle := p.chain.SanctionsOracle()
	if oracle == (common.Address{}) {
		return nil
	}
	scan.Sanctions = &store.SanctionsFollow{Oracle: hexLower(oracle), From: int64(from), To: int64(to)}
	for _, c := range p.sanctions {
		if c.Block < from || c.Block > to {
			continue
		}
		scan.Sanctions.Changes = append(scan.Sanctions.Changes,
			store.SanctionsChange{Address: hexLower(c.Address), Block: int64(c.Block), LogIndex: int(c.LogIndex), Listed: c.Listed})
		if err := withBlock(scan, int64(c.Block), hexLower(c.BlockHash)); err != nil {
			return err
		}
	}
	return nil
}

// safeTxNonces sets, in a rebuild, the nonce of each Safe transaction execs executed, for the
// batches it records: the service has its own batches' nonces.
func (j *Jobs) safeTxNonces(ctx context.Context, execs []chain.SafeExecution) error {
	if !j.cfg.Observe {
		return nil
	}
	for _, e := range execs {
		if e.Call == nil {
			continue
		}
		n, err := j.chain.SafeTxNonce(ctx, j.cfg.Treasury, j.cfg.ChainID, e)
		if err != nil {
			return err
		}
		e.Call.Nonce = n
	}
	return nil
}

// observedBatch is the batch e executed as a rebuild records it (store.ObservedBatch); nil when
// e's call is not a batch of transfers.
func observedBatch(e chain.SafeExecution) *store.ObservedBatch {
	if e.Call == nil || e.Call.Nonce == nil {
		return nil
	}
	payouts, ok := e.Call.Payouts()
	if !ok {
		return nil
	}
	c := e.Call
	b := &store.ObservedBatch{TreasuryBatch: store.TreasuryBatch{To: hexLower(c.To), Value: store.Uint256{Int: c.Value}, Data: append([]byte{}, c.Data...),
		Operation: c.Operation, SafeTxGas: store.Uint256{Int: c.SafeTxGas}, BaseGas: store.Uint256{Int: c.BaseGas},
		GasPrice: store.Uint256{Int: c.GasPrice}, GasToken: hexLower(c.GasToken), RefundReceiver: hexLower(c.RefundReceiver),
		Nonce: store.Uint256{Int: c.Nonce}, Threshold: max(e.Signatures, 1)}}
	for _, p := range payouts {
		t := store.TokenMove{To: hexLower(p.To), Amount: store.Uint256{Int: p.Value}}
		if p.Token != (common.Address{}) {
			t.Token = hexLower(p.Token)
		}
		b.Transfers = append(b.Transfers, t)
	}
	return b
}

// withBlock adds block number, of hash, to scan's blocks (in order) unless it is there;
// errReorgWhileReading when it is there with another hash.
func withBlock(scan *store.Scan, number int64, hash string) error {
	i, found := slices.BinarySearchFunc(scan.Blocks, number, func(s store.ScannedBlock, n int64) int { return cmp.Compare(s.Number, n) })
	switch {
	case found && scan.Blocks[i].Hash != hash:
		return errReorgWhileReading
	case !found:
		scan.Blocks = slices.Insert(scan.Blocks, i, store.ScannedBlock{Number: number, Hash: hash})
	}
	return nil
}

// priceETHPayments sets, on each ETH payment, the ETH/USD feed's answer at its block: what its
// revenue is booked at in dollars. One round trip for the blocks of a scan that holds ETH
// payments; nothing without a feed.
func (j *Jobs) priceETHPayments(ctx context.Context, payments []store.NewPayment) error {
	if !j.chain.HasPriceFeed() {
		return nil
	}
	var blocks []uint64
	for _, p := range payments {
		if p.Token == "" && !slices.Contains(blocks, uint64(p.BlockNumber)) {
			blocks = append(blocks, uint64(p.BlockNumber))
		}
	}
	if len(blocks) == 0 {
		return nil
	}
	prices, err := j.chain.USDPerETHAt(ctx, blocks)
	if err != nil {
		return err
	}
	for i := range payments {
		if payments[i].Token == "" {
			payments[i].USDPerETH = prices[uint64(payments[i].BlockNumber)]
		}
	}
	return nil
}

// tokens are the listed tokens' addresses, whose Transfer logs the scan reads.
func (j *Jobs) tokens() []common.Address {
	out := make([]common.Address, len(j.cfg.PaymentTokens))
	for i, t := range j.cfg.PaymentTokens {
		out[i] = common.HexToAddress(t.Address)
	}
	return out
}

// tokenRecipients are the wallets whose listed tokens' transfers in a scan reads: the payments
// wallet (payments) and the treasury (what reaches it that is no sweep), those set.
func (j *Jobs) tokenRecipients() []common.Address {
	var out []common.Address
	for _, a := range []common.Address{j.cfg.PaymentAddress, j.cfg.Treasury} {
		if a != (common.Address{}) {
			out = append(out, a)
		}
	}
	return out
}

// tokenInflow is a transfer of a listed token to the treasury, with its block's hash.
type tokenInflow struct {
	store.TreasuryInflow
	blockHash string
}

// treasuryTokensIn are the transfers of listed tokens to the treasury among transfers, but for
// the payments wallet's (sweeps).
func (j *Jobs) treasuryTokensIn(transfers []chain.TokenTransfer) (in []tokenInflow) {
	for _, t := range transfers {
		if j.cfg.Treasury == (common.Address{}) || t.To != j.cfg.Treasury || t.From == j.cfg.PaymentAddress {
			continue
		}
		in = append(in, tokenInflow{store.TreasuryInflow{TxHash: hexLower(t.TxHash), LogIndex: int(t.LogIndex), From: hexLower(t.From),
			Token: hexLower(t.Token), Amount: t.Value, BlockNumber: int64(t.Block)}, hexLower(t.BlockHash)})
	}
	return in
}

// tokenPayments are the payments among transfers of listed tokens to the payments wallet.
func (j *Jobs) tokenPayments(transfers []chain.TokenTransfer) (payments []store.NewPayment) {
	for _, t := range transfers {
		if !t.Payment(j.cfg.PaymentAddress) {
			continue
		}
		payments = append(payments, store.NewPayment{
			TxHash: hexLower(t.TxHash), TxIndex: int(t.TxIndex), PaymentRef: hexLower(t.Ref()), From: hexLower(t.From),
			ValueWei: new(big.Int), Token: hexLower(t.Token), Amount: t.Value, LogIndex: int(t.LogIndex),
			BlockNumber: int64(t.Block), BlockHash: hexLower(t.BlockHash), BlockTime: time.Unix(int64(t.BlockTime), 0).UTC(),
		})
	}
	return payments
}

// read reads blocks from..to one by one and records what they hold, scanChunk blocks at a time.
func (p scanPass) read(ctx context.Context, from, to uint64) error {
	for start := from; start <= to; start += scanChunk {
		end := min(start+scanChunk-1, to)
		if err := p.scanBlocks(ctx, start, end, p.sum); err != nil {
			return err
		}
		p.scanned(end)
	}
	return nil
}

// scanned notes that the blocks up to end are in the ledger.
func (p scanPass) scanned(end uint64) {
	if !p.cfg.Observe {
		scanLag.Set(float64(p.head - end))
	}
	p.sum.ToBlock = end
}

// scanQuiet scans whole, a range with the payments wallet's state at the block before it and at
// its last. A wallet without code whose balance and nonce did not move was paid
// nothing and sent nothing: only its own transactions take ETH out, and each moves its nonce. Such
// a range is recorded as scanned without reading its blocks; the others are read (quietRanges
// splits them first). A failed withdraw call in a range not read is not seen: SCAN_EVERY_BLOCK
// reads them all. A wallet with code can move ETH in calls, unseen by its nonce: its blocks are
// all read.
func (p scanPass) scanQuiet(ctx context.Context, whole walletRange, known map[uint64]chain.WalletState) error {
	ranges, err := p.quietRanges(ctx, whole, known)
	if err != nil {
		return err
	}
	for i := 0; i < len(ranges); i++ {
		if r := ranges[i]; r.quiet() {
			if err := p.recordQuiet(ctx, r); err != nil {
				return err
			}
			continue
		}
		// Neighbours that moved are read together: a busy stretch costs one read, not one a piece.
		first := i
		for i+1 < len(ranges) && !ranges[i+1].quiet() {
			i++
		}
		if err := p.read(ctx, ranges[first].from, ranges[i].to); err != nil {
			return err
		}
	}
	return nil
}

// walletRange is a range of blocks with the payments wallet's state before and after it.
type walletRange struct {
	from, to      uint64
	before, after chain.WalletState
}

// quiet says whether the wallet neither received nor sent anything in the range.
func (r walletRange) quiet() bool {
	return !r.before.HasCode && !r.after.HasCode && r.before.Nonce == r.after.Nonce && r.before.Balance.Cmp(r.after.Balance) == 0
}

// middle is where the range is halved to look for a quiet half, and whether it is worth it: it
// moved, long enough, and with no code to hide what moved.
func (r walletRange) middle() (uint64, bool) {
	mid, long := middle(r.from, r.to)
	return mid, long && !r.quiet() && !r.before.HasCode && !r.after.HasCode
}

// quietRanges splits whole, in order, into quiet ranges and ranges to read: a range that moved
// is halved down to quietBlocks, level by level, the wallet's states at every middle of a level
// read in one batch (a busy stretch then costs a round trip a level, not one a range), but for
// the states known already.
func (p scanPass) quietRanges(ctx context.Context, whole walletRange, known map[uint64]chain.WalletState) ([]walletRange, error) {
	ranges := []walletRange{whole}
	for {
		var unknown []uint64
		halving := false
		for _, r := range ranges {
			if mid, ok := r.middle(); ok {
				halving = true
				if _, ok := known[mid]; !ok {
					unknown = append(unknown, mid)
				}
			}
		}
		if !halving {
			return ranges, nil
		}
		for batch := range slices.Chunk(unknown, maxStatesBatch) {
			states, err := p.chain.WalletStates(ctx, p.cfg.PaymentAddress, batch...)
			if err != nil {
				return nil, err
			}
			for _, st := range states {
				known[st.Block] = st
			}
		}
		halved := make([]walletRange, 0, 2*len(ranges))
		for _, r := range ranges {
			m, ok := r.middle()
			if !ok {
				halved = append(halved, r)
				continue
			}
			mid := known[m]
			halved = append(halved, walletRange{from: r.from, to: m, before: r.before, after: mid},
				walletRange{from: m + 1, to: r.to, before: mid, after: r.after})
		}
		ranges = halved
	}
}

// maxStatesBatch bounds the wallet states read in one batch: four requests each, 400, below the
// client's largest other batch (500 receipts) and the 1,000 geth takes by default.
const maxStatesBatch = 100

// recordQuiet records quiet range r as scanned, unread.
func (p scanPass) recordQuiet(ctx context.Context, r walletRange) error {
	// Both ends' hashes are kept, so that a reorg inside the range, which replaced its last
	// block too, is noticed there and taken back to the block before it (checkCursor).
	var scan store.Scan         // the cursor is its last block
	if r.before.Block != r.to { // the genesis block alone is its own "before"
		scan.Blocks = append(scan.Blocks, store.ScannedBlock{Number: int64(r.before.Block), Hash: hexLower(r.before.Hash)})
	}
	scan.Blocks = append(scan.Blocks, store.ScannedBlock{Number: int64(r.to), Hash: hexLower(r.after.Hash)})
	if err := p.withLogs(&scan, r.from, r.to); err != nil {
		return err
	}
	if err := p.store.RecordScan(ctx, store.PaymentsScanner, scan); err != nil {
		return err
	}
	p.confirmed(scan.Payments)
	p.sum.Seen += len(scan.Payments) // in tokens: the wallet's ETH did not move
	// Nothing reached the wallet unexplained: no block of the range needed a trace.
	p.tracing.CompareAndSwap(traceUnknown, traceNotNeeded)
	p.scanned(r.to)
	return nil
}

// Step boundaries of a scan, where a test may stop the payments pass as a crash would.
const (
	stepScanFetched  step = "scan.fetched"  // a chunk's blocks, receipts and traces are read
	stepScanRecorded step = "scan.recorded" // what they hold is in the ledger, with the cursor
)

// scanBlocks reads blocks from..to and records what they hold, with the cursor moved to to.
// A payment sent by a contract wallet is a call inside a transaction, which only a trace shows;
// tracing costs the node as much as making the block, so only the blocks where the payments
// wallet's balance moved otherwise than its own transactions say are traced (and every block
// while the wallet has code: then its own calls can move ETH unseen). The ETH neither the
// transactions nor the trace explain (all of it, where the RPC cannot trace) is recorded for the
// operator as an unattributed inflow of its block: the books lose nothing the wallet received.
func (p scanPass) scanBlocks(ctx context.Context, from, to uint64, sum *PaymentsSummary) error {
	j := p.Jobs
	payTo := j.cfg.PaymentAddress
	blocks, changes, err := j.fetchBlocks(ctx, from, to)
	if err != nil {
		return err
	}
	trace, unexplained := toTrace(blocks, changes, payTo)
	transfers, traced, err := j.internalTransfers(ctx, trace)
	if err != nil {
		return err
	}
	if err := j.step(stepScanFetched); err != nil {
		return err
	}

	scan := classify(blocks, j.watched())
	if !j.cfg.Observe {
		scan.Sweeps = nil // the sweep pass records the service's
	}
	hashes := map[uint64]string{}
	for _, b := range scan.Blocks {
		hashes[uint64(b.Number)] = b.Hash
	}
	times := map[uint64]time.Time{}
	for _, b := range blocks {
		times[b.Number] = blockTime(b)
	}
	scan.Payments = append(scan.Payments, tracedPayments(transfers, payTo, hashes, times)...)
	rest := unattributedWei(trace, unexplained, transfers, payTo)
	scan.Unattributed = unattributed(trace, rest, hashes)
	for n, d := range rest {
		if d.Sign() < 0 && traced { // the books and the chain disagree: only a person can say why
			j.log.Warn("payments scan: a trace attributes more ETH than the payments wallet's balance gained", "block", n, "excess_wei", new(big.Int).Neg(d))
		}
	}
	if err := p.withLogs(&scan, from, to); err != nil {
		return err
	}
	if err := j.priceETHPayments(ctx, scan.Payments); err != nil {
		return err
	}
	if err := j.store.RecordScan(ctx, store.PaymentsScanner, scan); err != nil {
		return err
	}
	j.confirmed(scan.Payments)
	sum.Seen += len(scan.Payments)
	sum.Failed += len(scan.Failed)
	sum.Unattributed += len(scan.Unattributed)
	return j.step(stepScanRecorded)
}

// fetchBlocks reads blocks from..to, with the transactions to or from the factory and the
// payments wallet and the receipts that tell something of them, and the wallet's balance change
// at each block (none when no payments wallet is set).
func (j *Jobs) fetchBlocks(ctx context.Context, from, to uint64) ([]chain.Block, []chain.BalanceChange, error) {
	payTo := j.cfg.PaymentAddress
	paid := payTo != (common.Address{})
	watched := []common.Address{j.chain.Factory()}
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
		return nil, nil, err
	}
	hasCode := map[uint64]bool{}
	for _, c := range changes {
		hasCode[c.Block] = c.HasCode
	}
	// A transfer into the payments wallet while it has no code runs no code, so it cannot fail:
	// its receipt would tell nothing. Every other receipt counts (a failed withdraw call, what
	// the wallet's own transactions paid).
	err := j.chain.Outcomes(ctx, blocks, func(b chain.Block, tx chain.Tx) bool {
		return !paid || tx.To == nil || *tx.To != payTo || tx.From == payTo || hasCode[b.Number]
	})
	return blocks, changes, err
}

// toTrace is the blocks to trace, in order, with what the payments wallet received in each that
// its transactions do not explain: those where that is not nothing, and every block while the
// wallet has code. changes are the wallet's balance changes, one for each of blocks.
func toTrace(blocks []chain.Block, changes []chain.BalanceChange, payTo common.Address) ([]uint64, map[uint64]*big.Int) {
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
	return trace, unexplained
}

// watched is what classify sorts transactions by: the payments wallet (zero: none), the
// treasury, the factory and its withdraw calls (decoded by withdraw), and the listed tokens.
type watched struct {
	payTo, treasury, factory common.Address
	tokens                   []common.Address
	withdraw                 func([]byte) (chain.WithdrawCall, bool)
}

// watched is what the passes' scans classify by.
func (j *Jobs) watched() watched {
	return watched{payTo: j.cfg.PaymentAddress, treasury: j.cfg.Treasury, factory: j.chain.Factory(), tokens: j.tokens(),
		withdraw: j.chain.DecodeWithdraw}
}

// classify sorts the top-level transactions of blocks into what the ledger records of them:
// payments to the payments wallet, plain transfers out of it (refunds, when they match a rejected
// payment), its sweeps to the treasury (of ETH, or a listed token's transfer), and withdraw
// calls to the factory that failed. The sweep pass records the sweeps the service sends: a scan
// records those it finds only in a rebuild (Config.Observe).
func classify(blocks []chain.Block, w watched) store.Scan {
	payTo := w.payTo
	paid := payTo != (common.Address{})
	swept := paid && w.treasury != (common.Address{})
	var scan store.Scan
	for _, b := range blocks {
		hash := hexLower(b.Hash)
		scan.Blocks = append(scan.Blocks, store.ScannedBlock{Number: int64(b.Number), Hash: hash})
		for _, tx := range b.Txs {
			ok := tx.Status == types.ReceiptStatusSuccessful
			if paid && tx.From == payTo && tx.Fee != nil {
				scan.Fees = append(scan.Fees, store.WalletFee{TxHash: hexLower(tx.Hash), BlockNumber: int64(b.Number), FeeWei: tx.Fee})
			}
			switch { // Blocks returns only the transactions to or from what the scan watches
			case tx.To == nil: // a contract the payments wallet created: no payment, no refund
			case paid && *tx.To == payTo && tx.From != payTo && ok && tx.Value.Sign() > 0:
				scan.Payments = append(scan.Payments, store.NewPayment{
					TxHash: hexLower(tx.Hash), TxIndex: int(tx.Index), PaymentRef: hexLower(tx.Hash), From: hexLower(tx.From),
					ValueWei: tx.Value, BlockNumber: int64(b.Number), BlockHash: hash, BlockTime: blockTime(b),
				})
			case swept && tx.From == payTo && *tx.To == w.treasury && tx.Value.Sign() > 0:
				scan.Sweeps = append(scan.Sweeps, sweepOf(tx, b.Number, nil, tx.Value, w.treasury))
			case swept && tx.From == payTo && slices.Contains(w.tokens, *tx.To):
				if to, amount, isTransfer := chain.DecodeTokenTransfer(tx.Input); isTransfer && to == w.treasury && amount.Sign() > 0 {
					token := hexLower(*tx.To)
					scan.Sweeps = append(scan.Sweeps, sweepOf(tx, b.Number, &token, amount, to))
				}
			case paid && tx.From == payTo && *tx.To != payTo && *tx.To != w.treasury && ok && tx.Value.Sign() > 0:
				scan.Outgoing = append(scan.Outgoing, store.OutgoingTransfer{
					TxHash: hexLower(tx.Hash), To: hexLower(*tx.To), ValueWei: tx.Value, BlockNumber: int64(b.Number),
				})
			case *tx.To == w.factory && tx.Status == types.ReceiptStatusFailed:
				if wc, ok := w.withdraw(tx.Input); ok {
					scan.Failed = append(scan.Failed, store.FailedWithdrawal{ChainNodeID: wc.ID, AmountWei: wc.Amount,
						To: hexLower(wc.To), TxHash: hexLower(tx.Hash), BlockNumber: int64(b.Number), At: blockTime(b)})
				}
			}
		}
	}
	return scan
}

// sweepOf is the sweep transaction tx, mined in block, moved (or, reverted, did not): amount of
// token (nil: ETH) from the payments wallet to the treasury, to.
func sweepOf(tx chain.Tx, block uint64, token *string, amount *big.Int, to common.Address) store.Sweep {
	status, number := store.SweepSwept, int64(block)
	if tx.Status != types.ReceiptStatusSuccessful {
		status = store.SweepFailed
	}
	return store.Sweep{From: hexLower(tx.From), To: hexLower(to), AmountWei: store.Uint256{Int: amount}, Token: token,
		Status: status, TxHash: hexLower(tx.Hash), BlockNumber: &number}
}

// blockTime is when block b was made, as its header says: what a payment in it is judged at.
func blockTime(b chain.Block) time.Time { return time.Unix(int64(b.Time), 0).UTC() }

// tracedPayments are the payments contract wallets made to payTo among the transfers a trace
// found; hashes and times are the hashes and times of the blocks scanned, by number.
func tracedPayments(transfers []chain.InternalTransfer, payTo common.Address, hashes map[uint64]string, times map[uint64]time.Time) []store.NewPayment {
	var out []store.NewPayment
	for _, t := range transfers {
		if !t.Payment(payTo) {
			continue
		}
		out = append(out, store.NewPayment{
			TxHash: hexLower(t.TxHash), TxIndex: int(t.TxIndex), CallIndex: t.Index, PaymentRef: hexLower(t.Ref()), From: hexLower(t.From),
			ValueWei: t.Value, BlockNumber: int64(t.Block), BlockHash: hashes[t.Block], BlockTime: times[t.Block],
		})
	}
	return out
}

// unattributed are the inflows nothing attributes: rest, the ETH in each block of trace that
// neither the payments wallet's top-level transactions nor a trace explain (unattributedWei),
// where that is more than nothing.
func unattributed(trace []uint64, rest map[uint64]*big.Int, hashes map[uint64]string) []store.UnattributedInflow {
	var out []store.UnattributedInflow
	for _, n := range trace {
		if d := rest[n]; d.Sign() > 0 {
			out = append(out, store.UnattributedInflow{
				BlockNumber: int64(n), BlockHash: hashes[n], AmountWei: store.Uint256{Int: d}})
		}
	}
	return out
}

// unattributedWei is, for each block of trace, what the payments wallet received there that
// nothing attributes: its unexplained wei (beyond its top-level transactions), less the payments
// the trace found among transfers (nil when the RPC could not trace), plus what the wallet sent
// in frames inside transactions. ETH a SELFDESTRUCT handed the wallet was sent by nobody, so it is
// no payment and stays in; so do beacon withdrawals and block fees.
func unattributedWei(trace []uint64, unexplained map[uint64]*big.Int, transfers []chain.InternalTransfer, payTo common.Address) map[uint64]*big.Int {
	rest := make(map[uint64]*big.Int, len(trace))
	for _, n := range trace {
		rest[n] = new(big.Int).Set(unexplained[n])
	}
	for _, t := range transfers {
		switch d := rest[t.Block]; {
		case d == nil: // only traced blocks have transfers
		case t.Payment(payTo):
			d.Sub(d, t.Value)
		case t.From == payTo:
			d.Add(d, t.Value)
		}
	}
	return rest
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
	if !j.cfg.Observe {
		tracedBlocks.Add(float64(len(blocks)))
	}
	return transfers, true, nil
}

// checkCursor returns the next block scanner name reads: the one after its cursor, or, when the
// chain replaced the cursor's block (a reorg deeper than the confirmations), the one after the
// last block both agree on, once rewind has taken the scanner's records back to it; rewound is
// how many blocks it took back. Only the blocks whose hash the scanner kept are compared: a
// block between two of them (in a quiet range the payments scan did not read) is no evidence,
// since a reorg that replaced it replaced every block after it too. Older than every hash kept,
// a block is trusted.
func (j *Jobs) checkCursor(ctx context.Context, name string, cur store.Cursor,
	rewind func(ctx context.Context, name string, number int64, hash string) (forgotten int64, err error),
) (next uint64, rewound int64, err error) {
	n := cur.Number + 1
	for {
		kept, err := j.store.ScannedBelow(ctx, name, n)
		trusted := errors.Is(err, store.ErrNotFound)
		switch {
		case trusted:
			if n--; n < 0 {
				return uint64(cur.Number) + 1, 0, nil
			}
		case err != nil:
			return 0, 0, err
		default:
			n = kept.Number
		}
		onChain, err := j.chain.Blocks(ctx, uint64(n), uint64(n))
		if err != nil {
			return 0, 0, err
		}
		hash := hexLower(onChain[0].Hash)
		if !trusted && kept.Hash != hash {
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
}
