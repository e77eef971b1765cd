// Browser tests of the pages, in headless Chromium, against a server the Go test started with
// an in-process dev chain (harness.mjs). The files run one after the other, in name order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createWalletClient, createPublicClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { env, base, browser, open, chain, withWallet, signInOperator, shot, text } from './harness.mjs';

test('the overview shows the stats, the cover, the price and the tiers', async () => {
  const { page, res, errors } = await open('/');
  assert.equal(res.status(), 200);
  assert.equal(await page.locator('h1').innerText(), 'Own a node, earn ETH every round');
  // No cards of zeros before the first node: what will appear there.
  assert.match(await text(page, 'stats-empty'), /No node sold yet/);
  assert.match(await text(page, 'cover'), /covered/);
  assert.match(await text(page, 'price'), /\$3,000\.00/);
  assert.match(await text(page, 'tiers'), /Standard/);
  await shot(page, 'overview');
  assert.deepEqual(errors, [], 'no script error and no CSP violation');
  await page.close();
});

test('the stats refresh by themselves after a payment becomes a node', async () => {
  const { page } = await open('/');
  const quote = await (await fetch(base + '/api/deploy-quote')).json();
  const account = privateKeyToAccount(env.BUYER_KEY);
  const wallet = createWalletClient({ account, chain, transport: http() });
  const client = createPublicClient({ chain, transport: http() });
  const hash = await wallet.sendTransaction({ to: quote.paymentAddress, value: BigInt(quote.priceWei) });
  await client.waitForTransactionReceipt({ hash });
  const pass = await (await fetch(base + '/api/cron/payments', { method: 'POST', headers: { 'x-cron-key': env.CRON_KEY } })).json();
  assert.equal(pass.minted, 1, JSON.stringify(pass));
  // No reload: htmx swaps the stats in within its 10-second refresh.
  await page.locator('[data-testid="total-nodes"]', { hasText: '1' }).waitFor({ timeout: 15000 });
  await shot(page, 'overview-after-payment');
  await page.close();
});

test('the wallet search works without JavaScript and leads to the node', async () => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(base + '/');
  const buyer = privateKeyToAccount(env.BUYER_KEY).address;
  await page.fill('input[name=address]', buyer);
  await page.click('form.search button');
  await page.waitForURL(`**/wallet/${buyer.toLowerCase()}`);
  assert.equal(await page.locator('[data-testid="wallet-nodes"] tbody tr').count(), 1);
  await shot(page, 'wallet');
  await page.click('[data-testid="wallet-nodes"] a');
  await page.waitForURL('**/node/1');
  assert.match(await text(page, 'owner'), new RegExp(buyer.slice(0, 6).toLowerCase()));
  await shot(page, 'node');
  await context.close();
});

test('a wallet signs in and sees its nodes on /me, then signs out', async () => {
  const context = await browser.newContext();
  const account = await withWallet(context, env.BUYER_KEY);
  const page = await context.newPage();
  await page.goto(base + '/me');
  await page.click('[data-wallet=signin]');
  await page.waitForSelector('[data-testid=me-address]');
  assert.equal(await text(page, 'me-address'), account.address.toLowerCase());
  assert.equal(await page.locator('[data-testid="wallet-nodes"] tbody tr').count(), 1);
  await shot(page, 'me');
  await page.click('[data-wallet=signout]');
  await page.waitForURL(base + '/');
  await page.goto(base + '/me');
  assert.equal(await page.locator('[data-testid=sign-in]').count(), 1);
  await context.close();
});

test('buy: the exact quote, the warning, and paying with the wallet', async () => {
  const context = await browser.newContext();
  const account = await withWallet(context, env.SECOND_BUYER_KEY);
  const page = await context.newPage();
  await page.goto(base + '/buy');
  assert.match(await text(page, 'amount'), /^0\.1 ETH$/);
  assert.match(await text(page, 'warning'), /does not become a node/);
  await shot(page, 'buy');
  await page.click('[data-wallet=pay]');
  // Once the wallet sent it, the page follows the payment on its tracker.
  await page.waitForURL(/\/payment\/0x[0-9a-f]{64}\?sent=1$/, { timeout: 15000 });
  // Passes run until it is mined and minted.
  let nodes = [];
  for (let i = 0; i < 40 && nodes.length === 0; i++) {
    await fetch(base + '/api/cron/payments', { method: 'POST', headers: { 'x-cron-key': env.CRON_KEY } });
    nodes = await (await fetch(base + '/api/nodes/' + account.address)).json();
    if (nodes.length === 0) await new Promise((r) => setTimeout(r, 250));
  }
  assert.equal(nodes.length, 1, 'the payment made with the wallet became a node');
  await context.close();
});

