-- Sweeps: what the payments wallet holds above SWEEP_KEEP_WEI, sent to the treasury Safe by the
-- sweep pass through the outbox (signed and stored before it is sent, bumped, resumed after a
-- crash). One sweep is under way at a time: the next is decided from the balance the last left.
CREATE TABLE sweeps (
    id           bigserial   PRIMARY KEY,
    from_address address     NOT NULL, -- the payments wallet
    to_address   address     NOT NULL, -- the treasury
    amount_wei   wei         NOT NULL CHECK (amount_wei > 0),
    -- sending: signed and stored, not mined yet; swept: mined and succeeded; failed: mined and
    -- reverted; void: never mined, another transaction of the wallet took its nonce.
    status       text        NOT NULL DEFAULT 'sending' CHECK (status IN ('sending', 'swept', 'failed', 'void')),
    tx_hash      txhash      NOT NULL, -- the newest version signed; the mined one once mined
    block_number bigint      CHECK ((block_number IS NOT NULL) = (status IN ('swept', 'failed'))),
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX sweeps_one_sending ON sweeps ((true)) WHERE status = 'sending';
CREATE INDEX sweeps_swept ON sweeps (block_number DESC) WHERE status = 'swept';

ALTER TABLE outbox ADD COLUMN sweep_id bigint REFERENCES sweeps (id);
CREATE INDEX outbox_sweep ON outbox (sweep_id) WHERE sweep_id IS NOT NULL;
ALTER TABLE outbox DROP CONSTRAINT outbox_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_for_one CHECK (num_nonnulls(payment_id, distribution_id, sweep_id) <= 1);

ALTER TABLE pass_status DROP CONSTRAINT pass_status_pass_check;
ALTER TABLE pass_status ADD CONSTRAINT pass_status_pass_check CHECK (pass IN ('payments', 'credit', 'reconcile', 'sweep'));

-- A sweep is the service's act, audited as an operator's is: who (the payments signer), what.
ALTER TABLE operator_audit DROP CONSTRAINT operator_audit_outcome_code_check;
ALTER TABLE operator_audit ADD CONSTRAINT operator_audit_outcome_code_check CHECK (outcome_code IN ('signed_in', 'signed_out',
    'operator_added', 'operator_unchanged', 'operator_role_changed', 'operator_removed',
    'operator_set_by_setting', 'operator_removed_by_setting',
    'tier_on_sale', 'tier_off_sale', 'tier_saved', 'allowlist_saved',
    'minting_held', 'minting_resumed',
    'payments_pass', 'credit_pass', 'pass_failed',
    'webhook_added', 'webhook_deleted', 'webhook_secret_rolled', 'webhook_enabled', 'webhook_redelivered',
    'sweep_sent', 'sweep_done', 'sweep_failed', 'sweep_void',
    'other'));

-- What the sweep pass remembers between heads, whichever instance runs it: the first head at which
-- the payments wallet held anything above SWEEP_KEEP_WEI (swept at the latest SWEEP_EVERY_BLOCKS
-- later), and the first at which it held more than SWEEP_MIN_WEI above it (which should be swept
-- at once: health is degraded when it lasts). Null: not so at the last look.
CREATE TABLE sweep_watch (
    one            boolean PRIMARY KEY DEFAULT true CHECK (one),
    excess_since   bigint,
    over_min_since bigint
);
INSERT INTO sweep_watch DEFAULT VALUES;
