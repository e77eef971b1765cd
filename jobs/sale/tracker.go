package sale

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"nodeledger/chain"
	"nodeledger/jobs/memo"
	"nodeledger/store"
)

// ErrNotSeen is a transaction no payment is known by yet: unknown to the chain or not mined
// (wrapped with chain.ErrUnknownTx or chain.ErrNotMined, which a tracker tells apart), failed,
// or not a payment to the payments wallet.
var ErrNotSeen = errors.New("no payment with this transaction has been seen yet")

// Tracker is where a payment's truth is, for its buyer: the ledger once the payments scan has
// recorded it; before that, the head as the payments pass saw it; before that, the chain, read
// at most once a while however many trackers ask. Each word is believed as long as its consts
// say (minedTTL, pendingTTL, unknownTTL, and the head's).
type Tracker struct {
	sale          *Sale
	store         *store.Store
	chain         *chain.Client
	payTo         string // the payments wallet, lower case; "": no payment can be told from the chain
	confirmations uint64 // CONFIRMATIONS: a payment is read once it has one more
	head          *memo.Value[uint64]
	cursors       *memo.Value[store.HeadCursors]    // the payments' scanners', kept a second like the head
	known         *memo.Watched[string, ledgerRows] // the ledger's rows of the payments polled, kept while unchanged (Follow)
	budget        *chain.Budget                     // what its reads of transactions may ask of the chain
	txs           *memo.Expiring[string, txRead]
	now           func() time.Time
}

// NewTracker returns the tracker of payments to payTo (lower case; "": the ledger alone answers),
// read confirmations deep, counting from head (the chain's head, kept a moment), its reads of
// transactions drawing on budget, on the clock now.
func NewTracker(s *Sale, st *store.Store, c *chain.Client, payTo string, confirmations uint64, head *memo.Value[uint64],
	budget *chain.Budget, now func() time.Time) *Tracker {
	return &Tracker{sale: s, store: st, chain: c, payTo: payTo, confirmations: confirmations, head: head, budget: budget,
		cursors: memo.NewOn(now, time.Second, 0, st.HeadCursors).Reads(store.ErrUnavailable),
		known:   &memo.Watched[string, ledgerRows]{Name: "payments", Max: minedKept},
		txs:     &memo.Expiring[string, txRead]{Max: minedKept}, now: now}
}

// Payment reads what became of the payment made by transaction hash: the ledger's record once
// the payments scan has seen it, before that the head's or the chain's (confirming). ErrNotSeen
// when there is none yet.
func (t *Tracker) Payment(ctx context.Context, hash string) (store.PaymentDoc, error) {
	doc, err := t.Known(ctx, hash)
	if !errors.Is(err, ErrNotSeen) || t.payTo == "" {
		return doc, err
	}
	tr, err := t.transfer(ctx, hash)
	if errors.Is(err, chain.ErrUnknownTx) || errors.Is(err, chain.ErrNotMined) {
		return store.PaymentDoc{}, fmt.Errorf("%w: %w", ErrNotSeen, err)
	}
	if err != nil {
		return store.PaymentDoc{}, err
	}
	return t.onChain(hash, tr)
}

// Known is Payment from what the service knows without asking the chain: the ledger's record,
// else the head's. ErrNotSeen when neither has it.
func (t *Tracker) Known(ctx context.Context, hash string) (store.PaymentDoc, error) {
	rows, err := t.rows(ctx, hash)
	switch {
	case err != nil:
		return store.PaymentDoc{}, err
	case rows.rec != nil:
		ps, err := t.Docs(ctx, []store.PaymentRecord{*rows.rec})
		if err != nil {
			return store.PaymentDoc{}, err
		}
		return ps[0], nil
	case rows.head != nil:
		if doc, ok, err := t.atHead(ctx, hash, *rows.head); ok || err != nil {
			return doc, err
		}
	}
	return store.PaymentDoc{}, ErrNotSeen
}

// ledgerRows is what the ledger holds of a transaction: its payment's record, else the payment
// the head pass saw in it, else neither (nil).
type ledgerRows struct {
	rec  *store.PaymentRecord
	head *store.HeadPayment
}

// kept tells whether r may be kept until the ledger announces a change: all it depends on is
// announced (migration 0059) but a refund batch's progress, so a payment that may be in one,
// rejected or held, is read at each poll (every 15 s).
func (r ledgerRows) kept() bool {
	return r.rec == nil || (r.rec.Status == store.PaymentPending || r.rec.Status == store.PaymentMinting) && r.rec.BatchStatus == nil
}

