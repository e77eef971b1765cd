package sale

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"nodeledger/chain"
	"nodeledger/store"
)

// Which tier a payment buys, judged by the settings in force at its block's time, and why not
// when it buys none. The payments pass applies them to every payment, and the buy page's
// pre-check (GET /api/tiers/{id}/check/{address}) to the payment a wallet is about to make,
// through the one judgement.

// PhaseAt is where tier t's sale stands at instant at. sold is what each tier sold (minted or
// being minted), and tiers the tiers by id as they stood at at, for the tier t opens after.
func PhaseAt(t store.Tier, sold func(tier int) int, tiers map[int]store.Tier, at time.Time) store.TierPhase {
	switch {
	case !t.Enabled:
		return store.PhaseOff
	case t.EndsAt != nil && !at.Before(*t.EndsAt):
		return store.PhaseEnded
	case t.Supply != nil && sold(t.ID) >= *t.Supply:
		return store.PhaseSoldOut
	case t.StartsAt != nil && at.Before(*t.StartsAt):
		return store.PhaseScheduled
	case t.OpensAfterTier != nil && !soldOut(tiers, *t.OpensAfterTier, sold):
		return store.PhaseScheduled
	case t.AllowlistUntil != nil && at.Before(*t.AllowlistUntil):
		return store.PhaseAllowlist
	}
	return store.PhasePublic
}

// soldOut tells whether tier id (in tiers) has sold its supply; a tier without a supply never
// sells out, and one that did not exist yet has not.
func soldOut(tiers map[int]store.Tier, id int, sold func(tier int) int) bool {
	t, ok := tiers[id]
	return ok && t.Supply != nil && sold(id) >= *t.Supply
}

// Verdict is what a payment buys: Tier, or nothing, and Reason says why (Tier is then the tier it
// was refused for, zero when its value is the price of none).
type Verdict struct {
	Tier   store.Tier
	Reason *Reason
	// Referral is the code the wallet was bound to at the payment, when it gave its terms then,
	// with what the payment saved of Tier's price (nil: none).
	Referral *store.PaymentReferral
	// Reads are the chain's answers the verdict depended on, when judged at a block (ReadChain).
	Reads []store.ChainRead
}

// ChainState is what the rules read of the chain once for many payments.
type ChainState struct {
	// block is where the state is read (nil: the head, for the pre-check), and every read a
	// judgement makes with it: a verdict is then the same however late it is asked again.
	block *big.Int
	// factory is the factory's pause and allowance per wallet at block, shared by the
	// judgements with cs and read on the first that needs them: a block whose judgements all
	// stop before (a wrong amount, a wallet's limit) or recall them (a rebuild) asks nothing.
	factory *factoryAt
	// minting: the payments pass judges, and the factory guards its own limit (mintBatch skips
	// an order past it, and the payment is rejected with the factory's reason), so a wallet's
	// nodes are asked of the chain only when the ledger puts it near the limit: not one request
	// a payment. The buyer's pre-check asks every time, to say why before anything is paid.
	minting bool
	// recalled are the reads of an earlier judgement of the payment (Recalling).
	recalled []store.ChainRead
	// sanctioned is what the sanctions oracle said of payers at block, read for many at once
	// (ReadSanctions); a payer not in it is read alone.
	sanctioned map[string]bool
	// release is an admin's release of the payment judged (Releasing); nil: none.
	release *store.Release
	// nodes are the wallets' nodes read at block, shared by the judgements with cs: the buy
	// page judges a wallet's payment for every tier, and asks once.
	nodes map[string][]string
}

// Releasing is cs for the judgement of a payment an admin released from the screening's hold.
func (cs ChainState) Releasing(r store.Release) ChainState {
	cs.release = &r
	return cs
}

// ErrSanctionsUnreadable is a judgement that could not read the sanctions oracle: the payment
// waits rather than pass unscreened.
var ErrSanctionsUnreadable = errors.New("the sanctions oracle cannot be read")

