package store

import (
	"cmp"
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
)

// A payment that checks out is minted in two steps. ClaimMint takes its tier's unit and moves it
// to minting, one payment at a time in chain order, so each judgement counts the ones before it;
// then the payments claimed are signed together, one transaction for up to a batch of them
// (KeepTx with TxFor.Mints: a mint batch), stored before it is sent. A crash between the two
// leaves payments minting in no batch, which the next pass signs (ToSign).

// ClaimMint moves pending payment id to minting in tier, under the referral code ref (nil: none)
// its judgement found, and takes one of the tier's units in the same transaction, with the tier
// locked, so that passes racing on one database never mint more than its supply: a
// *SoldOutError when none is left, and nothing is claimed. ErrNotFound when the payment is no
// longer pending.
func (s *Store) ClaimMint(ctx context.Context, id int64, tier int, ref *PaymentReferral, reads []ChainRead) (err error) {
	defer wrap(&err, "ClaimMint")
	return s.claim(ctx, id, tier, ref, reads, nil)
}

// HoldUnit is ClaimMint for a payment held with its unit kept for it (an identity check's hold,
// code and args its reason): it counts against the tier's supply while held, and is released
// to be minted or refunded (ResolveKYCHolds).
func (s *Store) HoldUnit(ctx context.Context, id int64, tier int, ref *PaymentReferral, reads []ChainRead, code ReasonCode, args any) (err error) {
	defer wrap(&err, "HoldUnit")
	return s.claim(ctx, id, tier, ref, reads, &heldFor{code, args})
}

// heldFor is why a payment that takes its tier's unit is held instead of minted.
type heldFor struct {
	code ReasonCode
	args any
}

