// What every browser test file shares: the Chromium, the dev chain, a wallet for a page, and
// screenshots. web/browser_test.go starts the server and passes the environment: BASE_URL,
// RPC_URL, CHAIN_ID, CRON_KEY, ADMIN_KEY, the dev accounts' keys (BUYER_KEY, SECOND_BUYER_KEY,
// THIRD_BUYER_KEY, MINTER_KEY, PAYMENTS_KEY, FUNDER_KEY, SECOND_OWNER_KEY: FUNDER_KEY's account
// and SECOND_OWNER_KEY's own the treasury Safe), the holding token (TOKEN_ADDRESS: the first three
// buyers hold 1,000 of it, a fresh account none), BROWSER_ENDPOINT (the shared Chromium) and ARTIFACTS; refunds.test.mjs also
// gets TREASURY_ADDRESS and CONFIRMATIONS, and its own server's BASE_URL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { createWalletClient, createPublicClient, http, defineChain, parseEther } from 'viem';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';

export const env = process.env;
export const base = env.BASE_URL;
mkdirSync(env.ARTIFACTS, { recursive: true });

// The Chromium every file shares (chromium.mjs); closing this connection closes the contexts and
// pages the file made, not the browser.
export const browser = await chromium.connect(env.BROWSER_ENDPOINT);
test.after(() => browser.close());

// open loads path in a new page, collecting script errors and CSP violations.
export async function open(path, viewport = { width: 1024, height: 800 }) {
  const page = await browser.newPage({ viewport });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  const res = await page.goto(base + path);
  return { page, res, errors };
}

export const chain = defineChain({ id: Number(env.CHAIN_ID), name: 'dev', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [env.RPC_URL] } } });
export const client = createPublicClient({ chain, transport: http() });
export const walletOf = (key) => createWalletClient({ account: privateKeyToAccount(key), chain, transport: http() });

// freshAccount is a new key holding eth ETH, funded by the dev chain's owner: a buyer with no
// history, so that a test does not depend on what the others bought.
export async function freshAccount(eth = '10') {
  const key = generatePrivateKey();
  const hash = await walletOf(env.FUNDER_KEY).sendTransaction({ to: privateKeyToAccount(key).address, value: parseEther(eth) });
  await client.waitForTransactionReceipt({ hash });
  return key;
}

