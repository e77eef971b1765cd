package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"slices"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"nodeledger/chain"
	"nodeledger/store"
)

// outbox is the one way a transaction of the service reaches the chain, one for each of the
// service's senders: the payments pass sends its mints through the minter's, the credit pass its
// credits through the distributor's, the sweep pass its sweeps through the payments wallet's. A transaction is signed, stored and only then sent (submit),
// so a crash after any step leaves the very bytes to send again (open, resume). It is then watched
// until one of its versions is mined (await): whenever BumpBlocks blocks pass without that, it is
// signed again at the same nonce with higher fees (the pool's replacement minimum, or the node's
// suggestion when higher), up to MaxFee, and that version too is stored before it is sent, so
// whichever version the chain mines is recognised, after a crash too. A nonce below them that
// nothing holds is filled (fillGaps).
type outbox struct {
	signer     string // who the sender is: minter, distributor or payments wallet
	sender     *chain.Sender
	chain      *chain.Client
	store      txStore
	log        *slog.Logger
	step       func(step) error // the passes' step hook
	bumpBlocks uint64
	timeout    time.Duration // how long fillGaps waits for its fillers (ReceiptTimeout)

	resentMu sync.Mutex
	resent   map[common.Hash]uint64 // the head when nudge last sent a transaction again
	prunedAt uint64                 // the head resent was last pruned at
}

// newOutbox is the outbox of s, one of the service's signers (minter, distributor, payments
// wallet), whose transactions pay MaxFeeWei at most.
func (j *Jobs) newOutbox(signer string, s *chain.Sender) *outbox {
	s.MaxFee = j.cfg.MaxFeeWei
	return &outbox{signer: signer, sender: s, chain: j.chain, store: j.store, log: j.log, step: j.step,
		bumpBlocks: j.cfg.BumpBlocks, timeout: j.cfg.ReceiptTimeout, resent: map[common.Hash]uint64{}}
}

// txStore keeps every version the outbox signs, before it is sent, with the ledger row it is for.
type txStore interface {
	KeepTx(ctx context.Context, f store.TxFor, v store.SentTx) (store.TxFor, error)
	TxVersions(ctx context.Context, fs ...store.TxFor) ([][]store.SentTx, error)
	Fillers(ctx context.Context, sender string, from int64) ([]store.SentTx, error)
}

// txKind is what an outbox transaction does for the ledger (mint, credit, sweep, fill). Its step
// boundaries, where tests stop a pass as a crash would, are its own: stored and sent for a new
// transaction, replaced and resent for a replacement.
type txKind struct {
	name                           string // in the log
	stored, sent, replaced, resent step
}

const (
	stepMintStored     step = "mint.stored" // signed and stored, not sent
	stepMintSent       step = "mint.sent"
	stepMintReplaced   step = "mint.replaced" // a version with higher fees signed and stored, not sent
	stepMintResent     step = "mint.resent"
	stepCreditStored   step = "credit.stored"
	stepCreditSent     step = "credit.sent"
	stepCreditReplaced step = "credit.replaced"
	stepCreditResent   step = "credit.resent"
	stepSweepStored    step = "sweep.stored"
	stepSweepSent      step = "sweep.sent"
	stepSweepReplaced  step = "sweep.replaced"
	stepSweepResent    step = "sweep.resent"
	stepFillStored     step = "fill.stored"
	stepFillSent       step = "fill.sent"
	stepFillReplaced   step = "fill.replaced"
	stepFillResent     step = "fill.resent"
)

var (
	mintTx   = txKind{"mint", stepMintStored, stepMintSent, stepMintReplaced, stepMintResent}
	creditTx = txKind{"credit", stepCreditStored, stepCreditSent, stepCreditReplaced, stepCreditResent}
	sweepTx  = txKind{"sweep", stepSweepStored, stepSweepSent, stepSweepReplaced, stepSweepResent}
	fillTx   = txKind{"fill", stepFillStored, stepFillSent, stepFillReplaced, stepFillResent}
)

// txState is where a transaction of the outbox stands once resume or await has looked.
type txState int

const (
	txWaiting txState = iota // sent; no version is mined yet, the next pass takes it up again
	txMined                  // a version is mined: await keeps its receipt, which says how it went
	txDead                   // another transaction took its nonce: it can never be mined, sign anew
)

