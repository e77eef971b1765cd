-- The ledger proves itself (issue 50 §2 and §4).
--
-- What a judgement read of the chain is kept with its payment: [{contract, call, block, result}],
-- the calls the verdict depended on (the factory's pause and allowance per wallet, the wallet's
-- nodes, its holding token's balance), each at the block it was read at. A rebuild reuses them;
-- a verify against an archive node reads them again.
ALTER TABLE payments ADD COLUMN judged_reads jsonb;

-- The block of a node's mint and of a round's distribute transaction: the ledger events they are
-- digested with. Rows written before this migration have none and are left out of the digests
-- (docs/operations.md says so).
ALTER TABLE nodes ADD COLUMN block_number bigint;
ALTER TABLE distributions ADD COLUMN block_number bigint;
-- The digests read the events of a range of blocks from every table that holds any.
CREATE INDEX payments_block ON payments (block_number);
CREATE INDEX nodes_block ON nodes (block_number) WHERE block_number IS NOT NULL;

-- One row for each block that holds ledger events, up to the digests' cursor (chain_cursors,
-- name 'digests'): digest = sha256(prev || the block's canonical text), chained from 32 zero
-- bytes (store/digests.go writes the text). A reorg that rewinds a scan below a digested block
-- deletes the rows above it, in the rewind's transaction, and moves the cursor back.
CREATE TABLE ledger_digests (
    block_number bigint  PRIMARY KEY,
    block_hash   txhash  NOT NULL,
    events       integer NOT NULL CHECK (events > 0),
    prev         bytea   NOT NULL CHECK (length(prev) = 32),
    digest       bytea   NOT NULL UNIQUE CHECK (length(digest) = 32)
);
CREATE INDEX payments_refund_batch ON payments (refund_batch_id) WHERE refund_batch_id IS NOT NULL;

-- A rebuild makes the tiers and codes again from the settings log alone: a tier's entry carries
-- its label and note, and a code's its spelling, beside the version they were logged with.
CREATE OR REPLACE FUNCTION settings_log_change() RETURNS trigger LANGUAGE plpgsql SET timezone TO 'UTC' AS $$
BEGIN
    CASE TG_TABLE_NAME
    WHEN 'tier_versions' THEN
        PERFORM settings_log_append('tier', NEW.effective_at, to_jsonb(NEW) ||
            (SELECT jsonb_build_object('label', t.label, 'note', t.note) FROM tiers t WHERE t.id = NEW.tier));
    WHEN 'allowlist_versions' THEN
        PERFORM settings_log_append('allowlist', NEW.effective_at, settings_log_allowlist(NEW));
    WHEN 'referral_code_versions' THEN
        PERFORM settings_log_append('referral_code', NEW.effective_at, to_jsonb(NEW) ||
            (SELECT jsonb_build_object('code', c.code) FROM referral_codes c WHERE c.key = NEW.key));
    WHEN 'referral_bindings' THEN
        PERFORM settings_log_append('binding', NEW.bound_at, to_jsonb(NEW));
    WHEN 'settings' THEN
        IF TG_OP = 'UPDATE' AND OLD.value IS NOT DISTINCT FROM NEW.value THEN
            RETURN NULL;
        END IF;
        PERFORM settings_log_append('setting', date_trunc('second', clock_timestamp()), to_jsonb(NEW) - 'updated_at');
    END CASE;
    RETURN NULL;
END $$;

-- Where the continuous verifier stands (jobs.Verify): the ledger rebuilt from the chain and the
-- settings log agrees with this one up to verified_to; mismatch_block is the first block where
-- it does not (null: none), with the events that differ there.
CREATE TABLE ledger_verification (
    one            boolean     PRIMARY KEY DEFAULT true CHECK (one),
    verified_to    bigint,
    mismatch_block bigint,
    mismatch       jsonb,
    checked_at     timestamptz NOT NULL DEFAULT now()
);
-- A ledger older than this migration kept no judgement's reads, no mint's or round's block: its
-- rows up to here cannot equal a rebuild's, and the continuous verifier starts where it stands.
INSERT INTO ledger_verification (verified_to) SELECT block_number FROM chain_cursors WHERE name = 'payments';
