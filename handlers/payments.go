package handlers

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/labstack/echo/v4"

	"nodeledger/chain"
	"nodeledger/jobs/sale"
	"nodeledger/store"
	"nodeledger/views"
)

var errPaymentNotSeen = errorf(http.StatusNotFound, "No payment with this transaction has been seen yet.")

// paymentJSON is a payment as its buyer follows it (the store writes the shape, for the webhook
// events that carry it too): what GET /api/payments/{txHash},
// GET /api/payments and /api/me show, and what the payment pages are drawn from (paymentView).
type paymentJSON = store.PaymentDoc

// payment reads what became of the payment made by transaction hash: the ledger's record once the
// payments scan has seen it, before that the chain's receipt (confirming). errPaymentNotSeen when
// the transaction is unknown, not mined yet, or not a payment to the payments wallet.
func (h *Handlers) payment(ctx context.Context, hash string) (paymentJSON, error) {
	rec, err := h.store.PaymentByTx(ctx, hash)
	if err == nil {
		ps, err := h.buyerPayments(ctx, []store.PaymentRecord{rec})
		if err != nil {
			return paymentJSON{}, err
		}
		return ps[0], nil
	}
	if !errors.Is(err, store.ErrNotFound) {
		return paymentJSON{}, err
	}
	if h.cfg.PaymentAddress == "" {
		return paymentJSON{}, errPaymentNotSeen
	}
	if doc, ok, err := h.atHead(ctx, hash); ok || err != nil {
		return doc, err
	}
	t, err := h.transfer(ctx, hash)
	if errors.Is(err, chain.ErrUnknownTx) {
		return paymentJSON{}, fmt.Errorf("%w: %w", errPaymentNotSeen, chain.ErrUnknownTx) // the tracker tells the two apart
	}
	if errors.Is(err, chain.ErrNotMined) {
		return paymentJSON{}, fmt.Errorf("%w: %w", errPaymentNotSeen, chain.ErrNotMined) // the tracker says "in the pool"
	}
	if err != nil {
		return paymentJSON{}, err
	}
	// A contract wallet's payment is a call inside its transaction: the scan's trace finds it,
	// the receipt cannot tell. The wallet paying itself is no payment, for the scan either.
	payTo := h.cfg.PaymentAddress
	doc := paymentJSON{TxHash: hash, BlockNumber: int64(t.Block), Status: store.BuyerConfirming,
		Confirmations: &t.Confirmations, ConfirmationsNeeded: h.jobs.Confirmations() + 1}
	switch {
	case !t.Success:
		return paymentJSON{}, errPaymentNotSeen
	case t.To != nil && strings.EqualFold(t.To.Hex(), payTo) && !strings.EqualFold(t.From.Hex(), payTo) && t.Value.Sign() > 0:
		doc.From, doc.ValueWei = strings.ToLower(t.From.Hex()), store.Uint256{Int: t.Value}
		doc.Symbol, doc.Decimals, doc.Amount = "ETH", 18, doc.ValueWei
		return doc, nil
	}
	// A token payment is a Transfer log of a listed token in the receipt: the first, as the
	// ledger answers for a transaction that paid several times.
	for _, tt := range t.Tokens {
		token, ok := h.sale.Token(strings.ToLower(tt.Token.Hex()))
		if !ok || !tt.Payment(common.HexToAddress(payTo)) {
			continue
		}
		doc.From, doc.ValueWei, doc.Token = strings.ToLower(tt.From.Hex()), store.Uint256{Int: new(big.Int)}, &token.Address
		doc.Symbol, doc.Decimals, doc.Amount = token.Symbol, token.Decimals, store.Uint256{Int: tt.Value}
		return doc, nil
	}
	return paymentJSON{}, errPaymentNotSeen
}

