// A failed htmx request shows its sentence where its answer would have gone (htmx swaps no error
// response by itself; static/wallet.js does): an operator's button the server refuses says why in
// #outcome, which keeps its id so the next button still answers there; the overview's stats,
// which refresh themselves, keep their figures and their timer, with the sentence inside until
// the next answer replaces both. The failures are the server's own answers, not made up here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browser, base, env, withWallet, signInOperator, shot } from './harness.mjs';

test('an operator button the server refuses says why in place, and the next one answers there again', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await withWallet(context, env.FUNDER_KEY); // the factory's owner, an admin
  const page = await signInOperator(context);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const form = page.locator('form[hx-post="/operator/passes/payments"]');
  const headers = await form.getAttribute('hx-headers');
  // A token from another session: the server's 403, as for a form from a page left open too long.
  await form.evaluate((f) => f.setAttribute('hx-headers', JSON.stringify({ 'X-CSRF-Token': 'not-this-session' })));
  const refused = page.waitForResponse((r) => r.url().endsWith('/operator/passes/payments'));
  await page.click('[data-testid=run-payments]');
  assert.equal((await refused).status(), 403);
  const shown = page.locator('#outcome[data-testid=error][role=alert]');
  await shown.waitFor({ timeout: 5000 });
  assert.equal(await shown.innerText(),
    'This form did not come from your operator page, or it is out of date: reload the page and try again.');
  assert.equal(await page.locator('h1').count(), 1, 'no page was swapped into the page');
  await shot(page, 'operator-refused');

  await form.evaluate((f, h) => f.setAttribute('hx-headers', h), headers);
  await page.click('[data-testid=run-payments]');
  await page.locator('#outcome[data-testid=outcome]').filter({ hasText: /\S/ }).waitFor({ timeout: 15000 });
  assert.equal(await page.locator('[data-testid=error]').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the stats that refresh themselves keep their figures and their timer when a refresh fails', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // The next refreshes reach a route the server does not have: its own 404, as htmx gets it.
  await page.route('**/partials/stats', (route) => route.continue({ url: base + '/partials/no-such-route' }));
  await page.goto(base + '/');
  const stats = page.locator('#stats[data-testid=stats]');
  const figures = await stats.locator('.card').count();
  assert.ok(figures > 0, 'the overview shows its figures');
  const shown = stats.locator(':scope > [data-testid=error]');
  await shown.waitFor({ timeout: 15000 }); // one refresh: every 10 s
  assert.equal(await shown.innerText(), 'There is nothing at this address.');
  assert.equal(await stats.locator('.card').count(), figures, 'the figures stay');
  assert.equal(await stats.getAttribute('hx-trigger'), 'every 10s');
  await shot(page, 'overview-refresh-failed');

  // The next refresh that answers replaces the figures and the sentence with them.
  await page.unroute('**/partials/stats');
  await shown.waitFor({ state: 'detached', timeout: 15000 });
  assert.equal(await stats.count(), 1);
  assert.deepEqual(errors, []);
  await page.close();
});
