// The wallet in the browser (static/wallet.js): connecting from the header, the wrong network,
// one transaction per press, the owner's withdraw form and the operator's refund button. Each
// test's buyer is a fresh account, so nothing here depends on what the other files bought.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEther } from 'viem';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { env, base, browser, open, client, withWallet, freshAccount, cron, reconcile, text, sleep } from './harness.mjs';

const short = (a) => a.slice(0, 6) + '…' + a.slice(-4);
const sends = (wallet) => wallet.calls.filter((c) => c.method === 'eth_sendTransaction');
const message = (page, scope) => page.locator(`[data-testid=${scope}] .wallet-msg`);

// shots takes the page, or only its header, at 1280 and 390 px, checking that it is no wider
// than the screen at either width.
async function shots(page, name, { header = false } = {}) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 844 });
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(scroll <= width, `${name}: ${scroll}px wide on a ${width}px screen`);
    const path = `${env.ARTIFACTS}/${name}-${width}.png`;
    await (header ? page.locator('header.site').screenshot({ path }) : page.screenshot({ path, fullPage: true }));
  }
  await page.setViewportSize({ width: 1024, height: 800 });
}

// A page in a context of its own, with a wallet holding key (options as withWallet's).
async function walletPage(key, path, options) {
  const context = await browser.newContext();
  const wallet = await withWallet(context, key, options);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error' && !/status of 404/.test(m.text())) errors.push(m.text()); });
  await page.goto(base + path);
  return { context, wallet, page, errors };
}

