// A referrer's commissions, from the payment that earns them to the treasury batch that pays them
// (issue 35): a buyer bound to a partner code pays the discounted price; the code's owner reads
// the commission owed on /me; an operator presses "Pay owed commissions", two of the treasury's
// owners sign the commission batch on its page and one executes it; the referrer then reads it
// paid. This file runs on the server with a treasury (as refunds.test.mjs does), uses tier 86 and
// leaves it switched off.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEther, formatEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { browser, base, env, client, walletOf, freshAccount, withWallet, signInOperator, cron, admin, putTier, switchOff, executionTx } from './harness.mjs';

const squash = (s) => s.replace(/\s+/g, ' ').trim();

// both takes what (a locator) at 1280 and at 390 px wide, and checks that the page is no wider
// than the screen at either.
async function both(page, what, name) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await what.scrollIntoViewIfNeeded();
    await what.screenshot({ path: `${env.ARTIFACTS}/${name}-${width}.png` });
    const wide = await page.evaluate(() => document.scrollingElement.scrollWidth);
    assert.ok(wide <= width, `${name} is ${wide}px wide on a ${width}px screen`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

// signedIn is a browser context whose wallet holds key, signed in on /me, and its page there;
// errors collects the page's script errors and the console's.
async function signedIn(key) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await withWallet(context, key);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(base + '/me');
  await Promise.all([page.waitForURL(base + '/me', { waitUntil: 'load' }), page.click('[data-wallet=signin]')]);
  await page.locator('[data-testid=me-address]').waitFor();
  return { context, page, errors };
}

