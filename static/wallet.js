// nodeledger's wallet snippet: connect, sign in, sign out, pay, withdraw and record a node through
// the browser's EIP-1193 wallet (window.ethereum). No framework, no bundler. Buttons say what they
// do in data-wallet; the CSP forbids inline handlers, so one listener serves them all.
(() => {
  'use strict';
  const eth = window.ethereum;

  // Without a wallet the buttons would do nothing: say so instead.
  document.addEventListener('DOMContentLoaded', () => {
    if (eth) return;
    for (const b of document.querySelectorAll('[data-wallet]:not([data-wallet=copy])')) {
      b.disabled = true;
      b.title = 'No browser wallet found (EIP-1193)';
    }
  });

  const say = (el, text, bad) => {
    const out = el.closest('[data-wallet-scope]')?.querySelector('[data-wallet-out]') || el.parentElement;
    let p = out.querySelector('.wallet-msg');
    if (!p) { p = document.createElement('p'); p.className = 'wallet-msg'; out.appendChild(p); }
    p.textContent = text;
    p.classList.toggle('bad', !!bad);
  };

  const account = async () => (await eth.request({ method: 'eth_requestAccounts' }))[0];

  const hexUTF8 = (s) => '0x' + [...new TextEncoder().encode(s)].map((b) => b.toString(16).padStart(2, '0')).join('');

  // toWei reads an ETH amount exactly, as decimal digits: no float ever touches it.
  const toWei = (eth) => {
    const m = /^\s*(\d+)(?:\.(\d{0,18}))?\s*$/.exec(eth);
    if (!m) throw new Error('Write the amount in ETH, e.g. 0.05');
    return BigInt(m[1]) * 10n ** 18n + BigInt((m[2] || '').padEnd(18, '0'));
  };

  const word = (hex) => hex.replace(/^0x/, '').padStart(64, '0');

  const post = (url, body) => fetch(url, {
    method: 'POST', credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

  const actions = {
    async signin(b) {
      const address = await account();
      const nonce = await fetch('/api/auth/nonce?address=' + address, { credentials: 'same-origin' });
      if (!nonce.ok) throw new Error((await nonce.json()).error);
      const { message } = await nonce.json();
      const signature = await eth.request({ method: 'personal_sign', params: [hexUTF8(message), address] });
      const res = await post('/api/auth/verify', { address, signature });
      if (!res.ok) throw new Error((await res.json()).error);
      location.assign(b.dataset.next || '/me');
    },
    async signout() {
      await post('/api/auth/logout');
      location.assign('/');
    },
    async pay(b) {
      const from = await account();
      const hash = await eth.request({ method: 'eth_sendTransaction', params: [{
        from, to: b.dataset.to, value: '0x' + BigInt(b.dataset.value).toString(16),
      }] });
      say(b, 'Payment sent: ' + hash + '. Your node appears once the payment is confirmed and minted.');
    },
    async withdraw(b) {
      const scope = b.closest('[data-wallet-scope]');
      const amount = toWei(scope.querySelector('[name=amount]').value);
      const from = await account();
      const to = scope.querySelector('[name=to]').value.trim() || from;
      if (!/^0x[0-9a-fA-F]{40}$/.test(to)) throw new Error('The destination is not an address.');
      const data = b.dataset.selector + word(BigInt(b.dataset.node).toString(16)) + word(to) + word(amount.toString(16));
      const hash = await eth.request({ method: 'eth_sendTransaction', params: [{ from, to: b.dataset.factory, data }] });
      say(b, 'Withdrawal sent: ' + hash + '.');
    },
    async sync(b) {
      const res = await post('/api/nodes/sync', { nodeId: b.dataset.node });
      if (!res.ok) throw new Error((await res.json()).error);
      location.reload();
    },
    async copy(b) {
      await navigator.clipboard.writeText(b.dataset.copy);
      say(b, 'Copied.');
    },
  };

  document.addEventListener('click', async (e) => {
    const b = e.target.closest('[data-wallet]');
    if (!b) return;
    e.preventDefault();
    try {
      await actions[b.dataset.wallet](b);
    } catch (err) {
      say(b, err.message || String(err), true);
    }
  });
})();
