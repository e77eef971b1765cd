-- Fake token logs could stop the payments pass (issue 48 §3): the scan asked eth_getLogs for every
-- contract's Transfer logs to the payments wallet, so a stranger's contract emitting 10,002 of
-- them in one block made a provider that caps answers (10,000 logs) refuse every pass. The scan
-- now asks for the listed tokens' logs only, and so no longer learns of transfers of tokens the
-- sale does not accept: the table that kept them for the operator page goes (docs/changelog.md).
DROP TABLE token_inflows;
