-- A tier's payout weight lives in the factory, where only its owner sets it (setTierWeight): the
-- ledger's copy, which an API key could change, is gone. A round records the weights it was
-- priced with (weights, read from the chain at the block it was priced at) and their version,
-- which its distribute call names: the contract refuses it once the owner changed a weight.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM distributions WHERE status = 'pending') THEN
        RAISE EXCEPTION 'a credit round is still pending: finish it with the previous release before upgrading';
    END IF;
END $$;

ALTER TABLE tiers DROP COLUMN payout_bps;
ALTER TABLE distributions ADD COLUMN weights_version bigint CHECK (weights_version >= 0);
