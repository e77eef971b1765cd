package jobs

import (
	"context"
	"errors"
	"time"

	"nodeledger/store"
)

// ScanState is where the payments scan stands against the chain: what an operator needs to
// understand why a pass right after a payment saw nothing.
type ScanState struct {
	LastRead      int64  // the last block the scan has read; -1 before its first
	Head          uint64 // the chain's latest block
	Confirmations uint64 // how many blocks must follow a payment's before the scan reads it
	// HeadTime is when the latest block was made; BlockTime the mean interval of the last few
	// blocks (0 when the chain has too few).
	HeadTime  time.Time
	BlockTime time.Duration
}

// blockTimeSpan is how many recent blocks the mean block interval is taken over.
const blockTimeSpan = 10

// ScanState reads the payments scan's cursor and the chain's head.
func (j *Jobs) ScanState(ctx context.Context) (ScanState, error) {
	s := ScanState{LastRead: -1, Confirmations: j.Confirmations()}
	cur, err := j.store.Cursor(ctx, store.PaymentsScanner)
	switch {
	case err == nil:
		s.LastRead = cur.Number
	case !errors.Is(err, store.ErrNotFound):
		return s, err
	}
	if s.Head, err = j.chain.HeadNumber(ctx); err != nil {
		return s, err
	}
	from := s.Head - min(s.Head, blockTimeSpan)
	blocks, err := j.chain.Blocks(ctx, from, s.Head)
	if err != nil || len(blocks) == 0 {
		return s, err
	}
	first, last := blocks[0], blocks[len(blocks)-1]
	s.HeadTime = time.Unix(int64(last.Time), 0)
	if n := last.Number - first.Number; n > 0 {
		s.BlockTime = time.Duration(last.Time-first.Time) * time.Second / time.Duration(n)
	}
	return s, nil
}

// Confirmations is how many blocks must follow a payment's before the scan reads it.
func (j *Jobs) Confirmations() uint64 { return j.cfg.Confirmations }
