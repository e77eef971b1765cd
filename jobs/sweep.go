package jobs

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"nodeledger/chain"
	"nodeledger/store"
)

// SweepConfig says when the payments wallet's money goes to the treasury: what it holds above
// KeepWei, once that reaches MinWei, or EveryBlocks after it first held anything above KeepWei.
type SweepConfig struct {
	// Signer signs for the payments wallet (PAYMENTS_SIGNER, PAYMENTS_KEY); nil: no sweeps.
	Signer      chain.Signer
	KeepWei     *big.Int // SWEEP_KEEP_WEI
	MinWei      *big.Int // SWEEP_MIN_WEI
	EveryBlocks uint64   // SWEEP_EVERY_BLOCKS
}

// The sweep settings unset: everything is swept, once it reaches 1 ETH, or every 300 blocks (an
// hour on mainnet).
const (
	DefaultSweepMinWei      = 1_000_000_000_000_000_000
	DefaultSweepEveryBlocks = 300
)

func (c SweepConfig) withDefaults() SweepConfig {
	if c.KeepWei == nil {
		c.KeepWei = new(big.Int)
	}
	if c.MinWei == nil {
		c.MinWei = big.NewInt(DefaultSweepMinWei)
	}
	if c.EveryBlocks == 0 {
		c.EveryBlocks = DefaultSweepEveryBlocks
	}
	return c
}

// Step boundaries of a sweep, past the outbox's, where a test may stop the pass.
const stepSweepSettled step = "sweep.settled" // its end is in the ledger

// SweepSummary is what one sweep pass did.
type SweepSummary struct {
	Ran    bool   `json:"ran"`
	Reason string `json:"reason,omitempty"`
	// Sent is the sweep this pass signed and sent; Settled the one it saw end (swept, failed or
	// void).
	Sent    *store.Sweep `json:"sent,omitempty"`
	Settled *store.Sweep `json:"settled,omitempty"`
}

// SweepsOff says why there are no sweeps: a stable word, which health writes as a sentence.
type SweepsOff string

const (
	SweepsOn              SweepsOff = ""
	SweepsNoTreasury      SweepsOff = "no_treasury"        // TREASURY_ADDRESS unset
	SweepsNoPaymentWallet SweepsOff = "no_payments_wallet" // PAYMENT_ADDRESS unset
	SweepsNoSigner        SweepsOff = "no_payments_signer" // neither PAYMENTS_SIGNER nor PAYMENTS_KEY
)

// SweepsOff says why there are no sweeps; SweepsOn when there are.
func (j *Jobs) SweepsOff() SweepsOff {
	switch {
	case j.cfg.Treasury == (common.Address{}):
		return SweepsNoTreasury
	case j.cfg.PaymentAddress == (common.Address{}):
		return SweepsNoPaymentWallet
	case j.sweeper == nil:
		return SweepsNoSigner
	}
	return SweepsOn
}

// Sweep runs one sweep pass: it follows the sweep under way until it is mined (replacing it
// with higher fees when it waits, as every transaction of the outbox), and otherwise sends
// what the payments wallet holds above KeepWei to the treasury when it is due. One sweep is
// under way at a time, and a sweep is stored signed before it is sent, so a pass stopped at any
// instant leaves a sweep the next pass sends again or records, never a second one beside it.
func (j *Jobs) Sweep(ctx context.Context) (_ SweepSummary, err error) {
	if off := j.SweepsOff(); off != SweepsOn {
		return SweepSummary{Reason: "sweeps are off: " + string(off)}, nil
	}
	ctx, end, ok, err := j.startPass(ctx, store.LockSweep, store.PassSweep, &err)
	if err != nil {
		return SweepSummary{}, err
	}
	defer end()
	if !ok {
		return SweepSummary{Reason: "another sweep pass is running"}, nil
	}
	sum := SweepSummary{Ran: true}
	// Another instance, or a person refunding by hand, may have used the wallet's nonces.
	j.sweeper.sender.ResetNonce()
	open, err := j.store.OpenSweep(ctx)
	if err != nil {
		return sum, err
	}
	if open != nil {
		return sum, j.followSweep(ctx, open, &sum)
	}
	return sum, j.startSweep(ctx, &sum)
}

