package jobs

import (
	"context"
	"errors"
	"slices"
	"time"

	"nodeledger/store"
)

// VerifySummary is what one pass of the continuous verifier did.
type VerifySummary struct {
	Ran    bool   `json:"ran"`
	Reason string `json:"reason,omitempty"`
	// RebuiltTo is how far the rebuild behind the ledger has read; VerifiedTo how far the
	// ledger agrees with it.
	RebuiltTo  uint64 `json:"rebuiltToBlock,omitempty"`
	VerifiedTo int64  `json:"verifiedToBlock,omitempty"`
	// MismatchBlock is the first block where the ledger differs from its rebuild (0: none).
	MismatchBlock int64 `json:"mismatchBlock,omitempty"`
}

// Verify is one pass of the continuous verifier (issue 50 §5), when Config.VerifyInto is set:
// the ledger is rebuilt behind the passes, a step at a time, into that scratch ledger (the new
// settings log entries replayed, then a payments and a reconciler pass in observe mode up to the
// blocks the live ledger holds final), and the events of each block both hold final are compared.
// The live ledger's rows of every block verified are also checked against the digests written
// when their blocks were final (store.CheckDigests), so a row changed afterwards is seen too.
// Where it stands is recorded (store.Verification) for health and the metrics; one instance runs
// it at a time. The tick runs it; FollowHead runs it at each head, checking the digests of the
// blocks it verifies only.
func (j *Jobs) Verify(ctx context.Context) (sum VerifySummary, err error) {
	return j.verify(ctx, true)
}

// verifyEveryBlocks is the fewest blocks newly final that a pass at a head verifies. Each pass
// reads the chain's logs again for its rebuild (three eth_getLogs: the factory's and the
// treasury's, the tokens', the mints' outcomes): at every head, where the reconciler makes blocks
// final at the scan's pace, it would more than double the passes' eth_getLogs.
const verifyEveryBlocks = 5

// verifyEvery is the longest a pass at a head leaves a block final unverified, however few have
// become final since the last pass: a backlog of payments waiting for their mints frees their
// blocks one at a time.
const verifyEvery = 10 * time.Second

// verify is Verify; recheck has it check the digests of every block verified so far, not only
// of those it verifies now.
func (j *Jobs) verify(ctx context.Context, recheck bool) (sum VerifySummary, err error) {
	into := j.cfg.VerifyInto
	if into == nil {
		return VerifySummary{Reason: "the continuous verifier is off (VERIFY_LEDGER=false)"}, nil
	}
	unlock, ok, err := j.store.TryLock(ctx, store.LockVerify)
	if err != nil || !ok {
		return VerifySummary{Reason: "another instance verifies"}, err
	}
	defer unlock()
	sum.Ran = true
	final, ok, err := j.store.DigestFrontier(ctx)
	if err != nil || !ok || final <= 0 { // nothing final yet (a rebuild's ScanTo of 0 is the head)
		return sum, err
	}
	v, err := j.store.Verification(ctx)
	if err != nil {
		return sum, err
	}
	// At a head, a pass is worth it once verifyEveryBlocks blocks are newly final, or any block
	// has been for verifyEvery (while a backlog of mints frees blocks one at a time); a mismatch
	// waits for the tick's pass to check it again, rather than repeat its error at every block.
	if !recheck && (v.MismatchBlock != nil || v.VerifiedTo != nil && (final <= *v.VerifiedTo ||
		final < *v.VerifiedTo+verifyEveryBlocks && time.Since(v.CheckedAt) < verifyEvery)) {
		sum.Reason = "nothing new to verify at this head"
		return sum, nil
	}
	laps := newLaps()
	rebuild, rebuilt, err := j.rebuildBehind(ctx, into, final, laps)
	if err != nil || rebuilt < 0 {
		return sum, err
	}
	sum.RebuiltTo = uint64(rebuilt)
	next, err := j.verifyTo(ctx, rebuild, v, int64(rebuild.cfg.ScanFrom), min(final, rebuilt), recheck, laps)
	if err != nil {
		return sum, err
	}
	if next.VerifiedTo != nil && (v.VerifiedTo == nil || *next.VerifiedTo > *v.VerifiedTo) {
		// Where the time goes, for an operator whose verifier falls behind.
		j.log.Info("continuous verifier: verified", append([]any{"to", *next.VerifiedTo, "final", final}, laps.parts...)...)
	}
	if err := j.store.SaveVerification(ctx, next); err != nil {
		return sum, err
	}
	if next.VerifiedTo != nil {
		sum.VerifiedTo = *next.VerifiedTo
		verifiedBlock.Set(float64(sum.VerifiedTo))
	}
	mismatchBlock.Set(0)
	if next.MismatchBlock != nil {
		sum.MismatchBlock = *next.MismatchBlock
		mismatchBlock.Set(float64(sum.MismatchBlock))
		j.log.Error("the ledger differs from its rebuild from the chain and the settings log", "block", sum.MismatchBlock,
			"differences", len(next.Mismatch))
	}
	return sum, nil
}

