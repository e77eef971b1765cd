package jobs

import (
	"context"
	"errors"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"nodeledger/chain"
	"nodeledger/chain/devchain"
	"nodeledger/store"
)

// sweepEnv is newEnv with sweeps on: the payments wallet (dev account 9, 10,000 ETH) swept to the
// dev chain's treasury Safe above keep, at 1 ETH or every 5 blocks.
func sweepEnv(t *testing.T, keep *big.Int) *env {
	t.Helper()
	e := newEnv(t)
	e.cfg.Treasury = e.dc.Treasury
	e.cfg.Sweep = SweepConfig{Signer: chain.LocalSigner(e.dc.Accounts[devchain.PaymentsIndex].Key), KeepWei: keep, EveryBlocks: 5}
	e.j = e.restart()
	return e
}

func (e *env) balance(a common.Address) *big.Int {
	e.t.Helper()
	b, err := e.c.Balance(e.t.Context(), a)
	if err != nil {
		e.t.Fatal(err)
	}
	return b
}

// sweepUntilSettled runs sweep passes on j until one records the open sweep's end.
func (e *env) sweepUntilSettled(j *Jobs) *store.Sweep {
	e.t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		sum, err := j.Sweep(e.t.Context())
		if err != nil {
			e.t.Fatalf("sweep pass: %v", err)
		}
		if sum.Settled != nil {
			return sum.Settled
		}
		time.Sleep(50 * time.Millisecond)
	}
	e.t.Fatal("the sweep was never settled")
	return nil
}

// sweeps are every sweep in the ledger, oldest first.
func (e *env) sweeps() []store.Sweep {
	e.t.Helper()
	var out []store.Sweep
	if err := e.db.DB().Select(&out, `SELECT `+sweepColumnsForTest+` FROM sweeps s ORDER BY id`); err != nil {
		e.t.Fatal(err)
	}
	return out
}

const sweepColumnsForTest = `s.id, s.from_address, s.to_address, s.amount_wei, s.status, s.tx_hash, s.block_number, s.created_at`

// TestSweep: what the payments wallet holds above SWEEP_KEEP_WEI goes to the treasury in one
// transfer, less room for its fees; every wei is either in the treasury, in the wallet, or
// paid as the sweep's fee; the sweep is audited; nothing is swept twice; a small excess waits
// for SWEEP_EVERY_BLOCKS.
func TestSweep(t *testing.T) {
	t.Parallel()
	keep := new(big.Int).Mul(big.NewInt(100), ether)
	e := sweepEnv(t, keep)
	wallet, treasury := e.dc.Payments, e.dc.Treasury
	walletBefore, treasuryBefore := e.balance(wallet), e.balance(treasury)

	sum, err := e.j.Sweep(t.Context())
	if err != nil || sum.Sent == nil {
		t.Fatalf("first pass: %+v, %v: want a sweep sent", sum, err)
	}
	done := e.sweepUntilSettled(e.j)
	if done.Status != store.SweepSwept || done.ID != sum.Sent.ID {
		t.Fatalf("settled %+v, want sweep %d swept", done, sum.Sent.ID)
	}
	r := e.receipt(common.HexToHash(done.TxHash))
	fee := new(big.Int).Mul(new(big.Int).SetUint64(r.GasUsed), r.EffectiveGasPrice)
	walletAfter, treasuryAfter := e.balance(wallet), e.balance(treasury)
	got := new(big.Int).Sub(treasuryAfter, treasuryBefore)
	if got.Cmp(done.AmountWei.Int) != 0 {
		t.Fatalf("the treasury received %s wei, the sweep sent %s", got, done.AmountWei)
	}
	if total := new(big.Int).Add(new(big.Int).Add(walletAfter, got), fee); total.Cmp(walletBefore) != 0 {
		t.Fatalf("wallet %s + swept %s + fee %s = %s, want the %s the wallet held", walletAfter, got, fee, total, walletBefore)
	}
	if walletAfter.Cmp(keep) < 0 || new(big.Int).Sub(walletAfter, keep).Cmp(ether) >= 0 {
		t.Fatalf("the wallet keeps %s wei: want SWEEP_KEEP_WEI (%s) and no more than the fee's room", walletAfter, keep)
	}
	var audited []store.AuditOutcomeCode
	if err := e.db.DB().Select(&audited, `SELECT outcome_code FROM operator_audit WHERE action = 'treasury.sweep' ORDER BY id`); err != nil {
		t.Fatal(err)
	}
	if len(audited) != 2 || audited[0] != store.OutcomeSweepSent || audited[1] != store.OutcomeSweepDone {
		t.Fatalf("audit %v, want sweep_sent then sweep_done", audited)
	}
	last, err := e.db.LastSweep(t.Context())
	if err != nil || last == nil || last.TxHash != done.TxHash {
		t.Fatalf("last sweep %+v, %v", last, err)
	}

	// Nothing above what the wallet keeps: no sweep.
	if sum, err := e.j.Sweep(t.Context()); err != nil || sum.Sent != nil {
		t.Fatalf("pass after the sweep: %+v, %v: want nothing sent", sum, err)
	}

	t.Run("a small excess waits SWEEP_EVERY_BLOCKS", func(t *testing.T) {
		e.pay(0, wallet, new(big.Int).Div(ether, big.NewInt(2)))
		sum, err := e.j.Sweep(t.Context())
		if err != nil || sum.Sent != nil || sum.Reason == "" {
			t.Fatalf("%+v, %v: want the half ether to wait", sum, err)
		}
		w, err := e.db.Watch(t.Context())
		if err != nil || w.ExcessSince == nil || w.OverMinSince != nil {
			t.Fatalf("watch %+v, %v: want excess since a head, not over the minimum", w, err)
		}
		for e.head() < uint64(*w.ExcessSince)+5 {
			e.dc.Commit()
		}
		sum, err = e.j.Sweep(t.Context())
		if err != nil || sum.Sent == nil {
			t.Fatalf("%+v, %v: want the sweep once SWEEP_EVERY_BLOCKS passed", sum, err)
		}
		if e.sweepUntilSettled(e.j).Status != store.SweepSwept {
			t.Fatal("the second sweep did not reach the treasury")
		}
		if n := len(e.sweeps()); n != 2 {
			t.Fatalf("%d sweeps, want 2", n)
		}
	})
}

