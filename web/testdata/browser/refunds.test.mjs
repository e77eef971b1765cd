// Refunds from the treasury Safe, on the operator page: three wrong payments, one batch an
// operator builds of them, two of the treasury's owners signing it on the page with their own
// wallets (EIP-712 SafeTx), a wallet that is no owner refused, the batch executed from the page,
// and the three buyers' trackers through approving, sent and refunded. This file has a server of
// its own (web/browser_test.go): the treasury configured, the payments scan CONFIRMATIONS blocks
// behind the head.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { browser, base, env, client, walletOf, freshAccount, withWallet, signInOperator, cron, payment, passUntil } from './harness.mjs';

const squash = (s) => s.replace(/\s+/g, ' ').trim();
const payments = privateKeyToAccount(env.PAYMENTS_KEY).address;

// both takes a screenshot of what locator shows at 1280 and at 390 px wide, and checks that
// nothing on the page is wider than a phone's screen (long addresses and hashes wrap).
async function both(page, locator, name) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await locator.scrollIntoViewIfNeeded();
    await locator.screenshot({ path: `${env.ARTIFACTS}/${name}-${width}.png` });
    const scroll = await page.evaluate(() => document.scrollingElement.scrollWidth);
    assert.ok(scroll <= width, `${name} is ${scroll}px wide on a ${width}px screen`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

// operatorContext is a browser context whose wallet holds key, signed in on the operator page;
// errors collects the page's script errors and the console's, but the 400 of a refused signature.
async function operatorContext(key) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const wallet = await withWallet(context, key);
  const page = await signInOperator(context);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error' && !m.text().includes('status of 400')) errors.push(m.text()); });
  return { context, wallet, page, errors };
}

// tracker opens the buyer's tracker of hash once it says want, reloading until then (the tracker
// reads the ledger, which the payments pass moves).
async function tracker(context, hash, want) {
  const page = await context.newPage();
  await page.goto(base + '/payment/' + hash);
  for (let i = 0; i < 60; i++) {
    const progress = page.locator('[data-testid=refund-progress]');
    if ((await progress.count()) && want.test(squash(await progress.innerText()))) return page;
    await page.waitForTimeout(500);
    await page.reload();
  }
  assert.fail(`the tracker of ${hash} never said ${want}`);
}