// outTx is a transaction in the outbox: every version signed for one ledger row, oldest first.
type outTx struct {
	row store.TxFor

	versions  []*types.Transaction
	sentBlock uint64 // the head when the newest version was signed
	refused   bool   // the node refused the newest version's fees: replace it without waiting
	capped    bool   // the newest version is at MaxFee: said once, not again each poll

	receipt *types.Receipt // of the version mined, once await has seen it
}

// kind follows from the row the transaction is for.
func (o *outTx) kind() txKind {
	switch {
	case o.row.MintBatch != 0 || o.row.Mints != nil:
		return mintTx
	case o.row.RoundID != 0:
		return creditTx
	case o.row.SweepID != 0 || o.row.Sweep != nil:
		return sweepTx
	}
	return fillTx
}

func (o *outTx) newest() *types.Transaction { return o.versions[len(o.versions)-1] }

// mined is the version the chain mined, once await has seen its receipt.
func (o *outTx) mined() *types.Transaction {
	i := slices.IndexFunc(o.versions, func(tx *types.Transaction) bool { return tx.Hash() == o.receipt.TxHash })
	return o.versions[i]
}

func (o *outTx) hashes() []common.Hash {
	out := make([]common.Hash, len(o.versions))
	for i, tx := range o.versions {
		out[i] = tx.Hash()
	}
	return out
}

// open is the transactions earlier passes stored for rows, each with the versions the outbox
// keeps for it at its current nonce, read in one query. newest[i] is rows[i]'s own newest
// version, which a row signed before the outbox existed has alone. Versions at a nonce given up
// (another transaction took it) are left out: the contract guards against them.
func (b *outbox) open(ctx context.Context, rows []store.TxFor, newest [][]byte) ([]*outTx, error) {
	stored, err := b.store.TxVersions(ctx, rows...)
	if err != nil {
		return nil, err
	}
	out := make([]*outTx, len(rows))
	for i, row := range rows {
		last := new(types.Transaction)
		err := last.UnmarshalBinary(newest[i])
		if err == nil {
			out[i] = &outTx{row: row}
			err = out[i].add(stored[i], last)
		}
		if err != nil {
			return nil, fmt.Errorf("the transaction of %s: %w", row, err)
		}
	}
	return out, nil
}

// add sets o's versions: those of stored at newest's nonce, and newest itself when stored lacks it.
func (o *outTx) add(stored []store.SentTx, newest *types.Transaction) error {
	for _, v := range stored {
		if uint64(v.Nonce) != newest.Nonce() {
			continue
		}
		tx := new(types.Transaction)
		if err := tx.UnmarshalBinary(v.Raw); err != nil {
			return err
		}
		o.versions = append(o.versions, tx)
		o.sentBlock = uint64(v.SentBlock)
	}
	if !slices.ContainsFunc(o.versions, func(tx *types.Transaction) bool { return tx.Hash() == newest.Hash() }) {
		o.versions, o.sentBlock = append(o.versions, newest), 0
	}
	return nil
}

// submit signs a call to `to` for row at the sender's next nonce, stores it and sends it. A
// signing error (the call reverts in the estimate, say) comes back as it is, for the caller to read.
func (b *outbox) submit(ctx context.Context, row store.TxFor, to common.Address, data []byte, value *big.Int) (*outTx, error) {
	head, err := b.chain.HeadNumber(ctx)
	if err != nil {
		return nil, err
	}
	tx, err := b.sender.Sign(ctx, &to, data, value)
	if err != nil {
		return nil, err
	}
	return b.post(ctx, row, tx, head)
}

// post stores tx, just signed at the sender's next nonce for row while the head was at block
// head, and sends it.
func (b *outbox) post(ctx context.Context, row store.TxFor, tx *types.Transaction, head uint64) (*outTx, error) {
	o := &outTx{row: row}
	if err := b.dispatch(ctx, o, tx, head); err != nil {
		// The nonce was handed out: whether it reached the chain or not, the chain says which is next.
		b.sender.ResetNonce()
		return nil, err
	}
	return o, nil
}

// dispatch stores tx, signed while the head was at block head, as o's newest version, then sends
// it: o's first (stored, sent) or a replacement (replaced, resent).
func (b *outbox) dispatch(ctx context.Context, o *outTx, tx *types.Transaction, head uint64) error {
	stored, sent := o.kind().stored, o.kind().sent
	if len(o.versions) > 0 {
		stored, sent = o.kind().replaced, o.kind().resent
	}
	v, err := sentTx(b.sender.From, tx, head)
	if err != nil {
		return err
	}
	if o.row, err = b.store.KeepTx(ctx, o.row, v); err != nil {
		return err
	}
	o.versions, o.sentBlock, o.capped = append(o.versions, tx), head, false
	if err := b.step(stored); err != nil {
		return err
	}
	if err := b.broadcast(ctx, o, tx); err != nil {
		return err
	}
	return b.step(sent)
}

