package store

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/jmoiron/sqlx"
)

// A digest per block (issue 50 §4): for every block that holds ledger events, the events are
// written as canonical lines and hashed with the block's hash and the digest of the block before
// it that holds any, as The Graph's proofs of indexing are. Two ledgers that followed the same
// chain with the same settings log agree on every digest; where they differ, the first block that
// differs is where to look, and its lines say what.

// DigestsCursor names the digests' cursor in chain_cursors: the last block digested, events or not.
const DigestsCursor = "digests"

// LedgerEvent is one fact the ledger holds of a block, as digested: its kind, a key that names
// it in any ledger that followed the same chain (a transaction, a payment's place in it, a chain
// node id, a round id: never a row id a rebuild would number otherwise), and Line, the canonical
// JSON text {kind, key, body} that is hashed.
type LedgerEvent struct {
	Block int64  `db:"block"`
	Kind  string `db:"kind"`
	Key   string `db:"key"`
	Line  string `db:"line"`
	Ord   int    `db:"ord"` // the kind's place in a block
}

// paymentKey is a payment's key: its transaction, call in it and log (- for an ETH payment).
const paymentKey = `(%[1]s.tx_hash || '/' || %[1]s.call_index || '/' || coalesce(%[1]s.log_index::text, '-'))`

// ledgerEventsSQL lists the events of blocks $1..$2, in canonical order (text in bytes' order,
// COLLATE "C", whatever the database's collation). Each body holds only
// what the chain and the settings log decide and what never changes once its block is digested:
//   - payment: at its block, with its verdict (minted, or rejected with the reason and its
//     arguments), the tier, the code it was bought under and the commissions it earned, and what
//     the judgement read of the chain; a payment the screening held, as it was held, even once
//     an admin released it (payment_releases keeps the hold's verdict): a block's events do not
//     change after it is digested, and the release's effects are events of their own blocks;
//   - node: a mint, at its block;
//   - transfer_out: ETH the payments wallet sent (not a sweep), with the payment it refunded;
//   - inflow: ETH the wallet received that no transaction explains;
//   - sweep: the payments wallet's excess moved to the treasury;
//   - batch: a treasury batch the chain decided (executed or failed: a void one was never on
//     chain), with the refunds and commissions it paid;
//   - round: a distribution round credited, with its credits' count and total;
//   - withdrawal: a node's withdrawal, or a withdraw call that reverted;
//   - fee: what the payments wallet paid for the gas of a transaction it sent;
//   - treasury_in: what reached the treasury that is no sweep;
//   - treasury_out: what a Safe transaction of the treasury sent out of it.
var ledgerEventsSQL = `
	SELECT block, ord, kind, key, jsonb_build_object('kind', kind, 'key', key, 'body', body)::text AS line
	FROM (
		SELECT p.block_number AS block, 1 AS ord, 'payment' AS kind, ` + fmt.Sprintf(paymentKey, "p") + ` AS key,
			jsonb_build_object('from', p.from_address, 'token', p.token, 'amount', coalesce(p.amount, p.value_wei)::text,
				'usdPerEth', p.usd_per_eth::text,
				'verdict', CASE WHEN held THEN 'held' WHEN p.status IN ('rejected', 'refunded') THEN 'rejected' ELSE p.status END,
				'tier', CASE WHEN NOT held THEN p.tier END,
				'reason', coalesce(rl.held_for, p.reason_code), 'args', coalesce(rl.held_args, p.reason_args),
				'reads', CASE WHEN rl.payment_ref IS NULL THEN p.judged_reads ELSE rl.held_reads END,
				'referral', (SELECT jsonb_build_object('code', r.code, 'discount', r.discount::text, 'owner', r.owner,
						'commissionBps', r.commission_bps, 'parent', r.parent, 'parentBps', r.parent_bps)
					FROM payment_referrals r WHERE r.payment_id = p.id AND NOT held),
				'commissions', (SELECT jsonb_agg(jsonb_build_object('referrer', c.referrer, 'role', c.role, 'amount', c.amount::text) ORDER BY c.role)
					FROM commissions c WHERE c.payment_id = p.id AND NOT held)) AS body
		FROM payments p LEFT JOIN payment_releases rl ON rl.payment_ref = p.payment_ref
		CROSS JOIN LATERAL (SELECT p.status = 'held' OR rl.payment_ref IS NOT NULL AS held) h
		WHERE p.block_number BETWEEN $1 AND $2
		UNION ALL
		SELECT n.block_number, 2, 'node', n.id::text,
			jsonb_build_object('tier', n.tier, 'mintTx', n.mint_tx, 'payment', (SELECT ` + fmt.Sprintf(paymentKey, "p") + ` FROM payments p WHERE p.id = n.payment_id))
		FROM nodes n WHERE n.block_number BETWEEN $1 AND $2
		UNION ALL
		SELECT o.block_number, 3, 'transfer_out', o.tx_hash,
			jsonb_build_object('to', o.to_address, 'valueWei', o.value_wei::text,
				'refund', (SELECT ` + fmt.Sprintf(paymentKey, "p") + ` FROM payments p WHERE p.refund_tx_hash = o.tx_hash AND p.refund_batch_id IS NULL))
		FROM outgoing_transfers o WHERE o.block_number BETWEEN $1 AND $2
		UNION ALL
		SELECT u.block_number, 4, 'inflow', u.block_number::text, jsonb_build_object('amountWei', u.amount_wei::text)
		FROM unattributed_inflows u WHERE u.block_number BETWEEN $1 AND $2
		UNION ALL
		SELECT s.block_number, 5, 'sweep', s.tx_hash,
			jsonb_build_object('from', s.from_address, 'to', s.to_address, 'token', s.token, 'amount', s.amount_wei::text, 'status', s.status)
		FROM sweeps s WHERE s.block_number BETWEEN $1 AND $2 AND s.status IN ('swept', 'failed')
		UNION ALL
		SELECT b.block_number, 6, 'batch', b.safe_tx_hash,
			jsonb_build_object('kind', b.kind, 'status', b.status, 'tx', b.executed_tx,
				'refunds', (SELECT jsonb_agg(` + fmt.Sprintf(paymentKey, "p") + ` ORDER BY ` + fmt.Sprintf(paymentKey, "p") + ` COLLATE "C")
					FROM payments p WHERE p.refund_batch_id = b.id),
				'commissions', (SELECT jsonb_agg(` + fmt.Sprintf(paymentKey, "p") + ` || '/' || c.role ORDER BY ` + fmt.Sprintf(paymentKey, "p") + ` COLLATE "C", c.role)
					FROM treasury_batch_commissions bc JOIN commissions c ON c.id = bc.commission_id JOIN payments p ON p.id = c.payment_id
					WHERE bc.batch_id = b.id AND bc.open AND b.status = 'executed'))
		FROM treasury_batches b WHERE b.block_number BETWEEN $1 AND $2 AND b.status IN ('executed', 'failed')
		UNION ALL
		SELECT d.block_number, 7, 'round', d.id::text,
			jsonb_build_object('totalWei', d.total_wei::text, 'nodeCount', d.node_count, 'mode', d.mode,
				'fundingMode', d.funding_mode, 'tx', d.tx_hash,
				'credits', (SELECT count(*) FROM credits c WHERE c.distribution_id = d.id),
				'creditedWei', (SELECT coalesce(sum(c.amount_wei), 0)::text FROM credits c WHERE c.distribution_id = d.id))
		FROM distributions d WHERE d.block_number BETWEEN $1 AND $2 AND d.status = 'confirmed'
		UNION ALL
		SELECT w.block_number, 8, 'withdrawal', w.tx_hash || '/' || coalesce(w.log_index::text, '-'),
			jsonb_build_object('node', w.node_id, 'to', w.to_address, 'amountWei', w.amount_wei::text, 'status', w.status)
		FROM withdrawals w WHERE w.block_number BETWEEN $1 AND $2 AND w.tx_hash IS NOT NULL
		UNION ALL
		SELECT f.block_number, 9, 'fee', f.tx_hash, jsonb_build_object('feeWei', f.fee_wei::text)
		FROM wallet_fees f WHERE f.block_number BETWEEN $1 AND $2
		UNION ALL
		SELECT i.block_number, 10, 'treasury_in', i.tx_hash || '/' || i.log_index,
			jsonb_build_object('from', i.from_address, 'token', i.token, 'amount', i.amount::text)
		FROM treasury_inflows i WHERE i.block_number BETWEEN $1 AND $2
		UNION ALL
		SELECT t.block_number, 11, 'treasury_out', t.safe_tx_hash || '/' || t.idx,
			jsonb_build_object('tx', t.tx_hash, 'to', t.to_address, 'token', t.token, 'amount', t.amount::text)
		FROM treasury_outflows t WHERE t.block_number BETWEEN $1 AND $2
	) e
	ORDER BY block, ord, key COLLATE "C"`

