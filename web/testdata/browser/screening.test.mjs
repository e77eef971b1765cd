// Screening as a buyer and an operator meet it (issue 52): a tier that requires a verified
// identity tells a connected wallet so and links the provider's form (dev mode's stand-in), whose
// answer lets the wallet pay; a payer the sanctions oracle lists is held, its tracker says so
// without naming a list, and an admin releases it from the operator page, with a reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAbi, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { env, base, browser, client, walletOf, freshAccount, withWallet, text, putTier, switchOff, passUntil, signInOperator } from './harness.mjs';

const wide = { width: 1280, height: 844 };
const card = (page, id) => page.locator(`[data-testid=buy-tier][data-tier="${id}"]`);

// shots takes page at 1280 and 390 px, checking that nothing is wider than the screen.
async function shots(page, name) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 844 });
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(scroll <= width, `${name}: ${scroll}px wide on a ${width}px screen`);
    await page.screenshot({ path: `${env.ARTIFACTS}/screening-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize(wide);
}

test('a tier that requires an identity: the buyer verifies on the stand-in form, then pays and is minted', async () => {
  await putTier(90, { kycRequired: true });
  try {
    const key = await freshAccount('2');
    const context = await browser.newContext({ viewport: wide });
    const wallet = await withWallet(context, key);
    const page = await context.newPage();
    await page.goto(base + '/buy');
    assert.equal(await card(page, 90).locator('[data-testid=kyc-required]').innerText(), 'Requires a verified identity');
    await page.click('[data-testid=connect-wallet]');
    const status = card(page, 90).locator('[data-testid=kyc-status]');
    await status.waitFor({ timeout: 10000 });
    assert.equal(await status.getAttribute('data-status'), 'none');
    assert.match(await status.innerText(), /^Your identity check is not started\./);
    assert.match(await card(page, 90).locator('[data-testid=blocked]').innerText(),
      /^Verify your identity first: the Sale 90 tier asks every buyer.* A payment from it would be held until it is verified, and refunded if it is not within 7 days\.$/);
    assert.equal(await card(page, 90).locator('[data-wallet=pay]').count(), 0, 'an unverified wallet is offered to pay');
    await shots(page, 'kyc-unverified');

    // The provider's form (dev mode's stand-in), with the wallet as its reference.
    await Promise.all([page.waitForURL(/\/dev\/kyc\?externalUserId=0x[0-9a-f]{40}$/), status.locator('[data-testid=kyc-verify]').click()]);
    assert.equal(await text(page, 'dev-kyc-wallet'), privateKeyToAccount(key).address.toLowerCase());
    assert.equal(await page.locator('[data-testid=dev-kyc-status]').getAttribute('data-status'), 'none');
    assert.equal(await text(page, 'dev-kyc-status'), 'Your identity check is not started.');
    await shots(page, 'kyc-form');
    await Promise.all([page.waitForURL(/outcome=/), page.click('[data-testid=dev-kyc-approve]')]);
    assert.equal(await text(page, 'dev-kyc-outcome'), "The provider's webhook was sent: your identity is verified.");
    assert.equal(await page.locator('[data-testid=dev-kyc-status]').getAttribute('data-status'), 'verified');
    assert.equal(await text(page, 'dev-kyc-status'), 'Your identity is verified.');

    await Promise.all([page.waitForURL(/\/buy\?wallet=/), page.click('[data-testid=dev-kyc-back]')]);
    const verified = card(page, 90).locator('[data-testid=kyc-status]');
    await verified.waitFor();
    assert.equal(await verified.getAttribute('data-status'), 'verified');
    await card(page, 90).locator('[data-wallet=pay]').click();
    await page.waitForURL(/\/payment\/0x[0-9a-f]{64}\?sent=1$/, { timeout: 15000 });
    assert.equal(wallet.calls.filter((c) => c.method === 'eth_sendTransaction').length, 1);
    const hash = page.url().match(/0x[0-9a-f]{64}/)[0];
    await passUntil(hash, 'minted');
    await page.locator('[data-testid=payment-status][data-status=minted]').waitFor({ timeout: 20000 });
    await context.close();
  } finally {
    await switchOff(90);
  }
});

test('a payer the sanctions oracle lists is held, told so without a list\'s name; an admin releases it to be refunded', async () => {
  const tier = await putTier(91);
  try {
    const key = await freshAccount('2');
    const payer = privateKeyToAccount(key).address;
    const abi = parseAbi(['function addToSanctionsList(address[] addrs)']);
    const listing = await walletOf(env.FUNDER_KEY).writeContract({ address: env.SANCTIONS_ORACLE, abi, functionName: 'addToSanctionsList', args: [[payer]] });
    await client.waitForTransactionReceipt({ hash: listing });
    const paid = await walletOf(key).sendTransaction({ to: env.PAYMENT_ADDRESS, value: BigInt(tier.priceWei) });
    await client.waitForTransactionReceipt({ hash: paid });
    const held = await passUntil(paid, 'held');
    assert.equal(held.reasonCode, 'sanctioned');

    const page = await browser.newPage({ viewport: wide });
    await page.goto(`${base}/payment/${paid}`);
    const message = page.locator('[data-testid=payment-message]');
    await message.waitFor();
    assert.equal(await message.innerText(), 'Held: This payment cannot be accepted (sanctions screening); the operator will contact you.');
    assert.doesNotMatch(await page.locator('main').innerText(), /OFAC|Chainalysis|oracle/i);
    await shots(page, 'held-tracker');
    await page.close();

    // The operator page: the held list, and an admin's release with a reason.
    const context = await browser.newContext({ viewport: wide });
    await withWallet(context, env.FUNDER_KEY); // the factory's owner: an admin
    const op = await signInOperator(context);
    const row = op.locator(`[data-testid=held-payment][data-tx="${paid}"]`);
    await row.waitFor();
    assert.match(await row.innerText(), /Sanctions screening/);
    // The page opens on it; on a phone the whole strip of what waits is within three screens.
    const heldItem = op.locator('[data-testid=attention-held]');
    assert.match((await heldItem.innerText()).replace(/\s+/g, ' '), /^\d+ payments? held by the screening: release each to mint or to refund\. Screening ↓$/);
    const strip = op.locator('[data-testid=attention]');
    for (const width of [1280, 390]) {
      await op.setViewportSize({ width, height: 844 });
      await op.evaluate(() => window.scrollTo(0, 0));
      const box = await strip.boundingBox();
      assert.ok(box.y + box.height <= 3 * 844, `the strip ends ${box.y + box.height}px down a ${width}px page: past three screens`);
      await strip.screenshot({ path: `${env.ARTIFACTS}/screening-operator-attention-${width}.png` });
    }
    await op.setViewportSize(wide);
    await op.locator('#screening').scrollIntoViewIfNeeded();
    await shots(op, 'operator-held');
    await row.locator('[data-testid=release-to]').selectOption('refund');
    await row.locator('[data-testid=release-reason]').fill('the payer is not the listed person; refund on request');
    await Promise.all([op.waitForLoadState('load'), row.locator('[data-testid=release]').click()]);
    const outcome = op.locator('[data-testid=outcome]');
    await outcome.filter({ hasText: 'Released payment' }).waitFor({ timeout: 10000 });
    assert.match(await outcome.innerText(), /to be refunded: "the payer is not the listed person; refund on request"\. The next payments pass judges it\.$/);
    await op.locator(`[data-testid=held-payment][data-tx="${paid}"] [data-testid=released]`).waitFor();
    const after = await passUntil(paid, 'rejected');
    assert.equal(after.reasonCode, 'sanctioned');
    assert.match(after.reason, /it is refunded\.$/);
    await context.close();
  } finally {
    await switchOff(91);
  }
});
