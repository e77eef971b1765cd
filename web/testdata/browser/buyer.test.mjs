// A buyer after paying: the tracker's "not found" for a hash no chain knows, a rejected payment
// with the one refund promise, /me withdrawing a node in place with a confirmation that stays,
// a long withdrawal list paged on a phone, and 44 px tap targets on phones. Each test's buyer is
// a fresh account; the one wrong payment made here is refunded before the file ends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { env, base, browser, client, walletOf, withWallet, freshAccount, cron, reconcile, sleep, smallTargets } from './harness.mjs';

const payments = privateKeyToAccount(env.PAYMENTS_KEY).address;
const factory = async () => (await (await fetch(base + '/api/cover')).json()).contract;
const withdrawABI = [{ type: 'function', name: 'withdraw', stateMutability: 'nonpayable',
  inputs: [{ name: 'id', type: 'uint256' }, { name: 'to', type: 'address' }, { name: 'amount', type: 'uint256' }], outputs: [] }];

// shots takes the page at 1280 and 390 px, checking it is no wider than the screen, and at 390 px
// that every control a finger presses is at least 44 px tall.
async function shots(page, name) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 844 });
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(scroll <= width, `${name}: ${scroll}px wide on a ${width}px screen`);
    if (width === 390) assert.deepEqual(await smallTargets(page), [], `${name}: tap targets under 44 px at 390 px`);
    await page.screenshot({ path: `${env.ARTIFACTS}/buyer-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1024, height: 800 });
}

async function walletPage(key, path) {
  const context = await browser.newContext();
  const wallet = await withWallet(context, key);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error' && !/status of 404/.test(m.text())) errors.push(m.text()); });
  await page.goto(base + path);
  return { context, wallet, page, errors };
}

test("a mistyped hash: the tracker says it is not found on the network, and what to check", async () => {
  const hash = '0x' + 'ab'.repeat(31) + 'cd';
  const since = Math.floor(Date.now() / 1000) - 150; // the page first looked 2½ minutes ago
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${base}/payment/${hash}?since=${since}`);
  const status = page.locator('[data-testid=payment-status]');
  assert.equal(await status.getAttribute('data-status'), 'not-found');
  const message = await page.locator('[data-testid=payment-message]').innerText();
  assert.match(message, /Not found\. No transaction with this hash is on Dev chain, in a block or waiting for one/);
  assert.match(message, /0x and 64 characters/);
  assert.match(message, /keeps looking/);
  assert.equal(await status.getAttribute('hx-trigger'), 'every 10s');
  await shots(page, 'tracker-not-found');
  // A fresh visit says "not seen yet" at once, never "Sent", and not "not found" either.
  await page.goto(`${base}/payment/${hash}`);
  assert.equal(await status.getAttribute('data-status'), 'not-seen');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a rejected payment: the tracker says why, what is owed back, and the refund promise', async () => {
  const key = await freshAccount('1');
  const buyer = privateKeyToAccount(key).address.toLowerCase();
  const value = parseEther('0.15'); // no tier's price
  const hash = await walletOf(key).sendTransaction({ to: payments, value });
  await client.waitForTransactionReceipt({ hash });
  let p = {};
  for (let i = 0; i < 40 && p.status !== 'rejected'; i++) {
    await cron('payments');
    p = await (await fetch(`${base}/api/payments/${hash}`)).json();
    if (p.status !== 'rejected') await sleep(250);
  }
  assert.equal(p.status, 'rejected', JSON.stringify(p));

  const page = await browser.newPage();
  await page.goto(`${base}/payment/${hash}`);
  assert.equal(await page.locator('[data-testid=payment-status]').getAttribute('data-status'), 'rejected');
  assert.match(await page.locator('[data-testid=owed-back]').innerText(), /^Owed back: 0\.15 ETH to 0x/);
  assert.match(await page.locator('[data-testid=payment-status] [data-testid=refund-promise]').innerText(),
    /refunded in full, to the address it came from/);
  await shots(page, 'tracker-rejected');
  await page.goto(`${base}/wallet/${buyer}`);
  assert.equal(await page.locator('[data-testid=refund-promise]').count(), 1, 'the payments list promises it once');
  await shots(page, 'wallet-rejected');
  await page.close();

  // Put back what this changed: the payments wallet refunds it, so no later file sees it owed.
  const refund = await walletOf(env.PAYMENTS_KEY).sendTransaction({ to: buyer, value });
  await client.waitForTransactionReceipt({ hash: refund });
  for (let i = 0; i < 40 && p.status !== 'refunded'; i++) {
    await cron('payments');
    p = await (await fetch(`${base}/api/payments/${hash}`)).json();
    if (p.status !== 'refunded') await sleep(250);
  }
  assert.equal(p.status, 'refunded', JSON.stringify(p));
});

// The node bought below, for the paging test.
let bought;