// rebuildBehind takes the rebuild in into a step on, up to block final: the settings log entries
// it lacks, then a payments and a reconciler pass in observe mode. It returns the rebuild's passes
// and the last block the rebuild holds final (-1: none yet).
func (j *Jobs) rebuildBehind(ctx context.Context, into *store.Store, final int64, laps *laps) (*Jobs, int64, error) {
	if err := j.followSettings(ctx, into); err != nil {
		return nil, -1, err
	}
	laps.lap("settings")
	d, err := into.LoggedDeployment(ctx)
	if errors.Is(err, store.ErrNotFound) { // the service logs it at its start
		return nil, -1, nil
	}
	if err != nil {
		return nil, -1, err
	}
	cfg := ObserveConfig(d, uint64(final))
	cfg.ReadsFrom = j.store
	rebuild := New(into, j.chain, nil, nil, cfg, j.log)
	if _, err := rebuild.Payments(ctx); err != nil {
		return nil, -1, err
	}
	laps.lap("payments")
	if _, err := rebuild.Reconcile(ctx); err != nil {
		return nil, -1, err
	}
	laps.lap("reconcile")
	rebuilt, ok, err := into.DigestFrontier(ctx)
	if err != nil || !ok {
		return nil, -1, err
	}
	return rebuild, rebuilt, nil
}

// verifyTo is where verification stands once the blocks after v's up to block to (from block
// first on a first pass) are compared with the rebuild's, the rebuild's rows held against the
// chain's balances (the money identity), and the rows of those blocks (with recheck, of every
// block verified) checked against their digests.
func (j *Jobs) verifyTo(ctx context.Context, rebuild *Jobs, v store.Verification, first, to int64, recheck bool, laps *laps) (store.Verification, error) {
	from := first
	if v.VerifiedTo != nil {
		from = *v.VerifiedTo + 1
	}
	_, diffs, err := CompareRebuilt(ctx, j.store, rebuild.store, from, to)
	if err != nil {
		return v, err
	}
	laps.lap("compare")
	// A node that keeps no state that far back (not an archive node, the verifier far behind)
	// cannot answer the identity: the events are compared all the same.
	unexplained, err := rebuild.MoneyIdentity(ctx, from, to)
	if err != nil {
		j.log.Warn("continuous verifier: the money identity is not checked", "from", from, "to", to, "err", err)
	}
	laps.lap("identity")
	diffs = store.SortDiffs(append(diffs, unexplained...))
	next := store.Verification{VerifiedTo: v.VerifiedTo}
	switch {
	case len(diffs) > 0:
		at := diffs[0].Block
		next.VerifiedTo, next.MismatchBlock = new(at-1), new(at)
		next.Mismatch = slices.DeleteFunc(diffs, func(d store.EventDiff) bool { return d.Block != at })
		return next, nil
	case to >= from:
		next.VerifiedTo = new(to)
	}
	// The rows of blocks verified before may have changed since.
	checkFrom := from
	if recheck {
		checkFrom = first
	}
	_, m, err := j.store.CheckDigests(ctx, checkFrom, to)
	if err != nil {
		return next, err
	}
	laps.lap("digests")
	if m != nil {
		next.MismatchBlock = new(m.Block)
		next.Mismatch = []store.EventDiff{{Block: m.Block, Kind: "digest", Key: "rows changed since the block was digested"}}
	}
	return next, nil
}

// followSettings replays into the settings log entries it does not hold yet.
func (j *Jobs) followSettings(ctx context.Context, into *store.Store) error {
	after, err := into.LastLogged(ctx)
	if err != nil {
		return err
	}
	entries, err := j.store.SettingsLogAfter(ctx, after)
	if err != nil {
		return err
	}
	return into.ReplaySettings(ctx, entries)
}

// CompareRebuilt compares the events of blocks from..to in ledger and in rebuilt, its rebuild:
// how many ledger holds, and those the two do not agree on.
func CompareRebuilt(ctx context.Context, ledger, rebuilt *store.Store, from, to int64) (compared int, _ []store.EventDiff, _ error) {
	if to < from {
		return 0, nil, nil
	}
	want, err := ledger.LedgerEvents(ctx, from, to)
	if err != nil {
		return 0, nil, err
	}
	got, err := rebuilt.LedgerEvents(ctx, from, to)
	if err != nil {
		return 0, nil, err
	}
	return len(want), store.CompareEvents(want, got), nil
}

// laps times the parts of a pass one after another, for its log line.
type laps struct {
	last  time.Time
	parts []any // name, duration, …
}

func newLaps() *laps { return &laps{last: time.Now()} }

// lap ends the part named name.
func (l *laps) lap(name string) {
	now := time.Now()
	l.parts = append(l.parts, name, now.Sub(l.last).Round(time.Millisecond).String())
	l.last = now
}