// broadcast sends a version of o. A node that refuses its fees as too low has not taken it: that
// is no failure, but await replaces it at once instead of waiting BumpBlocks. A nonce used
// meanwhile by one of o's earlier versions is no failure either: await finds its receipt.
func (b *outbox) broadcast(ctx context.Context, o *outTx, tx *types.Transaction) error {
	err := b.chain.Send(ctx, tx)
	o.refused = errors.Is(err, chain.ErrUnderpriced)
	switch {
	case o.refused:
		b.log.Warn("outbox: the node refuses the fees as too low; replacing", "kind", o.kind().name, "tx", tx.Hash(), "err", err)
		return nil
	case errors.Is(err, chain.ErrNonceTaken):
		if _, merr := b.chain.Mined(ctx, o.hashes()...); !errors.Is(merr, chain.ErrNotMined) {
			return merr
		}
	case errors.Is(err, chain.ErrInsufficientFunds):
		return b.cannotPay(ctx, tx, err)
	}
	return err
}

// CannotPayError is a transaction of the service that its signer cannot pay for: the node
// refuses it until the signer is funded, and the pass that sends it fails until then.
type CannotPayError struct {
	Signer  string   // minter, distributor or payments wallet
	Balance *big.Int // the signer's, when the node refused; nil when it could not be read
	Need    *big.Int // what the node asks the balance to cover: gas limit × fee cap + value
	err     error
}

func (e *CannotPayError) Error() string {
	return fmt.Sprintf("the %s cannot pay for its transaction: it holds %v wei, the transaction needs %s wei: %v", e.Signer, e.Balance, e.Need, e.err)
}

func (e *CannotPayError) Unwrap() error { return e.err }

// cannotPay is the CannotPayError of tx, which the node refused for want of funds (err).
func (b *outbox) cannotPay(ctx context.Context, tx *types.Transaction, err error) error {
	need := new(big.Int).Mul(tx.GasFeeCap(), new(big.Int).SetUint64(tx.Gas()))
	e := &CannotPayError{Signer: b.signer, Need: need.Add(need, tx.Value()), err: err}
	if bal, berr := b.chain.Balance(ctx, b.sender.From); berr == nil {
		e.Balance = bal
	}
	return e
}

// sentTx is tx as the outbox keeps it, signed by from while the head was at block head.
func sentTx(from common.Address, tx *types.Transaction, head uint64) (store.SentTx, error) {
	raw, err := tx.MarshalBinary()
	return store.SentTx{
		Hash: hexLower(tx.Hash()), Sender: hexLower(from), Nonce: int64(tx.Nonce()), Raw: raw,
		TipWei: store.Uint256{Int: tx.GasTipCap()}, FeeCapWei: store.Uint256{Int: tx.GasFeeCap()}, SentBlock: int64(head),
	}, err
}

// resume sends o's newest version again unless a version was mined, as a pass does first with
// what an earlier one left: the node may have dropped it (a restart, a full pool). txDead when o
// can never be mined, its nonce taken by another transaction: the caller signs anew.
func (b *outbox) resume(ctx context.Context, o *outTx) (txState, error) {
	if _, err := b.chain.Mined(ctx, o.hashes()...); !errors.Is(err, chain.ErrNotMined) {
		return txMined, err
	}
	err := b.broadcast(ctx, o, o.newest())
	if errors.Is(err, chain.ErrNonceTaken) {
		_, err := b.chain.Mined(ctx, o.hashes()...) // mined since it was asked for, or dead
		switch {
		case err == nil:
			return txMined, nil
		case errors.Is(err, chain.ErrNotMined):
			return txDead, nil
		}
		return txDead, err
	}
	return txWaiting, err
}

