package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"
)

// replayed are the tables a settings log is replayed into; their triggers (which version a
// change and log it) stay off while it is, so that the log and the versions are the source's.
var replayed = []string{"tiers", "tier_versions", "allowlist_versions", "referral_codes", "referral_code_versions",
	"referral_bindings", "settings", "denylist_versions", "payment_releases", "kyc_events", "settings_log"}

// replaySQL writes one entry's body ($1) into the tables it was logged from, by kind.
var replaySQL = map[LogKind][]string{
	LogTier: {`
		INSERT INTO tiers (id, label, price_wei, max_per_wallet, holding_wei, holding_token, on_sale, supply,
			starts_at, ends_at, allowlist_until, opens_after_tier, token_prices, note, kyc_required)
		SELECT v.tier, coalesce($1::jsonb->>'label', 'Tier ' || v.tier), v.price_wei, v.max_per_wallet, v.holding_wei,
			v.holding_token, v.on_sale, v.supply, v.starts_at, v.ends_at, v.allowlist_until, v.opens_after_tier,
			v.token_prices, $1::jsonb->>'note', coalesce(v.kyc_required, false)
		FROM jsonb_populate_record(NULL::tier_versions, $1::jsonb) v
		ON CONFLICT (id) DO UPDATE SET label = excluded.label, price_wei = excluded.price_wei,
			max_per_wallet = excluded.max_per_wallet, holding_wei = excluded.holding_wei,
			holding_token = excluded.holding_token, on_sale = excluded.on_sale, supply = excluded.supply,
			starts_at = excluded.starts_at, ends_at = excluded.ends_at, allowlist_until = excluded.allowlist_until,
			opens_after_tier = excluded.opens_after_tier, token_prices = excluded.token_prices, note = excluded.note,
			kyc_required = excluded.kyc_required`,
		`INSERT INTO tier_versions SELECT (jsonb_populate_record(NULL::tier_versions, jsonb_build_object('kyc_required', false) || $1::jsonb)).*`},
	LogAllowlist: {
		`INSERT INTO allowlist_versions (id, tier, effective_at, created_at)
		SELECT id, tier, effective_at, created_at FROM jsonb_populate_record(NULL::allowlist_versions, $1::jsonb)`,
		`INSERT INTO allowlist_entries (version, address, allocation)
		SELECT ($1::jsonb->>'id')::bigint, e->>0, (e->>1)::int FROM jsonb_array_elements($1::jsonb->'entries') e`},
	LogReferralCode: {`
		INSERT INTO referral_codes (key, code, owner, discount_bps, commission_bps, parent, parent_bps, expires_at,
			enabled, created_by, updated_by, created_at, updated_at)
		SELECT v.key, coalesce($1::jsonb->>'code', v.key), v.owner, v.discount_bps, v.commission_bps, v.parent, v.parent_bps,
			v.expires_at, v.enabled, v.changed_by, v.changed_by, v.effective_at, v.effective_at
		FROM jsonb_populate_record(NULL::referral_code_versions, $1::jsonb) v
		ON CONFLICT (key) DO UPDATE SET code = excluded.code, owner = excluded.owner, discount_bps = excluded.discount_bps,
			commission_bps = excluded.commission_bps, parent = excluded.parent, parent_bps = excluded.parent_bps,
			expires_at = excluded.expires_at, enabled = excluded.enabled, updated_by = excluded.updated_by,
			updated_at = excluded.updated_at`,
		`INSERT INTO referral_code_versions SELECT * FROM jsonb_populate_record(NULL::referral_code_versions, $1::jsonb)`},
	LogDenylist: {
		`INSERT INTO denylist_versions (id, effective_at, created_by)
		SELECT id, effective_at, created_by FROM jsonb_populate_record(NULL::denylist_versions, $1::jsonb)`,
		`INSERT INTO denylist_entries (version, address, reason)
		SELECT ($1::jsonb->>'id')::bigint, e->>0, e->>1 FROM jsonb_array_elements($1::jsonb->'entries') e`},
	LogRelease: {`INSERT INTO payment_releases SELECT * FROM jsonb_populate_record(NULL::payment_releases, $1::jsonb)`},
	LogKYC:     {`INSERT INTO kyc_events SELECT * FROM jsonb_populate_record(NULL::kyc_events, $1::jsonb)`},
	LogBinding: {`INSERT INTO referral_bindings SELECT * FROM jsonb_populate_record(NULL::referral_bindings, $1::jsonb)`},
	LogSetting: {`
		INSERT INTO settings (name, value) SELECT name, value FROM jsonb_populate_record(NULL::settings, $1::jsonb)
		ON CONFLICT (name) DO UPDATE SET value = excluded.value`},
	LogDeployment: {`
		INSERT INTO tokens (address, symbol, decimals)
		SELECT t.token, t.symbol, t.decimals FROM jsonb_to_recordset($1::jsonb->'tokens') AS t (token text, symbol text, decimals int)
		ON CONFLICT (address) DO UPDATE SET symbol = excluded.symbol, decimals = excluded.decimals`},
}

