package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/jmoiron/sqlx"
)

// SweepStatus is where a sweep of the payments wallet to the treasury stands.
type SweepStatus string

const (
	SweepSending SweepStatus = "sending" // signed and stored; not mined yet
	SweepSwept   SweepStatus = "swept"   // mined, and the treasury has the ETH
	SweepFailed  SweepStatus = "failed"  // mined and reverted: the ETH stayed in the payments wallet
	SweepVoid    SweepStatus = "void"    // never mined: another transaction of the wallet took its nonce
)

// Sweep is one transfer of the payments wallet's excess to the treasury.
type Sweep struct {
	ID        int64   `db:"id" json:"id"`
	From      string  `db:"from_address" json:"from"`
	To        string  `db:"to_address" json:"to"`
	AmountWei Uint256 `db:"amount_wei" json:"amountWei"` // a token sweep's: the token's base units
	// Token is the listed token swept (nil: ETH), with its symbol and decimals.
	Token       *string     `db:"token" json:"token"`
	Symbol      string      `db:"symbol" json:"symbol"`
	Decimals    int         `db:"decimals" json:"decimals"`
	Status      SweepStatus `db:"status" json:"status"`
	TxHash      string      `db:"tx_hash" json:"txHash"`           // the newest version, or the one mined
	BlockNumber *int64      `db:"block_number" json:"blockNumber"` // set once mined
	CreatedAt   time.Time   `db:"created_at" json:"createdAt,omitzero"`
	// Raw is the newest version's signed bytes, for an open sweep (OpenSweep).
	Raw []byte `db:"raw" json:"-"`
}

// NewSweep is a sweep about to be recorded with its first version (TxFor.Sweep): Actor is who
// signs it (the payments wallet's signer), for the audit.
type NewSweep struct {
	To        string
	AmountWei Uint256
	Token     *string // nil: ETH
	Actor     Actor
}

const sweepColumns = `s.id, s.from_address, s.to_address, s.amount_wei, s.token, coalesce(
	(SELECT t.symbol FROM tokens t WHERE t.address = s.token), 'ETH') AS symbol, coalesce(
	(SELECT t.decimals FROM tokens t WHERE t.address = s.token), 18) AS decimals, s.status, s.tx_hash, s.block_number, s.created_at`

// Amount is what sweep sw moves, in its token's units with its symbol: "300 USDC", "1.5 ETH".
func (sw Sweep) Amount() TokenAmount {
	return TokenAmount{Token: Token{Address: deref(sw.Token, ""), Symbol: sw.Symbol, Decimals: sw.Decimals}, Amount: sw.AmountWei}
}

// ActionSweep is the audit's name for a sweep: the service moving the sale's money.
const ActionSweep AuditAction = "treasury.sweep"