// atHead is the payment transaction hash made as the payments pass saw it at the head, confirming,
// its confirmations counted from the head the service follows: no request to the chain. ok is
// false when the pass saw none there, or when the scan has passed its block without recording it
// (a transfer into a wallet with code that failed, a reorg the pass has yet to notice): the chain
// tells then. A scan that lags is no reason to ask the chain: on a busy sale day every tracker
// of the backlog would, while the scan it waits for catches up. Past its confirmations, the
// record is believed only while the passes follow the head (they take back what a reorg
// removed): when they fail, the chain tells.
func (h *Handlers) atHead(ctx context.Context, hash string) (_ paymentJSON, ok bool, _ error) {
	p, err := h.store.HeadPaymentByTx(ctx, hash)
	if errors.Is(err, store.ErrNotFound) {
		return paymentJSON{}, false, nil
	}
	if err != nil {
		return paymentJSON{}, false, err
	}
	if p.Scanned >= p.BlockNumber {
		return paymentJSON{}, false, nil
	}
	head, err := h.head.Get(ctx)
	if err != nil {
		return paymentJSON{}, false, err
	}
	seen := chain.Transfer{Block: uint64(p.BlockNumber)}.AtHead(head)
	needed := h.jobs.Confirmations() + 1
	if followed := uint64(max(p.Followed, 0)); seen.Confirmations > needed && followed+needed < head {
		return paymentJSON{}, false, nil
	}
	return paymentJSON{TxHash: hash, BlockNumber: p.BlockNumber, Status: store.BuyerConfirming, From: p.From,
		ValueWei: p.ValueWei, Token: p.Token, Symbol: p.Symbol, Decimals: p.Decimals, Amount: p.Amount,
		Confirmations: &seen.Confirmations, ConfirmationsNeeded: needed}, true, nil
}

// transfer reads transaction hash from the chain (chain.Transfer), or from h.txs when it was read
// less than minedTTL ago (mined), pendingTTL (in the pool) or unknownTTL (unknown to the node), with its
// confirmations counted from h.head: its trackers ask every two seconds until a pass sees it, and
// however many they are the chain is asked once a while. A mined transaction's sender, value and
// block do not change short of a reorg, which minedTTL bounds.
func (h *Handlers) transfer(ctx context.Context, hash string) (chain.Transfer, error) {
	now := h.cfg.Now()
	read, ok := h.txs.Get(hash, now)
	if !ok {
		read.Transfer, read.err = h.chain.Transfer(ctx, common.HexToHash(hash))
		switch {
		case read.err == nil:
			h.txs.Put(hash, read, now.Add(minedTTL))
		case errors.Is(read.err, chain.ErrNotMined):
			h.txs.Put(hash, read, now.Add(pendingTTL))
		case errors.Is(read.err, chain.ErrUnknownTx):
			h.txs.Put(hash, read, now.Add(unknownTTL))
		}
	}
	if read.err != nil {
		return chain.Transfer{}, read.err
	}
	head, err := h.head.Get(ctx)
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

// How long a transaction's read is kept (h.transfer), mined, waiting in the pool and unknown to
// the node, and how many at most: a sale day's trackers, each a hundred-odd bytes. A payment in a
// block is read from the ledger (atHead) once the next pass has seen it at the head, whatever the
// chain said of it before, so pendingTTL mostly delays a transaction that leaves the pool
// otherwise (dropped, or mined paying someone else), or one mined while the passes are busy: a
// few seconds. A transaction the node does not know yet is likely just sent, and is asked about
// again soon.
const (
	minedTTL   = 10 * time.Second
	pendingTTL = 5 * time.Second
	unknownTTL = 2 * time.Second
	minedKept  = 20_000
)

// buyerPayments are ledger payments as their buyer follows them: a payment waiting to be checked
// is minting, or held while the operator holds minting (the sale's read model, read only when a
// payment waits on it).
func (h *Handlers) buyerPayments(ctx context.Context, recs []store.PaymentRecord) ([]paymentJSON, error) {
	var waiting sale.Waiting
	if slices.ContainsFunc(recs, func(r store.PaymentRecord) bool { return r.Status == store.PaymentPending }) {
		var err error
		if waiting, err = h.sale.WaitingOn(ctx); err != nil {
			return nil, err
		}
	}
	return mapSlice(recs, func(r store.PaymentRecord) paymentJSON { return h.paymentOf(r, waiting) }), nil
}

// paymentOf is ledger payment r as its buyer follows it; waiting is what it waits on while pending.
func (h *Handlers) paymentOf(r store.PaymentRecord, waiting sale.Waiting) paymentJSON {
	p := r.Doc(waiting.Held)
	p.Reason, p.ConfirmationsNeeded = sale.Sentence(r.Reason), h.jobs.Confirmations()+1
	return p
}

// paymentView is a payment as its pages show it.
func paymentView(p paymentJSON) views.Payment {
	v := views.Payment{
		TxHash: p.TxHash, From: p.From, ValueWei: p.ValueWei, BlockNumber: p.BlockNumber, Status: p.Status,
		Reason: p.Reason, Confirmations: p.Confirmations, ConfirmationsNeeded: p.ConfirmationsNeeded,
		ChainNodeID: p.ChainNodeID, MintTx: p.MintTx, RefundTxHash: p.RefundTxHash, Refund: p.Refund,
		ReferralCode: p.ReferralCode, Discount: p.Discount,
	}
	if p.Token != nil {
		v.InToken = &store.TokenAmount{Token: store.Token{Address: *p.Token, Symbol: p.Symbol, Decimals: p.Decimals}, Amount: p.Amount}
	}
	// A refunded payment changes no more: its last change is when the ledger saw the refund.
	if p.Status == store.BuyerRefunded && p.UpdatedAt != nil {
		if at, err := time.Parse(time.RFC3339, *p.UpdatedAt); err == nil {
			v.RefundedAt = &at
		}
	}
	return v
}

// Payment answers GET /api/payments/{txHash}: what became of one payment to the payments wallet.
func (h *Handlers) Payment(c echo.Context) error {
	hash, err := parseTxHash(c.Param("txHash"))
	if err != nil {
		return err
	}
	p, err := h.payment(c.Request().Context(), hash)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, p)
}

