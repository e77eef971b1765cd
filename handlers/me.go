package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"net/http"
	"net/url"

	"github.com/ethereum/go-ethereum/common"
	"github.com/labstack/echo/v4"

	"nodeledger/store"
	"nodeledger/views"
)

type unrecordedJSON struct {
	ChainNodeID string `json:"chainNodeId"`
}

// Me answers GET /api/me: the signed-in wallet, its ledger nodes and totals, the nodes
// nodesOf(wallet) shows that the ledger has not recorded yet (null when the chain could not be
// read: not checked is not the same as none), and its latest payments.
func (h *Handlers) Me(c echo.Context) error {
	addr, err := h.sessionAddress(c)
	if err != nil {
		return err
	}
	me, nodes, payments, err := h.me(c.Request().Context(), addr)
	if err != nil {
		return err
	}
	var unrecorded []unrecordedJSON
	if me.Unrecorded != nil {
		unrecorded = mapSlice(*me.Unrecorded, func(id *big.Int) unrecordedJSON { return unrecordedJSON{ChainNodeID: id.String()} })
	}
	return c.JSON(http.StatusOK, map[string]any{
		"address": addr,
		"nodes":   nodes,
		"totals": map[string]string{
			"balanceWei": me.Balance.String(), "cumulativeWei": me.Credited.String(), "withdrawnWei": me.Withdrawn.String(),
		},
		"unrecorded": unrecorded,
		"payments":   payments,
		"referrals":  referralsOf(me.Referrals),
	})
}

// referralsJSON is what GET /api/me tells of the wallet's referrals: the amounts in ETH (wei) and,
// beside them, in each token paid under its codes.
type referralsJSON struct {
	Link       *string             `json:"link"` // null: the wallet has no code to share
	Codes      []referrerCodeJSON  `json:"codes"`
	OwedWei    store.Uint256       `json:"owedWei"`
	PaidWei    store.Uint256       `json:"paidWei"`
	OwedTokens []store.TokenAmount `json:"owedTokens"`
	PaidTokens []store.TokenAmount `json:"paidTokens"`
}

type referrerCodeJSON struct {
	Code string `json:"code"`
	Uses int    `json:"uses"`
	figuresJSON
}

func referralsOf(r views.Referrals) referralsJSON {
	out := referralsJSON{OwedWei: r.Owed.ETH, PaidWei: r.Paid.ETH, OwedTokens: tokensOf(r.Owed), PaidTokens: tokensOf(r.Paid),
		Codes: mapSlice(r.Codes, func(c store.CodeStats) referrerCodeJSON {
			return referrerCodeJSON{Code: c.Code, Uses: c.Uses, figuresJSON: figuresOf(c)}
		})}
	if r.Link != "" {
		out.Link = &r.Link
	}
	return out
}

// tokensOf is a's token amounts, [] for none.
func tokensOf(a store.Amounts) []store.TokenAmount {
	if a.Tokens == nil {
		return []store.TokenAmount{}
	}
	return a.Tokens
}

// mePayouts is how many of the latest transactions that paid a referrer /me lists.
const mePayouts = 20

// referrals reads what wallet addr earns by referring buyers. Its own address is a code it can
// share while it holds a node (holds) and the operator gives wallet codes terms; otherwise its
// link is the first partner code it earns from, if any.
func (h *Handlers) referrals(ctx context.Context, addr string, holds bool) (views.Referrals, error) {
	wc := h.sale.WalletCodes()
	walletCode := holds && (wc.DiscountBps > 0 || wc.CommissionBps > 0)
	codes, err := h.store.ReferrerStats(ctx, addr, walletCode)
	if err != nil {
		return views.Referrals{}, err
	}
	r := views.Referrals{Codes: codes, Owed: store.NoAmounts(), Paid: store.NoAmounts(), Lapsed: map[string]string{}}
	share := ""
	if walletCode {
		share = addr
	}
	now := h.cfg.Now()
	for _, c := range codes {
		r.Owed.Add(c.Owed)
		r.Paid.Add(c.Paid)
		if c.Code == addr {
			continue // its own address: a code while it holds a node
		}
		switch rc, err := h.store.ReferralCode(ctx, c.Code); {
		case errors.Is(err, store.ErrNotFound):
			r.Lapsed[c.Code] = "no longer yours" // its owner changed since
		case err != nil:
			return views.Referrals{}, err
		case !rc.Enabled:
			r.Lapsed[c.Code] = "switched off"
		case !rc.ValidAt(now):
			r.Lapsed[c.Code] = "expired " + views.UTC(*rc.ExpiresAt)
		case share == "":
			share = c.Code // the first code that gives its discount now
		}
	}
	if r.Payouts, err = h.store.ReferrerPayouts(ctx, addr, mePayouts); err != nil {
		return views.Referrals{}, err
	}
	if share != "" {
		link := h.cfg.PublicURL.JoinPath("buy")
		link.RawQuery = url.Values{"ref": {share}}.Encode()
		r.Link = link.String()
	}
	return r, nil
}

// me reads what /api/me and /me show of wallet addr. The wallet's nodes are read once, as the
// document GET /api/nodes/{address} serves (returned as nodes, for /api/me), and decoded for the
// totals and the page; owner and price are not in it. Its payments are returned as /api/me
// shows them too.
func (h *Handlers) me(ctx context.Context, addr string) (views.Me, json.RawMessage, []paymentJSON, error) {
	nodes, err := h.store.NodesByOwnerJSON(ctx, addr)
	if err != nil {
		return views.Me{}, nil, nil, err
	}
	me := views.Me{Address: addr, Balance: new(big.Int), Credited: new(big.Int), Withdrawn: new(big.Int)}
	if err := json.Unmarshal(nodes, &me.Nodes); err != nil {
		return views.Me{}, nil, nil, err
	}
	recorded := map[string]bool{}
	for _, n := range me.Nodes {
		me.Balance.Add(me.Balance, n.BalanceWei.Int)
		me.Credited.Add(me.Credited, n.CumulativeWei.Int)
		me.Withdrawn.Add(me.Withdrawn, n.WithdrawnWei.Int)
		recorded[n.ChainNodeID.String()] = true
	}
	payments, err := h.paymentsFrom(ctx, addr, walletPagePayments)
	if err != nil {
		return views.Me{}, nil, nil, err
	}
	me.Payments = mapSlice(payments, paymentView)
	if me.Referrals, err = h.referrals(ctx, addr, len(me.Nodes) > 0); err != nil {
		return views.Me{}, nil, nil, err
	}
	if ids, err := h.chain.NodesOf(ctx, common.HexToAddress(addr)); err != nil {
		h.log.Warn("me: nodesOf unreadable", "err", err)
	} else {
		unrecorded := []*big.Int{}
		for _, id := range ids {
			if !recorded[id.String()] {
				unrecorded = append(unrecorded, id)
			}
		}
		me.Unrecorded = &unrecorded
	}
	return me, nodes, payments, nil
}
