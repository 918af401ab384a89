// `npm run bench:newsletter`: the newsletter pipeline at scale, with a crash in the middle.
//
// 10,000 active subscribers in a fresh local D1; the real worker under `wrangler dev --local`
// sends through its MailChannels transport, pointed (MAILCHANNELS_API_URL) at a fake MailChannels:
// a real HTTP server on 127.0.0.1 that records every request. The admin starts the send; the Cron
// Trigger (fired through wrangler's /__scheduled) sends the rest, one batch per invocation. At about
// half, the fake stops answering and wrangler is killed (SIGKILL) while an invocation is waiting
// for the provider: that batch reached the provider but its outcome was never recorded. wrangler
// restarts on the same database and the following cron ticks finish the send.
import { type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyLocalMigrations, executeLocalSql, projectRoot, startDevServer } from './lib/local-server.ts';

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 10_000);
const BATCH_SIZE = process.env.NEWSLETTER_BATCH_SIZE ?? '40';
const KILL_AT = Math.floor(SUBSCRIBERS / 2);
const ADMIN = { username: 'bench-admin', password: 'bench-password-123' };

// ---- the fake MailChannels -------------------------------------------------------------------
const received: string[] = [];
let holding = false;
const held: ServerResponse[] = [];
let onThreshold: (() => void) | null = null;

const provider = createServer((req: IncomingMessage, res: ServerResponse) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    if (req.url !== '/tx/v1/send' || req.headers['x-api-key'] !== 'bench-key') {
      res.writeHead(404).end();
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { personalizations: { to: { email: string }[] }[] };
    for (const p of body.personalizations) for (const to of p.to) received.push(to.email);
    if (holding) {
      held.push(res); // accepted by the provider, but the answer never gets back
      return;
    }
    res.writeHead(202, { 'content-type': 'application/json' }).end(JSON.stringify({ request_id: `bench-${received.length}` }));
    if (received.length >= KILL_AT && onThreshold) {
      const fire = onThreshold;
      onThreshold = null;
      fire();
    }
  });
});
await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
const providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/tx/v1`;

// ---- a fresh local D1 with 10,000 active subscribers -----------------------------------------
const workDir = mkdtempSync(join(tmpdir(), 'bench-newsletter-'));
const persistTo = join(workDir, 'state');
applyLocalMigrations(persistTo);
executeLocalSql(
  `INSERT INTO newsletter_subscriptions (email, active, confirmed_at)
   WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${SUBSCRIBERS})
   SELECT 'subscriber' || i || '@bench.example', 'true', 1 FROM n;`,
  persistTo,
);

// wrangler.toml without [assets]: with Workers Static Assets the 404 page answers /__scheduled
// before the worker sees it. Written under .wrangler/ (git-ignored), so paths point one level up.
const configDir = join(projectRoot, '.wrangler');
mkdirSync(configDir, { recursive: true });
const configPath = join(configDir, 'bench-newsletter.toml');
writeFileSync(
  configPath,
  readFileSync(join(projectRoot, 'wrangler.toml'), 'utf8')
    .replace(/\n\[assets\][\s\S]*?(?=\n\[)/, '\n')
    .replace('main = "worker/index.ts"', 'main = "../worker/index.ts"')
    .replace('migrations_dir = "migrations"', 'migrations_dir = "../migrations"'),
);

interface TickStats {
  source?: string;
  claimed: number;
  providerRequests: number;
  d1Calls: number;
  subrequests: number;
  status: string | null;
}
const ticks: TickStats[] = [];

async function start(port: number) {
  const server = await startDevServer({
    port,
    persistTo,
    pipeOutput: true,
    testScheduled: true,
    configPath,
    admin: { ...ADMIN, jwtSecret: 'bench-secret-0123456789abcdef0123456789abcdef' },
    vars: {
      MAILCHANNELS_API_KEY: 'bench-key',
      MAILCHANNELS_API_URL: providerUrl,
      NEWSLETTER_BATCH_SIZE: BATCH_SIZE,
      // Claims older than this count as interrupted; wrangler's restart takes longer than this.
      NEWSLETTER_CLAIM_LEASE_SECONDS: '5',
      SITE_URL: 'https://www.northgatecpa.example',
    },
  });
  watchOutput(server.process);
  return server;
}

function watchOutput(child: ChildProcess) {
  let buffer = '';
  const onData = (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      const at = line.indexOf('[newsletter-batch] ');
      if (at >= 0) ticks.push(JSON.parse(line.slice(at + '[newsletter-batch] '.length)) as TickStats);
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
}

function killHard(child: ChildProcess) {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

const cron = (url: string) => fetch(`${url}/__scheduled?cron=${encodeURIComponent('0 * * * *')}`);

const port = 9300 + Math.floor(Math.random() * 300);
const started = performance.now();
let server = await start(port);

// The admin signs in and sends; the request delivers the first batch itself.
const login = await fetch(`${server.url}/api/admin/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(ADMIN),
});
if (!login.ok) throw new Error(`login failed: ${login.status}`);
const cookie = login.headers.getSetCookie()[0].split(';')[0];
const send = await fetch(`${server.url}/api/admin/send-newsletter`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', cookie },
  body: JSON.stringify({ subject: 'Bench newsletter', content: '<h2>Year-end tax moves</h2><p>Hello from the benchmark.</p>' }),
});
if (!send.ok) throw new Error(`send failed: ${send.status} ${await send.text()}`);