// Limits of GET /api/payments.
const (
	paymentsDefault = 50
	paymentsMax     = 100
)

// Payments answers GET /api/payments?from=&limit=: a wallet's payments, newest first.
func (h *Handlers) Payments(c echo.Context) error {
	from, err := parseAddress(c.QueryParam("from"))
	if err != nil {
		return err
	}
	limit, err := parseLimit(c.QueryParam("limit"), c.QueryParams().Has("limit"), paymentsDefault, paymentsMax)
	if err != nil {
		return err
	}
	ps, err := h.paymentsFrom(c.Request().Context(), from, limit)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, ps)
}

// paymentsFrom reads a wallet's latest payments as their buyer follows them.
func (h *Handlers) paymentsFrom(ctx context.Context, wallet string, limit int) ([]paymentJSON, error) {
	recs, err := h.store.PaymentsFrom(ctx, wallet, limit)
	if err != nil {
		return nil, err
	}
	return h.buyerPayments(ctx, recs)
}

// PaymentPage answers GET /payment/{txHash}: the tracker that follows a payment from the transfer
// to its node or its refund. It refreshes itself (htmx, or a meta refresh without JavaScript).
// What is not a transaction hash gets the 400 page with a box to paste it again.
func (h *Handlers) PaymentPage(c echo.Context) error {
	if _, err := parseTxHash(c.Param("txHash")); err != nil {
		return render(c, http.StatusBadRequest, views.PaymentBadHash(c.Param("txHash")))
	}
	t, err := h.tracker(c)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.PaymentPage(t))
}

// PaymentPartial answers GET /partials/payment/{txHash}: the tracker's status, which htmx polls.
func (h *Handlers) PaymentPartial(c echo.Context) error {
	t, err := h.tracker(c)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.PaymentStatus(t))
}

