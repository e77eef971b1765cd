package jobs

import (
	"context"
	"math/big"
	"sync"

	"github.com/ethereum/go-ethereum/common"
)

// Funds is what the factory's signers hold, and what a mint asks of the minter at today's fees.
// A nil field could not be read.
type Funds struct {
	Minter      *big.Int // the minter's balance
	Distributor *big.Int // the distributor's balance: the float credit rounds are paid from
	// MintCost is what the node asks the minter to hold for one mint: the gas limit a mint is
	// signed with times the fee cap the service signs with today (within MAX_FEE_GWEI).
	MintCost *big.Int
}

// MintsLeft is about how many more mints the minter's balance pays for at today's fees; nil
// when either is unknown.
func (f Funds) MintsLeft() *big.Int {
	if f.Minter == nil || f.MintCost == nil || f.MintCost.Sign() <= 0 {
		return nil
	}
	return new(big.Int).Quo(f.Minter, f.MintCost)
}

// Funds reads the signers' balances, as the factory names its minter and distributor (so the
// reading holds whoever signs for them), and the cost of a mint, and sets the balance metrics.
// The two signers are read side by side; a reading that fails is logged and left nil.
func (j *Jobs) Funds(ctx context.Context) Funds {
	var f Funds
	var wg sync.WaitGroup
	wg.Go(func() {
		minter, err := j.chain.Minter(ctx)
		if err == nil {
			f.Minter, err = j.chain.Balance(ctx, minter)
		}
		if err != nil {
			j.log.Warn("funds: the minter's balance is unreadable", "err", err)
			return
		}
		signerBalance.WithLabelValues("minter").Set(weiFloat(f.Minter))
		if f.MintCost, err = j.mintCost(ctx, minter); err != nil {
			j.log.Warn("funds: the cost of a mint is unreadable", "err", err)
		}
	})
	wg.Go(func() {
		distributor, err := j.chain.Distributor(ctx)
		if err == nil {
			f.Distributor, err = j.chain.Balance(ctx, distributor)
		}
		if err != nil {
			j.log.Warn("funds: the distributor's balance is unreadable", "err", err)
			return
		}
		signerBalance.WithLabelValues("distributor").Set(weiFloat(f.Distributor))
	})
	wg.Wait()
	return f
}

// mintCost is a mint's gas limit (estimated once per process: it depends on the contract, not on
// the day) times today's fee cap.
func (j *Jobs) mintCost(ctx context.Context, minter common.Address) (*big.Int, error) {
	gas := j.mintGas.Load()
	if gas == 0 {
		g, err := j.chain.MintGas(ctx, minter, 0)
		if err != nil {
			return nil, err
		}
		j.mintGas.Store(g)
		gas = g
	}
	feeCap, err := j.chain.FeeCap(ctx)
	if err != nil {
		return nil, err
	}
	if j.cfg.MaxFeeWei != nil && feeCap.Cmp(j.cfg.MaxFeeWei) > 0 {
		feeCap = j.cfg.MaxFeeWei
	}
	return new(big.Int).Mul(feeCap, new(big.Int).SetUint64(gas)), nil
}

// weiFloat is wei as a gauge holds it: a float, exact enough for an alert.
func weiFloat(wei *big.Int) float64 {
	f, _ := new(big.Float).SetInt(wei).Float64()
	return f
}