// rows reads what the ledger holds of transaction hash, or what was read of it since the ledger
// last announced a change to it (Follow): a sale day's trackers ask every two seconds, each for
// a payment that changes a few times in its minutes of confirming and minting.
func (t *Tracker) rows(ctx context.Context, hash string) (ledgerRows, error) {
	now := t.now()
	if r, ok := t.known.Get(hash, now); ok {
		return r, nil
	}
	read := t.known.Reading(hash, now)
	var r ledgerRows
	rec, err := t.store.PaymentByTx(ctx, hash)
	switch {
	case err == nil:
		r.rec = &rec
	case !errors.Is(err, store.ErrNotFound):
		return r, err
	case t.payTo != "":
		head, err := t.store.HeadPaymentByTx(ctx, hash)
		switch {
		case err == nil:
			r.head = &head
		case !errors.Is(err, store.ErrNotFound):
			return r, err
		}
	}
	if r.kept() {
		t.known.Put(hash, read, r, now.Add(knownFor))
	}
	return r, nil
}

// Follow keeps what the trackers read of the ledger in step with it until ctx ends: each
// payment's rows are kept until the ledger announces a change to them; while its announcements
// are not heard, nothing is kept and every poll reads the ledger. log hears why they are not.
func (t *Tracker) Follow(ctx context.Context, log *slog.Logger) {
	t.store.Keep(ctx, store.Payments, t.known, func(err error) {
		log.Warn("payment trackers: the ledger's announcements are not heard; every poll reads the ledger", "err", err)
	})
}

// onChain is the payment transaction hash made as its receipt tells it, confirming. A contract
// wallet's payment is a call inside its transaction: the scan's trace finds it, the receipt
// cannot tell. The wallet paying itself is no payment, for the scan either.
func (t *Tracker) onChain(hash string, tr chain.Transfer) (store.PaymentDoc, error) {
	doc := store.PaymentDoc{TxHash: hash, BlockNumber: int64(tr.Block), Status: store.BuyerConfirming,
		Confirmations: &tr.Confirmations, ConfirmationsNeeded: t.confirmations + 1}
	switch {
	case !tr.Success:
		return store.PaymentDoc{}, ErrNotSeen
	case tr.To != nil && strings.EqualFold(tr.To.Hex(), t.payTo) && !strings.EqualFold(tr.From.Hex(), t.payTo) && tr.Value.Sign() > 0:
		doc.From, doc.ValueWei = strings.ToLower(tr.From.Hex()), store.Uint256{Int: tr.Value}
		doc.Symbol, doc.Decimals, doc.Amount = "ETH", 18, doc.ValueWei
		return doc, nil
	}
	// A token payment is a Transfer log of a listed token in the receipt: the first, as the
	// ledger answers for a transaction that paid several times.
	for _, tt := range tr.Tokens {
		token, ok := t.sale.Token(strings.ToLower(tt.Token.Hex()))
		if !ok || !tt.Payment(common.HexToAddress(t.payTo)) {
			continue
		}
		doc.From, doc.ValueWei, doc.Token = strings.ToLower(tt.From.Hex()), store.Uint256{Int: new(big.Int)}, &token.Address
		doc.Symbol, doc.Decimals, doc.Amount = token.Symbol, token.Decimals, store.Uint256{Int: tt.Value}
		return doc, nil
	}
	return store.PaymentDoc{}, ErrNotSeen
}

// atHead is payment p of transaction hash as the payments pass saw it at the head, confirming,
// its confirmations counted from the head the service follows: no request to the chain. ok is
// false when the scan has passed its block without recording it (a transfer into a wallet with
// code that failed, a reorg the pass has yet to notice): the chain tells then. A scan that lags
// is no reason to ask the chain: on a busy sale day every tracker of the backlog would, while
// the scan it waits for catches up. Past its confirmations, the record is believed only while
// the passes follow the head (they take back what a reorg removed): when they fail, the chain
// tells. The scanners' cursors are read at most once a second (t.cursors), like the head.
func (t *Tracker) atHead(ctx context.Context, hash string, p store.HeadPayment) (_ store.PaymentDoc, ok bool, _ error) {
	cur, err := t.cursors.Get(ctx)
	if err != nil {
		return store.PaymentDoc{}, false, err
	}
	if cur.Scanned >= p.BlockNumber {
		return store.PaymentDoc{}, false, nil
	}
	head, err := t.head.Get(ctx)
	if err != nil {
		return store.PaymentDoc{}, false, err
	}
	seen := chain.Transfer{Block: uint64(p.BlockNumber)}.AtHead(head)
	needed := t.confirmations + 1
	if followed := uint64(max(cur.Followed, 0)); seen.Confirmations > needed && followed+needed < head {
		return store.PaymentDoc{}, false, nil
	}
	return store.PaymentDoc{TxHash: hash, BlockNumber: p.BlockNumber, Status: store.BuyerConfirming, From: p.From,
		ValueWei: p.ValueWei, Token: p.Token, Symbol: p.Symbol, Decimals: p.Decimals, Amount: p.Amount,
		Confirmations: &seen.Confirmations, ConfirmationsNeeded: needed}, true, nil
}

