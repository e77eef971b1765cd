-- A bind made in the same second as a payment's block counted for it (issue 48 §8): bindings were
-- kept to the second and compared with the block's time by <=, so a wallet that paid and bound a
-- code within that second was judged under it. A binding now keeps the chain's head when it was
-- made, and counts for the payments of later blocks only. Bindings made before keep the rule of
-- their time.
ALTER TABLE referral_bindings ADD COLUMN head_block bigint CHECK (head_block >= 0);
