// The operator runs the sale from /operator: a tier with a supply, times in UTC, an allowlist
// phase and the Enabled switch, set in the tier form; per tier, sold / supply, the phase and what
// opens next; an allowlist file previewed (the refused line, or its wallets and nodes) before it
// is saved. It uses tier 30 only, and leaves it switched off: the files after it see no new tier
// on sale.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, base, env, withWallet, signInOperator, shot } from './harness.mjs';

const outcome = (page) => page.locator('[data-testid=outcome]');
const squash = (s) => s.replace(/\s+/g, ' ').trim();

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

// utc is a time days from now as the form takes it, to the minute, in UTC.
const utc = (days) => new Date(Date.now() + days * 86400e3).toISOString().slice(0, 16).replace('T', ' ');

const wallets = ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8', '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  '0x90F79bf6EB2c4f870365E785982E1f101E93b906'];

test('the operator sets up a tier\'s sale, previews its allowlist and saves it', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await withWallet(context, env.FUNDER_KEY); // the factory's owner, an admin
  const page = await signInOperator(context);
  // Saving a 0× tier and switching one off ask first (operator-deadends.test.mjs): yes here.
  page.on('dialog', (d) => d.accept());
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // A refused file comes back as a 422, which Chromium logs as an error: expected.
  page.on('console', (m) => { if (m.type() === 'error' && !m.text().includes('status of 422')) errors.push(m.text()); });

  // The tier form with the sale's fields, its times said to be UTC.
  const form = page.locator('[data-testid=tier-form]');
  assert.match(await page.locator('[data-testid=utc-note]').innerText(), /^Times are in UTC/);
  const [starts, allowlistUntil, ends] = [utc(1), utc(2), utc(30)];
  await form.locator('input[name=id]').fill('30');
  await form.locator('input[name=label]').fill('Genesis');
  await form.locator('input[name=price]').fill('0.0303');
  await form.locator('input[name=maxPerWallet]').fill('2');
  await form.locator('input[name=supply]').fill('3');
  await form.locator('input[name=startsAt]').fill(starts);
  await form.locator('input[name=endsAt]').fill(starts); // not after the start: refused, by its field
  await form.locator('input[name=allowlistUntil]').fill(allowlistUntil);
  await form.locator('input[name=enabled]').check();
  await form.locator('[data-testid=save-tier]').click();
  await page.waitForSelector('[data-testid=problem-endsAt]');
  assert.equal(await page.locator('[data-testid=problem-endsAt]').innerText(), 'The sale must end after it starts.');
  assert.equal(await form.locator('input[name=supply]').inputValue(), '3', 'what was typed stays');
  await form.scrollIntoViewIfNeeded();
  await both(page, 'operator-sale-form');
  await form.locator('input[name=endsAt]').fill(ends);

  await Promise.all([page.waitForURL(base + '/operator'), form.locator('[data-testid=save-tier]').click()]);
  assert.equal(await outcome(page).innerText(), `Saved tier 30, Genesis: 0.0303 ETH, 2 per wallet, 3 nodes in all, from ${starts} UTC, until ${ends} UTC, allowlist only until ${allowlistUntil} UTC, switched on.`);
  const tier = (await (await fetch(base + '/api/tiers')).json()).tiers.find((t) => t.id === '30');
  assert.equal(tier.supply, 3);
  assert.equal(tier.startsAt, starts.replace(' ', 'T') + ':00.000Z');
  assert.equal(tier.phase, 'scheduled');

  // Per tier: sold / supply, the phase and what opens next.
  const row = page.locator('[data-testid=tier-30]');
  assert.equal(squash(await row.locator('[data-testid=tier-sold]').innerText()), '0 / 3 3 left');
  assert.equal(await row.locator('[data-testid=tier-phase]').innerText(), 'scheduled');
  assert.equal(await row.locator('[data-testid=tier-next]').innerText(), `opens ${starts} UTC; ends ${ends} UTC`);
  assert.equal(squash(await row.locator('[data-testid=tier-revenue]').innerText()), '0 ETH ≈ $0.00');
  assert.match(squash(await page.locator('[data-testid=tier-1] [data-testid=tier-phase]').innerText()), /^public sale$/);
  await row.scrollIntoViewIfNeeded();
  await both(page, 'operator-sale-tiers');

  // An allowlist file with a bad line: refused with its line number, nothing saved.
  await row.locator('[data-testid=upload-allowlist]').click();
  const upload = page.locator('[data-testid=allowlist-upload]');
  assert.equal(await upload.locator('select[name=tier]').inputValue(), '30', 'Upload picks the tier');
  const file = (text) => ({ name: 'genesis.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });
  await upload.locator('input[type=file]').setInputFiles(file(`address,allocation\n${wallets[0]},2\n0x12,1\n`));
  await Promise.all([page.waitForLoadState('load'), upload.locator('[data-testid=preview-allowlist]').click()]);
  await page.waitForSelector('[data-testid=allowlist-problem]');
  assert.equal(await page.locator('[data-testid=allowlist-problem]').innerText(),
    'Nothing was saved: the file is refused. Line 3: "0x12" is not an address.');
  await page.locator('[data-testid=allowlist-problem]').scrollIntoViewIfNeeded();
  await both(page, 'operator-allowlist-refused');

  // A good file (a spreadsheet's: CRLF, a header): the preview, then Save.
  await page.locator('[data-testid=allowlist-upload] input[type=file]').setInputFiles(
    file(`address,allocation\r\n${wallets[0]},2\r\n${wallets[1]},3\r\n${wallets[2]},1\r\n`));
  await Promise.all([page.waitForLoadState('load'), page.locator('[data-testid=preview-allowlist]').click()]);
  const preview = page.locator('[data-testid=allowlist-preview]');
  await preview.waitFor();
  assert.equal(await preview.locator('[data-testid=allowlist-rows]').innerText(), '3 wallets');
  assert.equal(await preview.locator('[data-testid=allowlist-total]').innerText(), '6 nodes');
  assert.equal(await preview.locator('[data-testid=allowlist-first] tbody tr').count(), 3);
  assert.equal((await (await fetch(base + '/api/tiers/30/allowlist/' + wallets[1])).json()).listed, false, 'nothing saved at the preview');
  await preview.scrollIntoViewIfNeeded();
  await both(page, 'operator-allowlist-preview');

  await Promise.all([page.waitForURL(base + '/operator'), preview.locator('[data-testid=save-allowlist]').click()]);
  assert.match(await outcome(page).innerText(), /^Saved tier 30's allowlist: 3 wallets, 6 nodes in all, in force from .* UTC\.$/);
  assert.deepEqual(await (await fetch(base + '/api/tiers/30/allowlist/' + wallets[1])).json(), { listed: true, allocation: 3, used: 0 });
  assert.match(squash(await row.locator('[data-testid=tier-allowlist]').innerText()), /^3 wallets, 6 nodes since \d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)? UTC/);
  assert.match(await page.locator('[data-testid=audit] [data-testid=audit-told]').first().getAttribute('title'), /^tier\.allowlist /);
  await row.scrollIntoViewIfNeeded();
  await both(page, 'operator-allowlist-saved');

  // Put back: tier 30 switched off, so no file after this one finds a new tier on sale.
  await Promise.all([page.waitForURL(base + '/operator'), row.locator('[data-testid=switch-tier]').click()]);
  assert.equal(await row.locator('[data-testid=tier-phase]').innerText(), 'switched off');
  assert.deepEqual(errors, []);
  await context.close();
});
