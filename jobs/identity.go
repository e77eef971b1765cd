package jobs

import (
	"context"
	"fmt"
	"log/slog"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"nodeledger/chain"
	"nodeledger/store"
)

// The money identity (issue 50 §5): what the ledger's rows of a block say moved in and out of the
// payments wallet and the treasury, in ETH and in each listed token, is what the chain's balances
// say the block moved (store.Flows names the rows). The balances are read at the ends of the
// range checked; where they part from the rows, the range is halved, the balance read at its
// middle, until the block where they part is found. A range that agrees costs one batch of
// reads; a block that does not, a read per halving. Two errors that cancel out inside one range
// checked go unseen: the event comparison and the digests still see each row.

// account is a wallet the identity watches and one currency of it.
type account struct {
	wallet store.WatchedWallet
	addr   common.Address // the wallet's
	token  store.Token    // Address "": ETH
}

// flowKey names an account's rows in store.Flows: its wallet and token ("": ETH).
type flowKey struct {
	wallet store.WatchedWallet
	token  string
}

func (a account) key() string { return string(a.wallet) + " " + a.token.Symbol }

// accounts are the wallets set in the configuration, each in ETH and in each listed token.
func (j *Jobs) accounts() []account {
	currencies := append([]store.Token{{Symbol: "ETH", Decimals: 18}}, j.cfg.PaymentTokens...)
	var out []account
	for _, w := range []struct {
		name store.WatchedWallet
		addr common.Address
	}{{store.WalletPayments, j.cfg.PaymentAddress}, {store.WalletTreasury, j.cfg.Treasury}} {
		if w.addr == (common.Address{}) {
			continue
		}
		for _, t := range currencies {
			out = append(out, account{wallet: w.name, addr: w.addr, token: t})
		}
	}
	return out
}

// MoneyIdentity holds the ledger's rows of blocks from..to (from no earlier than the scan's
// first block: the rows start there) against the chain's balances, and returns a difference for
// the first block of each wallet and currency where they part (kind "balance"): the ledger's
// side is what its rows say moved, the other the chain's balance change.
func (j *Jobs) MoneyIdentity(ctx context.Context, from, to int64) ([]store.EventDiff, error) {
	from = max(from, int64(j.cfg.ScanFrom), 1) // the genesis block moves nothing: it allocates
	accounts := j.accounts()
	if to < from || len(accounts) == 0 {
		return nil, nil
	}
	flows, err := j.store.Flows(ctx, from, to)
	if err != nil {
		return nil, err
	}
	moved := map[flowKey]map[int64]*big.Int{} // by account, then block
	for _, f := range flows {
		k := flowKey{f.Wallet, f.Token}
		if moved[k] == nil {
			moved[k] = map[int64]*big.Int{}
		}
		moved[k][f.Block] = f.Amount
	}
	ends := make([]chain.Holding, 0, 2*len(accounts))
	for _, a := range accounts {
		ends = append(ends, a.holding(uint64(from-1)), a.holding(uint64(to)))
	}
	if err := j.holdingsAt(ctx, ends); err != nil {
		return nil, err
	}
	var diffs []store.EventDiff
	for i, a := range accounts {
		rows := moved[flowKey{a.wallet, a.token.Address}]
		lo, hi := ends[2*i], ends[2*i+1]
		if rowsSum(rows, lo.Block, hi.Block).Cmp(change(lo, hi)) == 0 {
			continue
		}
		d, err := j.firstParting(ctx, a, rows, lo, hi)
		if err != nil {
			return nil, err
		}
		diffs = append(diffs, d)
	}
	return store.SortDiffs(diffs), nil
}

// IdentityOf is MoneyIdentity of ledger, of the deployment the settings log entries name (a
// rebuild from them and the chain c, or the ledger they are the log of), for blocks from..to.
func IdentityOf(ctx context.Context, ledger *store.Store, c *chain.Client, entries []store.LogEntry, from, to int64, log *slog.Logger) ([]store.EventDiff, error) {
	d, err := LastDeployment(entries)
	if err != nil {
		return nil, err
	}
	return New(ledger, c, nil, nil, ObserveConfig(d, uint64(max(to, 0))), log).MoneyIdentity(ctx, from, to)
}

// firstParting halves lo..hi, whose rows and balances part, down to one block where they part.
func (j *Jobs) firstParting(ctx context.Context, a account, rows map[int64]*big.Int, lo, hi chain.Holding) (store.EventDiff, error) {
	for hi.Block-lo.Block > 1 {
		mid := []chain.Holding{a.holding(lo.Block + (hi.Block-lo.Block)/2)}
		if err := j.holdingsAt(ctx, mid); err != nil {
			return store.EventDiff{}, err
		}
		if rowsSum(rows, lo.Block, mid[0].Block).Cmp(change(lo, mid[0])) != 0 {
			hi = mid[0]
		} else {
			lo = mid[0]
		}
	}
	return store.EventDiff{Block: int64(hi.Block), Kind: "balance", Key: a.key(),
		Live:    "the ledger's rows move " + signed(a.token, rowsSum(rows, lo.Block, hi.Block)),
		Rebuilt: "the chain's balance moves " + signed(a.token, change(lo, hi))}, nil
}

func (a account) holding(block uint64) chain.Holding {
	return chain.Holding{Holder: a.addr, Token: common.HexToAddress(a.token.Address), Block: block}
}

// holdingsAt reads hs from the chain.
func (j *Jobs) holdingsAt(ctx context.Context, hs []chain.Holding) error {
	if err := j.chain.HoldingsAt(ctx, hs); err != nil {
		return fmt.Errorf("the money identity reads the balances at the blocks it checks (an archive node keeps them all): %w", err)
	}
	return nil
}

// rowsSum is what rows say moved in blocks after `after` up to `to`.
func rowsSum(rows map[int64]*big.Int, after, to uint64) *big.Int {
	sum := new(big.Int)
	for b, amount := range rows {
		if b > int64(after) && b <= int64(to) {
			sum.Add(sum, amount)
		}
	}
	return sum
}

// change is what the balance did from a to b.
func change(a, b chain.Holding) *big.Int { return new(big.Int).Sub(b.Amount, a.Amount) }

// signed writes amount of t with its sign: "+1.5 ETH", "-300 USDC".
func signed(t store.Token, amount *big.Int) string {
	sign := "+"
	if amount.Sign() < 0 {
		sign = "-"
	}
	return sign + t.Units(new(big.Int).Abs(amount))
}
