// How long a buyer waits, in dev mode, from sending a payment to its tracker saying "minted":
// sends a payment to a running dev server (`make run`) and polls the tracker's status partial
// (/partials/payment/{txHash}, what the page's htmx polls every 2 s; here every 0.5 s for a finer
// reading), printing the time each status was first seen.
//
//   node bench/payment-latency.mjs [BASE_URL] [RPC_URL] [RUNS]
//
// Defaults: http://127.0.0.1:8080, http://127.0.0.1:8545, 3 runs. Each run pays from a new key,
// funded first by the dev chain's buyer account 5 (test mnemonic, m/44'/60'/0'/0/8), so that no
// wallet limit rejects it; viem comes from the browser tests' npm install (make test).
import { createRequire } from 'node:module';

const require = createRequire(new URL('../web/testdata/browser/package.json', import.meta.url));
const { createPublicClient, createWalletClient, http } = require('viem');
const { mnemonicToAccount, generatePrivateKey, privateKeyToAccount } = require('viem/accounts');

const [base = 'http://127.0.0.1:8080', rpc = 'http://127.0.0.1:8545', runs = '3'] = process.argv.slice(2);
const funder = mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: 8 });
const quote = await (await fetch(base + '/api/deploy-quote')).json();
const chain = { id: quote.chainId, name: 'dev', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpc] } } };
const client = createPublicClient({ chain, transport: http(rpc) });
const funding = createWalletClient({ account: funder, chain, transport: http(rpc) });

for (let run = 1; run <= Number(runs); run++) {
  const account = privateKeyToAccount(generatePrivateKey());
  const funded = await funding.sendTransaction({ to: account.address, value: BigInt(quote.priceWei) * 2n });
  await client.waitForTransactionReceipt({ hash: funded });
  const wallet = createWalletClient({ account, chain, transport: http(rpc) });
  const start = performance.now();
  const hash = await wallet.sendTransaction({ to: quote.paymentAddress, value: BigInt(quote.priceWei) });
  const seen = {};
  let status = 'sent';
  while (status !== 'minted') {
    const res = await fetch(base + '/partials/payment/' + hash);
    status = /data-status="([a-z]+)"/.exec(await res.text())?.[1] ?? 'unreadable';
    seen[status] ??= ((performance.now() - start) / 1000).toFixed(1) + ' s';
    if (process.env.DEBUG) console.log(new Date().toISOString(), status, hash);
    if (['rejected', 'refunded'].includes(status)) throw new Error(`payment ${hash} was ${status}`);
    if (performance.now() - start > 180_000) throw new Error(`payment ${hash} still ${status} after 3 minutes`);
    await new Promise((r) => setTimeout(r, 500));
  }
  console.log(`run ${run}: ${Object.entries(seen).map(([s, t]) => `${s} ${t}`).join(', ')}`);
}
