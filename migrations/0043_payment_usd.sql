-- The operator's revenue counted ETH only (issue 48 §6). Revenue is now given per currency, and
-- in US dollars at the ETH/USD feed's price of each payment's block, a figure the books can use:
-- the feed's answer at the block is kept with the payment when the scan records it (NULL: no
-- feed, or none could be read; a token payment is booked at a dollar a unit, the sale's tokens
-- being stablecoins).
ALTER TABLE payments ADD COLUMN usd_per_eth numeric CHECK (usd_per_eth > 0);
