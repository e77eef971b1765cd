package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"nodeledger/chain"
	"nodeledger/store"
)

// outbox is the one way a transaction of the service reaches the chain, one for each of the
// service's senders: the payments pass sends its mints through the minter's, the credit pass its
// credits through the distributor's. A transaction is signed, stored and only then sent (submit),
// so a crash after any step leaves the very bytes to send again (open, resume). It is then watched
// until one of its versions is mined (await): whenever BumpBlocks blocks pass without that, it is
// signed again at the same nonce with higher fees (the pool's replacement minimum, or the node's
// suggestion when higher), up to MaxFee, and that version too is stored before it is sent, so
// whichever version the chain mines is recognised, after a crash too. A nonce below them that
// nothing holds is filled (fillGaps).
type outbox struct {
	signer     string // what the sender is to the factory: minter or distributor
	sender     *chain.Sender
	chain      *chain.Client
	store      txStore
	log        *slog.Logger
	step       func(step) error // the passes' step hook
	bumpBlocks uint64
	timeout    time.Duration // how long fillGaps waits for its fillers (ReceiptTimeout)
}

// newOutbox is the outbox of s, the factory's signer (minter or distributor), whose transactions
// pay MaxFeeWei at most.
func (j *Jobs) newOutbox(signer string, s *chain.Sender) *outbox {
	s.MaxFee = j.cfg.MaxFeeWei
	return &outbox{signer: signer, sender: s, chain: j.chain, store: j.store, log: j.log, step: j.step,
		bumpBlocks: j.cfg.BumpBlocks, timeout: j.cfg.ReceiptTimeout}
}

// txStore keeps every version the outbox signs, before it is sent, with the ledger row it is for.
type txStore interface {
	KeepTx(ctx context.Context, f store.TxFor, v store.SentTx) error
	TxVersions(ctx context.Context, f store.TxFor) ([]store.SentTx, error)
	Fillers(ctx context.Context, sender string, from int64) ([]store.SentTx, error)
}

// txKind is what an outbox transaction does for the ledger (mint, credit, fill). Its step
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
	stepFillStored     step = "fill.stored"
	stepFillSent       step = "fill.sent"
	stepFillReplaced   step = "fill.replaced"
	stepFillResent     step = "fill.resent"
)

var (
	mintTx   = txKind{"mint", stepMintStored, stepMintSent, stepMintReplaced, stepMintResent}
	creditTx = txKind{"credit", stepCreditStored, stepCreditSent, stepCreditReplaced, stepCreditResent}
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
	case o.row.PaymentID != 0:
		return mintTx
	case o.row.RoundID != 0:
		return creditTx
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

// open is the transaction an earlier pass stored for row, with the versions the outbox keeps for
// it at its current nonce. newest is the row's own newest version, which a row signed before the
// outbox existed has alone. Versions at a nonce given up (another transaction took it) are left
// out: the contract guards against them.
func (b *outbox) open(ctx context.Context, row store.TxFor, newest []byte) (*outTx, error) {
	last := new(types.Transaction)
	if err := last.UnmarshalBinary(newest); err != nil {
		return nil, err
	}
	stored, err := b.store.TxVersions(ctx, row)
	if err != nil {
		return nil, err
	}
	o := &outTx{row: row}
	return o, o.add(stored, last)
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
	tx, err := b.sender.Sign(ctx, &to, data, value)
	if err != nil {
		return nil, err
	}
	o := &outTx{row: row}
	if err := b.dispatch(ctx, o, tx); err != nil {
		// The nonce was handed out: whether it reached the chain or not, the chain says which is next.
		b.sender.ResetNonce()
		return nil, err
	}
	return o, nil
}

// dispatch stores tx as o's newest version, then sends it: o's first (stored, sent) or a
// replacement (replaced, resent).
func (b *outbox) dispatch(ctx context.Context, o *outTx, tx *types.Transaction) error {
	stored, sent := o.kind().stored, o.kind().sent
	if len(o.versions) > 0 {
		stored, sent = o.kind().replaced, o.kind().resent
	}
	head, err := b.chain.HeadNumber(ctx)
	if err != nil {
		return err
	}
	v, err := sentTx(b.sender.From, tx, head)
	if err != nil {
		return err
	}
	if err := b.store.KeepTx(ctx, o.row, v); err != nil {
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
	Signer  string   // minter or distributor
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
	}
}

// bump replaces o's newest version with one paying more, when it is the sender's next to be
// mined (one queued behind it waits for it, not for fees). At MaxFee, or past what the sender
// can pay, it sends the newest again (the node may have dropped it) and waits, saying so once.
// chain.ErrNonceTaken when another transaction took o's nonce.
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
	return b.dispatch(ctx, o, tx)
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
		o := &outTx{}
		if err := b.dispatch(ctx, o, tx); err != nil {
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

// Outbox reads the outbox's figures for health, and sets the metrics that follow them.
func (j *Jobs) Outbox(ctx context.Context) (store.OutboxStats, error) {
	st, err := j.store.OutboxStats(ctx, j.cfg.MaxFeeWei)
	if err != nil {
		return st, err
	}
	txsWaiting.Set(float64(st.Waiting))
	txOldestWaiting.Set(0)
	if st.OldestAt != nil {
		txOldestWaiting.Set(time.Since(*st.OldestAt).Seconds())
	}
	return st, nil
}

// MaxFee is the fee cap of every transaction the service signs (MAX_FEE_GWEI); nil: none.
func (j *Jobs) MaxFee() *big.Int { return j.cfg.MaxFeeWei }
