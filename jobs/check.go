package jobs

import (
	"context"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"nodeledger/store"
)

// checkPayments checks each pending payment: the ones that check out get a mint transaction,
// signed and stored and then sent; the others are rejected with their reason.
func (j *Jobs) checkPayments(ctx context.Context, sum *PaymentsSummary) error {
	pending, err := j.store.PaymentsByStatus(ctx, store.PaymentPending)
	if err != nil || len(pending) == 0 {
		return err
	}
	tiers, err := j.store.Tiers(ctx)
	if err != nil {
		return err
	}
	paused, err := j.chain.Paused(ctx)
	if err != nil {
		return err
	}
	walletMax, err := j.chain.MaxPerWallet(ctx)
	if err != nil {
		return err
	}
	for _, p := range pending {
		tier, reason, err := j.check(ctx, p, tiers, paused, walletMax)
		if err != nil {
			return err
		}
		if reason != nil {
			if err := j.store.RejectPayment(ctx, p.ID, *reason); err != nil {
				return err
			}
			sum.Rejected++
			sum.Reasons = append(sum.Reasons, *reason)
			continue
		}
		if err := j.signMint(ctx, p, tier.ID); err != nil {
			return err
		}
	}
	return nil
}

// check decides whether payment p becomes a node of some tier, or why not: a reason with the
// values it was decided on, for the sentence its buyer reads on the payment's page.
func (j *Jobs) check(ctx context.Context, p store.Payment, tiers []store.Tier, paused bool, walletMax uint32) (store.Tier, *store.Reason, error) {
	tier, ok := tierPriced(tiers, p.ValueWei.Int)
	if !ok {
		return store.Tier{}, notAPrice(p.ValueWei, tiers), nil
	}
	if paused {
		return tier, &store.Reason{Code: store.ReasonMintingPaused}, nil
	}
	ofTier, minting, err := j.store.WalletHoldings(ctx, p.From, tier.ID)
	if err != nil {
		return tier, nil, err
	}
	if ofTier >= tier.MaxPerWallet {
		return tier, &store.Reason{Code: store.ReasonWalletLimit, Args: store.ReasonArgs{
			Tier: &tier.ID, TierLabel: tier.Label, MaxPerWallet: tier.MaxPerWallet}}, nil
	}
	onChain, err := j.chain.NodesOf(ctx, common.HexToAddress(p.From))
	if err != nil {
		return tier, nil, err
	}
	if len(onChain)+minting >= int(walletMax) {
		return tier, &store.Reason{Code: store.ReasonContractWalletLimit, Args: store.ReasonArgs{MaxPerWallet: int(walletMax)}}, nil
	}
	if tier.HoldingToken != nil && tier.HoldingWei.Sign() > 0 {
		bal, err := j.chain.TokenBalance(ctx, common.HexToAddress(*tier.HoldingToken), common.HexToAddress(p.From))
		if err != nil {
			return tier, nil, err
		}
		if bal.Cmp(tier.HoldingWei.Int) < 0 {
			return tier, &store.Reason{Code: store.ReasonHoldingTooLow, Args: store.ReasonArgs{
				Tier: &tier.ID, TierLabel: tier.Label, HoldingToken: *tier.HoldingToken,
				HoldingWei: tier.HoldingWei, HeldWei: store.Uint256{Int: bal}}}, nil
		}
	}
	return tier, nil, nil
}

// notAPrice is why value buys no tier, with the prices that do.
func notAPrice(value store.Uint256, tiers []store.Tier) *store.Reason {
	var onSale []store.TierPrice
	for _, t := range tiers {
		if t.OnSale {
			onSale = append(onSale, store.TierPrice{ID: &t.ID, Label: t.Label, PriceWei: t.PriceWei})
		}
	}
	if len(onSale) == 0 {
		return &store.Reason{Code: store.ReasonNoTierOnSale, Args: store.ReasonArgs{PaidWei: value}}
	}
	return &store.Reason{Code: store.ReasonWrongAmount, Args: store.ReasonArgs{PaidWei: value, OnSale: onSale}}
}

// tierPriced is the tier on sale whose price is exactly value (the lowest id if several are).
func tierPriced(tiers []store.Tier, value *big.Int) (store.Tier, bool) {
	for _, t := range tiers {
		if t.OnSale && t.PriceWei.Cmp(value) == 0 {
			return t, true
		}
	}
	return store.Tier{}, false
}
