// nodeledger's wallet snippet: finds the browser's wallets (EIP-6963, else window.ethereum), keeps
// the header's connect control, and serves the data-wallet buttons: sign in, pay, withdraw,
// refund, sign and execute a treasury refund batch, change a tier's payout (the factory
// owner's), record a node; it ticks /buy's countdowns and shows the sentence of a failed htmx
// request. No framework, no bundler; the CSP forbids inline handlers, so one delegated listener
// serves every button. The script is deferred: the body exists when it runs.
(() => {
  'use strict';
  const body = document.body.dataset;
  const site = {
    chainId: body.chainId ? BigInt(body.chainId) : null,
    network: body.network || 'the network of this service',
    rpc: body.rpc || '',
    explorer: body.explorer || '',
  };

  // A Sentence is a failure already written for the person reading the page.
  class Sentence extends Error {}
  const fail = (text) => { throw new Sentence(text); };

  const short = (hex) => (hex.length > 14 ? hex.slice(0, 6) + '…' + hex.slice(-4) : hex);
  const word = (hex) => hex.replace(/^0x/, '').padStart(64, '0');
  const hexValue = (wei) => '0x' + BigInt(wei).toString(16);
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

  const NO_WALLET = 'No wallet found in this browser: install a wallet extension to use this button.';
  const wrongNetwork = () => `Your wallet is on another network: switch it to ${site.network} (chain id ${site.chainId}) first. Nothing was sent.`;
  const unknownChain = () => `Your wallet does not know ${site.network}: add it by hand with chain id ${site.chainId}, then switch to it.`;

  // The factory's custom errors (chain/contracts/NodeFactory.sol) by 4-byte selector, the first
  // bytes of keccak256("Name()"), which is what a wallet reports of a refused call.
  // web/wallet_test.go checks this table against the contract's ABI.
  const contractErrors = {
    '0x30cd7471': ['NotOwner', 'Only the owner of the factory contract may do this.'],
    '0xf8d2906c': ['NotMinter', 'Only the service\'s minter may mint nodes.'],
    '0x385296d5': ['NotDistributor', 'Only the service\'s distributor may credit nodes.'],
    '0xd08a05d5': ['NotNodeOwner', 'This wallet does not own this node: connect the owner\'s wallet.'],
    '0xeb560756': ['MintingPaused', 'Minting is paused for now.'],
    '0x15a81232': ['PaymentRefUsed', 'This payment has already minted its node.'],
    '0x163faaa1': ['WalletFull', 'That wallet already holds as many nodes as one wallet may.'],
    '0x0b3d339f': ['RoundUsed', 'This distribution round has already been credited.'],
    '0x8b7114df': ['UnknownNode', 'The contract does not know this node.'],
    '0xd92e233d': ['ZeroAddress', 'The destination cannot be the zero address.'],
    '0xf4d678b8': ['InsufficientBalance', 'The amount is more than the node\'s balance.'],
    '0xfc220038': ['Insolvent', 'The contract holds less than it owes, so it refused this for now.'],
    '0x90b8ec18': ['TransferFailed', 'The destination did not accept the ETH: withdraw to another address.'],
    '0xb5dfd9e5': ['Reentered', 'The contract refused a call made from inside another of its calls.'],
    '0x06250401': ['AmountTooLarge', 'The amount is larger than the contract accepts.'],
    '0x57827b43': ['NodeCountChanged', 'A node was minted while this round was prepared: the round is prepared again.'],
    '0x18423b7b': ['WeightsChanged', 'A tier\'s payout changed while this round was prepared: the round is prepared again.'],
    '0xe5f127cc': ['WeightTooLarge', 'A tier earns at most 10× the base: write 10 or less.'],
  };
  // The EIP-712 types of a Safe 1.4.1 transaction: its domain is the chain and the Safe, with no
  // name or version, and SafeTx's fields are in the order its SAFE_TX_TYPEHASH names them
  // (chain.SafeTxType; web/wallet_test.go holds the two together).
  const SAFE_DOMAIN = [{ name: 'chainId', type: 'uint256' }, { name: 'verifyingContract', type: 'address' }];
  const SAFE_TX = [
    { name: 'to', type: 'address' }, { name: 'value', type: 'uint256' }, { name: 'data', type: 'bytes' },
    { name: 'operation', type: 'uint8' }, { name: 'safeTxGas', type: 'uint256' }, { name: 'baseGas', type: 'uint256' },
    { name: 'gasPrice', type: 'uint256' }, { name: 'gasToken', type: 'address' }, { name: 'refundReceiver', type: 'address' },
    { name: 'nonce', type: 'uint256' },
  ];
  // NODE_INFO is the selector of nodeInfo(uint256), the view the withdraw form reads balances with.
  const NODE_INFO = '0xb02439ae';
  // ERC-20's balanceOf(address) and transfer(address,uint256), for paying in a token.
  const BALANCE_OF = '0x70a08231';
  const TRANSFER = '0xa9059cbb';

  // texts gathers the strings a wallet error carries, however deeply its library nested them.
  const texts = (v, depth = 0, out = []) => {
    if (typeof v === 'string') out.push(v);
    else if (v && typeof v === 'object' && depth < 5) {
      for (const k of ['message', 'data', 'error', 'cause', 'originalError', 'details']) texts(v[k], depth + 1, out);
    }
    return out;
  };
  const codeOf = (err) => err?.code ?? err?.data?.originalError?.code ?? err?.error?.code;

  // sentence turns any failure into one sentence: never a library's message or calldata.
  const sentence = (err, fallback) => {
    if (err instanceof Sentence) return err.message;
    switch (codeOf(err)) {
      case 4001: return 'You declined the request in your wallet.';
      case -32002: return 'Your wallet already has a request waiting: open it and answer or close that request first.';
      case 4902: return unknownChain();
      case 4100: return 'Your wallet has not allowed this site yet: connect it first.';
      case 4900: case 4901: return 'Your wallet is not connected to a network right now.';
    }
    const all = texts(err);
    for (const s of all) {
      for (const [sel] of s.matchAll(/0x[0-9a-f]{8}(?![0-9a-f])/gi)) {
        const known = contractErrors[sel.toLowerCase()];
        if (known) return known[1];
      }
    }
    const joined = all.join(' ');
    if (/insufficient funds/i.test(joined)) return 'This wallet does not hold enough ETH for the amount and the network fee.';
    if (/wrong (network|chain)|does not match the target chain/i.test(joined)) return wrongNetwork();
    if (/revert/i.test(joined)) return 'The contract refused this transaction, so nothing was sent.';
    if (err instanceof TypeError && /fetch/i.test(err.message)) return 'The service could not be reached: check your connection and try again.';
    return fallback;
  };

  // The wallets this browser offers, by rdns (EIP-6963), and the one connected.
  const STORE_KEY = 'nodeledger.wallet';
  const INJECTED = 'window.ethereum';
  const wallets = new Map(); // rdns -> {rdns, name, icon, provider}
  let current = null; // {wallet, account (lower case), chainId (BigInt)}
  let choosing = false; // the header lists the wallets to choose from
  let settled = false; // wallets had their time to announce themselves

  const remembered = () => { try { return localStorage.getItem(STORE_KEY); } catch { return null; } };
  const remember = (rdns) => { try { localStorage.setItem(STORE_KEY, rdns); } catch { /* private mode */ } };
  const forget = () => { try { localStorage.removeItem(STORE_KEY); } catch { /* private mode */ } };

  const isProvider = (p) => p && typeof p.request === 'function';

  window.addEventListener('eip6963:announceProvider', (e) => {
    const { info, provider } = e.detail || {};
    if (!info || typeof info.rdns !== 'string' || !isProvider(provider)) return;
    if (wallets.get(info.rdns)?.provider === provider) return; // announced again: keep what we follow
    // window.ethereum is one of the announced wallets: list it only when none announces.
    if (current?.wallet.rdns !== INJECTED) wallets.delete(INJECTED);
    const icon = typeof info.icon === 'string' && info.icon.startsWith('data:image/') ? info.icon : '';
    wallets.set(info.rdns, { rdns: info.rdns, name: String(info.name || info.rdns), icon, provider });
    update();
    resume();
  });

  const addInjected = () => {
    if (!wallets.size && isProvider(window.ethereum)) {
      wallets.set(INJECTED, { rdns: INJECTED, name: 'Browser wallet', icon: '', provider: window.ethereum });
    }
  };

  // attach makes w the connected wallet and follows what its person changes in it.
  const attach = async (w, account) => {
    const chainId = BigInt(await w.provider.request({ method: 'eth_chainId' }));
    if (!w.followed && typeof w.provider.on === 'function') {
      w.followed = true;
      w.provider.on('accountsChanged', (accounts) => {
        if (current?.wallet !== w) return;
        if (accounts?.[0]) current.account = accounts[0].toLowerCase();
        else current = null;
        update();
      });
      w.provider.on('chainChanged', (id) => {
        if (current?.wallet !== w) return;
        current.chainId = BigInt(id);
        update();
      });
    }
    current = { wallet: w, account: account.toLowerCase(), chainId };
    choosing = false;
    remember(w.rdns);
    update();
    return current.account;
  };

  const connectTo = async (w) => {
    if (!w) fail('That wallet is gone from this browser: reload the page and try again.');
    const [account] = await w.provider.request({ method: 'eth_requestAccounts' });
    if (!account) fail('Your wallet shared no account with this site.');
    return attach(w, account);
  };

  // resume reconnects the wallet chosen on an earlier page, without a prompt: eth_accounts
  // answers only when the wallet already allows this site.
  let resuming = false;
  const resume = async () => {
    const w = wallets.get(remembered());
    if (current || resuming || !w) return;
    resuming = true;
    try {
      const [account] = await w.provider.request({ method: 'eth_accounts' });
      if (account) await attach(w, account);
    } catch { /* the person connects by hand */ } finally {
      resuming = false;
    }
  };

  // ensureAccount is the connected account, connecting first when there is one wallet to ask.
  const ensureAccount = async () => {
    if (current) return current.account;
    if (!wallets.size) fail(NO_WALLET);
    const w = wallets.get(remembered()) || (wallets.size === 1 ? [...wallets.values()][0] : null);
    if (w) return connectTo(w);
    choosing = true;
    update();
    fail('Choose your wallet at the top of the page, then press the button again.');
  };

  // ensureChain stops anything that would send on another chain than the service's.
  const ensureChain = async () => {
    if (site.chainId === null) fail('This page does not say which network to use: reload it and try again.');
    const id = BigInt(await current.wallet.provider.request({ method: 'eth_chainId' }));
    if (id !== current.chainId) {
      current.chainId = id;
      update();
    }
    if (id !== site.chainId) fail(wrongNetwork());
  };

  // send is the only way a transaction is asked for: always after the chain check.
  const send = async (tx) => {
    await ensureChain();
    return current.wallet.provider.request({ method: 'eth_sendTransaction', params: [tx] });
  };

  const switchChain = async () => {
    const p = current.wallet.provider;
    const chainId = '0x' + site.chainId.toString(16);
    try {
      await p.request({ method: 'wallet_switchEthereumChain', params: [{ chainId }] });
    } catch (err) {
      if (codeOf(err) !== 4902) throw err;
      if (!site.rpc) fail(unknownChain());
      await p.request({ method: 'wallet_addEthereumChain', params: [{
        chainId, chainName: site.network, rpcUrls: [site.rpc],
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        ...(site.explorer ? { blockExplorerUrls: [site.explorer] } : {}),
      }] });
    }
    current.chainId = BigInt(await p.request({ method: 'eth_chainId' }));
    update();
  };

  // toChain puts the wallet on the site's network before a payment: a Pay button pressed on
  // another network asks the wallet to switch (to add the network where it must), then pays.
  const toChain = async () => {
    const id = BigInt(await current.wallet.provider.request({ method: 'eth_chainId' }));
    if (id !== site.chainId) await switchChain();
    await ensureChain();
  };

  // On the wrong network a Pay button says what pressing it does first; its own label comes
  // back once the wallet is on the site's network.
  const markNetwork = () => {
    const wrong = !!current && current.chainId !== site.chainId;
    for (const b of document.querySelectorAll('[data-wallet=pay], [data-wallet=paytoken]')) {
      if (b.dataset.busy) continue;
      if (wrong && !b.dataset.payLabel) {
        b.dataset.payLabel = b.textContent;
        b.textContent = `Switch to ${site.network} and pay`;
      } else if (!wrong && b.dataset.payLabel) {
        b.textContent = b.dataset.payLabel;
        delete b.dataset.payLabel;
      }
    }
  };

  // h builds an element; strings become text, never markup (wallet names come from wallets).
  const h = (tag, attrs, ...kids) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    e.append(...kids.filter((k) => k !== null));
    return e;
  };

  // The header's control: connect, choose among several wallets, or the connected account and
  // its network, with a switch button when that is the wrong one.
  const renderHeader = () => {
    const slot = document.querySelector('[data-wallet-connect]');
    if (!slot) return;
    let box = slot.querySelector('.wallet');
    if (!box) {
      box = h('span', { class: 'wallet', 'data-wallet-scope': '' }, h('span', { 'data-wallet-state': '' }), h('span', { 'data-wallet-out': '' }));
      slot.append(box);
    }
    const state = box.querySelector('[data-wallet-state]');
    if (current) {
      const right = current.chainId === site.chainId;
      state.replaceChildren(...[
        h('span', { class: 'account', title: current.account, 'data-testid': 'wallet-account' }, short(current.account)),
        right
          ? h('span', { class: 'network', 'data-testid': 'wallet-network' }, site.network)
          : h('span', { class: 'bad', title: 'Chain id ' + current.chainId, 'data-testid': 'wrong-network' }, 'Wrong network'),
        right ? null : h('button', { type: 'button', 'data-wallet': 'switch', 'data-testid': 'switch-network' }, 'Switch to ' + site.network),
        h('button', { type: 'button', class: 'link', 'data-wallet': 'disconnect' }, 'Disconnect'),
      ].filter((e) => e !== null));
    } else if (choosing && wallets.size > 1) {
      state.replaceChildren(h('span', { class: 'muted' }, 'Choose a wallet:'), ...[...wallets.values()].map((w) =>
        h('button', { type: 'button', class: 'choice', 'data-wallet': 'choose', 'data-rdns': w.rdns, 'data-testid': 'wallet-choice' },
          w.icon ? h('img', { src: w.icon, alt: '', width: '20', height: '20' }) : null, w.name)));
    } else if (wallets.size) {
      state.replaceChildren(h('button', { type: 'button', 'data-wallet': 'connect', 'data-testid': 'connect-wallet' }, 'Connect wallet'));
    } else {
      state.replaceChildren(settled ? h('span', { class: 'muted', 'data-testid': 'no-wallet' }, 'No wallet found') : '');
    }
  };

  // The buttons that need a wallet: disabled, with the reason beside them, when there is none.
  const needsWallet = new Set(['pay', 'paytoken', 'withdraw', 'max', 'signin', 'refund', 'weight', 'approve', 'execute']);
  const markButtons = () => {
    const none = settled && !wallets.size;
    // Where the page offers a wallet app instead (/buy), its Pay buttons give way to it, and one
    // card says why, rather than "no wallet" beside each.
    const apps = document.querySelectorAll('[data-wallet-app]');
    for (const a of apps) a.hidden = !none;
    for (const b of document.querySelectorAll('[data-wallet=pay], [data-wallet=paytoken]')) {
      if (apps.length) b.hidden = none;
    }
    for (const b of document.querySelectorAll('[data-wallet]')) {
      if (!needsWallet.has(b.dataset.wallet) || b.dataset.busy || b.hidden) continue;
      const reason = b.nextElementSibling?.classList.contains('wallet-reason') ? b.nextElementSibling : null;
      if (none && !reason) {
        b.disabled = true;
        b.after(h('span', { class: 'wallet-reason muted', 'data-testid': 'no-wallet-reason' }, NO_WALLET));
      } else if (!none && reason) {
        b.disabled = false;
        reason.remove();
      }
    }
  };

  // The withdraw form is the owner's: shown when the connected account owns the node.
  const revealOwner = () => {
    for (const form of document.querySelectorAll('form[data-owner]')) {
      const mine = !!current && current.account === form.dataset.owner.toLowerCase();
      form.hidden = !mine;
      for (const how of form.parentElement.querySelectorAll('[data-owner-how]')) how.hidden = mine;
    }
  };

  // A page whose figures are a wallet's (/buy: what it holds of each tier, its token threshold)
  // says whose in data-for-wallet; once a wallet connects, htmx brings the connected one's.
  const followWallet = () => {
    const root = document.querySelector('[data-for-wallet]');
    if (!current || !root || !window.htmx || root.dataset.forWallet === current.account) return;
    root.dataset.forWallet = current.account; // asked once per account
    refreshFigures(root);
  };

  // refreshFigures brings the page's wallet figures again, for the connected wallet if any.
  const refreshFigures = (root) => {
    // A press that connected the wallet is under way: swapping its button out would lose what
    // it says next. The figures follow on the next page.
    if (root.querySelector('[data-wallet][data-busy]')) return;
    const url = new URL(location.href);
    if (current) url.searchParams.set('wallet', current.account);
    window.htmx.ajax('GET', url.pathname + url.search, { target: root, select: '[data-for-wallet]', swap: 'outerHTML' });
  };

  // Countdowns (/buy: when a tier opens, when its allowlist phase or its sale ends) tick each
  // second; without JavaScript the page says the time and how long in words. At zero the
  // figures are fetched again, a moment later so the server's clock has passed it too, and at
  // most every ten seconds, so clocks that disagree cost a few requests, not a stream.
  const pad = (n) => String(n).padStart(2, '0');
  const remaining = (ms) => {
    const s = Math.ceil(ms / 1000);
    const d = Math.floor(s / 86400);
    return (d ? d + (d === 1 ? ' day ' : ' days ') : '') + `${pad(Math.floor((s % 86400) / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
  };
  let lastRefresh = 0;
  const tick = () => {
    for (const el of document.querySelectorAll('time[data-countdown]')) {
      const ms = Date.parse(el.dateTime) - Date.now();
      if (Number.isNaN(ms)) continue;
      if (ms > 0) {
        el.textContent = 'in ' + remaining(ms);
        continue;
      }
      el.textContent = 'now';
      delete el.dataset.countdown;
      if (window.htmx && Date.now() - lastRefresh > 10000) {
        lastRefresh = Date.now();
        setTimeout(() => {
          const root = document.querySelector('[data-for-wallet]');
          if (root) refreshFigures(root);
        }, 1500);
      }
    }
  };
  setInterval(tick, 1000);

  const update = () => {
    renderHeader();
    markButtons();
    markNetwork();
    revealOwner();
    followWallet();
  };
  // What htmx swaps in gets the same treatment as the page it lands in.
  document.addEventListener('htmx:afterSwap', (e) => {
    if (e.target.matches?.('[data-for-wallet]') || e.target.querySelector?.('[data-wallet]')) update();
  });

  // htmx swaps no 4xx or 5xx answer, so a failed request would change nothing on the page: the
  // error handler answers htmx with the sentence alone (views.ErrorFragment), shown here. In an
  // element that refreshes itself (the stats, the live view, a tracker) it goes first inside,
  // so the figures and their timer stay until the next answer replaces both; in a table row
  // ("Show older credits") it goes beside the link, which can be tried again; elsewhere it takes
  // the target's place with its id, so the next request finds the target again (the operator's
  // buttons all answer into #outcome).
  document.addEventListener('htmx:beforeSwap', (e) => {
    const d = e.detail;
    if (d.xhr.status < 400 || typeof d.serverResponse !== 'string') return;
    const error = new DOMParser().parseFromString(d.serverResponse, 'text/html').querySelector('body > [data-testid=error]');
    const t = d.target;
    if (!error || !t) return;
    d.shouldSwap = false;
    if (/\bevery\b/.test(t.getAttribute('hx-trigger') || '')) {
      t.querySelector(':scope > [data-testid=error]')?.remove();
      t.prepend(error);
    } else if (t.tagName === 'TR' && t.cells.length) {
      const cell = t.cells[t.cells.length - 1];
      cell.querySelector(':scope > [data-testid=error]')?.remove();
      cell.append(error);
    } else {
      if (t.id) error.id = t.id;
      t.replaceWith(error);
    }
  });

  const say = (el, text, bad) => {
    const out = el.closest('[data-wallet-scope]')?.querySelector('[data-wallet-out]') || el.parentElement;
    let p = out.querySelector('.wallet-msg');
    if (!text) return p?.remove();
    if (!p) {
      p = document.createElement(out.tagName === 'SPAN' ? 'span' : 'p');
      p.className = 'wallet-msg';
      p.setAttribute('role', 'status');
      out.appendChild(p);
    }
    p.textContent = text;
    p.classList.toggle('bad', !!bad);
  };

  // toWei reads an ETH amount exactly, as decimal digits: no float ever touches it.
  const toWei = (text) => {
    const m = /^\s*(\d*)(?:\.(\d*))?\s*$/.exec(text);
    if (!m || !(m[1] + (m[2] || ''))) fail('Write the amount in ETH with a point for decimals, such as 0.05.');
    if ((m[2] || '').length > 18) fail('ETH has at most 18 decimals: shorten the amount.');
    return BigInt(m[1] || '0') * 10n ** 18n + BigInt((m[2] || '').padEnd(18, '0'));
  };

  // toBps reads a payout multiplier exactly, in basis points: "1.5" is 15000.
  const toBps = (text) => {
    const m = /^\s*(\d*)(?:\.(\d*))?\s*[×xX]?\s*$/.exec(text);
    if (!m || !(m[1] + (m[2] || ''))) fail('Write the multiplier as a number, such as 1 or 1.5.');
    if ((m[2] || '').length > 4) fail('A multiplier has at most 4 decimals, such as 1.2345.');
    const bps = BigInt(m[1] || '0') * 10000n + BigInt((m[2] || '').padEnd(4, '0'));
    if (bps > 100000n) fail('A tier earns at most 10× the base: write 10 or less.');
    return bps;
  };

  // units writes base units of a token with decimals as its units, exactly: every digit, no
  // trailing zeros (300000000 at 6 is "300"); eth writes wei as ETH so.
  const units = (v, decimals) => {
    const s = v.toString().padStart(decimals + 1, '0');
    const frac = decimals ? s.slice(-decimals).replace(/0+$/, '') : '';
    return (decimals ? s.slice(0, -decimals) : s) + (frac ? '.' + frac : '');
  };
  const eth = (wei) => units(wei, 18);

  // nodeBalance reads the node's balance on chain, through the wallet: nodeInfo's third value.
  const nodeBalance = async (form) => {
    const data = NODE_INFO + word(BigInt(form.dataset.node).toString(16));
    const out = await current.wallet.provider.request({ method: 'eth_call', params: [{ to: form.dataset.factory, data }, 'latest'] });
    const balance = typeof out === 'string' ? out.slice(2 + 64 * 2, 2 + 64 * 3) : '';
    if (!/^[0-9a-fA-F]{64}$/.test(balance)) fail('The node\'s balance could not be read from the chain: try again.');
    return BigInt('0x' + balance);
  };

  const withdrawnWei = async (id) => {
    const res = await fetch('/api/node/' + id, { cache: 'no-store', credentials: 'same-origin' });
    return res.ok ? (await res.json()).withdrawnWei : null;
  };

  // mined waits for the receipt of hash through the wallet: null when the wallet cannot give
  // receipts, or none within five minutes (the ledger then speaks for it).
  const mined = async (provider, hash) => {
    for (let i = 0; i < 150; i++) {
      let r;
      try {
        r = await provider.request({ method: 'eth_getTransactionReceipt', params: [hash] });
      } catch {
        return null;
      }
      if (r && r.blockNumber) return r;
      await sleep(2000);
    }
    return null;
  };

  // confirm writes what a mined withdrawal paid out where the form was, for good: not a message
  // the next press clears, and it stays when the ledger's figures come.
  const confirm = (form, text) => {
    const scope = form.closest('[data-wallet-scope]');
    const p = h('p', { class: 'confirmation good', role: 'status', 'data-testid': 'paid-out-now' }, text);
    scope.querySelector('[data-wallet-out]').append(p);
  };

  // settle follows a sent withdrawal to its end: mined (paid out, or failed and nothing moved),
  // then recorded, when the page comes back with ?paid= to show the ledger's figures and its
  // confirmation, which stays on the page.
  const settle = async (b, form, hash, amount, to) => {
    const id = form.dataset.node;
    const receipt = await mined(current.wallet.provider, hash);
    if (receipt && receipt.status !== '0x1') {
      say(b, `The withdrawal failed on chain (${short(hash)}): the contract refused it, so nothing left node ${id}; only the network fee was spent.`, true);
      b.textContent = 'Withdraw';
      b.disabled = false;
      return;
    }
    if (receipt) confirm(form, `Paid out: ${eth(amount)} ETH from node ${id} to ${to}, in transaction ${hash}.`);
    for (let i = 0; i < 150; i++) {
      const now = await withdrawnWei(id).catch(() => null);
      if (now !== null && now !== form.dataset.withdrawn) {
        const url = new URL(location.href);
        url.searchParams.set('paid', hash);
        url.hash = 'paid-out';
        return location.replace(url.toString());
      }
      await sleep(2000);
    }
    say(b, 'The withdrawal is not recorded yet: reload the page in a while to see it in the figures.');
  };

  // Failures come back as {error}: accept says so to routes outside /api (/operator/login).
  const post = (url, body) => fetch(url, {
    method: 'POST', credentials: 'same-origin',
    headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // failed is the service's own sentence of a refused request ({error}, always one sentence).
  const failed = async (res) => fail((await res.json().catch(() => ({}))).error || 'The service refused this request: try again.');

  const hexUTF8 = (s) => '0x' + [...new TextEncoder().encode(s)].map((b) => b.toString(16).padStart(2, '0')).join('');

  // signIn opens a wallet session for address with one signature of the service's message (no
  // gas), checked by the verify route.
  const signIn = async (address, verify) => {
    const nonce = await fetch('/api/auth/nonce?address=' + address, { credentials: 'same-origin' });
    if (!nonce.ok) await failed(nonce);
    const { message } = await nonce.json();
    const signature = await current.wallet.provider.request({ method: 'personal_sign', params: [hexUTF8(message), address] });
    const res = await post(verify, { address, signature });
    if (!res.ok) await failed(res);
    body.signedIn = address;
  };

  // relabel holds a button's new label, which it keeps after its action ends (a price that
  // changed under the Pay button).
  const relabel = new WeakMap();

  // KEEP: the action succeeded and its button must stay disabled (the page moves on, or a
  // second press would send a second transaction).
  const KEEP = Symbol('keep');

  // precheck is the service's pre-check of a payment of b's tier from the account from, made
  // now (in b's token when it names one); it fails, with why, unless that payment would become a
  // node.
  const precheck = async (b, from) => {
    const token = b.dataset.token ? '?token=' + b.dataset.token : '';
    const res = await fetch(`/api/tiers/${encodeURIComponent(b.dataset.tier)}/check/${from}${token}`, { cache: 'no-store', headers: { accept: 'application/json' } });
    if (!res.ok) await failed(res);
    const check = await res.json();
    if (token && check.priceToken?.amount !== b.dataset.amount) {
      // The operator changed the token price since the page loaded: as for ETH below.
      const now = `${units(BigInt(check.priceToken.amount), check.priceToken.decimals)} ${check.priceToken.symbol}`;
      b.dataset.amount = check.priceToken.amount;
      b.dataset.pay = check.payToken.amount;
      relabel.set(b, `Pay ${tokenUnits(b, check.payToken.amount)}`);
      fail(`The price of this tier changed to ${now} since this page loaded. Nothing was sent.` +
        (check.ok ? ' Press the button again to pay the new price.' : ' ' + check.reason));
    }
    if (!token && check.priceWei !== b.dataset.value) {
      // The operator changed the price since the page loaded: the button takes the new one,
      // and the person presses it again knowingly.
      b.dataset.value = check.priceWei;
      b.dataset.pay = check.payWei;
      relabel.set(b, `Pay ${eth(BigInt(check.payWei))} ETH`);
      fail(`The price of this tier changed to ${eth(BigInt(check.priceWei))} ETH since this page loaded. Nothing was sent.` +
        (check.ok ? ' Press the button again to pay the new price.' : ' ' + check.reason));
    }
    if (!check.ok) fail((check.reason || 'The service would not accept this payment.') + ' Nothing was sent.');
    // Held: the payment would wait, not be refused, but the page asks people not to pay then.
    if (check.held) fail('The operator has paused sales for now: please pay once they resume. Nothing was sent.');
    if (check.tier && check.tier !== b.dataset.tier) {
      fail('A payment of this amount would now buy a node of another tier: reload the page to see the tiers as they stand. Nothing was sent.');
    }
    if (check.paymentAddress && check.paymentAddress.toLowerCase() !== b.dataset.to.toLowerCase()) {
      fail('The payments address changed since this page loaded: reload the page. Nothing was sent.');
    }
    return check;
  };

  // bind binds code to the account from, in a wallet session of it: one signature to sign in
  // when the page has none, or one of another account, or it has ended. A code the service
  // refuses (the wallet's own, expired…) leaves every Pay button of the page at the full price,
  // which buys the tier too.
  const bind = async (b, from, code) => {
    if ((body.signedIn || '').toLowerCase() !== from) await signIn(from, '/api/auth/verify');
    let res = await post('/api/referrals/bind', { code });
    if (res.status === 401) {
      await signIn(from, '/api/auth/verify');
      res = await post('/api/referrals/bind', { code });
    }
    if (res.status !== 404 && res.status !== 409) {
      if (!res.ok) await failed(res);
      return;
    }
    const why = (await res.json().catch(() => ({}))).error || `The code ${code} cannot be used.`;
    for (const p of document.querySelectorAll('[data-wallet=pay][data-ref], [data-wallet=paytoken][data-ref]')) {
      delete p.dataset.ref;
      p.dataset.pay = p.dataset.token ? p.dataset.amount : p.dataset.value;
      const label = `Pay ${fullPrice(p)}`;
      if (p === b) relabel.set(b, label);
      else p.textContent = label;
    }
    fail(`${why} Nothing was sent. You can still buy at the full price: press the button again to pay ${fullPrice(b)}.`);
  };

  // tokenUnits writes amount (base units) of token Pay button b's token: "285 USDC".
  const tokenUnits = (b, amount) => `${units(BigInt(amount), Number(b.dataset.decimals))} ${b.dataset.symbol}`;
  // fullPrice is a Pay button's price without a code, in its currency.
  const fullPrice = (b) => b.dataset.token ? tokenUnits(b, b.dataset.amount) : `${eth(BigInt(b.dataset.value))} ETH`;

  // track opens the tracker of payment hash, which pay button b just sent.
  const track = (b, hash) => {
    if (!/^0x[0-9a-fA-F]{64}$/.test(hash)) fail('Your wallet did not say which transaction it sent: look it up in your wallet.');
    b.textContent = 'Payment sent';
    location.assign('/payment/' + hash + '?sent=1'); // the tracker then knows it is the buyer's own
    return KEEP;
  };

  const actions = {
    async connect() {
      if (wallets.size === 1) {
        await connectTo([...wallets.values()][0]);
        return;
      }
      choosing = true;
      update();
    },
    async choose(b) {
      await connectTo(wallets.get(b.dataset.rdns));
    },
    async switch() {
      if (!current) fail('Connect your wallet first.');
      await switchChain();
    },
    async disconnect() {
      current = null;
      forget();
      update();
    },
    async signin(b) {
      // One sign-in for buyers and operators: the operator page's button names its own verify
      // route, which also checks the operator list.
      await signIn(await ensureAccount(), b.dataset.verify || '/api/auth/verify');
      location.assign(b.dataset.next || '/me');
      return KEEP;
    },
    async signout() {
      await post('/api/auth/logout');
      location.assign('/');
      return KEEP;
    },
    // pay asks the service, for the account the wallet will pay from, whether a payment of the
    // tier's price now would become a node, by the rules of the payments pass; only then does it
    // ask the wallet for the transfer, so a payment the service would refuse is never sent. With
    // the visit's referral code (data-ref) it first binds the code to the wallet, signing in when
    // the wallet has no session here, and pays the discounted price the pre-check then names.
    async pay(b) {
      const from = await ensureAccount();
      await toChain();
      let check = await precheck(b, from);
      const code = b.dataset.ref;
      if (code && (check.referralCode || '').toLowerCase() !== code.toLowerCase()) {
        await bind(b, from, code);
        check = await precheck(b, from);
      }
      if (check.payWei !== b.dataset.pay) {
        // The button said another amount (the code's terms changed, or the wallet is bound to
        // another code): it takes the pre-check's, and the person presses it again knowingly.
        b.dataset.pay = check.payWei;
        relabel.set(b, `Pay ${eth(BigInt(check.payWei))} ETH`);
        fail(`From this wallet the price is ${eth(BigInt(check.payWei))} ETH` +
          (check.referralCode ? `, with code ${check.referralCode}` : '') + '. Nothing was sent: press the button again to pay it.');
      }
      return track(b, await send({ from, to: b.dataset.to, value: hexValue(check.payWei) }));
    },
    // paytoken is pay for a tier's price in a token (data-token): the same pre-check and binding
    // of the visit's code as pay, then the wallet's balance, then the token's transfer(payments
    // wallet, amount) from the wallet: one transaction, no approval.
    async paytoken(b) {
      const from = await ensureAccount();
      await toChain();
      let check = await precheck(b, from);
      const code = b.dataset.ref;
      if (code && (check.referralCode || '').toLowerCase() !== code.toLowerCase()) {
        await bind(b, from, code);
        check = await precheck(b, from);
      }
      if (check.payToken.amount !== b.dataset.pay) {
        // As for ETH: the button takes the pre-check's amount, pressed again knowingly.
        b.dataset.pay = check.payToken.amount;
        relabel.set(b, `Pay ${tokenUnits(b, check.payToken.amount)}`);
        fail(`From this wallet the price is ${tokenUnits(b, check.payToken.amount)}` +
          (check.referralCode ? `, with code ${check.referralCode}` : '') + '. Nothing was sent: press the button again to pay it.');
      }
      const amount = BigInt(check.payToken.amount), decimals = Number(b.dataset.decimals), symbol = b.dataset.symbol;
      const out = await current.wallet.provider.request({ method: 'eth_call', params: [{ to: b.dataset.token, data: BALANCE_OF + word(from) }, 'latest'] });
      if (typeof out !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(out)) fail(`This wallet's ${symbol} balance could not be read from the chain: try again.`);
      if (BigInt(out) < amount) {
        fail(`This wallet holds ${units(BigInt(out), decimals)} ${symbol}, less than the price of ${units(amount, decimals)} ${symbol}. Nothing was sent.`);
      }
      return track(b, await send({ from, to: b.dataset.token, data: TRANSFER + word(b.dataset.to) + word(amount.toString(16)) }));
    },
    async max(b) {
      const form = b.closest('form[data-owner]');
      await ensureAccount();
      await ensureChain();
      form.querySelector('[name=amount]').value = eth(await nodeBalance(form));
    },
    async withdraw(b) {
      const form = b.closest('form[data-owner]');
      const from = await ensureAccount();
      const owner = form.dataset.owner.toLowerCase();
      if (from !== owner) fail(`This wallet does not own this node: connect the owner's wallet, ${owner}.`);
      const amount = toWei(form.querySelector('[name=amount]').value);
      if (amount === 0n) fail('Write an amount above 0.');
      const to = form.querySelector('[name=to]').value.trim() || from;
      if (!/^0x[0-9a-fA-F]{40}$/.test(to)) fail('The destination is not an address: write 0x and 40 hex digits, or leave it empty for your own wallet.');
      await ensureChain();
      const balance = await nodeBalance(form);
      if (amount > balance) fail(`That is more than this node's balance of ${eth(balance)} ETH.`);
      const data = form.dataset.selector + word(BigInt(form.dataset.node).toString(16)) + word(to) + word(amount.toString(16));
      const hash = await send({ from, to: form.dataset.factory, data });
      say(b, `Withdrawal sent (${short(hash)}): ${eth(amount)} ETH to ${to.toLowerCase()}… waiting for it to be recorded.`);
      b.textContent = 'Withdrawal sent';
      settle(b, form, hash, amount, to.toLowerCase());
      return KEEP;
    },
    async refund(b) {
      const from = await ensureAccount();
      const payments = b.dataset.payments.toLowerCase();
      if (from !== payments) fail(`Connect the payments wallet, ${payments}, to refund: the connected wallet is ${short(from)}.`);
      const hash = await send({ from, to: b.dataset.to, value: hexValue(b.dataset.value) });
      say(b, `Refund sent (${short(hash)}). It shows as refunded once the payments pass sees it.`);
      b.textContent = 'Refund sent';
      return KEEP;
    },
    // weight sends setTierWeight from the connected wallet: only the factory's owner may, and the
    // contract says so to anyone else. The page shows the new payout once it is mined.
    async weight(b) {
      const form = b.closest('form[data-weight]');
      const from = await ensureAccount();
      const bps = toBps(form.querySelector('[name=multiplier]').value);
      const data = form.dataset.selector + word(BigInt(form.dataset.tier).toString(16)) + word(bps.toString(16));
      const hash = await send({ from, to: form.dataset.factory, data });
      say(b, `Payout change sent (${short(hash)}): the rounds priced once it is mined pay it. Waiting for it to be mined…`);
      b.textContent = 'Payout change sent';
      // Once mined, the row says the new payout itself: nobody has to reload to see it.
      const receipt = await mined(current.wallet.provider, hash);
      if (receipt?.status === '0x1') {
        const x = `${Number(bps) / 10000}×`;
        const cell = form.closest('tr')?.querySelector('[data-testid=tier-payout]');
        if (cell) cell.textContent = x;
        say(b, `Payout change sent (${short(hash)}) and mined in block ${Number(receipt.blockNumber)}: rounds priced from now pay ${x}.`);
      } else if (receipt) {
        say(b, `The payout change (${short(hash)}) was refused by the factory: nothing changed.`, true);
      }
      return KEEP;
    },
    // approve signs a refund batch's Safe transaction with the connected wallet (EIP-712
    // SafeTx, typed as the Safe 1.4.1 contract hashes it, what the Safe app asks a wallet for)
    // and hands the signature to the service, which keeps it only when it recovers to one of the
    // treasury's owners, and otherwise says why.
    async approve(b) {
      const from = await ensureAccount();
      await ensureChain();
      const typed = {
        types: { EIP712Domain: SAFE_DOMAIN, SafeTx: SAFE_TX },
        primaryType: 'SafeTx',
        domain: { chainId: Number(site.chainId), verifyingContract: b.dataset.safe },
        message: JSON.parse(b.dataset.safeTx),
      };
      let signature = await current.wallet.provider.request({ method: 'eth_signTypedData_v4', params: [from, JSON.stringify(typed)] });
      if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) fail('Your wallet did not give a signature: try again.');
      // Some wallets (hardware ones) end the signature with 0 or 1 where the Safe reads 27 or 28.
      const v = parseInt(signature.slice(-2), 16);
      if (v < 27) signature = signature.slice(0, -2) + (v + 27).toString(16);
      const res = await fetch(b.dataset.approvals, {
        method: 'POST', credentials: 'same-origin',
        headers: { accept: 'application/json', 'content-type': 'application/json', 'X-CSRF-Token': b.dataset.csrf },
        body: JSON.stringify({ signature }),
      });
      if (!res.ok) await failed(res);
      location.reload();
      return KEEP;
    },
    // execute sends a ready refund batch's execTransaction, with its owners' signatures, from the
    // connected wallet to the treasury, and reports the transaction to the service when sent and
    // again when mined: one that reverts logs nothing on chain, so the report is how the batch's
    // page learns it was tried, and why the Safe refused it. The batch's status, which the page
    // polls, follows it until the payments pass records it.
    async execute(b) {
      const from = await ensureAccount();
      const hash = await send({ from, to: b.dataset.safe, data: b.dataset.exec });
      const report = () => fetch(b.dataset.executions, {
        method: 'POST', credentials: 'same-origin',
        headers: { accept: 'application/json', 'content-type': 'application/json', 'X-CSRF-Token': b.dataset.csrf },
        body: JSON.stringify({ txHash: hash }),
      });
      report().catch(() => {}); // the node may not know it yet: the report once mined tells it
      say(b, `Execution sent: ${hash}. Waiting for it to be mined…`);
      b.textContent = 'Execution sent';
      const receipt = await mined(current.wallet.provider, hash);
      if (!receipt) return KEEP;
      const res = await report();
      if (!res.ok) await failed(res);
      if (receipt.status !== '0x1') {
        const attempt = (await res.json()).attempts.find((a) => a.txHash === hash.toLowerCase());
        say(b, `The execution reverted (${hash}): the treasury paid nothing; only the network fee was spent. ${attempt?.reason ?? ''}`, true);
      } else {
        say(b, `Executed in block ${Number(receipt.blockNumber)} by ${hash}: ${b.dataset.done}`);
      }
      return KEEP;
    },
    async sync(b) {
      const res = await post('/api/nodes/sync', { nodeId: b.dataset.node });
      if (!res.ok) await failed(res);
      location.reload();
      return KEEP;
    },
    async copy(b) {
      await navigator.clipboard.writeText(b.dataset.copy);
      say(b, 'Copied.');
    },
  };

  // Withdraw all (/me): one withdraw per node with a balance, sent one after another from the
  // connected wallet, after one confirmation that lists each node, its amount and the
  // destination in full. The balances are the chain's, read when the list is drawn: what each
  // transaction withdraws is exactly what the confirmation showed.
  const planned = new WeakMap(); // the confirmation panel -> {from, to, factory, selector, items}
  Object.assign(actions, {
    async withdrawall(b) {
      const form = b.closest('form[data-withdraw-all]');
      const scope = form.closest('[data-wallet-scope]');
      const from = await ensureAccount();
      const owner = form.dataset.owner.toLowerCase();
      if (from !== owner) fail(`This wallet does not own these nodes: connect the owner's wallet, ${owner}.`);
      const to = (form.querySelector('[name=to]').value.trim() || owner).toLowerCase();
      if (!/^0x[0-9a-f]{40}$/.test(to)) fail('The destination is not an address: write 0x and 40 hex digits, or leave it empty for your own wallet.');
      if (/^0x0{40}$/.test(to)) fail('The destination cannot be the zero address.');
      await ensureChain();
      const items = [];
      for (const node of form.dataset.nodes.split(' ').filter(Boolean)) {
        const amount = await nodeBalance({ dataset: { node, factory: form.dataset.factory } });
        if (amount > 0n) items.push({ node, amount });
      }
      scope.querySelector('[data-withdraw-all-confirm]')?.remove();
      if (!items.length) fail('No node has a balance to withdraw just now.');
      const total = items.reduce((sum, i) => sum + i.amount, 0n);
      const n = items.length;
      const panel = h('div', { class: 'card confirm-all', 'data-withdraw-all-confirm': '', 'data-testid': 'withdraw-all-confirm', role: 'dialog', 'aria-label': 'Confirm the withdrawals' },
        h('p', {}, h('strong', {}, `Withdraw ${eth(total)} ETH from ${n === 1 ? '1 node' : n + ' nodes'}`), ` to ${to}: your wallet asks you to approve ${n === 1 ? 'one transaction' : n + ' transactions, one after another'}.`),
        h('ol', { class: 'plan' }, ...items.map((i) => h('li', { 'data-testid': 'withdraw-all-item', 'data-node': i.node },
          `Node ${i.node}: ${eth(i.amount)} ETH to `, h('code', { class: 'wrap' }, to)))),
        h('p', { class: 'actions' },
          h('button', { type: 'button', 'data-wallet': 'withdrawallsend', 'data-testid': 'withdraw-all-send' }, `Send ${n === 1 ? 'the withdrawal' : n + ' withdrawals'}`),
          ' ',
          h('button', { type: 'button', class: 'secondary', 'data-wallet': 'withdrawallcancel' }, 'Cancel')));
      planned.set(panel, { from, to, factory: form.dataset.factory, selector: form.dataset.selector, items, total });
      form.after(panel);
    },
    async withdrawallcancel(b) {
      b.closest('[data-withdraw-all-confirm]').remove();
      return KEEP;
    },
    async withdrawallsend(b) {
      const panel = b.closest('[data-withdraw-all-confirm]');
      const plan = planned.get(panel);
      if (await ensureAccount() !== plan.from) fail(`Connect the wallet the list was made for, ${plan.from}, and press again.`);
      for (const c of panel.querySelectorAll('[data-wallet=withdrawallcancel]')) c.remove();
      const done = [];
      const count = plan.items.length;
      // A press after a failure sends only what is left: each paid node leaves the plan.
      for (const [k, i] of [...plan.items].entries()) {
        const li = panel.querySelector(`[data-testid=withdraw-all-item][data-node="${i.node}"]`);
        b.textContent = `Waiting for your wallet (${k + 1} of ${count})…`;
        let hash;
        try {
          hash = await send({ from: plan.from, to: plan.factory, data: plan.selector + word(BigInt(i.node).toString(16)) + word(plan.to) + word(i.amount.toString(16)) });
        } catch (err) {
          const left = plan.items.length;
          fail(`${sentence(err, 'Your wallet could not send this transaction.')} ${done.length ? `${done.length} withdrawn; ` : ''}${left === 1 ? 'node ' + i.node + ' was' : left + ' nodes were'} not withdrawn.`);
        }
        b.textContent = `Withdrawal ${k + 1} of ${count} sent…`;
        const receipt = await mined(current.wallet.provider, hash);
        if (receipt && receipt.status !== '0x1') {
          fail(`The withdrawal from node ${i.node} failed on chain (${short(hash)}): nothing left it; only the network fee was spent. The nodes after it were not withdrawn.`);
        }
        li.classList.add('good');
        li.setAttribute('data-done', hash);
        li.append(` · paid out in ${short(hash)}`);
        done.push(hash);
        plan.items.shift();
      }
      b.textContent = 'Withdrawn';
      // Done: nothing offers to withdraw again until the page shows the new balances.
      const again = panel.closest('[data-wallet-scope]')?.querySelector('[data-wallet=withdrawall]');
      if (again) {
        again.disabled = true;
        again.dataset.busy = '1'; // markButtons leaves it so
        again.textContent = 'Withdrawn';
      }
      const paid = panel.querySelectorAll('[data-done]').length;
      say(b, `Paid out: ${eth(plan.total)} ETH from ${paid === 1 ? '1 node' : paid + ' nodes'} to ${plan.to}. Reload the page in a minute to see them in the figures above, once the ledger records them.`);
      return KEEP;
    },
  });
  // What a failed action says when its error tells nothing a person can use.
  const fallbacks = {
    pay: 'Your wallet could not send this transaction.',
    withdraw: 'Your wallet could not send this transaction.',
    refund: 'Your wallet could not send this transaction.',
    weight: 'Your wallet could not send this transaction.',
    execute: 'Your wallet could not send this transaction.',
    approve: 'Your wallet could not sign this batch.',
    signin: 'Signing in did not work: try again.',
    copy: 'Copying did not work: select the text and copy it by hand.',
  };
  // The actions that open a wallet prompt: their button says so while it is open.
  const prompts = new Set(['connect', 'choose', 'switch', 'signin', 'pay', 'withdraw', 'refund', 'weight', 'approve', 'execute']);
  for (const a of ['withdrawall', 'withdrawallsend']) {
    needsWallet.add(a);
    prompts.add(a);
  }

  document.addEventListener('click', async (e) => {
    const b = e.target.closest('[data-wallet]');
    const action = b?.dataset.wallet;
    if (!action || !Object.hasOwn(actions, action)) return;
    e.preventDefault();
    // One press at a time: a second press while the first waits must not send a second time.
    if (b.disabled || b.dataset.busy) return;
    b.dataset.busy = '1';
    b.disabled = true;
    if (b.dataset.payLabel) { // "Switch to … and pay": what it says after is its own label
      b.textContent = b.dataset.payLabel;
      delete b.dataset.payLabel;
    }
    const label = [...b.childNodes];
    if (prompts.has(action)) b.textContent = 'Waiting for your wallet…';
    say(b, '');
    let outcome;
    try {
      outcome = await actions[action](b);
    } catch (err) {
      say(b, sentence(err, fallbacks[action] || 'That did not work: reload the page and try again.'), true);
    } finally {
      delete b.dataset.busy;
      if (outcome !== KEEP) {
        if (relabel.has(b)) b.textContent = relabel.get(b);
        else b.replaceChildren(...label);
        relabel.delete(b);
        b.disabled = false;
        markNetwork(); // a switch the person declined leaves the button saying it switches
      }
    }
  });

  // A form with data-confirm (the operator page's Switch off and Hold minting) asks before it
  // acts, in the words of what happens; the server acts as before once asked.
  document.addEventListener('submit', (e) => {
    const question = e.target.dataset?.confirm;
    if (question && !window.confirm(question)) e.preventDefault();
  }, true);

  // tierSave is the tier form's Save: it warns before a tier that earns 0× or sells nothing is
  // saved, and, when the payout multiplier differs from the factory's, sends setTierWeight from
  // the owner's connected wallet and waits for it to be mined before posting the form, so the
  // page the save returns shows the tier's new payout.
  const tierSave = async (form) => {
    const b = form.querySelector('[data-testid=save-tier]');
    const typed = form.querySelector('[name=payout]').value.trim();
    const chain = form.dataset.chainBps === '' ? null : BigInt(form.dataset.chainBps);
    // A new tier has no weight on the factory until its owner sets one: it earns 0×.
    const bps = typed ? toBps(typed) : (chain ?? 0n);
    const enabled = form.querySelector('[name=enabled]').checked;
    const name = form.querySelector('[name=label]').value.trim() || 'This tier';
    const warnings = [];
    if (bps === 0n) warnings.push(`${name} earns 0×: a node of it earns nothing in a round.`);
    if (!enabled) warnings.push(`${name} is switched off: it sells nothing until you switch it on.`);
    if (warnings.length && !window.confirm(warnings.join(' ') + ' Save it anyway?')) return false;
    if (typed && bps !== chain) {
      // Nothing goes to the chain for a form the save would refuse: posted as typed, the page
      // comes back with why beside each field.
      const check = new URLSearchParams(new FormData(form));
      check.set('check', 'true');
      const res = await fetch(form.action, { method: 'POST', credentials: 'same-origin', body: check });
      if (res.status === 422) return true;
      if (!res.ok) await failed(res);
      const from = await ensureAccount();
      const data = form.dataset.selector + word(BigInt(form.querySelector('[name=id]').value).toString(16)) + word(bps.toString(16));
      const hash = await send({ from, to: form.dataset.factory, data });
      say(b, `Payout change sent (${short(hash)}): saving the tier once it is mined…`);
      const receipt = await mined(current.wallet.provider, hash);
      if (!receipt) fail(`The payout change (${hash}) is not mined yet: save again once it is, or check it on the explorer.`);
      if (receipt.status !== '0x1') fail(`The payout change (${hash}) was refused by the factory: only its owner's wallet may change a payout.`);
    }
    return true;
  };
  document.addEventListener('submit', async (e) => {
    const form = e.target;
    if (!form.matches?.('form[data-tier-save]') || e.defaultPrevented) return;
    e.preventDefault();
    const b = form.querySelector('[data-testid=save-tier]');
    if (b.disabled) return;
    b.disabled = true;
    say(b, '');
    try {
      if (await tierSave(form)) {
        form.submit(); // not requestSubmit: that would come back here
        return;
      }
    } catch (err) {
      say(b, sentence(err, 'Your wallet could not send the payout change: the tier is not saved.'), true);
    }
    b.disabled = false;
  });
  // A new tier's button says what creating it does: on sale, or off.
  document.addEventListener('change', (e) => {
    const form = e.target.closest?.('form[data-tier-save]');
    const b = form?.querySelector('[data-on-sale]');
    if (!b || e.target.name !== 'enabled' || form.querySelector('[name=editing]')) return;
    b.textContent = e.target.checked ? b.dataset.onSale : b.dataset.offSale;
  });

  window.dispatchEvent(new Event('eip6963:requestProvider'));
  addInjected();
  update();
  resume();
  tick();
  // Wallets answer the request at once; give a slow one a moment before saying there is none.
  setTimeout(() => {
    addInjected();
    settled = true;
    update();
    resume();
  }, 500);
})();
