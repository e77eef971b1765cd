// The payment tracker as a buyer meets it (issue 34, items 4 and 6): a hash the chain does not
// know reads as not seen yet from the first look, with a box to paste another; what is not a
// hash is the 400 page with what a hash looks like and the box again; the Pay button's own
// payment never doubts its hash; a minted payment ends on a receipt with when, what was paid,
// the node and tier, when it is first credited, and the way on to /me and to withdrawing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { privateKeyToAccount } from 'viem/accounts';
import { env, base, browser, freshAccount, withWallet, cron, sleep } from './harness.mjs';

// both takes the page at 1280 and 390 px, checking that nothing is wider than the screen.
async function both(page, name) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 844 });
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(scroll <= width, `${name}: ${scroll}px wide on a ${width}px screen`);
    await page.screenshot({ path: `${env.ARTIFACTS}/tracker-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 844 });
}

const status = (page) => page.locator('[data-testid=payment-status]');
const said = (page, id) => page.locator(`[data-testid="${id}"]`).innerText();

test('an unknown hash is "not seen yet" at once, with a box to paste another; a malformed one is the 400 page with the box', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 844 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error' && !/status of 400/.test(m.text())) errors.push(m.text()); });
  const unknown = '0x' + '5e'.repeat(32);
  await page.goto(`${base}/payment/${unknown}`);
  assert.equal(await status(page).getAttribute('data-status'), 'not-seen');
  const message = await said(page, 'payment-message');
  assert.match(message, /^Not seen yet\. No transaction with this hash has been seen on Dev chain, in a block or waiting for one\./);
  assert.match(message, /A transaction you have just sent appears here within seconds/);
  assert.match(message, /check the hash/);
  assert.equal(await page.locator('[data-testid=payment-status] .steps li').first().innerText(), 'Not seen yet');
  assert.doesNotMatch(await page.locator('main').innerText(), /Sent/);
  // It keeps looking, and a poll does not change its mind while the hash stays unknown.
  await page.waitForResponse((r) => r.url().includes('/partials/payment/' + unknown));
  assert.equal(await status(page).getAttribute('data-status'), 'not-seen');
  const box = page.locator('[data-testid=track-another] [data-testid=track-form]');
  await box.waitFor();
  await both(page, 'not-seen');

  // A typo pasted into the box: the 400 page says what a hash looks like, holding what was typed.
  await box.locator('input[name=tx]').fill('0x5e5e 5e');
  const [bad] = await Promise.all([page.waitForResponse((r) => r.url().includes('/payment?tx=')), box.locator('button').click()]);
  assert.equal(bad.status(), 400);
  await page.locator('[data-testid=error] [data-testid=hash-shape]').waitFor();
  assert.match(await said(page, 'error'), /400\s+That is not a transaction hash\./);
  assert.match(await said(page, 'hash-shape'), /0x followed by 64 characters, digits 0–9 and letters a–f/);
  const again = page.locator('[data-testid=error] [data-testid=track-form] input[name=tx]');
  assert.equal(await again.inputValue(), '0x5e5e 5e');
  await both(page, 'bad-hash');

  // Mended in the same box, it opens the hash's tracker.
  await again.fill(unknown.toUpperCase().replace('0X', '0x'));
  await Promise.all([page.waitForURL(`**/payment/${unknown}`), page.locator('[data-testid=error] [data-testid=track-form] button').click()]);
  await status(page).waitFor();
  assert.equal(await status(page).getAttribute('data-status'), 'not-seen');

  // Typed straight into the address bar, the page is a 400 too, with the box.
  const direct = await page.goto(`${base}/payment/0x12`);
  assert.equal(direct.status(), 400);
  await page.locator('[data-testid=error] [data-testid=track-form]').waitFor();

  // The Pay button's own hash (?sent=1) reads as sent, with no doubt cast on it, and no box.
  await page.goto(`${base}/payment/${unknown}?sent=1`);
  assert.equal(await status(page).getAttribute('data-status'), 'sent');
  assert.match(await said(page, 'payment-message'), /^Sent from your wallet\./);
  assert.equal(await page.locator('[data-testid=track-another]').count(), 0);
  assert.doesNotMatch(await page.locator('main').innerText(), /If you pasted|check the hash/);
  await both(page, 'sent-unknown');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a payment made with Pay: the tracker never doubts its hash, and ends on a receipt with time, amount, first credit and next steps', async () => {
  const key = await freshAccount('1');
  const buyer = privateKeyToAccount(key).address.toLowerCase();
  const context = await browser.newContext({ viewport: { width: 1280, height: 844 } });
  await withWallet(context, key);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(base + '/buy');
  await page.click('[data-testid=connect-wallet]');
  await page.locator('[data-testid=holds]').first().waitFor({ timeout: 15000 });
  await page.locator('[data-wallet=pay]').first().click();
  await page.waitForURL(/\/payment\/0x[0-9a-f]{64}\?sent=1$/, { timeout: 15000 });
  const hash = new URL(page.url()).pathname.split('/').pop();
  await status(page).waitFor();
  assert.doesNotMatch(await page.locator('main').innerText(), /If you pasted|Not seen yet|check the hash/);
  assert.equal(await page.locator('[data-testid=track-another]').count(), 0);
  await both(page, 'after-pay');

  // The payments pass mints it; the page follows by itself, never doubting the hash on the way.
  let p = {};
  for (let i = 0; i < 80 && p.status !== 'minted'; i++) {
    await cron('payments');
    const res = await fetch(base + '/api/payments/' + hash);
    if (res.ok) p = await res.json();
    if (p.status !== 'minted') await sleep(250);
  }
  assert.equal(p.status, 'minted', JSON.stringify(p));
  assert.equal(p.from, buyer);
  await page.locator('[data-testid=payment-status][data-status=minted]').waitFor({ timeout: 15000 });
  assert.doesNotMatch(await page.locator('main').innerText(), /If you pasted/);

  const node = p.chainNodeId;
  assert.match(await said(page, 'payment-message'), new RegExp(`Your node ${node} is minted\\.`));
  assert.match(await said(page, 'minted-at'), /^\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)? UTC$/);
  assert.equal(await said(page, 'paid'), '0.1 ETH');
  assert.equal(await said(page, 'receipt-node'), `Node ${node}, Standard tier`);
  assert.match(await said(page, 'first-credit'), /^At the next round, (due now|in [^(]+) \(\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)? UTC\)\.$/);
  assert.match(await said(page, 'earnings'), /Earns about [\d.,]+ ETH a round/);
  assert.equal(await page.locator('[data-testid=next-steps] [data-testid=node-link]').getAttribute('href'), `/node/${node}`);
  assert.equal(await page.locator('[data-testid=next-steps] [data-testid=me-link]').getAttribute('href'), '/me');
  assert.equal(await page.locator('[data-testid=next-steps] [data-testid=withdraw-link]').getAttribute('href'), `/node/${node}#withdraw`);
  await both(page, 'receipt');

  // "Withdraw what it earns" lands on the node's withdraw section.
  await page.click('[data-testid=withdraw-link]');
  await page.waitForURL(`**/node/${node}#withdraw`);
  await page.locator('#withdraw[data-testid=withdraw]').waitFor();
  await page.goBack();
  await page.click('[data-testid=me-link]');
  await page.waitForURL('**/me');
  assert.deepEqual(errors, []);
  await context.close();
});
