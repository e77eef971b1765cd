// How the pages read: the landing page's lead and Buy button, amounts rounded with their exact
// value in a title, tier names, linkable credits and rounds, explorer links, and every page at
// phone width without sideways scrolling. Runs after pages.test.mjs, which made node 1 and
// credited it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { env, base, browser, open, text, withWallet, signInOperator } from './harness.mjs';

// readable is the page's rounding, written again: six decimals at most, half up, separators.
function readable(wei) {
  const u = (wei + 500_000_000_000n) / 1_000_000_000_000n;
  const frac = (u % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return (u / 1_000_000n).toLocaleString('en-US') + (frac ? '.' + frac : '');
}

const wide = { width: 1280, height: 900 };
const phone = { width: 390, height: 844 };
const shotAt = (page, name, width) =>
  page.screenshot({ path: `${env.ARTIFACTS}/looks-${name}-${width}.png`, fullPage: true });

test('the landing page says what a node is and earns, with a Buy button', async () => {
  const { page, errors } = await open('/', wide);
  const intro = await text(page, 'intro');
  assert.match(intro, /A node is bought with one ETH transfer/);
  assert.match(intro, /payout multiplier/);
  assert.match(intro, /withdraw .* straight from the contract/);
  assert.match(await page.locator('#stats').innerText(), /Holders/);
  // The chart has its axis: 0 and two steps, each labelled.
  assert.equal(await page.locator('[data-testid=chart] text.tick').count(), 3);
  await shotAt(page, 'landing', 1280);
  await page.setViewportSize(phone);
  // A phone shows the last week's chart instead, whose text stays readable.
  assert.ok(await page.locator('[data-testid=chart-week]').isVisible());
  assert.ok(!(await page.locator('[data-testid=chart]').isVisible()));
  await shotAt(page, 'landing', 390);
  await page.click('[data-testid=buy-link]');
  await page.waitForURL(base + '/buy');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a big amount reads with thousands separators, six decimals at most, and its exact value in the title', async () => {
  // The distributor's float, on the operator page: the dev chain gave it 10,000 ETH, less the gas
  // of its rounds.
  const context = await browser.newContext({ viewport: wide });
  await withWallet(context, env.FUNDER_KEY); // the factory's owner, an admin
  const page = await signInOperator(context);
  const health = await (await fetch(base + '/api/cron/health')).json();
  const exact = formatEther(BigInt(health.distributorBalanceWei));
  const amount = page.locator('[data-testid=live-distributor] .eth');
  assert.match(await amount.innerText(), /^\d{1,3}(,\d{3})+(\.\d{1,6})?$/);
  assert.equal(await amount.innerText(), readable(BigInt(health.distributorBalanceWei)));
  assert.equal(await amount.getAttribute('title'), exact + ' ETH');
  // The service's own parts are the operator's, not the status page's.
  await page.locator('#service').scrollIntoViewIfNeeded();
  assert.ok(await page.locator('[data-testid=service] [data-testid=last-tick]').isVisible());
  await page.locator('[data-testid=service]').screenshot({ path: `${env.ARTIFACTS}/looks-operator-service-1280.png` });
  await context.close();

  const status = (await open('/status', wide)).page;
  await status.waitForSelector('[data-testid=status-verdict]');
  assert.equal(await status.locator('[data-testid=service], [data-testid=last-tick], [data-testid=live-distributor]').count(), 0);
  await shotAt(status, 'status', 1280);
  await status.setViewportSize(phone);
  await shotAt(status, 'status', 390);
  await status.close();
});

test('the node page names its tier, says when it is next credited, and links its credits to their rounds', async () => {
  const { page, errors } = await open('/node/1', wide);
  assert.equal(await text(page, 'tier'), 'Standard');
  assert.match(await text(page, 'next-credit'), /^(in .+|due at the next round)$/);
  const balance = page.locator('[data-testid=balance] .eth');
  assert.match(await balance.getAttribute('title'), /^\d+(\.\d+)? ETH$/);
  // The mint transaction links to the explorer, shortened with the whole hash in its title.
  const mint = page.locator('[data-testid=node-facts] a[data-explorer-link]');
  assert.match(await mint.getAttribute('href'), /\/tx\/0x[0-9a-f]{64}$/);
  assert.match(await mint.innerText(), /^0x[0-9a-f]{4}…[0-9a-f]{4}$/);
  await shotAt(page, 'node', 1280);
  await page.setViewportSize(phone);
  await shotAt(page, 'node', 390);

  // A credit's own link, then its round on the distributions page.
  const credit = page.locator('[data-testid=credits] tbody tr').first();
  const id = await credit.getAttribute('id');
  await credit.locator(`a[href="#${id}"]`).click();
  assert.ok(page.url().endsWith('#' + id));
  const round = credit.locator('a[href^="/distributions#round-"]');
  const href = await round.getAttribute('href');
  await round.click();
  await page.waitForURL(base + href);
  const target = page.locator('tr:target');
  assert.equal(await target.getAttribute('id'), href.split('#')[1]);
  assert.deepEqual(errors, []);
  await page.close();
});

test('every page fits a 390 px screen, long hashes and addresses included', async () => {
  const buyer = privateKeyToAccount(env.BUYER_KEY).address.toLowerCase();
  const paths = ['/', '/buy', '/me', '/distributions', '/health', '/node/1', `/wallet/${buyer}`, '/operator'];
  const context = await browser.newContext({ viewport: phone, isMobile: true });
  for (const path of paths) {
    const page = await context.newPage();
    await page.goto(base + path);
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(scroll <= 390, `${path} is ${scroll}px wide on a 390px screen`);
    await page.close();
  }
  await context.close();
});
