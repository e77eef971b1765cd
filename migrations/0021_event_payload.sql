-- A webhook event's data is now its payload, version 2 (store.EventPayload): written once when
-- the event is, in the API's shapes, and sent as it is. Version 1 held the payment as its ledger
-- record under Go's field names (TxHash, Status, Reason…) and the sold-out tier with a numeric id,
-- and turned them into the API's shapes at each delivery. The rows written so far, queued or
-- kept for redelivery, are rewritten here as the first release delivered them, so the deliverer
-- reads one shape:
--   {"version": 2, "data": {payment, node, round, withdrawal, tier}, "reason": {code, args}}
-- A payment's reason sentence and its confirmationsNeeded are not stored in either version: the
-- deliverer writes them, as before.

-- A version 1 payment as GET /api/payments/{txHash} answered it. A payment waiting to be checked
-- was "held" in payment.held (and its revert), else "minting" (handlers' EventBody did so).
CREATE FUNCTION pg_temp.payment_doc(p jsonb, typ text) RETURNS jsonb LANGUAGE sql STABLE
AS $$
SELECT jsonb_build_object(
    'txHash', p->'TxHash', 'callIndex', p->'CallIndex', 'from', p->'From', 'valueWei', p->'ValueWei',
    'blockNumber', p->'BlockNumber',
    'status', CASE WHEN p->>'Status' <> 'pending' THEN p->>'Status'
                   WHEN typ LIKE 'payment.held%' THEN 'held' ELSE 'minting' END,
    'reason', NULL, 'reasonCode', p->'Reason'->'code',
    'confirmations', NULL, 'confirmationsNeeded', 0,
    'tier', p->>'Tier', 'nodeId', p->'NodeID', 'chainNodeId', p->'ChainNodeID',
    'mintTx', p->'MintTx', 'refundTxHash', p->'RefundTxHash',
    'createdAt', api_time((p->>'CreatedAt')::timestamptz), 'updatedAt', api_time((p->>'UpdatedAt')::timestamptz))
$$;

-- {key: v}, or {} when v is absent (omitempty in Go).
CREATE FUNCTION pg_temp.field(key text, v jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE
AS $$ SELECT CASE WHEN v IS NULL OR v = 'null' THEN '{}'::jsonb ELSE jsonb_build_object(key, v) END $$;

UPDATE webhook_events e SET data = jsonb_build_object('version', 2, 'data',
        CASE WHEN jsonb_typeof(e.data->'payment') = 'object'
             THEN jsonb_build_object('payment', pg_temp.payment_doc(e.data->'payment', e.type)) ELSE '{}' END
        || pg_temp.field('node', e.data->'node') || pg_temp.field('round', e.data->'round')
        || pg_temp.field('withdrawal', e.data->'withdrawal')
        || CASE WHEN jsonb_typeof(e.data->'tier') = 'object'
                THEN jsonb_build_object('tier', jsonb_build_object('id', e.data->'tier'->>'id',
                    'label', e.data->'tier'->'label', 'supply', e.data->'tier'->'supply', 'sold', e.data->'tier'->'supply'))
                ELSE '{}' END)
    || CASE WHEN jsonb_typeof(e.data->'payment'->'Reason') = 'object'
            THEN jsonb_build_object('reason', e.data->'payment'->'Reason') ELSE '{}' END
WHERE NOT e.data ? 'version';
