package handlers

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/labstack/echo/v4"

	"nodeledger/chain"
	"nodeledger/jobs/sale"
	"nodeledger/store"
	"nodeledger/views"
	"nodeledger/views/words"
)

// BuyPage answers GET /buy?wallet=&ref=: every tier on sale, scheduled or sold out (not those switched
// off or ended), where its sale stands (GET /api/tiers' figures), how to pay, and what a node
// earns. For a wallet (?wallet=, else the signed-in one) it adds what the wallet holds of each
// tier, its place on an allowlist, and why the payments pass would refuse its payment now. The
// referral code of the visit (?ref=, remembered for the visit) gives each tier its discounted
// price, or the page says why it gives nothing.
func (h *Handlers) BuyPage(c echo.Context) error {
	ctx := c.Request().Context()
	b := views.Buy{PaymentAddress: h.cfg.PaymentAddress, Wallet: views.SiteOf(ctx).SignedIn, Now: time.Now(),
		BlockedCountry: h.blockedCountry(c)}
	if q := strings.TrimSpace(c.QueryParam("wallet")); q != "" {
		w, err := parseAddress(q)
		if err != nil {
			return err
		}
		b.Wallet = w
	}
	terms, err := h.visitReferral(c, &b)
	if err != nil {
		return err
	}
	all, err := h.sale.TiersNow(ctx)
	if err != nil {
		return err
	}
	if b.Held, err = h.store.MintingHeld(ctx); err != nil {
		return err
	}
	if b.USD, err = h.price.Get(ctx); err != nil {
		return err
	}
	if paused, err := h.chain.Paused(ctx); err == nil {
		b.Paused = &paused
	}
	labels := map[int]string{}
	for _, t := range all {
		labels[t.ID] = t.Label
	}
	shown := slices.DeleteFunc(slices.Clone(all), func(t sale.TierNow) bool { return buyOrder[t.Phase] == 0 })
	plain := make([]store.Tier, len(shown))
	for i, t := range shown {
		plain[i] = t.Tier
	}
	earnings := h.earnings(ctx, plain, true)
	held := h.tokensHeld(ctx, b.Wallet)
	judge := h.judgeAtHead(ctx, b.Wallet)
	for _, t := range shown {
		bt := views.BuyTier{Tier: t.Tier, Phase: t.Phase, Remaining: t.Remaining, OpensAt: t.OpensAt, Earnings: earnings[t.ID]}
		for _, p := range t.InTokens {
			tp := views.TokenPrice{TokenAmount: p, Held: held(p.Address)}
			if terms != nil && terms.DiscountBps > 0 {
				tp.Pay = &store.Uint256{Int: terms.Price(p.Amount.Int)}
			}
			bt.TokenPrices = append(bt.TokenPrices, tp)
		}
		if t.Token != nil {
			bt.Token = &views.Token{Symbol: t.Token.Symbol, Decimals: t.Token.Decimals}
		}
		if t.Phase == store.PhaseScheduled && t.OpensAt == nil && t.OpensAfterTier != nil {
			bt.OpensAfter = views.TierName(store.Tier{Label: labels[*t.OpensAfterTier]}, *t.OpensAfterTier)
		}
		if terms != nil && terms.DiscountBps > 0 {
			bt.PayWei = &store.Uint256{Int: terms.Price(t.PriceWei.Int)}
		}
		if err := h.forWallet(ctx, &bt, b.Wallet, b.Now, judge); err != nil {
			return err
		}
		b.Tiers = append(b.Tiers, bt)
	}
	slices.SortStableFunc(b.Tiers, func(x, y views.BuyTier) int {
		return cmp.Or(cmp.Compare(buyOrder[x.Phase], buyOrder[y.Phase]), x.PriceWei.Cmp(y.PriceWei.Int))
	})
	return render(c, http.StatusOK, views.BuyPage(b))
}

// tokensHeld reads, once per token, what wallet holds of the tokens the page prices tiers in:
// nil for no wallet, or a balance that cannot be read (the Pay button's pre-check still stands).
func (h *Handlers) tokensHeld(ctx context.Context, wallet string) func(token string) *store.Uint256 {
	read := map[string]*store.Uint256{}
	return func(token string) *store.Uint256 {
		if wallet == "" {
			return nil
		}
		if b, ok := read[token]; ok {
			return b
		}
		bal, err := h.chain.TokenBalance(chain.WithBudget(ctx, h.reads), common.HexToAddress(token), common.HexToAddress(wallet))
		if err != nil && !errors.Is(err, chain.ErrOverBudget) { // over budget: deliberate, not worth a line
			h.log.Warn("buy page: a token balance cannot be read", "token", token, "err", err)
		}
		if read[token] = nil; err == nil {
			read[token] = &store.Uint256{Int: bal}
		}
		return read[token]
	}
}

// pageJudge judges a payment of paid from the page's wallet at instant now.
type pageJudge func(paid store.Money, now time.Time) (sale.Verdict, error)

// judgeAtHead judges, for the page, payments from wallet at the head: the chain's state is read
// once for every tier (sale.JudgeWith), on the visitors' budget. It returns nil for no wallet, or
// a state that cannot be read (the Pay button's pre-check still stands).
func (h *Handlers) judgeAtHead(ctx context.Context, wallet string) pageJudge {
	if wallet == "" {
		return nil
	}
	ctx = chain.WithBudget(ctx, h.reads)
	cs, err := h.sale.ReadChain(ctx, 0)
	if err != nil {
		if !errors.Is(err, chain.ErrOverBudget) { // over budget: deliberate, not worth a line
			h.log.Warn("buy page: the chain's state cannot be read", "err", err)
		}
		return nil
	}
	return func(paid store.Money, now time.Time) (sale.Verdict, error) {
		return h.sale.JudgeWith(ctx, cs, wallet, paid, now, 0)
	}
}

