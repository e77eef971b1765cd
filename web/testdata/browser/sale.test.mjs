// The buyer's side of the sale on /buy: paying from another wallet (exact amounts, the EIP-681
// link and its QR code, whose address the node goes to), what a node earns, the holding token in
// its own units, and the Pay button that asks the service before it asks the wallet. Tiers 20 to
// 29 are this file's; each test switches off the tiers it made, so the other files' /buy shows
// what they expect.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getAddress, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { env, base, browser, walletOf, freshAccount, withWallet, cron, text, sleep, admin, putTier, switchOff, passUntil, smallTargets } from './harness.mjs';

const wide = { width: 1280, height: 900 };
const phone = { width: 390, height: 844 };
const sends = (wallet) => wallet.calls.filter((c) => c.method === 'eth_sendTransaction');

// shots takes the whole page at 1280 and 390 px, checking that it is no wider than the screen.
async function shots(page, name) {
  for (const viewport of [wide, phone]) {
    await page.setViewportSize(viewport);
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(scroll <= viewport.width, `${name}: ${scroll}px wide on a ${viewport.width}px screen`);
    await page.screenshot({ path: `${env.ARTIFACTS}/sale-${name}-${viewport.width}.png`, fullPage: true });
  }
  await page.setViewportSize(wide);
}

test('paying from an exchange or another wallet: exact amounts, the EIP-681 link and QR, whose node it is, the refund promise, earnings', async () => {
  const quote = await (await fetch(base + '/api/deploy-quote')).json();
  const context = await browser.newContext({ viewport: wide });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(base + '/buy');
  const option = page.locator(`[data-testid=pay-option][data-tier="${quote.tier}"]`);
  const uri = `ethereum:${getAddress(quote.paymentAddress)}@${quote.chainId}?value=${quote.priceWei}`;
  assert.equal(await option.locator('[data-testid=pay-link]').getAttribute('href'), uri);
  assert.equal(await option.locator('[data-testid=pay-uri]').innerText(), uri);
  assert.equal(await option.locator('[data-testid=exact-wei]').innerText(), quote.priceWei);
  // The QR code is there, drawn: a square SVG with its modules, named for screen readers.
  const qr = option.locator('[data-testid=pay-link] svg[data-testid=qr]');
  assert.equal(await qr.count(), 1);
  assert.match(await qr.getAttribute('aria-label'), /^QR code: pay [\d.]+ ETH for a .+ node$/);
  const box = await qr.boundingBox();
  assert.ok(box.width >= 150 && Math.abs(box.width - box.height) < 1, `QR ${box.width}×${box.height}`);
  assert.ok((await qr.locator('path').getAttribute('d')).length > 1000);
  // Whose node it is, said before anything else in the section.
  assert.match(await text(page, 'exchange-warning'), /belongs to the address the ETH is sent from.*exchange.*buys the node for the exchange/s);
  assert.match(await page.locator('[data-testid=quote] [data-testid=refund-promise]').innerText(), /refunded in full, to the address it came from/);
  // The copy buttons copy the exact amounts.
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  await option.locator('button', { hasText: 'Copy wei' }).click();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), quote.priceWei);
  // What a node earns: the browser test's fixed rounds of 1,000 wei at the tier's weight.
  const tier = page.locator(`[data-testid=buy-tier][data-tier="${quote.tier}"]`);
  assert.match(await tier.locator('[data-testid=earnings]').innerText(), /^Earns about 0.000000000000001 ETH a round \(every 1ms\) and about 0.000002592 ETH per 30 days \(2,592,000,000 rounds\) at today's settings\. An estimate, not a promise: the operator may change what a round pays\.$/);
  assert.deepEqual(await smallTargets(page, '[data-testid=quote] button, [data-testid=pay-link] span, [data-testid=buy-tier] button'), []);
  await shots(page, 'exchange');
  assert.deepEqual(errors, []);
  await context.close();
});




const card = (page, id) => page.locator(`[data-testid=buy-tier][data-tier="${id}"]`);
const iso = (ms) => new Date(Date.now() + ms).toISOString();
const HOUR = 3600_000;

