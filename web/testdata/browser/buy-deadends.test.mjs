// No dead ends on /buy: the pay-from-elsewhere box never gives the address, amount and QR code of
// a tier the connected wallet would be refused (it says why, in the Pay button's pre-check
// sentence), nor of a tier not open yet (it says when it opens); without a wallet it says what it
// cannot check; an allowlisted wallet sees its place before the allowlist phase opens. Tiers 70
// to 79 are this file's; each test switches off the tiers it made, so the other files' /buy shows
// what they expect.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { env, base, browser, freshAccount, withWallet, sleep, admin, putTier, switchOff } from './harness.mjs';

const wide = { width: 1280, height: 900 };
const phone = { width: 390, height: 844 };
const sends = (wallet) => wallet.calls.filter((c) => c.method === 'eth_sendTransaction');
const iso = (ms) => new Date(Date.now() + ms).toISOString();
const HOUR = 3600_000;
// A time as the page writes it in UTC.
const utc = (isoTime) => isoTime.replace('T', ' ').replace(/\.\d+Z$/, ' UTC');

// shots takes the whole page at 1280 and 390 px, checking that it is no wider than the screen.
async function shots(page, name) {
  for (const viewport of [wide, phone]) {
    await page.setViewportSize(viewport);
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(scroll <= viewport.width, `${name}: ${scroll}px wide on a ${viewport.width}px screen`);
    await page.screenshot({ path: `${env.ARTIFACTS}/buy-deadends-${name}-${viewport.width}.png`, fullPage: true });
  }
  await page.setViewportSize(wide);
}



// precheck is the sentence the Pay button's pre-check gives for a payment of tier from address.
async function precheck(tier, address) {
  const check = await (await fetch(`${base}/api/tiers/${tier}/check/${address.toLowerCase()}`)).json();
  assert.equal(check.ok, false, `tier ${tier} from ${address}: ${JSON.stringify(check)}`);
  return check.reason;
}

// reads waits for locator's text to match re: a countdown shows the server's words until its
// first tick.
async function reads(locator, re, timeout = 5000) {
  let last;
  for (const end = Date.now() + timeout; Date.now() < end; await sleep(100)) {
    last = await locator.innerText();
    if (re.test(last)) return;
  }
  assert.match(last, re);
}

const card = (page, id) => page.locator(`[data-testid=buy-tier][data-tier="${id}"]`);
const option = (page, id) => page.locator(`[data-testid=pay-option][data-tier="${id}"]`);

// connected opens /buy with key's wallet and connects it; the page then brings its figures.
async function connected(key) {
  const context = await browser.newContext({ viewport: wide });
  const wallet = await withWallet(context, key);
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(base + '/buy');
  await page.click('[data-testid=connect-wallet]');
  const address = privateKeyToAccount(key).address.toLowerCase();
  await page.locator(`[data-testid=buy-wallet] a[title="${address}"]`).waitFor({ timeout: 15000 });
  return { context, wallet, page, errors };
}

test('a wallet refused a tier gets no address, amount or QR for it, but the pre-check\'s sentence; a tier not open yet says when it opens, and its Pay button sends nothing', async () => {
  const opens = iso(HOUR);
  await putTier(70, { holdingToken: env.TOKEN_ADDRESS, holdingWei: parseEther('250').toString() });
  await putTier(71, { allowlistUntil: iso(2 * HOUR) });
  await putTier(72, { startsAt: opens, supply: 100 });
  await putTier(73, { opensAfterTier: '72', supply: 10 });
  await putTier(74);
  try {
    const key = await freshAccount('2'); // ETH, none of the token, on no allowlist
    const address = privateKeyToAccount(key).address;
    const { context, wallet, page, errors } = await connected(key);
    for (const id of [70, 71]) {
      const o = option(page, id);
      assert.equal(await o.getAttribute('data-offer'), 'refused');
      const said = await o.locator('[data-testid=pay-refused]').innerText();
      assert.equal(said, (await precheck(id, address)) + ' A payment from it would be refunded.');
      assert.equal(said, await card(page, id).locator('[data-testid=blocked]').innerText(), 'the card and the box say it alike');
      assert.equal(await o.locator('[data-testid=pay-link], [data-testid=exact-wei], [data-testid=pay-eth], svg').count(), 0);
      assert.equal(await card(page, id).locator('[data-wallet=pay]').count(), 0);
    }
    assert.match(await option(page, 70).innerText(), /hold 250 DHT; it holds 0 DHT/);
    await reads(option(page, 71).locator('.muted'), /^The public sale opens in (01:59:\d\d|02:00:00), at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\.$/);
    // A tier not open yet: when, ticking, and in UTC; no address or amount.
    const later = option(page, 72);
    assert.equal(await later.getAttribute('data-offer'), 'not-open');
    await reads(later.locator('[data-testid=pay-not-open]'),
      new RegExp(`^Not open yet: opens in (00:59:\\d\\d|01:00:00), at ${utc(opens)}\\. A payment before then is refunded, not turned into a node\\.$`));
    assert.equal(await later.locator('[data-testid=pay-link], [data-testid=exact-wei], svg').count(), 0);
    assert.match(await option(page, 73).locator('[data-testid=pay-not-open]').innerText(), /^Not open yet: opens once Sale 72 sells out\./);
    // What the wallet may pay for keeps its address, amount and QR code.
    assert.equal(await option(page, 74).getAttribute('data-offer'), 'pay');
    assert.equal(await option(page, 74).locator('[data-testid=pay-link] svg').count(), 1);
    assert.equal(await option(page, 74).locator('[data-testid=pay-unchecked]').count(), 0, 'checked for the connected wallet');
    await page.locator('[data-testid=quote]').scrollIntoViewIfNeeded();
    await shots(page, 'refused');

    // A tier that stops being open while the page shows its Pay button: the button asks the
    // service first and sends nothing.
    await putTier(74, { startsAt: iso(HOUR) });
    await card(page, 74).locator('[data-wallet=pay]').click();
    const said = card(page, 74).locator('.wallet-msg');
    await said.waitFor();
    assert.match(await said.innerText(), /^The Sale 74 tier opens at \d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)? UTC\. Nothing was sent\.$/);
    assert.equal(sends(wallet).length, 0, 'the wallet was never asked to pay');
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await switchOff(70, 71, 72, 73, 74);
  }
});