// TestSweepCrash: a pass stopped after the sweep is stored and before it is sent, or right after
// it is sent, leaves a sweep the next process sends (the very transaction) and records: the
// treasury receives it once, and no second sweep goes out beside it.
func TestSweepCrash(t *testing.T) {
	t.Parallel()
	for _, step := range []string{"sweep.stored", "sweep.sent"} {
		t.Run(step, func(t *testing.T) {
			e := sweepEnv(t, new(big.Int))
			treasuryBefore := e.balance(e.dc.Treasury)
			e.j.crash = crashAt(step, 1)
			if _, err := e.j.Sweep(t.Context()); !errors.Is(err, errCrash) {
				t.Fatalf("pass: %v, want the crash", err)
			}
			sw := e.sweeps()
			if len(sw) != 1 || sw[0].Status != store.SweepSending {
				t.Fatalf("sweeps after the crash %+v, want one sending", sw)
			}
			j := e.restart()
			done := e.sweepUntilSettled(j)
			if done.Status != store.SweepSwept || done.TxHash != sw[0].TxHash {
				t.Fatalf("settled %+v, want the stored transaction %s swept", done, sw[0].TxHash)
			}
			if sum, err := j.Sweep(t.Context()); err != nil || sum.Sent != nil {
				t.Fatalf("the pass after: %+v, %v: want nothing more to sweep", sum, err)
			}
			if n := len(e.sweeps()); n != 1 {
				t.Fatalf("%d sweeps, want 1", n)
			}
			if got := new(big.Int).Sub(e.balance(e.dc.Treasury), treasuryBefore); got.Cmp(done.AmountWei.Int) != 0 {
				t.Fatalf("the treasury received %s wei, want the sweep's %s once", got, done.AmountWei)
			}
		})
	}
}

// TestSweepVoid: a sweep stored but never sent whose nonce a refund by hand from the payments
// wallet takes is void, its ETH never left; the next pass sweeps afresh from what is left.
func TestSweepVoid(t *testing.T) {
	t.Parallel()
	e := sweepEnv(t, new(big.Int))
	e.j.crash = crashAt("sweep.stored", 1)
	if _, err := e.j.Sweep(t.Context()); !errors.Is(err, errCrash) {
		t.Fatalf("pass: %v, want the crash", err)
	}
	// A refund by hand takes the nonce the stored sweep was signed at.
	e.sendValue(e.dc.Accounts[devchain.PaymentsIndex].Key, e.buyer(0), nil, tenth)
	j := e.restart()
	if done := e.sweepUntilSettled(j); done.Status != store.SweepVoid {
		t.Fatalf("settled %+v, want void", done)
	}
	sum, err := j.Sweep(t.Context())
	if err != nil || sum.Sent == nil {
		t.Fatalf("%+v, %v: want a new sweep", sum, err)
	}
	if done := e.sweepUntilSettled(j); done.Status != store.SweepSwept {
		t.Fatalf("the new sweep %+v, want swept", done)
	}
	sw := e.sweeps()
	if len(sw) != 2 || sw[0].Status != store.SweepVoid || sw[1].Status != store.SweepSwept {
		t.Fatalf("sweeps %+v, want one void and one swept", sw)
	}
}

// TestSweepsOff: without a treasury or a signer for the payments wallet the pass does nothing,
// and says why.
func TestSweepsOff(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for name, cfg := range map[string]func(*Config){
		"no treasury": func(c *Config) {
			c.Sweep.Signer = chain.LocalSigner(e.dc.Accounts[devchain.PaymentsIndex].Key)
		},
		"no signer": func(c *Config) { c.Treasury = e.dc.Treasury },
	} {
		t.Run(name, func(t *testing.T) {
			c := e.cfg
			cfg(&c)
			j := New(e.db, e.c, nil, nil, c, e.j.log)
			sum, err := j.Sweep(context.Background())
			if err != nil || sum.Ran || sum.Reason == "" || j.SweepsOff() == SweepsOn {
				t.Fatalf("%+v, %v, off %q: want no pass, and why", sum, err, j.SweepsOff())
			}
		})
	}
}