// ReadSanctions learns what the sanctions oracle said of payers at cs's block, for the
// judgements of their payments there; nothing when no oracle is set. At a block the payments
// scan has followed the oracle's logs over, the ledger knows most payers already (a wallet's
// answer holds until its listing changes: store.SanctionsKnown); the others are read in one
// request, and their answers kept for their next payments. At the head (the pre-check) all are
// read.
func (s *Sale) ReadSanctions(ctx context.Context, cs *ChainState, payers []string) error {
	oracle := s.chain.SanctionsOracle()
	if oracle == (common.Address{}) {
		return nil
	}
	if cs.sanctioned == nil {
		cs.sanctioned = make(map[string]bool, len(payers))
	}
	if len(payers) == 0 {
		return nil
	}
	addr := strings.ToLower(oracle.Hex())
	unknown := payers
	if cs.block != nil {
		known, err := s.store.SanctionsKnown(ctx, addr, cs.block.Int64(), payers)
		if err != nil {
			return err
		}
		unknown = nil
		for _, p := range payers {
			if listed, ok := known[p]; ok {
				cs.sanctioned[p] = listed
			} else {
				unknown = append(unknown, p)
			}
		}
		if len(unknown) == 0 {
			return nil
		}
	}
	addrs := make([]common.Address, len(unknown))
	for i, p := range unknown {
		addrs[i] = common.HexToAddress(p)
	}
	listed, err := s.chain.Sanctioned(ctx, oracle, cs.block, addrs)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrSanctionsUnreadable, err)
	}
	for i, p := range unknown {
		cs.sanctioned[p] = listed[i]
	}
	if cs.block == nil {
		return nil
	}
	return s.store.PutSanctionsAnswers(ctx, addr, cs.block.Int64(), unknown, listed)
}

// screens tells whether a judgement with cs asks the oracle about wallet who: always, but for a
// rebuild's judgement of a payment the service judged without asking it (its reads recalled hold
// no answer for who: the service had no oracle then, or the payment's code paid nobody), which
// judges as the service did.
func (cs ChainState) screens(who string) bool {
	if cs.recalled == nil {
		return true
	}
	_, ok := cs.recall("isSanctioned(" + who + ")")
	return ok
}

// sanctionedAt tells whether the sanctions oracle listed wallet from at cs's block: recalled,
// learnt with others (ReadSanctions), or learnt now.
func (s *Sale) sanctionedAt(ctx context.Context, cs ChainState, from string) (bool, error) {
	var listed bool
	if r, ok := cs.recall("isSanctioned(" + from + ")"); ok && json.Unmarshal(r.Result, &listed) == nil {
		return listed, nil
	}
	if listed, ok := cs.sanctioned[from]; ok {
		return listed, nil
	}
	// Into cs's map, shared by the judgements at this block: a code's owner is learnt once.
	if err := s.ReadSanctions(ctx, &cs, []string{from}); err != nil {
		return false, err
	}
	return cs.sanctioned[from], nil
}

// ChainAt is the chain's state at block (0: the head) for judging many payments, read as they
// need it; judged at a block, a verdict keeps what it read (Verdict.Reads).
func (s *Sale) ChainAt(block uint64) ChainState {
	var at *big.Int
	if block > 0 {
		at = new(big.Int).SetUint64(block)
	}
	return ChainState{block: at, factory: &factoryAt{c: s.chain, block: at}, sanctioned: map[string]bool{}, nodes: map[string][]string{}}
}

// ReadChain is ChainAt with the factory's state read now: a page that cannot read it says so
// before it judges anything.
func (s *Sale) ReadChain(ctx context.Context, block uint64) (ChainState, error) {
	cs := s.ChainAt(block)
	return cs, cs.factory.read(ctx)
}

// factoryAt is the factory's pause and allowance per wallet at a block (nil: the head), read once.
type factoryAt struct {
	c         *chain.Client
	block     *big.Int
	once      sync.Once
	paused    bool
	walletMax uint32
	err       error
}

// read reads them on its first call; every call answers its error.
func (f *factoryAt) read(ctx context.Context) error {
	f.once.Do(func() {
		if f.paused, f.err = f.c.PausedAt(ctx, f.block); f.err == nil {
			f.walletMax, f.err = f.c.MaxPerWallet(ctx, f.block)
		}
	})
	return f.err
}

// fromFactory is the answer to the factory's call at cs's block: the earlier judgement's when
// recalled, else *field of the factory's state, read once for the block.
func fromFactory[T any](ctx context.Context, cs ChainState, call string, field *T) (T, error) {
	var v T
	if r, ok := cs.recall(call); ok && json.Unmarshal(r.Result, &v) == nil {
		return v, nil
	}
	err := cs.factory.read(ctx)
	return *field, err
}

