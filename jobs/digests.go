package jobs

import (
	"context"

	"nodeledger/store"
)

// digestBlocksPerPass bounds the blocks one pass digests: a ledger catching up on a long chain
// does so a step a pass, one events query and a few round trips of block hashes each.
const digestBlocksPerPass = 20_000

// digest writes the digests of the blocks that became final in the ledger since the last pass
// (store.DigestFrontier), up to digestBlocksPerPass of them, and returns the last block digested
// (0: none yet). Its block hashes are the chain's: should a reorg have replaced one the scan has
// not noticed yet, the scan's rewind takes the digest back with the blocks.
func (j *Jobs) digest(ctx context.Context) (uint64, error) {
	to, ok, err := j.store.DigestFrontier(ctx)
	if err != nil || !ok {
		return 0, err
	}
	prev, cur, started, err := j.store.DigestsAt(ctx)
	if err != nil {
		return 0, err
	}
	from := int64(j.cfg.ScanFrom)
	if started {
		from = cur.Number + 1
	}
	if to < from {
		return uint64(max(cur.Number, 0)), nil
	}
	to = min(to, from+digestBlocksPerPass-1)
	events, err := j.store.LedgerEvents(ctx, from, to)
	if err != nil {
		return 0, err
	}
	var blocks []uint64 // the events' blocks (in order), and to
	for _, e := range events {
		if n := len(blocks); n == 0 || blocks[n-1] != uint64(e.Block) {
			blocks = append(blocks, uint64(e.Block))
		}
	}
	if n := len(blocks); n == 0 || blocks[n-1] != uint64(to) {
		blocks = append(blocks, uint64(to))
	}
	got, err := j.chain.BlockHashes(ctx, blocks)
	if err != nil {
		return 0, err
	}
	hashes := make(map[int64]string, len(got))
	for b, h := range got {
		hashes[int64(b)] = hexLower(h)
	}
	if err := j.store.AppendDigests(ctx, store.Digests(prev, events, hashes), to, hashes[to]); err != nil {
		return 0, err
	}
	return uint64(to), nil
}