// tracker reads the request's payment for the tracker: a payment not seen yet, or one the chain
// cannot be asked about just now, is a state of the page, not a failure: it is polled until seen.
// A hash the chain does not know at all is "not found" once views.NotFoundAfter has passed
// since the page first asked (?since=, which the page carries in its polls).
func (h *Handlers) tracker(c echo.Context) (views.Tracker, error) {
	hash, err := parseTxHash(c.Param("txHash"))
	if err != nil {
		return views.Tracker{}, err
	}
	now := time.Now()
	t := views.Tracker{TxHash: hash, Since: trackerSince(c.QueryParam("since"), now), Now: now, Sent: c.QueryParam("sent") == "1"}
	p, err := h.payment(c.Request().Context(), hash)
	switch {
	case err == nil:
		v := paymentView(p)
		if v.Status == store.BuyerMinting {
			st, err := h.sale.WaitingOn(c.Request().Context())
			if err != nil {
				return t, err
			}
			v.WaitingOnService = st.MinterCannotPay
		}
		if v.Status == store.BuyerMinted && v.ChainNodeID.Int != nil {
			r, err := h.receipt(c.Request().Context(), v.ChainNodeID)
			switch {
			case err == nil:
				v.Receipt = &r
			case !errors.Is(err, store.ErrNotFound): // not recorded yet: the receipt shows what it has
				return t, err
			}
		}
		t.Payment = &v
	case errors.Is(err, chain.ErrUnknownTx) && now.Sub(t.Since) >= views.NotFoundAfter:
		t.Unseen = views.TrackerNotFound
	case errors.Is(err, chain.ErrUnknownTx):
		t.Unseen = views.TrackerUnknown
	case errors.Is(err, chain.ErrNotMined):
		t.Unseen = views.TrackerPending
	case errors.Is(err, errPaymentNotSeen):
		t.Unseen = views.TrackerNotSeen
	case errors.Is(err, chain.ErrUnavailable):
		h.log.Warn("payment tracker: chain unreadable", "tx", hash, "err", err)
		t.Unseen = views.TrackerUnreadable
	default:
		return t, err
	}
	return t, nil
}

// receipt is what the tracker of a minted payment adds: when the node was minted, its tier,
// when it is first credited and what it earns, as the node's page reads them.
func (h *Handlers) receipt(ctx context.Context, id store.Uint256) (views.Receipt, error) {
	n, err := h.store.Node(ctx, id.Int, 1)
	if err != nil {
		return views.Receipt{}, err
	}
	r := views.Receipt{MintedAt: n.CreatedAt, NextCreditAt: n.NextCreditAt, PayoutsOn: h.cfg.DistEnabled, Now: time.Now()}
	if r.Tier, err = h.tierOf(ctx, n.Tier); err != nil {
		return views.Receipt{}, err
	}
	r.TierName = views.TierName(r.Tier, n.Tier)
	r.Earnings = h.earnings(ctx, []store.Tier{r.Tier}, false)[r.Tier.ID]
	return r, nil
}

// trackerSince reads when a tracker page first asked (unix seconds): now when absent, unreadable
// or in the future. A visitor who writes an older time only sees "not found" sooner, for a hash
// the chain does not know: nothing else depends on it.
func trackerSince(q string, now time.Time) time.Time {
	sec, err := strconv.ParseInt(q, 10, 64)
	if err != nil || sec > now.Unix() || sec < 0 {
		return now
	}
	return time.Unix(sec, 0)
}

// PaymentSearch answers GET /payment?tx=: the track form's target, which sends the browser on to
// the payment's tracker.
func (h *Handlers) PaymentSearch(c echo.Context) error {
	hash, err := parseTxHash(strings.TrimSpace(c.QueryParam("tx")))
	if err != nil {
		return render(c, http.StatusBadRequest, views.PaymentBadHash(c.QueryParam("tx")))
	}
	return c.Redirect(http.StatusSeeOther, "/payment/"+hash)
}
