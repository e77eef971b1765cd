// The operator page without dead ends: a tier is created with its payout multiplier, sent from
// the owner's wallet as part of saving, and its row shows it without a reload; saving a tier that
// earns 0× or is switched off asks first; section links jump to their headings; Switch off and
// Hold minting ask before acting; the live view has one heading, each tier's sold / supply and a
// countdown to the tier about to open. It uses tiers 60 and 61 and leaves both switched off.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEther } from 'viem';
import { browser, base, env, withWallet, signInOperator, shot, admin } from './harness.mjs';

const squash = (s) => s.replace(/\s+/g, ' ').trim();
const tierOf = async (id) => (await (await admin('GET', '/tiers')).json()).tiers.find((t) => t.id === id);

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

// onScreen: the heading id is the page's anchor and shows on the screen, below the sticky links.
const onScreen = (id) => {
  const top = document.getElementById(id).getBoundingClientRect().top;
  return location.hash === '#' + id && top >= 30 && top < innerHeight - 40;
};

// answering makes the page's next confirmation answer yes or no, and gives its question.
function answering(page, yes) {
  return new Promise((resolve) => page.once('dialog', async (d) => {
    resolve(d.message());
    await (yes ? d.accept() : d.dismiss());
  }));
}

test('the operator creates a paying tier in one save, is asked before each switch, and reads the live view', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const owner = await withWallet(context, env.FUNDER_KEY); // the factory's owner, an admin
  const page = await signInOperator(context);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });

  // Section links, at the top of the long page: each jumps to its heading.
  const nav = page.locator('[data-testid=section-nav]');
  assert.match(squash(await nav.innerText()), /^Passes Live Service Tiers Allowlists Tier form Referral codes Treasury Screening Refunds Ledger Exports Webhooks Operators Audit$/);
  await both(page, 'operator-deadends-nav');
  for (const id of ['audit', 'service', 'tiers', 'tier-form-heading']) {
    await nav.locator(`[data-testid=nav-${id}]`).click();
    await page.waitForFunction(onScreen, id);
    assert.ok(await nav.isVisible(), 'the links stay on screen');
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await nav.locator('[data-testid=nav-webhooks]').click();
  await page.waitForFunction(onScreen, 'webhooks');
  await shot(page, 'operator-deadends-nav-jump-390');
  await page.setViewportSize({ width: 1280, height: 900 });

  // A new tier: on sale by default, and its button says so; unticked, it says off sale.
  const form = page.locator('[data-testid=tier-form]');
  const save = form.locator('[data-testid=save-tier]');
  assert.ok(await form.locator('input[name=enabled]').isChecked());
  assert.equal(squash(await save.innerText()), 'Create tier and put it on sale');
  await form.locator('input[name=enabled]').uncheck();
  assert.equal(squash(await save.innerText()), 'Create tier (off sale)');
  await form.locator('input[name=id]').fill('60');
  await form.locator('input[name=label]').fill('Silver');
  await form.locator('input[name=price]').fill('0.0606');
  await form.locator('input[name=maxPerWallet]').fill('2');

  // Earning 0× (no multiplier: the factory has none for a new tier) and switched off: asked, and
  // answering no saves nothing and sends nothing.
  let asked = answering(page, false);
  await save.click();
  assert.equal(await asked, 'Silver earns 0×: a node of it earns nothing in a round. Silver is switched off: it sells nothing until you switch it on. Save it anyway?');
  await form.locator('input[name=enabled]').check();
  assert.equal(squash(await save.innerText()), 'Create tier and put it on sale');
  await form.locator('input[name=payout]').fill('0');
  asked = answering(page, false);
  await save.click();
  assert.equal(await asked, 'Silver earns 0×: a node of it earns nothing in a round. Save it anyway?');
  assert.equal(await tierOf('60'), undefined, 'nothing was saved');
  assert.ok(!owner.calls.some((c) => c.method === 'eth_sendTransaction'), 'nothing was sent');
  await form.scrollIntoViewIfNeeded();
  await both(page, 'operator-deadends-form');

  // 1.5×, on sale: no question; the owner's wallet sends setTierWeight, then the tier is saved and
  // its row shows 1.5× on the page the save returns.
  await form.locator('input[name=payout]').fill('1.5');
  let dialogs = 0;
  const count = () => { dialogs++; };
  page.on('dialog', count);
  await Promise.all([page.waitForURL(base + '/operator', { timeout: 30000 }), save.click()]);
  page.off('dialog', count);
  assert.equal(dialogs, 0);
  const sent = owner.calls.find((c) => c.method === 'eth_sendTransaction').params[0];
  assert.equal(sent.to.toLowerCase(), await form.getAttribute('data-factory'));
  assert.equal(sent.data, await form.getAttribute('data-selector') + (60).toString(16).padStart(64, '0') + (15000).toString(16).padStart(64, '0'));
  const row = page.locator('[data-testid=tier-60]');
  assert.equal(await row.locator('[data-testid=tier-payout]').innerText(), '1.5×');
  assert.equal(await row.locator('[data-testid=tier-phase]').innerText(), 'public sale');
  assert.match(await page.locator('[data-testid=outcome]').innerText(), /^Saved tier 60, Silver: 0\.0606 ETH, 2 per wallet.*switched on\.$/);
  assert.equal((await tierOf('60')).payoutBps, 15000);
  await row.scrollIntoViewIfNeeded();
  await both(page, 'operator-deadends-saved');

  // Switch off asks, naming what happens: no keeps it on sale, yes takes it off.
  asked = answering(page, false);
  await row.locator('[data-testid=switch-tier]').click();
  assert.equal(await asked, 'Switch off Silver #60? It stops selling at once: a payment for it from now on is rejected and owed a refund.');
  assert.equal(await row.locator('[data-testid=switch-tier]').innerText(), 'Switch off');
  assert.equal((await tierOf('60')).onSale, true);
  asked = answering(page, true);
  await Promise.all([page.waitForURL(base + '/operator'), row.locator('[data-testid=switch-tier]').click()]);
  await asked;
  assert.equal(await row.locator('[data-testid=tier-phase]').innerText(), 'switched off');
  assert.equal((await tierOf('60')).onSale, false);

  // Hold minting asks too; resuming does not.
  const hold = page.locator('[data-testid=hold-minting]');
  asked = answering(page, false);
  await hold.click();
  assert.match(await asked, /^Hold minting\? Payments keep being recorded but no node is minted until you resume minting/);
  assert.equal(await hold.innerText(), 'Hold minting');
  asked = answering(page, true);
  await Promise.all([page.waitForURL(base + '/operator'), hold.click()]);
  await asked;
  assert.equal(await hold.innerText(), 'Resume minting');
  await Promise.all([page.waitForURL(base + '/operator'), hold.click()]);
  assert.equal(await hold.innerText(), 'Hold minting');

  // The live view: a tier opening in two hours, with a supply, shows its sold / supply and a
  // countdown, without a reload.
  const startsAt = new Date(Date.now() + 2 * 3600e3);
  startsAt.setUTCSeconds(0, 0);
  const res = await admin('PUT', '/tiers/61', { label: 'Next', priceWei: parseEther('0.0611').toString(), maxPerWallet: 1,
    holdingWei: '0', holdingToken: null, enabled: true, supply: 7, startsAt: startsAt.toISOString(), confirm: true });
  assert.equal(res.status, 200, await res.text());
  try {
    const live = page.locator('[data-testid=live]');
    const liveRow = live.locator('[data-testid=live-tier-61]');
    await liveRow.waitFor({ timeout: 30000 });
    assert.equal(squash(await liveRow.locator('[data-testid=live-tier-sold]').innerText()), '0 / 7');
    await liveRow.locator('[data-testid=live-tier-phase]').filter({ hasText: /^scheduled, opens in 0?1:5\d:\d\d$/ }).waitFor();
    const next = live.locator('[data-testid=live-opens-next]');
    await next.filter({ hasText: /^Next #61 opens in 0?1:5\d:\d\d, at \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/ }).waitFor();
    assert.equal(await live.locator('[data-testid=live-heading]').count(), 1);
    await live.scrollIntoViewIfNeeded();
    await both(page, 'operator-deadends-live');

    // On its own page: the heading once, also after it refreshes itself.
    await page.goto(base + '/operator/live');
    const heading = page.getByRole('heading', { name: 'Sale, live' });
    assert.equal(await heading.count(), 1);
    const at = await page.locator('[data-testid=live-time]').innerText();
    await page.locator('[data-testid=live-time]').filter({ hasNotText: at }).waitFor({ timeout: 15000 });
    assert.equal(await heading.count(), 1);
    assert.equal(await page.locator('h1').count(), 1);
    await page.locator('[data-testid=live-opens-next] time').filter({ hasText: /^in / }).waitFor();
    await both(page, 'operator-deadends-live-page');
  } finally {
    const off = await admin('PUT', '/tiers/61', { label: 'Next', priceWei: parseEther('0.0611').toString(), maxPerWallet: 1,
      holdingWei: '0', holdingToken: null, enabled: false, supply: 7, startsAt: startsAt.toISOString(), confirm: true });
    assert.equal(off.status, 200, await off.text());
  }
  assert.deepEqual(errors, []);
  await context.close();
});
