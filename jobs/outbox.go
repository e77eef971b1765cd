package jobs

import (
	"context"
	"errors"
	"math/big"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"nodeledger/chain"
	"nodeledger/store"
)

// The outbox is the one way a transaction of the service reaches the chain. It is signed, stored
// and only then sent, so a crash after any step leaves the very bytes to send again. It is then
// watched until one of its versions is mined: whenever BumpBlocks blocks pass without that, it is
// signed again at the same nonce with higher fees (the pool's replacement minimum, or the node's
// suggestion when higher), up to MaxFee, and that version too is stored before it is sent, so
// whichever version the chain mines is recognised, after a crash too. The payments pass sends
// its mints through it, the credit pass its credits.
//
// Its step boundaries, where tests stop a pass as a crash would, are named by the transaction's
// kind (mint, credit, fill): kind.stored and kind.sent for a new transaction, kind.replaced and
// kind.resent for a replacement.

// errNotMinedYet is await's answer when no version of a transaction was mined by the deadline;
// the next pass takes it up again.
var errNotMinedYet = errors.New("not mined within the receipt timeout")

// outTx is a transaction in the outbox: every version signed for one ledger row, oldest first.
type outTx struct {
	// kind names its steps (mint.stored, credit.sent, ...) where tests stop a pass as a crash would.
	kind   string
	sender *chain.Sender
	// keep stores a version in the outbox and as its row's newest, before it is sent.
	keep func(context.Context, store.SentTx) error

	versions  []*types.Transaction
	sentBlock uint64 // the head when the newest version was signed
	refused   bool   // the node refused the newest version's fees: replace it without waiting
	capped    bool   // the newest version is at MaxFee: said once, not again each poll
}

func (o *outTx) newest() *types.Transaction { return o.versions[len(o.versions)-1] }

func (o *outTx) hashes() []common.Hash {
	out := make([]common.Hash, len(o.versions))
	for i, tx := range o.versions {
		out[i] = tx.Hash()
	}
	return out
}

