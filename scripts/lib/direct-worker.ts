// One local stack's worker, served by wrangler's own dev environment (the bundler, workerd, local D1
// and KV, the assets, exactly as `wrangler dev --local` sets them up), with its address printed as
// the worker's own rather than that of wrangler dev's proxy. The proxy exists to reload the worker
// on an edit and to inject a live-reload script into every HTML page; each request through it costs
// about as much CPU again as the worker itself (docs/operations.md "The test suite's time"). The
// browser tests edit nothing, so they talk to the worker directly (scripts/lib/local-server.ts,
// `direct`); `npm start` keeps the proxy.
//
// Run by startDevServer as `node scripts/lib/direct-worker.ts <options as JSON>`: prints one line,
// `ready <url>`, once the worker answers, and stops the stack on SIGTERM or when its parent goes.
import { unstable_DevEnv } from 'wrangler';

interface DirectWorkerOptions {
  host: string;
  configPath?: string;
  envFile?: string;
  assetsDir?: string;
  persistTo?: string;
  vars: Record<string, string>;
  testScheduled?: boolean;
}

const options = JSON.parse(process.argv[2] ?? '{}') as DirectWorkerOptions;
// The date-sensitive tests under a moved clock (scripts/test-dates.ts) serve the real worker through
// an entry that moves its Date (tests/harness/moved-clock-worker.ts); otherwise wrangler.jsonc's main.
const movedClock = options.vars.TEST_CLOCK_OFFSET_MS ? { entrypoint: 'tests/harness/moved-clock-worker.ts' } : {};
const devEnv = new unstable_DevEnv();
const workerUrl = new Promise<string>((resolve) => {
  devEnv.on('reloadComplete', (event: { proxyData: { userWorkerUrl: { protocol: string; hostname: string; port: string } } }) => {
    const { protocol, hostname, port } = event.proxyData.userWorkerUrl;
    resolve(`${protocol}//${hostname}:${port}`);
  });
});

let stopping: Promise<void> | undefined;
const stop = () => {
  stopping ??= devEnv.teardown().finally(() => process.exit(0));
  return stopping;
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// The parent closes this pipe when it exits, however it exits: the stack never outlives it.
process.stdin.on('close', stop);
process.stdin.resume();

await devEnv.startWorker({
  config: options.configPath ?? 'wrangler.jsonc',
  ...movedClock,
  envFiles: options.envFile ? [options.envFile] : undefined,
  assets: options.assetsDir,
  bindings: Object.fromEntries(Object.entries(options.vars).map(([name, value]) => [name, { type: 'plain_text', value }])),
  dev: {
    remote: false,
    // wrangler still opens its proxy (on a port of the OS's choosing); nothing calls it.
    server: { hostname: options.host, port: 0 },
    inspector: false,
    persist: options.persistTo,
    watch: false,
    liveReload: false,
    testScheduled: options.testScheduled,
  },
});
console.log(`ready ${await workerUrl}`);
