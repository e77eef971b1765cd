// The operator runs the referral codes from /operator (issue 35): a code added through the form
// (a bad field comes back with the admin API's sentence, what was typed kept), a buyer bound to it
// who pays the discounted price, the code's row with its use, volume, discount given and the
// commission owed, the owed total on the treasury card, and the code changed from its row's Edit:
// the change applies from then on, and the payment made before keeps what it earned. It uses tier
// 88 and the code Ref88_<time>, and leaves both switched off.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEther, formatEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { browser, base, env, client, walletOf, freshAccount, withWallet, signInOperator, cron, putTier, switchOff } from './harness.mjs';

const squash = (s) => s.replace(/\s+/g, ' ').trim();
const outcome = (page) => page.locator('[data-testid=outcome]');

// both takes what (a locator) at 1280 and at 390 px wide, and checks that nothing is wider than a
// phone's screen: the element alone, or with screen, the screen with it in the middle.
async function both(page, what, name, { screen = false } = {}) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    if (width === 390) {
      const wide = await page.evaluate(() => document.scrollingElement.scrollWidth);
      assert.ok(wide <= 390, `${name} is ${wide}px wide on a 390px screen`);
    }
    const path = `${env.ARTIFACTS}/${name}-${width}.png`;
    if (screen) {
      await what.evaluate((e) => e.scrollIntoView({ block: 'center' }));
      await page.screenshot({ path });
    } else {
      await what.screenshot({ path });
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

// The tier's price, and what a wallet bound to a code of 10 % off pays for it: 0.388 − 0.0388.
const price = parseEther('0.388');
const paid = parseEther('0.3492');

test('the operator adds a referral code, sees what it brought in, and changes it', async () => {
  await putTier(88);
  const code = `Ref88_${Date.now() % 1e6}`;
  const key = code.toLowerCase();
  const owner = privateKeyToAccount(generatePrivateKey()).address.toLowerCase();
  const parent = privateKeyToAccount(generatePrivateKey()).address.toLowerCase();

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await withWallet(context, env.FUNDER_KEY); // the factory's owner, an admin
  const page = await signInOperator(context);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // A refused form comes back as a 422, which Chromium logs as an error: expected.
  page.on('console', (m) => { if (m.type() === 'error' && !m.text().includes('status of 422')) errors.push(m.text()); });

  // Basis points where a percentage goes: refused in the form's words, as typed.
  const form = page.locator('[data-testid=referral-form]');
  await form.locator('input[name=code]').fill(code);
  await form.locator('input[name=owner]').fill(owner);
  await form.locator('input[name=discount]').fill('1000 bps');
  await form.locator('input[name=commission]').fill('5');
  await form.locator('input[name=parent]').fill(parent);
  await form.locator('input[name=parentCommission]').fill('2 %');
  assert.ok(await form.locator('input[name=enabled]').isChecked(), 'a new code is on');
  await Promise.all([page.waitForURL(base + '/operator/referral-codes'), form.locator('[data-testid=save-referral]').click()]);
  assert.equal(await page.locator('[data-testid=referral-problem]').innerText(),
    'Discount must be a percentage from 0 to 100, such as 10 or 2.5.');
  assert.equal(await form.locator('input[name=discount]').inputValue(), '1000 bps', 'what was typed stays');
  assert.equal(await form.locator('input[name=parent]').inputValue(), parent);
  await both(page, form, 'referral-form-refused');

  await form.locator('input[name=discount]').fill('10 %');
  await Promise.all([page.waitForURL(base + '/operator'), form.locator('[data-testid=save-referral]').click()]);
  assert.equal(await outcome(page).innerText(), `Saved referral code ${code} of ${owner}: 10 % off for the buyer, 5 % to its owner, ` +
    `2 % to the partner above, ${parent}, with no end; switched on, in force from now.`);
  const row = page.locator(`[data-testid=referral-${key}]`);
  assert.equal(await row.locator('[data-testid=referral-uses]').innerText(), '0');
  assert.equal(await row.locator('[data-testid=referral-state]').innerText(), 'on');

  // A buyer binds the code, as /buy?ref= does, and pays the discounted price.
  const buyerKey = await freshAccount('1');
  const buyer = privateKeyToAccount(buyerKey).address.toLowerCase();
  const shopper = await browser.newContext();
  await withWallet(shopper, buyerKey);
  const me = await shopper.newPage();
  await me.goto(base + '/me');
  await Promise.all([me.waitForURL(base + '/me', { waitUntil: 'load' }), me.click('[data-wallet=signin]')]);
  await me.locator('[data-testid=me-address]').waitFor();
  const bound = await me.evaluate(async (code) => {
    const res = await fetch('/api/referrals/bind', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
    return { status: res.status, body: await res.json() };
  }, code);
  assert.equal(bound.status, 200, JSON.stringify(bound.body));
  assert.equal(bound.body.discountBps, 1000);
  await shopper.close();
  const check = await (await fetch(`${base}/api/tiers/88/check/${buyer}`)).json();
  assert.equal(check.payWei, paid.toString(), JSON.stringify(check));
  const hash = await walletOf(buyerKey).sendTransaction({ to: check.paymentAddress, value: paid });
  await client.waitForTransactionReceipt({ hash });
  let payment = {};
  for (let i = 0; i < 40 && payment.status !== 'minted'; i++) {
    await cron('payments');
    payment = await (await fetch(`${base}/api/payments/${hash}`)).json();
  }
  assert.equal(payment.status, 'minted', JSON.stringify(payment));

  // The code's row: its terms and what the payment brought in and earned, to the wei.
  await page.reload();
  const commission = paid * 500n / 10000n + paid * 200n / 10000n;
  const figures = {
    'referral-code': code, 'referral-state': 'on', 'referral-owner': `${owner.slice(0, 6)}…${owner.slice(-4)}`,
    'referral-discount': '10 %', 'referral-commission': '5 %', 'referral-parent': `2 % to ${parent.slice(0, 6)}…${parent.slice(-4)}`,
    'referral-expires': 'never', 'referral-uses': '1', 'referral-volume': formatEther(paid),
    'referral-discount-given': formatEther(price - paid), 'referral-owed': formatEther(commission), 'referral-paid': '0',
  };
  for (const [id, want] of Object.entries(figures)) {
    assert.equal(squash(await row.locator(`[data-testid=${id}]`).innerText()), want, id);
  }
  assert.equal(await row.locator('[data-testid=referral-owed] span').getAttribute('title'), `${formatEther(commission)} ETH`);
  const owedTotal = await page.locator('[data-testid=commissions-owed] span').getAttribute('title');
  assert.ok(parseEther(owedTotal.replace(' ETH', '')) >= commission, `commissions owed ${owedTotal}`);
  assert.match(squash(await page.locator('[data-testid=commissions-owed]').innerText()), /^Commissions owed: [\d.,]+ ETH\.$/);
  await both(page, page.locator('[data-testid=referral-codes]'), 'referral-codes');
  await both(page, page.locator('[data-testid=commissions-owed]'), 'referral-commissions-owed', { screen: true });

  // Edit fills the form with the code; the change (half the commission, an end, switched off)
  // applies from now on, and the payment before keeps what it earned.
  await Promise.all([page.waitForURL(`${base}/operator?referral=${key}#referral-form`), row.locator('[data-testid=edit-referral]').click()]);
  assert.equal(squash(await page.locator('#referral-form-heading').innerText()), `Change code ${code}`);
  assert.equal(await form.locator('input[name=owner]').inputValue(), owner);
  assert.equal(await form.locator('input[name=commission]').inputValue(), '5');
  assert.equal(await form.locator('input[name=parentCommission]').inputValue(), '2');
  await form.locator('input[name=commission]').fill('2.5');
  await form.locator('input[name=expires]').fill('2030-01-01 00:00');
  await form.locator('input[name=enabled]').uncheck();
  await both(page, form, 'referral-form-edit');
  await Promise.all([page.waitForURL(base + '/operator'), form.locator('[data-testid=save-referral]').click()]);
  assert.equal(await outcome(page).innerText(), `Saved referral code ${code} of ${owner}: 10 % off for the buyer, 2.5 % to its owner, ` +
    `2 % to the partner above, ${parent}, until 2030-01-01 00:00:00 UTC; switched off: it gives nothing from now.`);
  assert.equal(await row.locator('[data-testid=referral-commission]').innerText(), '2.5 %');
  assert.equal(await row.locator('[data-testid=referral-state]').innerText(), 'off');
  assert.equal(await row.locator('[data-testid=referral-expires]').innerText(), '2030-01-01 00:00 UTC');
  assert.equal(await row.locator('[data-testid=referral-owed]').innerText(), formatEther(commission), 'the payment keeps what it earned');
  assert.match(await page.locator('[data-testid=audit] [data-testid=audit-told]').first().getAttribute('title'), /^referral-code\.put /);
  await both(page, row, 'referral-codes-edited');

  const publicView = await (await fetch(`${base}/api/referrals/${key}`)).json();
  assert.equal(publicView.valid, false, 'switched off for buyers too');
  await switchOff(88);
  assert.deepEqual(errors, []);
  await context.close();
});