// withWallet gives the pages of a context a wallet backed by a dev account's key held here, in
// Node, as an extension provides one: window.ethereum (EIP-1193), also announced with EIP-6963.
// Options: chainId, the chain it starts on (the dev chain by default; it refuses to send on any
// other, since no test may); knowsDevChain, false for a wallet that must be asked to add the dev
// chain (wallet_switchEthereumChain answers 4902 until then); slow, milliseconds the person
// takes to answer a transaction prompt; declineSwitch, a person who declines the wallet's prompt
// to switch networks (4001); name and rdns, as announced; others, more wallets
// ({name, rdns}) to announce beside it, which decline everything. It returns the account with
// calls: every request the pages made of it, in order, across page loads (each page also keeps
// its own in window.__walletCalls).
export async function withWallet(context, key, { chainId = chain.id, knowsDevChain = true, slow = 0, declineSwitch = false,
  name = 'Test Wallet', rdns = 'org.nodeledger.testwallet', others = [] } = {}) {
  const account = privateKeyToAccount(key);
  const wallet = createWalletClient({ account, chain, transport: http() });
  const calls = [];
  let current = chainId;
  let known = knowsDevChain;
  const refuse = (code, message) => Object.assign(new Error(message), { code });
  const answer = async (method, params) => {
    switch (method) {
      case 'eth_requestAccounts':
      case 'eth_accounts':
        return [account.address];
      case 'eth_chainId':
        return '0x' + current.toString(16);
      case 'wallet_switchEthereumChain': {
        if (declineSwitch) throw refuse(4001, 'User rejected the request.');
        const id = Number(params[0].chainId);
        if (id !== chainId && (id !== chain.id || !known)) throw refuse(4902, 'Unrecognized chain ID');
        current = id;
        return null;
      }
      case 'wallet_addEthereumChain':
        if (Number(params[0].chainId) !== chain.id || params[0].rpcUrls?.[0] !== env.RPC_URL) throw refuse(-32602, 'test wallet: not the dev chain');
        known = true;
        current = chain.id; // as wallets do, it switches to the chain it added
        return null;
      case 'personal_sign':
        return account.signMessage({ message: { raw: params[0] } });
      case 'eth_signTypedData_v4': {
        // As wallets do: the typed data as JSON, for the account named; viem makes the domain's
        // type from the domain's own fields, as EIP712Domain lists them.
        if (params[0].toLowerCase() !== account.address.toLowerCase()) throw refuse(4100, 'test wallet: not this account');
        const { domain, types: { EIP712Domain, ...types }, primaryType, message } = JSON.parse(params[1]);
        return account.signTypedData({ domain, types, primaryType, message });
      }
      case 'eth_getTransactionReceipt':
        return client.request({ method, params });
      case 'eth_call':
        return (await client.call({ to: params[0].to, data: params[0].data })).data;
      case 'eth_sendTransaction': {
        await sleep(slow);
        if (current !== chain.id) throw refuse(-32000, 'test wallet: not on the dev chain');
        const tx = params[0];
        return wallet.sendTransaction({ to: tx.to, data: tx.data, value: tx.value ? BigInt(tx.value) : undefined });
      }
    }
    throw refuse(4200, 'unsupported method ' + method);
  };
  await context.exposeFunction('nodeledgerTestWallet', async (method, params) => {
    calls.push({ method, params });
    try {
      return { result: await answer(method, params), chainId: '0x' + current.toString(16) };
    } catch (e) {
      // As wallets do, a refused call carries the contract's revert data.
      let data;
      for (let c = e; c && data === undefined; c = c.cause) if (typeof c.data === 'string' && c.data.startsWith('0x')) data = c.data;
      return { error: { code: e.code ?? -32603, message: e.message, data }, chainId: '0x' + current.toString(16) };
    }
  });
  await context.addInitScript(({ name, rdns, others }) => {
    window.__walletCalls = [];
    const listeners = {};
    const emit = (event, value) => (listeners[event] || []).forEach((f) => f(value));
    let chainId = null;
    const provider = {
      async request({ method, params }) {
        window.__walletCalls.push({ method, params: params || [] });
        const answer = await window.nodeledgerTestWallet(method, params || []);
        if (chainId !== null && answer.chainId !== chainId) emit('chainChanged', answer.chainId);
        chainId = answer.chainId;
        if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code, data: answer.error.data });
        return answer.result;
      },
      on(event, f) { (listeners[event] ||= []).push(f); return provider; },
      removeListener(event, f) { listeners[event] = (listeners[event] || []).filter((g) => g !== f); return provider; },
    };
    const icon = (color) => 'data:image/svg+xml,' + encodeURIComponent(
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 20"><circle cx="10" cy="10" r="9" fill="${color}"/></svg>`);
    const declines = { async request() { throw Object.assign(new Error('User rejected the request.'), { code: 4001 }); } };
    const announced = [[{ name, rdns, icon: icon('#2454d6') }, provider], ...others.map((o) => [{ ...o, icon: icon('#c62828') }, declines])]
      .map(([info, p], i) => ({ info: Object.freeze({ uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, ...info }), provider: p }));
    const announce = () => announced.forEach((detail) =>
      window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze(detail) })));
    window.addEventListener('eip6963:requestProvider', announce);
    announce();
    window.ethereum = provider;
  }, { name, rdns, others });
  return Object.assign({}, account, { calls });
}

// signInOperator opens /operator in a new page of context, whose wallet (withWallet) is an
// operator's, and signs in as buyers do: the wallet signs the Sign-In with Ethereum message.
export async function signInOperator(context) {
  const page = await context.newPage();
  await page.goto(base + '/operator');
  await Promise.all([page.waitForURL(base + '/operator', { waitUntil: 'load' }), page.click('[data-testid=operator-signin]')]);
  await page.waitForSelector('[data-testid=operator-role]');
  return page;
}