// sweepActor is who sweeps, in the audit: the service, through the payments wallet's signer.
func (j *Jobs) sweepActor() store.Actor {
	return store.Actor{Who: "service: payments wallet " + hexLower(j.sweeper.sender.From)}
}

// followSweep sends the open sweep again unless it is mined (the node may never have had it: a
// crash between storing and sending), waits a moment for it, replaces it when it waited
// BumpBlocks blocks, and records it once it is mined, or void when another transaction of the
// wallet took its nonce: the next pass then decides afresh from what the wallet holds.
func (j *Jobs) followSweep(ctx context.Context, sw *store.Sweep, sum *SweepSummary) error {
	o, err := j.sweeper.open(ctx, []store.TxFor{{SweepID: sw.ID}}, [][]byte{sw.Raw})
	if err != nil {
		return err
	}
	state, err := j.sweeper.resume(ctx, o[0])
	if err == nil && state != txDead {
		state, err = j.sweeper.await(ctx, o[0], time.Now())
	}
	if err != nil {
		return fmt.Errorf("sweep %d: %w", sw.ID, err)
	}
	switch state {
	case txWaiting:
		return nil
	case txDead:
		err = j.store.SettleSweep(ctx, sw.ID, store.SweepVoid, "", 0, j.sweepActor())
		sw.Status = store.SweepVoid
	case txMined:
		r := o[0].receipt
		sw.Status, sw.TxHash = store.SweepSwept, hexLower(r.TxHash)
		if r.Status != types.ReceiptStatusSuccessful {
			sw.Status = store.SweepFailed
		}
		block := r.BlockNumber.Int64()
		sw.BlockNumber = &block
		err = j.store.SettleSweep(ctx, sw.ID, sw.Status, sw.TxHash, block, j.sweepActor())
	}
	if err != nil {
		return err
	}
	sum.Settled = sw
	if err := j.step(stepSweepSettled); err != nil {
		return err
	}
	if sw.Status == store.SweepFailed {
		return fmt.Errorf("sweep %d to the treasury reverted in transaction %s", sw.ID, sw.TxHash)
	}
	return nil
}

// startSweep sends what the payments wallet holds above KeepWei to the treasury, less the fees
// its transfer may need, when that reaches MinWei or has waited EveryBlocks; when no ETH is due,
// a listed token's balance (tokenDue). Amounts are read from the lower of the wallet's balance at
// the head and CONFIRMATIONS blocks back, so that a payment a reorg may still take away is not
// swept before it is confirmed; nothing is swept while another transaction of the wallet waits
// in the pool (a refund by hand), whose value the balance does not show yet.
func (j *Jobs) startSweep(ctx context.Context, sum *SweepSummary) error {
	head, err := j.chain.HeadNumber(ctx)
	if err != nil {
		return err
	}
	eth, reason, err := j.ethDue(ctx, head)
	if err != nil {
		return err
	}
	var token *store.Token
	var tokens *big.Int
	if eth == nil {
		if token, tokens, err = j.tokenDue(ctx, head); err != nil || tokens == nil {
			sum.Reason = reason
			return err
		}
	}
	from, to := j.cfg.PaymentAddress, j.cfg.Treasury
	mined, pending, err := j.chain.Nonces(ctx, from)
	if err != nil {
		return err
	}
	if pending > mined {
		sum.Reason = "a transaction of the payments wallet waits to be mined: the sweep waits for it"
		return nil
	}
	fees, err := j.sweeper.sender.Fees(ctx)
	if err != nil {
		return err
	}
	sweep := store.NewSweep{To: hexLower(to), Actor: j.sweepActor()}
	var tx *types.Transaction
	if eth != nil {
		if tx, reason, err = j.signETHSweep(ctx, fees, eth); err != nil {
			return err
		}
		sweep.AmountWei = store.Uint256{Int: eth}
		if tx == nil { // too little ETH to pay its own fees: a token may still be due
			if token, tokens, err = j.tokenDue(ctx, head); err != nil || tokens == nil {
				sum.Reason = reason
				return err
			}
		}
	}
	if tx == nil {
		if tx, sum.Reason, err = j.signTokenSweep(ctx, fees, *token, tokens); err != nil || tx == nil {
			return err
		}
		sweep.AmountWei, sweep.Token = store.Uint256{Int: tokens}, &token.Address
	}
	o, err := j.sweeper.post(ctx, store.TxFor{Sweep: &sweep}, tx, head)
	if err != nil {
		return err
	}
	sum.Sent = &store.Sweep{ID: o.row.SweepID, From: hexLower(from), To: hexLower(to), AmountWei: sweep.AmountWei, Token: sweep.Token,
		Status: store.SweepSending, TxHash: hexLower(tx.Hash())}
	j.log.Info("sweep: sent to the treasury", "sweep", o.row.SweepID, "amount", sweep.AmountWei, "token", sweep.Token, "tx", tx.Hash())
	return nil
}