// ReplaySettings writes settings log entries that continue this database's own log (the whole
// log, from its first entry, into a ledger that has none), checked against each other's hashes:
// the entries themselves, verbatim, and what each decided, in the tables it was logged from
// (tiers and their versions, allowlists, referral codes and their versions, bindings, settings,
// the listed tokens), so that judgements read there what they read in the ledger the log comes
// from.
func (s *Store) ReplaySettings(ctx context.Context, entries []LogEntry) (err error) {
	defer wrap(&err, "ReplaySettings")
	if len(entries) == 0 {
		return nil
	}
	tx, err := s.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	last, prev := int64(0), GenesisHash
	if err := tx.QueryRowxContext(ctx, `SELECT seq, hash FROM settings_log ORDER BY seq DESC LIMIT 1`).Scan(&last, &prev); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	if _, err := CheckLog(last, prev, entries); err != nil {
		return err
	}
	if err := setTriggers(ctx, tx, "DISABLE"); err != nil {
		return err
	}
	if err := replay(ctx, tx, entries); err != nil {
		return err
	}
	if err := setTriggers(ctx, tx, "ENABLE"); err != nil {
		return err
	}
	return tx.Commit()
}

// setTriggers disables or enables (what) the user triggers of the tables replayed into.
func setTriggers(ctx context.Context, tx *sqlx.Tx, what string) error {
	for _, t := range replayed {
		if _, err := tx.ExecContext(ctx, `ALTER TABLE `+t+` `+what+` TRIGGER USER`); err != nil {
			return err
		}
	}
	return nil
}

// replay writes entries, in tx, into the settings log and the tables they were logged from, and
// moves the tables' sequences past what they wrote.
func replay(ctx context.Context, tx *sqlx.Tx, entries []LogEntry) error {
	for _, e := range entries {
		for _, q := range replaySQL[e.Kind] {
			if _, err := tx.ExecContext(ctx, q, string(e.Body)); err != nil {
				return fmt.Errorf("entry %d (%s): %w", e.Seq, e.Kind, err)
			}
		}
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO settings_log (seq, kind, applies_from, head_block, body, entry, prev_hash, hash, written_at)
			VALUES ($1, $2, $3::timestamptz, $4, $5, $6, $7, $8, $9)`,
			e.Seq, e.Kind, e.AppliesFrom, e.HeadBlock, string(e.Body), e.Entry, []byte(e.PrevHash), []byte(e.Hash), e.WrittenAt); err != nil {
			return fmt.Errorf("entry %d: %w", e.Seq, err)
		}
	}
	for _, t := range []string{"tier_versions", "allowlist_versions", "referral_code_versions", "referral_bindings", "denylist_versions", "kyc_events"} {
		if _, err := tx.ExecContext(ctx, `
			SELECT setval(pg_get_serial_sequence('`+t+`', 'id'), coalesce(max(id), 1), max(id) IS NOT NULL) FROM `+t); err != nil {
			return err
		}
	}
	return nil
}

// HoldsLedger tells whether the database holds anything of a ledger: settings, tiers or payments.
func (s *Store) HoldsLedger(ctx context.Context) (held bool, err error) {
	defer wrap(&err, "HoldsLedger")
	err = s.db.GetContext(ctx, &held, `
		SELECT EXISTS (SELECT 1 FROM settings_log) OR EXISTS (SELECT 1 FROM payments) OR EXISTS (SELECT 1 FROM tiers)`)
	return held, err
}
