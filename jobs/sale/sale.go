// Package sale owns the sale's rules: what a payment buys at its block (Judge), where each tier's
// sale stands (PhaseAt, Tiers), the buyer's pre-check, what a tier may be (Draft.Check and the
// rules checked against the ledger), the catalogue of reasons a payment buys nothing, and the
// table of payment statuses. The payments pass applies it; the handlers parse, call it and
// render; neither holds a rule.
//
// It also keeps the sale's read model: what trackers and pages ask for many times a second (the
// tiers as they stand now, what a waiting payment waits on), served from memory and forgotten by
// the verbs here that change it, so an instance shows its own changes at once.
package sale

import (
	"context"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"time"

	"nodeledger/chain"
	"nodeledger/jobs/memo"
	"nodeledger/store"
)

// Sale applies the sale's rules to one ledger and one chain.
type Sale struct {
	store *store.Store
	chain *chain.Client
	// grace is how long after a tier's price changes a payment of the price before still buys
	// the tier (PRICE_GRACE_SEC): a page opened before the change never leads to a rejection.
	grace time.Duration
	// kycHold is how long a payment for a tier that requires a verified identity waits for its
	// wallet's check before it is refunded (KYC_HOLD_DAYS).
	kycHold time.Duration
	// walletCodes are the terms of a wallet's address as a code.
	walletCodes WalletCodes
	// tokens are the tokens the sale accepts (PAYMENT_TOKENS), by address (lower case).
	tokens map[string]store.Token
	// spreadBps is how far apart, in US dollars, a tier's prices in two currencies may be saved
	// without a confirmation when one changes and the other does not (PRICE_SPREAD_BPS); 0: no check.
	spreadBps int
	log       *slog.Logger

	tiers   *memo.Value[[]TierNow] // the tiers as GET /api/tiers and the pages show them
	waiting *memo.Value[Waiting]   // what a payment waiting to be minted waits on
}

// The tiers and what a waiting payment waits on are read by every tracker and poller, up to
// hundreds of times a second on a sale day, and change with an operator's action (which this
// instance forgets them on at once) or a pass: they are served from memory for readTTL, then for
// up to readStale more while one read refreshes them. Money never rests on them: the payments
// pass and the buyer's pre-check read the ledger.
const (
	readTTL   = time.Second
	readStale = time.Second
)

// New returns the sale of the ledger s on chain ch, which accepts tokens beside ETH.
func New(s *store.Store, ch *chain.Client, priceGrace, kycHold time.Duration, spreadBps int, walletCodes WalletCodes, tokens []store.Token, log *slog.Logger) *Sale {
	sl := &Sale{store: s, chain: ch, grace: priceGrace, kycHold: kycHold, spreadBps: spreadBps, walletCodes: walletCodes,
		tokens: map[string]store.Token{}, log: log}
	for _, t := range tokens {
		sl.tokens[t.Address] = t
	}
	sl.tiers = memo.New(readTTL, readStale, sl.TiersNow).Reads(store.ErrUnavailable)
	sl.waiting = memo.New(readTTL, readStale, sl.loadWaiting).Reads(store.ErrUnavailable)
	return sl
}

// KYCHold is how long a payment waits for its wallet's identity check (KYC_HOLD_DAYS).
func (s *Sale) KYCHold() time.Duration { return s.kycHold }

// WalletCodes are the terms of a wallet's address as a code.
func (s *Sale) WalletCodes() WalletCodes { return s.walletCodes }

// SpreadBps is how far apart in dollars a tier's prices may be saved without a confirmation
// (PRICE_SPREAD_BPS); 0: not checked.
func (s *Sale) SpreadBps() int { return s.spreadBps }

// Listed are the tokens the sale accepts, by address (lower case).
func (s *Sale) Listed() map[string]store.Token { return maps.Clone(s.tokens) }

// Token is the token the sale accepts at address (lower case); false when it accepts none there.
func (s *Sale) Token(address string) (store.Token, bool) {
	t, ok := s.tokens[address]
	return t, ok
}

// Tokens are the tokens the sale accepts, in address order.
func (s *Sale) Tokens() []store.Token {
	out := slices.Collect(maps.Values(s.tokens))
	slices.SortFunc(out, func(a, b store.Token) int { return strings.Compare(a.Address, b.Address) })
	return out
}

// TokenPrices are tier t's prices in tokens with each token's symbol and decimals, by address; a
// price in a token no longer listed is left out (no payment in it is recorded).
func (s *Sale) TokenPrices(t store.Tier) []TokenAmount {
	out := []TokenAmount{}
	for addr, amount := range t.TokenPrices {
		if token, ok := s.tokens[addr]; ok {
			out = append(out, TokenAmount{Token: token, Amount: amount})
		}
	}
	slices.SortFunc(out, func(a, b TokenAmount) int { return strings.Compare(a.Address, b.Address) })
	return out
}

// Forget drops the read model after this instance changed the sale (an operator's action, a pass
// it ran), so its next reader sees the change.
func (s *Sale) Forget() {
	s.tiers.Forget()
	s.waiting.Forget()
}

// Waiting is what a payment waiting to be minted waits on, as its buyer sees it: the operator
// holding minting, or the payments pass failing because the minter cannot pay for gas.
type Waiting struct {
	Held            bool
	MinterCannotPay bool
}

// WaitingOn is what a waiting payment waits on now (read model).
func (s *Sale) WaitingOn(ctx context.Context) (Waiting, error) { return s.waiting.Get(ctx) }

func (s *Sale) loadWaiting(ctx context.Context) (Waiting, error) {
	held, err := s.store.MintingHeld(ctx)
	if err != nil {
		return Waiting{}, err
	}
	statuses, err := s.store.PassStatuses(ctx)
	if err != nil {
		return Waiting{}, err
	}
	w := Waiting{Held: held}
	for _, p := range statuses {
		if p.Pass == store.PassPayments && p.Failures > 0 && p.Error != nil && p.Error.Code == store.PassCannotPayGas {
			w.MinterCannotPay = true
		}
	}
	return w, nil
}