test('/me withdraws from a node in place, and the confirmation stays', async () => {
  const key = await freshAccount('1');
  const me = privateKeyToAccount(key).address.toLowerCase();
  const hash = await walletOf(key).sendTransaction({ to: payments, value: parseEther('0.1') });
  await client.waitForTransactionReceipt({ hash });
  let nodes = [];
  for (let i = 0; i < 40 && nodes.length === 0; i++) {
    await cron('payments');
    nodes = await (await fetch(`${base}/api/nodes/${me}`)).json();
    if (nodes.length === 0) await sleep(250);
  }
  assert.equal(nodes.length, 1);
  const id = nodes[0].chainNodeId;
  const credit = await cron('credit');
  assert.equal(credit.status, 'confirmed', JSON.stringify(credit));
  // Eleven withdrawals of 1 wei each, straight to the contract: a list longer than a page.
  const contract = await factory();
  for (let i = 0; i < 11; i++) {
    const w = await walletOf(key).writeContract({ address: contract, abi: withdrawABI, functionName: 'withdraw', args: [BigInt(id), me, 1n] });
    await client.waitForTransactionReceipt({ hash: w });
  }
  let node = {};
  for (let i = 0; i < 40 && node.withdrawals?.length !== 11; i++) {
    await reconcile();
    node = await (await fetch(`${base}/api/node/${id}`)).json();
    if (node.withdrawals?.length !== 11) await sleep(250);
  }
  assert.equal(node.withdrawals.length, 11, JSON.stringify(node));

  const { context, wallet, page, errors } = await walletPage(key, '/me');
  await Promise.all([page.waitForURL(base + '/me', { waitUntil: 'load' }), page.click('[data-wallet=signin]')]);
  const row = page.locator(`[data-testid=me-node][data-node="${id}"]`);
  await row.locator('summary').click();
  const form = row.locator('[data-testid=withdraw-form]');
  await form.waitFor(); // shown: the connected wallet owns the node
  await row.locator('[data-wallet=max]').click();
  for (let i = 0; i < 40 && !(await form.locator('[name=amount]').inputValue()); i++) await sleep(250);
  assert.equal(await form.locator('[name=amount]').inputValue(), '0.000000000000000989');
  await shots(page, 'me-withdraw-form');
  await row.locator('[data-wallet=withdraw]').click();
  // Mined: the confirmation is on the page, not a message that goes.
  await row.locator('[data-testid=paid-out-now]').waitFor({ timeout: 20000 });
  assert.match(await row.locator('[data-testid=paid-out-now]').innerText(),
    new RegExp(`^Paid out: 0\\.000000000000000989 ETH from node ${id} to ${me}, in transaction 0x[0-9a-f]{64}\\.$`));
  assert.ok(page.url().startsWith(base + '/me'), 'still on /me');
  // Recorded: /me comes back with the ledger's figures and its own confirmation, which stays.
  for (let i = 0; i < 60 && !page.url().includes('paid='); i++) {
    await reconcile();
    await sleep(500);
  }
  assert.match(page.url(), /\/me\?paid=0x[0-9a-f]{64}#paid-out$/);
  await page.locator('[data-testid=paid-out]').waitFor();
  assert.match(await page.locator('[data-testid=paid-out]').innerText(), new RegExp(`0\\.000000000000000989 ETH from node ${id}`));
  assert.equal(await row.locator('[data-testid=node-balance]').innerText(), '0');
  await sleep(3000);
  assert.ok(await page.locator('[data-testid=paid-out]').isVisible(), 'the confirmation stays');
  await shots(page, 'me-paid-out');
  assert.equal(wallet.calls.filter((c) => c.method === 'eth_sendTransaction').length, 1);
  assert.deepEqual(errors, []);
  await context.close();
  bought = id;
});

test('a long withdrawal list pages on a phone: ten, then "Show older" brings the rest in place', async () => {
  assert.ok(bought, 'the /me test bought a node');
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${base}/node/${bought}`);
  const rows = page.locator('[data-testid=withdrawals] tbody tr[id]');
  assert.equal(await rows.count(), 10);
  const more = page.locator('[data-testid=withdrawals-more] a');
  assert.equal(await more.innerText(), 'Show older withdrawals');
  const statuses = await page.locator('[data-testid=withdrawals] [data-label=Status]').allInnerTexts();
  assert.ok(statuses.every((s) => s === 'paid out'), JSON.stringify(statuses));
  assert.deepEqual(await smallTargets(page), [], 'node-paged: tap targets under 44 px at 390 px');
  await page.screenshot({ path: `${env.ARTIFACTS}/buyer-node-paged-390.png`, fullPage: true });
  await more.tap();
  await page.locator('[data-testid=withdrawals-more]').waitFor({ state: 'detached' });
  assert.equal(await rows.count(), 12, 'all twelve, each once');
  const ids = await rows.evaluateAll((rs) => rs.map((r) => Number(r.id.replace('withdrawal-', ''))));
  assert.deepEqual(ids, [...ids].sort((a, b) => b - a), 'newest first across pages');
  assert.equal(new Set(ids).size, 12);
  assert.ok(page.url().endsWith(`/node/${bought}`), 'in place');
  await page.screenshot({ path: `${env.ARTIFACTS}/buyer-node-paged-all-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 844 });
  await page.screenshot({ path: `${env.ARTIFACTS}/buyer-node-paged-all-1280.png`, fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});
