package store

import (
	"cmp"
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// SentTx is one signed version of a transaction the service sends, as the outbox keeps it.
type SentTx struct {
	Hash      string    `db:"tx_hash"`
	Sender    string    `db:"sender"`
	Nonce     int64     `db:"nonce"`
	Raw       []byte    `db:"raw"`
	TipWei    Uint256   `db:"tip_wei"`
	FeeCapWei Uint256   `db:"fee_cap_wei"`
	SentBlock int64     `db:"sent_block"` // the head when it was signed
	CreatedAt time.Time `db:"created_at"`
}

// TxFor names what an outbox transaction is for: a batch of payments' mints, a round's credit, a
// sweep of the payments wallet, or, all zero, nothing (a transfer that fills a nonce gap).
type TxFor struct {
	MintBatch int64
	RoundID   int64
	SweepID   int64
	// Mints are the payments a new mint batch mints (claimed, in no batch yet), recorded with its
	// first version (KeepTx gives its MintBatch).
	Mints []int64
	// Sweep is a new sweep, recorded with its first version (KeepTx gives its SweepID).
	Sweep *NewSweep
}

// String names the row, for errors: "mint batch 12", "round 3", or "a gap filler".
func (f TxFor) String() string {
	switch {
	case f.MintBatch != 0:
		return fmt.Sprintf("mint batch %d", f.MintBatch)
	case f.Mints != nil:
		return fmt.Sprintf("the mint of payments %v", f.Mints)
	case f.RoundID != 0:
		return fmt.Sprintf("round %d", f.RoundID)
	case f.SweepID != 0:
		return fmt.Sprintf("sweep %d", f.SweepID)
	case f.Sweep != nil:
		return "a new sweep"
	}
	return "a gap filler"
}

func nullID(id int64) *int64 {
	if id == 0 {
		return nil
	}
	return &id
}

// insertSent adds a version to the outbox; adding one twice changes nothing.
func insertSent(ctx context.Context, tx sqlx.ExecerContext, v SentTx, f TxFor) error {
	_, err := tx.ExecContext(ctx, `
		INSERT INTO outbox (tx_hash, sender, nonce, raw, tip_wei, fee_cap_wei, sent_block, mint_batch, distribution_id, sweep_id)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
		ON CONFLICT (tx_hash) DO NOTHING`,
		v.Hash, v.Sender, v.Nonce, v.Raw, v.TipWei, v.FeeCapWei, v.SentBlock, nullID(f.MintBatch), nullID(f.RoundID), nullID(f.SweepID))
	return err
}

// keepVersion records v in the outbox and, in the same transaction, as its row's newest version
// with update (which must change exactly that one row; else ErrNotFound and nothing is kept).
func (s *Store) keepVersion(ctx context.Context, v SentTx, f TxFor, update string, args ...any) error {
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, update, args...)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return cmp.Or(err, ErrNotFound)
	}
	if err := insertSent(ctx, tx, v, f); err != nil {
		return err
	}
	return tx.Commit()
}

// KeepTx keeps v, a signed version of the transaction for f, before it is sent: in the outbox
// and, for a mint batch, a round's credit or a sweep, as its row's newest version (keepMintTx,
// StoreRoundTx, storeSweepTx). It returns f as kept: a new mint batch or sweep with its id.
func (s *Store) KeepTx(ctx context.Context, f TxFor, v SentTx) (TxFor, error) {
	switch {
	case f.MintBatch != 0 || f.Mints != nil:
		return s.keepMintTx(ctx, f, v)
	case f.RoundID != 0:
		return f, s.StoreRoundTx(ctx, f.RoundID, v)
	case f.SweepID != 0 || f.Sweep != nil:
		id, err := s.storeSweepTx(ctx, f, v)
		return TxFor{SweepID: id}, err
	}
	return f, s.StoreFillerTx(ctx, v)
}

// StoreFillerTx keeps a transaction sent for no ledger row: a zero-value transfer that fills a
// nonce gap.
func (s *Store) StoreFillerTx(ctx context.Context, v SentTx) (err error) {
	defer wrap(&err, "StoreFillerTx")
	return insertSent(ctx, s.db, v, TxFor{})
}

// Fillers returns the versions of the gap fillers sender signed at nonce from or above, by nonce,
// oldest first at each.
func (s *Store) Fillers(ctx context.Context, sender string, from int64) (_ []SentTx, err error) {
	defer wrap(&err, "Fillers")
	var out []SentTx
	err = s.db.SelectContext(ctx, &out, `
		SELECT tx_hash, sender, nonce, raw, tip_wei, fee_cap_wei, sent_block, created_at FROM outbox
		WHERE sender = $1 AND nonce >= $2 AND num_nonnulls(mint_batch, distribution_id, sweep_id) = 0
		ORDER BY nonce, created_at, fee_cap_wei`, sender, from)
	return out, err
}