// Recalling is cs for a rebuild's judgement of a payment that the service judged with reads:
// each call that judgement made is answered as it was then, at the block it was read at, so the
// rebuild asks nothing the chain may no longer answer (a past block's state needs an archive
// node) and judges as the service did; a call it did not make is read from the chain.
func (cs ChainState) Recalling(reads []store.ChainRead) ChainState {
	cs.recalled = reads
	for _, r := range reads {
		var err error
		switch r.Call {
		case "paused()":
			err = json.Unmarshal(r.Result, new(bool))
		case "maxPerWallet()":
			err = json.Unmarshal(r.Result, new(uint32))
		}
		if err != nil { // the ledger's own JSON: a read it cannot take is read from the chain
			cs.recalled = nil
			return cs
		}
	}
	return cs
}

// recall is the earlier judgement's read of call, if it made it.
func (cs ChainState) recall(call string) (store.ChainRead, bool) {
	for _, r := range cs.recalled {
		if r.Call == call {
			return r, true
		}
	}
	return store.ChainRead{}, false
}

// read notes on v that its verdict depended on the answer result of call to contract, when cs
// is read at a block (at the block the earlier judgement read it at, when recalled).
func (cs ChainState) read(v *Verdict, contract common.Address, call string, result any) {
	if cs.block == nil {
		return
	}
	b, err := json.Marshal(result)
	if err != nil { // a bool, a number, a string or a list of them: never
		panic(err)
	}
	block := cs.block.Int64()
	if r, ok := cs.recall(call); ok {
		block = r.Block
	}
	v.Reads = append(v.Reads, store.ChainRead{Contract: strings.ToLower(contract.Hex()), Call: call, Block: block, Result: b})
}

// nodesOf is the ids of the nodes wallet from holds, as read at cs's block or recalled.
func (cs ChainState) nodesOf(ctx context.Context, c *chain.Client, from string) ([]string, error) {
	var ids []string
	if r, ok := cs.recall("nodesOf(" + from + ")"); ok && json.Unmarshal(r.Result, &ids) == nil {
		return ids, nil
	}
	if ids, ok := cs.nodes[from]; ok {
		return ids, nil
	}
	onChain, err := c.NodesOfAt(ctx, common.HexToAddress(from), cs.block)
	if err != nil {
		return nil, err
	}
	ids = make([]string, len(onChain))
	for i, id := range onChain {
		ids[i] = id.String()
	}
	if cs.nodes != nil {
		cs.nodes[from] = ids
	}
	return ids, nil
}

// balanceOf is wallet from's balance of token, as read at cs's block or recalled.
func (cs ChainState) balanceOf(ctx context.Context, c *chain.Client, token common.Address, from string) (*big.Int, error) {
	if r, ok := cs.recall("balanceOf(" + from + ")"); ok && r.Contract == strings.ToLower(token.Hex()) {
		var s string
		if json.Unmarshal(r.Result, &s) == nil {
			if bal, ok := new(big.Int).SetString(s, 10); ok {
				return bal, nil
			}
		}
	}
	return c.TokenBalanceAt(ctx, token, common.HexToAddress(from), cs.block)
}

// ForMinting is cs for the payments pass (ChainState.minting).
func (cs ChainState) ForMinting() ChainState {
	cs.minting = true
	return cs
}

// nearLimit tells whether a wallet holding held (as the ledger knows it) must have its nodes
// counted on chain against the factory's limit: always for the pre-check, and for the pass once
// the ledger's count comes within a tenth of the limit (the chain may know a few more: a node
// minted outside the service or transferred in that the reconciler has not read yet).
func (cs ChainState) nearLimit(held store.Holdings, walletMax uint32) bool {
	return !cs.minting || held.Nodes+held.Minting+int(walletMax)/10+1 >= int(walletMax)
}

// Judge decides what a payment of paid (ETH or a listed token) from wallet `from` (lower case)
// made at instant at buys,
// by the rules in force then: the tier, the wallet's limits, the contract's, and the holding
// token (whose balance the pre-check reads at the head; the payments pass reads the chain at the
// payment's block, and keeps what it read).
// The payments pass judges each payment with it at its block's time; the buy page's pre-check
// judges the payment a wallet is about to make, at now.
func (s *Sale) Judge(ctx context.Context, from string, paid store.Money, at time.Time) (Verdict, error) {
	cs, err := s.ReadChain(ctx, 0)
	if err != nil {
		return Verdict{}, err
	}
	return s.JudgeWith(ctx, cs, from, paid, at, 0)
}

