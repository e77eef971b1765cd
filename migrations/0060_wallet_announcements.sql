-- Every change to what GET /api/nodes/{address} shows of a wallet is announced on the channel
-- '<schema>.wallets' (NOTIFY, delivered at commit), so that each instance keeps the wallets'
-- documents it served until the ledger changes them (handlers.FollowLedger, store.Keep), rather
-- than building each again from the database: most of that route's cost is the server's, not the
-- query's (issue 53 §4, bench/README.md). The payload is the wallets' addresses, comma separated,
-- a hundred at most a notification (a payload holds 8,000 bytes). The document is the wallet's
-- rows of nodes alone (store.nodeJSON), so only nodes are watched.

-- announce_wallets is the statement's wallets, from its transition table "changed", which has
-- their owner.
CREATE FUNCTION announce_wallets() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify(TG_TABLE_SCHEMA || '.wallets', string_agg(owner, ','))
    FROM (SELECT owner, (row_number() OVER ()) / 100 AS part FROM (SELECT DISTINCT owner FROM changed) d) p
    GROUP BY part;
    RETURN NULL;
END $$;

-- announce_wallet is the row's wallet, and its former one when the node changed hands. A round
-- credits every node in one statement: a row's announcement costs it less than a statement's
-- transition tables, which would also be written for the many updates of columns the document
-- does not show (a node's reconciled block); the same wallet announced twice in a transaction is
-- announced once.
CREATE FUNCTION announce_wallet() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify(TG_TABLE_SCHEMA || '.wallets', NEW.owner);
    IF OLD.owner <> NEW.owner THEN
        PERFORM pg_notify(TG_TABLE_SCHEMA || '.wallets', OLD.owner);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER wallets_added AFTER INSERT ON nodes REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION announce_wallets();
CREATE TRIGGER wallets_removed AFTER DELETE ON nodes REFERENCING OLD TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION announce_wallets();
-- The columns are those store.nodeJSON shows, and the owner it is found by
-- (TestWalletsAnnounced holds them to it).
CREATE TRIGGER wallets_changed AFTER UPDATE ON nodes FOR EACH ROW
    WHEN ((OLD.owner, OLD.id, OLD.tier, OLD.balance_wei, OLD.cumulative_wei, OLD.withdrawn_wei, OLD.mint_tx, OLD.status, OLD.created_at)
        IS DISTINCT FROM (NEW.owner, NEW.id, NEW.tier, NEW.balance_wei, NEW.cumulative_wei, NEW.withdrawn_wei, NEW.mint_tx, NEW.status, NEW.created_at))
    EXECUTE FUNCTION announce_wallet();
