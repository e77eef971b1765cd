-- A payment moves only along the ledger's arrows, the table paymentMoves in store/status.go
-- (store's TestPaymentMoves holds this trigger to it, pair by pair): a bug that would skip a step
-- or undo one (a minted payment made rejected, a refund forgotten without a reorg) fails in the
-- transaction that tried it, instead of reaching a buyer.
CREATE FUNCTION payment_move_allowed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.status = OLD.status OR (OLD.status, NEW.status) IN (
        ('pending', 'minting'), ('pending', 'rejected'),
        ('minting', 'minted'), ('minting', 'rejected'),
        ('rejected', 'refunded'), ('refunded', 'rejected')) THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'payment %: % cannot become %', OLD.id, OLD.status, NEW.status
        USING ERRCODE = 'check_violation';
END $$;

CREATE TRIGGER payments_move BEFORE UPDATE OF status ON payments
    FOR EACH ROW EXECUTE FUNCTION payment_move_allowed();
