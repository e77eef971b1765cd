-- One address could break "Refund all owed" (issue 48 §2): a payer that reverts on taking ETH
-- made every batch that held it revert as a whole. A batch's transfers are now simulated before
-- it is proposed, and those the chain refuses are left out: the batch keeps what it left out (the
-- payment or the commissions each would have paid, to whom, how much, and the chain's words) and
-- how many more transfers it left for a later batch to stay within a transaction's gas.
ALTER TABLE refund_batches
    ADD COLUMN left_out jsonb NOT NULL DEFAULT '[]',
    ADD COLUMN remaining int NOT NULL DEFAULT 0 CHECK (remaining >= 0);

-- A batch's execution that reverted because a transfer failed (GS013) names that transfer when
-- running each again in the block before says which: its recipient and the chain's words.
ALTER TABLE refund_batch_attempts
    ADD COLUMN refused_to address,
    ADD COLUMN refused_says text,
    ADD CONSTRAINT refund_batch_attempts_refused CHECK ((refused_to IS NULL) = (refused_says IS NULL) AND (refused_to IS NULL OR status = 'reverted'));