// Cron ticks until the fake provider has seen half the recipients; then the crash.
const crashed = new Promise<void>((resolve) => {
  onThreshold = () => {
    holding = true;
    // Let the rest of the in-flight batch reach the provider, then kill wrangler mid-invocation.
    setTimeout(() => {
      killHard(server.process);
      resolve();
    }, 500);
  };
});
let crashDone = false;
void crashed.then(() => {
  crashDone = true;
});
let ticksBeforeCrash = 0;
console.log(`bench: send started; cron ticks until the provider has seen ${KILL_AT} recipients, then the crash`);
while (!crashDone) {
  let res: Response;
  try {
    res = await cron(server.url);
  } catch {
    break; // the server died under the tick
  }
  const text = await res.text();
  if (!res.ok || !/scheduled/i.test(text)) throw new Error(`cron tick not handled by the worker: ${res.status} ${text.slice(0, 80)}`);
  ticksBeforeCrash++;
  if (ticksBeforeCrash > SUBSCRIBERS) throw new Error('no progress');
}
await crashed;
const receivedAtCrash = received.length;
for (const res of held) res.destroy();
held.length = 0;
holding = false;
const ticksLoggedBeforeCrash = ticks.length;

// Restart on the same database; the next cron ticks finish the rest.
console.log(`bench: wrangler killed after ${ticksBeforeCrash} ticks with ${receivedAtCrash} recipients at the provider; restarting`);
await new Promise((resolve) => setTimeout(resolve, 1000));
server = await start(port + 1);
let status = 'sending';
let ticksAfterCrash = 0;
for (let i = 0; i < 1000 && status !== 'sent'; i++) {
  const res = await cron(server.url);
  const text = await res.text();
  if (!res.ok || !/scheduled/i.test(text)) throw new Error(`cron tick not handled by the worker: ${res.status} ${text.slice(0, 80)}`);
  ticksAfterCrash++;
  const list = (await (await fetch(`${server.url}/api/admin/sent-newsletters`, { headers: { cookie } })).json()) as {
    status: string;
    recipientCount: number;
    failedCount: number;
    totalRecipients: number;
  }[];
  status = list[0]?.status ?? 'missing';
}
const wallSeconds = (performance.now() - started) / 1000;
const [newsletter] = (await (await fetch(`${server.url}/api/admin/sent-newsletters`, { headers: { cookie } })).json()) as {
  status: string;
  recipientCount: number;
  failedCount: number;
  totalRecipients: number;
}[];
await server.stop();
provider.close();

// ---- the figures ---------------------------------------------------------------------------
const counts = new Map<string, number>();
for (const email of received) counts.set(email, (counts.get(email) ?? 0) + 1);
const duplicates = [...counts.values()].filter((n) => n > 1).length;
let missing = 0;
for (let i = 1; i <= SUBSCRIBERS; i++) if (!counts.has(`subscriber${i}@bench.example`)) missing++;
const maxSubrequests = Math.max(...ticks.map((t) => t.subrequests));
const d1Queries = ticks.reduce((sum, t) => sum + t.d1Calls, 0);

const rows: [string, string | number][] = [
  ['subscribers', SUBSCRIBERS],
  ['batch size (NEWSLETTER_BATCH_SIZE)', BATCH_SIZE],
  ['wall time', `${wallSeconds.toFixed(1)} s (includes two wrangler starts)`],
  ['invocations (admin send + cron ticks)', `${ticks.length} logged (${ticksLoggedBeforeCrash} before the crash, ${ticksAfterCrash} cron ticks after; the killed one never logged)`],
  ['requests to the provider', received.length],
  ['  of which before the crash', receivedAtCrash],
  ['largest subrequests in one invocation', `${maxSubrequests} (D1 calls + provider requests; limit 50 free / 1000 paid)`],
  ['D1 queries (all logged invocations)', d1Queries],
  ['recipients delivered (provider saw them)', counts.size],
  ['duplicates (must be 0)', duplicates],
  ['missing (must be 0)', missing],
  ['newsletter status', newsletter.status],
  ['recipientCount (confirmed by the provider)', `${newsletter.recipientCount} of ${newsletter.totalRecipients}`],
  ['outcome unknown (interrupted, not retried)', newsletter.failedCount],
];
const width = Math.max(...rows.map(([k]) => k.length));
console.log('\nbench:newsletter');
for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`);
rmSync(workDir, { recursive: true, force: true });
if (duplicates !== 0 || missing !== 0 || newsletter.status !== 'sent') process.exitCode = 1;