// JudgeWith is Judge with the chain's state read once for many payments (ReadChain), of a
// payment in block (0: one yet to come), whose bindings count only when made before it.
func (s *Sale) JudgeWith(ctx context.Context, cs ChainState, from string, paid store.Money, at time.Time, block int64) (Verdict, error) {
	screened, err := s.screen(ctx, cs, from, at)
	if err != nil || screened.Reason != nil {
		return screened, err
	}
	v, err := s.judge(ctx, cs, from, paid, at, block)
	v.Reads = append(screened.Reads, v.Reads...)
	if err != nil || v.Reason != nil || !v.Tier.KYCRequired || cs.release != nil && cs.release.To == store.ReleaseToMint {
		return v, err
	}
	return s.identified(ctx, v, from, at)
}

// identified is v, a payment from wallet `from` at instant at that buys a tier requiring a
// verified identity, held (its tier and code kept: the unit is kept for it) unless the wallet's
// check stood verified at at.
func (s *Sale) identified(ctx context.Context, v Verdict, from string, at time.Time) (Verdict, error) {
	kyc, err := s.store.KYCAt(ctx, from, at)
	if err != nil || kyc.Status == store.KYCVerified {
		return v, err
	}
	until := at.Add(s.kycHold).UTC()
	v.Reason = &Reason{Code: KYCRequired, Args: Args{Tier: &v.Tier.ID, TierLabel: v.Tier.Label, Until: &until}}
	return v, nil
}

// screen is the screening of a payment from wallet `from` made at instant at, first of the rules:
// a payer the sanctions oracle listed at cs's block, or the operator's denylist listed at at, is
// held (Verdict.Reason.Holds), whatever else the payment is; the oracle's answer is kept with the
// verdict. A payment an admin released is not held again: released to be minted, it is not
// screened; released to be refunded, it is rejected for the reason it was held, whatever the
// screening says now (it is still read, so that a rebuild keeps the same reads).
func (s *Sale) screen(ctx context.Context, cs ChainState, from string, at time.Time) (Verdict, error) {
	var v Verdict
	release := cs.release
	if release != nil && release.To == store.ReleaseToMint {
		return v, nil
	}
	var held store.ReasonCode
	listed, err := s.listed(ctx, cs, &v, from)
	if err != nil {
		return v, err
	}
	if listed {
		held = Sanctioned
	}
	if held == "" {
		denied, err := s.store.Denylisted(ctx, from, at)
		if err != nil {
			return v, err
		}
		if denied {
			held = Denylisted
		}
	}
	switch {
	case release != nil:
		v.Reason = &Reason{Code: release.HeldFor, Args: Args{Released: true}}
	case held != "":
		v.Reason = &Reason{Code: held}
	}
	return v, nil
}

// judge is JudgeWith past the screening: the sale's rules.
func (s *Sale) judge(ctx context.Context, cs ChainState, from string, paid store.Money, at time.Time, block int64) (Verdict, error) {
	tiers, err := s.store.TiersAt(ctx, at, s.grace)
	if err != nil {
		return Verdict{}, err
	}
	byID := make(map[int]store.Tier, len(tiers))
	for _, t := range tiers {
		byID[t.ID] = t.Tier
	}
	// What a tier sold is counted only where it matters (a tier with a supply), once per judgement.
	counts, failed := map[int]int{}, error(nil)
	sold := func(tier int) int {
		n, ok := counts[tier]
		if !ok && failed == nil {
			n, failed = s.store.Sold(ctx, tier)
			counts[tier] = n
		}
		return n
	}

	// A code works whatever the payment is in: its discount comes off the price in that currency,
	// and its commissions are owed in it.
	terms, err := s.BoundAt(ctx, from, at, block)
	if err != nil {
		return Verdict{}, err
	}

	// The candidates are the tiers this amount was a price of in its currency, within the grace,
	// in full or less the discount of the wallet's code; the first open one by id wins, so a
	// price step of the same price takes over when the tier before sells out.
	var refused *Verdict
	var tier store.Tier
	var price *big.Int
	found := false
	for _, t := range tiers {
		if price = pricedAt(t, paid, terms); price == nil {
			continue
		}
		phase := PhaseAt(t.Tier, sold, byID, at)
		if failed != nil {
			return Verdict{}, failed
		}
		if phase.Open() {
			tier, found = t.Tier, true
			break
		}
		if refused == nil {
			refused = &Verdict{Tier: t.Tier, Reason: notOpen(t.Tier, phase, sold, byID, at)}
		}
	}
	switch {
	case found:
	case refused != nil:
		return *refused, nil
	default:
		v := Verdict{Reason: s.notAPrice(paid, tiers, sold, byID, at)}
		return v, failed
	}
	v, err := s.judgeWallet(ctx, from, tier, at, cs)
	if err == nil && terms != nil && v.Reason == nil {
		r := terms.For(price, paid.Amount)
		v.Referral = &r
		err = s.unpaidReferrers(ctx, cs, &v)
	}
	return v, err
}

