-- Every change to what a payment's tracker shows is announced on the channel '<schema>.payments'
-- (NOTIFY, delivered at commit), so that each instance keeps the payments its trackers poll in
-- memory until the ledger changes them (sale.Tracker, store.FollowPayments), rather than asking
-- the database every two seconds for each of them: a sale day's 3,000 trackers were most of
-- its queries (issue 53 §4). The payload is the changed payments' transaction hashes, comma
-- separated, a hundred at most a notification (a payload holds 8,000 bytes), or '*' for "any
-- payment" (a token's symbol). The schema in the channel's name keeps a verifier's scratch
-- schema from speaking for the ledger's.

-- announce_payments is the statement's payments, from its transition table "changed", which
-- has their tx_hash.
CREATE FUNCTION announce_payments() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify(TG_TABLE_SCHEMA || '.payments', string_agg(tx_hash, ','))
    FROM (SELECT tx_hash, (row_number() OVER ()) / 100 AS part FROM (SELECT DISTINCT tx_hash FROM changed) d) p
    GROUP BY part;
    RETURN NULL;
END $$;

-- announce_payments_of is announce_payments for rows that name their payment by payment_id.
CREATE FUNCTION announce_payments_of() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify(TG_TABLE_SCHEMA || '.payments', string_agg(tx_hash, ','))
    FROM (SELECT tx_hash, (row_number() OVER ()) / 100 AS part
        FROM (SELECT DISTINCT p.tx_hash FROM changed c JOIN payments p ON p.id = c.payment_id) d) p
    GROUP BY part;
    RETURN NULL;
END $$;

-- announce_payment is the row's payment, for an update: most change one payment a statement
-- (a judgement, a mint's claim), where a statement's transition table costs a fifth more than
-- the update itself (0.53 against 0.42 ms, pgbench), and a row's announcement 2 %. The same
-- hash announced twice in a transaction is announced once.
CREATE FUNCTION announce_payment() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify(TG_TABLE_SCHEMA || '.payments', NEW.tx_hash);
    RETURN NULL;
END $$;

-- announce_payment_of is announce_payment for a row that names its payment by payment_id, for
-- any change (OLD or NEW is null).
CREATE FUNCTION announce_payment_of() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify(TG_TABLE_SCHEMA || '.payments', p.tx_hash)
    FROM payments p WHERE p.id IN (OLD.payment_id, NEW.payment_id);
    RETURN NULL;
END $$;

CREATE FUNCTION announce_all_payments() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify(TG_TABLE_SCHEMA || '.payments', '*');
    RETURN NULL;
END $$;

-- Rows are added and removed many a statement (a scan's block, a seed's million), and announced a
-- hundred a notification; a trigger with a transition table takes one event, so each has its own.
CREATE TRIGGER payments_added AFTER INSERT ON payments REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION announce_payments();
CREATE TRIGGER payments_changed AFTER UPDATE ON payments
    FOR EACH ROW EXECUTE FUNCTION announce_payment();
CREATE TRIGGER payments_removed AFTER DELETE ON payments REFERENCING OLD TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION announce_payments();

CREATE TRIGGER head_payments_added AFTER INSERT ON head_payments REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION announce_payments();
CREATE TRIGGER head_payments_changed AFTER UPDATE ON head_payments
    FOR EACH ROW EXECUTE FUNCTION announce_payment();
CREATE TRIGGER head_payments_removed AFTER DELETE ON head_payments REFERENCING OLD TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION announce_payments();

-- A node's credits change at every round and no tracker shows them: only which node a payment
-- minted, and in which transaction, is announced.
CREATE TRIGGER nodes_added AFTER INSERT ON nodes REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION announce_payments_of();
CREATE TRIGGER nodes_removed AFTER DELETE ON nodes REFERENCING OLD TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION announce_payments_of();
CREATE TRIGGER nodes_changed AFTER UPDATE OF id, payment_id, mint_tx ON nodes
    FOR EACH ROW EXECUTE FUNCTION announce_payment_of();

-- A payment's code is written and cleared one payment a statement, at its judgement (a clear that
-- finds nothing fires no row trigger).
CREATE TRIGGER payment_referrals_changed AFTER INSERT OR UPDATE OR DELETE ON payment_referrals
    FOR EACH ROW EXECUTE FUNCTION announce_payment_of();

CREATE TRIGGER tokens_changed AFTER INSERT OR UPDATE OR DELETE ON tokens
    FOR EACH STATEMENT EXECUTE FUNCTION announce_all_payments();