// signETHSweep signs the transfer of amount, less room for its fees to double while it waits
// (the outbox bumps it at the same value), to the treasury; amount is left what it sends. nil,
// with why, when nothing is left.
func (j *Jobs) signETHSweep(ctx context.Context, fees chain.Fees, amount *big.Int) (*types.Transaction, string, error) {
	gas, err := j.sweepGas(ctx)
	if err != nil {
		return nil, "", err
	}
	amount.Sub(amount, new(big.Int).Mul(fees.Cap, new(big.Int).SetUint64(2*gas)))
	if amount.Sign() <= 0 {
		return nil, "what the wallet holds above what it keeps does not pay the sweep's fees", nil
	}
	to := j.cfg.Treasury
	tx, err := j.sweeper.sender.SignWith(ctx, fees, gas, &to, nil, amount)
	return tx, "", err
}

// signTokenSweep signs token's transfer(treasury, amount). The wallet pays its gas in ETH, which
// an ETH sweep leaves it only above SWEEP_KEEP_WEI: nil, with why, when it holds too little.
func (j *Jobs) signTokenSweep(ctx context.Context, fees chain.Fees, token store.Token, amount *big.Int) (*types.Transaction, string, error) {
	from, to, addr := j.cfg.PaymentAddress, j.cfg.Treasury, common.HexToAddress(token.Address)
	gas, err := j.chain.TokenTransferGas(ctx, from, addr, to, amount)
	if err != nil {
		return nil, "", fmt.Errorf("sweep of %s: %w", token.Symbol, err)
	}
	balance, err := j.chain.Balance(ctx, from)
	if err != nil {
		return nil, "", err
	}
	if need := new(big.Int).Mul(fees.Cap, new(big.Int).SetUint64(2*gas)); balance.Cmp(need) < 0 {
		return nil, fmt.Sprintf("the payments wallet holds %s wei, too little to pay for a sweep of %s (%s wei): set SWEEP_KEEP_WEI to keep ETH for its gas",
			balance, token.Symbol, need), nil
	}
	tx, err := j.sweeper.sender.SignWith(ctx, fees, gas, &addr, chain.TokenTransferData(to, amount), nil)
	return tx, "", err
}

// ethDue is what the payments wallet holds above KeepWei when it is due to be swept (it reaches
// MinWei, or has waited EveryBlocks since the wallet first held it); nil otherwise, with why.
func (j *Jobs) ethDue(ctx context.Context, head uint64) (*big.Int, string, error) {
	from, cfg := j.cfg.PaymentAddress, j.cfg.Sweep
	excess, err := j.confirmedBalance(ctx, head, cfg.KeepWei, func(block *big.Int) (*big.Int, error) { return j.chain.BalanceAt(ctx, from, block) })
	if err != nil {
		return nil, "", err
	}
	excess.Sub(excess, cfg.KeepWei)
	w, err := j.store.SetWatch(ctx, int64(head), excess.Sign() > 0, excess.Cmp(cfg.MinWei) >= 0)
	if err != nil || excess.Sign() <= 0 {
		return nil, "", err
	}
	if excess.Cmp(cfg.MinWei) < 0 && head < uint64(*w.ExcessSince)+cfg.EveryBlocks {
		return nil, fmt.Sprintf("%s wei above what the wallet keeps: swept once it reaches SWEEP_MIN_WEI, or at block %d",
			excess, uint64(*w.ExcessSince)+cfg.EveryBlocks), nil
	}
	return excess, "", nil
}

