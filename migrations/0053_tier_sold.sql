-- What each tier sold (its nodes, and its payments being minted), kept as those rows change, so
-- that a judgement and a claim read one row rather than count the nodes sold before them: the
-- count made a sale's judgements cost in proportion to its size, and a rebuild of a sale of
-- 13,000 payments spent most of its time counting.
-- n has no CHECK (n >= 0): INSERT … ON CONFLICT checks the row it proposes, the delta, before it
-- finds the row it adds to. Tests hold it to the count (storetest.CheckSold).
CREATE TABLE tier_sold (
    tier smallint PRIMARY KEY REFERENCES tiers (id) ON DELETE CASCADE,
    n    bigint   NOT NULL
);

INSERT INTO tier_sold (tier, n)
SELECT tier, sum(n) FROM (
    SELECT tier, count(*) AS n FROM nodes GROUP BY tier
    UNION ALL
    SELECT tier, count(*) FROM payments WHERE status = 'minting' AND tier IS NOT NULL GROUP BY tier
) s GROUP BY tier;

-- tier_sold_add adds deltas[i] to what tiers[i] sold; tiers in order, so that two transactions
-- changing the same tiers lock their rows in the same order.
CREATE FUNCTION tier_sold_add(tiers smallint[], deltas bigint[]) RETURNS void LANGUAGE sql AS $$
    INSERT INTO tier_sold AS s (tier, n)
    SELECT t, sum(d) FROM unnest(tiers, deltas) AS u (t, d)
    WHERE t IS NOT NULL GROUP BY t HAVING sum(d) <> 0 ORDER BY t
    ON CONFLICT (tier) DO UPDATE SET n = s.n + excluded.n
$$;

-- Once per statement, over the rows it inserted (NEW TABLE added) or deleted (OLD TABLE
-- removed): a mint transaction's nodes are counted in one go. TG_ARGV[0], when given, is the
-- only status counted (a payment counts while minting).
CREATE FUNCTION tier_sold_rows_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_NARGS = 0 THEN
        PERFORM tier_sold_add(array_agg(tier), array_agg(1::bigint)) FROM added;
    ELSE
        PERFORM tier_sold_add(array_agg(tier), array_agg(1::bigint)) FROM added WHERE status::text = TG_ARGV[0];
    END IF;
    RETURN NULL;
END $$;

CREATE FUNCTION tier_sold_rows_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_NARGS = 0 THEN
        PERFORM tier_sold_add(array_agg(tier), array_agg(-1::bigint)) FROM removed;
    ELSE
        PERFORM tier_sold_add(array_agg(tier), array_agg(-1::bigint)) FROM removed WHERE status::text = TG_ARGV[0];
    END IF;
    RETURN NULL;
END $$;

-- A payment counts while minting: an update moves it in (claimed) or out (minted, failed) or
-- between tiers.
CREATE FUNCTION tier_sold_payments_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM tier_sold_add(array_agg(tier), array_agg(d)) FROM (
        SELECT tier, 1::bigint AS d FROM added WHERE status = 'minting'
        UNION ALL
        SELECT tier, -1::bigint FROM removed WHERE status = 'minting'
    ) c;
    RETURN NULL;
END $$;

-- A node rarely changes tier, and nodes are updated by the thousand at each round's credit: a
-- row trigger that fires only on a change of tier costs those updates nothing.
CREATE FUNCTION tier_sold_node_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM tier_sold_add(ARRAY[old.tier, new.tier], ARRAY[-1, 1]::bigint[]);
    RETURN NULL;
END $$;

CREATE TRIGGER tier_sold_added AFTER INSERT ON nodes
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION tier_sold_rows_added();
CREATE TRIGGER tier_sold_removed AFTER DELETE ON nodes
    REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION tier_sold_rows_removed();
CREATE TRIGGER tier_sold_moved AFTER UPDATE OF tier ON nodes
    FOR EACH ROW WHEN (old.tier IS DISTINCT FROM new.tier) EXECUTE FUNCTION tier_sold_node_moved();

CREATE TRIGGER tier_sold_added AFTER INSERT ON payments
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION tier_sold_rows_added('minting');
CREATE TRIGGER tier_sold_removed AFTER DELETE ON payments
    REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION tier_sold_rows_removed('minting');
CREATE TRIGGER tier_sold_changed AFTER UPDATE ON payments
    REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION tier_sold_payments_changed();