// await waits until one of o's versions is mined, polling more slowly as time goes by, and keeps
// its receipt. Whenever BumpBlocks blocks pass without it, the newest version is replaced. Past
// the deadline it looks once more, then answers txWaiting; txDead when another transaction took
// o's nonce and the caller must sign anew.
func (b *outbox) await(ctx context.Context, o *outTx, deadline time.Time) (txState, error) {
	for wait := 50 * time.Millisecond; ; wait = min(2*wait, time.Second) {
		r, err := b.chain.Mined(ctx, o.hashes()...)
		if err == nil {
			o.receipt = r
			return txMined, nil
		}
		if !errors.Is(err, chain.ErrNotMined) {
			return txWaiting, err
		}
		head, err := b.chain.HeadNumber(ctx)
		if err != nil {
			return txWaiting, err
		}
		if o.refused || head >= o.sentBlock+b.bumpBlocks {
			err := b.bump(ctx, o, head)
			if errors.Is(err, chain.ErrNonceTaken) {
				return txDead, nil
			}
			if err != nil {
				return txWaiting, err
			}
		}
		left := time.Until(deadline)
		if left <= 0 {
			return txWaiting, nil
		}
		select {
		case <-ctx.Done():
			return txWaiting, ctx.Err()
		case <-time.After(min(wait, left)):
		}
		ctx = chain.Moving(ctx) // each look after the first sees the head move
	}
}

// bump replaces o's newest version with one paying more, when it is the sender's next to be
// mined (one queued behind it waits for it, not for fees). chain.ErrNonceTaken when another
// transaction took o's nonce.
func (b *outbox) bump(ctx context.Context, o *outTx, head uint64) error {
	old := o.newest()
	mined, _, err := b.chain.Nonces(ctx, b.sender.From)
	if err != nil {
		return err
	}
	switch {
	case mined > old.Nonce():
		// The nonce is used. By a version of o mined since await looked, or by another.
		if _, err := b.chain.Mined(ctx, o.hashes()...); !errors.Is(err, chain.ErrNotMined) {
			return err
		}
		return chain.ErrNonceTaken
	case mined < old.Nonce():
		return nil
	}
	return b.replace(ctx, o, head)
}

// replace signs o's newest version again at its nonce with higher fees, stores it and sends it.
// At MaxFee, or past what the sender can pay, it sends the newest again (the node may have
// dropped it) and waits, saying so once.
func (b *outbox) replace(ctx context.Context, o *outTx, head uint64) error {
	old := o.newest()
	tx, err := b.sender.Replace(ctx, old)
	if errors.Is(err, chain.ErrFeeCapReached) || errors.Is(err, chain.ErrCannotAfford) {
		if !o.capped {
			o.capped = true
			b.log.Warn("outbox: a transaction waits: its fees cannot rise", "why", err, "kind", o.kind().name,
				"tx", old.Hash(), "nonce", old.Nonce(), "fee_cap_wei", old.GasFeeCap(), "max_fee_wei", b.sender.MaxFee)
		}
		o.sentBlock = head
		err := b.broadcast(ctx, o, old)
		o.refused = false // a refusal now waits like the rest: BumpBlocks, then again
		return err
	}
	if err != nil {
		return err
	}
	b.log.Info("outbox: transaction replaced with higher fees", "kind", o.kind().name, "nonce", old.Nonce(),
		"old", old.Hash(), "new", tx.Hash(), "tip_wei", tx.GasTipCap(), "fee_cap_wei", tx.GasFeeCap())
	txReplacements.Inc()
	return b.dispatch(ctx, o, tx, head)
}

// look reads once where each of txs (the sender's, by nonce) stands, in a number of round trips
// that does not grow with how many wait: the sender's mined nonce says which are mined (every
// one below it), and only those have their receipts read, in a batch. Each mined one gets its
// receipt (txMined); one below the mined nonce without a receipt for any of its versions lost its
// nonce to another transaction (txDead); the rest are txWaiting. mined is the sender's mined
// nonce: the one at it is the next the chain mines.
func (b *outbox) look(ctx context.Context, txs []*outTx) (states []txState, mined uint64, err error) {
	// The nonce first: a transaction it counts is in a block whose receipts the node has indexed.
	mined, _, err = b.chain.Nonces(ctx, b.sender.From)
	if err != nil {
		return nil, 0, err
	}
	var hashes []common.Hash
	for _, o := range txs {
		if o.newest().Nonce() < mined {
			hashes = append(hashes, o.hashes()...)
		}
	}
	receipts, err := b.chain.Receipts(ctx, hashes)
	if err != nil {
		return nil, 0, err
	}
	states = make([]txState, len(txs))
	for i, o := range txs {
		if o.newest().Nonce() >= mined {
			continue // txWaiting
		}
		states[i] = txDead
		for _, h := range o.hashes() {
			if r, ok := receipts[h]; ok {
				o.receipt, states[i] = r, txMined
			}
		}
	}
	return states, mined, nil
}