// load reads the versions the outbox keeps for f at its current nonce. newest is the row's own
// newest version, which a row signed before the outbox existed has alone. Versions at a nonce
// given up (another transaction took it) are left out: the contract guards against them.
func (j *Jobs) load(ctx context.Context, o *outTx, f store.TxFor, newest []byte) error {
	last := new(types.Transaction)
	if err := last.UnmarshalBinary(newest); err != nil {
		return err
	}
	stored, err := j.store.TxVersions(ctx, f)
	if err != nil {
		return err
	}
	return o.add(stored, last)
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

// send signs a call to `to` at the sender's next nonce and dispatches it. A signing error (the
// call reverts in the estimate, say) comes back as it is, for the caller to read.
func (j *Jobs) send(ctx context.Context, o *outTx, to common.Address, data []byte, value *big.Int) error {
	tx, err := o.sender.Sign(ctx, &to, data, value)
	if err != nil {
		return err
	}
	if err := j.dispatch(ctx, o, tx, "stored", "sent"); err != nil {
		// The nonce was handed out: whether it reached the chain or not, the chain says which is next.
		o.sender.ResetNonce()
		return err
	}
	return nil
}

// dispatch stores tx as o's newest version, then sends it.
func (j *Jobs) dispatch(ctx context.Context, o *outTx, tx *types.Transaction, stored, sent string) error {
	head, err := j.chain.HeadNumber(ctx)
	if err != nil {
		return err
	}
	v, err := sentTx(o.sender.From, tx, head)
	if err != nil {
		return err
	}
	if err := o.keep(ctx, v); err != nil {
		return err
	}
	o.versions, o.sentBlock, o.capped = append(o.versions, tx), head, false
	if err := j.step(o.kind + "." + stored); err != nil {
		return err
	}
	if err := j.send1(ctx, o, tx); err != nil {
		return err
	}
	return j.step(o.kind + "." + sent)
}

// send1 broadcasts a version of o. A node that refuses its fees as too low has not taken it:
// that is no failure, but await replaces it at once instead of waiting BumpBlocks. A nonce used
// meanwhile by one of o's earlier versions is no failure either: await finds its receipt.
func (j *Jobs) send1(ctx context.Context, o *outTx, tx *types.Transaction) error {
	err := j.chain.Send(ctx, tx)
	o.refused = errors.Is(err, chain.ErrUnderpriced)
	switch {
	case o.refused:
		j.log.Warn("outbox: the node refuses the fees as too low; replacing", "kind", o.kind, "tx", tx.Hash(), "err", err)
		return nil
	case errors.Is(err, chain.ErrNonceTaken):
		if _, merr := j.chain.Mined(ctx, o.hashes()...); !errors.Is(merr, chain.ErrNotMined) {
			return merr
		}
	}
	return err
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
// what an earlier one left: the node may have dropped it (a restart, a full pool). alive is false
// when o can never be mined, its nonce taken by another transaction: the caller signs anew.
func (j *Jobs) resume(ctx context.Context, o *outTx) (alive bool, err error) {
	if _, err := j.chain.Mined(ctx, o.hashes()...); !errors.Is(err, chain.ErrNotMined) {
		return err == nil, err
	}
	err = j.send1(ctx, o, o.newest())
	if errors.Is(err, chain.ErrNonceTaken) {
		_, err := j.chain.Mined(ctx, o.hashes()...) // mined since it was asked for, or dead
		if errors.Is(err, chain.ErrNotMined) {
			return false, nil
		}
		return err == nil, err
	}
	return err == nil, err
}

// await waits until one of o's versions is mined and returns its receipt and that version,
// polling more slowly as time goes by. Whenever BumpBlocks blocks pass without it, the newest
// version is replaced. Past the deadline it looks once more, then answers errNotMinedYet;
// chain.ErrNonceTaken when another transaction took o's nonce and the caller must sign anew.
func (j *Jobs) await(ctx context.Context, o *outTx, deadline time.Time) (*types.Receipt, *types.Transaction, error) {
	for wait := 50 * time.Millisecond; ; wait = min(2*wait, time.Second) {
		r, err := j.chain.Mined(ctx, o.hashes()...)
		if err == nil {
			i := slices.IndexFunc(o.versions, func(tx *types.Transaction) bool { return tx.Hash() == r.TxHash })
			return r, o.versions[i], nil
		}
		if !errors.Is(err, chain.ErrNotMined) {
			return nil, nil, err
		}
		head, err := j.chain.HeadNumber(ctx)
		if err != nil {
			return nil, nil, err
		}
		if o.refused || head >= o.sentBlock+j.cfg.BumpBlocks {
			if err := j.bump(ctx, o, head); err != nil {
				return nil, nil, err
			}
		}
		left := time.Until(deadline)
		if left <= 0 {
			return nil, nil, errNotMinedYet
		}
		select {
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		case <-time.After(min(wait, left)):
		}
	}
}

// bump replaces o's newest version with one paying more, when it is the sender's next to be
// mined (one queued behind it waits for it, not for fees). At MaxFee, or past what the sender
// can pay, it sends the newest again (the node may have dropped it) and waits, saying so once.
func (j *Jobs) bump(ctx context.Context, o *outTx, head uint64) error {
	old := o.newest()
	mined, _, err := j.chain.Nonces(ctx, o.sender.From)
	if err != nil {
		return err
	}
	switch {
	case mined > old.Nonce():
		// The nonce is used. By a version of o mined since await looked, or by another.
		if _, err := j.chain.Mined(ctx, o.hashes()...); !errors.Is(err, chain.ErrNotMined) {
			return err
		}
		return chain.ErrNonceTaken
	case mined < old.Nonce():
		return nil
	}
	tx, err := o.sender.Replace(ctx, old)
	if errors.Is(err, chain.ErrFeeCapReached) || errors.Is(err, chain.ErrCannotAfford) {
		if !o.capped {
			o.capped = true
			j.log.Warn("outbox: a transaction waits: its fees cannot rise", "why", err, "kind", o.kind,
				"tx", old.Hash(), "nonce", old.Nonce(), "fee_cap_wei", old.GasFeeCap(), "max_fee_wei", o.sender.MaxFee)
		}
		o.sentBlock = head
		err := j.send1(ctx, o, old)
		o.refused = false // a refusal now waits like the rest: BumpBlocks, then again
		return err
	}
	if err != nil {
		return err
	}
	j.log.Info("outbox: transaction replaced with higher fees", "kind", o.kind, "nonce", old.Nonce(),
		"old", old.Hash(), "new", tx.Hash(), "tip_wei", tx.GasTipCap(), "fee_cap_wei", tx.GasFeeCap())
	txReplacements.Inc()
	return j.dispatch(ctx, o, tx, "replaced", "resent")
}

// fillGaps repairs the gaps below the highest nonce the outbox waits on: a nonce nothing in the
// node's pool holds keeps every later transaction of the sender from being mined. Each is taken by
// a transfer of nothing to the sender itself, through the outbox, and waited for (replaced like
// any other when it waits too long), with the fillers earlier passes sent and the chain has not
// mined. waiting are the nonces of the newest versions of what the sender waits on, just sent again.
func (j *Jobs) fillGaps(ctx context.Context, s *chain.Sender, waiting []uint64) error {
	if len(waiting) == 0 {
		return nil
	}
	mined, pending, err := j.chain.Nonces(ctx, s.From)
	if err != nil {
		return err
	}
	stored, err := j.store.Fillers(ctx, hexLower(s.From), int64(mined))
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
		o := j.fillOut(s)
		newest := new(types.Transaction)
		if err := newest.UnmarshalBinary(v.Raw); err != nil {
			return err
		}
		if err := o.add(stored, newest); err != nil {
			return err
		}
		if _, err := j.resume(ctx, o); err != nil {
			return err
		}
		fillers = append(fillers, o)
	}
	for n := pending; n < slices.Max(waiting); n++ {
		if slices.Contains(waiting, n) || filled[n] {
			continue
		}
		tx, err := s.Fill(ctx, n)
		if err != nil {
			return err
		}
		j.log.Warn("outbox: filling a nonce gap", "sender", s.From, "nonce", n, "tx", tx.Hash())
		o := j.fillOut(s)
		if err := j.dispatch(ctx, o, tx, "stored", "sent"); err != nil {
			return err
		}
		fillers = append(fillers, o)
	}
	deadline := time.Now().Add(j.cfg.ReceiptTimeout)
	for _, o := range fillers {
		// Taken by another transaction or not mined yet, the nonce is held either way, or will be
		// looked at again by the next pass.
		if _, _, err := j.await(ctx, o, deadline); err != nil && !errors.Is(err, errNotMinedYet) && !errors.Is(err, chain.ErrNonceTaken) {
			return err
		}
	}
	return nil
}

// fillOut is a gap filler of s in the outbox.
func (j *Jobs) fillOut(s *chain.Sender) *outTx {
	return &outTx{kind: "fill", sender: s, keep: j.store.StoreFillerTx}
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