test('an allowlisted wallet sees its place before the allowlist phase opens; a wallet not on the list sees when it can buy', async () => {
  const opens = iso(HOUR);
  const until = iso(3 * HOUR);
  const listedKey = await freshAccount('1');
  const listed = privateKeyToAccount(listedKey).address;
  await putTier(75, { startsAt: opens, allowlistUntil: until });
  try {
    const up = await admin('PUT', '/tiers/75/allowlist', `address,allocation\n${listed},2\n`);
    assert.equal(up.status, 200, await up.text());
    // Without a wallet, the page knows no place.
    const plain = await browser.newContext({ viewport: wide });
    const visit = await plain.newPage();
    await visit.goto(base + '/buy');
    assert.equal(await card(visit, 75).getAttribute('data-phase'), 'scheduled');
    assert.equal(await card(visit, 75).locator('[data-testid=allocation]').count(), 0);
    await plain.close();

    const { context, page, errors } = await connected(listedKey);
    const place = card(page, 75).locator('[data-testid=allocation]');
    await reads(place, new RegExp(`^This wallet is on the allowlist: it may buy 2 nodes in the allowlist phase, which opens ${utc(opens)}, in (00:59:\\d\\d|01:00:00), and lasts until ${utc(until)}\\.$`));
    assert.equal(await card(page, 75).locator('[data-wallet=pay]').count(), 0, 'not open yet: no Pay button');
    const o = option(page, 75);
    await reads(o.locator('[data-testid=pay-not-open]'), /^Not open yet: opens in (00:59:\d\d|01:00:00), at /);
    assert.equal(await o.locator('[data-testid=pay-allocation]').innerText(), 'This wallet is on its allowlist: it may buy 2 nodes once it opens.');
    await card(page, 75).scrollIntoViewIfNeeded();
    await shots(page, 'allowlist-before');
    assert.deepEqual(errors, []);
    await context.close();

    const other = await connected(await freshAccount('1'));
    await reads(card(other.page, 75).locator('[data-testid=allocation]'),
      new RegExp(`^This wallet is not on the allowlist as it stands now: it can buy once the public sale opens, ${utc(until)}, in (02:59:\\d\\d|03:00:00)\\.$`));
    await reads(option(other.page, 75).locator('[data-testid=pay-not-open]'),
      new RegExp(`^Not open to this wallet yet: opens in (02:59:\\d\\d|03:00:00), at ${utc(until)}\\.`));
    await shots(other.page, 'allowlist-before-unlisted');
    await other.context.close();
  } finally {
    await switchOff(75);
  }
});

test('without a wallet the box stays, and says what it cannot check', async () => {
  await putTier(76, { holdingToken: env.TOKEN_ADDRESS, holdingWei: parseEther('250').toString(), maxPerWallet: 3 });
  await putTier(77, { allowlistUntil: iso(HOUR) });
  try {
    const context = await browser.newContext({ viewport: wide });
    const page = await context.newPage();
    await page.goto(base + '/buy');
    const token = option(page, 76);
    assert.equal(await token.getAttribute('data-offer'), 'pay');
    assert.equal(await token.locator('[data-testid=pay-link] svg').count(), 1);
    assert.equal(await token.locator('[data-testid=pay-unchecked]').innerText(),
      'No wallet is connected, so this page cannot check that yours may buy it: the paying wallet must have fewer than 3 Sale 76 nodes and hold 250 DHT. Connect it to have it checked before you pay.');
    assert.match(await option(page, 77).locator('[data-testid=pay-unchecked]').innerText(),
      /the paying wallet must be on its allowlist, with nodes left of its allocation \(only listed wallets buy until \d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)? UTC\)\./);
    await token.scrollIntoViewIfNeeded();
    await shots(page, 'no-wallet');
    await context.close();
  } finally {
    await switchOff(76, 77);
  }
});
