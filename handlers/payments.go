package handlers

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/labstack/echo/v4"

	"nodeledger/chain"
	"nodeledger/store"
	"nodeledger/views"
)

// A payment's status for its buyer is its ledger's (minting, minted, rejected, refunded), except
// for these.
const (
	statusConfirming = "confirming" // in a block, not yet deep enough for the payments scan
	statusMinting    = "minting"    // seen and about to be checked (ledger: pending)
	statusHeld       = "held"       // seen while the operator holds minting: it mints once released
)

var errPaymentNotSeen = errorf(http.StatusNotFound, "No payment with this transaction has been seen yet.")

// payment reads what became of the payment made by transaction hash: the ledger's record once the
// payments scan has seen it, before that the chain's receipt (confirming). errPaymentNotSeen when
// the transaction is unknown, not mined yet, or not a payment to the payments wallet.
func (h *Handlers) payment(ctx context.Context, hash string) (views.Payment, error) {
	rec, err := h.store.PaymentByTx(ctx, hash)
	if err == nil {
		ps, err := h.buyerViews(ctx, []store.PaymentRecord{rec})
		if err != nil {
			return views.Payment{}, err
		}
		return ps[0], nil
	}
	if !errors.Is(err, store.ErrNotFound) {
		return views.Payment{}, err
	}
	if h.cfg.PaymentAddress == "" {
		return views.Payment{}, errPaymentNotSeen
	}
	t, err := h.chain.Transfer(ctx, common.HexToHash(hash))
	if errors.Is(err, chain.ErrNotMined) {
		return views.Payment{}, errPaymentNotSeen
	}
	if err != nil {
		return views.Payment{}, err
	}
	// A contract wallet's payment is a call inside its transaction: the scan's trace finds it,
	// the receipt cannot tell. The wallet paying itself is no payment, for the scan either.
	payTo := h.cfg.PaymentAddress
	if !t.Success || t.To == nil || !strings.EqualFold(t.To.Hex(), payTo) || strings.EqualFold(t.From.Hex(), payTo) || t.Value.Sign() <= 0 {
		return views.Payment{}, errPaymentNotSeen
	}
	return views.Payment{
		PaymentRecord: store.PaymentRecord{TxHash: hash, From: strings.ToLower(t.From.Hex()),
			ValueWei: store.Uint256{Int: t.Value}, BlockNumber: int64(t.Block)},
		Status:              statusConfirming,
		Confirmations:       &t.Confirmations,
		ConfirmationsNeeded: h.jobs.Confirmations() + 1,
	}, nil
}

// buyerViews are ledger payments as their buyer follows them. Whether minting is held is read
// once, and only when a payment waits on it.
func (h *Handlers) buyerViews(ctx context.Context, recs []store.PaymentRecord) ([]views.Payment, error) {
	waiting := statusMinting
	if slices.ContainsFunc(recs, func(r store.PaymentRecord) bool { return r.Status == "pending" }) {
		held, err := h.store.MintingHeld(ctx)
		if err != nil {
			return nil, err
		}
		if held {
			waiting = statusHeld
		}
	}
	out := make([]views.Payment, len(recs))
	for i, r := range recs {
		out[i] = views.Payment{PaymentRecord: r, Status: r.Status, ConfirmationsNeeded: h.jobs.Confirmations() + 1}
		if r.Status == "pending" {
			out[i].Status = waiting
		}
	}
	return out, nil
}

// paymentJSON is a payment as GET /api/payments/{txHash} and GET /api/payments show it.
type paymentJSON struct {
	TxHash              string        `json:"txHash"`
	CallIndex           int           `json:"callIndex"`
	From                string        `json:"from"`
	ValueWei            store.Uint256 `json:"valueWei"`
	BlockNumber         int64         `json:"blockNumber"`
	Status              string        `json:"status"`
	Reason              *string       `json:"reason"`
	Confirmations       *uint64       `json:"confirmations"`
	ConfirmationsNeeded uint64        `json:"confirmationsNeeded"`
	Tier                *string       `json:"tier"`
	NodeID              *int64        `json:"nodeId"`
	ChainNodeID         store.Uint256 `json:"chainNodeId"`
	MintTx              *string       `json:"mintTx"`
	RefundTxHash        *string       `json:"refundTxHash"`
	CreatedAt           *string       `json:"createdAt"`
	UpdatedAt           *string       `json:"updatedAt"`
}

func toPaymentJSON(p views.Payment) paymentJSON {
	var tier *string
	if p.Tier != nil {
		t := strconv.Itoa(*p.Tier)
		tier = &t
	}
	return paymentJSON{
		TxHash: p.TxHash, CallIndex: p.CallIndex, From: p.From, ValueWei: p.ValueWei, BlockNumber: p.BlockNumber,
		Status: p.Status, Reason: p.Reason, Confirmations: p.Confirmations, ConfirmationsNeeded: p.ConfirmationsNeeded,
		Tier: tier, NodeID: p.NodeID, ChainNodeID: p.ChainNodeID, MintTx: p.MintTx, RefundTxHash: p.RefundTxHash,
		CreatedAt: isoTime(&p.CreatedAt), UpdatedAt: isoTime(&p.UpdatedAt),
	}
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
	return c.JSON(http.StatusOK, toPaymentJSON(p))
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
	return c.JSON(http.StatusOK, mapSlice(ps, toPaymentJSON))
}

// paymentsFrom reads a wallet's latest payments as their buyer follows them.
func (h *Handlers) paymentsFrom(ctx context.Context, wallet string, limit int) ([]views.Payment, error) {
	recs, err := h.store.PaymentsFrom(ctx, wallet, limit)
	if err != nil {
		return nil, err
	}
	return h.buyerViews(ctx, recs)
}

// PaymentPage answers GET /payment/{txHash}: the tracker that follows a payment from the transfer
// to its node or its refund. It refreshes itself (htmx, or a meta refresh without JavaScript).
func (h *Handlers) PaymentPage(c echo.Context) error {
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
func (h *Handlers) tracker(c echo.Context) (views.Tracker, error) {
	hash, err := parseTxHash(c.Param("txHash"))
	if err != nil {
		return views.Tracker{}, err
	}
	t := views.Tracker{TxHash: hash}
	p, err := h.payment(c.Request().Context(), hash)
	switch {
	case err == nil:
		t.Payment = &p
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

// PaymentSearch answers GET /payment?tx=: the track form's target, which sends the browser on to
// the payment's tracker.
func (h *Handlers) PaymentSearch(c echo.Context) error {
	hash, err := parseTxHash(strings.TrimSpace(c.QueryParam("tx")))
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/payment/"+hash)
}
