// The operator watches the sale live on /operator: a payment made while the page is open shows
// in the payments-per-minute chart and the figures without a reload, as htmx reads the live view
// again; and the view reads well at 1280 and at 390 px. It uses tier 44 only, and leaves it
// switched off: the files after it see no new tier on sale.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseEther } from 'viem';
import { browser, base, env, withWallet, signInOperator, freshAccount, walletOf, cron, shot, sleep, admin } from './harness.mjs';


// paidInTheHour is the count the live view's summary gives for the last hour.
const paidInTheHour = (summary) => summary.startsWith('No payment') ? 0 : Number(summary.match(/^([\d,]+) payments? /)[1].replace(/,/g, ''));

// minuteCounts is what the wide chart's bars say, by minute ("15:04").
const minuteCounts = (page) => page.locator('svg[data-testid=live-chart] g title').evaluateAll((ts) =>
  Object.fromEntries(ts.map((t) => t.textContent.match(/^(\d\d:\d\d) UTC: (\d+) payment/).slice(1)).map(([m, n]) => [m, Number(n)])));

// barsTotal adds up what the wide chart's bars say, minute by minute.
const barsTotal = (page) => page.locator('svg[data-testid=live-chart] g title').evaluateAll((ts) =>
  ts.reduce((sum, t) => sum + Number(t.textContent.match(/UTC: (\d+) payment/)[1]), 0));

test('the live view follows a payment without a reload, and reads well on a phone', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await withWallet(context, env.FUNDER_KEY); // the factory's owner, an admin
  const page = await signInOperator(context);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  const live = page.locator('[data-testid=live]');
  assert.equal(await live.getAttribute('hx-trigger'), 'every 5s');
  const summary = live.locator('[data-testid=live-summary]');
  const before = paidInTheHour(await summary.innerText());
  assert.equal(await barsTotal(page), before, 'the chart and its summary agree');
  const minutesBefore = await minuteCounts(page);
  const mintedBefore = Number((await live.locator('[data-testid=live-minted-hour]').innerText()).replace(/,/g, ''));
  // A reload would lose this mark: the view must change under it.
  await page.evaluate(() => { window.__notReloaded = true; });

  const res = await admin('PUT', '/tiers/44', { label: 'Live 44', priceWei: parseEther('0.0444').toString(), maxPerWallet: 5,
    holdingWei: '0', holdingToken: null, enabled: true, confirm: true });
  assert.equal(res.status, 200, await res.text());
  try {
    const key = await freshAccount('1');
    const hash = await walletOf(key).sendTransaction({ to: (await (await fetch(base + '/api/deploy-quote')).json()).paymentAddress,
      value: parseEther('0.0444') });
    let status;
    for (let i = 0; i < 80 && status !== 'minted'; i++) {
      await cron('payments');
      const r = await fetch(base + '/api/payments/' + hash);
      status = r.ok ? (await r.json()).status : undefined;
      if (status !== 'minted') await sleep(250);
    }
    assert.equal(status, 'minted');

    // Within two refreshes a minute of the chart counts one payment more, the summary agrees with
    // the bars, and the hour's nodes count the new one. Read in one go: as the clock passes a
    // minute the hour's oldest minute leaves the chart, so the hour's total alone may not rise;
    // and a refresh read while the payment was seen but not yet minted may land after the loop
    // above, showing the payment without its node.
    await page.waitForFunction(([before, mintedBefore]) => {
      const minted = Number(document.querySelector('[data-testid=live-minted-hour]').textContent.replace(/,/g, ''));
      if (minted !== mintedBefore + 1) return false;
      const s = document.querySelector('[data-testid=live-summary]').textContent.trim();
      const total = s.startsWith('No payment') ? 0 : Number(s.match(/^([\d,]+) payment/)[1].replace(/,/g, ''));
      let bars = 0, rose = false;
      for (const t of document.querySelectorAll('svg[data-testid=live-chart] g title')) {
        const [, minute, n] = t.textContent.match(/^(\d\d:\d\d) UTC: (\d+) payment/);
        bars += Number(n);
        rose ||= Number(n) > (before[minute] ?? 0);
      }
      return total === bars && rose;
    }, [minutesBefore, mintedBefore], { timeout: 12_000 });
    assert.equal(await page.evaluate(() => window.__notReloaded), true, 'the page was not reloaded');
    assert.match(await live.locator('[data-testid=live-oldest]').innerText(), /^(nothing waits|the oldest paid .* ago)$/);

    // Both widths: nothing wider than a phone, the phone's own chart shown there and its text
    // no smaller than the page's small print.
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      const scroll = await page.evaluate(() => document.scrollingElement.scrollWidth);
      assert.ok(scroll <= width, `the operator page is ${scroll}px wide on a ${width}px screen`);
      const shown = width === 390 ? 'live-chart-phone' : 'live-chart';
      const chart = page.locator(`svg[data-testid=${shown}]`);
      assert.ok(await chart.isVisible(), `${shown} is shown at ${width}px`);
      const label = await chart.locator('text').first().boundingBox();
      assert.ok(label.height >= 10, `the chart's labels are ${label.height}px tall at ${width}px`);
      await live.scrollIntoViewIfNeeded();
      await live.screenshot({ path: `${env.ARTIFACTS}/operator-live-${width}.png` });
      await shot(page, `operator-live-page-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  } finally {
    assert.ok([200, 404].includes((await admin('POST', '/tiers/44/off-sale')).status));
  }
  assert.deepEqual(errors, []);
  await context.close();
});