// unpaidReferrers takes their commission off v's referral for the referrers (the code's owner,
// the partner above) the sanctions oracle lists at cs's block: a code owned by one earns nothing
// while it is, and the buyer keeps the discount. What the oracle said is kept with the verdict.
func (s *Sale) unpaidReferrers(ctx context.Context, cs ChainState, v *Verdict) error {
	r := v.Referral
	if r.CommissionBps > 0 {
		l, err := s.listed(ctx, cs, v, r.Owner)
		if err != nil {
			return err
		}
		if l {
			r.CommissionBps = 0
		}
	}
	if r.Parent != nil && r.ParentBps != nil && *r.ParentBps > 0 {
		l, err := s.listed(ctx, cs, v, *r.Parent)
		if err != nil {
			return err
		}
		if l {
			r.ParentBps = new(int)
		}
	}
	return nil
}

// listed tells whether the sanctions oracle listed wallet who at cs's block, and keeps its answer
// with v: the one way the judgement asks it. Without an oracle, or for a rebuild's judgement the
// service made without asking about who (ChainState.screens), it asks nothing: false.
func (s *Sale) listed(ctx context.Context, cs ChainState, v *Verdict, who string) (bool, error) {
	oracle := s.chain.SanctionsOracle()
	if oracle == (common.Address{}) || !cs.screens(who) {
		return false, nil
	}
	l, err := s.sanctionedAt(ctx, cs, who)
	if err == nil {
		cs.read(v, oracle, "isSanctioned("+who+")", l)
	}
	return l, err
}

// pricedAt returns the price of t's in paid's currency, within the grace, that paid paid: in
// full, or less the discount of the wallet's code (terms, nil for none); nil when it paid none.
func pricedAt(t store.TierAt, paid store.Money, terms *Terms) *big.Int {
	value := paid.Amount
	for _, p := range t.PricesIn(paid.Token) {
		if p.Cmp(value) == 0 || terms != nil && terms.Price(p.Int).Cmp(value) == 0 {
			return p.Int
		}
	}
	return nil
}

// notOpen is why tier t, in phase (not open), sells nothing.
func notOpen(t store.Tier, phase store.TierPhase, sold func(int) int, tiers map[int]store.Tier, at time.Time) *Reason {
	args := Args{Tier: &t.ID, TierLabel: t.Label}
	switch phase {
	case store.PhaseSoldOut:
		args.Supply, args.Sold = *t.Supply, sold(t.ID)
		return &Reason{Code: SoldOut, Args: args}
	case store.PhaseScheduled:
		if t.StartsAt != nil && at.Before(*t.StartsAt) {
			args.StartsAt = utc(t.StartsAt)
		} else if t.OpensAfterTier != nil {
			args.AfterTier = t.OpensAfterTier
			args.AfterTierLabel = tiers[*t.OpensAfterTier].Label
		}
		return &Reason{Code: NotOpen, Args: args}
	case store.PhaseEnded:
		args.EndsAt = utc(t.EndsAt)
	}
	return &Reason{Code: Closed, Args: args}
}

// notAPrice is why paid buys no tier, with the prices, in its currency, of the tiers open at at
// (a tier without a price in a token is not on sale for it).
func (s *Sale) notAPrice(paid store.Money, tiers []store.TierAt, sold func(int) int, byID map[int]store.Tier, at time.Time) *Reason {
	args := Args{PaidWei: store.Uint256{Int: paid.Amount}}
	if paid.Token != "" {
		t := s.tokens[paid.Token]
		args.PaidWei, args.Paid = store.Uint256{}, &TokenAmount{Token: t, Amount: store.Uint256{Int: paid.Amount}}
	}
	for _, t := range tiers {
		if !PhaseAt(t.Tier, sold, byID, at).Open() {
			continue
		}
		price := TierPrice{ID: &t.ID, Label: t.Label}
		if paid.Token == "" {
			price.PriceWei = t.PriceWei
		} else if amount, ok := t.TokenPrices[paid.Token]; ok {
			price.Amount = amount
		} else {
			continue
		}
		args.OnSale = append(args.OnSale, price)
	}
	if len(args.OnSale) == 0 {
		return &Reason{Code: NoTierOnSale, Args: args}
	}
	return &Reason{Code: WrongAmount, Args: args}
}

