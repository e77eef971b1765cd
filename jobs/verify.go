package jobs

import (
	"context"
	"errors"
	"slices"

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
// blocks the live ledger holds final), and the events of each block both hold final are compared,
// kind by kind as far as a rebuild writes them (RebuiltKinds). The live ledger's rows are also
// checked against the digests written when their blocks were final (store.CheckDigests), so a
// row changed afterwards is seen too. Where it stands is recorded (store.Verification) for
// health and the metrics; one instance runs it at a time.
func (j *Jobs) Verify(ctx context.Context) (sum VerifySummary, err error) {
	into := j.cfg.VerifyInto
	if into == nil {
		return VerifySummary{Reason: "the continuous verifier is off (VERIFY=off)"}, nil
	}
	unlock, ok, err := j.store.TryLock(ctx, store.LockVerify)
	if err != nil || !ok {
		return VerifySummary{Reason: "another instance verifies"}, err
	}
	defer unlock()
	sum.Ran = true
	final, ok, err := j.store.DigestFrontier(ctx)
	if err != nil || !ok {
		return sum, err
	}
	if err := j.followSettings(ctx, into); err != nil {
		return sum, err
	}
	d, err := into.LoggedDeployment(ctx)
	if errors.Is(err, store.ErrNotFound) {
		sum.Reason = "the settings log holds no deployment yet"
		return sum, nil
	}
	if err != nil {
		return sum, err
	}
	rebuild := New(into, j.chain, nil, nil, ObserveConfig(d, uint64(max(final, 0))), j.log)
	if _, err := rebuild.Payments(ctx); err != nil {
		return sum, err
	}
	if _, err := rebuild.Reconcile(ctx); err != nil {
		return sum, err
	}
	rebuilt, ok, err := into.DigestFrontier(ctx)
	if err != nil || !ok {
		return sum, err
	}
	sum.RebuiltTo = uint64(max(rebuilt, 0))

	v, err := j.store.Verification(ctx)
	if err != nil {
		return sum, err
	}
	from := int64(d.ScanFrom)
	if v.VerifiedTo != nil {
		from = *v.VerifiedTo + 1
	}
	to := min(final, rebuilt)
	diffs, err := j.compareRebuilt(ctx, into, from, to)
	if err != nil {
		return sum, err
	}
	next := store.Verification{VerifiedTo: v.VerifiedTo}
	switch {
	case len(diffs) > 0:
		first := diffs[0].Block
		next.VerifiedTo, next.MismatchBlock = new(first-1), new(first)
		next.Mismatch = slices.DeleteFunc(diffs, func(d store.EventDiff) bool { return d.Block != first })
	case to >= from:
		next.VerifiedTo = new(to)
	}
	if next.MismatchBlock == nil { // the rows of blocks verified before may have changed since
		if _, m, err := j.store.CheckDigests(ctx, int64(d.ScanFrom), to); err != nil {
			return sum, err
		} else if m != nil {
			next.MismatchBlock = new(m.Block)
			next.Mismatch = []store.EventDiff{{Block: m.Block, Kind: "digest", Key: "rows changed since the block was digested"}}
		}
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

// followSettings replays into the settings log entries it does not hold yet.
func (j *Jobs) followSettings(ctx context.Context, into *store.Store) error {
	after, err := into.LastLogged(ctx)
	if err != nil {
		return err
	}
	for {
		entries, err := j.store.SettingsLog(ctx, after, 1000)
		if err != nil || len(entries) == 0 {
			return err
		}
		if err := into.ReplaySettings(ctx, entries); err != nil {
			return err
		}
		after = entries[len(entries)-1].Seq
	}
}

// compareRebuilt returns the events of blocks from..to that the ledger and the rebuild in into
// do not agree on, of the kinds a rebuild writes.
func (j *Jobs) compareRebuilt(ctx context.Context, into *store.Store, from, to int64) ([]store.EventDiff, error) {
	if to < from {
		return nil, nil
	}
	live, err := j.store.LedgerEvents(ctx, from, to)
	if err != nil {
		return nil, err
	}
	rebuilt, err := into.LedgerEvents(ctx, from, to)
	if err != nil {
		return nil, err
	}
	notRebuilt := func(e store.LedgerEvent) bool { return !slices.Contains(RebuiltKinds, e.Kind) }
	return store.CompareEvents(slices.DeleteFunc(live, notRebuilt), slices.DeleteFunc(rebuilt, notRebuilt)), nil
}