// LedgerEvents returns the events of blocks from..to, in canonical order.
func (s *Store) LedgerEvents(ctx context.Context, from, to int64) (_ []LedgerEvent, err error) {
	defer wrap(&err, "LedgerEvents")
	var events []LedgerEvent
	err = s.db.SelectContext(ctx, &events, ledgerEventsSQL, from, to)
	return events, err
}

// DigestFrontier is the last block whose events are final in the ledger, so that its digest will
// not change: every pass that writes events has read it (the payments scan, whose pass settles
// the batches, mints and refunds of what it read; the reconciler), no payment at or below it
// waits for its verdict or its mint, and no transaction the service sent (a sweep, a round) that
// may land at or below it waits for its receipt. ok is false before both scans read a block.
func (s *Store) DigestFrontier(ctx context.Context) (block int64, ok bool, err error) {
	defer wrap(&err, "DigestFrontier")
	var b sql.NullInt64
	err = s.get(ctx, &b, digestFrontierSQL)
	return b.Int64, b.Valid, err
}

// digestFrontierSQL is DigestFrontier's, run at every pass of the digests and the verifier: each
// of its lookups reads what is open (payments_unsettled), not the ledger (see PassSQL).
const digestFrontierSQL = `
	SELECT CASE WHEN count(*) = 2 THEN least(min(c.block_number),
		(SELECT min(block_number) - 1 FROM payments WHERE status IN ('pending', 'minting')),
		(SELECT min(o.sent_block) FROM sweeps s JOIN outbox o ON o.sweep_id = s.id WHERE s.status = 'sending'),
		(SELECT min(o.sent_block) FROM distributions d JOIN outbox o ON o.distribution_id = d.id WHERE d.status = 'pending')) END
	FROM chain_cursors c WHERE c.name IN ('payments', 'reconcile')`

