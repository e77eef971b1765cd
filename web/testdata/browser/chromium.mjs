// One Chromium for every browser test file: web/browser_test.go starts this, reads the endpoint it
// prints, and passes it to the files as BROWSER_ENDPOINT (harness.mjs connects to it); the browser
// goes when this process does.
import { chromium } from 'playwright-core';

const server = await chromium.launchServer({
  executablePath: process.env.CHROMIUM,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
console.log(server.wsEndpoint());
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.close().then(() => process.exit(0)));
process.stdin.resume(); // ends with the test: its stdin closes
process.stdin.on('end', () => server.close().then(() => process.exit(0)));
