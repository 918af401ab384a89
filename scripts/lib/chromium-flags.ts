// The flags Debian's chromium needs on this machine (no sandbox as root, no background network),
// shared by the browser tests (tests/harness/e2e/browser.ts) and the Lighthouse benchmark.
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
