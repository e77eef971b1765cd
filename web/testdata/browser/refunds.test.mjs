// Refunds from the treasury Safe, on the operator page: three wrong payments, one batch an
// operator builds of them, two of the treasury's owners signing it on the page with their own
// wallets (EIP-712 SafeTx), a wallet that is no owner refused, the batch executed from the page,
// and the three buyers' trackers through approving, sent and refunded; then an owner of the
// treasury not on the operator list opening a batch's link signed out, signing in as a signer,
// approving and executing it. This file has a server of
// its own (web/browser_test.go): the treasury configured, the payments scan CONFIRMATIONS blocks
// behind the head.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEther, parseAbi, toHex } from 'viem';
import { privateKeyToAccount, mnemonicToAccount } from 'viem/accounts';
import { browser, base, env, client, walletOf, freshAccount, withWallet, signInOperator, cron, payment, passUntil, admin, executionTx } from './harness.mjs';

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

  // The page opens on what waits: the three refunds owed, with their sum and the button that
  // batches them; the Refunds link carries the count.
  const strip = page.locator('[data-testid=attention]');
  assert.match(squash(await strip.locator('[data-testid=attention-refunds]').innerText()), /^3 refunds owed: 0\.0702 ETH\. Batch all 3 for signing Refunds ↓$/);
  assert.equal(squash(await page.locator('[data-testid=nav-refunds]').innerText()), 'Refunds 3');
  await both(page, strip, 'operator-attention-refunds');

  // Refunds owed: the three, ticked, become one batch.
  const owed = page.locator('[data-testid=refunds-owed]');
  for (const [i, hash] of hashes.entries()) {
    const row = owed.locator(`tr[data-tx="${hash}"]`);
    assert.match(squash(await row.innerText()), new RegExp(values[i].replace('.', '\\.')));
    await row.locator('input[name=payment]').check();
  }
  await both(page, owed, 'refunds-owed');
  await Promise.all([page.waitForURL(/\/operator\/treasury-batches\/\d+$/), owed.locator('[data-testid=refund-selected]').click()]);
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

  // Back on the operator page, the strip names the batch waiting for its signatures.
  await page.goto(base + '/operator');
  assert.match(squash(await page.locator('[data-testid=attention-batches]').innerText()), /^1 batch waits for signatures: Refund batch #\d+ \(0 of 2\) Treasury ↓$/);
  assert.equal(await page.locator('[data-testid=attention-refunds]').count(), 0);
  await both(page, page.locator('[data-testid=attention]'), 'operator-attention-batches');
  await page.goto(batchURL);

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
  let buyerPage = await tracker(buyerContext, hashes[0], /^Your refund is being prepared: 1 of 2 approvals\.$/);
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
  const execTx = await executionTx(page);
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
  // The page's poll follows it to its end, and the page comes again led by its receipt, the rest
  // folded under it.
  const paidCard = page.locator('[data-testid=batch-receipt]');
  await paidCard.waitFor();
  assert.match(squash(await paidCard.innerText()),
    /^Paid\. Executed in 0x[0-9a-f]{4}…[0-9a-f]{4} \(block \d+\): the treasury paid [\d.]+ ETH in 3 refunds\.$/);
  await both(page, page.locator('main'), 'refunds-batch-receipt');
  await page.locator('[data-testid=batch-details] > summary').click();
  const done = page.locator('[data-testid=batch-status][data-status=executed]');
  await done.waitFor();
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

// fullPage takes the whole page at 1280 and 390 px wide, checking that it is no wider than the
// screen at either.
async function fullPage(page, name) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    const scroll = await page.evaluate(() => document.scrollingElement.scrollWidth);
    assert.ok(scroll <= width, `${name} is ${scroll}px wide on a ${width}px screen`);
    await page.screenshot({ path: `${env.ARTIFACTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

// The treasury's third owner, dev account 8 of the dev chain's well-known mnemonic: an owner of
// the Safe whom web/browser_test.go puts on no operator list (the second owner the harness names,
// SECOND_OWNER_KEY, dev account 7, is listed as a viewer).
const unlistedOwnerKey = toHex(mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: 8 }).getHdKey().privateKey);

test('an owner of the treasury not on the operator list opens a batch link signed out, signs in, approves, and executes once Execute comes', async () => {
  const signer = privateKeyToAccount(unlistedOwnerKey).address.toLowerCase();
  const owners = (await client.readContract({ address: env.TREASURY_ADDRESS, abi: parseAbi(['function getOwners() view returns (address[])']), functionName: 'getOwners' }))
    .map((o) => o.toLowerCase());
  assert.ok(owners.includes(signer), `dev account 8 (${signer}) owns the treasury: ${owners}`);
  assert.ok(![env.FUNDER_KEY, env.SECOND_OWNER_KEY, env.PAYMENTS_KEY].some((k) => privateKeyToAccount(k).address.toLowerCase() === signer));

  // The treasury holds what the sweeps would have brought it.
  const funded = await walletOf(env.FUNDER_KEY).sendTransaction({ to: env.TREASURY_ADDRESS, value: parseEther('0.1') });
  await client.waitForTransactionReceipt({ hash: funded });

  // A buyer pays an amount no tier sells at: rejected, owed a refund; the admin API proposes it.
  const buyerKey = await freshAccount('1');
  const buyer = privateKeyToAccount(buyerKey).address.toLowerCase();
  const value = parseEther('0.0456');
  const paid = (await walletOf(buyerKey).sendTransaction({ to: payments, value })).toLowerCase();
  await client.waitForTransactionReceipt({ hash: paid });
  await passUntil(paid, 'rejected');
  const proposed = await admin('POST', '/treasury-batches', { kind: 'refunds', payments: [paid] });
  const proposedBody = await proposed.text();
  assert.equal(proposed.status, 201, proposedBody);
  const batch = JSON.parse(proposedBody);
  assert.equal(batch.status, 'proposed');
  assert.deepEqual(batch.refunds.map((r) => r.txHash), [paid], proposedBody);
  const batchPath = `/operator/treasury-batches/${batch.id}`;

  // The operator page of an admin marks the signer's address as not on the operator list.
  const first = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await withWallet(first, env.FUNDER_KEY); // the factory's owner: an admin, and an owner of the treasury
  const op = await signInOperator(first);
  const ownerRow = op.locator('[data-testid=treasury-owners] li', { hasText: signer });
  assert.equal(await ownerRow.count(), 1);
  assert.equal(await ownerRow.locator('[data-testid=owner-not-listed]').count(), 1, 'the signer is not on the operator list');

  // The signer's first visit: the batch's link, signed out, is a sign-in that comes back to it.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const wallet = await withWallet(context, unlistedOwnerKey);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  const res = await page.goto(base + batchPath);
  assert.equal(res.status(), 200);
  assert.equal(new URL(page.url()).pathname, batchPath, 'no redirect: the link itself is the sign-in');
  const signIn = page.locator('[data-wallet=signin]');
  assert.equal(await signIn.count(), 1);
  assert.equal(await signIn.getAttribute('data-next'), batchPath);
  assert.equal(await signIn.getAttribute('data-verify'), '/operator/login');
  assert.match(squash(await page.locator('[data-testid=signin-for-batch]').innerText()), /an owner of the treasury may, whether or not it is on the operator list/);
  for (const hidden of ['batch-transfer', 'safe-tx-hash', 'sign-batch', 'batch-status']) {
    assert.equal(await page.locator(`[data-testid=${hidden}]`).count(), 0, `signed out, the page shows no ${hidden}`);
  }
  await fullPage(page, 'refunds-signer-link-signed-out');

  // One signature signs in, as a signer, and the page comes back to the batch. The sign-in's
  // answer is read on its way to the page, which navigates away at once.
  let login;
  await page.route('**/operator/login', async (route) => {
    const r = await route.fetch();
    login = { status: r.status(), body: await r.json() };
    await route.fulfill({ response: r });
  });
  await page.evaluate(() => { window.__signedOut = true; });
  await signIn.click();
  // The sign-in page and the batch's share their address: the batch's heading says it came.
  await page.locator('h1', { hasText: `Refund batch #${batch.id}` }).waitFor();
  await page.unroute('**/operator/login');
  assert.equal(await page.evaluate(() => window.__signedOut), undefined, 'a new page: the batch');
  assert.equal(page.url(), base + batchPath);
  assert.deepEqual(login, { status: 200, body: { address: signer, role: 'signer' } });
  assert.equal(wallet.calls.filter((c) => c.method === 'personal_sign').length, 1);
  assert.equal(await page.locator('h1').innerText(), `Refund batch #${batch.id}`);
  const transfer = page.locator('[data-testid=batch-transfer]');
  assert.equal(await transfer.count(), 1);
  assert.equal(await transfer.locator('[data-testid=transfer-to]').innerText(), buyer);
  assert.equal(await transfer.locator('[data-testid=transfer-amount]').getAttribute('title'), `${value} wei`);
  assert.equal(await page.locator('[data-testid=safe-tx-hash]').innerText(), batch.safeTxHash);
  assert.equal(await page.locator('[data-testid=batch-approvals]').innerText(), '0 of 2');
  assert.equal(await page.locator('[data-testid=not-an-owner]').count(), 0, 'the page knows the signer is an owner');
  assert.equal(await page.locator('[data-testid=execute-batch]').count(), 0, 'nothing to execute yet');

  // The signer approves: its wallet signs the SafeTx (EIP-712) of the treasury; 1 of 2.
  await page.locator('[data-testid=sign-batch]').click();
  await page.locator('[data-testid=signed-already]').waitFor(); // the page, reloaded once the service kept the signature
  assert.equal(await page.locator('[data-testid=batch-approvals]').innerText(), '1 of 2');
  const typed = wallet.calls.filter((c) => c.method === 'eth_signTypedData_v4');
  assert.equal(typed.length, 1);
  assert.equal(typed[0].params[0].toLowerCase(), signer);
  const signed = JSON.parse(typed[0].params[1]);
  assert.equal(signed.primaryType, 'SafeTx');
  assert.equal(signed.domain.verifyingContract.toLowerCase(), env.TREASURY_ADDRESS.toLowerCase());
  const mine = page.locator('[data-testid=batch-owners] li', { hasText: signer });
  assert.equal(await mine.locator('[data-testid=owner-signed]').count(), 1, 'the signer is marked signed');
  assert.equal(await page.locator('[data-testid=owner-signed]').count(), 1);
  assert.match(squash(await page.locator('[data-testid=batch-next]').innerText()), /^Still needed: 1 more owner's signature\./);
  assert.equal(await page.locator('[data-testid=execute-batch]').count(), 0);
  const kept = await (await admin('GET', `/treasury-batches/${batch.id}`)).json();
  assert.deepEqual(kept.approvals, [signer], 'the service kept the signer\'s signature');
  await fullPage(page, 'refunds-signer-batch-approved');

  // The signer's operator page is the open batches, this one among them, and nothing else.
  const list = await context.newPage();
  await list.goto(base + '/operator');
  assert.match(squash(await list.locator('[data-testid=signer-note]').innerText()), new RegExp(`^You signed in as ${signer}, an owner of the treasury`));
  assert.equal(await list.locator(`[data-testid=open-batch][href="${batchPath}"]`).count(), 1);
  assert.equal(await list.locator('[data-testid=refunds-owed], [data-testid=operator-tiers], [data-testid=treasury]').count(), 0);
  await list.close();

  // The other owner signs on its own page; the signer's page, polled, brings Execute without a reload.
  await page.evaluate(() => { window.__sameDocument = true; });
  await op.goto(base + batchPath);
  await op.locator('[data-testid=sign-batch]').click();
  await op.locator('[data-testid=batch-approvals]', { hasText: '2 of 2' }).waitFor();
  const execute = page.locator('[data-testid=execute-batch]');
  await execute.waitFor({ timeout: 20000 });
  assert.equal(await page.evaluate(() => window.__sameDocument), true, 'Execute came without a reload');
  assert.equal(await page.locator('[data-testid=batch-approvals]').innerText(), '2 of 2');
  assert.equal(await page.locator('[data-testid=batch-status]').getAttribute('data-status'), 'ready');

  // The signer executes: one transaction to the treasury, from its wallet; the buyer is refunded.
  const before = await client.getBalance({ address: buyer });
  await execute.click();
  const execTx = await executionTx(page);
  const exec = wallet.calls.filter((c) => c.method === 'eth_sendTransaction');
  assert.equal(exec.length, 1);
  assert.equal(exec[0].params[0].to.toLowerCase(), env.TREASURY_ADDRESS.toLowerCase());
  assert.equal((await client.waitForTransactionReceipt({ hash: execTx, pollingInterval: 200 })).status, 'success');
  assert.equal(await client.getBalance({ address: buyer }) - before, value, 'the buyer got back what it paid');
  const refunded = await passUntil(paid, 'refunded');
  assert.equal(refunded.refundTxHash, execTx);
  // The page, polled, sees the batch executed and comes again, led by what it paid.
  const receipt = page.locator('[data-testid=batch-receipt]');
  await receipt.waitFor({ timeout: 30000 });
  assert.equal(await page.evaluate(() => window.__sameDocument), undefined, 'the executed batch\'s page came again');
  assert.match(squash(await receipt.innerText()), /^Paid\. Executed in 0x[0-9a-f]{4}…[0-9a-f]{4} \(block \d+\): the treasury paid 0\.0456 ETH in 1 refund\.$/);
  assert.equal(await page.locator('[data-testid=batch-status]').getAttribute('data-status'), 'executed');
  assert.deepEqual(errors, []);
  await context.close();

  // Nothing of this batch is left open for the files after this one.
  assert.equal((await (await admin('GET', `/treasury-batches/${batch.id}`)).json()).status, 'executed');
  // The operator's page of the batch comes again once executed, as the signer's did: leaving
  // before it does races that reload.
  await op.locator('[data-testid=batch-receipt]').waitFor({ timeout: 30000 });
  await op.goto(base + '/operator');
  assert.equal(await op.locator(`[data-testid=refunds] tr[data-tx="${paid}"]`).count(), 0);
  assert.equal(await op.locator(`[data-testid=open-batch][href="${batchPath}"]`).count(), 0);
  await first.close();
});
