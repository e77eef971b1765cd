-- A node's ledger row id is its chain node id. Rows used to be numbered by a sequence in the
-- order they were recorded, and the payments pass, the reconciler and /api/nodes/sync race to
-- record one mint (an INSERT that loses the race still spends a sequence value), so the row ids
-- drifted from the chain's 1, 2, 3…: the `id` a list gave led /api/node/{id} to another node.
-- With one id space, a row exists only for a chain node and its id is that node's.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM nodes WHERE chain_node_id NOT BETWEEN 1 AND 9223372036854775807) THEN
        RAISE EXCEPTION 'a node''s chain id is 0 or beyond bigint: the factory numbers nodes from 1, so this ledger is not of it';
    END IF;
END $$;

-- What references a node row follows it to its new id. The keys are dropped while the ids move
-- and put back after, which checks again that every credit and withdrawal has its node.
ALTER TABLE credits DROP CONSTRAINT credits_node_id_fkey;
ALTER TABLE withdrawals DROP CONSTRAINT withdrawals_node_id_fkey;
-- Each in two steps, through negative ids, because drifted ids swap places (row 9 becomes 5 while
-- row 5 becomes 3), and a unique key is checked row by row: (distribution_id, node_id), nodes' id.
UPDATE credits c SET node_id = -n.chain_node_id FROM nodes n WHERE c.node_id = n.id AND n.id <> n.chain_node_id;
UPDATE credits SET node_id = -node_id WHERE node_id < 0;
UPDATE withdrawals w SET node_id = n.chain_node_id FROM nodes n WHERE w.node_id = n.id AND n.id <> n.chain_node_id;
UPDATE nodes SET id = -id WHERE id <> chain_node_id;
UPDATE nodes SET id = chain_node_id WHERE id < 0;

ALTER TABLE nodes ALTER COLUMN id DROP DEFAULT;
DROP SEQUENCE nodes_id_seq;
ALTER TABLE nodes DROP COLUMN chain_node_id; -- its unique key goes with it: id is the key now
ALTER TABLE nodes ADD CONSTRAINT nodes_id_check CHECK (id > 0);
ALTER TABLE credits ADD CONSTRAINT credits_node_id_fkey FOREIGN KEY (node_id) REFERENCES nodes (id);
ALTER TABLE withdrawals ADD CONSTRAINT withdrawals_node_id_fkey FOREIGN KEY (node_id) REFERENCES nodes (id);
