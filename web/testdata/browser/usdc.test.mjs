// Paying in USDC: a tier priced in the dev USDC beside ETH offers "Pay 300 USDC" on /buy; the
// button checks the payment with the service and the wallet's balance, then sends the token's
// transfer to the payments wallet (no approval); the tracker follows it in USDC to its node. The
// pay-from-elsewhere box names the token, its contract and the exact amount, and the operator's
// tier form shows the price in USDC. Under a referral code (/buy?ref=) the USDC button binds the
// code and pays the discounted amount, and the code's owner is owed its commission in USDC. It
// uses tier 81 only, and leaves it switched off.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { erc20Abi, decodeFunctionData } from 'viem';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { env, base, browser, client, freshAccount, withWallet, walletOf, cron, sleep, putTier, switchOff, signInOperator, admin, passUntil } from './harness.mjs';

const wide = { width: 1280, height: 900 };
const phone = { width: 390, height: 844 };
const usdc = env.USDC_ADDRESS.toLowerCase();
const price = 300_000_000n; // 300 USDC, 6 decimals
const card = (page) => page.locator('[data-testid=buy-tier][data-tier="81"]');
const calls = (wallet, method) => wallet.calls.filter((c) => c.method === method);

// shots takes the whole page at 1280 and 390 px, checking that it is no wider than the screen.
async function shots(page, name) {
  for (const viewport of [wide, phone]) {
    await page.setViewportSize(viewport);
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(scroll <= viewport.width, `${name}: ${scroll}px wide on a ${viewport.width}px screen`);
    await page.screenshot({ path: `${env.ARTIFACTS}/usdc-${name}-${viewport.width}.png`, fullPage: true });
  }
  await page.setViewportSize(wide);
}

// withUSDC is a fresh buyer holding ETH for gas and amount of USDC, sent by a dev buyer.
async function withUSDC(amount) {
  const key = await freshAccount('1');
  const hash = await walletOf(env.BUYER_KEY).writeContract({ address: usdc, abi: erc20Abi, functionName: 'transfer',
    args: [privateKeyToAccount(key).address, amount] });
  await client.waitForTransactionReceipt({ hash });
  return key;
}

const usdcOf = (address) => client.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [address] });

test('/buy: Pay 300 USDC checks the payment, sends the token\'s transfer, and the tracker follows it to its node', async () => {
  await putTier(81, { tokenPrices: [{ token: usdc, amount: price.toString() }] });
  try {
    const key = await withUSDC(1000_000_000n);
    const buyer = privateKeyToAccount(key).address.toLowerCase();
    const context = await browser.newContext({ viewport: wide });
    const wallet = await withWallet(context, key);
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await page.goto(base + '/buy');
    assert.equal(await card(page).locator('[data-testid=token-price]').innerText(), 'or 300 USDC');
    const pay = card(page).locator('[data-wallet=paytoken]');
    assert.equal(await pay.innerText(), 'Pay 300 USDC');
    const option = page.locator('[data-testid=pay-option][data-tier="81"] [data-testid=pay-token]');
    assert.equal(await option.locator('[data-testid=pay-token-amount]').innerText(), '300 USDC');
    assert.equal(await option.locator('[data-testid=exact-units]').innerText(), '300000000');
    assert.equal(await option.locator('[data-testid=token-contract]').innerText(), usdc);
    assert.match(await option.locator('[data-testid=token-network]').innerText(), /^Send USDC on .* \(chain id \d+\) and from this contract only/);
    await shots(page, 'buy');

    const before = await usdcOf(buyer);
    await pay.click();
    await page.waitForURL(/\/payment\/0x[0-9a-f]{64}\?sent=1$/, { timeout: 30000 });
    const hash = new URL(page.url()).pathname.split('/').pop();
    const sent = calls(wallet, 'eth_sendTransaction');
    assert.equal(sent.length, 1);
    assert.equal(sent[0].params[0].to.toLowerCase(), usdc, 'sent to the token contract');
    assert.ok(!sent[0].params[0].value || BigInt(sent[0].params[0].value) === 0n, 'no ETH with it');
    assert.equal(calls(wallet, 'eth_signTypedData_v4').length + calls(wallet, 'personal_sign').length, 0, 'no signature, no approval');
    await client.waitForTransactionReceipt({ hash });
    assert.equal(before - await usdcOf(buyer), price);

    let last;
    for (let i = 0; i < 80 && last?.status !== 'minted'; i++) {
      await cron('payments');
      const res = await fetch(base + '/api/payments/' + hash);
      if (res.ok) last = await res.json();
      if (last?.status !== 'minted') await sleep(250);
    }
    assert.equal(last?.status, 'minted', JSON.stringify(last));
    assert.equal(last.token, usdc);
    assert.equal(last.amount, price.toString());
    assert.equal(last.valueWei, '0');
    assert.equal(last.tier, '81');
    await page.locator('[data-testid=payment-status][data-status=minted]').waitFor({ timeout: 15000 });
    assert.equal(await page.locator('[data-testid=paid]').innerText(), '300 USDC');
    await shots(page, 'minted');

    // Back on /buy the connected wallet's figures say what it holds of USDC now.
    await page.goto(base + '/buy');
    await card(page).locator('[data-testid=token-held]').waitFor({ timeout: 15000 });
    assert.equal(await card(page).locator('[data-testid=token-held]').innerText(), 'This wallet holds 700 USDC.');
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await switchOff(81);
  }
});