// nudge does what o, waiting unmined at head, needs; next is the sender's next nonce to be mined.
// The transaction at it is replaced with higher fees once it has waited BumpBlocks blocks, or
// the node refused its fees; one queued behind it is sent again, its very bytes, every BumpBlocks
// blocks, in case the node dropped it. A nonce taken meanwhile is left to the next look, which
// tells by whom.
func (b *outbox) nudge(ctx context.Context, o *outTx, next, head uint64) error {
	tx := o.newest()
	var err error
	switch {
	case tx.Nonce() == next && (o.refused || head >= o.sentBlock+b.bumpBlocks):
		err = b.replace(ctx, o, head)
	case tx.Nonce() > next && head >= max(o.sentBlock, b.resentAt(tx.Hash(), head))+b.bumpBlocks:
		b.resentMu.Lock()
		b.resent[tx.Hash()] = head
		b.resentMu.Unlock()
		err = b.broadcast(ctx, o, tx)
	}
	if errors.Is(err, chain.ErrNonceTaken) {
		return nil
	}
	return err
}

// resentAt is the head when nudge last sent tx again, 0 if never. Entries that no longer hold
// anything back are forgotten, once a head.
func (b *outbox) resentAt(hash common.Hash, head uint64) uint64 {
	b.resentMu.Lock()
	defer b.resentMu.Unlock()
	if head != b.prunedAt {
		b.prunedAt = head
		for h, at := range b.resent {
			if at+b.bumpBlocks <= head {
				delete(b.resent, h)
			}
		}
	}
	return b.resent[hash]
}

// fillGaps repairs the gaps below the highest nonce the outbox waits on: a nonce nothing in the
// node's pool holds keeps every later transaction of the sender from being mined. Each is taken by
// a transfer of nothing to the sender itself, through the outbox, and waited for (replaced like
// any other when it waits too long), with the fillers earlier passes sent and the chain has not
// mined. waiting are the nonces of the newest versions of what the sender waits on, just sent again.
func (b *outbox) fillGaps(ctx context.Context, waiting []uint64) error {
	if len(waiting) == 0 {
		return nil
	}
	mined, pending, err := b.chain.Nonces(ctx, b.sender.From)
	if err != nil {
		return err
	}
	stored, err := b.store.Fillers(ctx, hexLower(b.sender.From), int64(mined))
	if err != nil {
		return err
	}
	var fillers []*outTx
	filled := map[uint64]bool{}
	for i, v := range stored { // by nonce, oldest first at each: the last at a nonce is its newest
		if i+1 < len(stored) && stored[i+1].Nonce == v.Nonce {
			continue
		}
		filled[uint64(v.Nonce)] = true
		o := &outTx{}
		newest := new(types.Transaction)
		if err := newest.UnmarshalBinary(v.Raw); err != nil {
			return err
		}
		if err := o.add(stored, newest); err != nil {
			return err
		}
		if _, err := b.resume(ctx, o); err != nil {
			return err
		}
		fillers = append(fillers, o)
	}
	for n := pending; n < slices.Max(waiting); n++ {
		if slices.Contains(waiting, n) || filled[n] {
			continue
		}
		tx, err := b.sender.Fill(ctx, n)
		if err != nil {
			return err
		}
		b.log.Warn("outbox: filling a nonce gap", "sender", b.sender.From, "nonce", n, "tx", tx.Hash())
		head, err := b.chain.HeadNumber(ctx)
		if err != nil {
			return err
		}
		o := &outTx{}
		if err := b.dispatch(ctx, o, tx, head); err != nil {
			return err
		}
		fillers = append(fillers, o)
	}
	deadline := time.Now().Add(b.timeout)
	for _, o := range fillers {
		// Taken by another transaction or not mined yet, the nonce is held either way, or will be
		// looked at again by the next pass.
		if _, err := b.await(ctx, o, deadline); err != nil {
			return err
		}
	}
	return nil
}

// Outbox reads the outbox's figures for health.
func (j *Jobs) Outbox(ctx context.Context) (store.OutboxStats, error) {
	return j.store.OutboxStats(ctx, j.cfg.MaxFeeWei)
}

// MaxFee is the fee cap of every transaction the service signs (MAX_FEE_GWEI); nil: none.
func (j *Jobs) MaxFee() *big.Int { return j.cfg.MaxFeeWei }
