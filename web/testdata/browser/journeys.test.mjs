// A buyer's journeys through a payment's life: the tracker from the transfer to the node, a
// payment that is rejected and then refunded, and the tracker with JavaScript off.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { env, base, browser, walletOf, freshAccount, withWallet, signInOperator, cron, shot, text, sleep, admin, passUntil } from './harness.mjs';

const quote = await (await fetch(base + '/api/deploy-quote')).json();
const phone = { viewport: { width: 390, height: 844 }, isMobile: true };


test('buy with the wallet: /buy shows what the connected wallet holds, pay opens the tracker, minted leads to the node', async () => {
  const key = await freshAccount('1');
  for (const [name, options] of [['', { viewport: { width: 1280, height: 900 } }], ['phone-', phone]]) {
    const context = await browser.newContext(options);
    await withWallet(context, key);
    const page = await context.newPage();
    await page.goto(base + '/buy');
    await page.click('[data-testid=connect-wallet]');
    // htmx brings the connected wallet's figures in.
    await page.locator('[data-testid=holds]').first().waitFor({ timeout: 10000 });
    const before = await text(page, 'holds');
    await shot(page, name + 'buy-connected');
    await page.click('[data-wallet=pay]');
    await page.waitForURL(/\/payment\/0x[0-9a-f]{64}\?sent=1$/);
    const hash = new URL(page.url()).pathname.split('/').pop();
    await shot(page, name + 'tracker-sent');
    await passUntil(hash, 'minted');
    await page.locator('[data-testid=payment-status][data-status=minted]').waitFor({ timeout: 15000 });
    await shot(page, name + 'tracker-minted-after-pay');
    await page.click('[data-testid=node-link]');
    await page.waitForURL(/\/node\/\d+$/);
    if (name) assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 390);
    await page.goto(base + '/buy');
    await page.locator('[data-testid=holds]').first().waitFor({ timeout: 10000 });
    assert.notEqual(await text(page, 'holds'), before, 'the wallet holds one more node of the tier');
    await context.close();
  }
});

test('a pasted transaction hash: the tracker goes live from confirmed to minted, then links to the node', async () => {
  const key = await freshAccount('1');
  const hash = await walletOf(key).sendTransaction({ to: quote.paymentAddress, value: BigInt(quote.priceWei) });

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(base + '/buy');
  await page.fill('[data-testid=track-form] input[name=tx]', hash);
  await page.click('[data-testid=track-form] button');
  await page.waitForURL(`**/payment/${hash.toLowerCase()}`);
  const status = page.locator('[data-testid=payment-status]');
  assert.match(await status.getAttribute('data-status'), /^(sent|confirming)$/);
  await shot(page, 'tracker-confirming');
  await page.evaluate(() => { window.stillThisPage = true; });

  const p = await passUntil(hash, 'minted');
  // htmx swaps the new status in: no reload (the marker survives).
  await page.locator('[data-testid=payment-status][data-status=minted]').waitFor({ timeout: 15000 });
  assert.equal(await page.evaluate(() => window.stillThisPage), true);
  assert.match(await text(page, 'payment-message'), new RegExp(`Your node ${p.chainNodeId} is minted`));
  await shot(page, 'tracker-minted');
  await page.click('[data-testid=node-link]');
  await page.waitForURL(`**/node/${p.chainNodeId}`);
  await context.close();

  const small = await browser.newContext(phone);
  const onPhone = await small.newPage();
  await onPhone.goto(base + '/payment/' + hash);
  assert.ok(await onPhone.evaluate(() => document.documentElement.scrollWidth) <= 390);
  await shot(onPhone, 'phone-tracker-minted');
  await small.close();
});