test('/buy: a wallet holding less USDC than the price is told so, and nothing is sent', async () => {
  await putTier(81, { tokenPrices: [{ token: usdc, amount: price.toString() }] });
  try {
    const key = await withUSDC(100_000_000n);
    const context = await browser.newContext({ viewport: wide });
    const wallet = await withWallet(context, key);
    const page = await context.newPage();
    await page.goto(base + '/buy');
    await card(page).locator('[data-wallet=paytoken]').click();
    const said = card(page).locator('.wallet-msg.bad');
    await said.waitFor({ timeout: 15000 });
    assert.equal(await said.innerText(), 'This wallet holds 100 USDC, less than the price of 300 USDC. Nothing was sent.');
    assert.equal(calls(wallet, 'eth_sendTransaction').length, 0);
    await page.reload(); // the figures follow the connected wallet on the next page
    await card(page).locator('[data-testid=token-held]').waitFor({ timeout: 15000 });
    // Calmly, once: what it holds, and a Pay button that cannot be pressed and says why.
    assert.equal(await card(page).locator('[data-testid=token-held]').innerText(), 'This wallet holds 100 USDC.');
    assert.equal(await card(page).locator('[data-testid=token-held].muted').count(), 1);
    const short = card(page).locator('[data-testid=token-short]');
    assert.equal(await short.innerText(), 'Not enough USDC (100 of 300)');
    assert.ok(await short.isDisabled());
    assert.equal(await card(page).locator('[data-wallet=paytoken]').count(), 0);
    assert.equal(await card(page).locator('[data-wallet=pay]').isDisabled(), false, 'ETH still pays');
    await shots(page, 'short');
    // The landing page gives the price in USDC too, as /buy does.
    await page.goto(base + '/');
    assert.equal(await page.locator('[data-testid=tier][data-tier="81"] [data-testid=tier-token-price]').innerText(), 'or 300 USDC');
    await context.close();
  } finally {
    await switchOff(81);
  }
});

test('the operator\'s tier form: the price in USDC, in its units', async () => {
  await putTier(81, { tokenPrices: [{ token: usdc, amount: '300500000' }] });
  try {
    const context = await browser.newContext({ viewport: wide });
    await withWallet(context, env.FUNDER_KEY); // the factory's owner, an admin
    const page = await signInOperator(context);
    await page.goto(base + '/operator?edit=81#tier-form');
    const field = page.locator(`#tier-form input[name="price_${usdc}"]`);
    assert.equal(await field.inputValue(), '300.5');
    await shots(page, 'tier-form');
    for (const viewport of [wide, phone]) { // the form alone, readable: the page is long
      await page.setViewportSize(viewport);
      await page.locator('#tier-form').screenshot({ path: `${env.ARTIFACTS}/usdc-tier-form-only-${viewport.width}.png` });
    }
    await context.close();
  } finally {
    await switchOff(81);
  }
});