// BlockDigest is the digest of one block that holds ledger events.
type BlockDigest struct {
	Block     int64  `db:"block_number"`
	BlockHash string `db:"block_hash"`
	Events    int    `db:"events"`
	Prev      []byte `db:"prev"`
	Digest    []byte `db:"digest"`
}

// digestGenesis is the prev of the first block digested.
var digestGenesis = make([]byte, sha256.Size)

// Digest is sha256 of prev, the line "<block> <blockHash>" and the events' lines, each line ending
// in "\n": what anyone holding the events and the chain's block hashes recomputes.
func Digest(prev []byte, block int64, blockHash string, events []LedgerEvent) []byte {
	h := sha256.New()
	h.Write(prev)
	h.Write([]byte(strconv.FormatInt(block, 10) + " " + blockHash + "\n"))
	for _, e := range events {
		h.Write([]byte(e.Line + "\n"))
	}
	return h.Sum(nil)
}

// blockEvents are the events of one block.
type blockEvents struct {
	block  int64
	events []LedgerEvent
}

// byBlock splits events (in canonical order, as LedgerEvents gives them) into their blocks'.
func byBlock(events []LedgerEvent) []blockEvents {
	var out []blockEvents
	for i := 0; i < len(events); {
		j := i
		for j < len(events) && events[j].Block == events[i].Block {
			j++
		}
		out, i = append(out, blockEvents{block: events[i].Block, events: events[i:j]}), j
	}
	return out
}

// Digests chains the digests of events (in canonical order, as LedgerEvents gives them) from
// prev, with the blocks' hashes by number.
func Digests(prev []byte, events []LedgerEvent, hashes map[int64]string) []BlockDigest {
	var out []BlockDigest
	for _, b := range byBlock(events) {
		d := BlockDigest{Block: b.block, BlockHash: hashes[b.block], Events: len(b.events), Prev: prev}
		d.Digest = Digest(prev, b.block, d.BlockHash, b.events)
		out, prev = append(out, d), d.Digest
	}
	return out
}

