// A referral link on /buy: the page shows the code's discount and each tier's discounted price,
// the Pay button binds the code to the connected wallet with one signature and pays the
// discounted price, and the node is minted at it (the tracker says the code and what it took
// off); a code the service refuses to bind (the buyer's own) is said in a sentence, and the next
// press pays the full price. It uses tier 80 only, and leaves it switched off.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEther } from 'viem';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { env, base, browser, freshAccount, withWallet, cron, sleep, admin, putTier, switchOff, passUntil } from './harness.mjs';

const wide = { width: 1280, height: 900 };
const phone = { width: 390, height: 844 };
const price = parseEther('0.38'); // putTier's price of tier 80
const discounted = parseEther('0.361'); // 5 % off
const calls = (wallet, method) => wallet.calls.filter((c) => c.method === method);
const card = (page) => page.locator('[data-testid=buy-tier][data-tier="80"]');
// A code of this run: codes live in the database, which other runs may have used.
const codeName = (prefix) => prefix + Math.random().toString(36).slice(2, 8);

// shots takes the whole page at 1280 and 390 px, checking that it is no wider than the screen.
async function shots(page, name) {
  for (const viewport of [wide, phone]) {
    await page.setViewportSize(viewport);
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(scroll <= viewport.width, `${name}: ${scroll}px wide on a ${viewport.width}px screen`);
    await page.screenshot({ path: `${env.ARTIFACTS}/referral-${name}-${viewport.width}.png`, fullPage: true });
  }
  await page.setViewportSize(wide);
}

async function makeCode(code, owner) {
  const res = await admin('POST', '/referral-codes', { code, owner, discountBps: 500, commissionBps: 250 });
  assert.equal(res.status, 201, await res.text());
}

// minted runs payments passes until the payment of hash is minted, and returns it.
const minted = (hash) => passUntil(hash, 'minted');

// paid waits for the Pay button to open the tracker of the payment it sent, and returns its hash.
async function paid(page) {
  await page.waitForURL(/\/payment\/0x[0-9a-f]{64}\?sent=1$/, { timeout: 30000 });
  return new URL(page.url()).pathname.split('/').pop();
}

// buyPage opens /buy?ref=code with key's wallet; refused, the bind's 409 is the answer the page
// expects, not an error (the browser logs every 4xx).
async function buyPage(key, code, refused = false) {
  const context = await browser.newContext({ viewport: wide });
  const wallet = await withWallet(context, key);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error' && !(refused && /status of 409/.test(m.text()))) errors.push(m.text()); });
  await page.goto(`${base}/buy?ref=${code.toLowerCase()}`);
  return { context, wallet, page, errors };
}

test('/buy?ref=CODE: the Pay button binds the code with one signature and pays the discounted price, and the node is minted at it', async () => {
  await putTier(80);
  try {
    const code = codeName('Pal');
    await makeCode(code, privateKeyToAccount(generatePrivateKey()).address);
    const key = await freshAccount('2');
    const { context, wallet, page, errors } = await buyPage(key, code);
    assert.match(await page.locator('[data-testid=referral]').innerText(), new RegExp(`^Code ${code}: 5 % off\\. `));
    assert.equal(await card(page).locator('[data-testid=amount]').innerText(), '0.38 ETH');
    assert.equal(await card(page).locator('[data-testid=discounted]').innerText(), `0.361 ETH with code ${code}`);
    const pay = card(page).locator('[data-wallet=pay]');
    assert.equal(await pay.innerText(), 'Pay 0.361 ETH');
    assert.match(await page.locator('[data-testid=referral-elsewhere]').innerText(), /applies only to payments from a wallet that linked the code on this page/);
    await shots(page, 'valid');

    await pay.click();
    const hash = await paid(page);
    assert.equal(calls(wallet, 'personal_sign').length, 1, 'one signature: the sign-in that binds the code');
    const sent = calls(wallet, 'eth_sendTransaction');
    assert.equal(sent.length, 1);
    assert.equal(BigInt(sent[0].params[0].value), discounted);
    const p = await minted(hash);
    assert.equal(p.valueWei, discounted.toString());
    assert.equal(p.referralCode, code);
    assert.equal(p.discountWei, (price - discounted).toString());
    await page.locator('[data-testid=payment-status][data-status=minted]').waitFor({ timeout: 15000 });
    assert.equal(await page.locator('[data-testid=paid]').innerText(), `0.361 ETH, with code ${code}: 0.019 ETH off the price`);
    await shots(page, 'minted');
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await switchOff(80);
  }
});

test('the buyer\'s own code: the bind is refused in a sentence, nothing is sent, and the next press pays the full price', async () => {
  await putTier(80);
  try {
    const key = await freshAccount('2');
    const code = codeName('Own');
    await makeCode(code, privateKeyToAccount(key).address);
    const { context, wallet, page, errors } = await buyPage(key, code, true);
    const pay = card(page).locator('[data-wallet=pay]');
    assert.equal(await pay.innerText(), 'Pay 0.361 ETH');

    await pay.click();
    const said = card(page).locator('.wallet-msg.bad');
    await said.waitFor({ timeout: 15000 });
    assert.match(await said.innerText(), new RegExp(`^The code ${code} is your own: .* Nothing was sent\\. You can still buy at the full price: press the button again to pay 0\\.38 ETH\\.$`));
    await page.waitForFunction(() => document.querySelector('[data-tier="80"] [data-wallet=pay]')?.textContent === 'Pay 0.38 ETH');
    assert.equal(calls(wallet, 'eth_sendTransaction').length, 0, 'nothing sent');
    await shots(page, 'own-refused');

    await pay.click();
    const hash = await paid(page);
    assert.equal(calls(wallet, 'personal_sign').length, 1, 'no second signature');
    const sent = calls(wallet, 'eth_sendTransaction');
    assert.equal(sent.length, 1);
    assert.equal(BigInt(sent[0].params[0].value), price);
    const p = await minted(hash);
    assert.equal(p.valueWei, price.toString());
    assert.equal(p.referralCode, null);
    await page.locator('[data-testid=payment-status][data-status=minted]').waitFor({ timeout: 15000 });
    assert.equal(await page.locator('[data-testid=paid]').innerText(), '0.38 ETH');
    await shots(page, 'own-full-price-minted');
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await switchOff(80);
  }
});
