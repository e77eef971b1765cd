package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"nodeledger/chain"
	"nodeledger/jobs/sale"
	"nodeledger/store"
)

// RebuildSummary is what a rebuild wrote.
type RebuildSummary struct {
	FromBlock, ToBlock uint64
	Payments           int // recorded, each with its verdict
	Minted, Rejected   int
	Passes             int
	DigestedTo         uint64
	// Unsettled are the payments left without a verdict: claimed, and neither minted nor skipped
	// by the factory (a mint that reverted as a whole).
	Unsettled int
}

// ErrNoDeployment is a settings log with no deployment entry: a rebuild cannot tell which
// chain, factory and wallet the ledger followed.
var ErrNoDeployment = errors.New("the settings log holds no deployment entry: start the service once on this database first, so that it logs its settings")

// LastDeployment is the last deployment entry of entries.
func LastDeployment(entries []store.LogEntry) (store.Deployment, error) {
	for i := len(entries) - 1; i >= 0; i-- {
		if entries[i].Kind != store.LogDeployment {
			continue
		}
		var d store.Deployment
		if err := json.Unmarshal(entries[i].Body, &d); err != nil {
			return d, fmt.Errorf("settings log entry %d: %w", entries[i].Seq, err)
		}
		return d, nil
	}
	return store.Deployment{}, ErrNoDeployment
}

// ObserveConfig is the passes' configuration for a rebuild of the ledger deployment d kept: what
// they judge and record by, with nothing to sign (Config.Observe), up to block to (0: the
// confirmed head).
func ObserveConfig(d store.Deployment, to uint64) Config {
	cfg := Config{
		ChainID: big.NewInt(d.ChainID), PaymentAddress: common.HexToAddress(d.PaymentsWallet), Confirmations: d.Confirmations,
		ScanFrom: d.ScanFrom, ScanTo: to, ScanEveryBlock: d.ScanEveryBlock, PriceGrace: time.Duration(d.PriceGraceSec) * time.Second,
		KYCHold:       time.Duration(d.KYCHoldDays) * 24 * time.Hour,
		WalletCodes:   sale.WalletCodes{DiscountBps: d.WalletCodes.DiscountBps, CommissionBps: d.WalletCodes.CommissionBps},
		PaymentTokens: d.Tokens, Observe: true,
		// A rebuild reads as fast as the RPC answers: long passes, every pending payment judged.
		BlocksPerPass: 100_000, ChecksPerPass: 100_000,
	}
	if d.Treasury != nil {
		cfg.Treasury = common.HexToAddress(*d.Treasury)
	}
	return cfg
}

// Rebuild writes into db, an empty ledger, the ledger that the settings log entries (every one
// from the first) and the chain c give, up to block to (0: the chain's confirmed head when it
// starts): the settings replayed, then the payments and reconciler passes run as the service
// runs them, in observe mode, until the scans reach it and every payment has its verdict. The
// judgements reuse the chain reads of reads' judgements (Config.ReadsFrom; nil: the chain is read
// at each payment's block). It signs and sends nothing. c must be on the deployment's chain,
// with its factory.
func Rebuild(ctx context.Context, db *store.Store, c *chain.Client, entries []store.LogEntry, reads Reads, to uint64, log *slog.Logger) (sum RebuildSummary, err error) {
	d, err := LastDeployment(entries)
	if err != nil {
		return sum, err
	}
	if to, err = checkChain(ctx, c, d, to); err != nil {
		return sum, err
	}
	if held, err := db.HoldsLedger(ctx); err != nil {
		return sum, err
	} else if held {
		return sum, store.ErrNotEmpty
	}
	if err := db.ReplaySettings(ctx, entries); err != nil {
		return sum, err
	}
	cfg := ObserveConfig(d, to)
	cfg.ReadsFrom = reads
	j := New(db, c, nil, nil, cfg, log)
	sum.FromBlock, sum.ToBlock = d.ScanFrom, to
	err = j.observeTo(ctx, to, &sum)
	return sum, err
}

// checkChain checks that c reads deployment d's chain and factory, and returns the block a
// rebuild goes to: to, or the chain's confirmed head for 0.
func checkChain(ctx context.Context, c *chain.Client, d store.Deployment, to uint64) (uint64, error) {
	if id, err := c.ChainID(ctx); err != nil {
		return 0, err
	} else if id.Int64() != d.ChainID {
		return 0, fmt.Errorf("the RPC serves chain %d; the settings log's deployment is on chain %d", id, d.ChainID)
	}
	if c.Factory() != common.HexToAddress(d.Factory) {
		return 0, fmt.Errorf("the chain client reads factory %s; the settings log's deployment has %s", c.Factory().Hex(), d.Factory)
	}
	if to > 0 {
		return to, nil
	}
	head, err := c.HeadNumber(ctx)
	if err != nil {
		return 0, err
	}
	if head < d.Confirmations {
		return 0, fmt.Errorf("the chain's head %d is not %d blocks deep yet", head, d.Confirmations)
	}
	return head - d.Confirmations, nil
}

// observeTo runs the payments and reconciler passes, in observe mode, until both scans reach
// block to and every payment has its verdict, then one payments pass more for the digests.
func (j *Jobs) observeTo(ctx context.Context, to uint64, sum *RebuildSummary) error {
	for last := -1; ; sum.Passes++ {
		p, err := j.Payments(ctx)
		if err != nil {
			return fmt.Errorf("payments pass: %w", err)
		}
		sum.Payments += p.Seen
		sum.Minted += p.Minted
		sum.Rejected += p.Rejected
		if _, err := j.Reconcile(ctx); err != nil {
			return fmt.Errorf("reconciler pass: %w", err)
		}
		scanned, unsettled, err := j.rebuilt(ctx, to)
		if err != nil {
			return err
		}
		// A claimed payment whose reference the factory neither minted nor skipped (its mint
		// reverted as a whole, and the chain's logs say nothing of it) waits for no pass.
		if scanned && (unsettled == 0 || unsettled == last) {
			sum.Unsettled = unsettled
			break
		}
		last = unsettled
	}
	// The digests wait for both scans: one more pass digests what the reconciler read last.
	p, err := j.Payments(ctx)
	sum.Passes++
	sum.DigestedTo = p.DigestedTo
	return err
}

// rebuilt tells whether both scans reached block to, and how many payments have no verdict yet.
func (j *Jobs) rebuilt(ctx context.Context, to uint64) (scanned bool, unsettled int, _ error) {
	for _, name := range []string{store.PaymentsScanner, reconcileCursor} {
		cur, err := j.store.Cursor(ctx, name)
		if errors.Is(err, store.ErrNotFound) || err == nil && uint64(cur.Number) < to {
			return false, 0, nil
		}
		if err != nil {
			return false, 0, err
		}
	}
	unsettled, err := j.store.UnsettledPayments(ctx)
	return err == nil, unsettled, err
}
