package handlers

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

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

// payment reads what became of the payment made by transaction hash (sale.Tracker): errPaymentNotSeen
// when there is none yet, wrapping chain.ErrUnknownTx or chain.ErrNotMined when the chain said so
// (the tracker page tells them apart).
func (h *Handlers) payment(ctx context.Context, hash string) (paymentJSON, error) {
	p, err := h.payments.Payment(ctx, hash)
	if errors.Is(err, sale.ErrNotSeen) {
		return p, fmt.Errorf("%w: %w", errPaymentNotSeen, err)
	}
	return p, err
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
	return h.payments.Docs(ctx, recs)
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

// FollowLedger keeps what the payment trackers and /api/nodes/{address} remember of the ledger
// in step with it, until ctx ends (store.Keep): without it they read the ledger every time.
func (h *Handlers) FollowLedger(ctx context.Context) {
	var wg sync.WaitGroup
	wg.Go(func() { h.payments.Follow(ctx, h.log) })
	wg.Go(func() {
		h.store.Keep(ctx, store.Wallets, h.wallets, func(err error) {
			h.log.Warn("wallets' nodes: the ledger's announcements are not heard; every read builds the answer again", "err", err)
		})
	})
	wg.Wait()
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
	var p paymentJSON
	trusted := t.Sent && now.Sub(t.Since) < sentTrusted
	if trusted {
		p, err = h.payments.Known(c.Request().Context(), hash)
	} else {
		p, err = h.payment(c.Request().Context(), hash)
	}
	switch {
	case trusted && errors.Is(err, sale.ErrNotSeen):
		t.Unseen = views.TrackerSent
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
	case errors.Is(err, chain.ErrOverBudget):
		t.Unseen = views.TrackerBusy
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

// sentTrusted is how long after the buyer's own page opened a tracker (?sent=1) it is taken at
// its word: the transaction was just sent, so a payment the passes have not seen in a block yet
// is waiting for one, said without asking the chain. However many buyers press Pay at once, their
// trackers cost the RPC nothing until the payments pass sees their blocks; past it, a transaction
// that was dropped, failed or paid another address is told from the chain.
const sentTrusted = 2 * time.Minute

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