test('the operator\'s tier form asks to confirm an ETH price that leaves the USDC price behind', async () => {
  await putTier(81, { priceWei: '100000000000000000', tokenPrices: [{ token: usdc, amount: price.toString() }] });
  try {
    const context = await browser.newContext({ viewport: wide });
    await withWallet(context, env.FUNDER_KEY); // the factory's owner, an admin
    const page = await signInOperator(context);
    // Tier 81 earns 0× (the factory has no weight for it): Save asks whether to save it anyway.
    page.on('dialog', (d) => d.accept());
    await page.goto(base + '/operator?edit=81#tier-form');
    const form = page.locator('[data-testid=tier-form]');
    await form.locator('input[name=price]').fill('0.12');
    await form.locator('[data-testid=save-tier]').click();
    const ask = page.locator('[data-testid=tier-confirm]');
    await ask.waitFor();
    const said = await ask.innerText();
    for (const want of ['0.12 ETH is $360.00', "the feed's $3,000.00", '300 USDC is $300.00', '16.67 %']) {
      assert.ok(said.includes(want), `the confirmation says ${JSON.stringify(said)}, want ${want} in it`);
    }
    const stored = (await (await fetch(base + '/api/tiers')).json()).tiers.find((t) => t.id === '81');
    assert.equal(stored.priceWei, '100000000000000000', 'nothing is saved before the confirmation');
    await shots(page, 'price-spread-confirm');

    await form.locator('[data-testid=confirm-tier]').check();
    await Promise.all([page.waitForURL(base + '/operator'), form.locator('[data-testid=save-tier]').click()]);
    const spread = page.locator('[data-testid=tier-81] [data-testid=tier-spread]');
    assert.equal((await spread.innerText()).replace(/\s+/g, ' ').trim(), "300 USDC ($300.00): 16.67 % from ETH's $360.00");
    assert.match(await spread.getAttribute('class'), /\bbad\b/);
    await context.close();
  } finally {
    await switchOff(81);
  }
});

