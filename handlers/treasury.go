package handlers

import (
	"context"
	"net/http"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/labstack/echo/v4"

	"nodeledger/store"
	"nodeledger/views"
)

// treasuryJSON is the treasury as GET /api/admin/treasury answers it: the Safe and the payments
// wallet as the chain holds them now, and the last sweep that reached the Safe (null: none yet).
type treasuryJSON struct {
	Address        string        `json:"address"`
	Owners         []string      `json:"owners"`
	Threshold      uint64        `json:"threshold"`
	Nonce          string        `json:"nonce"`
	BalanceWei     store.Uint256 `json:"balanceWei"`
	PaymentsWallet walletJSON    `json:"paymentsWallet"`
	LastSweep      *sweepJSON    `json:"lastSweep"`
	// Tokens are what the treasury and the payments wallet hold of each listed token.
	Tokens []tokenHoldingJSON `json:"tokens"`
}

// tokenHoldingJSON is what the treasury and the payments wallet hold of a listed token, in its
// base units (paymentsWallet null without a payments wallet).
type tokenHoldingJSON struct {
	store.Token
	Treasury       store.Uint256  `json:"treasury"`
	PaymentsWallet *store.Uint256 `json:"paymentsWallet"`
}

// sweepJSON is a sweep that reached the treasury.
type sweepJSON struct {
	TxHash      string        `json:"txHash"`
	BlockNumber int64         `json:"blockNumber"`
	AmountWei   store.Uint256 `json:"amountWei"`
}

// sweepOf is sw as the API gives it; nil for none.
func sweepOf(sw *store.Sweep) *sweepJSON {
	if sw == nil || sw.BlockNumber == nil {
		return nil
	}
	return &sweepJSON{TxHash: sw.TxHash, BlockNumber: *sw.BlockNumber, AmountWei: sw.AmountWei}
}

type walletJSON struct {
	Address    string         `json:"address"`
	BalanceWei *store.Uint256 `json:"balanceWei"` // null: no payments wallet, or its balance cannot be read
}

// AdminTreasury answers GET /api/admin/treasury: the Safe the sale's money goes to, its owners,
// threshold and nonce, what it and the payments wallet hold. 404 without TREASURY_ADDRESS; 503
// when the chain cannot be read (never a stale or zero balance).
func (h *Handlers) AdminTreasury(c echo.Context) error {
	if h.cfg.Treasury == (common.Address{}) {
		return errorf(http.StatusNotFound, "No treasury is configured: set TREASURY_ADDRESS to the Safe the sale's money goes to.")
	}
	t, err := h.treasuryAnswer(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, t)
}

// treasuryAnswer reads the treasury and the payments wallet from the chain, for the API and the page.
func (h *Handlers) treasuryAnswer(ctx context.Context) (treasuryJSON, error) {
	s, err := h.chain.Safe(ctx, h.cfg.Treasury)
	if err != nil {
		return treasuryJSON{}, err
	}
	out := treasuryJSON{Address: lower(s.Address), Threshold: s.Threshold, Nonce: s.Nonce.String(),
		BalanceWei: store.Uint256{Int: s.Balance}, PaymentsWallet: walletJSON{Address: h.cfg.PaymentAddress}}
	for _, o := range s.Owners {
		out.Owners = append(out.Owners, lower(o))
	}
	last, err := h.store.LastSweep(ctx)
	if err != nil {
		return treasuryJSON{}, err
	}
	out.LastSweep = sweepOf(last)
	if h.cfg.PaymentAddress != "" {
		bal, err := h.chain.Balance(ctx, common.HexToAddress(h.cfg.PaymentAddress))
		if err != nil {
			return treasuryJSON{}, err
		}
		out.PaymentsWallet.BalanceWei = &store.Uint256{Int: bal}
	}
	out.Tokens = []tokenHoldingJSON{}
	for _, t := range h.sale.Tokens() {
		token := common.HexToAddress(t.Address)
		held, err := h.chain.TokenBalance(ctx, token, h.cfg.Treasury)
		if err != nil {
			return treasuryJSON{}, err
		}
		holding := tokenHoldingJSON{Token: t, Treasury: store.Uint256{Int: held}}
		if h.cfg.PaymentAddress != "" {
			if held, err = h.chain.TokenBalance(ctx, token, common.HexToAddress(h.cfg.PaymentAddress)); err != nil {
				return treasuryJSON{}, err
			}
			holding.PaymentsWallet = &store.Uint256{Int: held}
		}
		out.Tokens = append(out.Tokens, holding)
	}
	return out, nil
}

// treasuryView is the treasury as the operator page shows it: nil without one; a chain that
// cannot be read now is said on the card, and the rest of the page stays usable.
func (h *Handlers) treasuryView(ctx context.Context) *views.Treasury {
	if h.cfg.Treasury == (common.Address{}) {
		return nil
	}
	t, err := h.treasuryAnswer(ctx)
	if err != nil {
		h.log.Warn("operator page: the treasury cannot be read", "err", err)
		return &views.Treasury{Address: lower(h.cfg.Treasury), Unreadable: true}
	}
	ops, err := h.store.Operators(ctx)
	if err != nil {
		h.log.Warn("operator page: the operator list cannot be read", "err", err)
	}
	var unlisted []string
	for _, o := range t.Owners {
		if err == nil && !slices.ContainsFunc(ops, func(op store.Operator) bool { return op.Address == o }) {
			unlisted = append(unlisted, o)
		}
	}
	v := &views.Treasury{Address: t.Address, Owners: t.Owners, Unlisted: unlisted, Threshold: t.Threshold, BalanceWei: t.BalanceWei,
		PaymentsWallet: t.PaymentsWallet.Address, PaymentsBalanceWei: t.PaymentsWallet.BalanceWei,
		SweepsOff: sweepsOffSentence(h.jobs.SweepsOff())}
	for _, t := range t.Tokens {
		v.Tokens = append(v.Tokens, store.TokenAmount{Token: t.Token, Amount: t.Treasury})
		if t.PaymentsWallet != nil {
			v.PaymentsTokens = append(v.PaymentsTokens, store.TokenAmount{Token: t.Token, Amount: *t.PaymentsWallet})
		}
	}
	if t.LastSweep != nil {
		v.LastSweep = &store.Sweep{TxHash: t.LastSweep.TxHash, BlockNumber: &t.LastSweep.BlockNumber, AmountWei: t.LastSweep.AmountWei}
	}
	return v
}

func lower(a common.Address) string { return strings.ToLower(a.Hex()) }