// claim is ClaimMint, or HoldUnit with hold.
func (s *Store) claim(ctx context.Context, id int64, tier int, ref *PaymentReferral, reads []ChainRead, hold *heldFor) error {
	readsJSON, err := readsValue(reads)
	if err != nil {
		return err
	}
	status, code, args := PaymentMinting, (*ReasonCode)(nil), driver.Value(nil)
	if hold != nil {
		if args, err = jsonValue(hold.args); err != nil {
			return err
		}
		status, code = PaymentHeld, &hold.code
	}
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	soldOut, err := s.claimUnit(ctx, tx, id, tier)
	if err != nil {
		return err
	}
	if err := s.keepPaymentReferral(ctx, tx, id, ref); err != nil {
		return err
	}
	if err := s.execIn(ctx, tx, `
		UPDATE payments SET status = $4, tier = $2, reason_code = $5, reason_args = $6,
			judged_reads = $3, updated_at = now()
		WHERE id = $1`, id, tier, readsJSON, status, code, args); err != nil {
		return err
	}
	if hold != nil {
		if err := emitPayments(ctx, tx, EventPaymentHeld, []int64{id}); err != nil {
			return err
		}
	}
	if soldOut != nil {
		if err := emitSoldOut(ctx, tx, *soldOut); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// SoldOutError is a payment that would take a unit of a tier that has none left.
type SoldOutError struct {
	Tier, Supply, Sold int
}

func (e *SoldOutError) Error() string {
	return fmt.Sprintf("tier %d is sold out: %d of %d", e.Tier, e.Sold, e.Supply)
}

// claimUnit takes one unit of tier's supply for pending payment id, or refuses with a
// *SoldOutError; ErrNotFound when the payment is not pending. The payment's row is locked first,
// then the tier's, so claims on a tier are counted one after another, each seeing the ones before.
// The supply is the one in force at the payment's time. soldOut is the tier when this claim took
// its last unit.
func (s *Store) claimUnit(ctx context.Context, tx *sqlx.Tx, id int64, tier int) (soldOut *SoldOutTier, err error) {
	var p struct {
		Status PaymentStatus `db:"status"`
		At     time.Time     `db:"at"`
	}
	err = s.getIn(ctx, tx, &p, `SELECT status, coalesce(block_time, created_at) AS at FROM payments WHERE id = $1 FOR UPDATE`, id)
	if errors.Is(err, sql.ErrNoRows) || err == nil && p.Status != PaymentPending {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	var t struct {
		Supply *int   `db:"supply"`
		Label  string `db:"label"`
	}
	err = s.getIn(ctx, tx, &t, `
		SELECT coalesce(
			(SELECT v.supply FROM tier_versions v WHERE v.tier = t.id AND v.effective_at <= $2
			 ORDER BY v.effective_at DESC, v.id DESC LIMIT 1),
			t.supply) AS supply, t.label
		FROM tiers t WHERE t.id = $1 FOR UPDATE`, tier, p.At)
	if err != nil || t.Supply == nil {
		return nil, err
	}
	var sold int
	if err := s.getIn(ctx, tx, &sold, soldSQL, tier); err != nil {
		return nil, err
	}
	if sold >= *t.Supply {
		return nil, &SoldOutError{Tier: tier, Supply: *t.Supply, Sold: sold}
	}
	if sold+1 == *t.Supply {
		return &SoldOutTier{ID: tier, Label: t.Label, Supply: *t.Supply}, nil
	}
	return nil, nil
}

// ToSign returns the payments claimed (minting) whose mint is not signed yet, in chain order.
func (s *Store) ToSign(ctx context.Context) (_ []Payment, err error) {
	defer wrap(&err, "ToSign")
	var ps []Payment
	err = s.db.SelectContext(ctx, &ps, `
		SELECT `+paymentColumns+` FROM payments WHERE status = 'minting' AND mint_batch IS NULL
		ORDER BY block_number, tx_index, call_index, id`)
	return ps, err
}

// MintBatch is a mint transaction under way: the payments it mints that are still minting, in
// chain order, and the bytes of its newest version.
type MintBatch struct {
	ID       int64
	Raw      []byte
	Payments []Payment
}

// MintBatches returns the mint transactions under way (with a payment still minting), by nonce.
func (s *Store) MintBatches(ctx context.Context) (_ []MintBatch, err error) {
	defer wrap(&err, "MintBatches")
	var rows []struct {
		Payment
		Raw []byte `db:"batch_raw"`
	}
	if err := s.db.SelectContext(ctx, &rows, `
		WITH p AS (SELECT `+paymentColumns+` FROM payments WHERE status = 'minting' AND mint_batch IS NOT NULL)
		SELECT p.*, b.raw AS batch_raw FROM p JOIN mint_batches b ON b.id = p.mint_batch
		ORDER BY b.nonce, b.id, p.block_number, p.tx_index, p.call_index, p.id`); err != nil {
		return nil, err
	}
	var out []MintBatch
	for _, r := range rows {
		if len(out) == 0 || out[len(out)-1].ID != *r.MintBatch {
			out = append(out, MintBatch{ID: *r.MintBatch, Raw: r.Raw})
		}
		b := &out[len(out)-1]
		b.Payments = append(b.Payments, r.Payment)
	}
	return out, nil
}

// keepMintTx records v, a signed version of a mint transaction, before it is sent: in the outbox,
// and as the newest of its batch and of each of the batch's payments still minting. The first
// version (f.Mints, payments claimed and in no batch) starts the batch: ErrNotFound, and nothing
// kept, when one of them is not such a payment any more. It returns f with the batch's id.
func (s *Store) keepMintTx(ctx context.Context, f TxFor, v SentTx) (_ TxFor, err error) {
	defer wrap(&err, "keepMintTx")
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return f, err
	}
	defer tx.Rollback()
	batch := f.MintBatch
	if batch == 0 {
		if err := tx.GetContext(ctx, &batch, `INSERT INTO mint_batches (tx_hash, nonce, raw) VALUES ($1, $2, $3) RETURNING id`,
			v.Hash, v.Nonce, v.Raw); err != nil {
			return f, err
		}
		res, err := tx.ExecContext(ctx, `
			UPDATE payments SET mint_batch = $2, mint_tx = $3, mint_nonce = $4, updated_at = now()
			WHERE id = ANY ($1) AND status = 'minting' AND mint_batch IS NULL`, pq.Array(f.Mints), batch, v.Hash, v.Nonce)
		if err != nil {
			return f, err
		}
		if n, err := res.RowsAffected(); err != nil || n != int64(len(f.Mints)) {
			return f, cmp.Or(err, ErrNotFound)
		}
	} else {
		if _, err := tx.ExecContext(ctx, `UPDATE mint_batches SET tx_hash = $2, nonce = $3, raw = $4 WHERE id = $1`,
			batch, v.Hash, v.Nonce, v.Raw); err != nil {
			return f, err
		}
		if _, err := tx.ExecContext(ctx, `
			UPDATE payments SET mint_tx = $2, mint_nonce = $3, updated_at = now()
			WHERE mint_batch = $1 AND status = 'minting'`, batch, v.Hash, v.Nonce); err != nil {
			return f, err
		}
	}
	f = TxFor{MintBatch: batch}
	if err := insertSent(ctx, tx, v, f); err != nil {
		return f, err
	}
	return f, tx.Commit()
}

// MintTries counts the nonces batch was signed at: its first, and each signed anew after another
// transaction took its nonce or it reverted without the factory's reason.
func (s *Store) MintTries(ctx context.Context, batch int64) (n int, err error) {
	defer wrap(&err, "MintTries")
	err = s.db.GetContext(ctx, &n, `SELECT count(DISTINCT nonce) FROM outbox WHERE mint_batch = $1`, batch)
	return n, err
}