// refCookie remembers the referral code of a visit to /buy: a session cookie, which the browser
// forgets when it closes, so that the page and its wallet figures still show the code when the
// buyer comes back to /buy without the link's ?ref=.
const refCookie = "nl_ref"

// visitReferral reads the code of the visit into b.Referral (?ref=, which it remembers, else the
// one remembered) and returns its terms when it gives them now. It reads the code for no wallet:
// ?wallet= is anyone's, and the page must not tell who owns a code; the Pay button's bind says
// so to the owner.
func (h *Handlers) visitReferral(c echo.Context, b *views.Buy) (*sale.Terms, error) {
	code := strings.TrimSpace(c.QueryParam("ref"))
	if code != "" && sale.MayBeCode(code) {
		c.SetCookie(h.cookie(refCookie, code, 0))
	} else if remembered, err := c.Cookie(refCookie); code == "" && err == nil && sale.MayBeCode(remembered.Value) {
		code = remembered.Value
	}
	if code == "" {
		return nil, nil
	}
	if !sale.MayBeCode(code) { // not repeated: the page shows no text a link brought
		b.Referral = &views.BuyReferral{}
		return nil, nil
	}
	b.Referral = &views.BuyReferral{Code: code}
	t, valid, err := h.sale.Code(c.Request().Context(), "", code, b.Now)
	if errors.Is(err, sale.ErrNoCode) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	b.Referral = &views.BuyReferral{Code: t.Code, Known: true, Valid: valid, DiscountBps: t.DiscountBps,
		WalletCode: t.Code == t.Owner, ExpiresAt: t.ExpiresAt}
	if !valid {
		return nil, nil
	}
	return &t, nil
}

// buyOrder is where /buy lists a tier of each phase: those that sell first, then those to come,
// then those sold out. A phase it does not list (off, ended) is 0: not shown.
var buyOrder = map[store.TierPhase]int{store.PhaseAllowlist: 1, store.PhasePublic: 1, store.PhaseScheduled: 2, store.PhaseSoldOut: 3}

// forWallet adds to bt what wallet (none when empty) has of the tier: its nodes of it, its place
// on the allowlist while the tier is in that phase or before it opens with one (so that a wallet
// knows it is on the list before launch day, not by paying), and, while the tier sells, why a
// payment of its price from the wallet now would be refused, by the rules the payments pass
// applies.
func (h *Handlers) forWallet(ctx context.Context, bt *views.BuyTier, wallet string, now time.Time, judge pageJudge) error {
	if wallet == "" {
		return nil
	}
	held, err := h.store.WalletHoldings(ctx, wallet, bt.ID)
	if err != nil {
		return err
	}
	bt.Holds = &held.OfTier
	if bt.KYCRequired {
		if bt.KYC, err = h.kycView(ctx, wallet, now); err != nil {
			return err
		}
	}
	if bt.Phase == store.PhaseAllowlist || allowlistAhead(bt.Tier, bt.Phase, now) {
		// Before the phase, the list in force now: the operator may still replace it.
		allocation, err := h.store.Allocation(ctx, bt.ID, wallet, now)
		if err != nil {
			return err
		}
		bt.Allowlist = &views.AllowlistPlace{Allocation: allocation, Used: held.OfTier}
	}
	if !bt.Phase.Open() || judge == nil {
		return nil
	}
	v, err := judge(store.Money{Amount: bt.PriceWei.Int}, now)
	if err != nil {
		// The page still shows the tier; the Pay button asks again before the wallet pays.
		if !errors.Is(err, chain.ErrOverBudget) {
			h.log.Warn("buy page: a payment cannot be judged", "tier", bt.ID, "err", err)
		}
		return nil
	}
	if v.Reason != nil && v.Tier.ID == bt.ID {
		if s := v.Reason.Precheck(); s != nil {
			bt.Refusal = *s + " " + h.refusedPayment(v.Reason)
		}
	}
	return nil
}

// refusedPayment says what would come of a payment the pre-check refuses for why: held by the
// screening (minted once the wallet is verified, for an identity check), or refunded.
func (h *Handlers) refusedPayment(why *sale.Reason) string {
	switch {
	case why.Code == sale.KYCRequired:
		return fmt.Sprintf("A payment from it would be held until it is verified, and refunded if it is not within %s.",
			words.Count(int(h.sale.KYCHold()/(24*time.Hour)), "day", "days"))
	case why.Holds():
		return "A payment from it would be held: neither minted nor refunded until the operator decides."
	}
	return "A payment from it would be refunded."
}

// allowlistAhead tells whether tier t, scheduled, will open with an allowlist phase: it has one
// that has not ended, and it does not start only after it ends.
func allowlistAhead(t store.Tier, phase store.TierPhase, now time.Time) bool {
	return phase == store.PhaseScheduled && t.AllowlistUntil != nil && now.Before(*t.AllowlistUntil) &&
		(t.StartsAt == nil || t.StartsAt.Before(*t.AllowlistUntil))
}