// A referral code on a USDC payment: /buy?ref=CODE labels the USDC button with the discounted
// amount, and pressing it pre-checks, binds the code with one signature, pre-checks again, then
// sends one transfer of 285 USDC (300 less 5 %); the payment is minted under the code, 15 USDC
// off, and the code's owner is owed 3 % of what was paid, in USDC.
test('/buy?ref=CODE: Pay 285 USDC binds the code, sends the discounted transfer, and the commission is owed in USDC', async () => {
  await putTier(81, { tokenPrices: [{ token: usdc, amount: price.toString() }] });
  try {
    const pay285 = 285_000_000n; // 300 USDC less 5 %
    const code = 'Usd' + Math.random().toString(36).slice(2, 8); // a code of this run: the database outlives it
    const owner = privateKeyToAccount(generatePrivateKey()).address.toLowerCase(); // the code's owner: no buyer here
    const made = await admin('POST', '/referral-codes', { code, owner, discountBps: 500, commissionBps: 300 });
    assert.equal(made.status, 201, await made.text());

    const key = await withUSDC(1000_000_000n);
    const buyer = privateKeyToAccount(key).address.toLowerCase();
    const payments = privateKeyToAccount(env.PAYMENTS_KEY).address.toLowerCase();
    const context = await browser.newContext({ viewport: wide });
    const wallet = await withWallet(context, key);
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    // What the button asks of the service, in order, with the pre-checks' answers.
    const asked = [];
    const checks = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname.startsWith('/api/tiers/81/check/') || u.pathname === '/api/referrals/bind') asked.push(`${r.method()} ${u.pathname}${u.search}`);
    });
    // The answers are read on their way to the page, which navigates away once it has sent.
    await page.route((url) => url.pathname.startsWith('/api/tiers/81/check/'), async (route) => {
      const r = await route.fetch();
      checks.push(await r.json());
      await route.fulfill({ response: r });
    });

    await page.goto(`${base}/buy?ref=${code.toLowerCase()}`);
    assert.match(await page.locator('[data-testid=referral]').innerText(), new RegExp(`^Code ${code}: 5 % off\\. `));
    const pay = card(page).locator('[data-wallet=paytoken]');
    assert.equal(await pay.innerText(), 'Pay 285 USDC');
    assert.equal(await pay.getAttribute('data-ref'), code);
    assert.equal(await pay.getAttribute('data-pay'), pay285.toString());
    assert.equal(await pay.getAttribute('data-amount'), price.toString());
    assert.equal(await card(page).locator('[data-testid=token-price]').innerText(), 'or 300 USDC', 'the card keeps the full price beside it');
    assert.match(await card(page).locator('[data-testid=discounted]').innerText(), new RegExp(`^[\\d.]+ ETH or 285 USDC with code ${code}$`));
    // From another wallet no code applies: the pay-from-elsewhere box names the full price.
    const option = page.locator('[data-testid=pay-option][data-tier="81"] [data-testid=pay-token]');
    assert.equal(await option.locator('[data-testid=exact-units]').innerText(), price.toString());
    assert.match(await page.locator('[data-testid=referral-elsewhere]').innerText(), new RegExp(`^The discount of code ${code} applies only to payments from a wallet that linked the code on this page`));
    await shots(page, 'referral-buy');
    assert.equal(calls(wallet, 'personal_sign').length + calls(wallet, 'eth_sendTransaction').length, 0, 'no signature, nothing sent, before the press');
    assert.deepEqual(asked, [], 'no pre-check and no bind before the press');

    const before = await usdcOf(buyer);
    await pay.click();
    await page.waitForURL(/\/payment\/0x[0-9a-f]{64}\?sent=1$/, { timeout: 30000 });
    const hash = new URL(page.url()).pathname.split('/').pop();

    // Pre-check, bind, pre-check again: the second answer is what was sent.
    const check = `GET /api/tiers/81/check/${buyer}?token=${usdc}`;
    assert.deepEqual(asked.map((a) => a.toLowerCase()), [check, 'post /api/referrals/bind', check].map((a) => a.toLowerCase()));
    const [first, bound, ...more] = checks;
    assert.equal(more.length, 0, 'two pre-checks');
    assert.equal(first.referralCode, null, 'the wallet was bound to no code before the press');
    assert.equal(first.payToken.amount, price.toString());
    assert.equal(bound.referralCode, code);
    assert.equal(bound.priceToken.amount, price.toString());
    assert.equal(bound.payToken.amount, pay285.toString());
    assert.equal(bound.discountToken.amount, (price - pay285).toString());
    assert.equal(bound.payToken.token, usdc);

    // One signature (the sign-in that binds the code), one transaction: transfer(payments wallet, 285 USDC).
    assert.equal(calls(wallet, 'personal_sign').length, 1, 'one signature: the sign-in that binds the code');
    assert.equal(calls(wallet, 'eth_signTypedData_v4').length, 0, 'no permit, no approval');
    const sent = calls(wallet, 'eth_sendTransaction');
    assert.equal(sent.length, 1);
    assert.equal(sent[0].params[0].to.toLowerCase(), usdc, 'sent to the token contract');
    assert.ok(!sent[0].params[0].value || BigInt(sent[0].params[0].value) === 0n, 'no ETH with it');
    const { functionName, args } = decodeFunctionData({ abi: erc20Abi, data: sent[0].params[0].data });
    assert.equal(functionName, 'transfer');
    assert.equal(args[0].toLowerCase(), payments);
    assert.equal(args[1], pay285);
    await client.waitForTransactionReceipt({ hash });
    assert.equal(before - await usdcOf(buyer), pay285);

    const p = await passUntil(hash, 'minted');
    assert.equal(p.token, usdc);
    assert.equal(p.tier, '81');
    assert.equal(p.referralCode, code);
    assert.equal(p.amount, pay285.toString());
    assert.equal(p.discount, (price - pay285).toString(), 'the discount in USDC base units');
    assert.equal(p.discountWei, '0');
    assert.equal(p.valueWei, '0');
    await page.locator('[data-testid=payment-status][data-status=minted]').waitFor({ timeout: 15000 });
    assert.equal(await page.locator('[data-testid=paid]').innerText(), `285 USDC, with code ${code}: 15 USDC off the price`);
    await shots(page, 'referral-minted');

    // The code's owner is owed 3 % of the 285 USDC paid, in USDC, and nothing in ETH.
    const res = await admin('GET', '/commissions');
    assert.equal(res.status, 200);
    const mine = (await res.json()).commissions.filter((c) => c.payment === hash.toLowerCase());
    assert.equal(mine.length, 1, `one commission of the payment: ${JSON.stringify(mine)}`);
    const [c] = mine;
    assert.equal(c.referrer, owner);
    assert.equal(c.code, code);
    assert.equal(c.role, 'owner');
    assert.equal(c.status, 'owed');
    assert.equal(c.amountWei, '0');
    assert.equal(c.inToken?.token, usdc);
    assert.equal(c.inToken?.symbol, 'USDC');
    assert.equal(c.inToken?.amount, ((pay285 * 300n) / 10000n).toString());
    assert.equal(c.inToken.amount, '8550000');
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await switchOff(81);
  }
});
