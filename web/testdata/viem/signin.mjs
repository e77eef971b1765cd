// Signs in to a nodeledger server with viem, as a wallet would, and prints /api/me.
//
//   node signin.mjs BASE_URL PRIVATE_KEY
//
// e.g. against `make run`, as dev account 3:
//   node signin.mjs http://127.0.0.1:8080 0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6
import { privateKeyToAccount } from 'viem/accounts';

const [base, key] = process.argv.slice(2);
if (!base || !key) {
  console.error('usage: node signin.mjs BASE_URL PRIVATE_KEY');
  process.exit(2);
}
const account = privateKeyToAccount(key);
const cookies = new Map();

async function call(method, path, body) {
  const headers = { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  for (const c of res.headers.getSetCookie()) {
    const [pair] = c.split(';');
    const [name, value] = pair.split('=');
    if (value === '' || /max-age=(0|-)/i.test(c)) cookies.delete(name);
    else cookies.set(name, value);
  }
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const { message } = await call('GET', `/api/auth/nonce?address=${account.address}`);
const signature = await account.signMessage({ message }); // EIP-191 personal sign
await call('POST', '/api/auth/verify', { address: account.address, signature });
console.log(JSON.stringify(await call('GET', '/api/me')));
