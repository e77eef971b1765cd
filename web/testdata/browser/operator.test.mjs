// The operator's journey on /operator: sign in with a wallet, create a tier in ETH, hold and
// resume minting, run the payments pass and read what it did as a sentence (a refresh never posts
// again); then the admin adds a viewer, who sees the page without a button that changes anything,
// and everyone reads what was done in the audit; an admin manages a webhook.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEther } from 'viem';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { browser, base, env, client, walletOf, freshAccount, withWallet, signInOperator, shot, smallTargets } from './harness.mjs';

const outcome = (page) => page.locator('[data-testid=outcome]');

// pay sends value ETH from a new buyer to the payments wallet, waits for its block, and returns
// the buyer's address.
async function pay(value) {
  const wallet = walletOf(await freshAccount('1'));
  const hash = await wallet.sendTransaction({ to: payments, value: parseEther(value) });
  await client.waitForTransactionReceipt({ hash });
  return wallet.account.address.toLowerCase();
}

const payments = privateKeyToAccount(env.PAYMENTS_KEY).address.toLowerCase();

async function adminGet(path) {
  const res = await fetch(base + path, { headers: { 'x-admin-key': env.ADMIN_KEY } });
  assert.equal(res.status, 200, path);
  return res.json();
}

// both takes the page's screenshot at 1280 and at 390 px wide, and checks that nothing is wider
// than a phone's screen.
async function both(page, name) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await shot(page, `${name}-1280`);
  await page.setViewportSize({ width: 390, height: 844 });
  const width = await page.evaluate(() => document.scrollingElement.scrollWidth);
  assert.ok(width <= 390, `${name} is ${width}px wide on a 390px screen`);
  await shot(page, `${name}-390`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('the operator creates a tier in ETH, holds and resumes minting, and reads each pass as a sentence', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const admin = await withWallet(context, env.FUNDER_KEY); // the factory's owner, an admin
  // Before signing in: the wallet sign-in, and no field for a shared key.
  const signIn = await context.newPage();
  await signIn.goto(base + '/operator');
  assert.equal(await signIn.locator('input[name=key]').count(), 0);
  await both(signIn, 'operator-sign-in');
  await signIn.close();

  const page = await signInOperator(context);
  // Saving a 0× or switched-off tier, and holding minting, ask first (operator-deadends.test.mjs
  // walks the questions): yes to each here.
  page.on('dialog', (d) => d.accept());
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // The form sent back with its problems is a 422, which Chromium logs as an error: expected.
  page.on('console', (m) => { if (m.type() === 'error' && !m.text().includes('status of 422')) errors.push(m.text()); });
  assert.equal(await page.locator('[data-testid=operator-role]').innerText(), 'admin');
  // On a phone every control of the admin's page is a finger's size.
  assert.deepEqual(await smallTargets(page), [], 'the operator page: tap targets under 44 px at 390 px');
  assert.ok(admin.calls.some((c) => c.method === 'personal_sign'), 'the wallet signed the sign-in message');

  // A tier in ETH: a bad price first, told next to its field, what was typed kept.
  const form = page.locator('[data-testid=tier-form]');
  await form.locator('input[name=id]').fill('42');
  await form.locator('input[name=label]').fill('Gold');
  await form.locator('input[name=price]').fill('0,25');
  await form.locator('input[name=maxPerWallet]').fill('2');
  await form.locator('input[name=enabled]').uncheck(); // a new tier is on sale unless unticked
  await form.locator('[data-testid=save-tier]').click();
  await page.waitForSelector('[data-testid=problem-price]');
  assert.equal(await page.locator('[data-testid=problem-price]').innerText(), 'The price must be an amount in ETH, such as 0.1.');
  assert.equal(await form.locator('input[name=label]').inputValue(), 'Gold');
  await both(page, 'operator-tier-problem');

  await form.locator('input[name=price]').fill('0.25');
  await Promise.all([page.waitForURL(base + '/operator'), form.locator('[data-testid=save-tier]').click()]);
  assert.equal(await outcome(page).innerText(), 'Saved tier 42, Gold: 0.25 ETH, 2 per wallet, switched off.');
  const gold = (await adminGet('/api/admin/tiers')).tiers.find((t) => t.id === '42');
  assert.equal(gold.priceWei, '250000000000000000');
  assert.equal(gold.payoutBps, 0, 'the factory has no weight for a new tier until its owner sets one');
  assert.equal(gold.onSale, false);
  assert.match(await page.locator('[data-testid=tier-42]').innerText(), /0\.25[\s\S]*0×/);
  await both(page, 'operator-tier-saved');

  // Hold: the button says what it will do, the page says minting is held.
  assert.equal(await page.locator('[data-testid=hold-minting]').innerText(), 'Hold minting');
  await Promise.all([page.waitForURL(base + '/operator'), page.click('[data-testid=hold-minting]')]);
  await page.waitForSelector('[data-testid=held-banner]');
  assert.equal(await page.locator('[data-testid=held-banner]').innerText(),
    'Minting is held: payments are recorded and wait. Resume minting to mint them.');
  assert.equal(await page.locator('[data-testid=hold-minting]').innerText(), 'Resume minting');
  assert.equal(await outcome(page).innerText(), 'Minting is held: payments are recorded and wait.');
  await both(page, 'operator-held');

  // A refresh after a form post asks the server with GET only: nothing is posted again, and the
  // outcome, shown once, is gone.
  const posts = [];
  page.on('request', (r) => { if (r.method() !== 'GET') posts.push(r.method() + ' ' + r.url()); });
  const res = await page.reload();
  assert.equal(res.request().method(), 'GET');
  assert.deepEqual(posts, []);
  assert.equal(await outcome(page).innerText(), '');
  assert.equal(await page.locator('[data-testid=held-banner]').count(), 1);

  // A payment while minting is held is recorded and waits.
  const buyer = await pay('0.1');
  await page.click('[data-testid=run-payments]');
  await outcome(page).filter({ hasText: 'Recorded 1 new payment. Minting is held by the operator' }).waitFor({ timeout: 15000 });

  // Resumed, the next pass mints it.
  await Promise.all([page.waitForURL(base + '/operator'), page.click('[data-testid=hold-minting]')]);
  assert.equal(await page.locator('[data-testid=held-banner]').count(), 0);
  assert.equal(await page.locator('[data-testid=hold-minting]').innerText(), 'Hold minting');
  await page.click('[data-testid=run-payments]');
  await outcome(page).filter({ hasText: /^Minted 1 node\.$/ }).waitFor({ timeout: 30000 });
  await both(page, 'operator-minted');
  const nodes = await (await fetch(base + '/api/nodes/' + buyer)).json();
  assert.equal(nodes.length, 1, 'the held payment became a node');

  // A payment of no tier's price is rejected, with its reason, and listed for a refund.
  const stranger = await pay('0.15');
  await page.click('[data-testid=run-payments]');
  await outcome(page).filter({ hasText: /^Rejected 1 payment: / }).waitFor({ timeout: 15000 });
  await page.reload();
  const row = page.locator('[data-testid=refunds] tbody tr', { has: page.locator(`[data-to="${stranger}"]`) });
  assert.equal(await row.locator('button[data-wallet=refund]').innerText(), 'Refund 0.15 ETH');
  assert.equal(await row.locator('button[data-wallet=refund]').getAttribute('data-value'), '150000000000000000');

  // Nothing new: the pass says why.
  await page.click('[data-testid=run-payments]');
  await outcome(page).filter({ hasText: /^Nothing new: a payment is read as soon as it is in a block \(block \d+ is the last one read; the chain is at \d+/ })
    .waitFor({ timeout: 15000 });
  await both(page, 'operator-nothing-new');

  // The admin adds a viewer from the page.
  const viewerKey = generatePrivateKey();
  const viewer = privateKeyToAccount(viewerKey).address.toLowerCase();
  const add = page.locator('[data-testid=add-operator]');
  await add.locator('input[name=address]').fill(viewer);
  await add.locator('select[name=role]').selectOption('viewer');
  await add.locator('button').click(); // the page is /operator already: wait for the answer's sentence
  await outcome(page).filter({ hasText: `Added ${viewer} as viewer: it can sign in now.` }).waitFor({ timeout: 15000 });
  await page.locator(`[data-testid="operator-${viewer}"]`).waitFor({ timeout: 15000 });
  await both(page, 'operator-admin');

  // The viewer signs in with their own wallet and sees everything, with no button that changes a thing.
  const viewing = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await withWallet(viewing, viewerKey);
  const seen = await signInOperator(viewing);
  assert.equal(await seen.locator('[data-testid=operator-role]').innerText(), 'viewer');
  for (const sel of ['[data-testid=operator-tiers]', '[data-testid=refunds]', '[data-testid=audit]', '[data-testid=operators]']) {
    assert.equal(await seen.locator(sel).count(), 1, sel);
  }
  for (const sel of ['[data-testid=run-payments]', '[data-testid=hold-minting]', 'button[data-wallet=refund]', '[data-testid=tier-form]',
    '[data-testid=edit-tier]', '[data-testid=payout-change]', '[data-testid=add-operator]', '[data-testid=remove-operator]']) {
    assert.equal(await seen.locator(sel).count(), 0, `a viewer is offered ${sel}`);
  }
  // A hold posted anyway, with the page's own token, is refused with a sentence.
  const refused = await seen.evaluate(async () => {
    const csrf = document.querySelector('input[name=csrf]').value;
    const res = await fetch('/operator/minting', { method: 'POST', body: new URLSearchParams({ held: 'true', csrf }), headers: { accept: 'application/json' } });
    return [res.status, (await res.json()).error];
  });
  assert.deepEqual(refused, [403, 'Your role (viewer) cannot hold or resume minting.']);

  // The audit: who did what, newest first; the viewer's own sign-in on top.
  // Each entry is a sentence; its action's code is in the title.
  const told = seen.locator('[data-testid=audit] [data-testid=audit-told]');
  assert.match(await told.first().innerText(), /^Signed in as viewer\.$/);
  const actions = await told.evaluateAll((tds) => tds.map((td) => td.title.split(' ')[0]));
  for (const action of ['operator.put', 'minting.hold', 'minting.resume', 'pass.payments', 'tier.put']) {
    assert.ok(actions.includes(action), `the audit lists ${action}`);
  }
  await both(seen, 'operator-viewer');
  await seen.locator('[data-testid=audit]').scrollIntoViewIfNeeded();
  await shot(seen, 'operator-audit');
  await viewing.close();

  assert.deepEqual(errors, []);
  await context.close();
});

// The payout is the factory's: the operator page sends setTierWeight from the wallet connected in
// the browser, which only the factory's owner may; anyone else is told so, and nothing changes.
test('the factory owner changes a tier\'s payout from the operator page with the owner\'s wallet', async () => {
  const payoutOf = async (id) => (await (await fetch(base + '/api/tiers')).json()).tiers.find((t) => t.id === id).payoutBps;
  // /api/tiers is served from memory for up to 2 s, and a change the wallet sends straight to the
  // factory does not pass through the server to refresh it: wait for it to show.
  const payoutBecomes = async (id, want) => {
    for (let i = 0; i < 50 && (await payoutOf(id)) !== want; i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(await payoutOf(id), want);
  };
  assert.equal(await payoutOf('1'), 10000);

  // Another admin's wallet, not the factory's owner: the contract refuses, and the page says why.
  const other = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await withWallet(other, env.THIRD_BUYER_KEY);
  const op = await signInOperator(other);
  const otherRow = op.locator('[data-testid=tier-1]');
  await otherRow.locator('[data-testid=payout-change] summary').click();
  await otherRow.locator('input[name=multiplier]').fill('1.5');
  await otherRow.locator('[data-testid=send-weight]').click();
  await otherRow.getByText('Only the owner of the factory contract may do this.').waitFor({ timeout: 15000 });
  await both(op, 'operator-payout-not-owner');
  assert.equal(await payoutOf('1'), 10000);
  await other.close();

  // The owner's wallet (the dev chain's account 0): the change is sent, and the page and the API
  // show the factory's new weight.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const owner = await withWallet(context, env.FUNDER_KEY);
  const page = await signInOperator(context);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const row = page.locator('[data-testid=tier-1]');
  assert.equal(await row.locator('[data-testid=tier-payout]').innerText(), '1×');
  await row.locator('[data-testid=payout-change] summary').click();
  await row.locator('input[name=multiplier]').fill('1.5');
  await both(page, 'operator-payout-change');
  await row.locator('[data-testid=send-weight]').click();
  await row.getByRole('status').filter({ hasText: /^Payout change sent/ }).waitFor({ timeout: 15000 });
  await both(page, 'operator-payout-sent');
  const sent = owner.calls.find((c) => c.method === 'eth_sendTransaction').params[0];
  const form = row.locator('form[data-weight]');
  assert.equal(sent.to.toLowerCase(), await form.getAttribute('data-factory'));
  assert.equal(sent.data, await form.getAttribute('data-selector') + '1'.padStart(64, '0') + (15000).toString(16).padStart(64, '0'));
  await payoutBecomes('1', 15000);
  // Once mined, the row says it without a reload; and so does the page loaded again.
  await row.locator('[data-testid=tier-payout]').filter({ hasText: /^1\.5×$/ }).waitFor({ timeout: 15000 });
  await row.getByRole('status').filter({ hasText: /and mined in block \d+: rounds priced from now pay 1\.5×\.$/ }).waitFor();
  await page.reload();
  assert.equal(await page.locator('[data-testid=tier-1] [data-testid=tier-payout]').innerText(), '1.5×');
  assert.deepEqual(errors, []);

  // Back to 1×, for the tests after this one.
  const hash = await walletOf(env.FUNDER_KEY).sendTransaction({ to: sent.to,
    data: await form.getAttribute('data-selector') + '1'.padStart(64, '0') + (10000).toString(16).padStart(64, '0') });
  await client.waitForTransactionReceipt({ hash });
  await payoutBecomes('1', 10000);
  await context.close();
});

// Webhooks from the page: a refused address comes back with its reason and the form as typed; the
// new secret is on the answer to the form and nowhere after; rolled, it shows the new one once;
// deleted, the API lists none.
test('an admin adds a webhook on the operator page, sees its secret once, rolls it and deletes it', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await withWallet(context, env.FUNDER_KEY);
  const page = await signInOperator(context);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error' && !m.text().includes('status of 422')) errors.push(m.text()); });

  const form = page.locator('[data-testid=add-webhook]');
  await form.locator('input[name=url]').fill('http://127.0.0.1:9/hook');
  await form.locator('input[name=events][value="payment.minted"]').check();
  await form.locator('button[type=submit]').click();
  await page.waitForSelector('[data-testid=webhook-problem]');
  assert.match(await page.locator('[data-testid=webhook-problem]').innerText(), /is not a public address: 127.0.0.1/);
  assert.equal(await form.locator('input[name=url]').inputValue(), 'http://127.0.0.1:9/hook');
  assert.ok(await form.locator('input[name=events][value="payment.minted"]').isChecked());

  await form.locator('input[name=url]').fill('https://93.184.215.14/hook');
  await form.locator('button[type=submit]').click();
  await page.waitForSelector('[data-testid=webhook-secret]');
  const secret = await page.locator('[data-testid=webhook-secret]').innerText();
  assert.match(secret, /^whsec_[A-Za-z0-9_-]{43}$/);
  const [hook] = await adminGet('/api/admin/webhooks');
  // The address is shown as its scheme and host only: a hook's path can be its secret.
  assert.deepEqual([hook.url, hook.events], ['https://93.184.215.14/…', ['payment.minted']]);
  assert.equal(await outcome(page).innerText(), `Added webhook #${hook.id}: https://93.184.215.14/… gets payment.minted.`);
  await both(page, 'operator-webhook-secret');

  await page.goto(base + '/operator');
  assert.ok(!(await page.content()).includes(secret), 'the page shows the secret again');
  const item = page.locator('[data-testid=webhook]');
  assert.match(await item.innerText(), /On\. 0 delivered, 0 waiting, 0 given up\./);

  await item.locator('[data-testid=roll-webhook-secret]').click();
  await page.waitForSelector('[data-testid=webhook-secret]');
  const rolled = await page.locator('[data-testid=webhook-secret]').innerText();
  assert.ok(rolled !== secret && rolled.startsWith('whsec_'));
  assert.match(await page.locator('[data-testid=webhook-secret-card]').innerText(), /The old secret signs every delivery too until/);

  await Promise.all([page.waitForURL(base + '/operator'), page.locator('[data-testid=webhook] [data-testid=delete-webhook]').click()]);
  assert.equal(await outcome(page).innerText(), `Deleted webhook #${hook.id}, with its deliveries: nothing more goes to it.`);
  assert.deepEqual(await adminGet('/api/admin/webhooks'), []);
  assert.equal(await page.locator('[data-testid=webhooks-none]').count(), 1);
  assert.deepEqual(errors, []);
  await context.close();
});