// tokenDue is the first listed token (by address) the payments wallet holds any of, confirmed,
// and has not swept for EveryBlocks blocks, with the amount to sweep: all of it. nil when none.
func (j *Jobs) tokenDue(ctx context.Context, head uint64) (*store.Token, *big.Int, error) {
	for _, t := range j.cfg.PaymentTokens {
		last, err := j.store.LastTokenSweep(ctx, t.Address)
		if err != nil {
			return nil, nil, err
		}
		if last != nil && head < uint64(*last)+j.cfg.Sweep.EveryBlocks {
			continue
		}
		token := common.HexToAddress(t.Address)
		held, err := j.confirmedBalance(ctx, head, new(big.Int), func(block *big.Int) (*big.Int, error) {
			return j.chain.TokenBalanceAt(ctx, token, j.cfg.PaymentAddress, block)
		})
		if err != nil {
			return nil, nil, err
		}
		if held.Sign() > 0 {
			return &t, held, nil
		}
	}
	return nil, nil, nil
}

// confirmedBalance is the lower of balance at the head and CONFIRMATIONS blocks before it (read
// only when the head's is above keep: below it, nothing is swept anyway).
func (j *Jobs) confirmedBalance(ctx context.Context, head uint64, keep *big.Int, balance func(block *big.Int) (*big.Int, error)) (*big.Int, error) {
	now, err := balance(nil)
	if err != nil || now.Cmp(keep) <= 0 || head <= j.cfg.Confirmations {
		return now, err
	}
	then, err := balance(new(big.Int).SetUint64(head - j.cfg.Confirmations))
	if err != nil {
		return nil, err
	}
	if then.Cmp(now) < 0 {
		return then, nil
	}
	return now, nil
}

// sweepGas is the gas limit of a sweep: a transfer to the treasury, whose receive runs the Safe's
// code (more than a plain transfer's 21,000); estimated once per process, with the usual margin.
func (j *Jobs) sweepGas(ctx context.Context) (uint64, error) {
	if g := j.sweepGasLimit.Load(); g != 0 {
		return g, nil
	}
	g, err := j.chain.TransferGas(ctx, j.cfg.PaymentAddress, j.cfg.Treasury)
	if err != nil {
		return 0, err
	}
	j.sweepGasLimit.Store(g)
	return g, nil
}

// Sweeps is where the sweeps stand, for health: why they are off (Off, "" when on), the
// settings, the last sweep that reached the treasury, and since which head the payments wallet
// has held more than MinWei above what it keeps (Overdue once that lasts twice EveryBlocks:
// sweeps that should have gone out and have not). Read from the ledger, so that any instance's
// health says the same.
type Sweeps struct {
	Off          SweepsOff
	Config       SweepConfig
	Last         *store.Sweep
	OverMinSince *int64
	Overdue      bool
}

// Sweeps reads where the sweeps stand at head.
func (j *Jobs) Sweeps(ctx context.Context, head uint64) (Sweeps, error) {
	s := Sweeps{Off: j.SweepsOff(), Config: j.cfg.Sweep}
	if s.Off != SweepsOn {
		return s, nil
	}
	w, err := j.store.Watch(ctx)
	if err != nil {
		return s, err
	}
	if s.Last, err = j.store.LastSweep(ctx); err != nil {
		return s, err
	}
	s.OverMinSince = w.OverMinSince
	s.Overdue = w.OverMinSince != nil && head > uint64(*w.OverMinSince)+2*j.cfg.Sweep.EveryBlocks
	return s, nil
}