// transfer reads transaction hash from the chain (chain.Transfer), or from t.txs when it was read
// less than minedTTL ago (mined), pendingTTL (in the pool) or unknownTTL (unknown to the node), with its
// confirmations counted from t.head: its trackers ask every two seconds until a pass sees it, and
// however many they are the chain is asked once a while. A mined transaction's sender, value and
// block do not change short of a reorg, which minedTTL bounds.
func (t *Tracker) transfer(ctx context.Context, hash string) (chain.Transfer, error) {
	now := t.now()
	read, ok := t.txs.Get(hash, now)
	if !ok {
		var until time.Time
		if read, until, ok = t.shared(ctx, hash, now); !ok {
			read.Transfer, read.err = t.chain.Transfer(chain.WithBudget(ctx, t.budget), common.HexToHash(hash))
			until = t.share(ctx, hash, read, now)
		}
		if !until.IsZero() {
			t.txs.Put(hash, read, until)
		}
	}
	if read.err != nil {
		return chain.Transfer{}, read.err
	}
	head, err := t.head.Get(ctx)
	if err != nil {
		return chain.Transfer{}, err
	}
	return read.AtHead(head), nil
}

// txRead is what the chain said of a transaction a tracker follows: its transfer, or why none.
type txRead struct {
	chain.Transfer
	err error // chain.ErrNotMined or chain.ErrUnknownTx
}

// shared is another instance's read of transaction hash, while the ledger keeps it (tx_reads),
// and until when; ok is false when there is none, or it cannot be read (the chain is asked then).
func (t *Tracker) shared(ctx context.Context, hash string, now time.Time) (_ txRead, until time.Time, ok bool) {
	r, ok, err := t.store.TxRead(ctx, hash, now)
	if err != nil || !ok {
		return txRead{}, time.Time{}, false
	}
	switch r.State {
	case store.TxMined:
		var tr chain.Transfer
		if json.Unmarshal(r.Transfer, &tr) != nil {
			return txRead{}, time.Time{}, false
		}
		return txRead{Transfer: tr}, r.Until, true
	case store.TxPending:
		return txRead{err: chain.ErrNotMined}, r.Until, true
	}
	return txRead{err: chain.ErrUnknownTx}, r.Until, true
}

// share keeps read, this instance's, for the others (tx_reads) as long as its state says, and
// returns until when; zero for a read that failed, which is kept by nobody. A read that cannot be
// kept is this instance's alone: the others ask the chain themselves.
func (t *Tracker) share(ctx context.Context, hash string, read txRead, now time.Time) time.Time {
	r, keep := store.TxRead{State: store.TxMined}, minedTTL
	switch {
	case errors.Is(read.err, chain.ErrNotMined):
		r.State, keep = store.TxPending, pendingTTL
	case errors.Is(read.err, chain.ErrUnknownTx):
		r.State, keep = store.TxUnknown, unknownTTL
	case read.err != nil:
		return time.Time{}
	default:
		var err error
		if r.Transfer, err = json.Marshal(read.Transfer); err != nil {
			return now.Add(keep) // kept by this instance alone
		}
	}
	r.Until = now.Add(keep)
	_ = t.store.PutTxRead(ctx, hash, r, now) // a cache: its failure costs the others a request
	return r.Until
}

// How long a transaction's read is kept (transfer), mined, waiting in the pool and unknown to
// the node, and how many at most: a sale day's trackers, each a hundred-odd bytes. A payment in a
// block is read from the ledger (atHead) once the next pass has seen it at the head, whatever the
// chain said of it before, so pendingTTL only delays a transaction that leaves the pool otherwise
// (dropped, or mined paying someone else), or one mined while the passes are busy, which a
// buyer's own tracker (?sent=1) waits out too. A sale day's burst keeps payments in the pool for
// blocks, and each read of one there is a request: at 5 s, eth_getTransactionByHash was two
// fifths of the instances' requests in the 3,000-tracker burst (37.7 of 96.1 a block). A
// transaction the node does not know yet is likely just sent, and is asked about again soon.
const (
	minedTTL   = 10 * time.Second
	pendingTTL = 15 * time.Second
	unknownTTL = 2 * time.Second
	minedKept  = 20_000
)

// knownFor bounds how long the ledger's rows of a payment are kept without an announcement of a
// change: they are dropped at each, and this only limits what a change announced nowhere (a
// database restored under a running instance) would leave shown.
const knownFor = time.Minute

// Docs are ledger payments as their buyer follows them: a payment waiting to be checked is
// minting, or held while the operator holds minting (the read model, read only when a payment
// waits on it).
func (t *Tracker) Docs(ctx context.Context, recs []store.PaymentRecord) ([]store.PaymentDoc, error) {
	var waiting Waiting
	if slices.ContainsFunc(recs, func(r store.PaymentRecord) bool { return r.Status == store.PaymentPending }) {
		var err error
		if waiting, err = t.sale.WaitingOn(ctx); err != nil {
			return nil, err
		}
	}
	out := make([]store.PaymentDoc, len(recs))
	for i, r := range recs {
		out[i] = r.Doc(waiting.Held)
		out[i].Reason, out[i].ConfirmationsNeeded = Sentence(r.Reason), t.confirmations+1
	}
	return out, nil
}