// DigestsAt is where the digests stand: the digest the next block's chains from, and the
// cursor (ok false before the first pass).
func (s *Store) DigestsAt(ctx context.Context) (prev []byte, cur Cursor, ok bool, err error) {
	defer wrap(&err, "DigestsAt")
	cur, err = s.Cursor(ctx, DigestsCursor)
	if errors.Is(err, ErrNotFound) {
		return digestGenesis, Cursor{}, false, nil
	}
	if err != nil {
		return nil, Cursor{}, false, err
	}
	prev, err = digestBelow(ctx, s.db, math.MaxInt64)
	return prev, cur, true, err
}

// digestBelow is the digest of the last block below block that holds events: what the next
// block's digest chains from (the genesis when none).
func digestBelow(ctx context.Context, q sqlx.QueryerContext, block int64) ([]byte, error) {
	var prev []byte
	err := sqlx.GetContext(ctx, q, &prev, `
		SELECT digest FROM ledger_digests WHERE block_number < $1 ORDER BY block_number DESC LIMIT 1`, block)
	if errors.Is(err, sql.ErrNoRows) {
		return digestGenesis, nil
	}
	return prev, err
}

// ErrDigestsMoved is an append whose first digest does not chain from the last one stored:
// another writer appended meanwhile, or a rewind took digests back.
var ErrDigestsMoved = errors.New("the digests moved meanwhile")

// AppendDigests stores digests and moves the digests' cursor to block to, of hash toHash, in
// one transaction.
func (s *Store) AppendDigests(ctx context.Context, digests []BlockDigest, to int64, toHash string) (err error) {
	defer wrap(&err, "AppendDigests")
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `SELECT 1 FROM chain_cursors WHERE name = $1 FOR UPDATE`, DigestsCursor); err != nil {
		return err
	}
	last, err := digestBelow(ctx, tx, math.MaxInt64)
	if err != nil {
		return err
	}
	for _, d := range digests {
		if !bytes.Equal(d.Prev, last) {
			return ErrDigestsMoved
		}
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO ledger_digests (block_number, block_hash, events, prev, digest) VALUES ($1, $2, $3, $4, $5)`,
			d.Block, d.BlockHash, d.Events, d.Prev, d.Digest); err != nil {
			return err
		}
		last = d.Digest
	}
	if err := putCursor(ctx, tx, DigestsCursor, to, toHash); err != nil {
		return err
	}
	return tx.Commit()
}

// forgetDigests takes the digests above block number back, in a rewind's transaction tx: the
// blocks above it are read again, and digested again once final.
func forgetDigests(ctx context.Context, tx *sqlx.Tx, number int64, hash string) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM ledger_digests WHERE block_number > $1`, number); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `
		UPDATE chain_cursors SET block_number = $2, block_hash = $3, updated_at = now()
		WHERE name = $1 AND block_number > $2`, DigestsCursor, number, hash)
	return err
}

// StoredDigests returns the digests stored for blocks from..to.
func (s *Store) StoredDigests(ctx context.Context, from, to int64) (_ []BlockDigest, err error) {
	defer wrap(&err, "StoredDigests")
	out := []BlockDigest{}
	err = s.db.SelectContext(ctx, &out, `
		SELECT block_number, block_hash, events, prev, digest FROM ledger_digests
		WHERE block_number BETWEEN $1 AND $2 ORDER BY block_number`, from, to)
	return out, err
}

// DigestMismatch is a block whose digest, recomputed from the ledger's rows as they are now,
// is not the one stored when the block was digested: a row of the block was changed, added or
// deleted since, by hand or by a bug. Stored is nil for a block that holds events now and held
// none then; Events is what the block holds now.
type DigestMismatch struct {
	Block  int64
	Stored *BlockDigest
	Events []LedgerEvent
}

// checkChunk is how many blocks CheckDigests reads at a time.
const checkChunk = 10_000