test('sold out, and what is left of a supply', async () => {
  const sold = await putTier(20, { supply: 1 });
  await putTier(21, { supply: 5000 });
  try {
    const key = await freshAccount('1');
    const hash = await walletOf(key).sendTransaction({ to: (await (await fetch(base + '/api/deploy-quote')).json()).paymentAddress, value: BigInt(sold.priceWei) });
    await passUntil(hash, 'minted');
    const context = await browser.newContext({ viewport: wide });
    const page = await context.newPage();
    await page.goto(base + '/buy');
    assert.equal(await card(page, 20).getAttribute('data-phase'), 'sold_out');
    assert.match(await card(page, 20).locator('[data-testid=phase]').innerText(), /^Sold out/);
    assert.equal(await card(page, 20).locator('[data-testid=left]').innerText(), '0 of 1 left');
    assert.equal(await card(page, 20).locator('[data-wallet=pay]').count(), 0, 'no Pay button on a sold-out tier');
    assert.equal(await card(page, 21).locator('[data-testid=left]').innerText(), '5,000 of 5,000 left');
    assert.equal(await card(page, 21).locator('[data-wallet=pay]').count(), 1);
    // A sold-out tier is not offered to pay from elsewhere either.
    assert.equal(await page.locator('[data-testid=pay-option][data-tier="20"]').count(), 0);
    await shots(page, 'sold-out');
    await context.close();
  } finally {
    await switchOff(20, 21);
  }
});

test('countdowns to opening and closing, and a tier that opens once another sells out', async () => {
  await putTier(22, { startsAt: iso(HOUR), supply: 100 });
  await putTier(23, { endsAt: iso(2 * HOUR) });
  await putTier(24, { opensAfterTier: '22', supply: 100 });
  try {
    const context = await browser.newContext({ viewport: wide });
    const page = await context.newPage();
    await page.goto(base + '/buy');
    const opens = card(page, 22).locator('time[data-countdown]');
    assert.equal(await card(page, 22).getAttribute('data-phase'), 'scheduled');
    assert.equal(await card(page, 22).locator('[data-wallet=pay]').count(), 0, 'a scheduled tier has no Pay button');
    assert.match(await card(page, 22).locator('[data-testid=phase]').innerText(), /^Opens \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC, in (00:59:\d\d|01:00:00)$/); // a page drawn within the second shows the whole hour
    // It ticks each second; a machine busy with other tests may delay a tick, so it gets a few.
    const first = await opens.innerText();
    let next = first;
    for (const until = Date.now() + 5000; next === first && Date.now() < until; next = await opens.innerText()) await sleep(250);
    assert.notEqual(next, first, 'the countdown ticks');
    assert.match(await card(page, 23).locator('[data-testid=closes]').innerText(), /^Closes \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC, in (01:59:\d\d|02:00:00)$/);
    assert.match(await card(page, 24).locator('[data-testid=phase]').innerText(), /^Opens once Sale 22 sells out/);
    await shots(page, 'countdown');
    await context.close();
    // A tier that opens while the page is open: at zero the page brings the tiers again, and
    // the tier comes with its way to pay (this browser has no wallet: its wallet-app link),
    // without a reload.
    await putTier(28, { startsAt: iso(4000) });
    const watching = await browser.newContext({ viewport: wide });
    const watch = await watching.newPage();
    await watch.goto(base + '/buy');
    assert.equal(await card(watch, 28).getAttribute('data-phase'), 'scheduled');
    await watch.evaluate(() => { window.stillThisPage = true; });
    await watch.locator('[data-testid=buy-tier][data-tier="28"][data-phase=public] [data-testid=pay-app]').waitFor({ timeout: 15000 });
    assert.equal(await watch.evaluate(() => window.stillThisPage), true);
    await watching.close();
    // Without JavaScript the page says it in words.
    const plain = await browser.newContext({ viewport: wide, javaScriptEnabled: false });
    const still = await plain.newPage();
    await still.goto(base + '/buy');
    assert.match(await card(still, 22).locator('[data-testid=phase]').innerText(), /, in (59|60) minutes$/);
    await plain.close();
  } finally {
    await switchOff(22, 23, 24, 28);
  }
});