test('three wrong payments are refunded in one treasury transaction two owners approve on the page', async () => {
  // The treasury holds what the sweeps would have brought it.
  const funded = await walletOf(env.FUNDER_KEY).sendTransaction({ to: env.TREASURY_ADDRESS, value: parseEther('1') });
  await client.waitForTransactionReceipt({ hash: funded });

  // Three buyers each pay an amount no tier sells at: rejected, owed a refund.
  const values = ['0.0123', '0.0234', '0.0345'];
  const keys = [];
  for (let i = 0; i < values.length; i++) keys.push(await freshAccount('1'));
  const buyers = keys.map((k) => privateKeyToAccount(k).address.toLowerCase());
  const hashes = [];
  for (const [i, key] of keys.entries()) {
    const hash = await walletOf(key).sendTransaction({ to: payments, value: parseEther(values[i]) });
    await client.waitForTransactionReceipt({ hash });
    hashes.push(hash.toLowerCase());
  }
  await passUntil(hashes, 'rejected');
  const before = await Promise.all(buyers.map((address) => client.getBalance({ address })));

  // The factory's owner, dev account 0: an admin, and one of the treasury's owners.
  const first = await operatorContext(env.FUNDER_KEY);
  let page = first.page;
  const card = page.locator('[data-testid=treasury]');
  assert.match(squash(await card.innerText()), /2 of its 3 owners approve each of its transactions/);
  await both(page, card, 'refunds-treasury-card');

  // Refunds owed: the three, ticked, become one batch.
  const owed = page.locator('[data-testid=refunds-owed]');
  for (const [i, hash] of hashes.entries()) {
    const row = owed.locator(`tr[data-tx="${hash}"]`);
    assert.match(squash(await row.innerText()), new RegExp(values[i].replace('.', '\\.')));
    await row.locator('input[name=payment]').check();
  }
  await both(page, owed, 'refunds-owed');
  await Promise.all([page.waitForURL(/\/operator\/refund-batches\/\d+$/), owed.locator('[data-testid=refund-selected]').click()]);
  const batchURL = page.url();

  // Before anyone signs, the page shows everything they approve.
  const transfers = page.locator('[data-testid=batch-transfer]');
  assert.equal(await transfers.count(), 3);
  for (const [i, hash] of hashes.entries()) {
    const row = transfers.filter({ hasText: hash });
    assert.equal(await row.locator('[data-testid=transfer-to]').innerText(), buyers[i], 'the destination in full');
    assert.equal(await row.locator('[data-testid=transfer-amount]').innerText(), values[i]);
    assert.equal(await row.locator('[data-testid=transfer-amount]').getAttribute('title'), parseEther(values[i]).toString() + ' wei');
  }
  assert.equal(await page.locator('[data-testid=batch-total]').innerText(), '0.0702');
  const safeTxHash = await page.locator('[data-testid=safe-tx-hash]').innerText();
  assert.match(safeTxHash, /^0x[0-9a-f]{64}$/);
  assert.match(await page.locator('[data-testid=batch-nonce]').innerText(), /^\d+/);
  assert.equal(await page.locator('[data-testid=batch-approvals]').innerText(), '0 of 2');
  assert.match(await page.locator('[data-testid=batch-next]').innerText(), /Still needed: 2 more owners' signatures/);
  await both(page, page.locator('main'), 'refunds-batch-proposed');

  // A wallet that is no owner (the payments wallet's holder, an operator) is told it cannot sign,
  // and its signature, made anyway, is refused with the service's sentence.
  const stranger = await operatorContext(env.PAYMENTS_KEY);
  await stranger.page.goto(batchURL);
  assert.match(squash(await stranger.page.locator('[data-testid=not-an-owner]').innerText()), /is not one of the treasury's owners/);
  await stranger.page.locator('[data-testid=sign-batch]').click();
  const refused = stranger.page.locator('[data-testid=batch-sign] .wallet-msg.bad');
  await refused.waitFor();
  assert.match(await refused.innerText(), /^The signature is not one of the treasury's owners' signatures of this batch's Safe transaction 0x/);
  await both(stranger.page, stranger.page.locator('[data-testid=batch-sign]'), 'refunds-batch-not-an-owner');
  assert.deepEqual(stranger.errors, []);
  await stranger.context.close();

  // The first owner signs: 1 of 2.
  await page.locator('[data-testid=sign-batch]').click();
  await page.locator('[data-testid=batch-approvals]', { hasText: '1 of 2' }).waitFor();
  assert.equal(await page.locator('[data-testid=owner-signed]').count(), 1);
  assert.match(squash(await page.locator('[data-testid=batch-next]').innerText()), /Still needed: 1 more owner's signature/);
  const signed = first.wallet.calls.find((c) => c.method === 'eth_signTypedData_v4');
  assert.equal(JSON.parse(signed.params[1]).domain.verifyingContract.toLowerCase(), env.TREASURY_ADDRESS.toLowerCase());
  await both(page, page.locator('main'), 'refunds-batch-one-signature');

  // The buyer's tracker: approving.
  const buyerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  let buyerPage = await tracker(buyerContext, hashes[0], /^Refund approved by 1 of 2 operators\.$/);
  await both(buyerPage, buyerPage.locator('main'), 'refunds-tracker-approving');
  await buyerPage.close();

  // The second owner (dev account 7, a viewer) signs on the page too: ready. A viewer is not
  // offered to execute.
  const second = await operatorContext(env.SECOND_OWNER_KEY);
  await second.page.goto(batchURL);
  await second.page.locator('[data-testid=sign-batch]').click();
  await second.page.locator('[data-testid=batch-approvals]', { hasText: '2 of 2' }).waitFor();
  assert.equal(await second.page.locator('[data-testid=batch-status]').getAttribute('data-status'), 'ready');
  assert.equal(await second.page.locator('[data-testid=execute-batch]').count(), 0);
  assert.deepEqual(second.errors, []);
  await second.context.close();

  // The first owner's page, polled, sees it ready and brings its Execute button, without a reload.
  await page.locator('[data-testid=execute-batch]').waitFor();
  assert.equal(await page.locator('[data-testid=reload-batch]').count(), 0);
  assert.equal(await page.locator('[data-testid=owner-signed]').count(), 2);
  await both(page, page.locator('main'), 'refunds-batch-ready');

  // Execute: one transaction from the connected wallet.
  await page.locator('[data-testid=execute-batch]').click();
  const sentMsg = page.locator('[data-testid=batch-execute] .wallet-msg', { hasText: /Execution sent: 0x[0-9a-f]{64}/ });
  await sentMsg.waitFor();
  const execTx = (await sentMsg.innerText()).match(/0x[0-9a-f]{64}/)[0];
  const receipt = await client.waitForTransactionReceipt({ hash: execTx, pollingInterval: 200 });
  assert.equal(receipt.status, 'success');
  const exec = first.wallet.calls.find((c) => c.method === 'eth_sendTransaction').params[0];
  assert.equal(exec.to.toLowerCase(), env.TREASURY_ADDRESS.toLowerCase());
  // Above the confirmed blocks the batch is sent: the pass notes it, the page and trackers say so.
  await cron('payments');
  const sent = await payment(hashes[1]);
  assert.equal(sent.refund?.status, 'sent', `the pass missed the ${env.CONFIRMATIONS} blocks it waits: ${JSON.stringify(sent)}`);
  await page.locator('[data-testid=batch-execute] .wallet-msg', { hasText: /^Executed in block \d+/ }).waitFor();
  await page.locator('[data-testid=batch-next]', { hasText: 'Sent in' }).waitFor();
  await both(page, page.locator('main'), 'refunds-batch-sent');
  buyerPage = await tracker(buyerContext, hashes[1], /^Refund sent \(0x[0-9a-f]{4}…[0-9a-f]{4}\): it is final once confirmed\.$/);
  await both(buyerPage, buyerPage.locator('main'), 'refunds-tracker-sent');
  await buyerPage.close();

  // Confirmed: the three are refunded by that one transaction, each exactly what it paid.
  const refunded = await passUntil(hashes, 'refunded');
  for (const p of refunded) assert.equal(p.refundTxHash, execTx);
  for (const [i, address] of buyers.entries()) {
    assert.equal(await client.getBalance({ address }) - before[i], parseEther(values[i]), `buyer ${i} got back what they paid`);
  }
  const done = page.locator('[data-testid=batch-status][data-status=executed]');
  await done.waitFor(); // the page's poll follows it to its end
  // The page reported the transaction it sent: the batch lists it, mined.
  const attempt = done.locator('[data-testid=batch-attempt]');
  assert.equal(await attempt.count(), 1);
  assert.equal(await attempt.getAttribute('data-status'), 'mined');
  assert.match(squash(await attempt.innerText()), /^0x[0-9a-f]{4}…[0-9a-f]{4} from 0x[0-9a-f]{4}…[0-9a-f]{4}: mined in block \d+\.$/);
  assert.match(squash(await done.locator('[data-testid=batch-next]').innerText()),
    /^Executed in 0x[0-9a-f]{4}…[0-9a-f]{4} \(block \d+\): the treasury paid the 3 refunds, and 3 payments are refunded\.$/);
  await both(page, page.locator('main'), 'refunds-batch-executed');
  for (const [i, hash] of hashes.entries()) {
    buyerPage = await tracker(buyerContext, hash, /^Refunded on \d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})? UTC\.$/);
    assert.equal(await buyerPage.locator('[data-testid=payment-status]').getAttribute('data-status'), 'refunded');
    if (i === 2) await both(buyerPage, buyerPage.locator('main'), 'refunds-tracker-refunded');
    await buyerPage.close();
  }
  await buyerContext.close();

  // Nothing is owed any more, and no batch is open.
  await page.goto(base + '/operator');
  for (const hash of hashes) assert.equal(await page.locator(`[data-testid=refunds] tr[data-tx="${hash}"]`).count(), 0);
  assert.equal(await page.locator('[data-testid=open-batches]').count(), 0);
  assert.deepEqual(first.errors, []);
  await first.context.close();
});