test("the owner withdraws through the node page's button, straight from the factory", async () => {
  const credit = await (await fetch(base + '/api/cron/credit', { method: 'POST', headers: { 'x-cron-key': env.CRON_KEY } })).json();
  assert.equal(credit.status, 'confirmed', JSON.stringify(credit));
  const factory = (await (await fetch(base + '/api/cover')).json()).contract;
  const nodeInfo = [{ type: 'function', name: 'nodeInfo', stateMutability: 'view', inputs: [{ name: 'id', type: 'uint256' }],
    outputs: [{ name: 'owner', type: 'address' }, { name: 'tier', type: 'uint8' }, { name: 'balance', type: 'uint256' },
      { name: 'credited', type: 'uint256' }, { name: 'withdrawn', type: 'uint256' }] }];
  const client = createPublicClient({ chain, transport: http() });
  const [, , before] = await client.readContract({ address: factory, abi: nodeInfo, functionName: 'nodeInfo', args: [1n] });
  assert.equal(before, 1000n);

  const context = await browser.newContext();
  await withWallet(context, env.BUYER_KEY);
  const page = await context.newPage();
  await page.goto(base + '/node/1');
  await page.click('[data-testid=connect-wallet]'); // the form is the connected owner's
  await page.fill('[data-testid=withdraw] input[name=amount]', '0.0000000000000004'); // 400 wei
  await page.click('[data-wallet=withdraw]');
  await page.locator('.wallet-msg', { hasText: 'Withdrawal sent' }).waitFor({ timeout: 15000 });
  await shot(page, 'node-withdraw');
  let balance = before;
  for (let i = 0; i < 40 && balance === before; i++) {
    [, , balance] = await client.readContract({ address: factory, abi: nodeInfo, functionName: 'nodeInfo', args: [1n] });
    if (balance === before) await new Promise((r) => setTimeout(r, 250));
  }
  assert.equal(balance, 600n, 'the withdrawal took exactly 400 wei');
  await context.close();
});

test('a node the ledger has not recorded shows on /me, and its button records it', async () => {
  // Minted outside the service, so only the chain knows it.
  const factory = (await (await fetch(base + '/api/cover')).json()).contract;
  const owner = privateKeyToAccount(env.THIRD_BUYER_KEY);
  const minter = createWalletClient({ account: privateKeyToAccount(env.MINTER_KEY), chain, transport: http() });
  const client = createPublicClient({ chain, transport: http() });
  const mint = [{ type: 'function', name: 'mint', stateMutability: 'nonpayable',
    inputs: [{ name: 'to', type: 'address' }, { name: 'tier', type: 'uint8' }, { name: 'paymentRef', type: 'bytes32' }], outputs: [{ type: 'uint256' }] }];
  const hash = await minter.writeContract({ address: factory, abi: mint, functionName: 'mint', args: [owner.address, 1, '0x' + 'ee'.repeat(32)] });
  await client.waitForTransactionReceipt({ hash });

  const context = await browser.newContext();
  await withWallet(context, env.THIRD_BUYER_KEY);
  const page = await context.newPage();
  await page.goto(base + '/me');
  await page.click('[data-wallet=signin]');
  await page.waitForSelector('[data-testid=unrecorded]');
  await shot(page, 'me-unrecorded');
  await page.click('[data-testid=unrecorded] [data-wallet=sync]');
  await page.waitForSelector('[data-testid=wallet-nodes]');
  assert.equal(await page.locator('[data-testid=unrecorded]').count(), 0);
  assert.equal(await page.locator('[data-testid="wallet-nodes"] tbody tr').count(), 1);
  await context.close();
});

test('the operator signs in with a wallet and runs a pass from the page', async () => {
  const context = await browser.newContext();
  await withWallet(context, env.FUNDER_KEY); // the factory's owner, an admin
  const page = await signInOperator(context);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.click('[data-testid=run-payments]');
  // htmx swaps the pass's summary in, without a page load.
  await page.locator('[data-testid=outcome]', { hasText: /^(Nothing new|Minted|Rejected|Recorded)\b/ }).waitFor({ timeout: 15000 });
  await shot(page, 'operator');
  assert.deepEqual(errors, []);
  await context.close();
});

// Every page a visitor can open, to check without JavaScript and at phone width.
const pages = ['/', '/buy', '/me', '/distributions', '/status', '/node/1', '/wallet/0x90f79bf6eb2c4f870365e785982e1f101e93b906', '/operator'];

test('every page works with JavaScript off', async () => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  for (const path of pages) {
    const page = await context.newPage();
    const res = await page.goto(base + path);
    assert.equal(res.status(), 200, path);
    assert.ok((await page.locator('h1').innerText()).length > 0, path);
    await page.close();
  }
  await context.close();
});

test('every page reads on a phone: nothing wider than the screen', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
  for (const path of pages) {
    const page = await context.newPage();
    await page.goto(base + path);
    // Against the device's width: a mobile layout viewport grows to fit what overflows it.
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(scroll <= 390, `${path} is ${scroll}px wide on a 390px screen`);
    await page.screenshot({ path: `${env.ARTIFACTS}/phone${path.replace(/[^a-z0-9]+/gi, '-')}.png`, fullPage: true });
    await page.close();
  }
  await context.close();
});

test('distributions, health and a missing page', async () => {
  let { page, res } = await open('/distributions');
  assert.equal(res.status(), 200);
  await shot(page, 'distributions');
  await page.close();
  ({ page, res } = await open('/status'));
  assert.equal(res.status(), 200);
  // One verdict first, for buyers, then the parts.
  assert.match(await text(page, 'status-verdict'), /^(Payments are minted|Payments are delayed|Minting is paused)/);
  assert.match(await text(page, 'solvency'), /solvent/);
  await shot(page, 'health');
  await page.close();
  ({ page, res } = await open('/no-such-page'));
  assert.equal(res.status(), 404);
  assert.match(await text(page, 'error'), /404/);
  await shot(page, 'not-found');
  await page.close();
});
