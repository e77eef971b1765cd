-- A rejected payment keeps why as a reason code and the values the check saw (amounts in wei), no
-- longer as a finished sentence: the sentence a person reads is written where it is shown, and
-- integrators switch on the code (the API's reasonCode). The rows rejected so far have their
-- sentence read back into a code and its arguments, form by form, exactly as the checks wrote
-- them; a sentence that matches none keeps its words as the argument text of the code 'other'.
-- The reason column then goes: every reason has one home.
ALTER TABLE payments
    ADD COLUMN reason_code text CHECK (reason_code IN ('wrong_amount', 'no_tier_on_sale', 'minting_paused',
        'wallet_limit', 'contract_wallet_limit', 'holding_too_low', 'contract_refused', 'other')),
    ADD COLUMN reason_args jsonb CHECK (jsonb_typeof(reason_args) = 'object');

-- wei from the exact ether the sentences wrote ("0.15"), as the JSON string the API shows.
CREATE FUNCTION pg_temp.wei(eth text) RETURNS jsonb LANGUAGE sql IMMUTABLE
AS $$ SELECT to_jsonb((eth::numeric * 1000000000000000000)::numeric(78,0)::text) $$;

-- A tier's id from its label, when exactly one tier has that label (the sentences name tiers by
-- label only); null otherwise, and the argument is left out.
CREATE FUNCTION pg_temp.tier_id(label text) RETURNS jsonb LANGUAGE sql STABLE
AS $$ SELECT to_jsonb(min(id)) FROM tiers WHERE tiers.label = $1 HAVING count(*) = 1 $$;

-- The rejections so far, each with its sentence matched against the forms below.
CREATE TEMP TABLE rejected ON COMMIT DROP AS
SELECT id, reason FROM payments WHERE status IN ('rejected', 'refunded');

UPDATE payments p SET reason_code = 'minting_paused', reason_args = '{}'
FROM rejected r
WHERE r.id = p.id AND r.reason = 'Minting was paused on the contract when this payment was checked.';

UPDATE payments p SET reason_code = 'contract_refused', reason_args = CASE r.reason
        WHEN 'The contract refused the mint: this wallet already holds the most nodes it allows one wallet.'
            THEN '{"error": "WalletFull"}'::jsonb
        WHEN 'The contract refused the mint: minting was paused.' THEN '{"error": "MintingPaused"}'
        ELSE '{}'::jsonb END
FROM rejected r
WHERE r.id = p.id AND r.reason IN ('The contract refused the mint.',
    'The contract refused the mint: this wallet already holds the most nodes it allows one wallet.',
    'The contract refused the mint: minting was paused.');

UPDATE payments p SET reason_code = 'no_tier_on_sale', reason_args = jsonb_build_object('paidWei', pg_temp.wei(r.m[1]))
FROM (SELECT id, regexp_match(reason, '^([0-9]+(?:\.[0-9]+)?) ETH was paid while no tier was on sale\.$') m FROM rejected) r
WHERE r.id = p.id AND r.m IS NOT NULL;

-- "0.15 ETH is not the price of any tier on sale; the One tier costs 0.1 ETH, the Two tier 1 ETH
-- and the Three tier 2 ETH." The list is read tier by tier, and taken only when the tiers read
-- write it again word for word (a label with " tier " in it could read two ways).
WITH sentences AS (
    SELECT id, m[1] AS paid, m[2] AS list
    FROM (SELECT id, regexp_match(reason, '^([0-9]+(?:\.[0-9]+)?) ETH is not the price of any tier on sale; (.+)\.$') m
          FROM rejected) r
    WHERE m IS NOT NULL
), tiers_read AS (
    SELECT s.id, t.ord, t.m[1] AS label, t.m[2] AS eth, count(*) OVER (PARTITION BY s.id) AS n
    FROM sentences s, regexp_matches(s.list, 'the (.+?) tier (?:costs )?([0-9]+(?:\.[0-9]+)?) ETH', 'g')
        WITH ORDINALITY AS t(m, ord)
), parsed AS (
    SELECT s.id, s.paid, s.list,
        string_agg(CASE WHEN t.ord = 1 THEN '' WHEN t.ord = t.n THEN ' and ' ELSE ', ' END
            || 'the ' || t.label || ' tier ' || CASE WHEN t.ord = 1 THEN 'costs ' ELSE '' END || t.eth || ' ETH',
            '' ORDER BY t.ord) AS rewritten,
        jsonb_agg(jsonb_strip_nulls(jsonb_build_object('id', pg_temp.tier_id(t.label), 'label', t.label,
            'priceWei', pg_temp.wei(t.eth))) ORDER BY t.ord) AS on_sale
    FROM sentences s JOIN tiers_read t ON t.id = s.id
    GROUP BY s.id, s.paid, s.list
)
UPDATE payments p SET reason_code = 'wrong_amount',
    reason_args = jsonb_build_object('paidWei', pg_temp.wei(parsed.paid), 'onSale', parsed.on_sale)
FROM parsed
WHERE p.id = parsed.id AND parsed.rewritten = parsed.list;

UPDATE payments p SET reason_code = 'wallet_limit', reason_args = jsonb_strip_nulls(jsonb_build_object(
        'tier', pg_temp.tier_id(r.m[2]), 'tierLabel', r.m[2], 'maxPerWallet', r.m[1]::int))
FROM (SELECT id, regexp_match(reason, '^This wallet already holds the ([0-9]+) (.+) node(s?) a wallet may have\.$') m
      FROM rejected) r
WHERE r.id = p.id AND r.m IS NOT NULL AND (r.m[1] = '1') = (r.m[3] = '');

UPDATE payments p SET reason_code = 'contract_wallet_limit', reason_args = jsonb_build_object('maxPerWallet', r.m[1]::int)
FROM (SELECT id, regexp_match(reason, '^This wallet already holds ([0-9]+) node(s?), the most the contract allows one wallet\.$') m
      FROM rejected) r
WHERE r.id = p.id AND r.m IS NOT NULL AND (r.m[1] = '1') = (r.m[2] = '');

UPDATE payments p SET reason_code = 'holding_too_low', reason_args = jsonb_strip_nulls(jsonb_build_object(
        'tier', pg_temp.tier_id(r.m[1]), 'tierLabel', r.m[1], 'holdingToken', r.m[3],
        'holdingWei', to_jsonb(r.m[2]), 'heldWei', to_jsonb(r.m[4])))
FROM (SELECT id, regexp_match(reason,
        '^The (.+) tier asks the wallet to hold ([0-9]+) units of the token (0x[0-9a-fA-F]{40}); it holds ([0-9]+)\.$') m
      FROM rejected) r
WHERE r.id = p.id AND r.m IS NOT NULL;

-- Whatever else a rejection says, it keeps as it was. (A reason on a payment not rejected, which
-- nothing writes, goes with the column.)
UPDATE payments p SET reason_code = 'other',
    reason_args = CASE WHEN r.reason IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('text', r.reason) END
FROM rejected r
WHERE r.id = p.id AND p.reason_code IS NULL;

ALTER TABLE payments
    DROP COLUMN reason,
    -- Every rejected payment says why; no other does.
    ADD CONSTRAINT payments_reason CHECK ((status IN ('rejected', 'refunded')) = (reason_code IS NOT NULL)),
    ADD CONSTRAINT payments_reason_args CHECK ((reason_code IS NULL) = (reason_args IS NULL));