// reconcile runs the reconciler pass, which has no cron route: the Go test serves it at
// /test/reconcile for the browser tests.
export async function reconcile() {
  const res = await fetch(base + '/test/reconcile', { method: 'POST' });
  return res.json();
}

// cron runs a pass through its cron route and returns its summary.
export async function cron(pass) {
  const res = await fetch(base + '/api/cron/' + pass, { method: 'POST', headers: { 'x-cron-key': env.CRON_KEY } });
  return res.json();
}

// payment is the payment of hash as its buyer reads it (GET /api/payments/{hash}: its answer, a
// 404's error included).
export const payment = async (hash) => (await fetch(base + '/api/payments/' + hash)).json();

// passUntil runs payments passes until each payment of hashes (one hash or several) is in one
// of statuses, and returns them (one, or each): the scan waits for CONFIRMATIONS blocks first.
export async function passUntil(hashes, ...statuses) {
  const all = [hashes].flat();
  let now = [];
  for (let i = 0; i < 120; i++) {
    await cron('payments');
    now = await Promise.all(all.map(payment));
    if (now.every((p) => statuses.includes(p.status))) return Array.isArray(hashes) ? now : now[0];
    await sleep(500);
  }
  throw new Error(`payments ${all.join(', ')} are ${JSON.stringify(now)}, not ${statuses.join(' or ')}`);
}

export const shot = (page, name) => page.screenshot({ path: `${env.ARTIFACTS}/${name}.png`, fullPage: true });
export const text = (page, id) => page.locator(`[data-testid="${id}"]`).innerText();
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// admin calls the operator's API with the admin key; a string body goes as CSV (an allowlist).
export const admin = (method, path, body) => fetch(base + '/api/admin' + path, {
  method, body: typeof body === 'string' ? body : body && JSON.stringify(body),
  headers: { 'x-admin-key': env.ADMIN_KEY, 'content-type': typeof body === 'string' ? 'text/csv' : 'application/json' },
});

// putTier makes tier id of the calling file, on sale unless fields say otherwise; its price is
// its own (0.3<id> ETH), so that no other tier's payment buys it.
export async function putTier(id, fields = {}) {
  const res = await admin('PUT', `/tiers/${id}`, { label: `Sale ${id}`, priceWei: parseEther(`0.3${id}`).toString(), maxPerWallet: 5,
    holdingWei: '0', holdingToken: null, enabled: true, confirm: true, ...fields });
  const body = await res.text();
  assert.equal(res.status, 200, `PUT tier ${id}: ${body}`);
  return JSON.parse(body);
}

// switchOff takes a file's tiers off /buy again (one a failed test never made is no tier: 404).
export const switchOff = async (...ids) => {
  for (const id of ids) assert.ok([200, 404].includes((await admin('POST', `/tiers/${id}/off-sale`)).status));
};

// executionTx waits until a batch page's Execute says which transaction it sent, as "Execution
// sent: 0x…" or, once mined, "Executed in block N by 0x…" (a chain that mines at once replaces
// the first before a poll may see it), and returns its hash.
export async function executionTx(page) {
  const msg = page.locator('[data-testid=batch-execute] .wallet-msg', { hasText: /(Execution sent: |Executed in block \d+ by )0x[0-9a-f]{64}/ });
  await msg.waitFor();
  return (await msg.innerText()).match(/0x[0-9a-f]{64}/)[0];
}

// smallTargets are what a finger presses on page, at a phone's 390 px, under 44 px tall: each
// visible button, link drawn as a button, summary and form field (selector narrows them), as
// "its text or markup (height px)".
export async function smallTargets(page, selector = 'button, a.button, summary, input, select, textarea') {
  const before = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  const small = await page.locator(selector).evaluateAll((els) => els
    .filter((e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden' && e.type !== 'hidden')
    // A box to tick is pressed through its label too.
    .filter((e) => Math.max(e.getBoundingClientRect().height, ['checkbox', 'radio'].includes(e.type) ? e.closest('label')?.getBoundingClientRect().height ?? 0 : 0) < 44)
    .map((e) => `${(e.textContent.trim() || e.outerHTML.slice(0, 80))} (${e.getBoundingClientRect().height}px)`));
  if (before) await page.setViewportSize(before);
  return small;
}
