package jobs

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"nodeledger/store"
)

// checkPayments checks each pending payment: the ones that check out get a mint transaction,
// signed and stored and then sent; the others are rejected with their reason.
func (j *Jobs) checkPayments(ctx context.Context, sum *PaymentsSummary) error {
	pending, err := j.store.PaymentsByStatus(ctx, "pending")
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
		if reason != "" {
			if err := j.store.RejectPayment(ctx, p.ID, reason); err != nil {
				return err
			}
			sum.Rejected++
			sum.Reasons = append(sum.Reasons, reason)
			continue
		}
		if err := j.signMint(ctx, p, tier.ID); err != nil {
			return err
		}
	}
	return nil
}

// check decides whether payment p becomes a node of some tier, or why not: a sentence its buyer
// reads on the payment's page, amounts in ETH.
func (j *Jobs) check(ctx context.Context, p store.Payment, tiers []store.Tier, paused bool, walletMax uint32) (store.Tier, string, error) {
	tier, ok := tierPriced(tiers, p.ValueWei.Int)
	if !ok {
		return store.Tier{}, notAPrice(p.ValueWei, tiers), nil
	}
	if paused {
		return tier, "Minting was paused on the contract when this payment was checked.", nil
	}
	ofTier, minting, err := j.store.WalletHoldings(ctx, p.From, tier.ID)
	if err != nil {
		return tier, "", err
	}
	if ofTier >= tier.MaxPerWallet {
		return tier, fmt.Sprintf("This wallet already holds the %s a wallet may have.", count(tier.MaxPerWallet, tier.Label+" node")), nil
	}
	onChain, err := j.chain.NodesOf(ctx, common.HexToAddress(p.From))
	if err != nil {
		return tier, "", err
	}
	if len(onChain)+minting >= int(walletMax) {
		return tier, fmt.Sprintf("This wallet already holds %s, the most the contract allows one wallet.", count(int(walletMax), "node")), nil
	}
	if tier.HoldingToken != nil && tier.HoldingWei.Sign() > 0 {
		bal, err := j.chain.TokenBalance(ctx, common.HexToAddress(*tier.HoldingToken), common.HexToAddress(p.From))
		if err != nil {
			return tier, "", err
		}
		if bal.Cmp(tier.HoldingWei.Int) < 0 {
			return tier, fmt.Sprintf("The %s tier asks the wallet to hold %s units of the token %s; it holds %s.",
				tier.Label, tier.HoldingWei, *tier.HoldingToken, bal), nil
		}
	}
	return tier, "", nil
}

// notAPrice says why value buys no tier, with the prices that do.
func notAPrice(value store.Uint256, tiers []store.Tier) string {
	var prices []string
	for _, t := range tiers {
		if t.OnSale {
			verb := "" // "the One tier costs 0.1 ETH and the Two tier 1 ETH"
			if len(prices) == 0 {
				verb = "costs "
			}
			prices = append(prices, fmt.Sprintf("the %s tier %s%s ETH", t.Label, verb, t.PriceWei.ETH()))
		}
	}
	n := len(prices)
	if n == 0 {
		return fmt.Sprintf("%s ETH was paid while no tier was on sale.", value.ETH())
	}
	list := prices[0]
	if n > 1 {
		list = strings.Join(prices[:n-1], ", ") + " and " + prices[n-1]
	}
	return fmt.Sprintf("%s ETH is not the price of any tier on sale; %s.", value.ETH(), list)
}

// count is "1 node" or "3 nodes".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
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