// TxVersions returns every version the outbox keeps for each of fs, oldest first: out[i] is
// fs[i]'s. One query however many, as a pass opens every mint in flight.
func (s *Store) TxVersions(ctx context.Context, fs ...TxFor) (out [][]SentTx, err error) {
	defer wrap(&err, "TxVersions")
	var batches, rounds, sweeps []int64
	type ids struct{ batch, round, sweep int64 }
	at := map[ids]int{}
	for i, f := range fs {
		if f.MintBatch != 0 {
			batches = append(batches, f.MintBatch)
		}
		if f.RoundID != 0 {
			rounds = append(rounds, f.RoundID)
		}
		if f.SweepID != 0 {
			sweeps = append(sweeps, f.SweepID)
		}
		at[ids{f.MintBatch, f.RoundID, f.SweepID}] = i
	}
	var rows []struct {
		MintBatch *int64 `db:"mint_batch"`
		RoundID   *int64 `db:"distribution_id"`
		SweepID   *int64 `db:"sweep_id"`
		SentTx
	}
	if err := s.db.SelectContext(ctx, &rows, `
		SELECT mint_batch, distribution_id, sweep_id, tx_hash, sender, nonce, raw, tip_wei, fee_cap_wei, sent_block, created_at
		FROM outbox WHERE mint_batch = ANY ($1) OR distribution_id = ANY ($2) OR sweep_id = ANY ($3)
		ORDER BY created_at, nonce, fee_cap_wei`, pq.Array(batches), pq.Array(rounds), pq.Array(sweeps)); err != nil {
		return nil, err
	}
	out = make([][]SentTx, len(fs))
	for _, r := range rows {
		if i, ok := at[ids{deref(r.MintBatch, 0), deref(r.RoundID, 0), deref(r.SweepID, 0)}]; ok {
			out[i] = append(out[i], r.SentTx)
		}
	}
	return out, nil
}

// TxKind is what a transaction the service sends is for.
type TxKind string

const (
	TxMint  TxKind = "mint"  // a mint batch
	TxRound TxKind = "round" // a round's credit
	TxSweep TxKind = "sweep" // a sweep to the treasury
)

// TxKinds are the kinds, in the order the metrics list them.
var TxKinds = []TxKind{TxMint, TxRound, TxSweep}

// OutboxStats is what health and the metrics say of the outbox.
type OutboxStats struct {
	// Waiting counts the transactions sent and not mined yet: mint batches with a payment still
	// minting, the credit of a round still pending, a sweep under way.
	Waiting int
	// OldestAt is when the oldest of them was first signed; nil when none waits.
	OldestAt *time.Time
	// AtCap counts those whose newest version pays the fee cap already.
	AtCap int
	// Replacements counts the versions signed at a nonce that already had one: fee bumps.
	Replacements int64
	// Kinds is Waiting and OldestAt by kind, for the kinds with one waiting.
	Kinds map[TxKind]KindWaiting
}

// KindWaiting is how many transactions of one kind wait, and since when the oldest.
type KindWaiting struct {
	Waiting  int
	OldestAt time.Time
}

// OutboxStats reads the outbox's figures; maxFee is the fee cap (nil: none).
func (s *Store) OutboxStats(ctx context.Context, maxFee *big.Int) (_ OutboxStats, err error) {
	defer wrap(&err, "OutboxStats")
	var limit *string
	if maxFee != nil {
		v := maxFee.String()
		limit = &v
	}
	var kinds []struct {
		Kind     TxKind    `db:"kind"`
		Waiting  int       `db:"waiting"`
		OldestAt time.Time `db:"oldest_at"`
		AtCap    int       `db:"at_cap"`
	}
	err = s.db.SelectContext(ctx, &kinds, `
		WITH waiting AS (
			SELECT 'mint' AS kind, b.created_at AS first, n.*
			FROM mint_batches b LEFT JOIN LATERAL (
				SELECT o.tip_wei, o.fee_cap_wei FROM outbox o WHERE o.tx_hash = b.tx_hash) n ON true
			WHERE b.id IN (SELECT mint_batch FROM payments WHERE status = 'minting')
			UNION ALL
			SELECT 'round', (SELECT min(o.created_at) FROM outbox o WHERE o.distribution_id = d.id), n.*
			FROM distributions d LEFT JOIN LATERAL (
				SELECT o.tip_wei, o.fee_cap_wei FROM outbox o WHERE o.tx_hash = d.tx_hash) n ON true
			WHERE d.status = 'pending' AND d.tx_hash IS NOT NULL
			UNION ALL
			SELECT 'sweep', (SELECT min(o.created_at) FROM outbox o WHERE o.sweep_id = s.id), n.*
			FROM sweeps s LEFT JOIN LATERAL (
				SELECT o.tip_wei, o.fee_cap_wei FROM outbox o WHERE o.tx_hash = s.tx_hash) n ON true
			WHERE s.status = 'sending'
		)
		-- At the cap: a replacement would pass it (chain.Sender.Replace's test: +10 % and 1 wei).
		SELECT kind, count(*) AS waiting, min(first) AS oldest_at,
			count(*) FILTER (WHERE div(fee_cap_wei * 110, 100) + 1 > $1::numeric
				OR div(tip_wei * 110, 100) + 1 > $1::numeric) AS at_cap
		FROM waiting GROUP BY kind`, limit)
	if err != nil {
		return OutboxStats{}, err
	}
	st := OutboxStats{Kinds: make(map[TxKind]KindWaiting, len(kinds))}
	for _, k := range kinds {
		st.Waiting += k.Waiting
		st.AtCap += k.AtCap
		st.Kinds[k.Kind] = KindWaiting{Waiting: k.Waiting, OldestAt: k.OldestAt}
		if st.OldestAt == nil || k.OldestAt.Before(*st.OldestAt) {
			st.OldestAt = &k.OldestAt
		}
	}
	err = s.db.GetContext(ctx, &st.Replacements, `SELECT count(*) - count(DISTINCT (sender, nonce)) FROM outbox`)
	return st, err
}
