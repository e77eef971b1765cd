-- A referral code works whatever the buyer pays in (issue 48 §4): its discount comes off a token
-- price as off an ETH price, and its commissions are owed in the currency the payment was made in
-- (the payment's token, or ETH), to be paid from the treasury in it. The amounts are therefore in
-- the base units of the payment's currency (wei for ETH), and named so.
ALTER TABLE payment_referrals RENAME COLUMN discount_wei TO discount;
ALTER TABLE commissions RENAME COLUMN amount_wei TO amount;