test('a payment over the wallet limit is rejected with its reason, then refunded straight from the payments wallet', async () => {
  const limited = { label: 'Limited', priceWei: parseEther('0.2').toString(), maxPerWallet: 1, holdingWei: '0',
    holdingToken: null, enabled: true }; // its payout is the factory's (0 here): not the point
  assert.equal((await admin('PUT', '/tiers/9', limited)).status, 200);
  try {
    const key = await freshAccount('1');
    const buyer = privateKeyToAccount(key).address;
    const wallet = walletOf(key);
    await wallet.sendTransaction({ to: quote.paymentAddress, value: parseEther('0.2') });
    const over = await wallet.sendTransaction({ to: quote.paymentAddress, value: parseEther('0.2') });
    const rejected = await passUntil(over, 'rejected');
    const reason = 'This wallet already holds the 1 Limited node a wallet may have.';
    assert.equal(rejected.reason, reason);

    // The buyer signs in and sees it on /me, as on the tracker, at both widths.
    for (const [name, options] of [['', { viewport: { width: 1280, height: 900 } }], ['phone-', phone]]) {
      const context = await browser.newContext(options);
      await withWallet(context, key);
      const page = await context.newPage();
      await page.goto(base + '/payment/' + over);
      assert.equal(await text(page, 'payment-reason'), reason);
      assert.match(await text(page, 'payment-message'), /Owed back: 0\.2 ETH/);
      await shot(page, name + 'tracker-rejected');
      await page.goto(base + '/me');
      await page.click('[data-wallet=signin]');
      await page.waitForSelector('[data-testid=payments]');
      const row = page.locator(`[data-testid=payments] tr[data-status=rejected]`);
      assert.equal(await row.count(), 1);
      assert.match(await row.innerText(), /Rejected: refund owed/);
      assert.match(await row.innerText(), /already holds the 1 Limited node/);
      if (name) assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 390);
      await shot(page, name + 'me-rejected');
      await context.close();
    }

    // The operator refunds with any wallet software: here a plain client, not the page.
    const refund = await walletOf(env.PAYMENTS_KEY).sendTransaction({ to: buyer, value: parseEther('0.2') });
    const refunded = await passUntil(over, 'refunded');
    assert.equal(refunded.refundTxHash, refund.toLowerCase());
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(base + '/wallet/' + buyer.toLowerCase());
    assert.equal(await page.locator('[data-testid=payments] tr[data-status=refunded]').count(), 1);
    await page.goto(base + '/payment/' + over);
    assert.match(await text(page, 'payment-message'), /it was refunded: 0\.2 ETH went back/);
    await shot(page, 'tracker-refunded');
    await context.close();
  } finally {
    await admin('POST', '/tiers/9/off-sale'); // the other files' /buy shows the one tier they expect
  }
});

test('the tracker works with JavaScript off: it refreshes itself until the payment is seen', async () => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const unseen = '0x' + 'ab'.repeat(32);
  await page.goto(base + '/payment/' + unseen);
  assert.equal(await page.locator('[data-testid=payment-status]').getAttribute('data-status'), 'not-seen');
  // Without scripts, the browser reads what <noscript> holds: the refresh and its link.
  assert.equal(await page.locator('meta[http-equiv=refresh]').count(), 1);
  assert.match(await page.locator('main').innerText(), /Refresh now/);
  await shot(page, 'tracker-no-js');
  await context.close();
});

test('the operator refunds a rejected payment from /operator with the payments wallet; the buyer sees it refunded', async () => {
  const key = await freshAccount('1');
  const buyer = privateKeyToAccount(key).address.toLowerCase();
  const hash = await walletOf(key).sendTransaction({ to: quote.paymentAddress, value: parseEther('0.15') });
  const rejected = await passUntil(hash, 'rejected');
  assert.match(rejected.reason, /^0\.15 ETH is not the price of any tier on sale; the Standard tier costs 0\.1 ETH/);

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const wallet = await withWallet(context, env.PAYMENTS_KEY);
  // The payments wallet's holder is an operator: signed in with the same wallet that refunds.
  const page = await signInOperator(context);
  const row = page.locator('[data-testid=refunds] tbody tr', { has: page.locator(`[data-to="${buyer}"]`) });
  assert.match(await row.innerText(), /0\.15 ETH is not the price of any tier on sale/);
  await row.locator('button[data-wallet=refund]').click();
  await row.locator('.wallet-msg', { hasText: 'Refund sent' }).waitFor({ timeout: 15000 });
  await shot(page, 'operator-refund-sent');
  const sent = wallet.calls.filter((c) => c.method === 'eth_sendTransaction');
  assert.equal(sent.length, 1, 'one transfer');
  assert.equal(sent[0].params[0].to.toLowerCase(), buyer);
  assert.equal(BigInt(sent[0].params[0].value), parseEther('0.15'));

  const refunded = await passUntil(hash, 'refunded');
  await page.goto(base + '/operator');
  assert.equal(await page.locator(`[data-testid=refunds] [data-to="${buyer}"]`).count(), 0, 'no longer owed');
  await context.close();

  for (const [name, options] of [['', { viewport: { width: 1280, height: 900 } }], ['phone-', phone]]) {
    const buyerContext = await browser.newContext(options);
    const tracker = await buyerContext.newPage();
    await tracker.goto(base + '/payment/' + hash);
    assert.equal(await tracker.locator('[data-testid=payment-status]').getAttribute('data-status'), 'refunded');
    assert.match(await tracker.locator('main').innerText(), new RegExp(refunded.refundTxHash.slice(0, 6)));
    await shot(tracker, name + 'tracker-refunded-by-operator');
    await tracker.goto(base + '/wallet/' + buyer);
    assert.equal(await tracker.locator('[data-testid=payments] tr[data-status=refunded]').count(), 1);
    await buyerContext.close();
  }
});