test('without a wallet: one card first, with the wallet-app links, on a phone\'s first screen', async () => {
  const { page, errors } = await open('/buy');
  await page.locator('[data-testid=connect] [data-testid=no-wallet]').waitFor();
  const card = page.locator('[data-testid=no-wallet-card]');
  await card.waitFor();
  assert.match(await card.innerText(), /^No wallet in this browser\./);
  const address = (await text(page, 'payment-address')).toLowerCase();
  const links = card.locator('[data-testid=no-wallet-pay]');
  assert.ok(await links.count() >= 1, 'a wallet-app link per tier that can be paid');
  for (const href of await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')))) {
    assert.match(href, new RegExp(`^ethereum:${address}@1337\\?value=\\d+$`, 'i'));
  }
  // The Pay buttons give way to a wallet app's link, and nothing repeats "no wallet".
  assert.equal(await page.locator('[data-wallet=pay]:visible, [data-wallet=paytoken]:visible').count(), 0);
  assert.ok(await page.locator('[data-testid=pay-app]:visible').count() >= 1);
  assert.equal(await page.locator('[data-testid=no-wallet-reason]').count(), 0);
  assert.equal(await page.locator('[data-wallet=copy]').first().isDisabled(), false, 'copying needs no wallet');
  await shots(page, 'buy-no-wallet');
  await page.setViewportSize({ width: 390, height: 844 });
  const first = await links.first().boundingBox();
  assert.ok(first.y + first.height <= 844, `the first wallet-app link ends at ${first.y + first.height}px: below a 390×844 phone's first screen`);
  await page.setViewportSize({ width: 1024, height: 800 });

  // Elsewhere a button that needs a wallet says why beside it.
  await page.goto(base + '/me');
  await page.locator('[data-testid=connect] [data-testid=no-wallet]').waitFor();
  assert.match(await text(page, 'no-wallet-reason'), /^No wallet found in this browser/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('connect: the header shows the short address and the network, and the next page reconnects by itself', async () => {
  const { context, wallet, page, errors } = await walletPage(await freshAccount(), '/');
  await page.click('[data-testid=connect-wallet]');
  assert.equal(await text(page, 'wallet-account'), short(wallet.address.toLowerCase()));
  assert.equal(await text(page, 'wallet-network'), 'Dev chain');
  assert.doesNotMatch(await page.locator('header .wallet').innerText(), /null|undefined/);
  await shots(page, 'wallet-header-connected', { header: true });

  await page.goto(base + '/buy');
  await page.locator('[data-testid=wallet-account]').waitFor();
  assert.equal(wallet.calls.filter((c) => c.method === 'eth_requestAccounts').length, 1, 'no second prompt');
  assert.ok(wallet.calls.some((c) => c.method === 'eth_accounts'), 'reconnected silently');
  await page.click('[data-wallet=disconnect]');
  await page.locator('[data-testid=connect-wallet]').waitFor();
  await page.reload();
  await page.locator('[data-testid=connect-wallet]').waitFor();
  assert.equal(await page.locator('[data-testid=wallet-account]').count(), 0, 'a disconnected wallet stays so');
  assert.deepEqual(errors, []);
  await context.close();
});

test('several wallets: the person chooses one by its name and icon', async () => {
  const { context, wallet, page, errors } = await walletPage(await freshAccount(), '/',
    { others: [{ name: 'Other Wallet', rdns: 'org.example.other' }] });
  await page.click('[data-testid=connect-wallet]');
  const choices = page.locator('[data-testid=wallet-choice]');
  assert.deepEqual(await choices.allInnerTexts(), ['Test Wallet', 'Other Wallet']);
  assert.equal(await choices.locator('img[src^="data:image/svg+xml"]').count(), 2);
  await shots(page, 'wallet-header-choose', { header: true });
  await choices.filter({ hasText: 'Other Wallet' }).click(); // it declines (4001)
  await page.locator('header .wallet-msg').waitFor();
  assert.equal(await page.locator('header .wallet-msg').innerText(), 'You declined the request in your wallet.');
  await choices.filter({ hasText: 'Test Wallet' }).click();
  assert.equal(await text(page, 'wallet-account'), short(wallet.address.toLowerCase()));
  assert.deepEqual(errors, [], 'the icons pass the CSP');
  await context.close();
});

test('wrong network: the Pay button switches the wallet, then pays', async () => {
  const { context, wallet, page, errors } = await walletPage(await freshAccount(), '/buy', { chainId: 1 });
  const pay = page.locator('[data-wallet=pay]').first();
  const price = await pay.innerText();
  assert.match(price, /^Pay [0-9.]+ ETH$/);
  await page.click('[data-testid=connect-wallet]');
  assert.equal(await text(page, 'wrong-network'), 'Wrong network');
  assert.equal(await text(page, 'switch-network'), 'Switch to Dev chain');
  await page.locator('[data-wallet=pay]', { hasText: 'Switch to Dev chain and pay' }).first().waitFor();
  await shots(page, 'wallet-header-wrong-network', { header: true });
  await shots(page, 'wallet-pay-wrong-network');
  // On a phone, every section's link is in view and the connected wallet's Pay is on the first screen.
  await page.setViewportSize({ width: 390, height: 844 });
  for (const box of await page.locator('header.site .links a').evaluateAll((as) => as.map((a) => a.getBoundingClientRect().toJSON()))) {
    assert.ok(box.x >= 0 && box.x + box.width <= 390, `a header link at x ${box.x}–${box.x + box.width}: out of a 390px screen`);
  }
  const payBox = await page.locator('[data-wallet=pay]').first().boundingBox();
  assert.ok(payBox.y + payBox.height <= 844, `Pay ends at ${payBox.y + payBox.height}px: below a 390×844 phone's first screen`);
  await page.setViewportSize({ width: 1024, height: 800 });

  await page.locator('[data-wallet=pay]').first().click();
  await page.waitForURL(/\/payment\/0x[0-9a-f]{64}\?sent=1$/, { timeout: 15000 });
  const switched = wallet.calls.findIndex((c) => c.method === 'wallet_switchEthereumChain');
  const sent = wallet.calls.findIndex((c) => c.method === 'eth_sendTransaction');
  assert.deepEqual(wallet.calls[switched].params, [{ chainId: '0x539' }]);
  assert.ok(switched >= 0 && sent > switched, 'switched, then sent');
  assert.equal(sends(wallet).length, 1, 'one payment');
  assert.deepEqual(errors, []);
  await context.close();
});

test('wrong network, and the person declines the switch: nothing is sent, the button still switches', async () => {
  const { context, wallet, page, errors } = await walletPage(await freshAccount(), '/buy', { chainId: 1, declineSwitch: true });
  await page.click('[data-testid=connect-wallet]');
  const pay = page.locator('[data-wallet=pay]').first();
  await page.locator('[data-wallet=pay]', { hasText: 'Switch to Dev chain and pay' }).first().waitFor();
  await pay.click();
  await message(page, 'buy-tier').first().filter({ hasText: 'declined' }).waitFor();
  assert.equal(await message(page, 'buy-tier').first().innerText(), 'You declined the request in your wallet.');
  assert.equal(sends(wallet).length, 0, 'no transaction asked for on the wrong chain');
  assert.ok(page.url().endsWith('/buy'));
  assert.equal(await pay.innerText(), 'Switch to Dev chain and pay');
  assert.equal(await pay.isDisabled(), false, 'the button is back');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a wallet that does not know the network is asked to add it, with the RPC the page names', async () => {
  const { context, wallet, page } = await walletPage(await freshAccount(), '/', { chainId: 1, knowsDevChain: false });
  await page.click('[data-testid=connect-wallet]');
  await page.click('[data-testid=switch-network]');
  await page.locator('[data-testid=wallet-network]').waitFor();
  const add = wallet.calls.find((c) => c.method === 'wallet_addEthereumChain');
  assert.ok(add, 'wallet_addEthereumChain after 4902');
  assert.equal(add.params[0].chainId, '0x539');
  assert.equal(add.params[0].chainName, 'Dev chain');
  assert.deepEqual(add.params[0].rpcUrls, [env.RPC_URL]);
  await context.close();
});

test('a wallet without the ETH to pay: one sentence, nothing raw', async () => {
  const { context, page } = await walletPage(generatePrivateKey(), '/buy');
  await page.click('[data-wallet=pay]');
  await message(page, 'buy-tier').waitFor({ timeout: 15000 });
  assert.equal(await message(page, 'buy-tier').innerText(), 'This wallet does not hold enough ETH for the amount and the network fee.');
  assert.ok(page.url().endsWith('/buy'));
  await context.close();
});

// The owner of the node the double-click test buys, for the withdraw test.
let owner;

test('a double click on pay sends exactly one transaction, then follows it on its tracker', async () => {
  const key = await freshAccount();
  const { context, wallet, page } = await walletPage(key, '/buy', { slow: 1000 });
  await page.click('[data-testid=connect-wallet]');
  // Connecting brings the wallet's own figures into the tier cards, and a new pay button with
  // them: the double click is on that one.
  await page.locator('[data-testid=holds]').first().waitFor({ timeout: 15000 });
  const pay = page.locator('[data-wallet=pay]');
  await pay.dblclick();
  assert.equal(await pay.innerText(), 'Waiting for your wallet…');
  assert.ok(await pay.isDisabled());
  await page.waitForURL(/\/payment\/0x[0-9a-f]{64}\?sent=1$/, { timeout: 15000 });
  await sleep(500);
  assert.equal(sends(wallet).length, 1, JSON.stringify(sends(wallet)));
  assert.equal(sends(wallet)[0].params[0].value, '0x' + parseEther('0.1').toString(16));
  const sent = await client.getTransaction({ hash: new URL(page.url()).pathname.split('/payment/')[1] });
  assert.equal(sent.from, wallet.address.toLowerCase(), 'the tracker follows the transaction the wallet sent');

  let nodes = [];
  for (let i = 0; i < 40 && nodes.length === 0; i++) {
    await cron('payments');
    nodes = await (await fetch(base + '/api/nodes/' + wallet.address)).json();
    if (nodes.length === 0) await sleep(250);
  }
  assert.equal(nodes.length, 1, 'the one payment became one node');
  owner = { key, address: wallet.address.toLowerCase(), node: nodes[0].chainNodeId };
  await context.close();
});

test('the owner withdraws from the node page; a stranger sees who owns it and no form', async () => {
  assert.ok(owner, 'the double-click test bought a node');
  const credit = await cron('credit');
  assert.equal(credit.status, 'confirmed', JSON.stringify(credit));
  const path = '/node/' + owner.node;

  const { context, wallet, page, errors } = await walletPage(owner.key, path);
  assert.ok(await page.locator('[data-testid=withdraw-form]').isHidden(), 'hidden until the owner connects');
  await page.click('[data-testid=connect-wallet]');
  await page.locator('[data-testid=withdraw-form]').waitFor();
  assert.ok(await page.locator('[data-testid=withdraw-how]').isHidden());
  const amount = page.locator('[data-testid=withdraw-form] input[name=amount]');
  const withdraw = page.locator('[data-wallet=withdraw]');
  const refused = async (value, pattern) => {
    await amount.fill(value);
    await withdraw.click();
    await message(page, 'withdraw').filter({ hasText: pattern }).waitFor();
    assert.ok(await message(page, 'withdraw').evaluate((e) => e.classList.contains('bad')));
  };
  // The node holds 1000 wei (one credit): these are refused before any wallet prompt.
  await refused('0.000000000000002', "more than this node's balance of 0.000000000000001 ETH");
  await refused('.5', "more than this node's balance");
  await refused('0.5', "more than this node's balance");
  await refused('0.0000000000000000001', 'at most 18 decimals');
  await refused('1,5', 'with a point for decimals');
  await refused('0', 'above 0');
  assert.equal(sends(wallet).length, 0);
  // The contract's own refusal (ZeroAddress, by its selector), as one sentence and nothing raw.
  await page.fill('[data-testid=withdraw-form] input[name=to]', '0x' + '0'.repeat(40));
  await refused('0.000000000000001', 'zero address');
  assert.equal(await message(page, 'withdraw').innerText(), 'The destination cannot be the zero address.');
  await page.fill('[data-testid=withdraw-form] input[name=to]', '');

  await page.click('[data-wallet=max]');
  assert.equal(await amount.inputValue(), '0.000000000000001');
  await shots(page, 'wallet-node-owner');
  await withdraw.click();
  await message(page, 'withdraw').filter({ hasText: 'Withdrawal sent' }).waitFor({ timeout: 15000 });
  assert.match(await message(page, 'withdraw').innerText(), /waiting for it to be recorded/);
  assert.equal(sends(wallet).length, 2, 'the refused one and this one');
  // The page polls the node every 2 s and reloads once the reconciler records the withdrawal.
  for (let i = 0; i < 60 && await page.locator('[data-testid=withdrawals]').count() === 0; i++) {
    await reconcile();
    await sleep(500);
  }
  await page.locator('[data-testid=withdrawals]').waitFor();
  assert.equal(await page.locator('[data-testid=withdrawals] tbody tr').count(), 1);
  assert.equal(await text(page, 'balance'), '0');
  assert.deepEqual(errors, []);
  await context.close();

  const stranger = await walletPage(await freshAccount(), path);
  await stranger.page.click('[data-testid=connect-wallet]');
  await stranger.page.locator('[data-testid=wallet-account]').waitFor();
  assert.ok(await stranger.page.locator('[data-testid=withdraw-form]').isHidden());
  assert.match(await text(stranger.page, 'withdraw-how'), /connect its owner's wallet/);
  assert.match(await text(stranger.page, 'owner'), new RegExp(owner.address));
  await shots(stranger.page, 'wallet-node-stranger');
  await stranger.context.close();

  const noJS = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noJS.newPage();
  await plain.goto(base + path);
  assert.ok(await plain.locator('[data-testid=withdraw-form]').isHidden());
  assert.ok(await plain.locator('[data-testid=withdraw-how]').isVisible());
  await noJS.close();
});

test('refund: only from the payments wallet, which sends the value back', async () => {
  const payments = privateKeyToAccount(env.PAYMENTS_KEY).address.toLowerCase();
  const buyer = privateKeyToAccount(generatePrivateKey()).address;
  const value = parseEther('0.0123');
  // The operator page draws these buttons; any page serves the snippet that runs them.
  const button = (page) => page.evaluate(([to, value, payments]) => document.querySelector('main').insertAdjacentHTML('beforeend',
    `<section data-testid="refund" data-wallet-scope><button type="button" data-wallet="refund" data-to="${to}" data-value="${value}"
      data-payments="${payments}">Refund</button><div data-wallet-out></div></section>`), [buyer, value.toString(), payments]);

  const other = await walletPage(await freshAccount(), '/');
  await other.page.click('[data-testid=connect-wallet]');
  await button(other.page);
  await other.page.click('[data-wallet=refund]');
  await message(other.page, 'refund').waitFor();
  assert.equal(await message(other.page, 'refund').innerText(),
    `Connect the payments wallet, ${payments}, to refund: the connected wallet is ${short(other.wallet.address.toLowerCase())}.`);
  assert.equal(sends(other.wallet).length, 0);
  await other.context.close();

  const { context, wallet, page, errors } = await walletPage(env.PAYMENTS_KEY, '/');
  await page.click('[data-testid=connect-wallet]');
  await button(page);
  await page.click('[data-wallet=refund]');
  await message(page, 'refund').filter({ hasText: 'Refund sent' }).waitFor({ timeout: 15000 });
  assert.match(await message(page, 'refund').innerText(), /^Refund sent \(0x[0-9a-f]{4}…[0-9a-f]{4}\)\. It shows as refunded once the payments pass sees it\.$/);
  assert.ok(await page.locator('[data-wallet=refund]').isDisabled(), 'a sent refund cannot be sent twice');
  assert.equal(sends(wallet).length, 1);
  let received = 0n; // the dev chain mines within a second of the send
  for (let i = 0; i < 40 && received === 0n; i++) {
    await sleep(250);
    received = await client.getBalance({ address: buyer });
  }
  assert.equal(received, value);
  assert.deepEqual(errors, []);
  await context.close();
});