// judgeWallet applies to a payment from wallet `from` for an open tier the rules of the wallet:
// the allowlist and its allocation (during the allowlist phase) or the tier's allowance per
// wallet (after), the contract's allowance per wallet, its pause, and the holding token.
func (s *Sale) judgeWallet(ctx context.Context, from string, tier store.Tier, at time.Time, cs ChainState) (Verdict, error) {
	v := Verdict{Tier: tier}
	refuse := func(code store.ReasonCode, args Args) (Verdict, error) {
		args.Tier, args.TierLabel = &tier.ID, tier.Label
		v.Reason = &Reason{Code: code, Args: args}
		return v, nil
	}
	held, err := s.store.WalletHoldings(ctx, from, tier.ID)
	if err != nil {
		return v, err
	}
	ofTier := held.OfTier
	if tier.AllowlistUntil != nil && at.Before(*tier.AllowlistUntil) {
		allocation, err := s.store.Allocation(ctx, tier.ID, from, at)
		switch {
		case err != nil:
			return v, err
		case allocation == 0:
			return refuse(NotAllowlisted, Args{AllowlistUntil: utc(tier.AllowlistUntil)})
		case ofTier >= allocation:
			return refuse(AllocationUsed, Args{Allocation: allocation, AllowlistUntil: utc(tier.AllowlistUntil)})
		}
	} else if ofTier >= tier.MaxPerWallet {
		return refuse(WalletLimit, Args{MaxPerWallet: tier.MaxPerWallet})
	}
	factory := s.chain.Factory()
	walletMax, err := fromFactory(ctx, cs, "maxPerWallet()", &cs.factory.walletMax)
	if err != nil {
		return v, err
	}
	cs.read(&v, factory, "maxPerWallet()", walletMax)
	if cs.nearLimit(held, walletMax) {
		ids, err := cs.nodesOf(ctx, s.chain, from)
		if err != nil {
			return v, err
		}
		cs.read(&v, factory, "nodesOf("+from+")", ids)
		if len(ids)+held.Minting >= int(walletMax) {
			v.Reason = &Reason{Code: ContractWalletLimit, Args: Args{MaxPerWallet: int(walletMax)}}
			return v, nil
		}
	}
	paused, err := fromFactory(ctx, cs, "paused()", &cs.factory.paused)
	if err != nil {
		return v, err
	}
	cs.read(&v, factory, "paused()", paused)
	if paused {
		v.Reason = &Reason{Code: MintingPaused}
		return v, nil
	}
	if tier.HoldingToken == nil || tier.HoldingWei.Sign() <= 0 {
		return v, nil
	}
	token := common.HexToAddress(*tier.HoldingToken)
	bal, err := cs.balanceOf(ctx, s.chain, token, from)
	if err != nil {
		return v, err
	}
	cs.read(&v, token, "balanceOf("+from+")", bal.String())
	if bal.Cmp(tier.HoldingWei.Int) >= 0 {
		return v, nil
	}
	args := Args{HoldingToken: *tier.HoldingToken, HoldingWei: tier.HoldingWei, HeldWei: store.Uint256{Int: bal}}
	if info, err := s.chain.TokenInfo(ctx, token); err == nil {
		d := int(info.Decimals)
		args.TokenSymbol, args.TokenDecimals = info.Symbol, &d
	} else {
		s.log.Warn("payments: the holding token's symbol and decimals cannot be read", "token", *tier.HoldingToken, "err", err)
	}
	return refuse(HoldingTooLow, args)
}

// utc is *t in UTC, as reasons keep their times; nil for nil.
func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// SoldOutMeanwhile is why a payment judged to buy tier t buys nothing after all: other passes
// claimed the tier's last units (supply, of which sold were sold) between its judgement and its
// mint.
func SoldOutMeanwhile(t store.Tier, supply, sold int) *Reason {
	return &Reason{Code: SoldOut, Args: Args{Tier: &t.ID, TierLabel: t.Label, Supply: supply, Sold: sold}}
}

// Refused is why a payment whose mint the contract reverted buys nothing: the contract's custom
// error, when it could be read ("" otherwise).
func Refused(customError string) *Reason {
	return &Reason{Code: ContractRefused, Args: Args{Error: customError}}
}