// storeSweepTx keeps v, a signed version of a sweep: a new sweep (f.Sweep) is recorded with it,
// and audited, in one transaction, and its id returned; a replacement becomes the sweep's newest.
func (s *Store) storeSweepTx(ctx context.Context, f TxFor, v SentTx) (id int64, err error) {
	defer wrap(&err, "storeSweepTx")
	if f.Sweep == nil {
		return f.SweepID, s.keepVersion(ctx, v, f, `
			UPDATE sweeps SET tx_hash = $2, updated_at = now() WHERE id = $1 AND status = 'sending'`, f.SweepID, v.Hash)
	}
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	if err := tx.GetContext(ctx, &id, `
		INSERT INTO sweeps (from_address, to_address, amount_wei, token, tx_hash) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
		v.Sender, f.Sweep.To, f.Sweep.AmountWei, f.Sweep.Token, v.Hash); err != nil {
		return 0, err
	}
	if err := insertSent(ctx, tx, v, TxFor{SweepID: id}); err != nil {
		return 0, err
	}
	if f.Sweep.Token == nil { // the watch is of the wallet's ETH
		if _, err := tx.ExecContext(ctx, `UPDATE sweep_watch SET excess_since = NULL, over_min_since = NULL`); err != nil {
			return 0, err
		}
	}
	var sw Sweep
	if err := tx.GetContext(ctx, &sw, `SELECT `+sweepColumns+` FROM sweeps s WHERE s.id = $1`, id); err != nil {
		return 0, err
	}
	t := Tx{tx}
	if err := t.audit(ctx, sweepEntry(f.Sweep.Actor, OutcomeSweepSent, sw)); err != nil {
		return 0, err
	}
	return id, tx.Commit()
}

// sweepEntry is the audit entry of what came of sweep sw.
func sweepEntry(actor Actor, code AuditOutcomeCode, sw Sweep) AuditEntry {
	a := AuditArgs{Sweep: sw.ID, AmountWei: sw.AmountWei, TxHash: sw.TxHash}
	if sw.Token != nil {
		a.AmountWei, a.Tokens = Uint256{}, []TokenAmount{sw.Amount()}
	}
	return AuditEntry{Actor: actor, Action: ActionSweep, Target: sw.To, Outcome: AuditOutcome{Code: code, Args: a}}
}

// LastTokenSweep is the block of the newest sweep of token that was mined (swept or failed);
// nil when none was.
func (s *Store) LastTokenSweep(ctx context.Context, token string) (_ *int64, err error) {
	defer wrap(&err, "LastTokenSweep")
	var block *int64
	err = s.db.GetContext(ctx, &block, `
		SELECT max(block_number) FROM sweeps WHERE token = $1 AND status IN ('swept', 'failed')`, token)
	return block, err
}

// OpenSweep is the sweep under way (at most one is), with its newest version's bytes; nil when
// none is.
func (s *Store) OpenSweep(ctx context.Context) (_ *Sweep, err error) {
	defer wrap(&err, "OpenSweep")
	var sw Sweep
	err = s.db.GetContext(ctx, &sw, `
		SELECT `+sweepColumns+`, o.raw FROM sweeps s JOIN outbox o ON o.tx_hash = s.tx_hash
		WHERE s.status = 'sending'`)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return &sw, err
}

// SettleSweep records how sweep id ended, and audits it as actor: mined by txHash in block
// (swept, or failed when it reverted), or void (never mined; txHash and block are ignored).
// Only an open sweep moves; ErrNotFound otherwise.
func (s *Store) SettleSweep(ctx context.Context, id int64, status SweepStatus, txHash string, block int64, actor Actor) (err error) {
	defer wrap(&err, "SettleSweep")
	code := map[SweepStatus]AuditOutcomeCode{SweepSwept: OutcomeSweepDone, SweepFailed: OutcomeSweepFailed, SweepVoid: OutcomeSweepVoid}[status]
	if code == "" {
		return errors.New("a sweep settles as swept, failed or void")
	}
	return s.Audited(ctx, AuditEntry{Actor: actor, Action: ActionSweep}, func(t Tx, e *AuditEntry) error {
		var sw Sweep
		err := sqlx.GetContext(ctx, t.q, &sw, `
			UPDATE sweeps s SET status = $2,
				tx_hash = CASE WHEN $2 = 'void' THEN tx_hash ELSE $3 END,
				block_number = CASE WHEN $2 = 'void' THEN NULL ELSE $4::bigint END, updated_at = now()
			WHERE id = $1 AND status = 'sending'
			RETURNING `+sweepColumns, id, status, txHash, block)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		*e = sweepEntry(actor, code, sw)
		return err
	})
}

// LastSweep is the newest sweep of ETH that reached the treasury; nil when none has.
func (s *Store) LastSweep(ctx context.Context) (_ *Sweep, err error) {
	defer wrap(&err, "LastSweep")
	var sw Sweep
	err = s.db.GetContext(ctx, &sw, `
		SELECT `+sweepColumns+` FROM sweeps s WHERE s.status = 'swept' AND s.token IS NULL
		ORDER BY s.block_number DESC, s.id DESC LIMIT 1`)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return &sw, err
}

// SweepWatch is what the sweep pass remembers between heads: the first head at which the payments
// wallet held anything to sweep, and more than SWEEP_MIN_WEI, since the last sweep; nil: it did
// not at the last look.
type SweepWatch struct {
	ExcessSince  *int64 `db:"excess_since"`
	OverMinSince *int64 `db:"over_min_since"`
}

// Watch reads the sweep pass's watch.
func (s *Store) Watch(ctx context.Context) (_ SweepWatch, err error) {
	defer wrap(&err, "Watch")
	var w SweepWatch
	err = s.db.GetContext(ctx, &w, `SELECT excess_since, over_min_since FROM sweep_watch`)
	return w, err
}

// SetWatch keeps what the sweep pass saw at a head: a since already set stays (the first head
// counts), one the wallet no longer holds is cleared.
func (s *Store) SetWatch(ctx context.Context, head int64, excess, overMin bool) (_ SweepWatch, err error) {
	defer wrap(&err, "SetWatch")
	var w SweepWatch
	err = s.db.GetContext(ctx, &w, `
		UPDATE sweep_watch SET
			excess_since = CASE WHEN $2 THEN coalesce(excess_since, $1) END,
			over_min_since = CASE WHEN $3 THEN coalesce(over_min_since, $1) END
		RETURNING excess_since, over_min_since`, head, excess, overMin)
	return w, err
}
