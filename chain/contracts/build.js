// Compiles every .sol file here and in test/ with the pinned solc-js and writes each contract's
// ABI and bytecode to build/, for abigen. Settings live here so the output is reproducible.
'use strict';
const fs = require('fs');
const path = require('path');
const solc = require('solc');

const dirs = ['.', 'test'];
const sources = {};
for (const dir of dirs) {
  for (const file of fs.readdirSync(path.join(__dirname, dir)).sort()) {
    if (file.endsWith('.sol')) {
      const name = path.posix.join(dir, file).replace(/^\.\//, '');
      sources[name] = { content: fs.readFileSync(path.join(__dirname, name), 'utf8') };
    }
  }
}

const input = {
  language: 'Solidity',
  sources,
  settings: {
    optimizer: { enabled: true, runs: 10000 },
    evmVersion: 'cancun',
    outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
  },
};
const output = JSON.parse(solc.compile(JSON.stringify(input)));
let failed = false;
for (const e of output.errors || []) {
  console.error(e.formattedMessage);
  if (e.severity === 'error') failed = true;
}
if (failed) process.exit(1);

const out = path.join(__dirname, 'build');
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out);
for (const [file, contracts] of Object.entries(output.contracts)) {
  for (const [name, c] of Object.entries(contracts)) {
    if (!c.evm.bytecode.object) continue; // interfaces
    fs.writeFileSync(path.join(out, `${name}.abi`), JSON.stringify(c.abi, null, 1) + '\n');
    fs.writeFileSync(path.join(out, `${name}.bin`), c.evm.bytecode.object + '\n');
    console.log(`compiled ${file}:${name}`);
  }
}
// Safe's contracts, as Safe published them (npm @safe-global/safe-contracts 1.4.1): the treasury
// is the same bytecode every Safe on mainnet runs, not a build of ours.
const safe = path.join(__dirname, 'node_modules/@safe-global/safe-contracts/build/artifacts/contracts');
for (const artifact of ['Safe.sol/Safe', 'proxies/SafeProxyFactory.sol/SafeProxyFactory',
  'libraries/MultiSendCallOnly.sol/MultiSendCallOnly', 'handler/CompatibilityFallbackHandler.sol/CompatibilityFallbackHandler']) {
  const a = JSON.parse(fs.readFileSync(path.join(safe, `${artifact}.json`), 'utf8'));
  fs.writeFileSync(path.join(out, `${a.contractName}.abi`), JSON.stringify(a.abi, null, 1) + '\n');
  fs.writeFileSync(path.join(out, `${a.contractName}.bin`), a.bytecode.replace(/^0x/, '') + '\n');
  console.log(`copied @safe-global/safe-contracts ${artifact}`);
}
console.log(`solc ${solc.version()}`);