// until runs payments passes until check (async) is true.
async function until(what, check) {
  for (let i = 0; i < 120; i++) {
    await cron('payments');
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  assert.fail(`${what} never happened`);
}

// Tier 86 costs 0.386 ETH; under the code, 10 % off: 0.3474 ETH, of which 5 % (0.01737 ETH) is
// owed to the code's owner and 2 % (0.006948 ETH) to the partner above.
const paid = parseEther('0.3474');
const ownerPart = (paid * 500n) / 10000n;
const parentPart = (paid * 200n) / 10000n;

test('a referrer reads its commission owed on /me, the operators pay it in one treasury batch, and it reads it paid', async () => {
  await putTier(86);
  try {
    // The treasury holds what the sweeps would have brought it.
    const funded = await walletOf(env.FUNDER_KEY).sendTransaction({ to: env.TREASURY_ADDRESS, value: parseEther('1') });
    await client.waitForTransactionReceipt({ hash: funded });

    const referrerKey = await freshAccount('1');
    const referrer = privateKeyToAccount(referrerKey).address.toLowerCase();
    const parent = privateKeyToAccount(generatePrivateKey()).address.toLowerCase();
    const code = `Com86_${Date.now() % 1e6}`;
    const made = await admin('POST', '/referral-codes', { code, owner: referrer, discountBps: 1000, commissionBps: 500, parent, parentBps: 200 });
    assert.equal(made.status, 201, await made.text());

    // A buyer binds the code and pays the discounted price.
    const buyerKey = await freshAccount('1');
    const buyer = await signedIn(buyerKey);
    const bound = await buyer.page.evaluate(async (code) => {
      const res = await fetch('/api/referrals/bind', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
      return res.status;
    }, code);
    assert.equal(bound, 200);
    await buyer.context.close();
    const hash = await walletOf(buyerKey).sendTransaction({ to: (await (await fetch(`${base}/api/tiers/86/check/${privateKeyToAccount(buyerKey).address}`)).json()).paymentAddress, value: paid });
    await client.waitForTransactionReceipt({ hash });
    await until('the payment minted', async () => (await (await fetch(`${base}/api/payments/${hash}`)).json()).status === 'minted');

    // The referrer's /me: its link, the code's use and what it is owed.
    const me = await signedIn(referrerKey);
    const card = me.page.locator('[data-testid=me-referrals]');
    // The link is the service's public address (PUBLIC_URL), whatever this test reaches it at.
    assert.match(await me.page.locator('[data-testid=referral-link]').inputValue(), new RegExp(`^https?://[^/]+/buy\\?ref=${code}$`));
    const row = card.locator('[data-testid=referral-codes] tbody tr');
    assert.equal(await row.count(), 1);
    assert.equal(squash(await row.innerText()), `${code} 1 ${formatEther(paid)} ${formatEther(ownerPart)} 0`);
    assert.equal(await me.page.locator('[data-testid=referral-owed]').innerText(), `${formatEther(ownerPart)} ETH`);
    await both(me.page, card, 'commissions-me-owed');

    // An operator (the factory's owner, one of the treasury's owners) pays what is owed.
    const opContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await withWallet(opContext, env.FUNDER_KEY);
    const op = await signInOperator(opContext);
    const opErrors = [];
    op.on('pageerror', (e) => opErrors.push(e.message));
    op.on('console', (m) => { if (m.type() === 'error') opErrors.push(m.text()); });
    // The page opens on what the referrers are owed.
    assert.match(squash(await op.locator('[data-testid=attention-commissions]').innerText()), /^Commissions owed: [0-9.]+ ETH(, | and )?.*\. Referral codes ↓$/);
    await both(op, op.locator('[data-testid=attention]'), 'operator-attention-commissions');
    const pay = op.locator('[data-testid=pay-commissions]');
    await both(op, pay, 'commissions-pay-owed');
    await Promise.all([op.waitForURL(/\/operator\/treasury-batches\/\d+$/), pay.locator('button').click()]);
    const batchURL = op.url();
    assert.match(await op.locator('h1').innerText(), /^Commission batch #\d+$/);
    for (const [to, amount] of [[referrer, ownerPart], [parent, parentPart]]) {
      const transfer = op.locator('[data-testid=batch-transfer]', { has: op.locator('[data-testid=transfer-to]', { hasText: to }) });
      assert.equal(await transfer.count(), 1, `one transfer to ${to}`);
      assert.equal(await transfer.locator('[data-testid=transfer-amount]').getAttribute('title'), `${amount} wei`);
    }
    await both(op, op.locator('main'), 'commissions-batch-proposed');

    // Two owners sign: the operator here, and the second owner on its own page.
    await op.locator('[data-testid=sign-batch]').click();
    await op.locator('[data-testid=batch-approvals]', { hasText: '1 of 2' }).waitFor();
    const secondContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await withWallet(secondContext, env.SECOND_OWNER_KEY);
    const second = await signInOperator(secondContext);
    await second.goto(batchURL);
    await second.locator('[data-testid=sign-batch]').click();
    await second.locator('[data-testid=batch-approvals]', { hasText: '2 of 2' }).waitFor();
    await secondContext.close();

    // Ready: the operator's page, polled, brings Execute without a reload; one transaction pays.
    await op.locator('[data-testid=execute-batch]').waitFor();
    const before = await client.getBalance({ address: referrer }); // it sends nothing: signing in is no transaction
    await op.locator('[data-testid=execute-batch]').click();
    const execTx = await executionTx(op);
    await op.locator('[data-testid=batch-execute] .wallet-msg', { hasText: /: the treasury paid the \d+ commission payouts?\. The status above shows the commissions paid once the payments pass records it\.$/ }).waitFor();
    const receipt = await client.waitForTransactionReceipt({ hash: execTx, pollingInterval: 200 });
    assert.equal(receipt.status, 'success');
    assert.equal(await client.getBalance({ address: referrer }) - before, ownerPart, 'the referrer is paid its commission, to the wei');

    // Confirmed: the commissions are paid by that transaction, and the page and /me say so.
    await until('the commissions paid', async () => {
      const res = await admin('GET', '/commissions?status=paid');
      const { commissions } = await res.json();
      return commissions.filter((c) => c.payment === hash.toLowerCase() && c.paidTx === execTx).length === 2;
    });
    await op.locator('[data-testid=batch-receipt]').waitFor(); // the page comes again, led by its receipt
    assert.match(squash(await op.locator('[data-testid=batch-receipt]').innerText()), /^Paid\. Executed in .* in \d+ commission payouts?\.$/);
    await op.locator('[data-testid=batch-details] > summary').click();
    await op.locator('[data-testid=batch-status][data-status=executed]').waitFor();
    assert.match(squash(await op.locator('[data-testid=batch-next]').innerText()), /commissions are paid\.$/);
    await both(op, op.locator('main'), 'commissions-batch-executed');
    assert.deepEqual(opErrors, []);
    await opContext.close();

    await me.page.reload();
    assert.equal(await me.page.locator('[data-testid=referral-owed]').innerText(), '0 ETH');
    assert.equal(await me.page.locator('[data-testid=referral-paid]').innerText(), `${formatEther(ownerPart)} ETH`);
    await both(me.page, card, 'commissions-me-paid');
    assert.deepEqual(me.errors, []);
    await me.context.close();
  } finally {
    await switchOff(86);
  }
});
