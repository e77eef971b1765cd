// The first screen says what a node earns (per day and per 30 days, in ETH with USD beside it),
// and /me tells a holder what its nodes earn, when the next credit comes, and withdraws every
// node's balance with one confirmation: one transaction per node, one after another. The
// holder is a fresh account that buys two Standard nodes, so the file depends on no other.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { browser, base, env, client, walletOf, freshAccount, withWallet, cron, shot, text } from './harness.mjs';

// both takes the page's screenshot at 1280 and at 390 px wide, and checks that nothing is wider
// than a phone's screen.
async function both(page, name) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await shot(page, `${name}-1280`);
  await page.setViewportSize({ width: 390, height: 844 });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `${name} is ${width}px wide on a 390px screen`);
  await shot(page, `${name}-390`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

const squash = (s) => s.replace(/\s+/g, ' ').trim();

// The browser server credits 1000 wei a round to a 1× node, a round every millisecond
// (web/browser_test.go).
const perRound = 1000n;
const roundsPerDay = 86_400_000n;
const roundsPer30 = 30n * roundsPerDay;

const NODE_INFO = [{ type: 'function', name: 'nodeInfo', stateMutability: 'view', inputs: [{ name: 'id', type: 'uint256' }],
  outputs: [{ name: 'owner', type: 'address' }, { name: 'tier', type: 'uint8' }, { name: 'balance', type: 'uint256' },
    { name: 'credited', type: 'uint256' }, { name: 'withdrawn', type: 'uint256' }] }];
const balanceOf = async (factory, id) => (await client.readContract({ address: factory, abi: NODE_INFO, functionName: 'nodeInfo', args: [BigInt(id)] }))[2];

test('the first screen says what a node earns a day and in 30 days, in ETH and USD', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(base + '/');
  assert.notEqual(squash(await page.locator('h1').innerText()), 'Overview');
  const row = page.locator('[data-testid=tier]', { hasText: 'Standard' });
  assert.equal(await row.locator('[data-testid=earns-day] [data-wei]').getAttribute('data-wei'), String(perRound * roundsPerDay));
  assert.equal(await row.locator('[data-testid=earns-30d] [data-wei]').getAttribute('data-wei'), String(perRound * roundsPer30));
  assert.match(await row.locator('[data-testid=earns-day]').innerText(), /ETH\s*(≈|<) \$\d/);
  assert.match(await row.locator('[data-testid=earns-30d]').innerText(), /ETH\s*(≈|<) \$\d/);
  assert.equal(squash(await row.locator('[data-testid=tier-price-usd]').innerText()), '≈ $300.00');
  assert.equal(squash(await text(page, 'price')), '$3,000.00');
  assert.match(squash(await text(page, 'earnings-basis')), /in dollars at today's ETH price of \$3,000\.00/);
  await both(page, 'home');
  assert.deepEqual(errors, []);
  await page.close();
});

test('/me: the rate, the next credit, and Withdraw all with one confirmation', async () => {
  // A holder of two nodes, each credited once.
  const key = await freshAccount('1');
  const holder = privateKeyToAccount(key).address.toLowerCase();
  const quote = await (await fetch(base + '/api/deploy-quote')).json();
  const wallet = walletOf(key);
  for (let i = 0; i < 2; i++) {
    const hash = await wallet.sendTransaction({ to: quote.paymentAddress, value: parseEther('0.1') });
    await client.waitForTransactionReceipt({ hash });
  }
  let nodes = [];
  for (let i = 0; i < 40 && nodes.length < 2; i++) {
    await cron('payments');
    nodes = await (await fetch(base + '/api/nodes/' + holder)).json();
  }
  assert.equal(nodes.length, 2, 'two payments became two nodes');
  const credit = await cron('credit');
  assert.equal(credit.status, 'confirmed', JSON.stringify(credit));
  const factory = (await (await fetch(base + '/api/cover')).json()).contract;
  const ids = nodes.map((n) => n.chainNodeId);
  for (const id of ids) assert.ok(await balanceOf(factory, id) > 0n, `node ${id} was credited`);

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const account = await withWallet(context, key);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(base + '/me');
  await page.click('[data-wallet=signin]');
  await page.locator('[data-testid=me-rate]').waitFor();

  assert.equal(await page.locator('[data-testid=rate-day]').getAttribute('data-wei'), String(2n * perRound * roundsPerDay));
  assert.equal(await page.locator('[data-testid=rate-30d]').getAttribute('data-wei'), String(2n * perRound * roundsPer30));
  assert.match(squash(await text(page, 'me-rate')), /Your 2 nodes earn .* ETH a day and .* ETH per 30 days/);
  assert.match(squash(await text(page, 'next-credit')), /^Next credit/);
  // The address in full once on the page; the header keeps to one short form.
  assert.equal(await page.locator('main', { hasText: holder }).count(), 1);
  assert.equal((await page.locator('main').innerText()).split(holder).length - 1, 1, 'the address appears once on the page');
  await both(page, 'me');

  // Signing in connected the wallet, so the owner's forms show. The per-node form says where
  // the ETH goes: the owner's wallet unless changed.
  const form = page.locator('[data-testid=withdraw-all-form]');
  await form.waitFor();
  assert.equal(await form.locator('input[name=to]').inputValue(), holder);
  assert.match(await form.innerText(), /Your own wallet, the nodes' owner, unless you change it/);
  for (const input of await page.locator('[data-testid=withdraw-form] input[name=to]').all()) {
    assert.equal(await input.inputValue(), holder);
  }

  const sends = () => account.calls.filter((c) => c.method === 'eth_sendTransaction').length;
  const before = await Promise.all(ids.map((id) => balanceOf(factory, id)));
  await page.click('[data-wallet=withdrawall]');
  const confirm = page.locator('[data-testid=withdraw-all-confirm]');
  await confirm.waitFor();
  const items = confirm.locator('[data-testid=withdraw-all-item]');
  assert.equal(await items.count(), 2, 'one line per node');
  for (const [k, id] of ids.entries()) {
    const line = squash(await items.nth(k).innerText());
    assert.equal(line, `Node ${id}: 0.${String(before[k]).padStart(18, '0').replace(/0+$/, '')} ETH to ${holder}`);
  }
  assert.equal(sends(), 0, 'nothing is sent before the confirmation');
  await both(page, 'me-withdraw-all-confirm');

  await page.click('[data-testid=withdraw-all-send]');
  await page.locator('[data-testid=withdraw-all] .wallet-msg', { hasText: 'Paid out' }).waitFor({ timeout: 30000 });
  assert.match(squash(await page.locator('[data-testid=withdraw-all] .wallet-msg').innerText()), new RegExp(`from 2 nodes to ${holder}`));
  assert.equal(sends(), 2, 'one transaction per node');
  for (const id of ids) assert.equal(await balanceOf(factory, id), 0n, `node ${id} holds nothing after Withdraw all`);
  assert.equal(await confirm.locator('[data-done]').count(), 2);
  // It goes quiet: nothing offers to withdraw again until the page shows the new balances.
  const again = page.locator('[data-wallet=withdrawall]');
  assert.ok(await again.isDisabled());
  assert.equal(await again.innerText(), 'Withdrawn');
  await both(page, 'me-withdraw-all-done');
  assert.deepEqual(errors, []);
  await context.close();
});