test('the allowlist phase: a listed wallet sees its allocation and pays, an unlisted one is told why and nothing is asked of its wallet', async () => {
  const listedKey = await freshAccount('2');
  const unlistedKey = await freshAccount('2');
  const listed = privateKeyToAccount(listedKey).address;
  await putTier(25, { allowlistUntil: iso(HOUR) });
  try {
    const up = await admin('PUT', '/tiers/25/allowlist', `address,allocation\n${listed},2\n`);
    assert.equal(up.status, 200, await up.text());
    for (const [who, key] of [['listed', listedKey], ['unlisted', unlistedKey]]) {
      const context = await browser.newContext({ viewport: wide });
      const wallet = await withWallet(context, key);
      const page = await context.newPage();
      await page.goto(base + '/buy');
      assert.match(await card(page, 25).locator('[data-testid=phase]').innerText(), /^Allowlist phase: only the wallets on its allowlist buy, until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
      // Connected, the page shows the wallet's place on the list.
      await page.click('[data-testid=connect-wallet]');
      const allocation = card(page, 25).locator('[data-testid=allocation]');
      await allocation.waitFor({ timeout: 10000 });
      if (who === 'listed') {
        assert.equal(await allocation.innerText(), 'This wallet is on the allowlist: it may buy 2, and has bought 0.');
      } else {
        assert.equal(await allocation.innerText(), 'This wallet is not on the allowlist: it can buy once the public sale opens.');
      }
      await shots(page, 'allowlist-' + who);
      if (who === 'unlisted') {
        // Known to the page, the wallet gets no Pay button, and the reason.
        assert.match(await card(page, 25).locator('[data-testid=blocked]').innerText(), /only the wallets on the Sale 25 tier's allowlist may buy it, and this wallet is not on it/);
        assert.equal(await card(page, 25).locator('[data-wallet=pay]').count(), 0);
        // On a fresh visit, never connected: the Pay button asks the wallet for its account,
        // then the service, and stops there.
        const fresh = await browser.newContext({ viewport: wide });
        const freshWallet = await withWallet(fresh, key);
        const again = await fresh.newPage();
        await again.goto(base + '/buy');
        await card(again, 25).locator('[data-wallet=pay]').click();
        const said = card(again, 25).locator('.wallet-msg');
        await said.waitFor();
        assert.match(await said.innerText(), /this wallet is not on it\. Nothing was sent\.$/);
        assert.ok(freshWallet.calls.some((c) => c.method === 'eth_requestAccounts'));
        assert.equal(sends(freshWallet).length, 0, 'the wallet was never asked to pay');
        await shots(again, 'allowlist-unlisted-refused');
        await fresh.close();
      } else {
        await card(page, 25).locator('[data-wallet=pay]').click();
        await page.waitForURL(/\/payment\/0x[0-9a-f]{64}\?sent=1$/, { timeout: 15000 });
        assert.equal(sends(wallet).length, 1);
      }
      await context.close();
    }
  } finally {
    await switchOff(25);
  }
});

test('the Pay button refuses a wallet without the tier\'s token on a fresh visit, saying why in the token\'s units', async () => {
  await putTier(26, { holdingToken: env.TOKEN_ADDRESS, holdingWei: parseEther('250').toString() });
  try {
    const key = await freshAccount('2'); // ETH, and none of the token
    const context = await browser.newContext({ viewport: wide });
    const wallet = await withWallet(context, key);
    const page = await context.newPage();
    await page.goto(base + '/buy');
    assert.match(await card(page, 26).locator('[data-testid=holding]').innerText(), /^Requires holding 250 DHT, the token 0x[0-9a-f]{4}…[0-9a-f]{4}$/);
    await card(page, 26).locator('[data-wallet=pay]').click();
    const said = card(page, 26).locator('.wallet-msg');
    await said.waitFor();
    assert.match(await said.innerText(), /250 DHT.*Nothing was sent\.$/);
    assert.doesNotMatch(await said.innerText(), /250000000000000000000/);
    const methods = wallet.calls.map((c) => c.method);
    assert.ok(methods.includes('eth_requestAccounts') || methods.includes('eth_accounts'), methods.join());
    assert.equal(sends(wallet).length, 0, 'the wallet was never asked to pay');
    assert.equal(await card(page, 26).locator('[data-wallet=pay]').innerText(), `Pay 0.326 ETH`);
    await shots(page, 'no-token-refused');
    await context.close();
  } finally {
    await switchOff(26);
  }
});

test('a price changed while the page was open: the Pay button says so, takes the new price, and sends nothing until pressed again', async () => {
  const tier = await putTier(27);
  try {
    const key = await freshAccount('2');
    const context = await browser.newContext({ viewport: wide });
    const wallet = await withWallet(context, key);
    const page = await context.newPage();
    await page.goto(base + '/buy');
    const pay = card(page, 27).locator('[data-wallet=pay]');
    assert.equal(await pay.innerText(), 'Pay 0.327 ETH');
    await putTier(27, { priceWei: parseEther('0.3275').toString() });
    await pay.click();
    const said = card(page, 27).locator('.wallet-msg');
    await said.waitFor();
    assert.match(await said.innerText(), /^The price of this tier changed to 0\.3275 ETH since this page loaded\. Nothing was sent\. Press the button again to pay the new price\.$/);
    assert.equal(await pay.innerText(), 'Pay 0.3275 ETH');
    assert.equal(sends(wallet).length, 0);
    await shots(page, 'price-changed');
    await pay.click();
    await page.waitForURL(/\/payment\/0x[0-9a-f]{64}\?sent=1$/, { timeout: 15000 });
    assert.equal(BigInt(sends(wallet)[0].params[0].value), parseEther('0.3275'));
    assert.notEqual(tier.priceWei, parseEther('0.3275').toString());
    await context.close();
  } finally {
    await switchOff(27);
  }
});
