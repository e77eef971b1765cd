// The buyer's side of the sale on /buy: paying from another wallet (exact amounts, the EIP-681
// link and its QR code, whose address the node goes to), what a node earns, the holding token in
// its own units, and the Pay button that asks the service before it asks the wallet. Tiers 20 to
// 29 are this file's; each test switches off the tiers it made, so the other files' /buy shows
// what they expect.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getAddress } from 'viem';
import { env, base, browser, text } from './harness.mjs';

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

// tapTargets are the elements of selector on the page, at phone width, shorter than 44 px.
async function smallTargets(page, selector) {
  await page.setViewportSize(phone);
  const small = await page.locator(selector).evaluateAll((els) => els
    .filter((e) => e.offsetParent !== null && e.getBoundingClientRect().height < 44)
    .map((e) => `${e.textContent.trim()} (${e.getBoundingClientRect().height}px)`));
  await page.setViewportSize(wide);
  return small;
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
  assert.match(await tier.locator('[data-testid=earnings]').innerText(), /^Earns 0.000000000000001 ETH a round \(every 1ms\) and 0.000002592 ETH per 30 days \(2,592,000,000 rounds\) at today's settings\.$/);
  assert.deepEqual(await smallTargets(page, '[data-testid=quote] button, [data-testid=pay-link] span, [data-testid=buy-tier] button'), []);
  await shots(page, 'exchange');
  assert.deepEqual(errors, []);
  await context.close();
});