// CheckDigests recomputes the digests of blocks from..to (within what is digested) from the
// ledger's rows and the stored block hashes, and returns how many blocks holding events it
// checked and the first that differs (nil: none).
func (s *Store) CheckDigests(ctx context.Context, from, to int64) (checked int, _ *DigestMismatch, err error) {
	defer wrap(&err, "CheckDigests")
	cur, err := s.Cursor(ctx, DigestsCursor)
	if errors.Is(err, ErrNotFound) {
		return 0, nil, nil
	}
	if err != nil {
		return 0, nil, err
	}
	to = min(to, cur.Number)
	last, err := digestBelow(ctx, s.db, from) // what the first one checked chains from
	if err != nil {
		return 0, nil, err
	}
	for start := from; start <= to; start += checkChunk {
		end := min(start+checkChunk-1, to)
		stored, err := s.StoredDigests(ctx, start, end)
		if err != nil {
			return checked, nil, err
		}
		events, err := s.LedgerEvents(ctx, start, end)
		if err != nil {
			return checked, nil, err
		}
		n, m := compareDigests(last, stored, events)
		if checked += n; m != nil {
			return checked, m, nil
		}
		if len(stored) > 0 {
			last = stored[len(stored)-1].Digest
		}
	}
	return checked, nil, nil
}

// compareDigests recomputes each stored digest from the one before it (last, then each in turn),
// its block hash and events (in canonical order), and returns how many agree before the first
// block that differs.
func compareDigests(last []byte, stored []BlockDigest, events []LedgerEvent) (int, *DigestMismatch) {
	blocks := byBlock(events)
	i, n := 0, 0
	for _, d := range stored {
		// A block holding events now that held none when it was digested comes first.
		if i < len(blocks) && blocks[i].block < d.Block {
			return n, &DigestMismatch{Block: blocks[i].block, Events: blocks[i].events}
		}
		var now []LedgerEvent
		if i < len(blocks) && blocks[i].block == d.Block {
			now, i = blocks[i].events, i+1
		}
		if !bytes.Equal(d.Prev, last) || !bytes.Equal(Digest(last, d.Block, d.BlockHash, now), d.Digest) {
			return n, &DigestMismatch{Block: d.Block, Stored: &d, Events: now}
		}
		last = d.Digest
		n++
	}
	if i < len(blocks) {
		return n, &DigestMismatch{Block: blocks[i].block, Events: blocks[i].events}
	}
	return n, nil
}

// EventDiff is an event two ledgers do not agree on: its line in each ("" where it is absent).
type EventDiff struct {
	Block   int64  `json:"block"`
	Kind    string `json:"kind"`
	Key     string `json:"key"`
	Live    string `json:"ledger"`
	Rebuilt string `json:"rebuilt"`
}

// SortDiffs orders diffs by block, stably: the first block that differs first.
func SortDiffs(diffs []EventDiff) []EventDiff {
	slices.SortStableFunc(diffs, func(a, b EventDiff) int { return cmp.Compare(a.Block, b.Block) })
	return diffs
}

// CompareEvents returns, in canonical order, the events live and rebuilt (each in canonical
// order, as LedgerEvents gives them) do not agree on.
func CompareEvents(live, rebuilt []LedgerEvent) []EventDiff {
	var out []EventDiff
	i, j := 0, 0
	for i < len(live) || j < len(rebuilt) {
		var c int
		switch {
		case i == len(live):
			c = 1
		case j == len(rebuilt):
			c = -1
		default:
			a, b := live[i], rebuilt[j]
			c = cmp.Or(cmp.Compare(a.Block, b.Block), cmp.Compare(a.Ord, b.Ord), cmp.Compare(a.Key, b.Key))
		}
		switch {
		case c < 0:
			out = append(out, EventDiff{Block: live[i].Block, Kind: live[i].Kind, Key: live[i].Key, Live: live[i].Line})
			i++
		case c > 0:
			out = append(out, EventDiff{Block: rebuilt[j].Block, Kind: rebuilt[j].Kind, Key: rebuilt[j].Key, Rebuilt: rebuilt[j].Line})
			j++
		default:
			if live[i].Line != rebuilt[j].Line {
				out = append(out, EventDiff{Block: live[i].Block, Kind: live[i].Kind, Key: live[i].Key, Live: live[i].Line, Rebuilt: rebuilt[j].Line})
			}
			i, j = i+1, j+1
		}
	}
	return out
}
